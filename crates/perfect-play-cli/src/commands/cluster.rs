//! `mpirun -np N perfect-play solve GAME --db PATH`: one solve over the ranks of an MPI job
//! (the `mpi` feature). Each rank solves its slice of every tier with its threads and keeps
//! its own checkpoint beside the database; rank 0 writes the database and answers for the
//! job, the others print nothing.

use super::engine::{Summary, game_to_solve, open_database, options, with_bar};
use super::{Budget, CommandError, Output};
use crate::args::EngineArgs;
use crate::database_view::{database_json, read_database};
use perfect_play::engine::distributed::{Exchange, mpi::MpiExchange};
use perfect_play::engine::{Checkpoint, Options};
use perfect_play::registry::EngineGame;
use perfect_play::registry::QueryError;
use perfect_play::registry::answers::engine as answers;
use serde_json::json;
use std::time::Instant;

/// The checkpoint of rank `rank` of `ranks` beside the database `path`.
fn checkpoint_path(path: &std::path::Path, rank: usize, ranks: usize) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".partial.rank{rank}of{ranks}"));
    std::path::PathBuf::from(name)
}

/// When mpirun started this process as one of several ranks, this rank's part of the solve
/// (`Some(Some(output))` on rank 0, `Some(None)` on the others); `None` otherwise.
pub fn solve_if_launched(
    args: &EngineArgs,
    budget: &Budget,
    quiet: bool,
) -> Result<Option<Option<Output>>, CommandError> {
    if budget.small || !perfect_play::engine::distributed::mpi::launched() {
        return Ok(None);
    }
    let game = game_to_solve(args)?;
    let Some(mpi) = perfect_play::engine::distributed::mpi::Mpi::start() else {
        return Ok(None);
    };
    let mut world = mpi.world();
    if world.size() <= 1 {
        return Ok(None);
    }
    let options = options(args, budget);
    solve(game.as_ref(), args, &options, &mut world, quiet).map(Some)
}

/// This rank's part of the job; `Some` output on rank 0 only.
fn solve(
    game: &dyn EngineGame,
    args: &EngineArgs,
    options: &Options,
    world: &mut MpiExchange,
    quiet: bool,
) -> Result<Option<Output>, CommandError> {
    let (rank, ranks) = (world.rank(), world.size());
    let path = args.db.as_ref().ok_or(
        "a solve over MPI writes its table to a database: give --db PATH (on a filesystem every rank sees)",
    )?;
    if perfect_play::durable::writable_target(path)? {
        return Err(format!(
            "{} exists already: a solve over MPI writes a new database (query reads one)",
            path.display()
        )
        .into());
    }
    let needed = game.rank_bytes(options, ranks);
    if needed > options.memory_limit {
        return Err(format!(
            "each of the {ranks} ranks needs {needed} bytes ({} positions; a rank holds the tiers it is solving and reading: about 1/N of a one-tier game's table, the two tiers in play of a chain, or when those do not fit its own parts of them and the records its slice reaches), above the memory limit of {} bytes; raise --memory-limit or add ranks",
            game.index_count(),
            options.memory_limit
        )
        .into());
    }
    let clock = Instant::now();
    let identity = format!("{} {} rank {rank} of {ranks}", game.name(), game.variant());
    let mut checkpoint = Checkpoint::open(&checkpoint_path(path, rank, ranks), &identity)?;
    checkpoint.level_interval = std::time::Duration::from_secs(args.checkpoint_every);
    let header = answers::database_header(game, 0);
    let quiet = quiet || rank != 0;
    let solved = with_bar(game, quiet, |progress| {
        game.solve_distributed(
            options,
            world,
            path,
            &header,
            Some(&mut checkpoint),
            progress,
        )
        .map_err(QueryError::from)
    })?;
    checkpoint.remove()?;
    if rank != 0 {
        return Ok(None);
    }
    let seconds = clock.elapsed().as_secs_f64();
    let mut db = open_database(game, path)?;
    let start = read_database(game, &mut db, None)?;
    let summary = Summary {
        outcome: start.outcome,
        remoteness: start.remoteness,
        counts: None,
        seconds,
        positions_in_table: solved.positions,
        passes: solved.passes,
        resumed: solved.resumed,
    };
    let (mut json, mut text) = summary.render(game, options);
    json["database"] = database_json(
        path,
        solved.database_bytes,
        solved.positions,
        false,
        solved.resumed,
        solved.already_solved,
    );
    let messages: u64 = solved.traffic.iter().map(|t| t.messages).sum();
    let bytes: u64 = solved.traffic.iter().map(|t| t.bytes).sum();
    json["ranks"] = json!(ranks);
    json["traffic"] = json!({
        "messages": messages,
        "bytes": bytes,
        "levels": solved
            .traffic
            .iter()
            .map(|t| json!({"tier": t.tier, "level": t.level, "messages": t.messages, "bytes": t.bytes}))
            .collect::<Vec<_>>(),
    });
    json["schedule"] = json!({
        "waves": solved.waves,
        "tiers_split": solved.tiers_split,
        "tiers_whole": solved.tiers_whole,
        "pass_records_shared": solved.pass_records_shared,
        "child_records_borrowed": solved.child_records_borrowed,
    });
    text.push_str(&format!(
        "Solved over {ranks} MPI ranks in {} waves: {} tiers cut into slices, {} solved whole by one rank.\n{messages} parents told across slices ({bytes} bytes) in {} levels; {} records of child tiers borrowed.\nDatabase {}: {} bytes.\n",
        solved.waves,
        solved.tiers_split,
        solved.tiers_whole,
        solved.traffic.len(),
        solved.child_records_borrowed,
        path.display(),
        solved.database_bytes
    ));
    Ok(Some(Output { text, json }))
}
