//! Connect Four on a small board: the engine's table solved in memory, read at the position
//! after the moves played.

use super::engine;
use crate::budget::Budget;
use crate::engine::{BYTES_PER_POSITION, Solution};
use crate::games::connect_four::{ConnectFour, parse_columns};
use crate::registry::{Answer, EngineGame, Params, QueryError};
use serde_json::json;

/// The board's own fields of an answer: its size and the columns played.
///
/// # Errors
/// Moves that do not parse.
pub fn add_board(answer: &mut Answer, board: &ConnectFour, moves: &str) -> Result<(), QueryError> {
    let played = parse_columns(moves).map_err(QueryError::bad)?;
    answer.details.insert("width".into(), json!(board.width()));
    answer
        .details
        .insert("height".into(), json!(board.height()));
    answer.details.insert("moves_played".into(), json!(played));
    answer
        .details
        .insert("indices".into(), json!(board.index_count()));
    answer
        .details
        .insert("bytes_per_position".into(), json!(BYTES_PER_POSITION));
    Ok(())
}

/// The solve's own fields of an answer: the positions in its table and its passes.
pub fn add_solve(answer: &mut Answer, positions_in_table: u64, passes: u32) {
    answer
        .details
        .insert("positions_in_table".into(), json!(positions_in_table));
    answer.details.insert("passes".into(), json!(passes));
}

/// The registry's answer: `width` and `height`, `position` the columns played.
///
/// # Errors
/// A board or moves not accepted, or a table over the memory limit or the budget.
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let width = params.integer("width").unwrap_or(4) as u32;
    let height = params.integer("height").unwrap_or(4) as u32;
    let board = ConnectFour::new(width, height).map_err(QueryError::bad)?;
    let (read, solution): (_, Solution) =
        engine::in_memory(&board, Some(position), 0, budget, &|_| {})?;
    let mut answer = engine::answer_of(&read, None);
    add_board(&mut answer, &board, position)?;
    add_solve(&mut answer, solution.positions, solution.passes);
    Ok(answer)
}
