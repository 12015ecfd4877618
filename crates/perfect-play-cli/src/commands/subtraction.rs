//! `perfect-play coins` and `perfect-play subtraction`: one engine, two ways to ask.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::{CoinsArgs, SubtractionArgs};
use crate::output::{self, Output, big_json};
use num_bigint::BigUint;
use perfect_play::Outcome;
use perfect_play::subtraction::{self, Analysis, Limits, Method, Rule, Sequence, SubtractionSet};
use serde_json::json;

/// A heap (pile) size in decimal, any length; `what` names it in the message ("pile", "heap").
pub fn parse_heap(what: &str, text: &str) -> Result<BigUint, CommandError> {
    perfect_play::parse::natural(text).map_err(|e| format!("{what} {e}").into())
}

/// Time a pile size costs the period search at worst, measured with moves up to 10^8 (3.1 s
/// for 2 x 10^8 sizes).
const SECONDS_PER_VALUE: f64 = 1.5e-8;

/// A period search stopped by the time budget's cap is refused as over the budget.
fn over_budget(error: CommandError, budget: Budget) -> CommandError {
    match error.downcast_ref::<subtraction::SubtractionError>() {
        Some(subtraction::SubtractionError::NoPeriod(n))
            if budget.affordable(SECONDS_PER_VALUE) == Some(*n) =>
        {
            budget
                .stopped_at_cap(format!("proving the period (past {n} pile sizes)"))
                .into()
        }
        _ => error,
    }
}

fn limits(limit: Option<u64>, budget: Budget) -> Limits {
    let defaults = Limits::default();
    // The general method keeps one byte a pile: --memory-limit bounds it too.
    let memory = budget.memory(u64::MAX);
    Limits {
        max_values: budget.limit_by_time(
            budget.cap(limit.unwrap_or(defaults.max_values).min(memory), 2_000),
            SECONDS_PER_VALUE,
        ),
        max_streamed_values: budget.limit_by_time(
            budget.cap(limit.unwrap_or(defaults.max_streamed_values), 20_000),
            SECONDS_PER_VALUE,
        ),
        max_search_states: budget.cap(defaults.max_search_states, 2_000),
        ..defaults
    }
}

fn rule(misere: bool) -> Rule {
    if misere { Rule::Misere } else { Rule::Normal }
}

/// `coins N X Y`: the seed's question.
pub fn coins(args: &CoinsArgs, budget: Budget) -> Result<Output, CommandError> {
    let [n, x, y] = &args.numbers[..] else {
        return Err(format!(
            "give N X Y (the pile and the two moves besides 1), e.g. `perfect-play coins 10 3 4`; got {} number(s)",
            args.numbers.len()
        )
        .into());
    };
    solve_coins(
        n,
        x,
        y,
        args.options.misere,
        args.options.pattern,
        limits(args.options.limit, budget),
    )
    .map_err(|e| over_budget(e, budget))
}

/// Solve the coin game; used by the tour too.
pub fn solve_coins(
    n: &str,
    x: &str,
    y: &str,
    misere: bool,
    pattern: bool,
    limits: Limits,
) -> Result<Output, CommandError> {
    let pile = parse_heap("pile N:", n)?;
    let mv = |name: &str, t: &str| -> Result<u64, CommandError> {
        perfect_play::parse::count_in(t, 1, subtraction::MAX_MOVE)
            .map_err(|e| format!("move {name}: {e}").into())
    };
    let set = SubtractionSet::coin_game(mv("X", x)?, mv("Y", y)?)?;
    render(
        "coins",
        &set,
        rule(misere),
        &[pile],
        pattern,
        false,
        &limits,
    )
}

/// `coins --batch`.
pub fn coins_batch(args: &CoinsArgs, budget: Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let limits = limits(args.options.limit, budget);
    super::batch_lines(io, |line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [n, x, y] = f[..] else {
            return Err(
                format!("expected `N X Y` (three numbers), got {} field(s)", f.len()).into(),
            );
        };
        Ok(solve_coins(n, x, y, args.options.misere, false, limits)?.json)
    })
}

/// `subtraction --moves LIST PILE...`.
pub fn run(args: &SubtractionArgs, budget: Budget) -> Result<Output, CommandError> {
    let set = SubtractionSet::new(&args.moves.0)?;
    let piles = args
        .piles
        .iter()
        .flat_map(|p| p.split_whitespace())
        .map(|p| parse_heap("pile", p))
        .collect::<Result<Vec<_>, _>>()?;
    render(
        "subtraction",
        &set,
        rule(args.options.misere),
        &piles,
        args.options.pattern || args.grundy || args.piles.is_empty(),
        args.grundy,
        &limits(args.options.limit, budget),
    )
    .map_err(|e| over_budget(e, budget))
}

/// `subtraction --batch`: each line is one position's piles.
pub fn batch(args: &SubtractionArgs, budget: Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let set = SubtractionSet::new(&args.moves.0)?;
    let limits = limits(args.options.limit, budget);
    super::batch_lines(io, |line| {
        let piles = line
            .split_whitespace()
            .map(|p| parse_heap("pile", p))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(render(
            "subtraction",
            &set,
            rule(args.options.misere),
            &piles,
            false,
            false,
            &limits,
        )?
        .json)
    })
}

fn render(
    game: &str,
    set: &SubtractionSet,
    rule: Rule,
    piles: &[BigUint],
    pattern: bool,
    grundy: bool,
    limits: &Limits,
) -> Result<Output, CommandError> {
    let rule_text = match rule {
        Rule::Normal => "normal play: taking the last coin wins",
        Rule::Misere => "misère play: taking the last coin loses",
    };
    let mut text = format!("Moves {{{}}} ({rule_text}).\n", output::list(set.moves()));
    let analysis = if piles.is_empty() {
        None
    } else {
        Some(subtraction::analyse(set, rule, piles, limits)?)
    };
    let computed;
    let sequence = match &analysis {
        Some(a) => a.sequence.as_ref(),
        None => {
            computed = Sequence::compute(set, rule, limits)?;
            Some(&computed)
        }
    };
    let mut json = json!({
        "game": game,
        "move_set": set.moves(),
        "misere": rule == Rule::Misere,
        "period": sequence.map(|s| s.period),
        "outcome_period": sequence.map(|s| s.outcome_period),
        "proof": sequence.map(|s| s.proof),
        "values_computed": analysis.as_ref().map_or_else(|| sequence.map_or(0, |s| s.values_computed), |a| a.values_computed),
    });
    if let Some(a) = &analysis {
        text.push_str(&explain(set, a, piles));
        json["heaps"] = json!(piles.iter().map(big_json).collect::<Vec<_>>());
        json["winner"] = json!(a.winner().letter().to_string());
        json["first_player_wins"] = json!(a.outcome == Outcome::Win);
        json["outcome"] = json!(a.outcome);
        json["grundy"] = json!(a.grundy);
        json["nim_sum"] = json!(a.nim_sum);
        json["winning_moves"] = json!(
            a.winning_moves
                .iter()
                .map(|m| {
                    let left: Vec<_> = std::iter::once(&m.leaves)
                        .filter(|l| **l != BigUint::ZERO)
                        .map(big_json)
                        .collect();
                    output::heap_move(m.pile, m.take, left)
                })
                .collect::<Vec<_>>()
        );
        json["winning_moves_total"] = json!(a.winning_moves.len());
        json["method"] = json!(a.method);
    }
    match sequence {
        Some(sequence) => {
            text.push_str(&describe_period(sequence));
            if pattern {
                text.push_str(&picture(sequence, grundy));
                json["pattern"] = json!(sequence.prefix(200));
            }
        }
        None => text.push_str(&format!(
            "No period proven within the first {} pile sizes (raise --limit to search further); the piles were answered from the values of every smaller pile.\n",
            limits.search_limit(set)
        )),
    }
    Ok(Output { text, json })
}

fn explain(set: &SubtractionSet, a: &Analysis, piles: &[BigUint]) -> String {
    let single = piles.len() == 1;
    let winner = a.winner().letter();
    let mut text = if single {
        format!("A pile of {}: {winner} wins", piles[0])
    } else {
        format!(
            "Piles {} (Grundy values {}, nim-sum {}): {winner} wins",
            output::list(piles),
            output::list(&a.grundy),
            a.nim_sum
        )
    };
    let describe = |m: &subtraction::PileMove| {
        let from = if single {
            String::new()
        } else {
            format!(" from pile {}", m.pile + 1)
        };
        format!("take {}{from}, leaving {}", m.take, m.leaves)
    };
    if let Some(first) = a.winning_moves.first() {
        let why = match (single, a.method) {
            (true, _) => "a losing pile".to_string(),
            (false, Method::GrundySum) => "so the nim-sum becomes 0".to_string(),
            (false, _) => "a losing position".to_string(),
        };
        text.push_str(&format!(": {}, {why}", describe(first)));
        if a.winning_moves.len() > 1 {
            let rest: Vec<String> = a.winning_moves[1..].iter().map(describe).collect();
            text.push_str(&format!(" (also: {})", rest.join("; ")));
        }
        text.push_str(".\n");
    } else if single && BigUint::from(set.moves()[0]) > piles[0] {
        text.push_str(&format!(
            ": A cannot move (the smallest move takes {}), so {}.\n",
            set.moves()[0],
            if a.rule == Rule::Normal {
                "A loses"
            } else {
                "A wins: in misère play the player who cannot move has won"
            }
        ));
    } else if single && a.grundy.first() == Some(&0) && a.rule == Rule::Normal {
        text.push_str(": A faces a losing pile; every move leaves B a winning pile.\n");
    } else {
        text.push_str(": every move A can make leaves B a winning position.\n");
    }
    text
}

fn describe_period(s: &Sequence) -> String {
    let what = match s.rule() {
        Rule::Normal => "Grundy values",
        Rule::Misere => "misère Grundy values",
    };
    let p = s.proof;
    format!(
        "The {what} repeat with period {} from pile {} (proven: piles {}-{} and {}-{} agree, and each value depends only on the {} before it); the win/loss pattern has period {} from pile {}. {} values computed.\n",
        s.period.period,
        s.period.preperiod,
        p.first,
        p.first + p.length - 1,
        p.second,
        p.second + p.length - 1,
        p.length,
        s.outcome_period.period,
        s.outcome_period.preperiod,
        s.values_computed,
    )
}

/// The seed's "Picture it": the first pile sizes' marks with each period start marked.
fn picture(s: &Sequence, grundy: bool) -> String {
    let (pre, per) = (s.period.preperiod, s.period.period);
    let shown = (pre + 3 * per).clamp(40, 80);
    let marks: String = (0..shown)
        .map(|n| {
            let v = s.value(n);
            if grundy {
                output::value_char(v)
            } else if v == 0 {
                'L'
            } else {
                'W'
            }
        })
        .collect();
    let ruler: String = (0..shown)
        .map(|n| if n % 10 == 0 { '|' } else { ' ' })
        .collect();
    let numbers: String = (0..shown).step_by(10).map(|n| format!("{n:<10}")).collect();
    let periods: String = (0..shown)
        .map(|n| {
            if n >= pre && (n - pre) % per == 0 {
                '^'
            } else {
                ' '
            }
        })
        .collect();
    let legend = if grundy {
        "Grundy values (0-9, then A=10, B=11, ...)"
    } else {
        "W = the player to move wins, L = loses"
    };
    format!(
        "Piles 0-{}: {legend}; ^ marks the start of each period.\n  pile {}\n       {}\n       {}\n       {}\n",
        shown - 1,
        numbers.trim_end(),
        ruler,
        marks,
        periods.trim_end()
    )
}
