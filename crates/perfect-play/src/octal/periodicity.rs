//! Proven periods of octal Grundy sequences, by the Guy-Smith bound: if
//! `g(n + p) = g(n)` for every `n0 <= n < 2 n0 + p + t` (`t` the largest number of tokens a move
//! removes), then for every `n >= n0`. For hexadecimal codes, whose moves may leave three
//! heaps, the same argument pairs each split with the one whose largest part (at least a third
//! of the rest) is `p` longer, which needs the check up to `3 n0 + 2p + t`.
//!
//! Candidates come from repeated windows of recent values, by two detectors: distinguished
//! points (the fingerprints of about one window in 16 are remembered, one in 1,024 past heap
//! 2^24 so that they stay a small part of a long run's memory, which finds a long period
//! about one period after it starts) and a Brent-style checkpoint (the fingerprint at
//! the last power of two, which finds short periods whose few windows may all be
//! undistinguished). Each candidate `p` is then checked
//! against every new value, its `n0` is the heap after the last mismatch, and it is proven once
//! the values reach `2 n0 + 2p + t - 1`. A proven period is then shortened by each prime factor
//! while a full cycle allows it, so the period reported is the minimal one.

use super::table::ValueTable;
use crate::period::Period;
use rustc_hash::FxHashMap;

/// Window length for candidate detection.
const WINDOW: usize = 32;
const BASE: u64 = 0x9E37_79B9_7F4A_7C15 | 1;
/// Distinguished windows: fingerprints whose top 4 bits are zero, and past
/// [`SPARSE_FROM`] those whose top 10 bits are (a subset, so a window matched in either era
/// was remembered in its own).
const DISTINGUISHED_SHIFT: u32 = 60;
const SPARSE_SHIFT: u32 = 54;
const SPARSE_FROM: usize = 1 << 24;

struct Candidate {
    period: usize,
    preperiod: usize,
}

/// Watches a growing sequence for a proven period.
pub struct PeriodTracker {
    largest_removal: usize,
    /// 2, or 3 when a move may leave three heaps: the factor on `n0 + p` in the proof bound.
    parts: usize,
    hash: u64,
    top: u64,
    seen: FxHashMap<u64, usize>,
    candidates: Vec<Candidate>,
    /// Position and fingerprint of the window saved at the last power of two.
    checkpoint: (usize, u64),
}

impl PeriodTracker {
    /// A tracker for a game whose moves remove at most `largest_removal` tokens and leave at
    /// most `most_parts` heaps.
    #[must_use]
    pub fn new(largest_removal: usize, most_parts: usize) -> PeriodTracker {
        PeriodTracker {
            largest_removal,
            parts: most_parts.max(2),
            hash: 0,
            top: BASE.wrapping_pow(WINDOW as u32 - 1),
            seen: FxHashMap::default(),
            candidates: Vec::new(),
            checkpoint: (0, 0),
        }
    }

    /// Look at the newest value (`values.last()`); return a period once one is proven.
    pub fn push(&mut self, values: &ValueTable) -> Option<Period> {
        let n = values.len() - 1;
        if n >= WINDOW {
            self.hash = self
                .hash
                .wrapping_sub(u64::from(values.at(n - WINDOW)).wrapping_mul(self.top));
        }
        let newest = values.at(n);
        self.hash = self.hash.wrapping_mul(BASE).wrapping_add(u64::from(newest));
        // Every candidate must hold at the new value.
        self.candidates
            .retain(|c| newest == values.at(n - c.period));
        if n + 1 >= WINDOW {
            let shift = if n < SPARSE_FROM {
                DISTINGUISHED_SHIFT
            } else {
                SPARSE_SHIFT
            };
            if self.hash >> shift == 0 {
                if let Some(&earlier) = self.seen.get(&self.hash) {
                    self.consider(values, earlier);
                }
                self.seen.insert(self.hash, n);
            }
            let (at, hash) = self.checkpoint;
            if at > 0 && hash == self.hash {
                self.consider(values, at);
            }
            if n.is_power_of_two() {
                self.checkpoint = (n, self.hash);
            }
        }
        let t = self.largest_removal;
        let proven = self
            .candidates
            .iter()
            .find(|c| n + 1 >= self.parts * (c.preperiod + c.period) + t)?;
        Some(minimal(values, proven.preperiod, proven.period))
    }
}

impl PeriodTracker {
    /// The window ending at `earlier` has the fingerprint of the newest one: if their values
    /// agree, track the shift between them as a candidate period.
    fn consider(&mut self, values: &ValueTable, earlier: usize) {
        let n = values.len() - 1;
        let period = n - earlier;
        let same = (0..WINDOW).all(|i| values.at(n - i) == values.at(earlier - i));
        // A multiple of a live candidate's period adds nothing the candidate will not prove,
        // and once the values repeat, the checkpoint matches again every period: each match a
        // new multiple, each walked back to the preperiod (0.354 past 2^24: 2,900 walks of
        // 6.7 million values, where the run to its proof takes seconds).
        if same
            && !self
                .candidates
                .iter()
                .any(|c| period.is_multiple_of(c.period))
        {
            // n0: the heap after the last place where the shift by `period` fails.
            let mut start = n - period;
            while start > 0 && values.at(start - 1) == values.at(start - 1 + period) {
                start -= 1;
            }
            self.candidates.push(Candidate {
                period,
                preperiod: start,
            });
        }
    }
}

/// Shorten a proven period by its prime factors while one full cycle allows it.
fn minimal(values: &ValueTable, preperiod: usize, full: usize) -> Period {
    // The values repeat with `full` from `preperiod`, so one cycle decides any divisor.
    let holds = |d: usize| (preperiod..preperiod + full).all(|n| values.at(n) == values.at(n + d));
    let mut period = full;
    for q in crate::period::prime_factors(period) {
        while period.is_multiple_of(q) && holds(period / q) {
            period /= q;
        }
    }
    Period {
        preperiod: preperiod as u64,
        period: period as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Once the values repeat, the window at the last power of two matches again every period;
    /// those matches are multiples of the live candidate and must not pile up as candidates
    /// (each was walked back to the preperiod, which made 0.354's proof take 86 s, not 11 s).
    #[test]
    fn multiples_of_a_live_candidate_are_not_added() {
        let (preperiod, period) = (5_000usize, 37usize);
        let mut values = ValueTable::wide();
        let mut tracker = PeriodTracker::new(3, 2);
        let mut most = 0;
        let mut proven = None;
        for n in 0..20_000usize {
            // Distinct values before the preperiod, so no shift holds there.
            let v = if n < preperiod {
                (n % 4_000 + 100) as u16
            } else {
                ((n - preperiod) % period) as u16
            };
            values.push(v);
            proven = proven.or(tracker.push(&values));
            most = most.max(tracker.candidates.len());
        }
        let p = proven.expect("proven by 2 (n0 + p) + t");
        assert_eq!((p.preperiod, p.period), (preperiod as u64, period as u64));
        assert!(most <= 2, "{most} candidates at once");
    }
}
