//! Can I Win: pick unused numbers from a pool; whoever reaches the target wins (or loses, in
//! misère play).

use super::{Report, int_json};
use crate::budget::Budget;
use crate::can_i_win::{self, Analysis, CanIWin, Options, Pool};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use crate::{Outcome, parse};
use serde_json::{Map, json};

/// Time a set of picks costs in the full analysis, measured at 32 numbers (31 s for 2^32).
pub const SECONDS_PER_SET: f64 = 7.5e-9;

/// MAX: from 1 to 64.
///
/// # Errors
/// Anything else.
pub fn parse_max(text: &str) -> Result<i64, QueryError> {
    parse::count_in(text, 1, can_i_win::MAX_POOL as u64)
        .map(|m| m as i64)
        .map_err(|e| QueryError::BadInput(format!("MAX: {e}")))
}

/// TOTAL: any whole number that fits in 64 bits.
///
/// # Errors
/// Anything else.
pub fn parse_total(text: &str) -> Result<i64, QueryError> {
    parse::integer_in(text, i128::from(i64::MIN), i128::from(i64::MAX))
        .map(|t| t as i64)
        .map_err(|e| QueryError::BadInput(format!("TOTAL: {e}")))
}

/// The game a position names: `MAX TOTAL` (pick from 1 to MAX), or with a pool `TOTAL` (or
/// `MAX TOTAL`, MAX the pool's largest number).
///
/// # Errors
/// Words that are not such a position, or a pool that is not one.
pub fn parse_query(
    position: &str,
    pool: Option<Vec<u64>>,
    misere: bool,
) -> Result<CanIWin, QueryError> {
    let words: Vec<&str> = position.split_whitespace().collect();
    let (pool, target) = match (pool, &words[..]) {
        (Some(list), [total]) => (
            Pool::new(list).map_err(QueryError::bad)?,
            parse_total(total)?,
        ),
        (Some(list), [max, total]) => {
            let max = parse::integer_in(max, 0, i128::from(i64::MAX))
                .map_err(|e| QueryError::BadInput(format!("MAX: {e}")))?;
            let total = parse_total(total)?;
            let pool = Pool::new(list).map_err(QueryError::bad)?;
            let largest = pool.values().last().copied().unwrap_or(0);
            if u64::try_from(max).ok() != Some(largest) {
                return Err(QueryError::BadInput(format!(
                    "with --pool, MAX ({max}) must be the pool's largest number ({largest}), or be left out"
                )));
            }
            (pool, total)
        }
        (Some(_), _) => {
            return Err(QueryError::BadInput(
                "with --pool give TOTAL (or MAX TOTAL)".into(),
            ));
        }
        (None, [max, total]) => {
            let (max, total) = (parse_max(max)?, parse_total(total)?);
            (
                CanIWin::seed(max, total).map_err(QueryError::bad)?.pool,
                total,
            )
        }
        (None, _) => {
            return Err(QueryError::BadInput(
                "give MAX and TOTAL, e.g. `perfect-play can-i-win 10 11`".into(),
            ));
        }
    };
    Ok(CanIWin {
        pool,
        target: i128::from(target),
        misere,
    })
}

/// Refuse a pool whose every set of picks would take longer than the time budget
/// (`factor` 4 for every target at once; one query: [`check_query_time`]).
///
/// # Errors
/// The estimate, over the budget.
pub fn check_time(pool: &Pool, budget: &Budget, factor: f64) -> Result<(), QueryError> {
    let sets = 2f64.powi(pool.values().len() as i32);
    budget.check_time(
        || {
            format!(
                "Can I Win with {} numbers (2^{} sets of picks)",
                pool.values().len(),
                pool.values().len()
            )
        },
        sets * SECONDS_PER_SET * factor,
    )?;
    budget.admit(sets * SECONDS_PER_SET * factor)?;
    Ok(())
}

/// Refuse one query whose answer, by the method it will take, would take longer than the time
/// budget ([`can_i_win::estimated_seconds`]: a small target's search is cheap however many
/// numbers).
///
/// # Errors
/// The estimate, over the budget.
pub fn check_query_time(
    query: &CanIWin,
    options: &Options,
    budget: &Budget,
) -> Result<(), QueryError> {
    let seconds = can_i_win::estimated_seconds(query, options);
    budget.check_time(
        || {
            format!(
                "Can I Win with {} numbers and target {}",
                query.pool.values().len(),
                query.target
            )
        },
        seconds,
    )?;
    budget.admit(seconds)?;
    Ok(())
}

/// The solver's options under `budget` from the defaults given.
#[must_use]
pub fn options(defaults: Options, budget: &Budget) -> Options {
    Options {
        memory_limit: budget.memory(defaults.memory_limit),
        remoteness_limit: budget.cap(defaults.remoteness_limit, 1_000),
        cancel: budget.cancel.clone(),
        ..defaults
    }
}

/// The registry's answer: `position` MAX TOTAL (or TOTAL with `pool`), `misere`.
///
/// # Errors
/// A position or pool not accepted, or work over the budget.
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let pool = params
        .text("pool")
        .map(|p| parse::list_in(p, 1, u64::MAX).map_err(QueryError::bad))
        .transpose()?;
    let query = parse_query(position, pool, params.text("misere") == Some("true"))?;
    let options = options(Options::default(), budget);
    check_query_time(&query, &options, budget)?;
    Ok(report(&query, &options, &|_, _| {})?.answer)
}

/// The position in the notation it is taken back in: `MAX TOTAL` when the pool is 1 to MAX,
/// else the total alone (the pool is a parameter).
#[must_use]
pub fn position_of(query: &CanIWin) -> String {
    let v = query.pool.values();
    if v.iter().zip(1u64..).all(|(&a, b)| a == b) {
        format!("{} {}", v.len(), query.target)
    } else {
        query.target.to_string()
    }
}

/// Can I Win for `query`, reporting progress on long solves.
///
/// # Errors
/// As [`can_i_win::analyse`].
pub fn report(
    query: &CanIWin,
    options: &Options,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Report<Analysis>, QueryError> {
    let a = can_i_win::analyse_with_progress(query, options, progress)?;
    // The picks that achieve the exact value: with remoteness, fastest win or slowest loss;
    // without it, every pick with the position's outcome.
    let best = a
        .moves
        .iter()
        .filter(|m| m.outcome == a.outcome)
        .map(|m| m.remoteness)
        .reduce(|x, y| match (x, y, a.outcome) {
            (Some(x), Some(y), Outcome::Win) => Some(x.min(y)),
            (Some(x), Some(y), _) => Some(x.max(y)),
            _ => None,
        })
        .flatten();
    let optimal: Option<Vec<u64>> = a.remoteness.map(|_| {
        a.moves
            .iter()
            .filter(|m| m.outcome == a.outcome && m.remoteness == best)
            .map(|m| m.pick)
            .collect()
    });
    let values = query.pool.values();
    let moves = a
        .moves
        .iter()
        .map(|m| {
            let rest: Vec<u64> = values.iter().copied().filter(|&n| n != m.pick).collect();
            let total = query.target - i128::from(m.pick);
            let ends = total <= 0 || rest.is_empty();
            let mut details = Map::new();
            // The numbers left: the pool of the position the pick leads to.
            details.insert("pool".into(), json!(rest));
            MoveValue {
                mv: json!(m.pick),
                outcome: m.outcome,
                remoteness: m.remoteness.map(u64::from),
                ends_game: ends,
                position: (!ends).then(|| total.to_string()),
                details,
            }
        })
        .collect();
    let mut details = Map::new();
    details.insert("pool".into(), json!(values));
    details.insert("target".into(), int_json(query.target));
    details.insert("misere".into(), json!(query.misere));
    details.insert("optimal_moves".into(), json!(optimal));
    details.insert("positions_searched".into(), json!(a.states));
    let mut answer = Answer {
        game: "can-i-win",
        position: position_of(query),
        to_move: Side::First,
        outcome: a.outcome,
        first_player_wins: a.outcome == Outcome::Win,
        remoteness: a.remoteness.map(u64::from),
        moves,
        moves_complete: true,
        winning_moves: a.winning_moves.iter().map(|&p| json!(p)).collect(),
        winning_moves_total: json!(a.winning_moves.len()),
        best_line: Some(a.best_line.iter().map(|&p| json!(p)).collect()),
        method: super::word(&a.method),
        details,
    };
    answer.sort_moves();
    Ok(Report {
        analysis: a,
        answer,
    })
}
