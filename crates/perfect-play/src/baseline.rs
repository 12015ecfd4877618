//! The seeds' own algorithms, written plainly in Rust.
//!
//! They are the baselines every benchmark measures against and independent oracles in the tests.
//! None of them is used by the fast solvers.

use crate::tic_tac_toe::{Board, TicTacToe};
use crate::{Game, Outcome, Solver};

/// Plain minimax without memoisation: the textbook tic-tac-toe search, for benchmarks.
/// Returns the outcome for the player to move.
#[must_use]
pub fn tic_tac_toe_minimax(board: &Board) -> Outcome {
    let game = TicTacToe { board: *board };
    let moves = game.moves(board);
    if moves.is_empty() {
        return Outcome::from_margin(game.no_moves(board).score());
    }
    moves
        .iter()
        .map(|mv| match game.play(board, mv) {
            crate::Transition::Continue { position, .. } => tic_tac_toe_minimax(&position).flip(),
            crate::Transition::End(e) => Outcome::from_margin(e.score()),
        })
        .max()
        .expect("at least one move")
}

/// The memoised generic solver on the same board, for symmetry with the baseline above.
#[must_use]
pub fn tic_tac_toe_memoised(board: &Board) -> Outcome {
    Solver::new(TicTacToe { board: *board })
        .value(board)
        .outcome()
}
