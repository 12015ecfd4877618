//! Sums of impartial heap games (`0.77:10 grundy:12 nim:5`): the Sprague-Grundy theorem in
//! normal play, exact search in misère play.

use super::{MAX_LISTED_MOVES, Report, big_json};
use crate::Outcome;
use crate::budget::Budget;
use crate::impartial::{
    self, Component, ComponentMove, ImpartialError, Limits, MisereSum, SumAnalysis, SumGame,
};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use num_bigint::BigUint;
use serde_json::{Map, Value, json};

/// Bytes a heap costs at the peak: four for the table's values; for a take-and-break code two
/// more for its own and two for the second thread's copy. Measured peak resident memory over
/// heaps 0 to 2^22: 6.9 bytes a heap for Grundy's game, 8.8 for 0.6, 7.7 for squares (to
/// 10^6), the output written as it is rendered.
pub const BYTES_PER_HEAP: u64 = 10;

/// Time a heap's value costs at worst, measured on Grundy's game to 10^6 (3.4 s).
pub const SECONDS_PER_VALUE: f64 = 3.5e-6;

/// The largest heap whose moves are listed one by one (beyond it, the winning moves alone).
const MAX_LISTED_HEAP: u32 = 4_096;

/// The limits of a sum (and of `values`) under `budget`.
#[must_use]
pub fn limits(budget: &Budget) -> Limits {
    let defaults = Limits::default();
    let memory = budget.memory(2 << 30);
    Limits {
        max_values: budget.limit_by_time(
            (memory / BYTES_PER_HEAP).min(defaults.max_values),
            SECONDS_PER_VALUE,
        ),
        max_work: budget.cap(defaults.max_work, 2_000_000),
        max_misere_states: budget.cap(defaults.max_misere_states, 2_000),
        // The time budget, when there is one, is the longest a run may take.
        max_seconds: budget
            .seconds
            .map_or(defaults.max_seconds, |b| b.ceil() as u64),
        cancel: budget.cancel.clone(),
    }
}

/// The components of a position (`GAME:HEAP` words).
///
/// # Errors
/// A word that is not a component, or none.
pub fn parse_components(position: &str) -> Result<Vec<Component>, QueryError> {
    let components = position
        .split_whitespace()
        .map(str::parse::<Component>)
        .collect::<Result<Vec<_>, _>>()
        .map_err(QueryError::bad)?;
    if components.is_empty() {
        return Err(QueryError::bad(ImpartialError::Empty));
    }
    Ok(components)
}

/// A failure of the values' computation: stopped at the time budget's cap, over the budget.
#[must_use]
pub fn query_error(e: ImpartialError, budget: &Budget) -> QueryError {
    match e {
        ImpartialError::HeapTooLarge {
            game, heap, limit, ..
        } if budget
            .affordable(SECONDS_PER_VALUE)
            .is_some_and(|a| a <= limit.saturating_add(1)) =>
        {
            budget
                .stopped_at_cap(format!("the values of {game} up to heap {heap}"))
                .into()
        }
        ImpartialError::TooLong {
            what, estimate_ms, ..
        } if budget.seconds.is_some() => QueryError::OverBudget(crate::budget::OverBudget {
            what,
            estimate: estimate_ms as f64 / 1000.0,
            at_least: false,
            budget: budget.seconds.unwrap_or_default(),
        }),
        e => e.into(),
    }
}

/// The registry's answer: `position` the components, `misere`; with a partizan component,
/// [`super::partizan_sum::answer`] (`to_move` Left or Right).
///
/// # Errors
/// A component not accepted, or work over the budget.
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    if super::partizan_sum::has_partizan_component(position) {
        return super::partizan_sum::answer(params, position, budget);
    }
    let components = parse_components(position)?;
    let limits = limits(budget);
    if params.text("misere") == Some("true") {
        Ok(misere(&components, &limits)?.answer)
    } else {
        budget.admit(impartial::estimated_sum_seconds(&components, &limits))?;
        Ok(normal(&components, &limits, budget, &|_, _| {})?.answer)
    }
}

/// The sum in normal play.
///
/// # Errors
/// As [`impartial::analyse_sum_with_progress`].
pub fn normal(
    components: &[Component],
    limits: &Limits,
    budget: &Budget,
    progress: &dyn Fn(u64, u64),
) -> Result<Report<SumAnalysis>, QueryError> {
    let a = impartial::analyse_sum_with_progress(components, limits, progress)
        .map_err(|e| query_error(e, budget))?;
    let outcome = if a.first_player_wins {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    let mut details = Map::new();
    details.insert("misere".into(), json!(false));
    details.insert(
        "components".into(),
        json!(
            components
                .iter()
                .zip(&a.values)
                .map(|(c, v)| json!({
                    "game": c.game.to_string(),
                    "heap": big_json(&c.heap),
                    "value": big_json(v),
                }))
                .collect::<Vec<_>>()
        ),
    );
    details.insert(
        "values".into(),
        json!(a.values.iter().map(big_json).collect::<Vec<_>>()),
    );
    details.insert("nim_sum".into(), big_json(&a.nim_sum));
    details.insert("explanation".into(), json!(a.explanation));
    details.insert(
        "values_computed".into(),
        json!(a.values_computed.iter().map(|(_, n)| n).sum::<u64>()),
    );
    details.insert(
        "values_computed_by_game".into(),
        json!(
            a.values_computed
                .iter()
                .map(|(g, n)| json!({"game": g, "values": n}))
                .collect::<Vec<_>>()
        ),
    );
    let answer = answer_of(
        components,
        outcome,
        &a.winning_moves,
        &a.winning_moves_total,
        "sprague-grundy",
        details,
    );
    Ok(Report {
        analysis: a,
        answer,
    })
}

/// The sum in misère play, by exact search.
///
/// # Errors
/// As [`impartial::analyse_misere`].
pub fn misere(components: &[Component], limits: &Limits) -> Result<Report<MisereSum>, QueryError> {
    let m = impartial::analyse_misere(components, limits)?;
    let mut details = Map::new();
    details.insert("misere".into(), json!(true));
    details.insert(
        "components".into(),
        json!(
            components
                .iter()
                .map(|c| json!({"game": c.game.to_string(), "heap": big_json(&c.heap)}))
                .collect::<Vec<_>>()
        ),
    );
    details.insert("positions_searched".into(), json!(m.states));
    let total = BigUint::from(m.winning_moves.len());
    let answer = answer_of(
        components,
        m.outcome,
        &m.winning_moves,
        &total,
        "search",
        details,
    );
    Ok(Report {
        analysis: m,
        answer,
    })
}

/// A component move as JSON: `{"component", "move" (in words), "take", "leaves"}`.
#[must_use]
pub fn move_json(m: &ComponentMove) -> Value {
    json!({
        "component": m.component,
        "move": m.describe(),
        "take": big_json(&m.take),
        "leaves": m.leaves.iter().map(big_json).collect::<Vec<_>>(),
    })
}

/// The position a move leads to: its component replaced by the heaps it leaves (`GAME:0`
/// when none).
fn after(components: &[Component], m: &ComponentMove) -> String {
    let mut words = Vec::new();
    for (i, c) in components.iter().enumerate() {
        if i + 1 == m.component {
            if m.leaves.is_empty() {
                words.push(format!("{}:0", c.game));
            }
            words.extend(m.leaves.iter().map(|l| format!("{}:{l}", c.game)));
        } else {
            words.push(format!("{}:{}", c.game, c.heap));
        }
    }
    words.join(" ")
}

/// Whether a heap of this game has a move (a heap too large to list is taken to have one).
fn has_move(game: &crate::impartial::HeapGame, heap: &BigUint) -> bool {
    // A head can always be turned over alone; listing a coin's moves to find that out cost
    // O(h²) for Mock Turtles, once for every move listed (a hang the explorer's fuzz target
    // found on `mock-turtles:400`).
    if matches!(game, crate::impartial::HeapGame::CoinTurning(_)) {
        return true;
    }
    u32::try_from(heap)
        .ok()
        .filter(|&h| h <= MAX_LISTED_HEAP)
        .is_none_or(|h| {
            let sum = SumGame {
                games: vec![game.clone()],
                misere: false,
            };
            !sum.heap_moves(0, h).is_empty()
        })
}

/// Whether no component has a move after `m`.
fn ends_game(components: &[Component], m: &ComponentMove) -> bool {
    components.iter().enumerate().all(|(i, c)| {
        if i + 1 == m.component {
            m.leaves.iter().all(|l| !has_move(&c.game, l))
        } else {
            !has_move(&c.game, &c.heap)
        }
    })
}

fn answer_of(
    components: &[Component],
    outcome: Outcome,
    winning: &[ComponentMove],
    total: &BigUint,
    method: &str,
    details: Map<String, Value>,
) -> Answer {
    let (moves, complete) = every_move(components, winning, total);
    let position: Vec<String> = components
        .iter()
        .map(|c| format!("{}:{}", c.game, c.heap))
        .collect();
    let mut answer = Answer {
        game: "sum",
        position: position.join(" "),
        to_move: Side::First,
        outcome,
        first_player_wins: outcome == Outcome::Win,
        remoteness: None,
        moves,
        moves_complete: complete,
        winning_moves: winning.iter().map(move_json).collect(),
        winning_moves_total: big_json(total),
        best_line: None,
        method: method.into(),
        details,
    };
    answer.sort_moves();
    answer
}

/// Every move of the sum (one per distinct component, heaps up to [`MAX_LISTED_HEAP`]),
/// valued by the winning moves (every other move loses), when those are all listed; else the
/// winning moves alone. Returns the moves and whether they are all of them.
fn every_move(
    components: &[Component],
    winning: &[ComponentMove],
    total: &BigUint,
) -> (Vec<MoveValue>, bool) {
    let valued = |m: &ComponentMove, win: bool| MoveValue {
        mv: move_json(m),
        outcome: if win { Outcome::Win } else { Outcome::Loss },
        remoteness: None,
        ends_game: ends_game(components, m),
        position: Some(after(components, m)),
        details: Map::new(),
    };
    let winners_only = || (winning.iter().map(|m| valued(m, true)).collect(), false);
    if *total != BigUint::from(winning.len()) {
        return winners_only();
    }
    let key = |m: &ComponentMove| {
        let mut leaves = m.leaves.clone();
        leaves.sort();
        (m.component, m.take.clone(), leaves)
    };
    let winning_keys: std::collections::BTreeSet<_> = winning.iter().map(key).collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut moves = Vec::new();
    for (i, c) in components.iter().enumerate() {
        if !seen.insert((c.game.to_string(), c.heap.clone())) {
            continue;
        }
        let Some(h) = u32::try_from(&c.heap)
            .ok()
            .filter(|&h| h <= MAX_LISTED_HEAP)
        else {
            return winners_only();
        };
        let sum = SumGame {
            games: vec![c.game.clone()],
            misere: false,
        };
        for (take, leaves) in sum.heap_moves(0, h) {
            let m = ComponentMove {
                component: i + 1,
                take: BigUint::from(take),
                leaves: leaves.iter().map(|&l| BigUint::from(l)).collect(),
                turns_coins: matches!(c.game, crate::impartial::HeapGame::CoinTurning(_)),
            };
            let win = winning_keys.contains(&key(&m));
            moves.push(valued(&m, win));
            if moves.len() > MAX_LISTED_MOVES {
                return winners_only();
            }
        }
    }
    (moves, true)
}
