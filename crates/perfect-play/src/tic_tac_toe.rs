//! Tic-tac-toe on the 3x3 board, from any legal position, written only through the [`Game`] trait.
//!
//! A board is 9 characters in reading order: `x`, `o`, or `.` for an empty square (`X`, `O`, `-`
//! and `_` are accepted too). X moves first, so the side to move follows from the counts.

use crate::engine::IndexedGame;
use crate::game::{Ending, Game, Transition};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A square's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No mark yet.
    Empty,
    /// X, the first player.
    X,
    /// O, the second player.
    O,
}

/// A legal tic-tac-toe position. Parse one with [`str::parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Cell; 9],
}

/// A move: the square to mark, 0-based in reading order (shown and serialised 1-based, 1..=9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square(pub u8);

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0 + 1)
    }
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Why a string is not a legal tic-tac-toe position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The string does not have exactly 9 squares.
    #[error("a board has 9 squares, got {0} characters (use x, o and . in reading order)")]
    Length(usize),
    /// A character other than x, o, `.`.
    #[error("unexpected character {0:?} in board (use x, o and . for an empty square)")]
    Character(char),
    /// X moves first, so X has as many marks as O or one more.
    #[error(
        "impossible counts: {x} x and {o} o (x moves first, so x has as many marks as o or one more)"
    )]
    Counts {
        /// Number of X marks.
        x: usize,
        /// Number of O marks.
        o: usize,
    },
    /// Both players have three in a row, or the winner's count contradicts who moved last.
    #[error("impossible position: {0}")]
    Unreachable(&'static str),
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(s: &str) -> Result<Board, BoardError> {
        let chars: Vec<char> = s.trim().chars().collect();
        if chars.len() != 9 {
            return Err(BoardError::Length(chars.len()));
        }
        let mut cells = [Cell::Empty; 9];
        for (cell, c) in cells.iter_mut().zip(chars) {
            *cell = match c {
                'x' | 'X' => Cell::X,
                'o' | 'O' => Cell::O,
                '.' | '-' | '_' => Cell::Empty,
                other => return Err(BoardError::Character(other)),
            };
        }
        Board::from_cells(cells)
    }
}

impl Board {
    /// The board with these cells, if it can arise in play.
    ///
    /// # Errors
    /// The counts or lines of a board no game reaches.
    pub fn from_cells(cells: [Cell; 9]) -> Result<Board, BoardError> {
        let board = Board { cells };
        let (x, o) = (board.count(Cell::X), board.count(Cell::O));
        if x != o && x != o + 1 {
            return Err(BoardError::Counts { x, o });
        }
        match (board.has_line(Cell::X), board.has_line(Cell::O)) {
            (true, true) => Err(BoardError::Unreachable("both x and o have three in a row")),
            (true, false) if x != o + 1 => Err(BoardError::Unreachable(
                "x has three in a row, so x moved last and must have one more mark than o",
            )),
            (false, true) if x != o => Err(BoardError::Unreachable(
                "o has three in a row, so o moved last and must have as many marks as x",
            )),
            _ => Ok(board),
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in self.cells {
            f.write_str(match cell {
                Cell::Empty => ".",
                Cell::X => "x",
                Cell::O => "o",
            })?;
        }
        Ok(())
    }
}

impl Board {
    /// The empty board.
    #[must_use]
    pub fn empty() -> Board {
        Board {
            cells: [Cell::Empty; 9],
        }
    }

    /// The content of square `index` (0-based, reading order).
    #[must_use]
    pub fn cell(&self, index: usize) -> Cell {
        self.cells[index]
    }

    fn count(&self, mark: Cell) -> usize {
        self.cells.iter().filter(|&&c| c == mark).count()
    }

    fn has_line(&self, mark: Cell) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&i| self.cells[i] == mark))
    }

    /// The mark of the player to move: X when the counts are equal.
    #[must_use]
    pub fn to_move(&self) -> Cell {
        if self.count(Cell::X) == self.count(Cell::O) {
            Cell::X
        } else {
            Cell::O
        }
    }

    /// Whether someone has three in a row.
    #[must_use]
    pub fn is_won(&self) -> bool {
        self.has_line(Cell::X) || self.has_line(Cell::O)
    }
}

/// Tic-tac-toe from a given position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    /// The position play starts from.
    pub board: Board,
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = Square;

    fn start(&self) -> Board {
        self.board
    }

    fn moves(&self, board: &Board) -> Vec<Square> {
        if board.is_won() {
            return Vec::new();
        }
        (0..9u8)
            .filter(|&i| board.cells[usize::from(i)] == Cell::Empty)
            .map(Square)
            .collect()
    }

    fn play(&self, board: &Board, square: &Square) -> Transition<Board> {
        let mut next = *board;
        next.cells[usize::from(square.0)] = board.to_move();
        Transition::to(next)
    }

    /// A finished board: lost for the player to move if the opponent completed a line, else drawn.
    fn no_moves(&self, board: &Board) -> Ending {
        if board.is_won() {
            Ending::Loss
        } else {
            Ending::Draw
        }
    }
}

/// The engine's numbering: the nine cells as base-3 digits (empty 0, X 1, O 2), cell 0 the
/// lowest; 3^9 = 19,683 numbers, of which the boards no game reaches are holes.
impl IndexedGame for TicTacToe {
    fn index_count(&self) -> u64 {
        3u64.pow(9)
    }

    fn index(&self, board: &Board) -> u64 {
        board.cells.iter().rev().fold(0, |index, cell| {
            index * 3
                + match cell {
                    Cell::Empty => 0,
                    Cell::X => 1,
                    Cell::O => 2,
                }
        })
    }

    fn position(&self, mut index: u64) -> Option<Board> {
        if index >= self.index_count() {
            return None;
        }
        let mut cells = [Cell::Empty; 9];
        for cell in &mut cells {
            *cell = match index % 3 {
                0 => Cell::Empty,
                1 => Cell::X,
                _ => Cell::O,
            };
            index /= 3;
        }
        Board::from_cells(cells).ok()
    }
}

impl crate::games::board::BoardGame for TicTacToe {
    fn name(&self) -> &'static str {
        "tic-tac-toe"
    }
    fn variant(&self) -> String {
        "3x3".into()
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    fn parse_position(&self, text: &str) -> Result<Board, crate::games::notation::NotationError> {
        text.parse()
            .map_err(|e: BoardError| crate::games::notation::NotationError::Rule(e.to_string()))
    }
    fn first_to_move(&self, board: &Board) -> bool {
        board.to_move() == Cell::X
    }
    fn move_name(&self, square: &Square) -> crate::games::board::MoveName {
        crate::games::board::MoveName::Number(u32::from(square.0) + 1)
    }
    fn notation(&self, board: &Board) -> Option<String> {
        Some(board.to_string())
    }
    fn picture(&self, board: &Board) -> String {
        let text = board.to_string();
        text.as_bytes()
            .chunks(3)
            .map(|row| format!("  {}\n", String::from_utf8_lossy(row)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Outcome;
    use crate::solver::Solver;

    #[test]
    fn empty_board_is_a_draw_in_nine_moves() {
        let mut solver = Solver::new(TicTacToe {
            board: Board::empty(),
        });
        let analysis = solver.analyse(&Board::empty());
        assert_eq!(analysis.value.outcome(), Outcome::Tie);
        assert_eq!(analysis.value.remoteness, 9);
        assert_eq!(analysis.best_line.len(), 9);
        assert!(analysis.winning_moves().is_empty());
        assert_eq!(analysis.moves.len(), 9);
    }

    #[test]
    fn exactly_5478_positions_are_reachable() {
        let mut solver = Solver::new(TicTacToe {
            board: Board::empty(),
        });
        solver.value(&Board::empty());
        assert_eq!(solver.states(), 5478);
    }

    #[test]
    fn finds_the_winning_square() {
        // x x . / o o . / . . .  with x to move: 3 wins at once.
        let board: Board = "xx.oo....".parse().unwrap();
        let mut solver = Solver::new(TicTacToe { board });
        let analysis = solver.analyse(&board);
        assert_eq!(analysis.value.outcome(), Outcome::Win);
        assert_eq!(analysis.value.remoteness, 1);
        assert_eq!(analysis.optimal_moves(), vec![Square(2)]);
    }

    #[test]
    fn rejects_impossible_boards() {
        assert_eq!("xx".parse::<Board>(), Err(BoardError::Length(2)));
        assert_eq!(
            "xxx......".parse::<Board>(),
            Err(BoardError::Counts { x: 3, o: 0 })
        );
        assert!(matches!(
            "xxxooo...".parse::<Board>(),
            Err(BoardError::Unreachable(_))
        ));
        assert!(matches!(
            "xxxoo.o..".parse::<Board>(),
            Err(BoardError::Unreachable(_))
        ));
        assert_eq!(
            "xx?oo....".parse::<Board>(),
            Err(BoardError::Character('?'))
        );
    }

    #[test]
    fn a_won_board_is_lost_for_the_player_to_move() {
        let board: Board = "xxxoo....".parse().unwrap();
        let mut solver = Solver::new(TicTacToe { board });
        assert_eq!(solver.value(&board), crate::Value::terminal(-1));
    }
}
