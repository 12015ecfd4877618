//! Nim Game (LeetCode 292): a heap of `n` stones; a move takes 1, 2 or 3; whoever takes the
//! last stone wins. The subtraction game {1, 2, 3}.
//!
//! The theorem: the player to move loses exactly when `n` is a multiple of 4 (whatever they
//! take, the other takes the rest of 4). The loser makes it last by taking 1 each time and
//! the winner answers to the next multiple of 4: from `4k` the game lasts `2k` moves, from
//! `4k + r` one more. Any size (big integers), at once.

use super::{Scored, Solution};
use crate::{Game, Transition};
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// The position: the stones in the heap. The remoteness, when it passes 64 bits, is None
/// here and [`remoteness`] gives it whole.
#[must_use]
pub fn solve(n: &BigUint) -> Solution<u64> {
    let rest = (n % 4u32).to_u64().unwrap_or(0);
    let margin = if rest == 0 { -1 } else { 1 };
    let moves: Vec<Scored<u64>> = (1..=3u64)
        .filter(|&t| *n >= BigUint::from(t))
        .map(|t| {
            let after = n - t;
            Scored {
                mv: t,
                margin: if (&after % 4u32).to_u64() == Some(0) {
                    1
                } else {
                    -1
                },
                remoteness: remoteness(&after).to_u64().map(|r| r + 1),
            }
        })
        .collect();
    let mut moves = moves;
    let total = moves.len() as u64;
    let winning = super::best_first(&mut moves, 3);
    let whole = remoteness(n);
    let line = whole
        .to_u64()
        .filter(|&r| r as usize <= super::SHORT_LINE)
        .map(|r| {
            let mut line = Vec::with_capacity(r as usize);
            let mut left = n.to_u64().unwrap_or(0);
            while left > 0 {
                let take = if left.is_multiple_of(4) { 1 } else { left % 4 };
                line.push(take);
                left -= take;
            }
            line
        });
    Solution {
        margin,
        remoteness: whole.to_u64(),
        moves,
        moves_total: Some(total),
        winning_total: Some(winning),
        line,
    }
}

/// The remoteness of a heap of `n`: `2k` from `4k`, `2k + 1` from `4k + r`.
#[must_use]
pub fn remoteness(n: &BigUint) -> BigUint {
    let k: BigUint = n / 4u32;
    let twice = k * 2u32;
    if (n % 4u32).to_u64() == Some(0) {
        twice
    } else {
        twice + 1u32
    }
}

/// Nim Game as a [`Game`] for the reference solver.
#[derive(Clone, Copy, Debug)]
pub struct NimGame(pub u64);

impl Game for NimGame {
    type Position = u64;
    type Move = u64;
    fn start(&self) -> u64 {
        self.0
    }
    fn moves(&self, &n: &u64) -> Vec<u64> {
        (1..=3).filter(|&t| t <= n).collect()
    }
    fn play(&self, &n: &u64, &t: &u64) -> Transition<u64> {
        Transition::to(n - t)
    }
}
