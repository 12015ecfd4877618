//! Quixo on an `n` x `n` board. A move takes a border cube that is blank or shows the mover's
//! mark, turns it to the mover's mark, and pushes it back in at an end of its row or column
//! other than the square it came from, sliding that line. A line of the mover's marks (a row,
//! column or diagonal) wins; a move that makes a line of the opponent's marks loses, even if it
//! makes the mover's too. GamesmanOne's rules, so its figures compare.
//!
//! Blanks only ever become marks, so the engine's tiers are the number of marked cubes (a move
//! on a blank leads to the next tier, a move on one's own cube stays in the tier: loops).
//! Within a tier a position is the set of marked squares (ranked), which of them are X (their
//! bits in square order), and the side to move. Boards with a line are holes: the move that
//! makes one ends the game.

use super::board_symmetry::{self, SYMMETRIES};
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

/// A board size Quixo is not played on here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("Quixo is played here on boards of 2 x 2 up to 5 x 5, not {0} x {0}")]
pub struct SizeError(pub u32);

/// A position: X's and O's squares (square `col + n * row`, row 0 at the top) and the side to
/// move (X moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cubes {
    /// Squares showing X.
    pub x: u32,
    /// Squares showing O.
    pub o: u32,
    /// Whether X is to move.
    pub x_to_move: bool,
}

/// A move: the border square taken, and the end of its row or column it is pushed in at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Push {
    /// The square taken.
    pub from: u32,
    /// Where it goes back in.
    pub end: End,
}

/// An end of a row or column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The left end of the cube's row.
    Left,
    /// The right end of its row.
    Right,
    /// The top of its column.
    Top,
    /// The bottom of its column.
    Bottom,
}

/// [`Quixo::images`] on the 4 x 4 board by bit operations on both sides' squares at once
/// (`x << 32 | o`, a row a nibble): the engine canonicalises every child, and 32 table
/// lookups a board took 36% of the solve. The flips and the transpose generate the group:
/// the four images of the flips, then each transposed.
fn four_by_four_images(board: u64) -> [u64; SYMMETRIES] {
    const LANES: u64 = 0x0000_ffff_0000_ffff;
    let swap = |b: u64, mask: u64, shift: u32| (b & mask) << shift | (b >> shift) & mask;
    // Columns right to left: swap neighbours, then pairs, within each nibble.
    let mirror = |b: u64| swap(swap(b, 0x5555_5555_5555_5555, 1), 0x3333_3333_3333_3333, 2);
    // Rows bottom to top: swap bytes within each 16-bit lane, then nibbles within bytes.
    let flip = |b: u64| {
        swap(
            swap(b, 0x00ff_00ff_00ff_00ff & LANES, 8),
            0x0f0f_0f0f_0f0f_0f0f,
            4,
        )
    };
    // Rows to columns: two delta swaps (the 2 x 2 blocks' corners, then the blocks).
    let transpose = |b: u64| {
        let t = (b ^ b >> 3) & 0x0000_0a0a_0000_0a0a;
        let b = b ^ t ^ t << 3;
        let t = (b ^ b >> 6) & 0x0000_00cc_0000_00cc;
        b ^ t ^ t << 6
    };
    let (h, v) = (mirror(board), flip(board));
    let hv = flip(h);
    [
        board,
        h,
        v,
        hv,
        transpose(board),
        transpose(h),
        transpose(v),
        transpose(hv),
    ]
}

/// Quixo on one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quixo {
    n: u32,
    choose: Binomials,
    lines: Vec<u32>,
    /// Where the tier of each number of marked cubes starts; one more entry for the end.
    tier_starts: Vec<u64>,
    /// The engine's fast paths: precomputed pushes, un-pushes, line and index tables.
    tables: Tables,
}

/// One slide of a line as bit operations: the squares of `moving` step one square toward the
/// square a cube was taken from (a shift by `shift`, signed), those of `keep` stay, and the
/// cube goes in at `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slide {
    keep: u32,
    moving: u32,
    shift: i32,
    to: u32,
}

impl Slide {
    /// The masks of [`Quixo::slide`] from `from` to `to` along a line walked by `step`.
    fn new(from: u32, to: u32, step: i32) -> Slide {
        let mut line = 1u32 << from;
        let mut moving = 0u32;
        let mut square = to as i32;
        while square != from as i32 {
            moving |= 1 << square;
            line |= 1 << square;
            square -= step;
        }
        Slide {
            keep: !line,
            moving,
            shift: -step,
            to: 1 << to,
        }
    }

    /// Slide `board`; `cube` says whether the cube going in is one of `board`'s.
    #[inline]
    fn apply(self, board: u32, cube: bool) -> u32 {
        let moved = board & self.moving;
        let moved = if self.shift > 0 {
            moved << self.shift
        } else {
            moved >> -self.shift
        };
        (board & self.keep) | moved | if cube { self.to } else { 0 }
    }
}

/// Tables for the engine's inner loops, built once per board size.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tables {
    /// Every move in the order of [`Game::moves`], with its slide.
    pushes: Vec<(Push, Slide)>,
    /// For each square, the un-pushes of a cube that went in there: the square it came from
    /// and the slide that takes it back.
    unpushes: Vec<Vec<(u32, Slide)>>,
    /// Bit `m` set when the marks `m` hold a line (boards up to 4 x 4; empty for 5 x 5).
    line_bits: Vec<u64>,
    /// `rank_part[(chunk * 256 + byte) * (cells + 1) + before]`: what the squares of `byte`
    /// in eight-square chunk `chunk` add to a set's rank when `before` squares precede them.
    rank_part: Vec<u64>,
    /// `compact[mask * 256 + bits]`: the bits of `bits` under `mask`, packed low.
    compact: Vec<u8>,
    /// `spread[mask * 256 + bits]`: the inverse, the low bits of `bits` laid on `mask`.
    spread: Vec<u8>,
}

impl Quixo {
    /// The game on an `n` x `n` board.
    ///
    /// # Errors
    /// A size outside 2 to 5.
    pub fn new(n: u32) -> Result<Quixo, SizeError> {
        if !(2..=5).contains(&n) {
            return Err(SizeError(n));
        }
        let cells = (n * n) as usize;
        let choose = Binomials::new(cells);
        let mut lines = Vec::new();
        for i in 0..n {
            lines.push((0..n).map(|j| 1u32 << (j + n * i)).sum()); // row i
            lines.push((0..n).map(|j| 1u32 << (i + n * j)).sum()); // column i
        }
        lines.push((0..n).map(|j| 1u32 << (j + n * j)).sum());
        lines.push((0..n).map(|j| 1u32 << (n - 1 - j + n * j)).sum());
        let mut tier_starts = vec![0u64];
        for k in 0..=cells {
            let size = choose.choose(cells, k) << k << 1;
            tier_starts.push(tier_starts[k] + size);
        }
        let mut quixo = Quixo {
            n,
            choose,
            lines,
            tier_starts,
            tables: Tables {
                pushes: Vec::new(),
                unpushes: Vec::new(),
                line_bits: Vec::new(),
                rank_part: Vec::new(),
                compact: Vec::new(),
                spread: Vec::new(),
            },
        };
        quixo.tables = quixo.build_tables();
        Ok(quixo)
    }

    fn build_tables(&self) -> Tables {
        let n = self.n;
        let cells = n * n;
        let pushes = self
            .moves(&self.start_position())
            .into_iter()
            .map(|push| {
                let (to, step) = self.end_square(&push);
                (push, Slide::new(push.from, to, step))
            })
            .collect();
        let last = n - 1;
        let border = |row: u32, col: u32| row == 0 || col == 0 || row == last || col == last;
        let mut unpushes = vec![Vec::new(); cells as usize];
        for (to, list) in unpushes.iter_mut().enumerate() {
            let to = to as u32;
            let (row, col) = (to / n, to % n);
            // The lines `to` ends: the border squares along them a cube can have come from,
            // and the step from `to` toward them.
            let mut add = |from: u32, step: i32| list.push((from, Slide::new(to, from, step)));
            if col == 0 {
                (1..n)
                    .filter(|&c| border(row, c))
                    .for_each(|c| add(row * n + c, 1));
            }
            if col == last {
                (0..last)
                    .filter(|&c| border(row, c))
                    .for_each(|c| add(row * n + c, -1));
            }
            if row == 0 {
                (1..n)
                    .filter(|&r| border(r, col))
                    .for_each(|r| add(r * n + col, n as i32));
            }
            if row == last {
                (0..last)
                    .filter(|&r| border(r, col))
                    .for_each(|r| add(r * n + col, -(n as i32)));
            }
        }
        let line_bits = if cells <= 16 {
            let mut bits = vec![0u64; (1usize << cells).div_ceil(64)];
            for marks in 0..1u32 << cells {
                if self.lines.iter().any(|&line| line & !marks == 0) {
                    bits[(marks / 64) as usize] |= 1 << (marks % 64);
                }
            }
            bits
        } else {
            Vec::new()
        };
        let chunks = cells.div_ceil(8) as usize;
        let width = cells as usize + 1;
        let mut rank_part = vec![0u64; chunks * 256 * width];
        for chunk in 0..chunks {
            for byte in 0..256usize {
                for before in 0..width {
                    let mut sum = 0;
                    let mut j = before;
                    for bit in 0..8 {
                        let square = chunk * 8 + bit;
                        if byte >> bit & 1 == 1 && square < cells as usize {
                            j += 1;
                            if j < width {
                                sum += self.choose.choose(square, j);
                            }
                        }
                    }
                    rank_part[(chunk * 256 + byte) * width + before] = sum;
                }
            }
        }
        let mut compact = vec![0u8; 256 * 256];
        for mask in 0..256usize {
            for bits in 0..256usize {
                let (mut out, mut i) = (0u8, 0);
                for bit in 0..8 {
                    if mask >> bit & 1 == 1 {
                        out |= ((bits >> bit & 1) as u8) << i;
                        i += 1;
                    }
                }
                compact[mask * 256 + bits] = out;
            }
        }
        let mut spread = vec![0u8; 256 * 256];
        for mask in 0..256usize {
            for bits in 0..256usize {
                let (mut out, mut i) = (0u8, 0);
                for bit in 0..8 {
                    if mask >> bit & 1 == 1 {
                        out |= ((bits >> i & 1) as u8) << bit;
                        i += 1;
                    }
                }
                spread[mask * 256 + bits] = out;
            }
        }
        Tables {
            pushes,
            unpushes,
            line_bits,
            rank_part,
            compact,
            spread,
        }
    }

    /// Where `push` puts the cube back in, and the step from its square toward there.
    fn end_square(&self, push: &Push) -> (u32, i32) {
        let n = self.n;
        let (row, col) = (push.from / n, push.from % n);
        match push.end {
            End::Left => (row * n, -1),
            End::Right => (row * n + n - 1, 1),
            End::Top => (col, -(n as i32)),
            End::Bottom => ((n - 1) * n + col, n as i32),
        }
    }

    /// The board under each symmetry, as `x << 32 | o` (the side to move does not change).
    fn images(&self, cubes: &Cubes) -> [u64; SYMMETRIES] {
        if self.n == 4 {
            return four_by_four_images(u64::from(cubes.x) << 32 | u64::from(cubes.o));
        }
        board_symmetry::all_images(self.n, cubes.x, cubes.o)
            .map(|(x, o)| u64::from(x) << 32 | u64::from(o))
    }

    /// [`Quixo::has_line`] by table where the board is small enough.
    #[inline]
    fn line_in(&self, marks: u32) -> bool {
        match self.tables.line_bits.get((marks / 64) as usize) {
            Some(word) => word >> (marks % 64) & 1 == 1,
            None => self.has_line(marks),
        }
    }

    /// The board's side.
    #[must_use]
    pub fn size(&self) -> u32 {
        self.n
    }

    /// The empty board, X to move.
    #[must_use]
    pub fn start_position(&self) -> Cubes {
        Cubes {
            x: 0,
            o: 0,
            x_to_move: true,
        }
    }

    /// Whether `marks` hold a line.
    #[must_use]
    pub fn has_line(&self, marks: u32) -> bool {
        self.lines.iter().any(|&line| (marks & line) ^ line == 0)
    }

    /// Slide the squares of one line: the cube taken from `from` goes in at `to`, the cubes
    /// between move one step toward `from`.
    fn slide(&self, board: u32, from: u32, to: u32, step: i32, cube: bool) -> u32 {
        let mut out = board & !(1 << from);
        // Walking from `from` toward `to` (by `step`), each square takes the cube beyond it.
        let mut square = from as i32;
        while square != to as i32 {
            let next = square + step;
            if board >> next & 1 == 1 {
                out |= 1 << square;
            } else {
                out &= !(1 << square);
            }
            square = next;
        }
        if cube {
            out | 1 << to
        } else {
            out & !(1 << to)
        }
    }
}

impl Game for Quixo {
    type Position = Cubes;
    type Move = Push;

    fn start(&self) -> Cubes {
        self.start_position()
    }

    fn moves(&self, cubes: &Cubes) -> Vec<Push> {
        let n = self.n;
        let theirs = if cubes.x_to_move { cubes.o } else { cubes.x };
        let mut moves = Vec::new();
        for from in 0..n * n {
            let (row, col) = (from / n, from % n);
            let border = row == 0 || col == 0 || row == n - 1 || col == n - 1;
            if !border || theirs >> from & 1 == 1 {
                continue;
            }
            for (end, allowed) in [
                (End::Left, col != 0),
                (End::Right, col != n - 1),
                (End::Top, row != 0),
                (End::Bottom, row != n - 1),
            ] {
                if allowed {
                    moves.push(Push { from, end });
                }
            }
        }
        moves
    }

    fn play(&self, cubes: &Cubes, push: &Push) -> Transition<Cubes> {
        let next = self.push(cubes, push);
        let (mine, theirs) = if cubes.x_to_move {
            (next.x, next.o)
        } else {
            (next.o, next.x)
        };
        if self.has_line(theirs) {
            return Transition::End(Ending::Loss);
        }
        if self.has_line(mine) {
            return Transition::End(Ending::Win);
        }
        Transition::to(next)
    }
}

impl Quixo {
    /// The board after `push`, the other side to move (whether or not it made a line).
    #[must_use]
    pub fn push(&self, cubes: &Cubes, push: &Push) -> Cubes {
        let (to, step) = self.end_square(push);
        Cubes {
            x: self.slide(cubes.x, push.from, to, step, cubes.x_to_move),
            o: self.slide(cubes.o, push.from, to, step, !cubes.x_to_move),
            x_to_move: !cubes.x_to_move,
        }
    }
}

impl IndexedGame for Quixo {
    fn index_count(&self) -> u64 {
        *self.tier_starts.last().unwrap_or(&0)
    }

    fn index(&self, cubes: &Cubes) -> u64 {
        let marked = cubes.x | cubes.o;
        let k = marked.count_ones() as usize;
        let cells = (self.n * self.n) as usize;
        let width = cells + 1;
        let t = &self.tables;
        let (mut rank, mut x_bits, mut before) = (0u64, 0u64, 0usize);
        for chunk in 0..cells.div_ceil(8) {
            let m = (marked >> (8 * chunk) & 0xff) as usize;
            let x = (cubes.x >> (8 * chunk) & 0xff) as usize;
            rank += t.rank_part[(chunk * 256 + m) * width + before];
            x_bits |= u64::from(t.compact[m * 256 + x]) << before;
            before += m.count_ones() as usize;
        }
        self.tier_starts[k] + ((rank << k | x_bits) << 1) + u64::from(!cubes.x_to_move)
    }

    fn transitions(&self, cubes: &Cubes, out: &mut Vec<Transition<Cubes>>) {
        let (mine, theirs) = if cubes.x_to_move {
            (cubes.x, cubes.o)
        } else {
            (cubes.o, cubes.x)
        };
        for (push, slide) in &self.tables.pushes {
            if theirs >> push.from & 1 == 1 {
                continue;
            }
            let (mine, theirs) = (slide.apply(mine, true), slide.apply(theirs, false));
            out.push(if self.line_in(theirs) {
                Transition::End(Ending::Loss)
            } else if self.line_in(mine) {
                Transition::End(Ending::Win)
            } else if cubes.x_to_move {
                Transition::to(Cubes {
                    x: mine,
                    o: theirs,
                    x_to_move: false,
                })
            } else {
                Transition::to(Cubes {
                    x: theirs,
                    o: mine,
                    x_to_move: true,
                })
            });
        }
    }

    fn position(&self, index: u64) -> Option<Cubes> {
        let k = self
            .tier_starts
            .partition_point(|&s| s <= index)
            .checked_sub(1)?;
        if k + 1 >= self.tier_starts.len() {
            return None;
        }
        let within = index - self.tier_starts[k];
        let x_to_move = within & 1 == 0;
        let x_bits = (within >> 1) & ((1u64 << k) - 1);
        let marked = self
            .choose
            .unrank(within >> 1 >> k, k, (self.n * self.n) as usize);
        let marked = marked as u32;
        let (mut x, mut before) = (0u32, 0u32);
        for chunk in 0..(self.n * self.n).div_ceil(8) {
            let m = (marked >> (8 * chunk) & 0xff) as usize;
            let bits = (x_bits >> before & 0xff) as usize;
            x |= u32::from(self.tables.spread[m * 256 + bits]) << (8 * chunk);
            before += m.count_ones();
        }
        let o = marked & !x;
        (!self.line_in(x) && !self.line_in(o)).then_some(Cubes { x, o, x_to_move })
    }

    fn tier_count(&self) -> u64 {
        self.tier_starts.len() as u64 - 1
    }

    /// The square board's eight rotations and reflections: the moves and the lines map onto
    /// themselves, so a board and its images have the same value.
    fn has_symmetries(&self) -> bool {
        true
    }

    /// The image with the smallest X squares (then O squares).
    fn canonical(&self, cubes: &Cubes) -> Cubes {
        let least = self.images(cubes).into_iter().min().unwrap_or(0);
        Cubes {
            x: (least >> 32) as u32,
            o: least as u32,
            x_to_move: cubes.x_to_move,
        }
    }

    fn class_size(&self, cubes: &Cubes) -> u64 {
        let mut images = self.images(cubes);
        images.sort_unstable();
        1 + images.windows(2).filter(|w| w[0] != w[1]).count() as u64
    }

    fn tier_range(&self, tier: u64) -> Range<u64> {
        self.tier_starts[tier as usize]..self.tier_starts[tier as usize + 1]
    }

    /// A blank cube taken marks one more; the mover's own cube taken keeps the count.
    fn tier_children(&self, tier: u64) -> Vec<u64> {
        (tier + 1..self.tier_count()).take(1).collect()
    }

    fn has_unmoves(&self) -> bool {
        true
    }

    /// The moves that stay in a tier turn one of the mover's own cubes: the cube pushed in
    /// shows at an end of its line, and taking it back out slides the line the other way and
    /// leaves it at the border square it came from.
    fn tier_parents(&self, cubes: &Cubes, parents: &mut Vec<Cubes>) {
        // The side that made the last move.
        let mover_is_x = !cubes.x_to_move;
        let (mut theirs, mine) = if mover_is_x {
            (cubes.x, cubes.o)
        } else {
            (cubes.o, cubes.x)
        };
        let last_mover = theirs;
        while theirs != 0 {
            let to = theirs.trailing_zeros();
            theirs &= theirs - 1;
            for &(_, slide) in &self.tables.unpushes[to as usize] {
                let before = slide.apply(last_mover, true);
                let other = slide.apply(mine, false);
                if self.line_in(before) || self.line_in(other) {
                    continue;
                }
                parents.push(if mover_is_x {
                    Cubes {
                        x: before,
                        o: other,
                        x_to_move: true,
                    }
                } else {
                    Cubes {
                        x: other,
                        o: before,
                        x_to_move: false,
                    }
                });
            }
        }
    }
}

impl Quixo {
    /// The border squares, as bits of a side's cubes.
    fn border_mask(&self) -> u32 {
        let n = self.size();
        (0..n * n)
            .filter(|&sq| {
                let (row, col) = (sq / n, sq % n);
                row == 0 || col == 0 || row == n - 1 || col == n - 1
            })
            .fold(0, |mask, sq| mask | 1 << sq)
    }
}

impl BoardGame for Quixo {
    /// The square taken and the end it goes back in at.
    fn move_key(&self, mv: &Push) -> u32 {
        mv.from * 4 + mv.end as u32
    }
    /// 5.8 million a second measured for 4 x 4 (14.9 s).
    fn indices_per_second(&self) -> f64 {
        5.5e6
    }
    fn name(&self) -> &'static str {
        "quixo"
    }
    fn variant(&self) -> String {
        format!("{0}x{0}", self.size())
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        vec![("size", self.size().to_string())]
    }
    fn parse_position(&self, text: &str) -> Result<Cubes, NotationError> {
        let n = self.size();
        let what = format!("a {n} x {n} Quixo board (rows from the top)");
        let (marks, x_to_move) = parse_marks(text, (n * n) as usize, &what)?;
        let (x, o) = mark_sets(&marks);
        let cubes = Cubes {
            x: x as u32,
            o: o as u32,
            x_to_move,
        };
        if self.has_line(cubes.x) || self.has_line(cubes.o) {
            return Err(NotationError::Rule(
                "the board has a line already: the game is over".into(),
            ));
        }
        // A marked cube keeps its mark, and every move leaves one of the mover's: x moves
        // first, so once o is to move there is an x, and once x moves again, an o too.
        let (has_x, has_o) = (cubes.x != 0, cubes.o != 0);
        if !x_to_move && !has_x {
            return Err(NotationError::Rule(
                "o is to move but no cube shows x: x moves first and every move leaves a cube of the mover's, so no game reaches this position".into(),
            ));
        }
        if x_to_move && (has_x || has_o) && !(has_x && has_o) {
            return Err(NotationError::Rule(
                "x is to move on a board with cubes of one side only: after a move each, both sides have a cube, and a marked cube keeps its mark, so no game reaches this position".into(),
            ));
        }
        // The last move pushed a cube of its mover's in at an end of a row or column: it
        // lies on the border.
        let (last_mover, theirs) = if x_to_move {
            ("o", cubes.o)
        } else {
            ("x", cubes.x)
        };
        if (has_x || has_o) && theirs & self.border_mask() == 0 {
            return Err(NotationError::Rule(format!(
                "no cube on the border shows {last_mover}, who moved last: a move pushes the mover's cube in at an end of a row or column, so no game reaches this position"
            )));
        }
        Ok(cubes)
    }
    fn first_to_move(&self, cubes: &Cubes) -> bool {
        cubes.x_to_move
    }
    fn move_name(&self, push: &Push) -> MoveName {
        let n = self.size();
        let end = match push.end {
            End::Left => 'L',
            End::Right => 'R',
            End::Top => 'T',
            End::Bottom => 'B',
        };
        MoveName::Text(format!("{}{end}", square_name(n, n, push.from)))
    }
    fn notation(&self, cubes: &Cubes) -> Option<String> {
        let n = self.size();
        let marks = set_marks(u64::from(cubes.x), u64::from(cubes.o), n * n);
        Some(marks_notation(marks, n as usize, cubes.x_to_move))
    }
    fn picture(&self, cubes: &Cubes) -> String {
        let n = self.size();
        grid_picture(n, n, |s| {
            mark_of(cubes.x >> s & 1 == 1, cubes.o >> s & 1 == 1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Options, count_reachable, solve};
    use crate::player::Outcome;

    #[test]
    fn the_index_numbers_every_board_once() {
        let game = Quixo::new(3).unwrap();
        for index in 0..game.index_count() {
            if let Some(cubes) = game.position(index) {
                assert_eq!(cubes.x & cubes.o, 0);
                assert_eq!(game.index(&cubes), index);
            }
        }
    }

    /// The index by loops over the squares (what the tables replace).
    fn index_by_loops(game: &Quixo, cubes: &Cubes) -> u64 {
        let marked = cubes.x | cubes.o;
        let k = marked.count_ones() as usize;
        let rank = game.choose.rank(u64::from(marked));
        let mut x_bits = 0u64;
        let mut rest = marked;
        let mut i = 0;
        while rest != 0 {
            x_bits |= u64::from(cubes.x >> rest.trailing_zeros() & 1) << i;
            rest &= rest - 1;
            i += 1;
        }
        game.tier_starts[k] + ((rank << k | x_bits) << 1) + u64::from(!cubes.x_to_move)
    }

    #[test]
    fn the_packed_four_by_four_symmetries_agree_with_the_board_module() {
        let table_images = |x: u32, o: u32| -> Vec<u64> {
            let mut images: Vec<u64> = board_symmetry::all_images(4, x, o)
                .into_iter()
                .map(|(x, o)| u64::from(x) << 32 | u64::from(o))
                .collect();
            images.sort_unstable();
            images
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (x, o) = (seed as u32 & 0xffff, (seed >> 32) as u32 & 0xffff);
            let o = o & !x;
            let mut bits = four_by_four_images(u64::from(x) << 32 | u64::from(o)).to_vec();
            bits.sort_unstable();
            assert_eq!(bits, table_images(x, o), "x {x:#06x} o {o:#06x}");
        }
    }

    #[test]
    fn the_tables_agree_with_the_loops() {
        // Every board of 3 x 3 and a spread of larger ones: index, lines and slides.
        for n in 2..=5u32 {
            let game = Quixo::new(n).unwrap();
            let cells = n * n;
            let mut state = 0x9e37_79b9_7f4a_7c15u64;
            let boards: Vec<(u32, u32)> = if n <= 3 {
                (0..3u32.pow(cells))
                    .map(|mut v| {
                        let (mut x, mut o) = (0, 0);
                        for sq in 0..cells {
                            match v % 3 {
                                1 => x |= 1 << sq,
                                2 => o |= 1 << sq,
                                _ => {}
                            }
                            v /= 3;
                        }
                        (x, o)
                    })
                    .collect()
            } else {
                (0..20_000)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        let mask = (1u32 << cells) - 1;
                        let marked = state as u32 & mask;
                        (
                            marked & (state >> 32) as u32,
                            marked & !(state >> 32) as u32,
                        )
                    })
                    .collect()
            };
            for (x, o) in boards {
                assert_eq!(game.line_in(x), game.has_line(x));
                for x_to_move in [true, false] {
                    let cubes = Cubes { x, o, x_to_move };
                    assert_eq!(game.index(&cubes), index_by_loops(&game, &cubes));
                    let playable = !game.has_line(x) && !game.has_line(o);
                    assert_eq!(game.position(game.index(&cubes)), playable.then_some(cubes));
                    let mut fast = Vec::new();
                    game.transitions(&cubes, &mut fast);
                    let slow: Vec<_> = game
                        .moves(&cubes)
                        .iter()
                        .map(|push| game.play(&cubes, push))
                        .collect();
                    assert_eq!(fast, slow);
                }
            }
        }
    }

    #[test]
    fn a_push_slides_the_line() {
        let game = Quixo::new(3).unwrap();
        // X takes the blank top-right corner (square 2) and pushes it in at the left end of
        // the top row: X at square 0 and O's cube at square 0 moves to square 1.
        let cubes = Cubes {
            x: 0,
            o: 1,
            x_to_move: true,
        };
        let next = game.play(
            &cubes,
            &Push {
                from: 2,
                end: End::Left,
            },
        );
        assert_eq!(
            next,
            Transition::to(Cubes {
                x: 1,
                o: 2,
                x_to_move: false
            })
        );
        // A corner has two pushes, an edge square three, the centre none.
        let moves = game.moves(&game.start_position());
        assert_eq!(moves.len(), 4 * 2 + 4 * 3);
    }

    #[test]
    fn three_by_three_is_a_first_player_win_in_seven() {
        // ../shared/reference/solved_games.md (GamesmanOne's rules): 32,027 reachable
        // positions, the first player wins in 7.
        let game = Quixo::new(3).unwrap();
        let options = Options::default();
        let solution = solve(&game, &options, &|_| {}).unwrap();
        let start = solution.record(game.index(&game.start_position())).unwrap();
        assert_eq!(
            (start.outcome(), start.remoteness()),
            (Some(Outcome::Win), Some(7))
        );
        // GamesmanOne counts the finished boards too (a line made ends the game here, before a
        // position): 20,257 positions to move from, and 11,770 boards a move ends on.
        let reachable = count_reachable(&game, &game.start_position(), &options).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![game.start_position()];
        let mut finished = std::collections::HashSet::new();
        seen.insert(game.start_position());
        while let Some(cubes) = stack.pop() {
            for push in game.moves(&cubes) {
                let next = game.push(&cubes, &push);
                match game.play(&cubes, &push) {
                    Transition::End(_) => {
                        finished.insert(next);
                    }
                    Transition::Continue { .. } => {
                        if seen.insert(next) {
                            stack.push(next);
                        }
                    }
                }
            }
        }
        assert_eq!(seen.len() as u64, reachable);
        assert_eq!(reachable + finished.len() as u64, 32_027);
    }
}
