//! The pool of numbers players pick from, and the query's validation.

use super::CanIWinError;

/// The largest pool the tool accepts: a set of available numbers is one `u64` mask.
pub const MAX_POOL: usize = 64;

/// A set of distinct positive integers to pick from, kept in increasing order.
///
/// Bit `i` of a mask stands for the `i`-th smallest number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    values: Vec<u64>,
}

impl Pool {
    /// The seed's pool `1..=max`.
    ///
    /// # Errors
    /// `max` must be between 1 and [`MAX_POOL`].
    pub fn up_to(max: u32) -> Result<Pool, CanIWinError> {
        if max == 0 {
            return Err(CanIWinError::EmptyPool);
        }
        Pool::new((1..=u64::from(max)).collect())
    }

    /// Any set of distinct positive integers (given in any order).
    ///
    /// # Errors
    /// The pool must be non-empty, hold at most [`MAX_POOL`] numbers, all positive and distinct.
    pub fn new(mut values: Vec<u64>) -> Result<Pool, CanIWinError> {
        if values.is_empty() {
            return Err(CanIWinError::EmptyPool);
        }
        if values.len() > MAX_POOL {
            return Err(CanIWinError::PoolTooLarge(values.len()));
        }
        if values.contains(&0) {
            return Err(CanIWinError::ZeroInPool);
        }
        values.sort_unstable();
        if let Some(w) = values.windows(2).find(|w| w[0] == w[1]) {
            return Err(CanIWinError::Repeated(w[0]));
        }
        Ok(Pool { values })
    }

    /// The numbers, smallest first.
    #[must_use]
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// How many numbers there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Always false: a pool is never empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The sum of all numbers (cannot overflow: at most 64 numbers below 2^64).
    #[must_use]
    pub fn sum(&self) -> i128 {
        self.values.iter().map(|&v| i128::from(v)).sum()
    }

    /// The mask with every number available.
    #[must_use]
    pub fn full_mask(&self) -> u64 {
        if self.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.len()) - 1
        }
    }

    /// The sum of the numbers in `mask`.
    #[must_use]
    pub fn sum_of(&self, mask: u64) -> i128 {
        bits(mask).map(|i| i128::from(self.values[i])).sum()
    }

    /// The `index`-th smallest number.
    #[must_use]
    pub fn value(&self, index: usize) -> u64 {
        self.values[index]
    }

    /// The position of `value` in the pool, if it is there.
    #[must_use]
    pub fn index_of(&self, value: u64) -> Option<usize> {
        self.values.binary_search(&value).ok()
    }

    /// How many subsets have a sum below `limit`, counted up to `cap` (returns `cap` when there
    /// are at least that many). These are the positions a depth-first search may visit.
    #[must_use]
    pub fn subsets_with_sum_below(&self, limit: i128, cap: u64) -> u64 {
        if limit <= 0 {
            return 0;
        }
        // Pseudo-polynomial count when the limit is small, else a pruned enumeration.
        if let Ok(limit) = usize::try_from(limit)
            && limit.saturating_mul(self.len()) <= 50_000_000
        {
            let mut ways = vec![0u64; limit];
            ways[0] = 1;
            for &v in &self.values {
                let Ok(v) = usize::try_from(v) else { continue };
                for s in (v..limit).rev() {
                    ways[s] = ways[s].saturating_add(ways[s - v]);
                }
            }
            return ways.iter().fold(0u64, |a, &w| a.saturating_add(w)).min(cap);
        }
        let mut count = 0u64;
        count_below(&self.values, 0, limit, cap, &mut count);
        count
    }
}

fn count_below(values: &[u64], start_sum: i128, limit: i128, cap: u64, count: &mut u64) {
    // Every call stands for one subset (the one built so far), whose sum is below the limit.
    *count += 1;
    for (i, &v) in values.iter().enumerate() {
        if *count >= cap {
            return;
        }
        let sum = start_sum + i128::from(v);
        if sum >= limit {
            return; // values are sorted: every later one is larger
        }
        count_below(&values[i + 1..], sum, limit, cap, count);
    }
}

/// The indices of the set bits of `mask`, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}
