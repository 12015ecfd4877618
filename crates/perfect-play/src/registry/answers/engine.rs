//! The games the engine solves whole: a position answered from a table solved in memory
//! (refused up front past the memory limit or the time budget) or read from a database.

use crate::budget::Budget;
use crate::engine::database;
use crate::engine::{
    BYTES_PER_POSITION, Checkpoint, Database, EngineError, Options, Progress, Solution,
};
use crate::registry::{Answer, EngineGame, MoveValue, PositionAnswer, QueryError, Side};
use crate::search::StopReason;
use crate::search::proof::ProofLimits;
use crate::{Outcome, parse};
use serde_json::{Map, Value, json};

/// Positions the engine solves a second on one core, measured on 5 x 4 (1.4 million): the
/// estimate given before a long solve (the games' default rate, kept beside their trait).
pub const POSITIONS_PER_SECOND: f64 = crate::games::board::INDICES_PER_SECOND;

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

/// Nodes the proof search takes without a time budget (a command line: about ten seconds).
pub const PROOF_NODES: u64 = 10_000_000;
/// Nodes the proof search takes under a time budget (a server's answer: a tenth of a second
/// or so), so that a table refused over the budget is still refused at once when the search
/// does not decide the position quickly: most forced wins of a few plies are found within it.
const BUDGETED_PROOF_NODES: u64 = 50_000;
/// Nodes under the fuzzers' small budget.
const SMALL_PROOF_NODES: u64 = 5_000;
/// Bytes the proof search's table keeps a position, the position itself counted at its
/// largest here (Dobutsu shogi's).
const PROOF_BYTES_PER_ENTRY: u64 = crate::search::proof::BYTES_PER_ENTRY + 64;
/// The proof search's table without `--memory-limit`.
const PROOF_TABLE_BYTES: u64 = 512 << 20;

/// A position answered from the whole game's table when it fits the limits, else by the
/// proof search (a forced win or loss found within the limits; see
/// [`crate::search::proof`]). The table's refusal stands, with what the search looked at
/// added, when the search decides nothing.
///
/// # Errors
/// A position that does not parse, a table over the limits the search could not replace,
/// or a failed solve.
pub fn table_or_search(
    game: &dyn EngineGame,
    position: Option<&str>,
    threads: usize,
    budget: &Budget,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<Answered, QueryError> {
    // The only refusals over the limits are the table's, before any solve.
    match in_memory(game, position, threads, budget, progress) {
        Ok((read, _)) => Ok(Answered {
            read,
            searched: None,
        }),
        Err(refusal @ (QueryError::OverMemory(_) | QueryError::OverBudget(_))) => {
            by_search(game, position, budget, refusal)
        }
        Err(other) => Err(other),
    }
}

/// A position answered by [`table_or_search`].
#[derive(Clone, Debug)]
pub struct Answered {
    /// The position's value, moves and best line (from the search: the moves it decided).
    pub read: PositionAnswer,
    /// How the search went, when it answered.
    pub searched: Option<Searched>,
}

/// What the proof search did for an answer.
#[derive(Clone, Copy, Debug)]
pub struct Searched {
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Whether every legal move was decided.
    pub moves_complete: bool,
}

impl Answered {
    /// The registry's answer (method `engine`, or `search` with `nodes` and `seconds`).
    #[must_use]
    pub fn answer(&self) -> Answer {
        let mut answer = answer_of(&self.read, None);
        if let Some(searched) = self.searched {
            answer.method = "search".into();
            answer.moves_complete = searched.moves_complete;
            answer.details.insert("nodes".into(), json!(searched.nodes));
            answer
                .details
                .insert("seconds".into(), json!(searched.seconds));
        }
        answer
    }
}

/// The proof search's answer, or `refusal` with what the search looked at.
fn by_search(
    game: &dyn EngineGame,
    position: Option<&str>,
    budget: &Budget,
    refusal: QueryError,
) -> Result<Answered, QueryError> {
    let started = std::time::Instant::now();
    let limits = |nodes: u64| ProofLimits {
        nodes: Some(nodes),
        cancel: budget.cancel.clone(),
        deadline: budget
            .seconds
            .map(|s| started + std::time::Duration::from_secs_f64(s * 0.85)),
        max_plies: 200,
        history: false,
        killers: false,
        max_entries: (budget.memory(PROOF_TABLE_BYTES).min(PROOF_TABLE_BYTES)
            / PROOF_BYTES_PER_ENTRY) as usize,
    };
    let nodes = if budget.small {
        SMALL_PROOF_NODES
    } else if budget.seconds.is_some() {
        BUDGETED_PROOF_NODES
    } else {
        PROOF_NODES
    };
    let proof = game
        .prove(position, limits(nodes))
        .map_err(QueryError::bad)?;
    let seconds = started.elapsed().as_secs_f64();
    let Some(read) = proof.answer else {
        if proof.stopped == Some(StopReason::Cancelled) && budget.seconds.is_none() {
            return Err(QueryError::Cancelled(crate::budget::Cancelled));
        }
        let searched = format!(
            "a search from the position found no forced win for either side within {} plies ({} nodes in {seconds:.1} s: a draw, or a longer fight)",
            proof.horizon, proof.nodes,
        );
        return Err(match refusal {
            QueryError::OverMemory(text) => QueryError::OverMemory(format!("{text}; {searched}")),
            QueryError::OverBudget(mut over) => {
                over.what = format!("{searched}, and {}", over.what);
                QueryError::OverBudget(over)
            }
            other => other,
        });
    };
    Ok(Answered {
        read,
        searched: Some(Searched {
            nodes: proof.nodes,
            seconds,
            moves_complete: proof.moves_complete,
        }),
    })
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

/// The header of `game`'s database, a table of `positions` positions.
#[must_use]
pub fn database_header(game: &dyn EngineGame, positions: u64) -> database::Header {
    database::Header {
        game: game.name().into(),
        variant: game.variant(),
        indices: game.index_count(),
        positions,
        block_records: database::BLOCK_RECORDS,
        params: game
            .params()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        book: None,
    }
}

/// Solve the whole game and write it as a database at `path`, finished tiers going to
/// `path.partial` meanwhile (a killed solve resumes from them; a tier in progress is saved
/// every few minutes beside it); returns the solution and the database's size in bytes.
///
/// # Errors
/// As the engine's solve, or a file that cannot be written.
pub fn solve_into_database(
    game: &dyn EngineGame,
    path: &std::path::Path,
    options: &Options,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<(Solution, u64), EngineError> {
    solve_into_database_saving_every(
        game,
        path,
        options,
        std::time::Duration::from_secs(300),
        progress,
    )
}

/// [`solve_into_database`], saving the tier in progress at the end of a level once
/// `interval` has passed since the last save (zero: every level).
///
/// # Errors
/// As [`solve_into_database`].
pub fn solve_into_database_saving_every(
    game: &dyn EngineGame,
    path: &std::path::Path,
    options: &Options,
    interval: std::time::Duration,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<(Solution, u64), EngineError> {
    // Refused before the solve, not after it: a link, a FIFO, another game's file.
    let header = database_header(game, 0);
    database::check_writable(path, &header)?;
    // Solved already (read without a lock: the folder may be read-only).
    if let Some(read) = read_if_solved(path)? {
        return Ok(read);
    }
    // One process at a time solves into a path; a second is told so at once.
    let _lock = crate::durable::Lock::take(path)?;
    database::check_writable(path, &header)?;
    // Solved by the process that held the lock before this one took it.
    if let Some(read) = read_if_solved(path)? {
        return Ok(read);
    }
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let identity = format!("{} {}", game.name(), game.variant());
    let mut checkpoint = Checkpoint::open(std::path::Path::new(&partial), &identity)?;
    checkpoint.level_interval = interval;
    let solution = game.solve(options, Some(&mut checkpoint), progress)?;
    let header = database_header(game, solution.positions);
    let bytes = database::write(path, &header, solution.records())?;
    checkpoint.remove()?;
    Ok((solution, bytes))
}

/// The table of a database already at `path` (checked to be the game's by
/// [`database::check_writable`]), with its size in bytes; `None` when there is none.
fn read_if_solved(path: &std::path::Path) -> Result<Option<(Solution, u64)>, EngineError> {
    if crate::durable::readable(path)?.is_none() {
        return Ok(None);
    }
    let mut db = Database::open(path, false)?;
    Ok(Some((Solution::from_records(db.all_records()?), db.bytes)))
}

/// The database at `path`, opened for `game`: another game's, variant's or numbering's (or
/// an opening book) is refused, saying what it holds.
///
/// # Errors
/// A file that cannot be read or is not `game`'s table.
pub fn open_database(
    game: &dyn EngineGame,
    path: &std::path::Path,
) -> Result<Database, QueryError> {
    let db = Database::open(path, false)?;
    let h = &db.header;
    if h.game != game.name() || h.variant != game.variant() || h.indices != game.index_count() {
        return Err(QueryError::BadInput(format!(
            "{} holds {} {}, not {} {}",
            path.display(),
            h.game,
            h.variant,
            game.name(),
            game.variant()
        )));
    }
    Ok(db)
}

/// The database at `path` with the game it holds, built from the parameters in its header.
///
/// # Errors
/// A file that cannot be read, of a game this build does not know, an opening book, or one
/// written before databases kept their parameters.
pub fn open_any_database(
    path: &std::path::Path,
) -> Result<(Box<dyn EngineGame>, Database), QueryError> {
    let db = Database::open(path, false)?;
    let header = db.header.clone();
    let shown = path.display();
    if header.book.is_some() {
        return Err(QueryError::BadInput(format!(
            "{shown} is an opening book of {} {}, read by the search (connect-four --db), not a whole table",
            header.game, header.variant
        )));
    }
    let info = crate::registry::find(&header.game)
        .filter(|g| g.engine.is_some())
        .ok_or_else(|| {
            QueryError::BadInput(format!(
                "{shown} holds {:?}, which is not a game of this build",
                header.game
            ))
        })?;
    let game = info
        .params_from(&header.params)
        .ok()
        .and_then(|params| info.build(&params)?.ok())
        .filter(|game| game.variant() == header.variant)
        .ok_or_else(|| {
            QueryError::BadInput(format!(
                "{shown} holds {} {:?} without the parameters that build it (written by an older version): solve it again",
                header.game, header.variant
            ))
        })?;
    let db = open_database(game.as_ref(), path)?;
    Ok((game, db))
}
