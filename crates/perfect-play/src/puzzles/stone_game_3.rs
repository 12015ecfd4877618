//! Stone Game III (LeetCode 1406): a row of stones with values (negative ones too); a move
//! takes the first 1, 2 or 3 stones left; the higher total wins, equal totals tie.
//!
//! One pass from the back: the margin and remoteness of each suffix from the next three,
//! four values kept, and one byte a stone for the best line: O(n) time.

use super::{Limits, PuzzleError, Scored, Solution, filled, preference};
use crate::{Ending, Game, Transition};
use std::cmp::Ordering;

/// The position: the values of the stones left, from the front.
///
/// # Errors
/// A row whose totals do not fit in 64 bits, over the memory limit, or cancelled.
pub fn solve(values: &[i64], limits: &Limits) -> Result<Solution<usize>, PuzzleError> {
    let n = values.len();
    super::check_totals(values, 1)?;
    let want_line = limits.wants_line(n);
    if want_line {
        limits.check_memory(
            "the best line of Stone Game III",
            n as u64,
            "ask without the line",
        )?;
    }
    let mut choice = if want_line {
        filled(n, 0u8, "the best line")?
    } else {
        Vec::new()
    };
    // margin[j % 4], remoteness[j % 4]: the suffix from j, for the three after i.
    let mut margin = [0i64; 4];
    let mut remoteness = [0u64; 4];
    for i in (0..n).rev() {
        if i % (1 << 20) == 0 {
            limits.cancel.check()?;
        }
        let mut best: Option<(i64, u64, u8)> = None;
        let mut taken = 0i64;
        for k in 1..=3.min(n - i) {
            taken += values[i + k - 1];
            let j = i + k;
            let value = (taken - margin[j % 4], remoteness[j % 4] + 1);
            if best.is_none_or(|b| preference(value, (b.0, b.1)) == Ordering::Greater) {
                best = Some((value.0, value.1, k as u8));
            }
        }
        let (m, r, k) = best.unwrap_or((0, 0, 0));
        margin[i % 4] = m;
        remoteness[i % 4] = r;
        if want_line {
            choice[i] = k;
        }
    }
    let mut moves = Vec::new();
    let mut taken = 0i64;
    for k in 1..=3.min(n) {
        taken += values[k - 1];
        moves.push(Scored {
            mv: k,
            margin: taken - margin[k % 4],
            remoteness: Some(remoteness[k % 4] + 1),
        });
    }
    let total = moves.len() as u64;
    let winning = super::best_first(&mut moves, limits.max_listed);
    let line = want_line.then(|| {
        let mut line = Vec::new();
        let mut i = 0;
        while i < n {
            let k = usize::from(choice[i]);
            line.push(k);
            i += k;
        }
        line
    });
    Ok(Solution {
        margin: margin[0],
        remoteness: Some(remoteness[0]),
        moves,
        moves_total: Some(total),
        winning_total: Some(winning),
        line,
    })
}

/// Stone Game III as a [`Game`] for the reference solver: the position is the index of the
/// first stone left.
#[derive(Clone, Debug)]
pub struct StoneGame3(pub Vec<i64>);

impl Game for StoneGame3 {
    type Position = usize;
    type Move = usize;
    fn start(&self) -> usize {
        0
    }
    fn moves(&self, &i: &usize) -> Vec<usize> {
        (1..=3.min(self.0.len() - i)).collect()
    }
    fn play(&self, &i: &usize, &k: &usize) -> Transition<usize> {
        Transition::Continue {
            position: i + k,
            reward: self.0[i..i + k].iter().sum(),
        }
    }
    fn no_moves(&self, _: &usize) -> Ending {
        Ending::Score(0)
    }
}
