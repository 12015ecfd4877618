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
//!
//! The buckets are in two parts: positions near the end of the game (most of the look-ups,
//! each worth little work) in a part small enough to stay in a core's cache, the others in
//! the rest. A look-up in a large table is a cache miss: with one part of 64 MiB, nine tenths
//! of the search's time went to waiting for it.

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

/// The shared table: two parts, one for positions near the end of the game and one for the
/// others. Most look-ups are of positions near the end (the leaves of every search), and a
/// small part for them stays in the processor's cache; the positions further from the end,
/// fewer and each worth more work, keep the rest of the memory.
#[derive(Debug)]
pub struct TranspositionTable {
    /// Positions with fewer than [`NEAR_DEPTH`] moves left, when there is room for a part
    /// of their own.
    near: Option<Part>,
    far: Part,
}

/// Bytes of the near part at most: about one core's level-2 cache (1 MiB here). Measured on
/// the 200 reference positions of 7 x 6 Connect Four, one thread, a 64 MiB table: one part,
/// 3.9-4.1 s; a near part of 512 KiB 2.3-2.7 s, 1 MiB 2.3-2.4 s, 4 MiB 2.9-3.5 s
/// (BENCHMARKS.md).
pub const NEAR_BYTES: u64 = 1 << 20;

/// Positions with fewer moves left than this go to the near part (when there is one). The
/// empty 7 x 6 board with a 1000 MiB table on two threads: 16, 58.3 s; 18, 50.1 s; 20, 59.2
/// s; 24, 120 s (one part: 106 s); the reference positions: 16, 2.6 s; 18 and 20, 2.3 s.
pub const NEAR_DEPTH: u32 = 18;

impl TranspositionTable {
    /// A table within `bytes` for keys of `key_bits` bits: a near part of a quarter of it, at
    /// most [`NEAR_BYTES`], and the rest.
    ///
    /// # Errors
    /// Too little memory to tell keys apart, or a failed allocation.
    pub fn new(bytes: u64, key_bits: u32) -> Result<TranspositionTable, TableError> {
        let near_bytes = (bytes / 4).min(NEAR_BYTES);
        let least = least_buckets(key_bits) * BYTES_PER_BUCKET;
        if near_bytes < least || bytes - near_bytes < least {
            // No room for a near part whose buckets tell the keys apart: one part.
            return Ok(TranspositionTable {
                near: None,
                far: Part::new(bytes, key_bits, bytes)?,
            });
        }
        Ok(TranspositionTable {
            near: Some(Part::new(near_bytes, key_bits, bytes)?),
            far: Part::new(bytes - near_bytes, key_bits, bytes)?,
        })
    }

    /// Bytes the table holds.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.near.as_ref().map_or(0, Part::bytes) + self.far.bytes()
    }

    /// Buckets of the far part (a prime).
    #[must_use]
    pub fn buckets(&self) -> u64 {
        self.far.buckets
    }

    /// Forget every entry.
    pub fn clear(&self) {
        if let Some(near) = &self.near {
            near.clear();
        }
        self.far.clear();
    }

    fn part(&self, depth: u32) -> &Part {
        match &self.near {
            Some(near) if depth < NEAR_DEPTH => near,
            _ => &self.far,
        }
    }

    /// The bounds stored for `key`, a position `depth` moves from the end at most, if any.
    #[must_use]
    pub fn get(&self, key: u64, depth: u32) -> Option<Bounds> {
        self.part(depth).read(key).bounds()
    }

    /// Store bounds proven for `key`, `depth` moves from the end at most.
    pub fn put(&self, key: u64, depth: u32, bounds: Bounds) {
        self.part(depth).put(key, depth, bounds);
    }
}

/// One part of the table: buckets of two entries.
#[derive(Debug)]
struct Part {
    words: Vec<AtomicU64>,
    buckets: u64,
    /// Division by the bucket count by multiplication (a hardware division took a tenth of
    /// the search's time).
    divisor: StrengthReducedU64,
}

impl Part {
    /// A part within `bytes` (of a table of `table_bytes`, for the errors).
    fn new(bytes: u64, key_bits: u32, table_bytes: u64) -> Result<Part, TableError> {
        let least = least_buckets(key_bits);
        let buckets = largest_prime_at_most((bytes / BYTES_PER_BUCKET).max(2));
        if buckets < least {
            return Err(TableError::TooSmall {
                key_bits,
                buckets: least,
                needed: least * BYTES_PER_BUCKET,
                given: table_bytes,
            });
        }
        let len = usize::try_from(2 * buckets)
            .map_err(|_| TableError::Allocation { bytes: table_bytes })?;
        // Zeroed by the allocator: the system hands out zero pages as they are first
        // touched, so a large table costs nothing until it fills (writing zeros took 1.7 s
        // a GiB before any search).
        let words = bytemuck::allocation::try_zeroed_vec::<AtomicU64>(len)
            .map_err(|()| TableError::Allocation { bytes: table_bytes })?;
        Ok(Part {
            words,
            buckets,
            divisor: StrengthReducedU64::new(buckets),
        })
    }

    fn bytes(&self) -> u64 {
        self.buckets * BYTES_PER_BUCKET
    }

    fn clear(&self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
    }

    fn slot(&self, key: u64) -> (usize, u64) {
        let (quotient, remainder) = StrengthReducedU64::div_rem(key, self.divisor);
        (remainder as usize * 2, quotient)
    }

    fn read(&self, key: u64) -> Probe {
        let (bucket, check) = self.slot(key);
        Probe {
            words: [
                self.words[bucket].load(Ordering::Relaxed),
                self.words[bucket + 1].load(Ordering::Relaxed),
            ],
            check,
        }
    }

    fn put(&self, key: u64, depth: u32, bounds: Bounds) {
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

/// A bucket as read for one key.
#[derive(Clone, Copy, Debug)]
struct Probe {
    words: [u64; 2],
    check: u64,
}

impl Probe {
    /// The bounds the bucket held for the key, if any.
    fn bounds(&self) -> Option<Bounds> {
        self.words
            .iter()
            .find(|&&word| word & OCCUPIED != 0 && word & CHECK_MASK == self.check)
            .map(|&word| unpack(word))
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
    fn positions_near_the_end_have_a_small_part_of_their_own() {
        let table = TranspositionTable::new(64 << 20, 49).unwrap();
        let near = table.near.as_ref().unwrap();
        assert_eq!(near.bytes(), largest_prime_at_most(NEAR_BYTES / 16) * 16);
        assert!(table.bytes() <= 64 << 20);
        for (bytes, key_bits) in [(16 * 257, 49), (1 << 27, 64)] {
            // No room for a near part whose buckets tell the keys apart.
            let one = TranspositionTable::new(bytes, key_bits).unwrap();
            assert!(one.near.is_none());
            assert_eq!(one.bytes(), one.far.bytes());
        }
        // The same key at two depths is two positions' business: each part keeps its own.
        let both = Bounds {
            lower: -3,
            upper: 5,
        };
        table.put(12345, NEAR_DEPTH - 1, both);
        assert_eq!(table.get(12345, NEAR_DEPTH - 1), Some(both));
        assert_eq!(table.get(12345, NEAR_DEPTH), None);
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
            // Too small for a near part, and with one (positions under 16 moves left).
            bytes in prop_oneof![Just(16 * 257u64), Just(16 * 1031u64)],
        ) {
            // A tiny table: most keys collide in buckets, the check must tell them apart.
            let table = TranspositionTable::new(bytes, 49).unwrap();
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
            let depths: std::collections::HashMap<u64, u32> =
                entries.iter().map(|e| (e.0, e.1)).collect();
            for key in entries.iter().map(|e| e.0).chain(probes) {
                let depth = depths.get(&key).copied().unwrap_or(0);
                if let Some(found) = table.get(key, depth) {
                    // An entry found is this key's (perhaps an older, looser version after
                    // being pushed out and stored again, never another key's).
                    let known = truth.get(&key).copied();
                    prop_assert!(known.is_some(), "a bound for a key never stored");
                    let known = known.unwrap();
                    prop_assert!(found.lower <= known.lower && found.upper >= known.upper);
                }
            }
            // The last entry stored is always found.
            let &(key, depth, _, _) = entries.last().unwrap();
            prop_assert!(table.get(key, depth).is_some());
        }
    }
}
