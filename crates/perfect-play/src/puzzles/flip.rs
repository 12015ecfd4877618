//! Flip Game II (LeetCode 294): a string of `+` and `-`; a move turns two adjacent `++` into
//! `--`; a player without a move loses.
//!
//! A run of `k` pluses is a heap of `k`, and a flip takes two adjacent tokens from it,
//! leaving the two runs beside them: that is the octal game 0.07, Dawson's Kayles, whose
//! Grundy values are periodic with period 34 after the first 52 (Guy and Smith 1956). So a
//! string of any length is answered by the nim-sum of its runs' values, and every move by the
//! nim-sum it leaves: O(length). The remoteness (which Grundy values do not give) is searched
//! exactly while the string has at most [`SEARCHED_UPTO`] pluses.

use super::{Limits, PuzzleError, Scored, Searched, Solution};
use crate::octal::{GrundySequence, OctalCode, Options};
use crate::{Game, Transition};
use std::sync::OnceLock;

/// Strings with at most this many pluses get their remoteness and a best line by search.
pub const SEARCHED_UPTO: usize = 16;

/// The Grundy values of Dawson's Kayles (0.07), with their proven period.
fn dawson() -> &'static GrundySequence {
    static VALUES: OnceLock<GrundySequence> = OnceLock::new();
    VALUES.get_or_init(|| {
        let code: OctalCode = "0.07".parse().expect("0.07 is an octal code");
        GrundySequence::compute(&code, &Options::default(), &|_, _| {})
            .expect("Dawson's Kayles' values are proven periodic within the default range")
    })
}

/// The Grundy value of a run of `k` pluses.
fn run_value(k: usize) -> u16 {
    dawson().value(k as u64).unwrap_or(0)
}

/// Parse a string of `+` and `-`.
///
/// # Errors
/// Any other character.
pub fn parse(text: &str) -> Result<Vec<bool>, PuzzleError> {
    text.trim()
        .chars()
        .map(|c| match c {
            '+' => Ok(true),
            '-' => Ok(false),
            other => Err(PuzzleError::BadInput(format!(
                "{other:?} is not a coin of Flip Game: write the string with + and -"
            ))),
        })
        .collect()
}

/// The position: `true` for `+`. Moves are named by the place (1-based) of the first of
/// the two pluses flipped.
///
/// # Errors
/// Cancelled.
pub fn solve(pluses: &[bool], limits: &Limits) -> Result<Solution<usize>, PuzzleError> {
    let n = pluses.len();
    // The runs: (start, length).
    let mut runs = Vec::new();
    let mut i = 0;
    while i < n {
        if pluses[i] {
            let start = i;
            while i < n && pluses[i] {
                i += 1;
            }
            runs.push((start, i - start));
        } else {
            i += 1;
        }
    }
    let nim_sum = runs.iter().fold(0u16, |x, &(_, k)| x ^ run_value(k));
    let margin = if nim_sum != 0 { 1 } else { -1 };
    let plus_count = pluses.iter().filter(|&&p| p).count();
    let searched = (plus_count <= SEARCHED_UPTO && n <= 64)
        .then(|| Searched::new(FlipGame(pluses.to_vec()), &pluses.to_vec()));
    let mut moves = Vec::new();
    let mut total = 0u64;
    for (count, &(start, k)) in runs.iter().enumerate() {
        if count % 1024 == 0 {
            limits.cancel.check()?;
        }
        let others = nim_sum ^ run_value(k);
        for a in 0..k.saturating_sub(1) {
            total += 1;
            let after = others ^ run_value(a) ^ run_value(k - 2 - a);
            let mv = start + a + 1;
            let remoteness = searched.as_ref().and_then(|s| s.of_move(&mv));
            // Keep every winning move and the losing ones while few are listed.
            if after == 0 || moves.len() < limits.max_listed {
                moves.push(Scored {
                    mv,
                    margin: if after == 0 { 1 } else { -1 },
                    remoteness,
                });
            }
        }
    }
    let winning = super::best_first(&mut moves, limits.max_listed);
    let (remoteness, line) = searched.map_or((None, None), Searched::remoteness_and_line);
    Ok(Solution {
        margin,
        remoteness,
        moves,
        moves_total: Some(total),
        winning_total: Some(winning),
        line,
    })
}

/// Flip Game II as a [`Game`] for the reference solver: the string, a move the place
/// (1-based) of the first plus flipped.
#[derive(Clone, Debug)]
pub struct FlipGame(pub Vec<bool>);

impl Game for FlipGame {
    type Position = Vec<bool>;
    type Move = usize;
    fn start(&self) -> Vec<bool> {
        self.0.clone()
    }
    fn moves(&self, s: &Vec<bool>) -> Vec<usize> {
        (1..s.len()).filter(|&i| s[i - 1] && s[i]).collect()
    }
    fn play(&self, s: &Vec<bool>, &i: &usize) -> Transition<Vec<bool>> {
        let mut after = s.clone();
        after[i - 1] = false;
        after[i] = false;
        Transition::to(after)
    }
    fn position_bytes(&self, s: &Vec<bool>) -> usize {
        s.len()
    }
}
