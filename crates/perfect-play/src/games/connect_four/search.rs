//! Connect Four for the search solver, on any board whose bitboard fits 128 bits (7 x 6,
//! 8 x 7, 9 x 6, 10 x 6, 8 x 8 ...), in one 64-bit word where it fits and a 128-bit one
//! past that ([`Bits`]): the player to move's discs and every disc in Pascal Pons' layout, the
//! cells that would complete a line found by shifts, and his refinements (each measured in
//! BENCHMARKS.md): moves that lose at once are never searched (a forced block is the only
//! move; two threats lose), moves are tried by the threats they make then centre first, the
//! score's bounds come from the discs left. Added here: a position and its mirror image
//! share a key; from Christophe Steininger's c4, a threat right above one of the
//! opponent's is not counted in the order, and the even rows bound the score.
//!
//! The score (Pons'): a win is `(cells + 1 - moves) / 2` when the mover wins with their next
//! disc, one less for each disc of theirs it takes after that, so the quickest win scores
//! most; a loss is minus the opponent's; a full board 0. [`value_of`] turns it into outcome
//! and remoteness in plies.

use super::{Board, ConnectFour};
use crate::player::Outcome;
use crate::search::{After, MAX_CHILDREN, MoveHints, Node, ScoreGame};
use arrayvec::ArrayVec;
use num_traits::{PrimInt, WrappingAdd};

/// A bitboard word: `u64` for boards whose bitboard fits 64 bits (7 x 6 and every board up
/// to 64 bits: the 64-bit path, as fast as before wider boards came), `u128` for the others.
pub trait Bits:
    PrimInt + WrappingAdd + std::hash::Hash + std::fmt::Debug + Send + Sync + Into<u128> + 'static
{
    /// Bits in the word.
    const BITS: u32;
    /// The low bits of a board's 128-bit word (the board fits them).
    fn from_wide(bits: u128) -> Self;
}

impl Bits for u64 {
    const BITS: u32 = u64::BITS;
    #[inline]
    fn from_wide(bits: u128) -> u64 {
        bits as u64
    }
}

impl Bits for u128 {
    const BITS: u32 = u128::BITS;
    #[inline]
    fn from_wide(bits: u128) -> u128 {
        bits
    }
}

/// Whether a board's bitboard fits one 64-bit word (the search then runs on `u64`).
#[must_use]
pub fn fits_64_bits(game: &ConnectFour) -> bool {
    game.width() * (game.height() + 1) <= u64::BITS
}

/// Positions with fewer discs than this share a key with their mirror image. Later ones
/// rarely meet their mirror image in a search, and the mirror costs a loop over the columns
/// at every node (a quarter of the time of a search from 4 plies, for no fewer nodes:
/// BENCHMARKS.md). A key is still the position's alone (a key tells the discs, so a
/// position's and its mirror's keys differ from every other's).
const MIRROR_KEYS_BELOW: u32 = 10;

/// A position as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Discs<B = u64> {
    /// The player to move's discs.
    pub mover: B,
    /// Every disc.
    pub mask: B,
    /// Discs played.
    pub moves: u32,
    /// The empty cells where the opponent (who just moved) would complete a line: found
    /// anyway when the move was ordered, so a node need not find them again.
    pub threats: B,
}

/// Connect Four's rules on bitboards, for [`crate::search::Search`].
#[derive(Clone, Debug)]
pub struct Bitboards<B = u64> {
    width: u32,
    height: u32,
    cells: i32,
    /// One bit at the foot of each column.
    bottom: B,
    /// Every cell of the board (not the empty bit above each column).
    board: B,
    /// Columns tried first to last among moves equally good: centre first.
    order: ArrayVec<u32, MAX_CHILDREN>,
    /// The steps of lines other than up a column that fit the bitboard.
    sideways: ArrayVec<usize, 4>,
    /// The cells of the even rows counted from 1 (the second, fourth ...), which the second
    /// player takes by answering every move on top of it; empty when the height is odd (a
    /// full column then leaves the reply nowhere to go).
    even_rows: B,
}

impl<B: Bits> Bitboards<B> {
    /// The rules of `game`'s board, whose bitboard fits `B` (a board past 64 bits needs
    /// `Bitboards<u128>`: see [`fits_64_bits`]).
    #[must_use]
    pub fn new(game: &ConnectFour) -> Bitboards<B> {
        let (width, height) = (game.width(), game.height());
        debug_assert!(width * (height + 1) <= B::BITS);
        let bits = height + 1;
        let mut bottom = B::zero();
        for c in 0..width {
            bottom = bottom | B::one() << (c * bits) as usize;
        }
        let board = bottom * ((B::one() << height as usize) - B::one());
        // 3 4 2 5 1 6 0 on seven columns: centre first, then outwards, left before right.
        let mut order: ArrayVec<u32, MAX_CHILDREN> = (0..width).collect();
        let centre = f64::from(width - 1) / 2.0;
        order.sort_by(|&a, &b| {
            (f64::from(a) - centre)
                .abs()
                .total_cmp(&(f64::from(b) - centre).abs())
                .then(a.cmp(&b))
        });
        let mut even_rows = B::zero();
        if height.is_multiple_of(2) {
            for row in (1..height).step_by(2) {
                even_rows = even_rows | bottom << row as usize;
            }
        }
        Bitboards {
            width,
            height,
            cells: (width * height) as i32,
            bottom,
            board,
            order,
            even_rows,
            sideways: super::line_steps(height, B::BITS)
                .into_iter()
                .filter(|&d| d != 1)
                .map(|d| d as usize)
                .collect(),
        }
    }

    /// The search's position of a board.
    #[must_use]
    pub fn discs(&self, board: &Board) -> Discs<B> {
        let moves = board.mask.count_ones();
        let (first, mask) = (B::from_wide(board.first), B::from_wide(board.mask));
        let mover = if moves.is_multiple_of(2) {
            first
        } else {
            mask ^ first
        };
        Discs {
            mover,
            mask,
            moves,
            threats: self.winning_cells(mask ^ mover, mask),
        }
    }

    /// The board of a search position.
    #[must_use]
    pub fn board(&self, discs: &Discs<B>) -> Board {
        let first = if discs.moves.is_multiple_of(2) {
            discs.mover
        } else {
            discs.mask ^ discs.mover
        };
        Board {
            first: first.into(),
            mask: discs.mask.into(),
        }
    }

    fn column_mask(&self, column: u32) -> B {
        ((B::one() << self.height as usize) - B::one()) << (column * (self.height + 1)) as usize
    }

    /// Cells where a disc would complete a line of `discs`, among the empty cells of `mask`.
    #[inline]
    fn winning_cells(&self, discs: B, mask: B) -> B {
        // Upwards only: nothing lies above the top disc of a column.
        let mut cells = (discs << 1) & (discs << 2) & (discs << 3);
        for &d in &self.sideways {
            let pair = (discs << d) & (discs << (2 * d));
            cells = cells | (pair & (discs << (3 * d)));
            cells = cells | (pair & (discs >> d));
            let pair = (discs >> d) & (discs >> (2 * d));
            cells = cells | (pair & (discs << d));
            cells = cells | (pair & (discs >> (3 * d)));
        }
        cells & (self.board ^ mask)
    }

    /// The cell each column would take next.
    #[inline]
    fn playable(&self, mask: B) -> B {
        mask.wrapping_add(&self.bottom) & self.board
    }

    /// The position after the mover takes `cell`.
    fn after(&self, discs: &Discs<B>, cell: B) -> Discs<B> {
        let wins = self.winning_cells(discs.mover | cell, discs.mask);
        self.after_with(discs, cell, wins)
    }

    /// The slot of playing `cell` (one bit) for the move-ordering heuristics: the cell, and
    /// who plays it (odd and even rows mean different things to each player).
    fn cell_slot(&self, discs: &Discs<B>, cell: B) -> u16 {
        (cell.trailing_zeros() + B::BITS * (discs.moves & 1)) as u16
    }

    /// [`Bitboards::after`] when the mover's winning cells with `cell` taken are known.
    #[inline]
    fn after_with(&self, discs: &Discs<B>, cell: B, wins: B) -> Discs<B> {
        Discs {
            mover: discs.mover ^ discs.mask,
            mask: discs.mask | cell,
            moves: discs.moves + 1,
            threats: wins & !cell,
        }
    }

    /// Moves after which the opponent cannot win at once: 0 when there are none.
    #[inline]
    fn non_losing(&self, discs: &Discs<B>) -> B {
        let mut playable = self.playable(discs.mask);
        let threats = discs.threats;
        let forced = playable & threats;
        if forced != B::zero() {
            if forced & (forced - B::one()) != B::zero() {
                // Two threats to block at once.
                return B::zero();
            }
            playable = forced;
        }
        // Never play right under an opponent's winning cell.
        playable & !(threats >> 1)
    }

    /// Whether the disc just played made a line (the position is over).
    fn is_over(&self, discs: &Discs<B>) -> bool {
        self.has_line(discs.mover ^ discs.mask)
    }

    /// Whether `discs` hold four in a row.
    fn has_line(&self, discs: B) -> bool {
        let up = discs & (discs >> 1);
        if up & (up >> 2) != B::zero() {
            return true;
        }
        self.sideways.iter().any(|&d| {
            let pairs = discs & (discs >> d);
            pairs & (pairs >> (2 * d)) != B::zero()
        })
    }

    /// An upper bound of the mover's score from what they could take at best, when the
    /// mover has played as many discs as the opponent on a board of even height.
    ///
    /// The opponent can answer every move in a column of even height on top of it
    /// (Allis' claimeven), and a move on top of a column of odd height in another such
    /// column (there are an even number of them): the opponent then ends with every empty
    /// cell of an even row except, at most, those playable now. If the cells left to the
    /// mover hold no line, the mover cannot win (at most a tie), and if the opponent's then
    /// hold one, the mover loses, and no later than that line can be completed: at most
    /// the loss with [`Bitboards::empty_at_the_latest_loss`] cells left empty. c4 by
    /// Christophe Steininger bounds its search so (the loss's size as it does; not its case
    /// of the mover's lines lying below the opponent's).
    fn even_rows_bound(&self, discs: &Discs<B>, playable: B) -> Option<i32> {
        if self.even_rows == B::zero() || !discs.moves.is_multiple_of(2) {
            return None;
        }
        let theirs = (discs.mask ^ discs.mover) | (self.even_rows & !discs.mask & !playable);
        if self.has_line(self.board & !theirs) {
            return None;
        }
        if !self.has_line(theirs) {
            return Some(0);
        }
        // The opponent's winning disc leaves `empty` cells or more: the mover's score is at
        // most minus the opponent's win then (the score of `no_moves`). Sized only here, where
        // a line is known to be there: sizing every bounded node cost 0.5% more instructions.
        let empty = self.empty_at_the_latest_loss(theirs, discs.mask);
        Some(-((empty as i32 + 2) / 2))
    }

    /// The cells at least left empty when a line of `theirs` (which holds one) is completed:
    /// the game ends then or earlier. A column fills from the foot, so when a line's last
    /// cell is taken every cell above it in its column is empty: a line across at height `h`
    /// leaves `height - 1 - h` or more; a diagonal, at least what its highest empty cell
    /// leaves (taken over every diagonal at once, as c4 does: one pass of shifts, at worst a
    /// looser bound); none of either, 0 (lines up a column: the even rows alternate with the
    /// mover's, so only a line already made could stand there). The empty cells of `theirs`
    /// all lie on the even rows (heights 1, 3 ...), and so does every line across not made
    /// yet: only those heights are looked at.
    fn empty_at_the_latest_loss(&self, theirs: B, mask: B) -> u32 {
        let mut latest = 0;
        let row = |height: u32| self.bottom << height as usize;
        let mut diagonal_cells = B::zero();
        for &d in &self.sideways {
            let pairs = theirs & (theirs >> d);
            let starts = pairs & (pairs >> (2 * d));
            if starts == B::zero() {
                continue;
            }
            if d == (self.height + 1) as usize {
                // Across: the lowest line decides.
                let lowest = (1..self.height)
                    .step_by(2)
                    .find(|&h| starts & row(h) != B::zero())
                    .unwrap_or(self.height - 1);
                latest = latest.max(self.height - 1 - lowest);
            } else {
                diagonal_cells =
                    diagonal_cells | starts | starts << d | starts << (2 * d) | starts << (3 * d);
            }
        }
        if diagonal_cells != B::zero() {
            let open = diagonal_cells & !mask;
            let highest = (1..self.height)
                .rev()
                .step_by(2)
                .find(|&h| open & row(h) != B::zero())
                .unwrap_or(self.height - 1);
            latest = latest.max(self.height - 1 - highest);
        }
        latest
    }

    /// The mover's score when their next disc wins.
    fn win_score(&self, moves: u32) -> i32 {
        (self.cells + 1 - moves as i32) / 2
    }

    /// A key for the position and its mirror image alike: the smaller of the two.
    fn canonical_key(&self, key: B) -> B {
        let bits = self.height + 1;
        let column = B::max_value() >> (B::BITS - bits) as usize;
        let mut mirror = B::zero();
        for c in 0..self.width {
            mirror = mirror
                | ((key >> (c * bits) as usize) & column) << ((self.width - 1 - c) * bits) as usize;
        }
        key.min(mirror)
    }

    /// Outcome and remoteness (plies, the winner hurrying and the loser delaying; a tie: the
    /// plies left to fill the board) of a score at a position after `moves` discs.
    ///
    /// A win in `r` plies (r odd) is won by the disc of ply `moves + r`, and scores
    /// `(cells + 2 - moves - r) / 2` rounded down; a loss in `r` plies (r even) scores minus
    /// that. So `r` is `cells + 1 - moves - 2 |score|`, plus one when that has the wrong parity.
    #[must_use]
    pub fn value_of(&self, moves: u32, score: i32) -> (Outcome, u32) {
        value_of(self.cells, moves, score)
    }

    /// The score of an outcome and remoteness at a position after `moves` discs (the inverse
    /// of [`Bitboards::value_of`]).
    #[must_use]
    pub fn score_of(&self, moves: u32, outcome: Outcome, remoteness: u32) -> i32 {
        let magnitude = (self.cells + 2 - moves as i32 - remoteness as i32).div_euclid(2);
        match outcome {
            Outcome::Win => magnitude,
            Outcome::Loss => -magnitude,
            _ => 0,
        }
    }
}

/// [`Bitboards::value_of`] on a board of `cells` cells.
#[must_use]
pub fn value_of(cells: i32, moves: u32, score: i32) -> (Outcome, u32) {
    let moves = moves as i32;
    if score == 0 {
        return (Outcome::Tie, (cells - moves).max(0) as u32);
    }
    let mut plies = cells + 1 - moves - 2 * score.abs();
    let win = score > 0;
    if (plies % 2 == 1) != win {
        plies += 1;
    }
    let outcome = if win { Outcome::Win } else { Outcome::Loss };
    (outcome, plies.max(0) as u32)
}

impl<B: Bits> Bitboards<B> {
    /// The moves of `non_losing`, each to `out` by `rank(cell, its winning cells)`, higher
    /// first, the column order among equals.
    #[inline]
    fn ranked_children<R: Copy + Default + Ord>(
        &self,
        discs: &Discs<B>,
        non_losing: B,
        out: &mut ArrayVec<Discs<B>, MAX_CHILDREN>,
        rank: impl Fn(B, B) -> R,
    ) {
        let mut ranks = [R::default(); MAX_CHILDREN];
        for &column in &self.order {
            let cell = non_losing & self.column_mask(column);
            if cell != B::zero() {
                let wins = self.winning_cells(discs.mover | cell, discs.mask);
                let child = self.after_with(discs, cell, wins);
                insert_ranked(out, &mut ranks, child, rank(cell, wins));
            }
        }
    }
}

/// `child` put among `out`, ranked by `rank` (higher first), after the children of equal
/// rank (the column order among equals), by swaps: a call to memmove per move cost 6% of the
/// search.
fn insert_ranked<B: Copy, R: Copy + Ord>(
    out: &mut ArrayVec<Discs<B>, MAX_CHILDREN>,
    ranks: &mut [R; MAX_CHILDREN],
    child: Discs<B>,
    rank: R,
) {
    let mut at = out.len();
    out.push(child);
    ranks[at] = rank;
    while at > 0 && ranks[at - 1] < rank {
        out.swap(at, at - 1);
        ranks.swap(at, at - 1);
        at -= 1;
    }
}

impl<B: Bits> ScoreGame for Bitboards<B> {
    type Position = Discs<B>;
    /// A column, 0-based.
    type Move = u32;
    /// The moves that do not lose at once.
    type Scratch = B;
    /// The position's word (the mover's discs added to the mask).
    type Key = B;

    fn key_bits(&self) -> u32 {
        self.width * (self.height + 1)
    }

    #[inline]
    fn key(&self, discs: &Discs<B>) -> B {
        // Unique: adding the mover's discs to the mask carries each column's run of the
        // mover's discs up into the first empty cell, which stays in the column.
        let key = discs.mover.wrapping_add(&discs.mask);
        if discs.moves < MIRROR_KEYS_BELOW {
            self.canonical_key(key)
        } else {
            key
        }
    }

    fn depth(&self, discs: &Discs<B>) -> u32 {
        self.cells as u32 - discs.moves
    }

    fn win_now(&self, discs: &Discs<B>) -> Option<i32> {
        (self.winning_cells(discs.mover, discs.mask) & self.playable(discs.mask) != B::zero())
            .then(|| self.win_score(discs.moves))
    }

    fn node(&self, discs: &Discs<B>) -> Node<B> {
        let moves = discs.moves as i32;
        let non_losing = self.non_losing(discs);
        if non_losing == B::zero() {
            // The opponent wins with their next disc.
            return Node::Exact(-((self.cells - moves) / 2));
        }
        if moves >= self.cells - 2 {
            // The mover cannot win now and the opponent cannot win after: the board fills.
            return Node::Exact(0);
        }
        // The opponent cannot win with their next disc, nor the mover with this one.
        let lower = -((self.cells - 2 - moves) / 2);
        let mut upper = (self.cells - 1 - moves) / 2;
        if let Some(bound) = self.even_rows_bound(discs, self.playable(discs.mask)) {
            upper = upper.min(bound);
            if upper <= lower {
                return Node::Exact(upper);
            }
        }
        Node::Open {
            lower,
            upper,
            scratch: non_losing,
        }
    }

    fn children(
        &self,
        discs: &Discs<B>,
        non_losing: B,
        hints: &MoveHints<'_>,
        out: &mut ArrayVec<Discs<B>, MAX_CHILDREN>,
    ) {
        // By the threats a move makes, then by the search's heuristics when they are on (a
        // rank of their own: the wider one cost 5% when they are off). A threat right above
        // one of the opponent's is not counted (c4's "useful threats"): whoever is to move
        // when the cell below becomes playable, the opponent wins there or answers the block
        // on top of it, so the threat above is never made (8% fewer nodes: BENCHMARKS.md).
        let blocked = discs.threats << 1;
        if hints.active {
            self.ranked_children(discs, non_losing, out, |cell, wins| {
                (u64::from((wins & !blocked).count_ones()) << 40)
                    | hints.rank(self.cell_slot(discs, cell))
            });
        } else {
            self.ranked_children(discs, non_losing, out, |_, wins| {
                (wins & !blocked).count_ones()
            });
        }
    }

    /// A forced block, or one column left that does not lose at once.
    fn single_move(&self, non_losing: B) -> bool {
        non_losing.count_ones() == 1
    }

    fn move_slot(&self, discs: &Discs<B>, child: &Discs<B>) -> u16 {
        self.cell_slot(discs, child.mask ^ discs.mask)
    }

    fn moves(&self, discs: &Discs<B>) -> ArrayVec<(u32, After<Discs<B>>), MAX_CHILDREN> {
        let mut moves = ArrayVec::new();
        if discs.moves > 0 && self.is_over(discs) {
            return moves;
        }
        let playable = self.playable(discs.mask);
        let wins = self.winning_cells(discs.mover, discs.mask);
        for column in 0..self.width {
            let cell = playable & self.column_mask(column);
            if cell == B::zero() {
                continue;
            }
            let after = if cell & wins != B::zero() {
                After::Ends(self.win_score(discs.moves))
            } else {
                After::Continue(self.after(discs, cell))
            };
            moves.push((column, after));
        }
        moves
    }

    fn no_moves(&self, discs: &Discs<B>) -> i32 {
        if discs.moves > 0 && self.is_over(discs) {
            // The opponent's last disc made the line.
            -((self.cells + 2 - discs.moves as i32) / 2)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests;
