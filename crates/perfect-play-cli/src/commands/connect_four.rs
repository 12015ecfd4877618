//! `perfect-play connect-four`: a small board solved whole by the engine, then read.

use super::engine::{
    no_files_under_small_budget, open_database, read_database, refuse_if_too_large,
    solve_into_database, solve_with_bar,
};
use super::{Budget, CommandError};
use crate::args::ConnectFourArgs;
use crate::output::{Output, verdict_of};
use perfect_play::Outcome;
use perfect_play::engine::{BYTES_PER_POSITION, Options};
use perfect_play::games::connect_four::{ConnectFour, parse_columns};
use perfect_play::registry::EngineGame;
use serde_json::json;

pub fn run(args: &ConnectFourArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
    let board = ConnectFour::new(args.width, args.height)?;
    let game: &dyn EngineGame = &board;
    let moves = parse_columns(&args.moves)?;
    game.check_position(Some(&args.moves))?;
    no_files_under_small_budget(budget, args.db.as_deref())?;
    let limit = budget.memory(2 << 30);
    let existing = args.db.as_ref().filter(|p| p.exists());
    if existing.is_none() {
        refuse_if_too_large(game, limit, budget)?;
    }
    let options = Options {
        memory_limit: limit,
        threads: usize::from(args.threads),
        ..Options::default()
    };
    let position = Some(args.moves.as_str());
    let (read, positions, passes, database) = match (&args.db, existing) {
        (_, Some(path)) => {
            let mut db = open_database(game, path)?;
            let read = read_database(game, &mut db, position)?;
            let json = database_json(path, db.bytes, db.header.positions, true, false, 0);
            (read, db.header.positions, 0, Some(json))
        }
        (Some(path), None) => {
            let (solution, bytes) = solve_into_database(game, path, &options, quiet)?;
            let read = game.answer(position, &mut |i| solution.record(i))?;
            let json = database_json(
                path,
                bytes,
                solution.positions,
                false,
                solution.resumed,
                solution.already_solved,
            );
            (read, solution.positions, solution.passes, Some(json))
        }
        (None, _) => {
            let solution = solve_with_bar(game, &options, None, quiet)?;
            let read = game.answer(position, &mut |i| solution.record(i))?;
            (read, solution.positions, solution.passes, None)
        }
    };
    let outcome = read.outcome;
    let remoteness = read.remoteness;
    let first = read.first_to_move;
    let mover = if first { "first" } else { "second" };
    let moves_json: Vec<_> = read
        .moves
        .iter()
        .map(|m| {
            json!({
                "move": m.name,
                "outcome": m.outcome,
                "remoteness": m.remoteness,
            })
        })
        .collect();
    let winning = read.winning_moves();
    let mut json = json!({
        "game": "connect-four",
        "width": args.width,
        "height": args.height,
        "moves_played": moves,
        "to_move": mover,
        "outcome": outcome,
        // The vocabulary's meaning: the player to move (`to_move`) wins.
        "first_player_wins": outcome == Outcome::Win,
        "remoteness": remoteness,
        "moves": moves_json,
        "moves_complete": true,
        "winning_moves_total": winning.len(),
        "winning_moves": winning,
        "best_line": read.best_line,
        "positions": positions,
        "indices": game.index_count(),
        "bytes_per_position": BYTES_PER_POSITION,
        "passes": passes,
        "method": "engine",
    });
    if let Some(database) = database {
        json["database"] = database;
    }
    let mut text = format!(
        "Connect Four, {} x {} (columns 1-{}, x moves first):\n",
        args.width, args.height, args.width
    );
    text.push_str(&read.picture);
    text.push_str(&format!(
        "The {mover} player ({}) to move {} with perfect play ({} positions solved).\n",
        if first { "x" } else { "o" },
        verdict_of(outcome, remoteness.map(u64::from)),
        positions
    ));
    for m in &read.moves {
        text.push_str(&format!(
            "  column {}: {}\n",
            m.name,
            verdict_of(m.outcome, m.remoteness.map(u64::from))
        ));
    }
    if !read.best_line.is_empty() {
        let line: Vec<String> = read.best_line.iter().map(ToString::to_string).collect();
        text.push_str(&format!("Best line: {}\n", line.join(" ")));
    }
    Ok(Output { text, json })
}

/// The `database` object: where the table is and what it takes on disk.
fn database_json(
    path: &std::path::Path,
    bytes: u64,
    positions: u64,
    loaded: bool,
    resumed: bool,
    already_solved: u64,
) -> serde_json::Value {
    let bits = if positions == 0 {
        0.0
    } else {
        bytes as f64 * 8.0 / positions as f64
    };
    json!({
        "path": path.display().to_string(),
        "bytes": bytes,
        "bits_per_position": bits,
        "loaded": loaded,
        "resumed": resumed,
        "already_solved": already_solved,
    })
}
