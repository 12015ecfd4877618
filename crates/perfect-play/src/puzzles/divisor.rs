//! The Divisor Game (LeetCode 1025): a number `n` on the board; a move picks `x` with
//! `0 < x < n` dividing `n` and replaces `n` with `n - x`; a player without a move (at 1)
//! loses.
//!
//! The theorem: the player to move wins exactly when `n` is even. From an even number,
//! taking 1 leaves an odd one; every divisor of an odd number is odd, so from an odd number
//! every move leaves an even one (and 1, odd, has no move). So any size is answered at once
//! (big integers). The exact remoteness needs every number below `n` (the winner's quickest
//! odd number and the loser's slowest escape): a table up to [`REMOTENESS_UPTO`] from the
//! smallest prime factors, O(n log n).

use super::{Limits, PuzzleError, Scored, Solution};
use crate::Game;
use crate::Transition;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

/// The largest number whose remoteness is computed (a table of 8 bytes a number).
pub const REMOTENESS_UPTO: u64 = 1_000_000;

/// Numbers up to this have every divisor listed (trial division up to the square root).
pub const DIVISORS_UPTO: u64 = 1_000_000_000_000;

/// The remoteness of every number up to `n` (`n <= REMOTENESS_UPTO`), by the theorem's
/// outcome and each number's divisors.
fn remoteness_table(n: usize, limits: &Limits) -> Result<Vec<u32>, PuzzleError> {
    let mut smallest = super::filled(n + 1, 0u32, "the smallest prime factors")?;
    for p in 2..=n {
        if smallest[p] == 0 {
            for m in (p..=n).step_by(p) {
                if smallest[m] == 0 {
                    smallest[m] = p as u32;
                }
            }
        }
    }
    let mut remoteness = super::filled(n + 1, 0u32, "the remoteness")?;
    let mut divisors = Vec::new();
    for m in 2..=n {
        if m % (1 << 16) == 0 {
            limits.cancel.check()?;
        }
        divisors.clear();
        divisors.push(1usize);
        let mut rest = m;
        while rest > 1 {
            let p = smallest[rest] as usize;
            let mut power = 0;
            while rest % p == 0 {
                rest /= p;
                power += 1;
            }
            let count = divisors.len();
            let mut factor = 1;
            for _ in 0..power {
                factor *= p;
                for k in 0..count {
                    divisors.push(divisors[k] * factor);
                }
            }
        }
        let win = m % 2 == 0;
        // The winner moves to the loss of least remoteness, the loser to the win of most.
        let children = divisors
            .iter()
            .filter(|&&x| x < m)
            .map(|&x| remoteness[m - x]);
        let pick = if win {
            children
                .zip(divisors.iter().filter(|&&x| x < m))
                .filter(|&(_, &x)| (m - x) % 2 == 1)
                .map(|(r, _)| r)
                .min()
        } else {
            children.max()
        };
        remoteness[m] = pick.unwrap_or(0) + 1;
    }
    Ok(remoteness)
}

/// Every divisor of `n` below `n`, ascending (`n` up to [`DIVISORS_UPTO`]).
fn proper_divisors(n: u64) -> Vec<u64> {
    let mut low = Vec::new();
    let mut high = Vec::new();
    let mut d = 1u64;
    while d * d <= n {
        if n.is_multiple_of(d) {
            low.push(d);
            if d != n / d {
                high.push(n / d);
            }
        }
        d += 1;
    }
    low.extend(high.into_iter().rev());
    low.retain(|&d| d < n);
    low
}

/// The position: the number on the board (at least 1).
///
/// # Errors
/// 0, or cancelled.
pub fn solve(n: &BigUint, limits: &Limits) -> Result<Solution<BigUint>, PuzzleError> {
    if n.is_zero() {
        return Err(PuzzleError::BadInput(
            "the Divisor Game starts from a number of at least 1".into(),
        ));
    }
    let even = !n.bit(0);
    let margin = if even { 1 } else { -1 };
    let small = n.to_u64();
    let table = match small {
        Some(m) if m <= REMOTENESS_UPTO => Some(remoteness_table(m as usize, limits)?),
        _ => None,
    };
    let remoteness_of = |m: u64| table.as_ref().map(|t| u64::from(t[m as usize]));
    let (mut moves, total) = match small {
        Some(m) if m <= DIVISORS_UPTO => {
            let divisors = proper_divisors(m);
            let total = divisors.len() as u64;
            let moves = divisors
                .into_iter()
                .map(|x| Scored {
                    mv: BigUint::from(x),
                    margin: if (m - x) % 2 == 1 { 1 } else { -1 },
                    remoteness: remoteness_of(m - x).map(|r| r + 1),
                })
                .collect();
            (moves, Some(total))
        }
        _ if n.is_one() => (Vec::new(), Some(0)),
        // Past the divisor listing, 1 is always a move: the winning one from an even number.
        _ => (
            vec![Scored {
                mv: BigUint::one(),
                margin,
                remoteness: None,
            }],
            None,
        ),
    };
    let winning = super::best_first(&mut moves, limits.max_listed);
    let remoteness = small.and_then(remoteness_of);
    let line = match (small, &table) {
        (Some(mut m), Some(table)) if limits.wants_line(table[m as usize] as usize) => {
            let mut line = Vec::new();
            while m > 1 {
                let want_odd = m % 2 == 0;
                let options = proper_divisors(m)
                    .into_iter()
                    .filter(|x| ((m - x) % 2 == 1) == want_odd);
                let x = if want_odd {
                    options.min_by_key(|x| table[(m - x) as usize])
                } else {
                    options.max_by_key(|x| table[(m - x) as usize])
                };
                let Some(x) = x else { break };
                line.push(BigUint::from(x));
                m -= x;
            }
            Some(line)
        }
        _ => None,
    };
    Ok(Solution {
        margin,
        remoteness,
        moves,
        winning_total: total.map(|_| winning),
        moves_total: total,
        line,
    })
}

/// The Divisor Game as a [`Game`] for the reference solver.
#[derive(Clone, Copy, Debug)]
pub struct DivisorGame(pub u64);

impl Game for DivisorGame {
    type Position = u64;
    type Move = u64;
    fn start(&self) -> u64 {
        self.0
    }
    fn moves(&self, &n: &u64) -> Vec<u64> {
        (1..n).filter(|x| n % x == 0).collect()
    }
    fn play(&self, &n: &u64, &x: &u64) -> Transition<u64> {
        Transition::to(n - x)
    }
}
