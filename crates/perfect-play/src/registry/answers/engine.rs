//! The games the engine solves whole: a position answered from a table solved in memory
//! (refused up front past the memory limit or the time budget) or read from a database.

use crate::budget::Budget;
use crate::engine::{BYTES_PER_POSITION, Options, Progress, Solution};
use crate::registry::{Answer, EngineGame, MoveValue, PositionAnswer, QueryError, Side};
use crate::{Outcome, parse};
use serde_json::{Map, Value, json};

/// Positions the engine solves a second on one core, measured on 5 x 4 (1.4 million): the
/// estimate given before a long solve.
pub const POSITIONS_PER_SECOND: f64 = 1.4e6;

/// "40 s", "3 min", "5 h", "12 days", "80 years".
#[must_use]
pub fn rough_duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "h"),
        (60.0, "min"),
        (1.0, "s"),
    ];
    let (size, name) = UNITS
        .into_iter()
        .find(|&(size, _)| seconds >= 2.0 * size)
        .unwrap_or((1.0, "s"));
    format!("{:.0} {name}", (seconds / size).max(1.0))
}

/// Refuse a table past the memory limit or the time budget before any work, with its size
/// and time.
///
/// # Errors
/// Either.
pub fn refuse_if_too_large(
    game: &dyn EngineGame,
    limit: u64,
    budget: &Budget,
) -> Result<(), QueryError> {
    let seconds = game.index_count() as f64 / game.indices_per_second();
    budget.check_time(
        || {
            format!(
                "solving {} ({} positions)",
                game.title(),
                game.index_count()
            )
        },
        seconds,
    )?;
    let needed = game.solve_bytes(&Options::default());
    if let Some(machine) = crate::engine::machine_memory().filter(|&m| needed > m) {
        return Err(QueryError::OverMemory(format!(
            "{}'s table has {} entries (its positions, numbered with gaps), {} at {BYTES_PER_POSITION} bytes each and the largest tier's working table (about {} on one core), more than this machine's {} of memory: no --memory-limit makes room for it; choose a smaller variant",
            game.title(),
            game.index_count(),
            parse::human_size(needed),
            rough_duration(game.index_count() as f64 / game.indices_per_second()),
            parse::human_size(machine),
        )));
    }
    if needed > limit {
        return Err(QueryError::OverMemory(format!(
            "{}'s table has {} entries (its positions, numbered with gaps), {} at {BYTES_PER_POSITION} bytes each and the largest tier's working table (about {} on one core), above the memory limit of {}; raise --memory-limit or choose a smaller variant",
            game.title(),
            game.index_count(),
            parse::human_size(needed),
            rough_duration(game.index_count() as f64 / game.indices_per_second()),
            parse::human_size(limit),
        )));
    }
    budget.admit(seconds)?;
    Ok(())
}

/// The options of a solve in memory under `budget` on `threads` (0: every core).
#[must_use]
pub fn options(threads: usize, budget: &Budget) -> Options {
    Options {
        memory_limit: budget.memory(2 << 30),
        threads,
        cancel: budget.cancel.clone(),
        ..Options::default()
    }
}

/// The position (the start when `None`) from the whole game solved in memory, refused up
/// front when the table passes the memory limit or the time budget.
///
/// # Errors
/// A position that does not parse, a table over the limits, or a failed solve.
pub fn in_memory(
    game: &dyn EngineGame,
    position: Option<&str>,
    threads: usize,
    budget: &Budget,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<(PositionAnswer, Solution), QueryError> {
    // A position that does not parse is refused before any solve.
    game.check_position(position).map_err(QueryError::bad)?;
    let options = options(threads, budget);
    refuse_if_too_large(game, options.memory_limit, budget)?;
    let solution = game.solve(&options, None, progress)?;
    let read = game
        .answer(position, &mut |i| solution.record(i))
        .map_err(QueryError::bad)?;
    Ok((read, solution))
}

/// The answer of a position read from a table; `database` is the database object when it
/// was read from one.
#[must_use]
pub fn answer_of(read: &PositionAnswer, database: Option<Value>) -> Answer {
    let name = |n: &crate::registry::MoveName| serde_json::to_value(n).unwrap_or(Value::Null);
    let winning: Vec<Value> = read.winning_moves().iter().map(name).collect();
    let mut details = Map::new();
    details.insert("variant".into(), json!(read.variant));
    details.insert("database".into(), database.unwrap_or(Value::Null));
    Answer {
        game: read.game,
        position: read.position.clone().unwrap_or_default(),
        to_move: Side::of(read.first_to_move),
        outcome: read.outcome,
        first_player_wins: read.outcome == Outcome::Win,
        remoteness: read.remoteness.map(u64::from),
        moves: read
            .moves
            .iter()
            .map(|m| MoveValue {
                mv: name(&m.name),
                outcome: m.outcome,
                remoteness: m.remoteness.map(u64::from),
                ends_game: m.ends_game,
                position: m.position.clone(),
                details: Map::new(),
            })
            .collect(),
        moves_complete: true,
        winning_moves_total: json!(winning.len()),
        winning_moves: winning,
        best_line: Some(read.best_line.iter().map(name).collect()),
        method: "engine".into(),
        details,
    }
}
