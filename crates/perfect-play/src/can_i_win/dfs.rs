//! Memoised depth-first search from the start position, for pools the bit table cannot hold
//! or targets where few positions are reachable.

use super::pool::{Pool, bits};
use crate::budget::Cancel;
use rustc_hash::FxHashMap;

/// Bytes one bucket of the memo takes: a `u64` key and a byte value padded to 16, plus the
/// hash table's control byte.
const BUCKET_BYTES: u64 = 17;

/// Peak bytes a hash map of `entries` small entries takes while it grows: the table holds at
/// most 7/8 of its power-of-two buckets, and while it doubles the old and the new table are
/// both alive (three times the old one).
#[must_use]
pub fn map_peak_bytes(entries: u64) -> u64 {
    let buckets = (entries.saturating_mul(8) / 7).max(4).next_power_of_two();
    // The last doubling that reached `buckets` had `buckets / 2` before it.
    (buckets / 2 + buckets).saturating_mul(BUCKET_BYTES)
}

/// Most entries whose map stays within `bytes` at its peak.
#[must_use]
pub fn entries_within(bytes: u64) -> u64 {
    // The peak for a power-of-two table is 1.5 * buckets * BUCKET_BYTES; it holds 7/8 of them.
    let mut buckets = 4u64;
    while (buckets * 2 + buckets).saturating_mul(BUCKET_BYTES) <= bytes && buckets < (1 << 62) {
        buckets *= 2;
    }
    buckets / 8 * 7
}

/// Memoised search over sets of available numbers.
pub struct Dfs<'a> {
    pool: &'a Pool,
    target: i128,
    misere: bool,
    memo: FxHashMap<u64, bool>,
    limit: usize,
    cancel: Cancel,
}

/// The search needed more memo entries than its memory budget allows, or was cancelled (the
/// caller tells which from its flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget;

impl<'a> Dfs<'a> {
    /// A search that stops with [`OverBudget`] beyond `limit` memo entries.
    #[must_use]
    pub fn new(pool: &'a Pool, target: i128, misere: bool, limit: usize) -> Dfs<'a> {
        Dfs {
            pool,
            target,
            misere,
            memo: FxHashMap::default(),
            limit,
            cancel: Cancel::new(),
        }
    }

    /// This search, stopping with [`OverBudget`] too once `cancel` is raised (looked at every
    /// 4,096 positions solved).
    #[must_use]
    pub fn with_cancel(self, cancel: Cancel) -> Dfs<'a> {
        Dfs { cancel, ..self }
    }

    /// Positions solved so far.
    #[must_use]
    pub fn states(&self) -> u64 {
        self.memo.len() as u64
    }

    /// Whether the player to move wins with `available` left (the need is derived from it).
    ///
    /// # Errors
    /// [`OverBudget`] when the memo would exceed its limit.
    pub fn wins(&mut self, available: u64) -> Result<bool, OverBudget> {
        let need = self.target - (self.pool.sum() - self.pool.sum_of(available));
        if need <= 0 {
            // The previous player reached the target.
            return Ok(self.misere);
        }
        self.search(available, need)
    }

    fn search(&mut self, available: u64, need: i128) -> Result<bool, OverBudget> {
        if available == 0 {
            return Ok(false); // nothing left to pick and the target not reached: no win
        }
        let largest = 63 - available.leading_zeros() as usize;
        if !self.misere && i128::from(self.pool.value(largest)) >= need {
            return Ok(true);
        }
        if let Some(&known) = self.memo.get(&available) {
            return Ok(known);
        }
        if self.memo.len() >= self.limit
            || (self.memo.len().is_multiple_of(4096) && self.cancel.is_cancelled())
        {
            return Err(OverBudget);
        }
        let mut won = false;
        // Largest first: in normal play big picks end games sooner.
        let mut order: Vec<usize> = bits(available).collect();
        order.reverse();
        for i in order {
            let v = i128::from(self.pool.value(i));
            if v >= need {
                continue; // misère: reaching the target loses
            }
            if !self.search(available & !(1 << i), need - v)? {
                won = true;
                break;
            }
        }
        self.memo.insert(available, won);
        Ok(won)
    }
}
