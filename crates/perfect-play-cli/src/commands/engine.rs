//! `perfect-play solve`, `perfect-play query` and the board games' own commands
//! (`perfect-play quixo`): any game the engine solves, as the library's registry describes it
//! (its name, variant, position notation and move names); nothing here names a game.

use super::{Budget, CommandError};
use crate::args::EngineArgs;
use crate::database_view::{database_json, read_database};
use crate::output::{Output, result_sentence, verdict_of};
use crate::progress;
use perfect_play::Outcome;
use perfect_play::engine::Progress;
use perfect_play::engine::{BYTES_PER_POSITION, Checkpoint, Counts, Database, Options, Solution};
use perfect_play::registry::answers::engine as answers;
use perfect_play::registry::{EngineGame, PositionAnswer, QueryError, Side};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// `perfect-play solve` in this process: the whole game.
pub fn solve(args: &EngineArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    let game = game_to_solve(args)?;
    solve_game(game.as_ref(), args, budget, quiet)
}

/// The game `solve` solves: built from the arguments, which name no position (a solve is of
/// the whole game, from its start).
pub(super) fn game_to_solve(args: &EngineArgs) -> Result<Box<dyn EngineGame>, CommandError> {
    if let Some(p) = &args.game.position {
        return Err(format!(
            "solve answers for the start of the game; for the position {:?} use query",
            perfect_play::parse::shorten(p)
        )
        .into());
    }
    Ok(args.game.build()?)
}

pub fn query(args: &EngineArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    if args.no_counts {
        return Err("--no-counts applies to solve: query counts nothing".into());
    }
    let game = args.game.build()?;
    query_game(
        game.as_ref(),
        args.game.position.as_deref(),
        args,
        budget,
        quiet,
    )
}

pub(super) fn options(args: &EngineArgs, budget: &Budget) -> Options {
    Options {
        memory_limit: budget.memory(2 << 30),
        threads: usize::from(args.threads),
        ..Options::default()
    }
}

/// Refuse a table past the memory limit before any work, with its size and time.
pub(super) fn refuse_if_too_large(
    game: &dyn EngineGame,
    limit: u64,
    budget: &Budget,
) -> Result<(), CommandError> {
    Ok(answers::refuse_if_too_large(game, limit, budget)?)
}

/// An existing database for this game and variant, opened; another game's is refused.
pub(super) fn open_database(game: &dyn EngineGame, path: &Path) -> Result<Database, CommandError> {
    Ok(answers::open_database(game, path)?)
}

/// The fuzz targets run with the small budget: they must not write files.
pub(super) fn no_files_under_small_budget(
    budget: &Budget,
    db: Option<&Path>,
) -> Result<(), CommandError> {
    if budget.small && db.is_some() {
        return Err("--db is not available under the small budget".into());
    }
    Ok(())
}

/// Solve the whole game into a database at `path` with a bar (see
/// [`answers::solve_into_database`]); returns the solution and the database's size.
pub(super) fn solve_into_database(
    game: &dyn EngineGame,
    path: &Path,
    options: &Options,
    quiet: bool,
) -> Result<(Solution, u64), CommandError> {
    solve_into_database_saving_every(game, path, options, 300, quiet)
}

/// [`solve_into_database`], the tier in progress saved every `seconds` (`--checkpoint-every`).
fn solve_into_database_saving_every(
    game: &dyn EngineGame,
    path: &Path,
    options: &Options,
    seconds: u64,
    quiet: bool,
) -> Result<(Solution, u64), CommandError> {
    let interval = std::time::Duration::from_secs(seconds);
    with_bar(game, quiet, |progress| {
        answers::solve_into_database_saving_every(game, path, options, interval, progress)
            .map_err(QueryError::from)
    })
}

/// Solve with a bar on stderr (positions in finished tiers, their rate, the time left),
/// through a checkpoint when one is given.
pub(super) fn solve_with_bar(
    game: &dyn EngineGame,
    options: &Options,
    checkpoint: Option<&mut Checkpoint>,
    quiet: bool,
) -> Result<Solution, CommandError> {
    with_bar(game, quiet, |progress| {
        game.solve(options, checkpoint, progress)
            .map_err(QueryError::bad)
    })
}

fn solve_game(
    game: &dyn EngineGame,
    args: &EngineArgs,
    budget: &Budget,
    quiet: bool,
) -> Result<Output, CommandError> {
    no_files_under_small_budget(budget, args.db.as_deref())?;
    let options = options(args, budget);
    refuse_if_too_large(game, options.memory_limit, budget)?;
    let clock = Instant::now();
    let existing = args.db.as_ref().filter(|p| p.exists());
    let (solution, db_bytes, loaded) = match (&args.db, existing) {
        (_, Some(path)) => {
            let mut db = open_database(game, path)?;
            let records = db.all_records()?;
            (Solution::from_records(records), Some(db.bytes), true)
        }
        (Some(path), None) => {
            let (solution, bytes) = solve_into_database_saving_every(
                game,
                path,
                &options,
                args.checkpoint_every,
                quiet,
            )?;
            (solution, Some(bytes), false)
        }
        (None, _) => (solve_with_bar(game, &options, None, quiet)?, None, false),
    };
    let seconds = clock.elapsed().as_secs_f64();
    let root = game
        .start_record(&solution)
        .ok_or("the start is not in the solved table")?;
    let counts = if args.no_counts {
        None
    } else {
        Some(game.reachable_counts(&solution, &options)?)
    };
    let summary = Summary {
        outcome: root.outcome().unwrap_or(Outcome::Draw),
        remoteness: root.remoteness(),
        counts,
        seconds,
        positions_in_table: solution.positions,
        passes: solution.passes,
        resumed: solution.resumed,
    };
    let (mut json, mut text) = summary.render(game, &options);
    if let (Some(bytes), Some(path)) = (db_bytes, &args.db) {
        let bits = bytes as f64 * 8.0 / solution.positions.max(1) as f64;
        let mut database = database_json(
            path,
            bytes,
            solution.positions,
            loaded,
            solution.resumed,
            solution.already_solved,
        );
        if let Some(counts) = counts {
            database["bits_per_reachable_position"] =
                json!(bytes as f64 * 8.0 / counts.positions.max(1) as f64);
        }
        json["database"] = database;
        text.push_str(&format!(
            "Database {}: {bytes} bytes, {bits:.2} bits a position.\n",
            path.display()
        ));
    }
    Ok(Output { text, json })
}

/// What a solve found, for its JSON and text (one process's or an MPI job's).
pub(super) struct Summary {
    /// The start's value for the player to move.
    pub(super) outcome: Outcome,
    pub(super) remoteness: Option<u32>,
    /// The positions reachable from the start by value; `None` when not counted.
    pub(super) counts: Option<Counts>,
    pub(super) seconds: f64,
    pub(super) positions_in_table: u64,
    pub(super) passes: u32,
    pub(super) resumed: bool,
}

impl Summary {
    /// The solve's JSON object (`database` null) and its text.
    pub(super) fn render(
        &self,
        game: &dyn EngineGame,
        options: &Options,
    ) -> (serde_json::Value, String) {
        let outcome = self.outcome;
        let first = game.first_to_move_at_start();
        let count = |f: fn(&Counts) -> u64| self.counts.as_ref().map(f);
        let json = json!({
            "game": game.name(),
            "variant": game.variant(),
            "outcome": outcome,
            "first_player_wins": first_player_wins(outcome),
            "remoteness": self.remoteness,
            "positions_reachable": count(|c| c.positions),
            "wins": count(|c| c.wins),
            "losses": count(|c| c.losses),
            "draws": count(|c| c.draws),
            "ties": count(|c| c.ties),
            "seconds": self.seconds,
            "database": null,
            "indices": game.index_count(),
            "positions_in_table": self.positions_in_table,
            "passes": self.passes,
            "bytes_per_position": BYTES_PER_POSITION,
            "symmetric": options.symmetries && game.has_symmetries(),
        });
        let side = if first { Side::First } else { Side::Second };
        let counted = match &self.counts {
            Some(c) => format!(
                "{} reachable positions: {} wins, {} losses, {} ties, {} draws for the player to move",
                c.positions, c.wins, c.losses, c.ties, c.draws
            ),
            None => String::from("Reachable positions not counted"),
        };
        let text = format!(
            "{}, from the start.\n{}\n{counted} ({} positions in the table, {:.2} s{}).\n",
            game.title(),
            result_sentence(side, None, outcome, self.remoteness.map(u64::from), None),
            self.positions_in_table,
            self.seconds,
            if self.resumed {
                ", resumed from the checkpoint"
            } else {
                ""
            },
        );
        (json, text)
    }
}

/// The vocabulary's `first_player_wins`: the player to move wins (`to_move` says which
/// player that is).
fn first_player_wins(outcome: Outcome) -> bool {
    outcome == Outcome::Win
}

fn query_game(
    game: &dyn EngineGame,
    position: Option<&str>,
    args: &EngineArgs,
    budget: &Budget,
    quiet: bool,
) -> Result<Output, CommandError> {
    no_files_under_small_budget(budget, args.db.as_deref())?;
    let found = match &args.db {
        // A link loop, a FIFO or a folder is said to be one, not "does not exist".
        Some(path) => perfect_play::durable::readable(path)?.is_some(),
        None => false,
    };
    match &args.db {
        Some(path) if found => {
            let mut db = open_database(game, path)?;
            let read = read_database(game, &mut db, position)?;
            let database = database_json(path, db.bytes, db.header.positions, true, false, 0);
            Ok(answer_output(&read, Some(database)))
        }
        Some(path) => Err(format!(
            "{} does not exist: make it with perfect-play solve {} ... --db {}",
            path.display(),
            game.name(),
            path.display()
        )
        .into()),
        None => query_in_memory(game, position, args.threads, budget, quiet),
    }
}

/// A position answered by solving the whole game in memory first, refused up front when the
/// table passes the memory limit or the time budget.
pub(crate) fn query_in_memory(
    game: &dyn EngineGame,
    position: Option<&str>,
    threads: u16,
    budget: &Budget,
    quiet: bool,
) -> Result<Output, CommandError> {
    let answered = with_bar(game, quiet, |progress| {
        answers::table_or_search(game, position, usize::from(threads), budget, progress)
    })?;
    let mut output = answer_output(&answered.read, None);
    if let Some(searched) = answered.searched {
        output.json = answered.answer().to_json();
        output.text.push_str(&format!(
            "By search, without the table: {} nodes in {:.3} s{}.\n",
            searched.nodes,
            searched.seconds,
            if searched.moves_complete {
                ""
            } else {
                " (the moves the limits left undecided are not listed)"
            }
        ));
    }
    Ok(output)
}

/// Run `work` with a bar on stderr fed by the engine's progress (positions in finished tiers,
/// their rate, the time left).
pub(super) fn with_bar<T>(
    game: &dyn EngineGame,
    quiet: bool,
    work: impl FnOnce(&(dyn Fn(&Progress) + Sync)) -> Result<T, QueryError>,
) -> Result<T, CommandError> {
    let bar = progress::positions_bar(quiet);
    bar.set_length(game.index_count());
    let tiers = game.tier_count();
    let result = work(&|p: &Progress| {
        bar.set_position(p.indices_solved);
        // Within a tier (Dobutsu shogi is one) the bar stands still: say how far it is.
        bar.set_message(format!(
            "tier {} of {tiers} (solved from the last), round {}, step {}, {} positions decided",
            tiers - p.tier,
            p.round,
            p.pass,
            p.decided
        ));
    });
    bar.finish_and_clear();
    Ok(result?)
}

/// The `query` output of an answer: the JSON object and the text; `database` is the
/// database object when the answer was read from one.
pub(crate) fn answer_output(read: &PositionAnswer, database: Option<serde_json::Value>) -> Output {
    let outcome = read.outcome;
    let json = answers::answer_of(read, database).to_json();
    let title = if read.variant.is_empty() {
        read.game.to_string()
    } else {
        format!("{} {}", read.game, read.variant)
    };
    let mut text = format!("{title}:\n");
    text.push_str(&read.picture);
    text.push_str(&result_sentence(
        Side::of(read.first_to_move),
        None,
        outcome,
        read.remoteness.map(u64::from),
        None,
    ));
    text.push('\n');
    for m in &read.moves {
        text.push_str(&format!(
            "  move {}: {}\n",
            m.name,
            verdict_of(m.outcome, m.remoteness.map(u64::from))
        ));
    }
    if !read.best_line.is_empty() {
        let line: Vec<String> = read.best_line.iter().map(ToString::to_string).collect();
        text.push_str(&format!("Best line: {}\n", line.join(" ")));
    }
    Output { text, json }
}
