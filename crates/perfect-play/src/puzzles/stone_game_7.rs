//! Stone Game VII (LeetCode 1690): a row of stones; a move removes the stone at either end
//! and scores the sum of the stones left; the larger score wins.
//!
//! The interval recurrence by diagonals in one row of margins (each interval from the two
//! one shorter): O(n²) time, O(n) memory, and one bit an interval for the best line when it
//! is asked for. Every game lasts one move a stone.

use super::{Limits, PuzzleError, Scored, Solution};
use crate::take_ends::End;
use crate::{Ending, Game, Transition};

/// The position: the stones left in the row.
///
/// # Errors
/// Totals past 64 bits, the line's bits over the memory limit, or cancelled.
pub fn solve(stones: &[i64], limits: &Limits) -> Result<Solution<End>, PuzzleError> {
    let n = stones.len();
    let sums = super::prefix_sums(stones, n as u64)?;
    let want_line = limits.wants_line(n);
    let bits = (n as u64) * (n as u64 + 1) / 2;
    if want_line {
        limits.check_memory(
            &format!("the best line of Stone Game VII over {n} stones"),
            bits / 8,
            "ask without the whole line, or give fewer stones",
        )?;
    }
    let mut right = if want_line {
        super::filled(bits.div_ceil(64) as usize, 0u64, "the line's bits")?
    } else {
        Vec::new()
    };
    // margin[i]: the interval of the current length starting at i.
    let mut margin = super::filled(n + 1, 0i64, "the margins")?;
    let mut offset = 0u64;
    // The margins of the two rows one stone shorter: the moves' values.
    let (mut without_left, mut without_right) = (0i64, 0i64);
    for len in 1..=n {
        if len % 64 == 0 {
            limits.cancel.check()?;
        }
        for i in 0..=n - len {
            let j = i + len;
            let left = sums[j] - sums[i + 1] - margin[i + 1];
            let right_end = sums[j - 1] - sums[i] - margin[i];
            margin[i] = left.max(right_end);
            if want_line && right_end > left {
                let bit = offset + i as u64;
                right[(bit / 64) as usize] |= 1 << (bit % 64);
            }
        }
        offset += (n - len + 1) as u64;
        if len + 1 == n {
            (without_left, without_right) = (margin[1], margin[0]);
        }
    }
    let value = margin[0];
    let mut moves = Vec::new();
    if n > 0 {
        let total = sums[n];
        for (end, rest, child) in [
            (End::Left, total - stones[0], without_left),
            (End::Right, total - stones[n - 1], without_right),
        ] {
            moves.push(Scored {
                mv: end,
                margin: rest - child,
                remoteness: Some(n as u64),
            });
        }
        if n == 1 {
            moves.truncate(1);
        }
    }
    let winning = super::best_first(&mut moves, limits.max_listed);
    let line = want_line.then(|| {
        let (mut i, mut len) = (0usize, n);
        let mut line = Vec::with_capacity(n);
        // The bits of length len start after those of the shorter lengths.
        let mut offset = bits.saturating_sub(1);
        while len > 0 {
            let bit = offset + i as u64;
            if right[(bit / 64) as usize] >> (bit % 64) & 1 == 1 {
                line.push(End::Right);
            } else {
                line.push(End::Left);
                i += 1;
            }
            len -= 1;
            if len > 0 {
                offset -= (n - len + 1) as u64;
            }
        }
        line
    });
    Ok(Solution {
        margin: value,
        remoteness: Some(n as u64),
        moves,
        moves_total: Some(n.min(2) as u64),
        winning_total: Some(winning),
        line,
    })
}

/// Stone Game VII as a [`Game`] for the reference solver: the interval left.
#[derive(Clone, Debug)]
pub struct StoneGame7(pub Vec<i64>);

impl Game for StoneGame7 {
    type Position = (usize, usize);
    type Move = End;
    fn start(&self) -> (usize, usize) {
        (0, self.0.len())
    }
    fn moves(&self, &(i, j): &(usize, usize)) -> Vec<End> {
        match j - i {
            0 => vec![],
            1 => vec![End::Left],
            _ => vec![End::Left, End::Right],
        }
    }
    fn play(&self, &(i, j): &(usize, usize), end: &End) -> Transition<(usize, usize)> {
        let rest = match end {
            End::Left => (i + 1, j),
            End::Right => (i, j - 1),
        };
        Transition::Continue {
            position: rest,
            reward: self.0[rest.0..rest.1].iter().sum(),
        }
    }
    fn no_moves(&self, _: &(usize, usize)) -> Ending {
        Ending::Score(0)
    }
}

/// The published recurrence over a full n x n table: the benchmarks' baseline.
#[must_use]
pub fn margin_by_recurrence(stones: &[i64]) -> i64 {
    let n = stones.len();
    let mut sums = vec![0i64; n + 1];
    for i in 0..n {
        sums[i + 1] = sums[i] + stones[i];
    }
    let mut dp = vec![vec![0i64; n + 1]; n + 1];
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len;
            dp[i][j] =
                (sums[j] - sums[i + 1] - dp[i + 1][j]).max(sums[j - 1] - sums[i] - dp[i][j - 1]);
        }
    }
    if n == 0 { 0 } else { dp[0][n] }
}
