//! `perfect-play tic-tac-toe`: the generic solver on any legal board.

use super::CommandError;
use crate::args::TicTacToeArgs;
use crate::output::{self, Output};
use perfect_play::Solver;
use perfect_play::tic_tac_toe::{Board, Cell, TicTacToe};
use serde_json::json;

pub fn run(args: &TicTacToeArgs) -> Result<Output, CommandError> {
    let board: Board = args.board.parse()?;
    Ok(solve(board))
}

/// Solve tic-tac-toe from `board`; used by the tour too.
pub fn solve(board: Board) -> Output {
    let mut solver = Solver::new(TicTacToe { board });
    let analysis = solver.analyse(&board);
    let mover = if board.to_move() == Cell::X { "x" } else { "o" };
    let mut json = output::analysis_json(&analysis, solver.states());
    json["game"] = json!("tic-tac-toe");
    json["board"] = json!(board.to_string());
    json["to_move"] = json!(mover);
    let mut text = String::from("Tic-tac-toe, squares numbered 1-9 in reading order:\n");
    for row in 0..3 {
        let cells: String = (0..3)
            .map(|col| match board.cell(row * 3 + col) {
                Cell::X => 'x',
                Cell::O => 'o',
                Cell::Empty => char::from(b'1' + u8::try_from(row * 3 + col).unwrap_or(0)),
            })
            .collect();
        text.push_str(&format!("  {cells}\n"));
    }
    text.push_str(&format!(
        "{mover} to move {} with perfect play ({} positions examined).\n",
        output::verdict(analysis.value),
        solver.states()
    ));
    text.push_str(&output::analysis_text(&analysis));
    Output { text, json }
}
