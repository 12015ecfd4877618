//! Stone Game IX (LeetCode 2029): stones with values; a move removes any stone; the player
//! whose removal makes the sum of the removed stones divisible by 3 loses; when every stone
//! is gone without that, the second player (Bob) wins, whoever is to move.
//!
//! Only residues matter. Once the removed sum is 1 or 2 (mod 3), the safe moves are the
//! stones of residue 0 (which keep it) and those of the sum's own residue (which turn 1 into 2
//! and 2 into 1), so the safe residues alternate in one forced chain and the zeros fit in
//! anywhere: the number of safe moves left is the chain's length plus the zeros, whatever the
//! order. The player then to move loses by force if stones are left, else the second player
//! wins. So every position is decided by counting residues: O(n), with its exact remoteness;
//! at the start (nothing removed) the first removal chooses the chain.

use super::{Limits, PuzzleError, Scored, Solution};
use crate::{Ending, Game, Transition};

/// A position by its residues: the stones left of residue 0, 1 and 2, the removed sum mod 3
/// (0: nothing removed yet), and whether the second player (Bob) is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Stones of residue 0, 1, 2.
    pub left: [u64; 3],
    /// The removed sum mod 3.
    pub removed: u8,
    /// The second player is to move.
    pub second_to_move: bool,
}

impl Counts {
    /// The counts of `stones` with `removed` and the side to move.
    #[must_use]
    pub fn of(stones: &[i64], removed: u8, second_to_move: bool) -> Counts {
        let mut left = [0u64; 3];
        for s in stones {
            left[s.rem_euclid(3) as usize] += 1;
        }
        Counts {
            left,
            removed: removed % 3,
            second_to_move,
        }
    }

    /// The position after removing a stone of `residue`, or None when that removal loses
    /// at once (the removed sum divisible by 3).
    #[must_use]
    pub fn after(self, residue: usize) -> Option<Counts> {
        let removed = (usize::from(self.removed) + residue) % 3;
        if removed == 0 {
            return None;
        }
        let mut left = self.left;
        left[residue] -= 1;
        Some(Counts {
            left,
            removed: removed as u8,
            second_to_move: !self.second_to_move,
        })
    }

    /// The value for the player to move: margin `+1`/`-1` and remoteness.
    #[must_use]
    pub fn value(self) -> (i64, u64) {
        let [zeros, ones, twos] = self.left;
        let stones = zeros + ones + twos;
        let second_wins = if self.second_to_move { 1 } else { -1 };
        if stones == 0 {
            return (second_wins, 0);
        }
        if self.removed == 0 {
            return (0..3)
                .filter(|&r| self.left[r] > 0)
                .map(|r| self.move_value(r))
                .max_by(|a, b| super::preference(*a, *b))
                .unwrap_or((second_wins, 0));
        }
        let (same, other) = if self.removed == 1 {
            (ones, twos)
        } else {
            (twos, ones)
        };
        let chain = if same > other {
            2 * other + 1
        } else {
            2 * same
        };
        let safe = chain + zeros;
        if stones > safe {
            // The player to move after the safe moves must lose.
            let mover_stuck = safe % 2 == 0;
            (if mover_stuck { -1 } else { 1 }, safe + 1)
        } else {
            (second_wins, safe)
        }
    }

    /// The value of removing a stone of `residue` for the player who does.
    #[must_use]
    pub fn move_value(self, residue: usize) -> (i64, u64) {
        match self.after(residue) {
            None => (-1, 1),
            Some(next) => {
                let (margin, remoteness) = next.value();
                (-margin, remoteness + 1)
            }
        }
    }
}

/// The position: the stones left, the removed sum mod 3 and the side to move. Moves are
/// named by a stone's value (one move per distinct value, the first such stone taken).
///
/// # Errors
/// Never for valid counts; cancelled on request.
pub fn solve(
    stones: &[i64],
    removed: u8,
    second_to_move: bool,
    limits: &Limits,
) -> Result<Solution<i64>, PuzzleError> {
    let counts = Counts::of(stones, removed, second_to_move);
    limits.cancel.check()?;
    let (margin, remoteness) = counts.value();
    let mut distinct: Vec<i64> = stones.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let total = distinct.len() as u64;
    let mut moves: Vec<Scored<i64>> = distinct
        .iter()
        .map(|&v| {
            let (margin, remoteness) = counts.move_value(v.rem_euclid(3) as usize);
            Scored {
                mv: v,
                margin,
                remoteness: Some(remoteness),
            }
        })
        .collect();
    let winning = super::best_first(&mut moves, limits.max_listed);
    let line = limits.wants_line(remoteness as usize).then(|| {
        let mut left = stones.to_vec();
        let mut now = counts;
        let mut line = Vec::new();
        while !left.is_empty() {
            let best = (0..3)
                .filter(|&r| now.left[r] > 0)
                .max_by(|&a, &b| super::preference(now.move_value(a), now.move_value(b)));
            let Some(residue) = best else { break };
            let at = left
                .iter()
                .position(|s| s.rem_euclid(3) as usize == residue)
                .unwrap_or(0);
            line.push(left.remove(at));
            match now.after(residue) {
                Some(next) => now = next,
                None => break,
            }
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

/// Stone Game IX as a [`Game`] for the reference solver: the stones left (sorted), the
/// removed sum mod 3 and the side to move, the rules as stated (no residues).
#[derive(Clone, Debug)]
pub struct StoneGame9(pub Vec<i64>);

impl Game for StoneGame9 {
    type Position = (Vec<i64>, i64, bool);
    type Move = usize;
    fn start(&self) -> (Vec<i64>, i64, bool) {
        let mut stones = self.0.clone();
        stones.sort_unstable();
        (stones, 0, false)
    }
    fn moves(&self, (stones, _, _): &(Vec<i64>, i64, bool)) -> Vec<usize> {
        (0..stones.len()).collect()
    }
    fn play(
        &self,
        (stones, removed, second): &(Vec<i64>, i64, bool),
        &i: &usize,
    ) -> Transition<(Vec<i64>, i64, bool)> {
        let sum = (removed + stones[i]).rem_euclid(3);
        if sum == 0 {
            return Transition::End(Ending::Loss);
        }
        let mut rest = stones.clone();
        rest.remove(i);
        Transition::to((rest, sum, !second))
    }
    fn no_moves(&self, (_, _, second): &(Vec<i64>, i64, bool)) -> Ending {
        if *second { Ending::Win } else { Ending::Loss }
    }
}
