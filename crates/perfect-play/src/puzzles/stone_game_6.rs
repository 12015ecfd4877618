//! Stone Game VI (LeetCode 1686): each player values every stone in their own way; a move
//! takes any stone left; each scores their own values of the stones they took; the higher
//! score wins, equal scores tie.
//!
//! The mover's margin is (the sum over the mover's stones of both values) minus (the sum of
//! the opponent's values of all stones): so both players want the stones of largest combined
//! value, and taking them in that order is perfect play. One sort: O(n log n). A move's value
//! depends only on its stone's rank in that order, through running sums of the ranks of each
//! parity; every game lasts one move a stone.

use super::{Limits, PuzzleError, Scored, Solution};
use crate::{Ending, Game, Transition};

/// The position: the mover's values of the stones left and the opponent's.
///
/// # Errors
/// Rows of different lengths, totals past 64 bits, over the memory limit, or cancelled.
pub fn solve(
    mine: &[i64],
    theirs: &[i64],
    limits: &Limits,
) -> Result<Solution<usize>, PuzzleError> {
    let n = mine.len();
    if theirs.len() != n {
        return Err(PuzzleError::BadInput(format!(
            "the two rows of values have {} and {} stones: give each player's value of every stone",
            n,
            theirs.len()
        )));
    }
    // Each row's totals, doubled: a combined value adds one of each.
    super::check_totals(mine, 2)?;
    super::check_totals(theirs, 2)?;
    limits.check_memory(
        &format!("Stone Game VI over {n} stones"),
        n as u64 * 40,
        "give fewer stones or a larger --memory-limit",
    )?;
    let mut combined = super::filled(n, 0i64, "the combined values")?;
    for i in 0..n {
        combined[i] = mine[i] + theirs[i];
    }
    let mut sorted = combined.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    limits.cancel.check()?;
    let mine_total: i64 = mine.iter().sum();
    let theirs_total: i64 = theirs.iter().sum();
    let even: i64 = sorted.iter().step_by(2).sum();
    let margin = even - theirs_total;
    // The value of taking the stone of rank p (the first of its equals): the mover's total
    // minus the opponent's share of the rest, which takes the even ranks before p and the odd
    // ones after it.
    let mut by_rank = super::filled(n, 0i64, "the moves' values")?;
    let odd_total: i64 = sorted.iter().skip(1).step_by(2).sum();
    let (mut even_before, mut odd_upto) = (0i64, 0i64);
    for p in 0..n {
        if p % 2 == 1 {
            odd_upto += sorted[p];
        }
        by_rank[p] = mine_total - even_before - (odd_total - odd_upto);
        if p % 2 == 0 {
            even_before += sorted[p];
        }
    }
    let mut moves: Vec<Scored<usize>> = Vec::new();
    moves
        .try_reserve_exact(n)
        .map_err(|_| PuzzleError::BadInput("too many stones to list".into()))?;
    for (i, c) in combined.iter().enumerate() {
        let p = sorted.partition_point(|s| s > c);
        moves.push(Scored {
            mv: i + 1,
            margin: by_rank[p],
            remoteness: Some(n as u64),
        });
    }
    limits.cancel.check()?;
    let winning = moves.iter().filter(|m| m.margin > 0).count() as u64;
    let keep = limits.max_listed.min(n);
    if keep < n && keep > 0 {
        moves.select_nth_unstable_by(keep - 1, |a, b| b.margin.cmp(&a.margin));
        moves.truncate(keep);
    }
    moves.sort_by(|a, b| b.margin.cmp(&a.margin).then(a.mv.cmp(&b.mv)));
    let line = limits.wants_line(n).then(|| line_of(&combined));
    Ok(Solution {
        margin,
        remoteness: Some(n as u64),
        moves,
        moves_total: Some(n as u64),
        winning_total: Some(winning),
        line,
    })
}

/// The stones in the order of perfect play, each named by its place (1-based) in the row as
/// it is when it is taken: a Fenwick tree counts the stones taken before it.
fn line_of(combined: &[i64]) -> Vec<usize> {
    let n = combined.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| combined[b].cmp(&combined[a]).then(a.cmp(&b)));
    let mut taken = vec![0u32; n + 1];
    let mut line = Vec::with_capacity(n);
    for i in order {
        let mut before = 0u64;
        let mut k = i;
        while k > 0 {
            before += u64::from(taken[k]);
            k &= k - 1;
        }
        line.push(i + 1 - before as usize);
        let mut k = i + 1;
        while k <= n {
            taken[k] += 1;
            k += k & k.wrapping_neg();
        }
    }
    line
}

/// Stone Game VI as a [`Game`] for the reference solver: the stones taken (a bit each) and
/// whether the first player is to move.
#[derive(Clone, Debug)]
pub struct StoneGame6 {
    /// The first player's values.
    pub first: Vec<i64>,
    /// The second player's values.
    pub second: Vec<i64>,
}

impl Game for StoneGame6 {
    type Position = (u32, bool);
    type Move = usize;
    fn start(&self) -> (u32, bool) {
        (0, true)
    }
    fn moves(&self, &(taken, _): &(u32, bool)) -> Vec<usize> {
        (0..self.first.len())
            .filter(|i| taken & (1 << i) == 0)
            .collect()
    }
    fn play(&self, &(taken, first): &(u32, bool), &i: &usize) -> Transition<(u32, bool)> {
        let reward = if first { self.first[i] } else { self.second[i] };
        Transition::Continue {
            position: (taken | 1 << i, !first),
            reward,
        }
    }
    fn no_moves(&self, _: &(u32, bool)) -> Ending {
        Ending::Score(0)
    }
}
