//! Take-from-either-end games: a row of piles, players alternately take the whole pile at the
//! left or the right end, and each wants the larger total ("Stone Game", and the coin seed's
//! "Optimal strategy for a game", coins in a row).
//!
//! ```
//! use perfect_play::take_ends::{stone_game, analyse, Options, End};
//! use perfect_play::Outcome;
//!
//! assert_eq!(stone_game(&[5, 3, 4, 5]), Ok(true)); // the seed's examples
//! assert_eq!(stone_game(&[3, 7, 2, 3]), Ok(true));
//! let a = analyse(&[2, 2], &Options::default()).unwrap();
//! assert_eq!(a.outcome, Outcome::Tie); // ties exist
//! let a = analyse(&[1, 5, 2], &Options::default()).unwrap();
//! assert_eq!((a.margin, a.optimal_moves.clone()), (-2, vec![End::Left, End::Right]));
//! ```
//!
//! With an even number of piles the first player never loses: colour the piles alternately;
//! the first player can always take every pile of one colour (whichever end is of that colour,
//! the opponent is then left with two ends of the other colour), so they get at least the
//! larger colour total. The seed's `return true` relies on that plus an odd total (no tie);
//! this module computes instead, for any length and any values.

use crate::game::{Ending, Game, Transition};
use crate::player::Outcome;
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

/// Why a row cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TakeEndsError {
    /// The work was cancelled (its [`crate::budget::Cancel`] raised) before it finished.
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// The row is longer than the quadratic pass should take on.
    #[error(
        "a row of {piles} piles is over the limit of {limit}: the exact margin's time grows with the square of the length (about {estimated_seconds} s here, from {MEASURED_AT_200K_SMALL} s measured at 200,000 piles, {MEASURED_AT_200K_LARGE} s when the piles' sizes add up past 2^62); raise the limit with --max-piles"
    )]
    TooLong {
        /// Row length.
        piles: usize,
        /// The limit in force.
        limit: usize,
        /// Seconds the margin would take (see [`margin_seconds`]).
        estimated_seconds: u64,
    },
    /// The rows of margins would exceed the memory limit.
    #[error(
        "the margins of {piles} piles need {needed} for their rows of numbers, above the memory limit of {limit}; raise it with --memory-limit"
    )]
    OverMemory {
        /// Row length.
        piles: usize,
        /// Memory the rows need, for a person.
        needed: String,
        /// The limit in force, for a person.
        limit: String,
    },
    /// The decision table for the optimal line would exceed the memory limit.
    #[error(
        "the optimal line of {piles} piles needs {needed_mib} MiB of decision bits, above the limit of {limit_mib} MiB; raise it with --memory-limit or leave out --line"
    )]
    LineTooLarge {
        /// Row length.
        piles: usize,
        /// Memory the decision bits need.
        needed_mib: u64,
        /// The limit in force.
        limit_mib: u64,
    },
    /// The margin table was asked for a row too long to show.
    #[error(
        "the margin table is given for rows of up to {limit} piles (one number per interval); this row has {piles}"
    )]
    TableTooLarge {
        /// Row length.
        piles: usize,
        /// The limit.
        limit: usize,
    },
}

/// The longest row [`margin_table`] tabulates: a table to look at, not to store.
pub const MAX_TABLE_PILES: usize = 64;

/// The margin of every interval of the row: `table[i][j]` (for `i <= j`) is how far the player
/// to move at piles `i..=j` ends ahead of the other under perfect play; `None` below the
/// diagonal. The explorer draws it as a heat map.
///
/// # Errors
/// [`TakeEndsError::TableTooLarge`] past [`MAX_TABLE_PILES`].
pub fn margin_table(piles: &[i64]) -> Result<Vec<Vec<Option<i128>>>, TakeEndsError> {
    let n = piles.len();
    if n > MAX_TABLE_PILES {
        return Err(TakeEndsError::TableTooLarge {
            piles: n,
            limit: MAX_TABLE_PILES,
        });
    }
    let mut table = vec![vec![None; n]; n];
    for len in 1..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            let (left, right) = (i128::from(piles[i]), i128::from(piles[j]));
            table[i][j] = Some(if len == 1 {
                left
            } else {
                let after_left = table[i + 1][j].unwrap_or(0);
                let after_right = table[i][j - 1].unwrap_or(0);
                (left - after_left).max(right - after_right)
            });
        }
    }
    Ok(table)
}

/// An end of the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// The leftmost pile.
    Left,
    /// The rightmost pile.
    Right,
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            End::Left => "left",
            End::Right => "right",
        })
    }
}

/// Choices for an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// A tie counts as a first-player win ("Predict the Winner").
    pub ties_win: bool,
    /// Also compute the whole optimal line (one decision bit per interval).
    pub line: bool,
    /// Memory the decision bits may take, in bytes (default 2 GiB).
    pub memory_limit: u64,
    /// Longest row analysed (default 200,000 piles, about 12 s here, 25 s for piles adding
    /// up past 2^62; the time is quadratic).
    pub max_piles: usize,
    /// Raised to stop the pass: it ends with [`TakeEndsError::Cancelled`] within a diagonal.
    pub cancel: crate::budget::Cancel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            ties_win: false,
            line: false,
            memory_limit: 2 << 30,
            max_piles: 200_000,
            cancel: crate::budget::Cancel::new(),
        }
    }
}

/// Seconds the margin pass took here for 200,000 piles: sizes that add up below 2^62 (the
/// 64-bit lanes) and past it (128-bit lanes), whole process, one run each.
const MEASURED_AT_200K_SMALL: f64 = 12.0;
const MEASURED_AT_200K_LARGE: f64 = 25.2;

/// About how long the margin of `piles` takes here: quadratic in the length, twice as long
/// when the sizes need 128-bit lanes.
#[must_use]
pub fn margin_seconds(piles: &[i64]) -> f64 {
    let scale = piles.len() as f64 / 200_000.0;
    let bound: u128 = piles.iter().map(|p| u128::from(p.unsigned_abs())).sum();
    let at_200k = if bound < 1 << 62 {
        MEASURED_AT_200K_SMALL
    } else {
        MEASURED_AT_200K_LARGE
    };
    at_200k * scale * scale
}

/// The full answer for a row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// First player's total minus the second player's, under perfect play.
    pub margin: i128,
    /// The first player's total.
    pub first_total: i128,
    /// The second player's total.
    pub second_total: i128,
    /// Win, loss or tie for the first player under the tie rule played: with `ties_win` an
    /// equal total is a win (the margin says 0).
    pub outcome: Outcome,
    /// The answer to "does the first player win?" under the chosen tie rule.
    pub first_player_wins: bool,
    /// Every first move that achieves the margin.
    pub optimal_moves: Vec<End>,
    /// Every legal first move with the margin its maker ends ahead by (left first).
    pub moves: Vec<(End, i128)>,
    /// One optimal line of play to the end, when asked for.
    pub best_line: Option<Vec<End>>,
}

/// The seed's question: does the first player end with a strictly larger total?
///
/// # Errors
/// [`TakeEndsError::TooLong`] for rows longer than the default limit of 200,000 piles.
pub fn stone_game(piles: &[i64]) -> Result<bool, TakeEndsError> {
    Ok(analyse(piles, &Options::default())?.first_player_wins)
}

/// Bytes the margin pass keeps for `n` piles at most: the piles and two rows of margins,
/// 16 bytes a number when they need 128 bits.
#[must_use]
pub fn rows_bytes(n: usize) -> u64 {
    3 * 16 * (n as u64 + 1)
}

/// Bytes of decision bits the optimal line of `n` piles needs (one bit per interval, each
/// length's row rounded up to whole 64-bit words).
#[must_use]
pub fn line_bytes(n: usize) -> u64 {
    (1..=n as u64)
        .map(|len| (n as u64 - len + 1).div_ceil(64) * 8)
        .sum()
}

/// Analyse a row: margin, totals, outcome, optimal first moves and (optionally) the line.
///
/// # Errors
/// [`TakeEndsError::TooLong`] past `options.max_piles`; [`TakeEndsError::LineTooLarge`] when
/// the line is asked for and its bits exceed the limit.
pub fn analyse(piles: &[i64], options: &Options) -> Result<Analysis, TakeEndsError> {
    let n = piles.len();
    if n > options.max_piles {
        return Err(TakeEndsError::TooLong {
            piles: n,
            limit: options.max_piles,
            estimated_seconds: margin_seconds(piles).ceil() as u64,
        });
    }
    if rows_bytes(n) > options.memory_limit {
        return Err(TakeEndsError::OverMemory {
            piles: n,
            needed: crate::parse::human_size(rows_bytes(n)),
            limit: crate::parse::human_size(options.memory_limit),
        });
    }
    if options.line && line_bytes(n) > options.memory_limit {
        return Err(TakeEndsError::LineTooLarge {
            piles: n,
            needed_mib: line_bytes(n).div_ceil(1 << 20),
            limit_mib: options.memory_limit >> 20,
        });
    }
    let sum: i128 = piles.iter().map(|&p| i128::from(p)).sum();
    let mut decisions = options.line.then(|| Decisions::new(n));
    let top = margins(piles, decisions.as_mut(), &options.cancel)?;
    let margin = top.margin;
    let optimal_moves = match n {
        0 => Vec::new(),
        1 => vec![End::Left],
        _ => {
            let mut ends = Vec::new();
            if i128::from(piles[0]) - top.without_left == margin {
                ends.push(End::Left);
            }
            if i128::from(piles[n - 1]) - top.without_right == margin {
                ends.push(End::Right);
            }
            ends
        }
    };
    let moves = match n {
        0 => Vec::new(),
        1 => vec![(End::Left, margin)],
        _ => vec![
            (End::Left, i128::from(piles[0]) - top.without_left),
            (End::Right, i128::from(piles[n - 1]) - top.without_right),
        ],
    };
    let outcome = match Outcome::from_margin(margin) {
        Outcome::Tie if options.ties_win => Outcome::Win,
        other => other,
    };
    Ok(Analysis {
        moves,
        margin,
        first_total: (sum + margin) / 2,
        second_total: (sum - margin) / 2,
        outcome,
        first_player_wins: outcome == Outcome::Win,
        optimal_moves,
        best_line: decisions.map(|d| d.line(n)),
    })
}

/// The margin of the whole row and of the two rows one pile shorter.
struct Top {
    margin: i128,
    without_left: i128,
    without_right: i128,
}

/// Diagonals at least this long are split across threads.
const PARALLEL_MIN: usize = 8192;
/// Starts per parallel chunk (a multiple of 64, so each chunk owns whole decision words).
const CHUNK: usize = 4096;

/// Numbers the margin pass can run on: `i64` lanes when nothing can overflow, else `i128`.
trait Lane: Copy + Send + Sync + Ord + Default + std::ops::Sub<Output = Self> {
    fn from_i64(v: i64) -> Self;
    fn to_i128(self) -> i128;
}

impl Lane for i64 {
    fn from_i64(v: i64) -> i64 {
        v
    }
    fn to_i128(self) -> i128 {
        i128::from(self)
    }
}

impl Lane for i128 {
    fn from_i64(v: i64) -> i128 {
        i128::from(v)
    }
    fn to_i128(self) -> i128 {
        self
    }
}

fn margins(
    piles: &[i64],
    decisions: Option<&mut Decisions>,
    cancel: &crate::budget::Cancel,
) -> Result<Top, crate::budget::Cancelled> {
    // |margin| <= sum of |pile|: i64 suffices while that stays below 2^62.
    let bound: u128 = piles.iter().map(|p| u128::from(p.unsigned_abs())).sum();
    if bound < 1 << 62 {
        margins_in::<i64>(piles, decisions, cancel)
    } else {
        margins_in::<i128>(piles, decisions, cancel)
    }
}

/// One chunk of a diagonal: `out[k]` is the margin on the `len` piles starting at `base + k`,
/// from `prev` (the diagonal of length `len - 1`); `words`, when given, gets the decision bits.
fn fill<T: Lane>(
    a: &[T],
    prev: &[T],
    len: usize,
    base: usize,
    out: &mut [T],
    words: Option<&mut [u64]>,
) {
    let count = out.len();
    let left_piles = &a[base..base + count];
    let right_piles = &a[base + len - 1..base + len - 1 + count];
    let without_left = &prev[base + 1..base + 1 + count];
    let without_right = &prev[base..base + count];
    for (((o, &l), &r), (&wl, &wr)) in out
        .iter_mut()
        .zip(left_piles)
        .zip(right_piles)
        .zip(without_left.iter().zip(without_right))
    {
        *o = (l - wl).max(r - wr);
    }
    if let Some(words) = words {
        for (w, word) in words.iter_mut().enumerate() {
            let mut bits = 0u64;
            for k in (w * 64..count.min(w * 64 + 64)).rev() {
                bits = bits << 1
                    | u64::from(
                        left_piles[k] - without_left[k] >= right_piles[k] - without_right[k],
                    );
            }
            *word = bits;
        }
    }
}

/// Diagonal by diagonal: `next[i]` is the margin for the player to move on the `len` piles
/// starting at `i`, from the row of length `len - 1` in `prev`. Two rows of `n` numbers.
fn margins_in<T: Lane>(
    piles: &[i64],
    mut decisions: Option<&mut Decisions>,
    cancel: &crate::budget::Cancel,
) -> Result<Top, crate::budget::Cancelled> {
    let n = piles.len();
    if n == 0 {
        return Ok(Top {
            margin: 0,
            without_left: 0,
            without_right: 0,
        });
    }
    let a: Vec<T> = piles.iter().map(|&p| T::from_i64(p)).collect();
    let mut prev = vec![T::default(); n + 1];
    let mut next = vec![T::default(); n + 1];
    let mut shorter = (0i128, 0i128);
    for len in 1..=n {
        // A diagonal is at most n margins: milliseconds.
        cancel.check()?;
        let count = n - len + 1;
        if len == n {
            shorter = (prev[1].to_i128(), prev[0].to_i128());
        }
        let words = decisions.as_deref_mut().map(|d| d.row_mut(len));
        let out = &mut next[..count];
        if count >= PARALLEL_MIN {
            match words {
                Some(words) => out
                    .par_chunks_mut(CHUNK)
                    .zip(words.par_chunks_mut(CHUNK / 64))
                    .enumerate()
                    .for_each(|(c, (o, w))| fill(&a, &prev, len, c * CHUNK, o, Some(w))),
                None => out
                    .par_chunks_mut(CHUNK)
                    .enumerate()
                    .for_each(|(c, o)| fill(&a, &prev, len, c * CHUNK, o, None)),
            }
        } else {
            fill(&a, &prev, len, 0, out, words);
        }
        std::mem::swap(&mut prev, &mut next);
    }
    Ok(Top {
        margin: prev[0].to_i128(),
        without_left: shorter.0,
        without_right: shorter.1,
    })
}

/// One bit per interval: taking the left end is optimal (ties prefer the left). Each length's
/// row starts on a word boundary so that chunks of it can be filled in parallel.
struct Decisions {
    bits: Vec<u64>,
    /// Word offset of the row of each length.
    offsets: Vec<usize>,
}

impl Decisions {
    fn new(n: usize) -> Decisions {
        let mut offsets = vec![0usize; n + 2];
        for len in 1..=n {
            offsets[len + 1] = offsets[len] + (n - len + 1).div_ceil(64);
        }
        Decisions {
            bits: vec![0; offsets[n + 1]],
            offsets,
        }
    }

    fn row_mut(&mut self, len: usize) -> &mut [u64] {
        &mut self.bits[self.offsets[len]..self.offsets[len + 1]]
    }

    fn left_best(&self, len: usize, start: usize) -> bool {
        self.bits[self.offsets[len] + start / 64] >> (start % 64) & 1 == 1
    }

    fn line(&self, n: usize) -> Vec<End> {
        let (mut start, mut len) = (0, n);
        let mut line = Vec::with_capacity(n);
        while len > 0 {
            if self.left_best(len, start) {
                line.push(End::Left);
                start += 1;
            } else {
                line.push(End::Right);
            }
            len -= 1;
        }
        line
    }
}

/// The piles taken, in order, when `line` is played on `piles` (a line longer than the row
/// stops at the last pile).
#[must_use]
pub fn taken_along(piles: &[i64], line: &[End]) -> Vec<i64> {
    let (mut i, mut j) = (0, piles.len());
    let mut taken = Vec::with_capacity(line.len().min(piles.len()));
    for end in line.iter().take(piles.len()) {
        taken.push(match end {
            End::Left => {
                i += 1;
                piles[i - 1]
            }
            End::Right => {
                j -= 1;
                piles[j]
            }
        });
    }
    taken
}

/// The row as a scoring [`Game`]: positions are the half-open range of piles left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeEnds {
    /// The piles.
    pub piles: Vec<i64>,
}

impl Game for TakeEnds {
    type Position = (usize, usize);
    type Move = End;

    fn start(&self) -> (usize, usize) {
        (0, self.piles.len())
    }

    fn moves(&self, &(i, j): &(usize, usize)) -> Vec<End> {
        match j - i {
            0 => Vec::new(),
            1 => vec![End::Left],
            _ => vec![End::Left, End::Right],
        }
    }

    fn play(&self, &(i, j): &(usize, usize), end: &End) -> Transition<(usize, usize)> {
        let (taken, position) = match end {
            End::Left => (self.piles[i], (i + 1, j)),
            End::Right => (self.piles[j - 1], (i, j - 1)),
        };
        Transition::Continue {
            position,
            reward: taken,
        }
    }

    fn no_moves(&self, _: &(usize, usize)) -> Ending {
        Ending::Score(0)
    }
}

#[cfg(test)]
mod tests;
