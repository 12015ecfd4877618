//! The Stone Game series and the classic two-player puzzles of the contest problem sets
//! (LeetCode 1140, 1406, 1686, 1690, 1872, 2029, 1025, 294, 810, 375), each solved exactly far
//! past the published limits: one module per game, with its fast solver and the game as a
//! [`Game`](crate::Game), which the generic [`Solver`](crate::Solver) checks it against on
//! every small input.
//!
//! Every solver answers for the player to move: the margin (mover's score minus the
//! opponent's; `+1`/`-1` in win/loss games), the remoteness (moves to the end, the winner
//! hurrying and the loser delaying, as [`Value::preference`](crate::Value::preference)
//! orders them), every move's value best first and a best line.

pub mod cat_and_mouse;
pub mod chalkboard;
pub mod divisor;
pub mod flip;
pub mod guess;
pub mod nim_game;
pub mod stone_game_2;
pub mod stone_game_3;
pub mod stone_game_6;
pub mod stone_game_7;
pub mod stone_game_8;
pub mod stone_game_9;

#[cfg(test)]
mod tests;

use crate::budget::Cancelled;
use std::cmp::Ordering;

/// Why a puzzle's position is not answered.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    /// The position is not one of the game's, with the reason.
    #[error("{0}")]
    BadInput(String),
    /// The work needs more memory than the limit: refused before it starts.
    #[error(
        "{what} needs about {} of memory, over the limit of {}; {way}",
        crate::parse::human_size(*.bytes),
        crate::parse::human_size(*.limit)
    )]
    OverMemory {
        /// What was asked.
        what: String,
        /// The bytes it needs.
        bytes: u64,
        /// The limit.
        limit: u64,
        /// The way around.
        way: String,
    },
    /// The work was cancelled.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// One move valued for the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored<M> {
    /// The move.
    pub mv: M,
    /// The final margin for its maker.
    pub margin: i64,
    /// Moves to the end counting it; None where only the outcome is known.
    pub remoteness: Option<u64>,
}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The final margin for the player to move (`+1`/`0`/`-1` in win/loss games).
    pub margin: i64,
    /// Moves to the end; None where only the outcome is known.
    pub remoteness: Option<u64>,
    /// The moves, best first (perhaps only the first of many: see `moves_total`).
    pub moves: Vec<Scored<M>>,
    /// How many legal moves the position has (None: not counted, past the listing).
    pub moves_total: Option<u64>,
    /// How many of them win (None: not counted).
    pub winning_total: Option<u64>,
    /// A line of perfect play to the end, when asked for (or short).
    pub line: Option<Vec<M>>,
}

/// What a solve may spend and what it lists.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes the solver's tables may take.
    pub memory: u64,
    /// Raised to stop the work.
    pub cancel: crate::budget::Cancel,
    /// The whole best line, however long (else only when at most [`SHORT_LINE`] moves).
    pub line: bool,
    /// The most moves listed (the best first).
    pub max_listed: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory: 2 << 30,
            cancel: crate::budget::Cancel::new(),
            line: false,
            max_listed: 2_000,
        }
    }
}

/// A best line is given without asking while it has at most this many moves.
pub const SHORT_LINE: usize = 1_000;

impl Limits {
    /// Whether a line of `length` moves is given.
    #[must_use]
    pub fn wants_line(&self, length: usize) -> bool {
        self.line || length <= SHORT_LINE
    }

    /// Refuse `bytes` over the memory limit.
    ///
    /// # Errors
    /// [`PuzzleError::OverMemory`] with the figure.
    pub fn check_memory(&self, what: &str, bytes: u64, way: &str) -> Result<(), PuzzleError> {
        if bytes > self.memory {
            return Err(PuzzleError::OverMemory {
                what: what.to_string(),
                bytes,
                limit: self.memory,
                way: way.to_string(),
            });
        }
        Ok(())
    }
}

/// The mover's preference between two (margin, remoteness) values: a higher margin, then a
/// winner (or a tie) the shorter game and a loser the longer one, as
/// [`Value::preference`](crate::Value::preference). `Greater`: `a` is preferred.
#[must_use]
pub fn preference(a: (i64, u64), b: (i64, u64)) -> Ordering {
    a.0.cmp(&b.0).then_with(|| {
        if a.0 < 0 {
            a.1.cmp(&b.1)
        } else {
            b.1.cmp(&a.1)
        }
    })
}

/// Sort moves best first (unknown remoteness last among equals) and keep the first `keep`;
/// returns how many of them won (a positive margin) before the cut.
pub fn best_first<M>(moves: &mut Vec<Scored<M>>, keep: usize) -> u64 {
    let winning = moves.iter().filter(|m| m.margin > 0).count() as u64;
    moves.sort_by(|a, b| match (a.remoteness, b.remoteness) {
        (Some(ra), Some(rb)) => preference((b.margin, rb), (a.margin, ra)),
        _ => b
            .margin
            .cmp(&a.margin)
            .then_with(|| a.remoteness.is_none().cmp(&b.remoteness.is_none())),
    });
    moves.truncate(keep);
    winning
}

/// A small position solved by the reference solver: the remoteness and line a theorem does
/// not give (Chalkboard XOR, Flip Game).
pub struct Searched<M> {
    analysis: crate::Analysis<M>,
    line: Vec<M>,
}

impl<M: Clone + PartialEq> Searched<M> {
    /// Solve `position` of `game`.
    pub fn new<G: crate::Game<Move = M>>(game: G, position: &G::Position) -> Searched<M> {
        let mut solver = crate::Solver::new(game);
        let analysis = solver.analyse(position);
        let line = solver.best_line(position);
        Searched { analysis, line }
    }

    /// The remoteness of the move `mv`, counting it.
    #[must_use]
    pub fn of_move(&self, mv: &M) -> Option<u64> {
        self.analysis
            .moves
            .iter()
            .find(|m| m.mv == *mv)
            .map(|m| u64::from(m.value.remoteness))
    }

    /// The position's remoteness and a best line.
    #[must_use]
    pub fn remoteness_and_line(self) -> (Option<u64>, Option<Vec<M>>) {
        (
            Some(u64::from(self.analysis.value.remoteness)),
            Some(self.line),
        )
    }
}

/// A vector of `len` copies of `fill`, allocated fallibly (sizes come from the input).
///
/// # Errors
/// [`PuzzleError::OverMemory`] when the allocation fails.
pub fn filled<T: Clone>(len: usize, fill: T, what: &str) -> Result<Vec<T>, PuzzleError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| PuzzleError::OverMemory {
            what: what.to_string(),
            bytes: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
            limit: 0,
            way: "the machine could not allocate it".into(),
        })?;
    v.resize(len, fill);
    Ok(v)
}

/// Refuse values whose absolute sum times `factor` does not fit in 64 bits (a margin is a
/// sum of up to `factor` such totals), so that no sum the solvers make can overflow.
///
/// # Errors
/// [`PuzzleError::BadInput`] with the sum.
pub fn check_totals(values: &[i64], factor: u64) -> Result<(), PuzzleError> {
    let absolute: u128 = values.iter().map(|v| u128::from(v.unsigned_abs())).sum();
    if absolute.saturating_mul(u128::from(factor.max(1))) > i64::MAX as u128 {
        return Err(PuzzleError::BadInput(format!(
            "the values' absolute sum ({absolute}) times {} is too large: the scores must fit in 64 bits",
            factor.max(1)
        )));
    }
    Ok(())
}

/// Prefix sums `0, a0, a0 + a1, ...`, refusing a row whose absolute sum times `factor` does
/// not fit in 64 bits (margins are sums of up to `factor` such totals).
///
/// # Errors
/// [`PuzzleError::BadInput`] naming the limit.
pub fn prefix_sums(values: &[i64], factor: u64) -> Result<Vec<i64>, PuzzleError> {
    check_totals(values, factor)?;
    let mut sums = filled(values.len() + 1, 0i64, "the prefix sums")?;
    for (i, v) in values.iter().enumerate() {
        sums[i + 1] = sums[i] + v;
    }
    Ok(sums)
}

/// Parse a row of whole numbers separated by spaces or commas.
///
/// # Errors
/// [`PuzzleError::BadInput`] for a word that is not a 64-bit integer or outside `min..=max`.
pub fn parse_row(text: &str, what: &str, min: i64, max: i64) -> Result<Vec<i64>, PuzzleError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| match t.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            Ok(_) => Err(PuzzleError::BadInput(format!(
                "{what} {t} is out of range: use whole numbers from {min} to {max}"
            ))),
            Err(_) => Err(PuzzleError::BadInput(format!(
                "{what} {:?} is not a whole number from {min} to {max}",
                crate::parse::shorten(t)
            ))),
        })
        .collect()
}
