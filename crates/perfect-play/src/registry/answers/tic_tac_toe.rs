//! Tic-tac-toe: the generic solver on any legal board.

use super::Report;
use crate::game::{Game, Transition};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use crate::tic_tac_toe::{Board, Cell, Square, TicTacToe};
use crate::{Analysis, Outcome, Solver};
use serde_json::{Map, Value, json};

/// The registry's answer: `position` the 9 squares (empty: the empty board).
///
/// # Errors
/// Text that is not a board, or a board no game reaches.
pub fn answer(_: &Params, position: &str, _: &crate::budget::Budget) -> Result<Answer, QueryError> {
    let position = position.trim();
    let board: Board = if position.is_empty() {
        Board::empty()
    } else {
        position.parse().map_err(QueryError::bad)?
    };
    Ok(report(board).answer)
}

/// What a solve of the board found besides its analysis.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The analysis of the board.
    pub analysis: Analysis<Square>,
    /// Positions the solver visited.
    pub positions_searched: usize,
}

/// Tic-tac-toe from `board` (a few thousand positions at most: no budget needed).
#[must_use]
pub fn report(board: Board) -> Report<Solved> {
    let game = TicTacToe { board };
    let mut solver = Solver::new(game);
    let analysis = solver.analyse(&board);
    let positions_searched = solver.states();
    let value = |m: &Square| serde_json::to_value(m).unwrap_or(Value::Null);
    let moves = analysis
        .moves
        .iter()
        .map(|m| {
            let after = match game.play(&board, &m.mv) {
                Transition::Continue { position, .. } => position,
                Transition::End(_) => board,
            };
            MoveValue {
                mv: value(&m.mv),
                outcome: m.value.outcome(),
                remoteness: Some(u64::from(m.value.remoteness)),
                ends_game: m.value.remoteness == 1,
                position: Some(after.to_string()),
                details: Map::new(),
            }
        })
        .collect();
    let winning: Vec<Value> = analysis.winning_moves().iter().map(value).collect();
    let mut details = Map::new();
    details.insert(
        "optimal_moves".into(),
        json!(
            analysis
                .optimal_moves()
                .iter()
                .map(value)
                .collect::<Vec<_>>()
        ),
    );
    details.insert("positions_searched".into(), json!(positions_searched));
    let mut answer = Answer {
        game: "tic-tac-toe",
        position: board.to_string(),
        to_move: if board.to_move() == Cell::X {
            Side::First
        } else {
            Side::Second
        },
        outcome: analysis.value.outcome(),
        first_player_wins: analysis.value.outcome() == Outcome::Win,
        remoteness: Some(u64::from(analysis.value.remoteness)),
        moves,
        moves_complete: true,
        winning_moves_total: json!(winning.len()),
        winning_moves: winning,
        best_line: Some(analysis.best_line.iter().map(value).collect()),
        method: "search".into(),
        details,
    };
    answer.sort_moves();
    Report {
        analysis: Solved {
            analysis,
            positions_searched,
        },
        answer,
    }
}
