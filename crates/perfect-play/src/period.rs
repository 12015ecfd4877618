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

/// An arithmetic period seen in a table: `value(n + period) = value(n) + saltus` for every
/// `n` from `preperiod` while `n + period` is in the table. Observed, not proven: a table
/// says nothing about the heaps past it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ArithmeticPeriod {
    /// The first index from which the relation holds.
    pub preperiod: u64,
    /// The shortest period with which it holds.
    pub period: u64,
    /// What the values gain each period (at least 1: a saltus of 0 is a plain period).
    pub saltus: u64,
    /// The last index of the table it was checked on.
    pub checked_upto: u64,
}

/// Longest arithmetic period looked for.
pub const MAX_ARITHMETIC_PERIOD: usize = 4096;

/// The shortest arithmetic period (positive saltus) that `values` show, with its earliest
/// start, provided the table repeats it over at least half its length (preperiod plus
/// period at most half the table, and three periods at least): a shorter stretch is too
/// little evidence to report.
#[must_use]
pub fn find_arithmetic_period(values: &[u32]) -> Option<ArithmeticPeriod> {
    let len = values.len();
    for period in 1..=MAX_ARITHMETIC_PERIOD.min(len / 4) {
        let last = len - 1;
        let saltus = i64::from(values[last]) - i64::from(values[last - period]);
        if saltus <= 0 {
            continue;
        }
        // The earliest start from which the difference holds to the end, walking back.
        let mut start = last - period;
        while start > 0
            && i64::from(values[start - 1 + period]) - i64::from(values[start - 1]) == saltus
        {
            start -= 1;
        }
        if 2 * (start + period) <= len && len - start >= 3 * period {
            return Some(ArithmeticPeriod {
                preperiod: start as u64,
                period: period as u64,
                saltus: saltus as u64,
                checked_upto: last as u64,
            });
        }
    }
    None
}

/// The distinct prime factors of `n`, smallest first.
#[must_use]
pub fn prime_factors(mut n: usize) -> Vec<usize> {
    let mut factors = Vec::new();
    let mut q = 2;
    while q * q <= n {
        if n.is_multiple_of(q) {
            factors.push(q);
            while n.is_multiple_of(q) {
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

    /// The definition, directly: every period and start, shortest period first.
    fn arithmetic_by_definition(values: &[u32]) -> Option<ArithmeticPeriod> {
        let len = values.len();
        for period in 1..=MAX_ARITHMETIC_PERIOD.min(len / 4) {
            for start in 0..len - period {
                let saltus = i64::from(values[start + period]) - i64::from(values[start]);
                let holds = (start..len - period)
                    .all(|n| i64::from(values[n + period]) - i64::from(values[n]) == saltus);
                if holds {
                    if saltus > 0 && 2 * (start + period) <= len && len - start >= 3 * period {
                        return Some(ArithmeticPeriod {
                            preperiod: start as u64,
                            period: period as u64,
                            saltus: saltus as u64,
                            checked_upto: len as u64 - 1,
                        });
                    }
                    break; // later starts only shorten the evidence
                }
            }
        }
        None
    }

    #[test]
    fn arithmetic_periods_are_found_as_defined() {
        // 0.8 (take one, leave three heaps): 0 0 0 0 1 1 1 2 2 2 ..., period 3, saltus 1 from 1.
        let v: Vec<u32> = (0..60)
            .map(|n| if n == 0 { 0 } else { (n - 1) / 3 })
            .collect();
        let found = find_arithmetic_period(&v).unwrap();
        assert_eq!((found.preperiod, found.period, found.saltus), (1, 3, 1));
        assert_eq!(found.checked_upto, 59);
        // A plain period, a sequence that changes its step late, and too short a table.
        let periodic: Vec<u32> = (0..100).map(|n| n % 5).collect();
        assert_eq!(find_arithmetic_period(&periodic), None);
        let late: Vec<u32> = (0..100).map(|n| if n < 80 { n % 2 } else { n }).collect();
        assert_eq!(find_arithmetic_period(&late), None);
        assert_eq!(find_arithmetic_period(&[0, 1, 2]), None);
    }

    proptest::proptest! {
        #[test]
        fn the_fast_search_agrees_with_the_definition(
            head in proptest::collection::vec(0u32..6, 0..12),
            block in proptest::collection::vec(0u32..4, 1..6),
            saltus in 0u32..3,
            repeats in 1usize..12,
        ) {
            let mut values = head.clone();
            for r in 0..repeats as u32 {
                values.extend(block.iter().map(|&b| b + r * saltus));
            }
            proptest::prop_assert_eq!(find_arithmetic_period(&values), arithmetic_by_definition(&values));
        }
    }

    #[test]
    fn prime_factors_are_distinct() {
        assert_eq!(prime_factors(12), [2, 3]);
        assert_eq!(prime_factors(1), Vec::<usize>::new());
        assert_eq!(prime_factors(49), [7]);
        assert_eq!(prime_factors(999_983), [999_983]); // the largest prime below 10^6
        assert_eq!(prime_factors(1_999_983), [3, 379, 1759]);
    }
}
