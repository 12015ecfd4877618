//! Stone Game II (LeetCode 1140): piles in a row; with `M` (1 at the start) a move takes all
//! the piles of the first `X` left, `1 <= X <= 2M`, and then `M = max(M, X)`; the most stones
//! wins.
//!
//! The published recurrence tries every `X` at every (pile, `M`): O(n³). Here each value is
//! the best of two sliding windows: the moves with `X <= M` lead to the same `M` at the next
//! `M` piles, a window that slides down the column of `M` as the first pile moves back; the
//! moves with `M < X <= 2M` lead to (`i + X`, `X`), a window over `X` that slides up as `M`
//! grows along the row. Monotone queues keep each window's best, so every state costs O(1):
//! O(n²) time, and 12 bytes a state for the n²/6 states where `2M` does not reach the end
//! (there the mover takes every pile: with positive piles that is the only best move).

use super::{Limits, PuzzleError, Scored, Solution};
use crate::{Ending, Game, Transition};
use std::collections::VecDeque;

/// Bytes a stored state takes (margin and remoteness).
pub const STATE_BYTES: u64 = 12;

/// The stored states of a row of `n` piles from `M = m` (those where `2M` does not reach the
/// end; `M` is at most `max(m, piles taken)`).
#[must_use]
pub fn stored_states(n: usize, m: usize) -> u64 {
    (0..n).map(|i| cap(n, m, i) as u64).sum()
}

/// The largest `M` stored at pile `i`.
fn cap(n: usize, m: usize, i: usize) -> usize {
    m.max(i).min((n - i - 1) / 2)
}

struct Table<'a> {
    n: usize,
    sums: &'a [i64],
    offsets: Vec<u64>,
    margin: Vec<i64>,
    remoteness: Vec<u32>,
}

impl Table<'_> {
    /// The value of (pile `i`, `M`) for the player to move.
    fn value(&self, i: usize, m: usize) -> (i64, u64) {
        if self.n - i <= 2 * m {
            let rest = self.sums[self.n] - self.sums[i];
            return (rest, u64::from(i < self.n));
        }
        let at = (self.offsets[i] + m as u64 - 1) as usize;
        (self.margin[at], u64::from(self.remoteness[at]))
    }

    /// What a move to (pile `j`, `M`) is worth to its maker, before the piles it takes are
    /// counted: `sums[j]` minus the value there (the maker's margin is this minus `sums[i]`).
    fn gain(&self, j: usize, m: usize) -> (i64, u64) {
        let (margin, remoteness) = self.value(j, m);
        (self.sums[j] - margin, remoteness)
    }
}

/// A monotone queue of candidates under one order: the front is the best in the window.
struct Window {
    queue: VecDeque<u32>,
    longest: bool,
}

impl Window {
    fn new(longest: bool) -> Window {
        Window {
            queue: VecDeque::new(),
            longest,
        }
    }

    /// Whether `a` is at least as good as `b` in this window's order: the larger gain, then
    /// the shorter (or, for a loser's order, the longer) game.
    fn at_least(&self, a: (i64, u64), b: (i64, u64)) -> bool {
        a.0.cmp(&b.0)
            .then_with(|| {
                if self.longest {
                    a.1.cmp(&b.1)
                } else {
                    b.1.cmp(&a.1)
                }
            })
            .is_ge()
    }

    /// Add `key` (which stays in the window longer than any before it), dropping those it
    /// beats.
    fn push(&mut self, key: u32, value: (i64, u64), value_of: impl Fn(u32) -> (i64, u64)) {
        while let Some(&back) = self.queue.back() {
            if self.at_least(value, value_of(back)) {
                self.queue.pop_back();
            } else {
                break;
            }
        }
        self.queue.push_back(key);
    }
}

/// The position: the piles left (each at least 1) and `M`.
///
/// # Errors
/// A pile below 1, totals past 64 bits, a table over the memory limit, or cancelled.
pub fn solve(piles: &[i64], m: usize, limits: &Limits) -> Result<Solution<usize>, PuzzleError> {
    if let Some(p) = piles.iter().find(|&&p| p < 1) {
        return Err(PuzzleError::BadInput(format!(
            "pile {p} is not accepted: Stone Game II's piles hold at least one stone"
        )));
    }
    if m == 0 {
        return Err(PuzzleError::BadInput("M is at least 1".into()));
    }
    let n = piles.len();
    let sums = super::prefix_sums(piles, 1)?;
    let states = stored_states(n, m);
    let columns = (n / 3 + 1) as u64;
    let bytes = states * STATE_BYTES + columns * columns * 8 + n as u64 * 16;
    limits.check_memory(
        &format!("Stone Game II over {n} piles ({states} states)"),
        bytes,
        "give fewer piles or a larger --memory-limit",
    )?;
    let mut offsets = super::filled(n + 1, 0u64, "the table")?;
    for i in 0..n {
        offsets[i + 1] = offsets[i] + cap(n, m, i) as u64;
    }
    let mut table = Table {
        n,
        sums: &sums,
        offsets,
        margin: super::filled(states as usize, 0i64, "the table")?,
        remoteness: super::filled(states as usize, 0u32, "the table")?,
    };
    // Per column M, the windows over the next piles j in (i, i + M] (the moves X <= M).
    let mut columns: Vec<Option<[Window; 2]>> = Vec::new();
    for i in (0..n).rev() {
        if i % 64 == 0 {
            limits.cancel.check()?;
        }
        let top = cap(n, m, i);
        if columns.len() < top + 1 {
            columns.resize_with(top + 1, || None);
        }
        // Along the row, the window over X in (M, 2M] (the moves to (i + X, X)).
        let mut across = [Window::new(false), Window::new(true)];
        #[allow(clippy::needless_range_loop)] // big_m is M, not only an index
        for big_m in 1..=top {
            let gain_across = |x: u32| table.gain(i + x as usize, x as usize);
            for x in [2 * big_m - 1, 2 * big_m] {
                if x > big_m {
                    let value = gain_across(x as u32);
                    for w in &mut across {
                        w.push(x as u32, value, gain_across);
                    }
                }
            }
            for w in &mut across {
                while w.queue.front().is_some_and(|&x| x as usize <= big_m) {
                    w.queue.pop_front();
                }
            }
            let gain_down = |j: u32| table.gain(j as usize, big_m);
            let column = columns[big_m].get_or_insert_with(|| {
                let mut fresh = [Window::new(false), Window::new(true)];
                for j in (i + 2..=i + big_m).rev() {
                    let value = gain_down(j as u32);
                    for w in &mut fresh {
                        w.push(j as u32, value, gain_down);
                    }
                }
                fresh
            });
            let value = gain_down((i + 1) as u32);
            for w in column.iter_mut() {
                w.push((i + 1) as u32, value, gain_down);
                while w.queue.front().is_some_and(|&j| j as usize > i + big_m) {
                    w.queue.pop_front();
                }
            }
            let best = |k: usize| {
                let down = column[k].queue.front().map(|&j| gain_down(j));
                let side = across[k].queue.front().map(|&x| gain_across(x));
                match (down, side) {
                    (Some(a), Some(b)) => {
                        if column[k].at_least(a, b) {
                            a
                        } else {
                            b
                        }
                    }
                    (Some(a), None) | (None, Some(a)) => a,
                    (None, None) => (0, 0),
                }
            };
            let short = best(0);
            let margin = short.0 - sums[i];
            let remoteness = if margin >= 0 { short.1 } else { best(1).1 };
            let at = (table.offsets[i] + big_m as u64 - 1) as usize;
            table.margin[at] = margin;
            table.remoteness[at] = u32::try_from(remoteness + 1).unwrap_or(u32::MAX);
        }
        // Columns no longer reachable above this pile are done.
        columns.truncate(m.max(i.saturating_sub(1)) + 1);
    }
    let moves_from = |i: usize, big_m: usize| -> Vec<Scored<usize>> {
        (1..=(2 * big_m).min(n - i))
            .map(|x| {
                let (margin, remoteness) = table.value(i + x, big_m.max(x));
                Scored {
                    mv: x,
                    margin: sums[i + x] - sums[i] - margin,
                    remoteness: Some(remoteness + 1),
                }
            })
            .collect()
    };
    let (margin, remoteness) = table.value(0, m);
    let mut moves = moves_from(0, m);
    let total = moves.len() as u64;
    let winning = super::best_first(&mut moves, limits.max_listed);
    let line = limits.wants_line(remoteness as usize).then(|| {
        let (mut i, mut big_m) = (0, m);
        let mut line = Vec::new();
        while i < n {
            let mut options = moves_from(i, big_m);
            super::best_first(&mut options, 1);
            let x = options[0].mv;
            line.push(x);
            i += x;
            big_m = big_m.max(x);
        }
        line
    });
    Ok(Solution {
        margin,
        remoteness: Some(remoteness),
        moves,
        moves_total: Some(total),
        winning_total: Some(winning),
        line,
    })
}

/// Stone Game II as a [`Game`] for the reference solver: (first pile left, `M`).
#[derive(Clone, Debug)]
pub struct StoneGame2(pub Vec<i64>);

impl Game for StoneGame2 {
    type Position = (usize, usize);
    type Move = usize;
    fn start(&self) -> (usize, usize) {
        (0, 1)
    }
    fn moves(&self, &(i, m): &(usize, usize)) -> Vec<usize> {
        (1..=(2 * m).min(self.0.len() - i)).collect()
    }
    fn play(&self, &(i, m): &(usize, usize), &x: &usize) -> Transition<(usize, usize)> {
        Transition::Continue {
            position: (i + x, m.max(x)),
            reward: self.0[i..i + x].iter().sum(),
        }
    }
    fn no_moves(&self, _: &(usize, usize)) -> Ending {
        Ending::Score(0)
    }
}

/// The published recurrence, memoised over (pile, `M`): O(n³), the benchmarks' baseline.
#[must_use]
pub fn margin_by_recurrence(piles: &[i64], m: usize) -> i64 {
    let n = piles.len();
    let mut suffix = vec![0i64; n + 1];
    for i in (0..n).rev() {
        suffix[i] = suffix[i + 1] + piles[i];
    }
    // best[i][M]: the most stones the mover gets from pile i with M (M up to n).
    let width = n.max(m) + 1;
    let mut best = vec![0i64; (n + 1) * (width + 1)];
    for i in (0..n).rev() {
        for big_m in 1..=width {
            let at = i * (width + 1) + big_m;
            if n - i <= 2 * big_m {
                best[at] = suffix[i];
                continue;
            }
            let mut most = i64::MIN;
            for x in 1..=2 * big_m {
                let next = (i + x) * (width + 1) + big_m.max(x).min(width);
                most = most.max(suffix[i] - best[next]);
            }
            best[at] = most;
        }
    }
    2 * best[m.min(width)] - suffix[0]
}
