//! The coin game (take 1, X or Y) and subtraction games: Grundy values with a proven period,
//! any number of piles of any size.

use super::{MAX_LISTED_MOVES, Report, after_heap_move, big_json, heap_move, join};
use crate::budget::{Budget, OverBudget};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use crate::subtraction::{self, Analysis, Limits, Rule, SubtractionError, SubtractionSet};
use crate::{Outcome, parse};
use num_bigint::BigUint;
use serde_json::{Map, Value, json};

/// Time a pile size costs the period search at worst, measured with moves up to 10^8 (3.1 s
/// for 2 x 10^8 sizes).
pub const SECONDS_PER_VALUE: f64 = 1.5e-8;

/// The largest single pile whose moves get their remoteness (8 bytes and one pass over the
/// moves a pile smaller than it).
pub const MAX_REMOTENESS_PILE: u64 = 1_000_000;

/// Time a pile's value costs the general method per move of the set: 64 moves near 10^8
/// took 19.4 s for 2 x 10^8 piles.
pub const SECONDS_PER_MOVE: f64 = 1.5e-9;

/// Time a pile's value costs the general method for `set`, at least [`SECONDS_PER_VALUE`].
#[must_use]
pub fn seconds_per_value(set: &SubtractionSet) -> f64 {
    SECONDS_PER_VALUE.max(set.moves().len() as f64 * SECONDS_PER_MOVE)
}

/// The limits under `budget`, `limit` the period search's (None: the default).
#[must_use]
pub fn limits(limit: Option<u64>, budget: &Budget) -> Limits {
    limits_at(limit, budget, SECONDS_PER_VALUE)
}

/// [`limits`] for `set`: a time budget affords fewer piles of a set of many moves.
#[must_use]
pub fn limits_for(set: &SubtractionSet, limit: Option<u64>, budget: &Budget) -> Limits {
    limits_at(limit, budget, seconds_per_value(set))
}

fn limits_at(limit: Option<u64>, budget: &Budget, seconds_per_value: f64) -> Limits {
    let defaults = Limits::default();
    // The general method keeps one byte a pile: the memory limit bounds it too.
    let memory = budget.memory(u64::MAX);
    Limits {
        max_values: budget.limit_by_time(
            budget.cap(limit.unwrap_or(defaults.max_values).min(memory), 2_000),
            seconds_per_value,
        ),
        max_streamed_values: budget.limit_by_time(
            budget.cap(limit.unwrap_or(defaults.max_streamed_values), 20_000),
            SECONDS_PER_VALUE,
        ),
        max_search_states: budget.cap(defaults.max_search_states, 2_000),
        max_bytes: memory,
        cancel: budget.cancel.clone(),
        ..defaults
    }
}

/// A failure of the solver: a period search stopped by the time budget's cap is over the
/// budget; anything else is bad input.
#[must_use]
pub fn query_error(error: SubtractionError, budget: &Budget, set: &SubtractionSet) -> QueryError {
    match error {
        SubtractionError::NoPeriod(n)
            if budget.seconds.is_some()
                && [SECONDS_PER_VALUE, seconds_per_value(set)]
                    .iter()
                    .any(|&each| budget.affordable(each) == Some(n)) =>
        {
            budget
                .stopped_at_cap(format!("proving the period (past {n} pile sizes)"))
                .into()
        }
        // No proof fits under the time budget's cap: the least it needs is the estimate.
        SubtractionError::PeriodPastLimit { needed, limit }
            if budget.seconds.is_some()
                && budget.affordable(seconds_per_value(set)) == Some(limit) =>
        {
            OverBudget {
                what: format!("proving the period (at least {needed} pile sizes)"),
                estimate: needed as f64 * seconds_per_value(set),
                at_least: true,
                budget: budget.seconds.unwrap_or(0.0),
            }
            .into()
        }
        e @ SubtractionError::PeriodPastLimit { limit, .. }
            if budget.memory_limit.is_some_and(|m| m <= limit) =>
        {
            QueryError::BadInput(format!(
                "{e}; the memory limit of {} holds that many piles at a byte each; raise --memory-limit",
                parse::human_size(budget.memory(u64::MAX))
            ))
        }
        // The memory limit bounded the search (a byte a pile): it is the one to raise.
        e @ SubtractionError::NoPeriod(n) if budget.memory_limit.is_some_and(|m| m <= n) => {
            QueryError::BadInput(format!(
                "{e}: the memory limit of {} holds that many piles at a byte each; raise --memory-limit",
                parse::human_size(budget.memory(u64::MAX))
            ))
        }
        e => e.into(),
    }
}

/// A pile size in decimal, any length; `what` names it in the message (`pile`).
///
/// # Errors
/// Anything but a whole number.
pub fn parse_heap(what: &str, text: &str) -> Result<BigUint, QueryError> {
    parse::natural(text).map_err(|e| QueryError::BadInput(format!("{what} {e}")))
}

/// The coin game's position `N X Y`: the pile and the set {1, X, Y}.
///
/// # Errors
/// Not three numbers, or a move out of range.
pub fn parse_coins(position: &str) -> Result<(BigUint, SubtractionSet), QueryError> {
    let words: Vec<&str> = position.split_whitespace().collect();
    let [n, x, y] = words[..] else {
        return Err(QueryError::BadInput(format!(
            "give N X Y (the pile and the two moves besides 1), e.g. `perfect-play coins 10 3 4`; got {} number(s)",
            words.len()
        )));
    };
    let pile = parse_heap("pile N:", n)?;
    let mv = |name: &str, t: &str| -> Result<u64, QueryError> {
        parse::count_in(t, 1, subtraction::MAX_MOVE)
            .map_err(|e| QueryError::BadInput(format!("move {name}: {e}")))
    };
    let set = SubtractionSet::coin_game(mv("X", x)?, mv("Y", y)?).map_err(QueryError::bad)?;
    Ok((pile, set))
}

/// The registry's answer for `coins` (`position` N X Y) or `subtraction` (`moves`, the piles).
///
/// # Errors
/// A position or move set not accepted, or work over the budget.
pub fn answer_coins(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let (pile, set) = parse_coins(position)?;
    let game = Game::coins(set, rule(params));
    let pattern = params.text("pattern") == Some("true");
    let limits = limits_for(&game.set, None, budget);
    Ok(report(&game, &[pile], pattern, &limits, budget)?.answer)
}

/// The registry's answer for `subtraction`: `moves` the set, `position` the piles.
///
/// # Errors
/// A position or move set not accepted, or work over the budget.
pub fn answer_subtraction(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let moves = parse::list_in(params.text("moves").unwrap_or(""), 1, u64::MAX)
        .map_err(|e| QueryError::BadInput(format!("moves: {e}")))?;
    let set = SubtractionSet::new(&moves).map_err(QueryError::bad)?;
    let piles = position
        .split_whitespace()
        .map(|p| parse_heap("pile", p))
        .collect::<Result<Vec<_>, _>>()?;
    if piles.is_empty() {
        return Err(QueryError::BadInput("give the piles, e.g. 7 9".to_string()));
    }
    let game = Game::subtraction(set, rule(params));
    let pattern = params.text("pattern") == Some("true");
    let limits = limits_for(&game.set, None, budget);
    Ok(report(&game, &piles, pattern, &limits, budget)?.answer)
}

fn rule(params: &Params) -> Rule {
    if params.text("misere") == Some("true") {
        Rule::Misere
    } else {
        Rule::Normal
    }
}

/// A subtraction game as asked: its name (`coins` or `subtraction`), moves and rule.
#[derive(Clone, Debug)]
pub struct Game {
    /// `coins` or `subtraction`.
    pub name: &'static str,
    /// The moves.
    pub set: SubtractionSet,
    /// The rule.
    pub rule: Rule,
}

impl Game {
    /// The coin game with these moves.
    #[must_use]
    pub fn coins(set: SubtractionSet, rule: Rule) -> Game {
        Game {
            name: "coins",
            set,
            rule,
        }
    }

    /// A subtraction game with these moves.
    #[must_use]
    pub fn subtraction(set: SubtractionSet, rule: Rule) -> Game {
        Game {
            name: "subtraction",
            set,
            rule,
        }
    }

    /// The position of `piles` in the game's notation: the piles, then for the coin game the
    /// two moves besides 1 (1 again where the set has fewer: `coins 10 1 3` is {1, 3}).
    #[must_use]
    pub fn position(&self, piles: &[BigUint]) -> String {
        let heaps = if piles.is_empty() {
            "0".to_string()
        } else {
            join(piles)
        };
        if self.name != "coins" {
            return heaps;
        }
        let mut besides: Vec<u64> = self
            .set
            .moves()
            .iter()
            .copied()
            .filter(|&m| m != 1)
            .collect();
        while besides.len() < 2 {
            besides.insert(0, 1);
        }
        format!("{heaps} {}", join(&besides))
    }
}

/// The game at `piles` (at least one) under `limits`; `pattern` adds the first 200 values.
///
/// # Errors
/// As [`subtraction::analyse`], over the budget when stopped at its cap.
pub fn report(
    game: &Game,
    piles: &[BigUint],
    pattern: bool,
    limits: &Limits,
    budget: &Budget,
) -> Result<Report<Analysis>, QueryError> {
    let mut a = subtraction::analyse(&game.set, game.rule, piles, limits)
        .map_err(|e| query_error(e, budget, &game.set))?;
    // Equal piles give the same positions: each listed once, for the first of them.
    super::distinct(&mut a.winning_moves, |m| {
        let left: Vec<BigUint> = std::iter::once(m.leaves.clone())
            .filter(|l| *l != BigUint::ZERO)
            .collect();
        after_heap_move(piles, m.pile, &left)
    });
    let answer = answer_of(game, piles, &a, pattern);
    Ok(Report {
        analysis: a,
        answer,
    })
}

fn answer_of(game: &Game, piles: &[BigUint], a: &Analysis, pattern: bool) -> Answer {
    let winning: Vec<Value> = a
        .winning_moves
        .iter()
        .map(|m| {
            let left: Vec<Value> = std::iter::once(&m.leaves)
                .filter(|l| **l != BigUint::ZERO)
                .map(big_json)
                .collect();
            heap_move(m.pile, m.take, left)
        })
        .collect();
    let (mut moves, complete) = every_move(game, piles, a);
    // One pile: its remoteness and its moves' from every smaller pile's.
    let mut remoteness = None;
    if let [pile] = piles
        && let Ok(pile) = u64::try_from(pile)
        && pile <= MAX_REMOTENESS_PILE
    {
        let values = subtraction::pile_values(&game.set, game.rule, pile);
        remoteness = values.last().map(|&(_, r)| u64::from(r));
        for m in &mut moves {
            if let Some(take) = m.mv["take"].as_u64()
                && let Some(&(_, r)) = values.get((pile - take) as usize)
            {
                m.remoteness = Some(u64::from(r) + 1);
            }
        }
    }
    let sequence = a.sequence.as_ref();
    let mut details = Map::new();
    details.insert("move_set".into(), json!(game.set.moves()));
    details.insert("misere".into(), json!(game.rule == Rule::Misere));
    details.insert(
        "heaps".into(),
        json!(piles.iter().map(big_json).collect::<Vec<_>>()),
    );
    details.insert("winner".into(), json!(a.winner().letter().to_string()));
    details.insert("grundy".into(), json!(a.grundy));
    details.insert("nim_sum".into(), json!(a.nim_sum));
    details.insert("period".into(), json!(sequence.map(|s| s.period)));
    details.insert(
        "outcome_period".into(),
        json!(sequence.map(|s| s.outcome_period)),
    );
    details.insert("proof".into(), json!(sequence.map(|s| s.proof)));
    details.insert("values_computed".into(), json!(a.values_computed));
    if pattern && let Some(s) = sequence {
        details.insert("pattern".into(), json!(s.prefix(200)));
    }
    let mut answer = Answer {
        game: game.name,
        position: game.position(piles),
        to_move: Side::First,
        outcome: a.outcome,
        first_player_wins: a.outcome == Outcome::Win,
        remoteness,
        moves,
        moves_complete: complete,
        winning_moves_total: json!(winning.len()),
        winning_moves: winning,
        best_line: None,
        method: super::word(&a.method),
        details,
    };
    answer.sort_moves();
    answer
}

/// Every move of the piles (one per distinct pile size, listed for its first pile), valued by
/// the winning moves (every other move loses); the winning moves alone past
/// [`MAX_LISTED_MOVES`]. Returns the moves and whether they are all of them.
fn every_move(game: &Game, piles: &[BigUint], a: &Analysis) -> (Vec<MoveValue>, bool) {
    let valued = |pile: usize, take: u64, left: &BigUint, win: bool| {
        let leaves: Vec<BigUint> = if *left == BigUint::ZERO {
            vec![]
        } else {
            vec![left.clone()]
        };
        let after = after_heap_move(piles, pile, &leaves);
        MoveValue {
            mv: heap_move(pile, take, leaves.iter().map(big_json).collect()),
            outcome: if win { Outcome::Win } else { Outcome::Loss },
            remoteness: None,
            ends_game: after.is_empty(),
            position: Some(game.position(&after)),
            details: Map::new(),
        }
    };
    let winners_only = || {
        let moves = a
            .winning_moves
            .iter()
            .map(|m| valued(m.pile, m.take, &m.leaves, true))
            .collect();
        (moves, false)
    };
    let winning: std::collections::BTreeSet<(usize, u64)> =
        a.winning_moves.iter().map(|m| (m.pile, m.take)).collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut moves = Vec::new();
    for (i, pile) in piles.iter().enumerate() {
        if !seen.insert(pile) {
            continue;
        }
        for &take in game.set.moves() {
            let take_big = BigUint::from(take);
            if take_big <= *pile {
                let left = pile - take_big;
                moves.push(valued(i, take, &left, winning.contains(&(i, take))));
            }
        }
        if moves.len() > MAX_LISTED_MOVES {
            return winners_only();
        }
    }
    (moves, true)
}
