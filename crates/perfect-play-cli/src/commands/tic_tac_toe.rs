//! `perfect-play tic-tac-toe`: the generic solver on any legal board.

use super::CommandError;
use crate::args::TicTacToeArgs;
use crate::output::{self, Output};
use perfect_play::registry::answers::tic_tac_toe;
use perfect_play::tic_tac_toe::{Board, Cell};

pub fn run(args: &TicTacToeArgs) -> Result<Output, CommandError> {
    let board: Board = args.board.parse()?;
    Ok(solve(board))
}

/// Solve tic-tac-toe from `board`; used by the tour too.
pub fn solve(board: Board) -> Output {
    let report = tic_tac_toe::report(board);
    let analysis = &report.analysis.analysis;
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
    let mark = if board.to_move() == Cell::X { "x" } else { "o" };
    text.push_str(&output::result_sentence(
        report.answer.to_move,
        Some(mark),
        analysis.value.outcome(),
        Some(u64::from(analysis.value.remoteness)),
        None,
    ));
    text.push_str(&format!(
        "\nPositions searched: {}.\n",
        report.analysis.positions_searched
    ));
    text.push_str(&output::analysis_text(analysis));
    Output {
        text,
        json: report.answer.to_json(),
    }
}
