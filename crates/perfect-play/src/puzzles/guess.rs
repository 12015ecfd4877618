//! Guess Number Higher or Lower II (LeetCode 375): a number is picked from `low..=high`; a
//! guess `k` that misses costs `k` and is answered "higher" or "lower"; the guesser's cost
//! is what the worst answers make them pay. Here the answers come from an adversary, so the
//! guesser's margin is minus that cost, and the least cost is the value.
//!
//! The published recurrence tries every guess in every range: O(n³). Two facts make it
//! O(n²): in the range `i..=j`, the cost of the lower part grows with the guess and the
//! upper part's falls, so past the first guess `k0` where the lower part is the dearer the
//! best is `k0` itself, and before it the best is the least `k + cost(k+1..=j)` over a
//! window that, for a fixed `j`, only slides down as `i` falls (a monotone queue). The table
//! keeps 4 bytes a range.

use super::{Limits, PuzzleError, Scored, Solution};
use std::collections::VecDeque;

/// The largest `high` accepted (the costs must fit in 32 bits).
pub const MAX_HIGH: u64 = 60_000;

/// The least worst-case cost of every range `i..=j` within `1..=n`.
pub struct Costs {
    n: usize,
    /// Column `j` holds the ranges `i..=j`, `1 <= i <= j`.
    columns: Vec<u32>,
}

impl Costs {
    fn at(j: usize) -> usize {
        j * (j - 1) / 2
    }

    /// The least cost of finding a number in `i..=j` (0 for one number or none).
    #[must_use]
    pub fn cost(&self, i: usize, j: usize) -> u64 {
        if i >= j || j == 0 || j > self.n {
            return 0;
        }
        u64::from(self.columns[Costs::at(j) + i - 1])
    }

    /// The worst-case cost of guessing `k` in `i..=j`.
    #[must_use]
    pub fn guess_cost(&self, i: usize, j: usize, k: usize) -> u64 {
        if i == j {
            return 0;
        }
        k as u64 + self.cost(i, k.saturating_sub(1)).max(self.cost(k + 1, j))
    }

    /// Every range's least cost up to `n`.
    ///
    /// # Errors
    /// Over the memory limit, or cancelled.
    pub fn compute(n: usize, limits: &Limits) -> Result<Costs, PuzzleError> {
        let entries = n * (n + 1) / 2 + 1;
        limits.check_memory(
            &format!("the costs of the ranges within 1 to {n}"),
            entries as u64 * 4,
            "give a smaller range or a larger --memory-limit",
        )?;
        let mut costs = Costs {
            n,
            columns: super::filled(entries, 0u32, "the costs")?,
        };
        let mut window: VecDeque<usize> = VecDeque::new();
        for j in 2..=n {
            if j % 64 == 0 {
                limits.cancel.check()?;
            }
            window.clear();
            // k0: the first guess whose lower part is at least as dear as its upper part.
            let mut k0 = j;
            let base = Costs::at(j);
            for i in (1..j).rev() {
                while k0 > i && costs.cost(i, k0 - 2) >= costs.cost(k0, j) {
                    k0 -= 1;
                }
                // Candidates k in [i, k0 - 1] valued k + cost(k + 1, j), least at the front.
                let value = |k: usize| k as u64 + costs.cost(k + 1, j);
                while window.back().is_some_and(|&b| value(b) >= value(i)) {
                    window.pop_back();
                }
                window.push_back(i);
                while window.front().is_some_and(|&f| f >= k0) {
                    window.pop_front();
                }
                let mut best = k0 as u64 + costs.cost(i, k0 - 1);
                if let Some(&f) = window.front() {
                    best = best.min(value(f));
                }
                costs.columns[base + i - 1] = u32::try_from(best).unwrap_or(u32::MAX);
            }
        }
        Ok(costs)
    }
}

/// The position `low..=high`. Moves are the guesses; each leads to the dearer part (the
/// adversary's answer), and the line is the guesses against the worst answers.
///
/// # Errors
/// An empty or too large range, over the memory limit, or cancelled.
pub fn solve(low: u64, high: u64, limits: &Limits) -> Result<Solution<u64>, PuzzleError> {
    check_range(low, high)?;
    let costs = Costs::compute(high as usize, limits)?;
    solve_in(&costs, low, high, limits)
}

/// Refuse a range that is empty, does not start at 1 or more, or passes [`MAX_HIGH`].
///
/// # Errors
/// [`PuzzleError::BadInput`] naming the accepted ranges.
pub fn check_range(low: u64, high: u64) -> Result<(), PuzzleError> {
    if low < 1 || low > high || high > MAX_HIGH {
        return Err(PuzzleError::BadInput(format!(
            "the range {low}..={high} is not accepted: give 1 <= LOW <= HIGH <= {MAX_HIGH}"
        )));
    }
    Ok(())
}

/// [`solve`] with the costs of the ranges within `1..=high` computed already.
///
/// # Errors
/// A range outside the costs' or not accepted.
pub fn solve_in(
    costs: &Costs,
    low: u64,
    high: u64,
    limits: &Limits,
) -> Result<Solution<u64>, PuzzleError> {
    check_range(low, high)?;
    if high as usize > costs.n {
        return Err(PuzzleError::BadInput(format!(
            "the costs are computed up to {}, not {high}",
            costs.n
        )));
    }
    let (i, j) = (low as usize, high as usize);
    let cost = costs.cost(i, j);
    let mut moves: Vec<Scored<u64>> = (i..=j)
        .map(|k| Scored {
            mv: k as u64,
            margin: -(costs.guess_cost(i, j, k) as i64),
            remoteness: None,
        })
        .collect();
    let total = moves.len() as u64;
    let winning = super::best_first(&mut moves, limits.max_listed);
    let line = {
        let (mut i, mut j) = (i, j);
        let mut line = Vec::new();
        while i < j {
            let k = (i..=j)
                .min_by_key(|&k| costs.guess_cost(i, j, k))
                .unwrap_or(i);
            line.push(k as u64);
            // The adversary answers with the dearer part (the higher one on a tie).
            if costs.cost(k + 1, j) >= costs.cost(i, k.saturating_sub(1)) && k < j {
                i = k + 1;
            } else {
                j = k - 1;
            }
        }
        if i == j {
            line.push(i as u64);
        }
        Some(line)
    };
    Ok(Solution {
        margin: -(cost as i64),
        remoteness: None,
        moves,
        moves_total: Some(total),
        winning_total: Some(winning),
        line,
    })
}

/// The least cost of `1..=n` by the published recurrence.
#[must_use]
pub fn cost_by_recurrence(n: usize) -> u64 {
    costs_by_recurrence(n)[1][n]
}

/// The published recurrence over every range and guess: O(n³), the benchmarks' baseline and
/// the tests' oracle. `table[i][j]` is the least cost of `i..=j` (0 for one number or none).
#[must_use]
pub fn costs_by_recurrence(n: usize) -> Vec<Vec<u64>> {
    let mut dp = vec![vec![0u64; n + 2]; n + 2];
    for len in 2..=n {
        for i in 1..=n + 1 - len {
            let j = i + len - 1;
            dp[i][j] = (i..=j)
                .map(|k| k as u64 + dp[i][k - 1].max(dp[k + 1][j]))
                .min()
                .unwrap_or(0);
        }
    }
    dp
}
