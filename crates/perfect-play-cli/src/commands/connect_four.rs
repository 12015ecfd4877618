//! `perfect-play connect-four`: a small board solved whole by the engine, then read.

use super::engine::{
    describe, no_files_under_small_budget, open_database, read_database, refuse_if_too_large,
    solve_into_database, solve_with_bar,
};
use super::{Budget, CommandError};
use crate::args::ConnectFourArgs;
use crate::output::{Output, verdict_of};
use perfect_play::Outcome;
use perfect_play::engine::{self, BYTES_PER_POSITION, IndexedGame, Options};
use perfect_play::games::connect_four::{Board, ConnectFour};
use serde_json::json;

pub fn run(args: &ConnectFourArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
    let game = ConnectFour::new(args.width, args.height)?;
    let moves = parse_moves(&args.moves)?;
    let board = game.play_columns(&moves).ok_or_else(|| {
        format!(
            "the moves {} are not a game on a {} x {} board: a column off the board or full, or a move after four in a row",
            args.moves, args.width, args.height
        )
    })?;
    no_files_under_small_budget(budget, args.db.as_deref())?;
    let limit = budget.memory(2 << 30);
    let existing = args.db.as_ref().filter(|p| p.exists());
    if existing.is_none() {
        refuse_if_too_large(&game, limit, budget)?;
    }
    let options = Options {
        memory_limit: limit,
        threads: usize::from(args.threads),
        ..Options::default()
    };
    let (read, positions, passes, database) = match (&args.db, existing) {
        (_, Some(path)) => {
            let mut db = open_database(&game, path)?;
            let read = read_database(&game, &mut db, &board)?;
            let json = database_json(path, db.bytes, db.header.positions, true, false, 0);
            (read, db.header.positions, 0, Some(json))
        }
        (Some(path), None) => {
            let (solution, bytes) = solve_into_database(&game, path, &options, quiet)?;
            let read = engine::analyse(&game, &solution, &board)
                .ok_or("the position is not in the solved table")?;
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
            let solution = solve_with_bar(&game, &options, None, quiet)?;
            let read = engine::analyse(&game, &solution, &board)
                .ok_or("the position is not in the solved table")?;
            (read, solution.positions, solution.passes, None)
        }
    };
    let outcome = read.record.outcome().unwrap_or(Outcome::Draw);
    let remoteness = read.record.remoteness();
    let first = game.first_to_move(&board);
    let mover = if first { "first" } else { "second" };
    let moves_json: Vec<_> = read
        .moves
        .iter()
        .map(|m| {
            json!({
                "move": m.mv + 1,
                "outcome": m.record.outcome(),
                "remoteness": m.record.remoteness(),
            })
        })
        .collect();
    let winning: Vec<u32> = read
        .moves
        .iter()
        .filter(|m| m.record.outcome() == Some(Outcome::Win))
        .map(|m| m.mv + 1)
        .collect();
    let json = json!({
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
        "winning_moves": winning,
        "best_line": read.best_line.iter().map(|c| c + 1).collect::<Vec<_>>(),
        "positions": positions,
        "indices": game.index_count(),
        "bytes_per_position": BYTES_PER_POSITION,
        "passes": passes,
        "method": "engine",
    });
    let mut json = json;
    if let Some(database) = database {
        json["database"] = database;
    }
    let mut text = format!(
        "Connect Four, {} x {} (columns 1-{}, x moves first):\n",
        args.width, args.height, args.width
    );
    text.push_str(&picture(&game, &board));
    text.push_str(&format!(
        "The {mover} player ({}) to move {} with perfect play ({} positions solved).\n",
        if first { "x" } else { "o" },
        verdict_of(outcome, remoteness.map(u64::from)),
        positions
    ));
    for m in &read.moves {
        text.push_str(&format!("  column {}: {}\n", m.mv + 1, describe(m.record)));
    }
    if !read.best_line.is_empty() {
        let line: Vec<String> = read.best_line.iter().map(|c| (c + 1).to_string()).collect();
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

/// Columns as digits (`2233`) or a comma list (`10,11`), 1-based.
pub(super) fn parse_moves(text: &str) -> Result<Vec<u32>, CommandError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    if text.contains(',') {
        return Ok(perfect_play::parse::list_in(text, 1, 32)?
            .into_iter()
            .map(|c| c as u32)
            .collect());
    }
    text.chars()
        .map(|c| {
            c.to_digit(10).filter(|&d| d >= 1).ok_or_else(|| {
                format!("{c:?} in the moves is not a column: use digits 1-9 (2233), or a comma list (10,11) for wide boards").into()
            })
        })
        .collect()
}

/// The board, top row first: x for the first player, o for the second.
pub(super) fn picture(game: &ConnectFour, board: &Board) -> String {
    let mut text = String::new();
    for row in (0..game.height()).rev() {
        text.push_str("  ");
        for c in 0..game.width() {
            let bit = 1u64 << (c * (game.height() + 1) + row);
            text.push(if board.mask & bit == 0 {
                '.'
            } else if board.first & bit != 0 {
                'x'
            } else {
                'o'
            });
        }
        text.push('\n');
    }
    text.push_str("  ");
    for c in 0..game.width() {
        text.push(char::from_digit((c + 1) % 10, 10).unwrap_or('?'));
    }
    text.push('\n');
    text
}
