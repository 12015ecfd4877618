//! Teeko (John Scarne, 1937) on a 5 x 5 board: each player has four pieces. While a player
//! has fewer than four on the board their move is to place one on an empty square; then it is
//! to step a piece to an adjacent empty square (any of the eight directions). Four in a row
//! (a row, column or diagonal) or four on the corners of a 2 x 2 square wins: 44 patterns.
//! Black (here x) moves first. Guy Steele showed in 1998 that it is a draw.
//!
//! Smaller boards and fewer pieces play the same way (`pieces` in a row wins, and with four
//! pieces a 2 x 2 square): small enough to check against the textbook analysis.
//!
//! For the engine the tiers are the number of pieces on the board: a placement leads to the
//! next tier, a step stays in the last one (loops). Within a tier a position is the set of
//! x's squares (ranked), the set of o's among the squares left (ranked), and in the last tier
//! the side to move (while placing, the counts say whose turn it is). Boards with a pattern
//! are holes: the move that makes one ends the game.

use super::board_symmetry;
use super::notation::{
    NotationError, grid_picture, mark_of, mark_sets, marks_notation, parse_marks, set_marks,
    square_name,
};
use super::subsets::Binomials;
use crate::engine::IndexedGame;
use crate::game::{Ending, Game, Transition};
use crate::games::board::{BoardGame, MoveName};
use std::ops::Range;
use thiserror::Error;

/// A board or piece count Teeko is not played with here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error(
    "Teeko is played here on boards of 3 x 3 up to 5 x 5 with 2 to 4 pieces each, fewer than half the squares: not {n} x {n} with {pieces}"
)]
pub struct VariantError {
    /// The board's side asked for.
    pub n: u32,
    /// The pieces asked for.
    pub pieces: u32,
}

/// A position: x's and o's squares (square `col + n * row`, row 0 at the top) and the side to
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pieces {
    /// Squares holding x (the first player, Black in Scarne's rules).
    pub x: u32,
    /// Squares holding o.
    pub o: u32,
    /// Whether x is to move.
    pub x_to_move: bool,
}

/// A move: a piece placed on `to`, or stepped there from `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The square a stepping piece leaves; `None` for a piece placed.
    pub from: Option<u32>,
    /// The square it goes to.
    pub to: u32,
}

/// Teeko on one board with one number of pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Teeko {
    n: u32,
    pieces: u32,
    choose: Binomials,
    /// The winning patterns as square sets.
    patterns: Vec<u32>,
    /// For each square, the squares next to it (eight directions).
    neighbours: Vec<u32>,
    /// Where the tier of each number of pieces on the board starts; one more for the end.
    tier_starts: Vec<u64>,
}

impl Teeko {
    /// Scarne's game: 5 x 5, four pieces each.
    #[must_use]
    pub fn standard() -> Teeko {
        Teeko::new(5, 4).unwrap_or_else(|_| unreachable!("5 x 5 with four pieces is valid"))
    }

    /// The game on an `n` x `n` board with `pieces` pieces each.
    ///
    /// # Errors
    /// A board outside 3 to 5, pieces outside 2 to 4, or pieces filling half the board.
    pub fn new(n: u32, pieces: u32) -> Result<Teeko, VariantError> {
        if !(3..=5).contains(&n) || !(2..=4).contains(&pieces) || 2 * pieces >= n * n {
            return Err(VariantError { n, pieces });
        }
        let cells = (n * n) as usize;
        let square = |row: u32, col: u32| 1u32 << (col + n * row);
        let mut patterns = Vec::new();
        let directions: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        for row in 0..n as i32 {
            for col in 0..n as i32 {
                for (dr, dc) in directions {
                    let end = (
                        row + dr * (pieces as i32 - 1),
                        col + dc * (pieces as i32 - 1),
                    );
                    if (0..n as i32).contains(&end.0) && (0..n as i32).contains(&end.1) {
                        patterns.push(
                            (0..pieces as i32)
                                .map(|i| square((row + dr * i) as u32, (col + dc * i) as u32))
                                .sum(),
                        );
                    }
                }
                if pieces == 4 && row + 1 < n as i32 && col + 1 < n as i32 {
                    let (r, c) = (row as u32, col as u32);
                    patterns.push(
                        square(r, c) | square(r, c + 1) | square(r + 1, c) | square(r + 1, c + 1),
                    );
                }
            }
        }
        let neighbours = (0..n * n)
            .map(|s| {
                let (row, col) = ((s / n) as i32, (s % n) as i32);
                let mut around = 0;
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        let (r, c) = (row + dr, col + dc);
                        if (dr, dc) != (0, 0)
                            && (0..n as i32).contains(&r)
                            && (0..n as i32).contains(&c)
                        {
                            around |= square(r as u32, c as u32);
                        }
                    }
                }
                around
            })
            .collect();
        let choose = Binomials::new(cells);
        let mut tier_starts = vec![0u64];
        for k in 0..=2 * pieces {
            let (xs, os) = (k.div_ceil(2) as usize, (k / 2) as usize);
            let sides = if k == 2 * pieces { 2 } else { 1 };
            let size = choose.choose(cells, xs) * choose.choose(cells - xs, os) * sides;
            tier_starts.push(tier_starts[k as usize] + size);
        }
        Ok(Teeko {
            n,
            pieces,
            choose,
            patterns,
            neighbours,
            tier_starts,
        })
    }

    /// The board's side.
    #[must_use]
    pub fn size(&self) -> u32 {
        self.n
    }

    /// Pieces each player has.
    #[must_use]
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The empty board, x to move.
    #[must_use]
    pub fn start_position(&self) -> Pieces {
        Pieces {
            x: 0,
            o: 0,
            x_to_move: true,
        }
    }

    /// Whether `squares` hold a winning pattern.
    #[must_use]
    pub fn has_pattern(&self, squares: u32) -> bool {
        self.patterns.iter().any(|&pattern| pattern & !squares == 0)
    }

    /// The squares next to `square`.
    #[must_use]
    pub fn neighbours(&self, square: u32) -> u32 {
        self.neighbours[square as usize]
    }

    /// Whether `x` and `o` with `x_to_move` is a position of the game: the right counts for
    /// the phase and no pattern on the board.
    #[must_use]
    pub fn is_position(&self, pieces: &Pieces) -> bool {
        let (xs, os) = (pieces.x.count_ones(), pieces.o.count_ones());
        let all = (1u64 << (self.n * self.n)) - 1;
        let counts = if xs + os == 2 * self.pieces {
            xs == self.pieces
        } else {
            xs <= self.pieces && (xs == os + u32::from(!pieces.x_to_move)) && (xs >= os)
        };
        pieces.x & pieces.o == 0
            && u64::from(pieces.x | pieces.o) <= all
            && counts
            && !self.has_pattern(pieces.x)
            && !self.has_pattern(pieces.o)
    }

    /// The mover's and the opponent's squares.
    fn sides(pieces: &Pieces) -> (u32, u32) {
        if pieces.x_to_move {
            (pieces.x, pieces.o)
        } else {
            (pieces.o, pieces.x)
        }
    }

    /// The position where the side that is x if `x_is_mover` has `movers` and moves, and the
    /// other side has `others`.
    fn with_mover(x_is_mover: bool, movers: u32, others: u32) -> Pieces {
        let (x, o) = if x_is_mover {
            (movers, others)
        } else {
            (others, movers)
        };
        Pieces {
            x,
            o,
            x_to_move: x_is_mover,
        }
    }

    /// The position with the mover's squares now `mine`, the other side to move.
    fn after(pieces: &Pieces, mine: u32) -> Pieces {
        let (_, theirs) = Teeko::sides(pieces);
        Teeko::with_mover(!pieces.x_to_move, theirs, mine)
    }

    /// What a move that leaves the mover on `mine` leads to.
    fn transition(&self, pieces: &Pieces, mine: u32) -> Transition<Pieces> {
        if self.has_pattern(mine) {
            Transition::End(Ending::Win)
        } else {
            Transition::to(Teeko::after(pieces, mine))
        }
    }

    /// Calls `each(from, to)` for every move in order: placements by square, then steps by
    /// the square left and the square entered.
    fn for_each_move(&self, pieces: &Pieces, mut each: impl FnMut(Option<u32>, u32)) {
        let (mine, theirs) = Teeko::sides(pieces);
        let empty = ((1u64 << (self.n * self.n)) - 1) as u32 & !(mine | theirs);
        if mine.count_ones() < self.pieces {
            let mut free = empty;
            while free != 0 {
                each(None, free.trailing_zeros());
                free &= free - 1;
            }
            return;
        }
        let mut from_set = mine;
        while from_set != 0 {
            let from = from_set.trailing_zeros();
            from_set &= from_set - 1;
            let mut to_set = self.neighbours(from) & empty;
            while to_set != 0 {
                each(Some(from), to_set.trailing_zeros());
                to_set &= to_set - 1;
            }
        }
    }
}

impl Game for Teeko {
    type Position = Pieces;
    type Move = Placement;

    fn start(&self) -> Pieces {
        self.start_position()
    }

    fn moves(&self, pieces: &Pieces) -> Vec<Placement> {
        let mut moves = Vec::new();
        self.for_each_move(pieces, |from, to| moves.push(Placement { from, to }));
        moves
    }

    fn play(&self, pieces: &Pieces, placement: &Placement) -> Transition<Pieces> {
        let (mine, _) = Teeko::sides(pieces);
        let left = placement.from.map_or(mine, |from| mine & !(1 << from));
        self.transition(pieces, left | 1 << placement.to)
    }
}

impl IndexedGame for Teeko {
    fn index_count(&self) -> u64 {
        *self.tier_starts.last().unwrap_or(&0)
    }

    fn index(&self, pieces: &Pieces) -> u64 {
        let k = (pieces.x | pieces.o).count_ones();
        let cells = (self.n * self.n) as usize;
        let xs = pieces.x.count_ones() as usize;
        // o's squares renumbered among the squares x leaves.
        let mut o_rank = 0;
        let (mut rest, mut j) = (pieces.o, 0);
        while rest != 0 {
            let square = rest.trailing_zeros();
            rest &= rest - 1;
            j += 1;
            let among = square - (pieces.x & ((1 << square) - 1)).count_ones();
            o_rank += self.choose.choose(among as usize, j);
        }
        let os = (k as usize) - xs;
        let within =
            self.choose.rank(u64::from(pieces.x)) * self.choose.choose(cells - xs, os) + o_rank;
        let start = self.tier_starts[k as usize];
        if k == 2 * self.pieces {
            start + (within << 1) + u64::from(!pieces.x_to_move)
        } else {
            start + within
        }
    }

    fn position(&self, index: u64) -> Option<Pieces> {
        let k = self
            .tier_starts
            .partition_point(|&s| s <= index)
            .checked_sub(1)?;
        if k + 1 >= self.tier_starts.len() {
            return None;
        }
        let cells = (self.n * self.n) as usize;
        let (xs, os) = (k.div_ceil(2), k / 2);
        let mut within = index - self.tier_starts[k];
        let x_to_move = if k == 2 * self.pieces as usize {
            let x_to_move = within & 1 == 0;
            within >>= 1;
            x_to_move
        } else {
            k % 2 == 0
        };
        let per_x = self.choose.choose(cells - xs, os);
        let x = self.choose.unrank(within / per_x, xs, cells) as u32;
        let compact = self.choose.unrank(within % per_x, os, cells - xs);
        // Lay o's renumbered squares on the squares x leaves.
        let (mut o, mut free, mut i) = (0u32, !x, 0);
        while free != 0 && i < cells - xs {
            let square = free.trailing_zeros();
            free &= free - 1;
            if compact >> i & 1 == 1 {
                o |= 1 << square;
            }
            i += 1;
        }
        let pieces = Pieces { x, o, x_to_move };
        (!self.has_pattern(x) && !self.has_pattern(o)).then_some(pieces)
    }

    fn tier_count(&self) -> u64 {
        self.tier_starts.len() as u64 - 1
    }

    fn tier_range(&self, tier: u64) -> Range<u64> {
        self.tier_starts[tier as usize]..self.tier_starts[tier as usize + 1]
    }

    /// A placement adds one piece; a step stays in the last tier.
    fn tier_children(&self, tier: u64) -> Vec<u64> {
        (tier + 1..self.tier_count()).take(1).collect()
    }

    /// Every tier but the last is one of placements.
    fn moves_leave_tier(&self, tier: u64) -> bool {
        tier + 1 < self.tier_count()
    }

    fn transitions(&self, pieces: &Pieces, out: &mut Vec<Transition<Pieces>>) {
        let (mine, _) = Teeko::sides(pieces);
        self.for_each_move(pieces, |from, to| {
            let left = from.map_or(mine, |from| mine & !(1 << from));
            out.push(self.transition(pieces, left | 1 << to));
        });
    }

    fn has_unmoves(&self) -> bool {
        true
    }

    /// The square board's rotations and reflections map the patterns, the steps and the
    /// placements onto themselves.
    fn has_symmetries(&self) -> bool {
        true
    }

    fn canonical(&self, pieces: &Pieces) -> Pieces {
        let (x, o) = board_symmetry::canonical(self.n, pieces.x, pieces.o);
        Pieces {
            x,
            o,
            x_to_move: pieces.x_to_move,
        }
    }

    fn class_size(&self, pieces: &Pieces) -> u64 {
        board_symmetry::class_size(self.n, pieces.x, pieces.o)
    }

    /// Only steps stay in a tier (the last): the side that moved last takes one of its
    /// pieces back to an empty square next to it. A parent with a pattern is no position.
    fn tier_parents(&self, pieces: &Pieces, parents: &mut Vec<Pieces>) {
        if (pieces.x | pieces.o).count_ones() < 2 * self.pieces {
            return;
        }
        let (theirs, last) = Teeko::sides(pieces);
        let empty = ((1u64 << (self.n * self.n)) - 1) as u32 & !(theirs | last);
        let mut to_set = last;
        while to_set != 0 {
            let to = to_set.trailing_zeros();
            to_set &= to_set - 1;
            let mut from_set = self.neighbours(to) & empty;
            while from_set != 0 {
                let from = from_set.trailing_zeros();
                from_set &= from_set - 1;
                let before = last & !(1 << to) | 1 << from;
                if self.has_pattern(before) {
                    continue;
                }
                parents.push(Teeko::with_mover(!pieces.x_to_move, before, theirs));
            }
        }
    }
}

impl BoardGame for Teeko {
    /// The square left (a placement: one past the board) and the square reached.
    fn move_key(&self, mv: &Placement) -> u32 {
        mv.from.unwrap_or(self.n * self.n) * 32 + mv.to
    }
    /// 4.0 million a second measured for 4 x 4 (0.61 s), 2.8 for 5 x 5 (61 s).
    fn indices_per_second(&self) -> f64 {
        3.0e6
    }
    fn name(&self) -> &'static str {
        "teeko"
    }
    /// `5x5` for four pieces each (Scarne's count), `4x4p3` for three.
    fn variant(&self) -> String {
        if self.pieces() == 4 {
            format!("{0}x{0}", self.size())
        } else {
            format!("{0}x{0}p{1}", self.size(), self.pieces())
        }
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        vec![
            ("size", self.size().to_string()),
            ("pieces", self.pieces().to_string()),
        ]
    }
    fn parse_position(&self, text: &str) -> Result<Pieces, NotationError> {
        let n = self.size();
        let what = format!("a {n} x {n} Teeko board (rows from the top)");
        let (marks, x_to_move) = parse_marks(text, (n * n) as usize, &what)?;
        let (x, o) = mark_sets(&marks);
        let mut pieces = Pieces {
            x: x as u32,
            o: o as u32,
            x_to_move,
        };
        let (xs, os) = (pieces.x.count_ones(), pieces.o.count_ones());
        if xs + os < 2 * self.pieces() && !text.contains(':') {
            // While placing, the counts say whose turn it is.
            pieces.x_to_move = xs == os;
        }
        if self.has_pattern(pieces.x) || self.has_pattern(pieces.o) {
            return Err(NotationError::Rule(
                "the board has four in a row or a square already: the game is over".into(),
            ));
        }
        if !self.is_position(&pieces) {
            return Err(NotationError::Rule(format!(
                "not a Teeko position: {xs} x and {os} o with {} to move (x places first, and each side has at most {} pieces)",
                if pieces.x_to_move { "x" } else { "o" },
                self.pieces()
            )));
        }
        Ok(pieces)
    }
    fn first_to_move(&self, pieces: &Pieces) -> bool {
        pieces.x_to_move
    }
    fn move_name(&self, placement: &Placement) -> MoveName {
        let n = self.size();
        let from = placement
            .from
            .map(|s| square_name(n, n, s))
            .unwrap_or_default();
        MoveName::Text(format!("{from}{}", square_name(n, n, placement.to)))
    }
    fn notation(&self, pieces: &Pieces) -> Option<String> {
        let n = self.size();
        let marks = set_marks(u64::from(pieces.x), u64::from(pieces.o), n * n);
        Some(marks_notation(marks, n as usize, pieces.x_to_move))
    }
    fn picture(&self, pieces: &Pieces) -> String {
        let n = self.size();
        grid_picture(n, n, |s| {
            mark_of(pieces.x >> s & 1 == 1, pieces.o >> s & 1 == 1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ../shared/reference/solved_games.md: standard Teeko is a draw (Guy Steele, 1998).
    /// About five minutes on two cores and 1.2 GB: `cargo test --release -- --ignored teeko`.
    #[test]
    #[ignore = "solves all 172 million indices: minutes"]
    fn scarnes_game_is_a_draw() {
        use crate::engine::{Options, solve, table_index};
        use crate::player::Outcome;
        let game = Teeko::standard();
        let options = Options {
            memory_limit: 8 << 30,
            ..Options::default()
        };
        let solution = solve(&game, &options, &|_| {}).unwrap();
        let start = solution
            .record(table_index(&game, &game.start_position()))
            .unwrap();
        assert_eq!(start.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn the_standard_game_has_forty_four_patterns() {
        let game = Teeko::standard();
        assert_eq!(game.patterns.len(), 44);
        // 10 rows and 10 columns of four, 8 diagonals, 16 squares.
        let squares = game.patterns.iter().filter(|&&p| {
            let low = p.trailing_zeros();
            p == 0b11 << low | 0b11 << (low + 5)
        });
        assert_eq!(squares.count(), 16);
    }

    #[test]
    fn the_index_numbers_every_position_once() {
        for (n, pieces) in [(3, 2), (3, 3), (4, 3), (4, 4)] {
            let game = Teeko::new(n, pieces).unwrap();
            let mut found = 0;
            for index in 0..game.index_count() {
                if let Some(position) = game.position(index) {
                    assert!(game.is_position(&position), "{position:?}");
                    assert_eq!(game.index(&position), index, "{position:?}");
                    found += 1;
                }
            }
            assert!(found > 0);
        }
    }

    #[test]
    fn the_standard_tiers_count_the_boards() {
        let game = Teeko::standard();
        // Four of each on 25 squares, either side to move: 12,650 x 5,985 x 2.
        assert_eq!(
            game.tier_range(8).end - game.tier_range(8).start,
            12_650 * 5_985 * 2
        );
        assert_eq!(game.tier_count(), 9);
    }

    #[test]
    fn a_pattern_ends_the_game_while_placing_and_while_stepping() {
        let game = Teeko::standard();
        // x on a1 b1 c1 (bottom row), o elsewhere, x to place the fourth.
        let bottom = |cols: &[u32]| cols.iter().map(|c| 1u32 << (c + 20)).sum::<u32>();
        let placing = Pieces {
            x: bottom(&[0, 1, 2]),
            o: 1 | 2 | 4,
            x_to_move: true,
        };
        assert!(game.is_position(&placing));
        let win = game.play(&placing, &Placement { from: None, to: 23 });
        assert_eq!(win, Transition::End(Ending::Win));
        let stepping = Pieces {
            x: bottom(&[0, 1, 2]) | 1 << 13,
            o: 1 | 2 | 4 | 1 << 6,
            x_to_move: true,
        };
        let step = game.play(
            &stepping,
            &Placement {
                from: Some(13),
                to: 18,
            },
        );
        assert_eq!(
            step,
            Transition::to(Pieces {
                x: bottom(&[0, 1, 2]) | 1 << 18,
                o: stepping.o,
                x_to_move: false
            })
        );
        // The step to d1 (square 23) from c2 (square 17) is not adjacent to 13; from 18 it is.
        let near = Pieces {
            x: bottom(&[0, 1, 2]) | 1 << 17,
            ..stepping
        };
        assert_eq!(
            game.play(
                &near,
                &Placement {
                    from: Some(17),
                    to: 23
                }
            ),
            Transition::End(Ending::Win)
        );
    }
}
