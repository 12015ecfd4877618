//! The transposition table: proven score bounds of positions met before, in a fixed number
//! of 16-byte buckets sized from the memory limit, shared by every search thread.
//!
//! An entry is one 64-bit word, so that threads share the table without locks (a word is
//! read or written whole; a bucket's two words may come from different writers, and each is
//! checked on its own). The word holds the key's quotient by the bucket count (the bucket is
//! the remainder, a prime count), so the two together are the whole key: a hit is never a
//! different position. Then the position's depth (moves left) and both bounds proven for it.
//!
//! A bucket keeps two entries: the first the deepest (most moves left: the most work to
//! redo), the second the newest. A new entry for a position already there merges its bounds;
//! else it takes the first place when at least as deep (the old one moves to the second),
//! else the second.

use std::sync::atomic::{AtomicU64, Ordering};
use strength_reduce::StrengthReducedU64;
use thiserror::Error;

/// Bits of the key's quotient an entry holds.
const CHECK_BITS: u32 = 43;
const CHECK_MASK: u64 = (1 << CHECK_BITS) - 1;
const DEPTH_SHIFT: u32 = CHECK_BITS;
const LOWER_SHIFT: u32 = DEPTH_SHIFT + 6;
const UPPER_SHIFT: u32 = LOWER_SHIFT + 7;
const OCCUPIED: u64 = 1 << 63;
/// Scores are kept offset by this in 7 bits.
const SCORE_OFFSET: i32 = 64;

/// Bytes a bucket takes: two entries of eight bytes.
pub const BYTES_PER_BUCKET: u64 = 16;
/// Scores an entry can hold.
pub const SCORES: std::ops::RangeInclusive<i32> = -64..=63;
/// Depths (moves left) an entry can hold; deeper positions are stored as this deep.
pub const MAX_DEPTH: u32 = 63;

/// A table that cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    /// The memory given holds too few buckets for keys this long to be stored whole.
    #[error(
        "a transposition table for {key_bits}-bit keys needs at least {needed} bytes ({buckets} buckets of {BYTES_PER_BUCKET} bytes), more than the {given} bytes given: raise --memory-limit"
    )]
    TooSmall {
        /// Bits in the game's keys.
        key_bits: u32,
        /// Buckets needed.
        buckets: u64,
        /// Bytes needed.
        needed: u64,
        /// Bytes given.
        given: u64,
    },
    /// The allocation failed.
    #[error(
        "could not allocate a transposition table of {bytes} bytes: lower --memory-limit or free memory"
    )]
    Allocation {
        /// Bytes asked for.
        bytes: u64,
    },
}

/// Proven bounds of a position's score: `lower <= score <= upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The lowest the score can be.
    pub lower: i32,
    /// The highest the score can be.
    pub upper: i32,
}

/// The shared table.
#[derive(Debug)]
pub struct TranspositionTable {
    words: Vec<AtomicU64>,
    buckets: u64,
    /// Division by the bucket count by multiplication (a hardware division took a tenth of
    /// the search's time).
    divisor: StrengthReducedU64,
}

impl TranspositionTable {
    /// A table within `bytes` for keys of `key_bits` bits.
    ///
    /// # Errors
    /// Too little memory to tell keys apart, or a failed allocation.
    pub fn new(bytes: u64, key_bits: u32) -> Result<TranspositionTable, TableError> {
        let least = least_buckets(key_bits);
        let buckets = largest_prime_at_most((bytes / BYTES_PER_BUCKET).max(2));
        if buckets < least {
            return Err(TableError::TooSmall {
                key_bits,
                buckets: least,
                needed: least * BYTES_PER_BUCKET,
                given: bytes,
            });
        }
        let len = usize::try_from(2 * buckets).map_err(|_| TableError::Allocation { bytes })?;
        // Zeroed by the allocator: the system hands out zero pages as they are first
        // touched, so a large table costs nothing until it fills (writing zeros took 1.7 s
        // a GiB before any search).
        let words = bytemuck::allocation::try_zeroed_vec::<AtomicU64>(len)
            .map_err(|()| TableError::Allocation { bytes })?;
        Ok(TranspositionTable {
            words,
            buckets,
            divisor: StrengthReducedU64::new(buckets),
        })
    }

    /// Bytes the table holds.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.buckets * BYTES_PER_BUCKET
    }

    /// Buckets (a prime).
    #[must_use]
    pub fn buckets(&self) -> u64 {
        self.buckets
    }

    /// Forget every entry.
    pub fn clear(&self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
    }

    fn slot(&self, key: u64) -> (usize, u64) {
        let (quotient, remainder) = StrengthReducedU64::div_rem(key, self.divisor);
        (remainder as usize * 2, quotient)
    }

    /// The bounds stored for `key`, if any.
    #[must_use]
    pub fn get(&self, key: u64) -> Option<Bounds> {
        let (bucket, check) = self.slot(key);
        self.words[bucket..bucket + 2].iter().find_map(|word| {
            let word = word.load(Ordering::Relaxed);
            (word & OCCUPIED != 0 && word & CHECK_MASK == check).then(|| unpack(word))
        })
    }

    /// Store bounds proven for `key`, `depth` moves from the end at most.
    pub fn put(&self, key: u64, depth: u32, bounds: Bounds) {
        let (bucket, check) = self.slot(key);
        let depth = depth.min(MAX_DEPTH);
        let [deep, newest] = [&self.words[bucket], &self.words[bucket + 1]];
        for slot in [deep, newest] {
            let word = slot.load(Ordering::Relaxed);
            if word & OCCUPIED != 0 && word & CHECK_MASK == check {
                let old = unpack(word);
                let merged = Bounds {
                    lower: old.lower.max(bounds.lower),
                    upper: old.upper.min(bounds.upper),
                };
                slot.store(pack(check, depth, merged), Ordering::Relaxed);
                return;
            }
        }
        let word = pack(check, depth, bounds);
        let first = deep.load(Ordering::Relaxed);
        if first & OCCUPIED == 0 || depth >= depth_of(first) {
            if first & OCCUPIED != 0 {
                newest.store(first, Ordering::Relaxed);
            }
            deep.store(word, Ordering::Relaxed);
        } else {
            newest.store(word, Ordering::Relaxed);
        }
    }
}

/// Buckets needed so that the quotient fits an entry's check bits.
fn least_buckets(key_bits: u32) -> u64 {
    if key_bits <= CHECK_BITS {
        2
    } else {
        (1u64 << (key_bits - CHECK_BITS)) + 1
    }
}

fn depth_of(word: u64) -> u32 {
    ((word >> DEPTH_SHIFT) & 63) as u32
}

fn pack(check: u64, depth: u32, bounds: Bounds) -> u64 {
    let lower = (bounds.lower + SCORE_OFFSET) as u64 & 127;
    let upper = (bounds.upper + SCORE_OFFSET) as u64 & 127;
    OCCUPIED | check | u64::from(depth) << DEPTH_SHIFT | lower << LOWER_SHIFT | upper << UPPER_SHIFT
}

fn unpack(word: u64) -> Bounds {
    Bounds {
        lower: ((word >> LOWER_SHIFT) & 127) as i32 - SCORE_OFFSET,
        upper: ((word >> UPPER_SHIFT) & 127) as i32 - SCORE_OFFSET,
    }
}

/// The largest prime at most `n` (n >= 2): bucket counts are prime so that keys with a
/// common stride still spread.
fn largest_prime_at_most(n: u64) -> u64 {
    (2..=n).rev().find(|&c| is_prime(c)).unwrap_or(2)
}

fn is_prime(n: u64) -> bool {
    if n < 4 {
        return n >= 2;
    }
    if n.is_multiple_of(2) {
        return false;
    }
    let mut d = 3;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 2;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn bucket_counts_are_prime() {
        assert_eq!(largest_prime_at_most(100), 97);
        assert_eq!(largest_prime_at_most(2), 2);
        let table = TranspositionTable::new(1 << 20, 49).unwrap();
        assert!(is_prime(table.buckets()));
        assert!(table.bytes() <= 1 << 20);
    }

    #[test]
    fn too_little_memory_for_long_keys_is_refused() {
        assert!(matches!(
            TranspositionTable::new(1 << 10, 64),
            Err(TableError::TooSmall { .. })
        ));
        assert!(TranspositionTable::new(1 << 27, 64).is_ok());
    }

    proptest! {
        #[test]
        fn what_is_stored_is_found_and_never_for_another_key(
            entries in proptest::collection::vec((0u64..1 << 49, 0u32..64, -64i32..=63, -64i32..=63), 1..200),
            probes in proptest::collection::vec(0u64..1 << 49, 0..50),
        ) {
            // A tiny table: most keys collide in buckets, the check must tell them apart.
            let table = TranspositionTable::new(16 * 257, 49).unwrap();
            let mut truth = std::collections::HashMap::new();
            for &(key, depth, a, b) in &entries {
                let bounds = Bounds { lower: a.min(b), upper: a.max(b) };
                table.put(key, depth, bounds);
                let merged = truth.get(&key).map_or(bounds, |old: &Bounds| Bounds {
                    lower: old.lower.max(bounds.lower),
                    upper: old.upper.min(bounds.upper),
                });
                truth.insert(key, merged);
            }
            for key in entries.iter().map(|e| e.0).chain(probes) {
                if let Some(found) = table.get(key) {
                    // An entry found is this key's (perhaps an older, looser version after
                    // being pushed out and stored again, never another key's).
                    let known = truth.get(&key).copied();
                    prop_assert!(known.is_some(), "a bound for a key never stored");
                    let known = known.unwrap();
                    prop_assert!(found.lower <= known.lower && found.upper >= known.upper);
                }
            }
            // The last entry stored is always found.
            let &(key, _, _, _) = entries.last().unwrap();
            prop_assert!(table.get(key).is_some());
        }
    }
}
