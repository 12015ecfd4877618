//! Connect Four on a board `width` columns wide and `height` rows high: drop a disc in a
//! column that is not full; four in a row (across, up or diagonally) wins, a full board ties.
//!
//! A position is two bitboards in Pascal Pons' layout (a column's cells in `height` bits plus
//! one empty bit above, so that shifts never carry a line from one column into the next), in
//! 128 bits: any board with `width x (height + 1)` at most 128 (the search runs boards that
//! fit 64 bits on 64-bit words).
//! For the engine, positions are numbered by tier, one tier per number of discs: within a
//! tier, by the column heights (ranked among all height vectors with that many discs) and
//! then by which of the discs are the first player's (ranked among the ways to choose them).
//! Positions with four in a row already are holes: the move that makes a line ends the game.

pub mod search;

use super::notation::NotationError;
use super::subsets::Binomials;
use crate::engine::IndexedGame;
use crate::game::{Ending, Game, Transition};
use crate::games::board::{BoardGame, MoveName};
use std::ops::Range;
use thiserror::Error;

/// A board size the game cannot be played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SizeError {
    /// More columns than the search tries moves at a position.
    #[error(
        "a {width} x {height} board is not supported: at most {MAX_WIDTH} columns (the search tries at most {MAX_WIDTH} moves a position)"
    )]
    TooWide {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A side under 1, or a board whose bitboard passes 128 bits.
    #[error(
        "a {width} x {height} board is not supported: width and height from 1, and width x (height + 1) at most {MAX_BITS} (it is {bits})",
        bits = u64::from(*width) * (u64::from(*height) + 1)
    )]
    Unsupported {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
}

/// Bits a board's bitboard may take: `width x (height + 1)` at most this.
pub const MAX_BITS: u64 = 128;

/// Columns a board may have (as many as the search's moves at a position: only boards of
/// one or two rows could be wider within 128 bits).
pub const MAX_WIDTH: u32 = crate::search::MAX_CHILDREN as u32;

/// A position: the first player's discs and every disc, as bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The first player's discs.
    pub first: u128,
    /// Every disc.
    pub mask: u128,
}

/// Connect Four on a given board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    width: u32,
    height: u32,
    /// `ways[w][t]`: height vectors of `w` columns holding `t` discs.
    ways: Vec<Vec<u64>>,
    choose: Binomials,
    /// Where each tier (number of discs) starts in the index; one more entry for the end.
    tier_starts: Vec<u64>,
}

impl ConnectFour {
    /// The game on a `width` x `height` board.
    ///
    /// # Errors
    /// A size the bitboards cannot hold.
    pub fn new(width: u32, height: u32) -> Result<ConnectFour, SizeError> {
        if width == 0 || height == 0 || u64::from(width) * (u64::from(height) + 1) > MAX_BITS {
            return Err(SizeError::Unsupported { width, height });
        }
        if width > MAX_WIDTH {
            return Err(SizeError::TooWide { width, height });
        }
        let cells = (width * height) as usize;
        let choose = Binomials::new(cells);
        let mut ways = vec![vec![0u64; cells + 1]; width as usize + 1];
        ways[0][0] = 1;
        for w in 1..=width as usize {
            for t in 0..=cells {
                ways[w][t] = (0..=t.min(height as usize))
                    .map(|h| ways[w - 1][t - h])
                    .fold(0u64, u64::saturating_add);
            }
        }
        let mut tier_starts = vec![0u64];
        for (t, &heights) in ways[width as usize].iter().enumerate() {
            let size = heights.saturating_mul(choose.choose(t, first_discs(t)));
            let last = *tier_starts.last().unwrap_or(&0);
            tier_starts.push(last.saturating_add(size));
        }
        Ok(ConnectFour {
            width,
            height,
            ways,
            choose,
            tier_starts,
        })
    }

    /// Columns.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The empty board.
    #[must_use]
    pub fn empty(&self) -> Board {
        Board { first: 0, mask: 0 }
    }

    fn column_bits(&self) -> u32 {
        self.height + 1
    }

    /// The board seen in a mirror: its columns in reverse order.
    #[must_use]
    pub fn mirrored(&self, board: &Board) -> Board {
        let bits = self.column_bits();
        let column = u128::MAX >> (128 - bits);
        let mut mirror = self.empty();
        for c in 0..self.width {
            let to = (self.width - 1 - c) * bits;
            mirror.first |= (board.first >> (c * bits) & column) << to;
            mirror.mask |= (board.mask >> (c * bits) & column) << to;
        }
        mirror
    }

    /// Discs in column `c`.
    #[must_use]
    pub fn column_height(&self, board: &Board, c: u32) -> u32 {
        let column = (board.mask >> (c * self.column_bits())) & ((1 << self.height) - 1);
        column.count_ones()
    }

    /// Whether the first player is to move (equal numbers of discs).
    #[must_use]
    pub fn first_to_move(&self, board: &Board) -> bool {
        board.mask.count_ones().is_multiple_of(2)
    }

    /// Whether `discs` hold four in a row.
    fn has_four(&self, discs: u128) -> bool {
        line_steps(self.height, u128::BITS).into_iter().any(|d| {
            let pairs = discs & (discs >> d);
            pairs & (pairs >> (2 * d)) != 0
        })
    }

    /// Whether either player has four in a row.
    #[must_use]
    pub fn is_won(&self, board: &Board) -> bool {
        self.has_four(board.first) || self.has_four(board.mask ^ board.first)
    }

    /// The board after the player to move drops a disc in column `c` (not full).
    #[must_use]
    pub fn drop_disc(&self, board: &Board, c: u32) -> Board {
        let bit = 1u128 << (c * self.column_bits() + self.column_height(board, c));
        let first = if self.first_to_move(board) {
            board.first | bit
        } else {
            board.first
        };
        Board {
            first,
            mask: board.mask | bit,
        }
    }

    /// The board after the columns in `moves` (1-based), from the empty board; `None` at a
    /// full column, a column off the board, or a move after the game is won.
    #[must_use]
    pub fn play_columns(&self, moves: &[u32]) -> Option<Board> {
        let mut board = self.empty();
        for &m in moves {
            let c = m.checked_sub(1)?;
            if c >= self.width
                || self.column_height(&board, c) >= self.height
                || self.is_won(&board)
            {
                return None;
            }
            board = self.drop_disc(&board, c);
        }
        Some(board)
    }
}

/// The bit steps between neighbours of a line on a board `height` rows high: up a column,
/// across, and the two diagonals. A step whose four cells cannot fit a word of `word_bits`
/// (three steps of that many or more: a board one or two columns wide and very tall) holds
/// no line, and is left out so that no shift passes the word.
pub(crate) fn line_steps(height: u32, word_bits: u32) -> arrayvec::ArrayVec<u64, 4> {
    let h = u64::from(height);
    [1, h + 1, h, h + 2]
        .into_iter()
        .filter(|&d| 3 * d < u64::from(word_bits))
        .collect()
}

/// Discs the first player has among `t`.
fn first_discs(t: usize) -> usize {
    t.div_ceil(2)
}

impl Game for ConnectFour {
    type Position = Board;
    /// A column, 0-based.
    type Move = u32;

    fn start(&self) -> Board {
        self.empty()
    }

    fn moves(&self, board: &Board) -> Vec<u32> {
        if self.is_won(board) {
            return Vec::new();
        }
        (0..self.width)
            .filter(|&c| self.column_height(board, c) < self.height)
            .collect()
    }

    fn play(&self, board: &Board, column: &u32) -> Transition<Board> {
        let next = self.drop_disc(board, *column);
        let mover = if self.first_to_move(board) {
            next.first
        } else {
            next.mask ^ next.first
        };
        if self.has_four(mover) {
            Transition::End(Ending::Win)
        } else {
            Transition::to(next)
        }
    }

    /// A full board without a line: a tie.
    fn no_moves(&self, board: &Board) -> Ending {
        if self.is_won(board) {
            Ending::Loss
        } else {
            Ending::Draw
        }
    }
}

impl IndexedGame for ConnectFour {
    fn index_count(&self) -> u64 {
        *self.tier_starts.last().unwrap_or(&0)
    }

    fn index(&self, board: &Board) -> u64 {
        let heights: Vec<u32> = (0..self.width)
            .map(|c| self.column_height(board, c))
            .collect();
        let t: u32 = heights.iter().sum();
        let mut rest = t as usize;
        let mut height_rank = 0u64;
        for (i, &h) in heights.iter().enumerate() {
            let after = self.width as usize - i - 1;
            for v in 0..h as usize {
                height_rank += self.ways[after][rest - v];
            }
            rest -= h as usize;
        }
        // The discs in order (column by column, bottom up): the set of the first player's
        // among them, ranked.
        let mut first_orders = 0u64;
        let mut order = 0;
        for (c, &h) in heights.iter().enumerate() {
            for row in 0..h {
                let bit = 1u128 << (c as u32 * self.column_bits() + row);
                if board.first & bit != 0 {
                    first_orders |= 1 << order;
                }
                order += 1;
            }
        }
        let color_rank = self.choose.rank(first_orders);
        let t = t as usize;
        self.tier_starts[t] + height_rank * self.choose.choose(t, first_discs(t)) + color_rank
    }

    fn position(&self, index: u64) -> Option<Board> {
        let t = self
            .tier_starts
            .partition_point(|&s| s <= index)
            .checked_sub(1)?;
        if t >= self.tier_starts.len() - 1 {
            return None;
        }
        let within = index - self.tier_starts[t];
        let colorings = self.choose.choose(t, first_discs(t));
        let (mut height_rank, color_rank) = (within / colorings, within % colorings);
        let mut heights = Vec::with_capacity(self.width as usize);
        let mut rest = t;
        for i in 0..self.width as usize {
            let after = self.width as usize - i - 1;
            let mut h = 0;
            while h <= self.height as usize && h <= rest {
                let here = self.ways[after][rest - h];
                if height_rank < here {
                    break;
                }
                height_rank -= here;
                h += 1;
            }
            heights.push(h as u32);
            rest -= h;
        }
        let first_orders = self.choose.unrank(color_rank, first_discs(t), t);
        let mut board = self.empty();
        let mut order = 0;
        for (c, &h) in heights.iter().enumerate() {
            for row in 0..h {
                let bit = 1u128 << (c as u32 * self.column_bits() + row);
                board.mask |= bit;
                if first_orders >> order & 1 == 1 {
                    board.first |= bit;
                }
                order += 1;
            }
        }
        (!self.is_won(&board)).then_some(board)
    }

    fn tier_count(&self) -> u64 {
        self.tier_starts.len() as u64 - 1
    }

    fn tier_range(&self, tier: u64) -> Range<u64> {
        self.tier_starts[tier as usize]..self.tier_starts[tier as usize + 1]
    }

    /// Every move drops one disc.
    fn tier_children(&self, tier: u64) -> Vec<u64> {
        (tier + 1..self.tier_count()).take(1).collect()
    }

    /// Every move adds a disc.
    fn moves_leave_tier(&self, _tier: u64) -> bool {
        true
    }

    /// The mirror: a board and its mirror image have the same value.
    fn has_symmetries(&self) -> bool {
        true
    }

    /// The board or its mirror image, whichever has the smaller (discs, first player's discs).
    fn canonical(&self, board: &Board) -> Board {
        let mirror = self.mirrored(board);
        if (mirror.mask, mirror.first) < (board.mask, board.first) {
            mirror
        } else {
            *board
        }
    }

    fn class_size(&self, board: &Board) -> u64 {
        if self.mirrored(board) == *board { 1 } else { 2 }
    }
}

/// Columns as digits (`2233`) or a comma list (`10,11`; one column alone `10,`), 1-based.
///
/// # Errors
/// A character that is not a column, or a bad comma list.
pub fn parse_columns(text: &str) -> Result<Vec<u32>, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    if text.contains(',') {
        // One wide column alone is written with a comma after it (`10,`): see write_columns.
        let text = text.strip_suffix(',').unwrap_or(text);
        return Ok(crate::parse::list_in(text, 1, u64::from(MAX_WIDTH))
            .map_err(|e| NotationError::Rule(e.to_string()))?
            .into_iter()
            .map(|c| c as u32)
            .collect());
    }
    text.chars()
        .map(|c| {
            c.to_digit(10).filter(|&d| d >= 1).ok_or_else(|| {
                NotationError::Rule(format!("{c:?} in the moves is not a column: use digits 1-9 (2233), or a comma list (10,11) for wide boards"))
            })
        })
        .collect()
}

/// Columns written 0-based, a digit each (`0`-`9`), as Pascal Pons' and Christophe
/// Steininger's solvers and their test files write them, as ours (1-based): add one to each
/// digit. `3342` is our `4453`; `09` our `1,10` (see [`write_columns`]).
///
/// # Errors
/// A character that is not a digit.
pub fn from_zero_based_digits(text: &str) -> Result<Vec<u32>, NotationError> {
    text.trim()
        .chars()
        .map(|c| {
            c.to_digit(10).map(|d| d + 1).ok_or_else(|| {
                NotationError::Rule(format!(
                    "{c:?} in 0-based moves is not a column: digits 0-9, one a move"
                ))
            })
        })
        .collect()
}

/// Columns played (1-based) in the notation [`parse_columns`] reads: digits (`2233`) while
/// every column is one digit, else a comma list (`10,11`; one column alone `10,`, which
/// digits would read as two moves).
#[must_use]
pub fn write_columns(columns: &[u32]) -> String {
    if columns.iter().all(|&c| c <= 9) {
        columns.iter().map(u32::to_string).collect()
    } else if let [only] = columns {
        format!("{only},")
    } else {
        columns
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl BoardGame for ConnectFour {
    /// 5.6 million a second measured for 5 x 4 (0.76 s to 1.65 s), 2.6 to 7.6 for 6 x 4 (21 s
    /// to 62 s in runs of the same binary on this shared machine), 8.7 for 5 x 5.
    fn indices_per_second(&self) -> f64 {
        5.0e6
    }
    fn name(&self) -> &'static str {
        "connect-four"
    }
    fn variant(&self) -> String {
        format!("{}x{}", self.width(), self.height())
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        vec![
            ("width", self.width().to_string()),
            ("height", self.height().to_string()),
        ]
    }
    /// The columns played from the empty board.
    fn parse_position(&self, text: &str) -> Result<Board, NotationError> {
        let moves = parse_columns(text)?;
        self.play_columns(&moves).ok_or_else(|| {
            NotationError::Rule(format!(
                "the moves {} are not a game on a {} x {} board: a column off the board or full, or a move after four in a row",
                crate::parse::shorten(text),
                self.width(),
                self.height()
            ))
        })
    }
    fn first_to_move(&self, board: &Board) -> bool {
        ConnectFour::first_to_move(self, board)
    }
    fn move_name(&self, column: &u32) -> MoveName {
        MoveName::Number(column + 1)
    }
    fn notation(&self, _board: &Board) -> Option<String> {
        None
    }
    fn notation_given(&self, text: &str, _board: &Board) -> Option<String> {
        parse_columns(text)
            .ok()
            .map(|columns| write_columns(&columns))
    }
    fn notation_after(&self, text: &str, _after: &Board, column: &u32) -> Option<String> {
        let mut columns = parse_columns(text).ok()?;
        columns.push(column + 1);
        Some(write_columns(&columns))
    }
    /// The board, top row first: x for the first player, o for the second.
    fn picture(&self, board: &Board) -> String {
        let mut text = String::new();
        for row in (0..self.height()).rev() {
            text.push_str("  ");
            for c in 0..self.width() {
                let bit = 1u128 << (c * (self.height() + 1) + row);
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
        for c in 0..self.width() {
            text.push(char::from_digit((c + 1) % 10, 10).unwrap_or('?'));
        }
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Options, count_reachable, solve, table_index};
    use crate::player::Outcome;
    use crate::solver::Solver;
    use crate::value::Value;

    fn record_of(value: Value) -> crate::engine::Record {
        crate::engine::Record::new(value.outcome(), value.remoteness).unwrap()
    }

    #[test]
    fn the_index_numbers_every_board_once() {
        for (w, h) in [(3, 3), (4, 3), (2, 5), (4, 4)] {
            let game = ConnectFour::new(w, h).unwrap();
            let mut boards = 0;
            for index in 0..game.index_count() {
                if let Some(board) = game.position(index) {
                    assert_eq!(game.index(&board), index, "{w} x {h}");
                    boards += 1;
                }
            }
            let start = game.empty();
            let reachable = count_reachable(&game, &start, &Options::default()).unwrap();
            // Some boards without a line are reached by no game (every order of their discs
            // passes through a line), so the reachable ones are at most the boards numbered.
            assert!(reachable <= boards, "{w} x {h}: {reachable} > {boards}");
        }
    }

    #[test]
    fn small_boards_match_the_solver() {
        for (w, h) in [(3, 3), (4, 3), (3, 4), (2, 4), (5, 2)] {
            let game = ConnectFour::new(w, h).unwrap();
            let solution = solve(&game, &Options::default(), &|_| {}).unwrap();
            let mut oracle = Solver::new(game.clone());
            for index in 0..game.index_count() {
                if let Some(board) = game.position(index) {
                    let expected = record_of(oracle.value(&board));
                    assert_eq!(
                        solution.record(table_index(&game, &board)),
                        Some(expected),
                        "{w} x {h}, {board:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn four_by_four_is_a_draw_as_tromp_found() {
        // ../shared/reference/solved_games.md: John Tromp's table, 4 x 4 D (a tie here: the
        // board fills up).
        let game = ConnectFour::new(4, 4).unwrap();
        let solution = solve(&game, &Options::default(), &|_| {}).unwrap();
        let root = solution.record(table_index(&game, &game.empty())).unwrap();
        assert_eq!(root.outcome(), Some(Outcome::Tie));
        assert_eq!(root.remoteness(), Some(16));
    }

    #[test]
    fn zero_based_digits_convert_to_our_columns() {
        assert_eq!(from_zero_based_digits("3342").unwrap(), vec![4, 4, 5, 3]);
        assert_eq!(
            write_columns(&from_zero_based_digits("3342").unwrap()),
            "4453"
        );
        assert_eq!(
            write_columns(&from_zero_based_digits("09").unwrap()),
            "1,10"
        );
        // One wide column alone: not "11", which reads as two moves in column 1.
        assert_eq!(write_columns(&[11]), "11,");
        assert_eq!(parse_columns("11,").unwrap(), vec![11]);
        assert_eq!(parse_columns("11").unwrap(), vec![1, 1]);
        assert_eq!(from_zero_based_digits(" ").unwrap(), Vec::<u32>::new());
        assert!(from_zero_based_digits("3a").is_err());
        // What they read as "column 9 of ten" is ours "column 10": the same disc.
        let game = ConnectFour::new(10, 6).unwrap();
        let ours = parse_columns(&write_columns(&from_zero_based_digits("9").unwrap())).unwrap();
        let board = game.play_columns(&ours).unwrap();
        assert_eq!(game.column_height(&board, 9), 1);
    }

    #[test]
    fn sizes_past_the_bitboard_are_refused() {
        assert!(ConnectFour::new(7, 6).is_ok());
        assert!(ConnectFour::new(0, 4).is_err());
        assert!(ConnectFour::new(8, 8).is_ok()); // 8 x 9 bits
        assert!(ConnectFour::new(16, 7).is_ok()); // 128 bits
        assert!(ConnectFour::new(1, 127).is_ok());
        let refused = ConnectFour::new(16, 8).unwrap_err().to_string();
        assert!(refused.contains("at most 128 (it is 144)"), "{refused}");
        assert!(ConnectFour::new(u32::MAX, u32::MAX).is_err());
        assert!(ConnectFour::new(32, 2).is_ok());
        let wide = ConnectFour::new(33, 2).unwrap_err().to_string();
        assert!(wide.contains("at most 32 columns"), "{wide}");
        let game = ConnectFour::new(7, 6).unwrap();
        assert_eq!(
            game.play_columns(&[4, 4, 4, 4, 4, 4])
                .map(|b| b.mask.count_ones()),
            Some(6)
        );
        assert_eq!(game.play_columns(&[4, 4, 4, 4, 4, 4, 4]), None); // a full column
        assert_eq!(game.play_columns(&[8]), None);
        assert_eq!(game.play_columns(&[1, 2, 1, 2, 1, 2, 1, 2]), None); // after a win
    }
}
