//! Eventually periodic sequences: the period type every family reports.

use serde::Serialize;

/// A proven period: `value(n) = value(n + period)` for every `n >= preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Period {
    /// The first index from which the sequence repeats ("periodic from n0").
    pub preperiod: u64,
    /// The length of the repeating block (minimal).
    pub period: u64,
}

/// The distinct prime factors of `n`, smallest first.
#[must_use]
pub fn prime_factors(mut n: usize) -> Vec<usize> {
    let mut factors = Vec::new();
    let mut q = 2;
    while q * q <= n {
        if n % q == 0 {
            factors.push(q);
            while n % q == 0 {
                n /= q;
            }
        }
        q += 1;
    }
    if n > 1 {
        factors.push(n);
    }
    factors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prime_factors_are_distinct() {
        assert_eq!(prime_factors(12), [2, 3]);
        assert_eq!(prime_factors(1), Vec::<usize>::new());
        assert_eq!(prime_factors(49), [7]);
        assert_eq!(prime_factors(999_983), [999_983]); // the largest prime below 10^6
        assert_eq!(prime_factors(1_999_983), [3, 379, 1759]);
    }
}
