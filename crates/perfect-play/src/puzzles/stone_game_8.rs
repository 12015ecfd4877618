//! Stone Game VIII (LeetCode 1872): a row of stones; while more than one is left, a move
//! takes the leftmost `x >= 2` stones, scores their sum and puts one stone of that sum back
//! at the left; the larger score wins.
//!
//! After any moves the leftmost stone holds a prefix sum of the row, so a position is the
//! index `i` of the last stone merged into it; a move to `j > i` scores the prefix sum to
//! `j`. One pass from the back keeps the best move over every later index twice (under the
//! winner's order, shorter games first, and the loser's, longer first): O(n) time, 16 bytes
//! a stone for the values of every move and the best line.

use super::{Limits, PuzzleError, Scored, Solution};
use crate::{Ending, Game, Transition};

/// The position: the stones in the row (the leftmost may be a merged one).
///
/// # Errors
/// Totals past 64 bits, over the memory limit, or cancelled.
pub fn solve(stones: &[i64], limits: &Limits) -> Result<Solution<usize>, PuzzleError> {
    let n = stones.len();
    super::check_totals(stones, n as u64)?;
    if n < 2 {
        return Ok(Solution {
            margin: 0,
            remoteness: Some(0),
            moves: Vec::new(),
            moves_total: Some(0),
            winning_total: Some(0),
            line: Some(Vec::new()),
        });
    }
    limits.check_memory(
        &format!("Stone Game VIII over {n} stones"),
        n as u64 * 16,
        "give fewer stones or a larger --memory-limit",
    )?;
    let mut margin = super::filled(n, 0i64, "the margins")?;
    let mut remoteness = super::filled(n, 0u32, "the remoteness")?;
    let mut next = super::filled(n, 0u32, "the best moves")?;
    let total: i64 = stones.iter().sum();
    // Running best over j > i of (sum to j minus the value at j): the winner's choice (the
    // shortest among the largest) and the loser's (the longest).
    let mut shortest: Option<(i64, u32, u32)> = None;
    let mut longest: Option<(i64, u32, u32)> = None;
    let mut sum_to = total;
    for i in (0..n).rev() {
        if i % (1 << 20) == 0 {
            limits.cancel.check()?;
        }
        if i + 1 < n {
            let (best, r, j) = match (shortest, longest) {
                (Some(s), Some(l)) => {
                    if s.0 >= 0 {
                        s
                    } else {
                        l
                    }
                }
                _ => (0, 0, 0),
            };
            margin[i] = best;
            remoteness[i] = r.saturating_add(1);
            next[i] = j;
        }
        if i >= 1 {
            let gain = (sum_to - margin[i], remoteness[i], i as u32);
            if shortest.is_none_or(|s| gain.0 > s.0 || (gain.0 == s.0 && gain.1 < s.1)) {
                shortest = Some(gain);
            }
            if longest.is_none_or(|l| gain.0 > l.0 || (gain.0 == l.0 && gain.1 > l.1)) {
                longest = Some(gain);
            }
        }
        sum_to -= stones[i];
    }
    let mut moves = Vec::new();
    moves
        .try_reserve_exact(n - 1)
        .map_err(|_| PuzzleError::BadInput("too many stones to list".into()))?;
    let mut sum_to = stones[0];
    for j in 1..n {
        sum_to += stones[j];
        moves.push(Scored {
            mv: j + 1,
            margin: sum_to - margin[j],
            remoteness: Some(u64::from(remoteness[j]) + 1),
        });
    }
    let winning = moves.iter().filter(|m| m.margin > 0).count() as u64;
    let keep = limits.max_listed.min(moves.len());
    let order = |a: &Scored<usize>, b: &Scored<usize>| {
        super::preference(
            (b.margin, b.remoteness.unwrap_or(0)),
            (a.margin, a.remoteness.unwrap_or(0)),
        )
        .then(a.mv.cmp(&b.mv))
    };
    if keep > 0 && keep < moves.len() {
        moves.select_nth_unstable_by(keep - 1, order);
    }
    moves.truncate(keep);
    moves.sort_by(order);
    let line = limits.wants_line(remoteness[0] as usize).then(|| {
        let mut line = Vec::new();
        let mut i = 0usize;
        while i + 1 < n {
            let j = next[i] as usize;
            line.push(j - i + 1);
            i = j;
        }
        line
    });
    Ok(Solution {
        margin: margin[0],
        remoteness: Some(u64::from(remoteness[0])),
        moves,
        moves_total: Some(n as u64 - 1),
        winning_total: Some(winning),
        line,
    })
}

/// Stone Game VIII as a [`Game`] for the reference solver: the row itself.
#[derive(Clone, Debug)]
pub struct StoneGame8(pub Vec<i64>);

impl Game for StoneGame8 {
    type Position = Vec<i64>;
    type Move = usize;
    fn start(&self) -> Vec<i64> {
        self.0.clone()
    }
    fn moves(&self, row: &Vec<i64>) -> Vec<usize> {
        (2..=row.len()).collect()
    }
    fn play(&self, row: &Vec<i64>, &x: &usize) -> Transition<Vec<i64>> {
        let merged: i64 = row[..x].iter().sum();
        let mut after = vec![merged];
        after.extend_from_slice(&row[x..]);
        Transition::Continue {
            position: after,
            reward: merged,
        }
    }
    fn no_moves(&self, _: &Vec<i64>) -> Ending {
        Ending::Score(0)
    }
}

/// The published recurrence, every later index tried at every index: O(n²), the
/// benchmarks' baseline.
#[must_use]
pub fn margin_by_recurrence(stones: &[i64]) -> i64 {
    let n = stones.len();
    if n < 2 {
        return 0;
    }
    let mut sums = vec![0i64; n];
    sums[0] = stones[0];
    for i in 1..n {
        sums[i] = sums[i - 1] + stones[i];
    }
    let mut dp = vec![0i64; n];
    for i in (0..n - 1).rev() {
        dp[i] = (i + 1..n).map(|j| sums[j] - dp[j]).max().unwrap_or(0);
    }
    dp[0]
}
