//! Proven periods of sequences whose next value depends only on the previous `t` values.
//!
//! If the `t` values starting at `n0` equal the `t` values starting at `n0 + p`, every later value
//! repeats with period `p`: each value is the same function of the same `t` predecessors. So the
//! window of `t` values is the state of a deterministic iteration, and Brent's cycle detection
//! finds its minimal cycle (the period) and its tail (the preperiod) while keeping only two
//! windows' fingerprints. Windows are compared by a rolling hash and confirmed value by value,
//! so a hash collision can never produce a wrong period.

use crate::period::prime_factors;
use serde::Serialize;

pub use crate::period::Period;

/// The evidence: the windows `[first, first + length)` and `[second, second + length)` are equal,
/// and `length` is the largest move, so the sequence repeats from `first` with period
/// `second - first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Proof {
    /// Start of the first window (the preperiod).
    pub first: u64,
    /// Start of the matching window (preperiod + period).
    pub second: u64,
    /// Window length: the largest move.
    pub length: u64,
}

/// The search went past its limit of values without proving a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoPeriodWithin(pub u64);

const BASE: u64 = 0x9E37_79B9_7F4A_7C15 | 1;
/// About one window in 32 is a distinguished point whose fingerprint is remembered (judged by
/// the top bits: the low bits of a multiplicative hash of small values mix poorly).
const DISTINGUISHED_SHIFT: u32 = 59;

/// A sequence that can be extended on demand.
pub trait Values {
    /// Make at least `len` values available.
    ///
    /// # Errors
    /// [`NoPeriodWithin`] when `len` is past the sequence's limit.
    fn ensure(&mut self, len: usize) -> Result<(), NoPeriodWithin>;
    /// The values computed so far.
    fn values(&self) -> &[u8];
}

fn fingerprint(values: &[u8]) -> u64 {
    values.iter().fold(0u64, |h, &v| {
        h.wrapping_mul(BASE).wrapping_add(u64::from(v))
    })
}

/// Find the minimal period and preperiod of a sequence whose every value from index `window`
/// on is determined by the `window` values before it.
///
/// Two detectors run over the windows in one pass. Distinguished points: the fingerprints of
/// about one window in 32 are remembered, and the first window seen again is a state on the
/// cycle met exactly one period later, so a long cycle costs about `preperiod + period` values.
/// Brent's teleporting tortoise guarantees the end for short cycles that have no distinguished
/// window. Every match is confirmed value by value.
///
/// # Errors
/// [`NoPeriodWithin`] when the sequence refuses to grow before a period is proven.
pub fn find_period(window: usize, seq: &mut dyn Values) -> Result<(Period, Proof), NoPeriodWithin> {
    let top = BASE.wrapping_pow(window as u32 - 1);
    let roll = |h: u64, out: u8, incoming: u8| {
        h.wrapping_sub(u64::from(out).wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(u64::from(incoming))
    };
    let same = |v: &[u8], a: usize, b: usize| v[a..a + window] == v[b..b + window];

    seq.ensure(window + 1)?;
    let mut hash = fingerprint(&seq.values()[..window]);
    let mut seen: rustc_hash::FxHashMap<u64, usize> = rustc_hash::FxHashMap::default();
    let (mut tortoise, mut tortoise_hash) = (0usize, hash);
    let (mut power, mut distance) = (1usize, 0usize);
    let mut pos = 0usize;
    let cycle = loop {
        if pos > 0 && hash == tortoise_hash && same(seq.values(), tortoise, pos) {
            break distance;
        }
        if hash >> DISTINGUISHED_SHIFT == 0 {
            match seen.get(&hash) {
                Some(&earlier) if same(seq.values(), earlier, pos) => break pos - earlier,
                Some(_) => {}
                None => {
                    seen.insert(hash, pos);
                }
            }
        }
        if distance == power {
            (tortoise, tortoise_hash) = (pos, hash);
            power *= 2;
            distance = 0;
        }
        if seq.values().len() <= pos + window {
            let len = seq.values().len();
            seq.ensure(len + (len / 8).max(256))
                .or_else(|_| seq.ensure(pos + window + 1))?;
        }
        let v = seq.values();
        hash = roll(hash, v[pos], v[pos + window]);
        pos += 1;
        distance += 1;
    };
    // The tail: the first window equal to the one a period later.
    seq.ensure(cycle + window + 1)?;
    let mut first = 0usize;
    let mut lead = fingerprint(&seq.values()[..window]);
    let mut follow = fingerprint(&seq.values()[cycle..cycle + window]);
    while !(lead == follow && same(seq.values(), first, first + cycle)) {
        seq.ensure(first + cycle + window + 1)?;
        let v = seq.values();
        lead = roll(lead, v[first], v[first + window]);
        follow = roll(follow, v[first + cycle], v[first + cycle + window]);
        first += 1;
    }
    Ok((
        Period {
            preperiod: first as u64,
            period: cycle as u64,
        },
        Proof {
            first: first as u64,
            second: (first + cycle) as u64,
            length: window as u64,
        },
    ))
}

/// The minimal period of `project(values)`, given that `values` repeat with `period`.
///
/// A projection's period divides the values' period `c`, and from the values' preperiod on one
/// full cycle decides it. The valid periods are the multiples of the minimal one that divide
/// `c`, so dividing `c` by each prime factor while the shorter period still holds ends exactly
/// at the minimal period. Before the preperiod, the start is walked back value by value.
/// `values` must hold at least `preperiod + period` entries.
pub fn projected_period(values: &[u8], period: Period, project: impl Fn(u8) -> bool) -> Period {
    let (start, cycle) = (period.preperiod as usize, period.period as usize);
    let projected: Vec<bool> = values[..start + cycle]
        .iter()
        .map(|&v| project(v))
        .collect();
    let one_cycle = &projected[start..];
    // `d` is a period of the cyclic sequence when rotating it by `d` changes nothing.
    let holds = |d: usize| {
        one_cycle[..cycle - d] == one_cycle[d..] && one_cycle[cycle - d..] == one_cycle[..d]
    };
    let mut d = cycle;
    for q in prime_factors(cycle) {
        while d % q == 0 && holds(d / q) {
            d /= q;
        }
    }
    let at = |n: usize| projected[if n < start + cycle { n } else { n - cycle }];
    let mut first = start;
    while first > 0 && at(first - 1) == at(first - 1 + d) {
        first -= 1;
    }
    Period {
        preperiod: first as u64,
        period: d as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Vec<u8>);
    impl Values for Fixed {
        fn ensure(&mut self, len: usize) -> Result<(), NoPeriodWithin> {
            if len <= self.0.len() {
                Ok(())
            } else {
                Err(NoPeriodWithin(self.0.len() as u64))
            }
        }
        fn values(&self) -> &[u8] {
            &self.0
        }
    }

    fn period_of(values: &[u8], window: usize) -> Option<Period> {
        find_period(window, &mut Fixed(values.to_vec()))
            .ok()
            .map(|(p, _)| p)
    }

    #[test]
    fn finds_minimal_period_and_preperiod() {
        let mut v = vec![5, 4, 3];
        for _ in 0..20 {
            v.extend([0, 1, 1, 2]);
        }
        assert_eq!(
            period_of(&v, 2),
            Some(Period {
                preperiod: 3,
                period: 4
            })
        );
        assert_eq!(
            period_of(&[0, 1, 0, 1, 0, 1, 0, 1], 1),
            Some(Period {
                preperiod: 0,
                period: 2
            })
        );
        // Constant sequence: period 1.
        assert_eq!(
            period_of(&[7; 10], 3),
            Some(Period {
                preperiod: 0,
                period: 1
            })
        );
    }

    #[test]
    fn projection_finds_a_proper_divisor_period() {
        // Values with period 12 whose parity alternates (period 2), while "above 2" needs all 12.
        let cycle = [1, 2, 3, 4, 5, 6, 3, 4, 1, 2, 7, 8];
        let v: Vec<u8> = cycle.iter().cycle().take(24).copied().collect();
        let p = Period {
            preperiod: 0,
            period: 12,
        };
        assert_eq!(
            projected_period(&v, p, |x| x % 2 == 1),
            Period {
                preperiod: 0,
                period: 2
            }
        );
        assert_eq!(
            projected_period(&v, p, |x| x > 2),
            Period {
                preperiod: 0,
                period: 12
            }
        );
    }

    #[test]
    fn projection_period_divides_and_walks_back() {
        // Values 3 1 | 2 1 2 1 ... project to odd/even: 1 1 | 0 1 0 1.
        let v = [3, 1, 2, 1, 2, 1, 2, 1];
        let p = Period {
            preperiod: 2,
            period: 2,
        };
        assert_eq!(
            projected_period(&v, p, |x| x % 2 == 1),
            Period {
                preperiod: 1,
                period: 2
            }
        );
        // Values 1 2 3 repeating project to "non-zero": constant, period 1 from 0.
        let v = [1, 2, 3, 1, 2, 3];
        let p = Period {
            preperiod: 0,
            period: 3,
        };
        assert_eq!(
            projected_period(&v, p, |x| x != 0),
            Period {
                preperiod: 0,
                period: 1
            }
        );
    }

    #[test]
    fn reports_the_limit_when_no_period_fits() {
        let v: Vec<u8> = (0..50).collect();
        assert_eq!(period_of(&v, 3), None);
    }
}
