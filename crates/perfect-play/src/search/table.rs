//! The transposition table: proven score bounds of positions met before, in a fixed number
//! of 16-byte buckets sized from the memory limit, shared by every search thread.
//!
//! An entry is one word, so that threads share the table without locks (a word is read or
//! written whole; a bucket's two words may come from different writers, and each is checked
//! on its own): 64 bits for keys of up to 64 bits, 128 for longer ones (boards past 64
//! bits). The word holds the key's quotient by the bucket count (the bucket is the
//! remainder, a prime count), so the two together are the whole key: a hit is never a
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
use strength_reduce::{StrengthReducedU64, StrengthReducedU128};
use thiserror::Error;

/// Bits of an entry's data, below the key's quotient: the depth plus one (6 bits; 0: an
/// empty entry) and both bounds (7 bits each, offset by [`SCORE_OFFSET`]). Twenty bits leave
/// 108 of a 128-bit entry to the quotient, so that the 128-bit keys of the widest boards fit
/// a table of 32 MiB.
const DATA_BITS: u32 = 20;
const DATA_MASK: u64 = (1 << DATA_BITS) - 1;
const DEPTH_MASK: u64 = 63;
const LOWER_SHIFT: u32 = 6;
const UPPER_SHIFT: u32 = LOWER_SHIFT + 7;
/// Scores are kept offset by this in 7 bits.
const SCORE_OFFSET: i32 = 64;

/// Bytes a bucket takes for keys of up to 64 bits: two entries of eight bytes.
pub const BYTES_PER_BUCKET: u64 = 16;
/// Bytes a bucket takes for longer keys (boards past 64 bits): two entries of sixteen.
pub const BYTES_PER_WIDE_BUCKET: u64 = 32;
/// Scores an entry can hold.
pub const SCORES: std::ops::RangeInclusive<i32> = -64..=63;
/// Depths (moves left) an entry can hold; deeper positions are stored as this deep.
pub const MAX_DEPTH: u32 = 62;

/// A table that cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    /// The memory given holds too few buckets for keys this long to be stored whole.
    #[error(
        "a transposition table for {key_bits}-bit keys needs at least {needed} bytes ({buckets} buckets of {bucket_bytes} bytes), more than the {given} bytes given: raise --memory-limit"
    )]
    TooSmall {
        /// Bits in the game's keys.
        key_bits: u32,
        /// Buckets needed.
        buckets: u64,
        /// Bytes a bucket takes.
        bucket_bytes: u64,
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
///
/// Keys of up to 64 bits (every board of Connect Four up to 7 x 7, 8 x 6 ...) go in entries
/// of one 64-bit word; longer keys in entries of 128 bits, read and written whole.
#[derive(Debug)]
pub struct TranspositionTable {
    parts: Parts,
}

#[derive(Debug)]
enum Parts {
    Narrow(Halves<u64>),
    Wide(Halves<u128>),
}

/// Positions with fewer than [`NEAR_DEPTH`] moves left in `near`, when there is room for a
/// part of their own; the others in `far`.
#[derive(Debug)]
struct Halves<W: Word> {
    near: Option<Part<W>>,
    far: Part<W>,
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
    /// A table within `bytes` for keys of `key_bits` bits (at most 128): a near part of a
    /// quarter of it, at most [`NEAR_BYTES`], and the rest.
    ///
    /// # Errors
    /// Too little memory to tell keys apart, or a failed allocation.
    pub fn new(bytes: u64, key_bits: u32) -> Result<TranspositionTable, TableError> {
        let parts = if key_bits <= u64::BITS {
            Parts::Narrow(Halves::new(bytes, key_bits)?)
        } else {
            Parts::Wide(Halves::new(bytes, key_bits)?)
        };
        Ok(TranspositionTable { parts })
    }

    /// Bytes the table holds.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        match &self.parts {
            Parts::Narrow(halves) => halves.bytes(),
            Parts::Wide(halves) => halves.bytes(),
        }
    }

    /// Buckets of the far part (a prime).
    #[must_use]
    pub fn buckets(&self) -> u64 {
        match &self.parts {
            Parts::Narrow(halves) => halves.far.buckets,
            Parts::Wide(halves) => halves.far.buckets,
        }
    }

    /// Forget every entry.
    pub fn clear(&self) {
        match &self.parts {
            Parts::Narrow(halves) => halves.clear(),
            Parts::Wide(halves) => halves.clear(),
        }
    }

    /// The bounds stored for `key`, a position `depth` moves from the end at most, if any.
    #[inline]
    #[must_use]
    pub fn get(&self, key: u128, depth: u32) -> Option<Bounds> {
        match &self.parts {
            Parts::Narrow(halves) => halves.part(depth).read(key).bounds(),
            Parts::Wide(halves) => halves.get(key, depth),
        }
    }

    /// Store bounds proven for `key`, `depth` moves from the end at most.
    #[inline]
    pub fn put(&self, key: u128, depth: u32, bounds: Bounds) {
        match &self.parts {
            Parts::Narrow(halves) => halves.part(depth).put(key, depth, bounds),
            Parts::Wide(halves) => halves.put(key, depth, bounds),
        }
    }
}

impl Halves<u128> {
    // Out of line: inlined into the table's get and put, the 128-bit path's registers cost
    // the 64-bit path a prologue of six pushes a call (7% more instructions on 7 x 6).
    #[inline(never)]
    fn get(&self, key: u128, depth: u32) -> Option<Bounds> {
        self.part(depth).read(key).bounds()
    }

    #[inline(never)]
    fn put(&self, key: u128, depth: u32, bounds: Bounds) {
        self.part(depth).put(key, depth, bounds);
    }
}

impl<W: Word> Halves<W> {
    fn new(bytes: u64, key_bits: u32) -> Result<Halves<W>, TableError> {
        let near_bytes = (bytes / 4).min(NEAR_BYTES);
        let least = least_buckets::<W>(key_bits) * W::BUCKET_BYTES;
        if near_bytes < least || bytes - near_bytes < least {
            // No room for a near part whose buckets tell the keys apart: one part.
            return Ok(Halves {
                near: None,
                far: Part::new(bytes, key_bits, bytes)?,
            });
        }
        Ok(Halves {
            near: Some(Part::new(near_bytes, key_bits, bytes)?),
            far: Part::new(bytes - near_bytes, key_bits, bytes)?,
        })
    }

    fn bytes(&self) -> u64 {
        self.near.as_ref().map_or(0, Part::bytes) + self.far.bytes()
    }

    fn clear(&self) {
        if let Some(near) = &self.near {
            near.clear();
        }
        self.far.clear();
    }

    #[inline]
    fn part(&self, depth: u32) -> &Part<W> {
        match &self.near {
            Some(near) if depth < NEAR_DEPTH => near,
            _ => &self.far,
        }
    }
}

/// An entry's word: the key's quotient by the bucket count above [`DATA_BITS`] bits of
/// data. `u64` for keys of up to 64 bits, `u128` for longer ones.
trait Word: Copy + Eq + std::fmt::Debug {
    /// The word shared between threads, read and written whole.
    type Atomic: Send + Sync + std::fmt::Debug;
    /// Division by the bucket count by multiplication (a hardware division took a tenth of
    /// the search's time).
    type Divisor: Copy + std::fmt::Debug + Send + Sync;
    /// An empty entry.
    const ZERO: Self;
    /// Bits of the key's quotient an entry holds.
    const CHECK_BITS: u32;
    /// Bytes of a bucket of two entries.
    const BUCKET_BYTES: u64;
    fn divisor(buckets: u64) -> Self::Divisor;
    /// The key's quotient and remainder (its bucket) by the bucket count.
    fn split(key: u128, divisor: Self::Divisor) -> (Self, usize);
    /// `len` words of zero.
    fn zeroed(len: usize) -> Option<Vec<Self::Atomic>>;
    fn load(atomic: &Self::Atomic) -> Self;
    fn store(atomic: &Self::Atomic, word: Self);
    fn entry(check: Self, data: u64) -> Self;
    fn data(self) -> u64;
    fn check(self) -> Self;
}

/// Bytes of the smallest page the system maps (the table's pages are touched one word each).
const PAGE_BYTES: usize = 4096;

impl Word for u64 {
    type Atomic = AtomicU64;
    type Divisor = StrengthReducedU64;
    const ZERO: u64 = 0;
    const CHECK_BITS: u32 = u64::BITS - DATA_BITS;
    const BUCKET_BYTES: u64 = BYTES_PER_BUCKET;
    fn divisor(buckets: u64) -> StrengthReducedU64 {
        StrengthReducedU64::new(buckets)
    }
    #[inline]
    fn split(key: u128, divisor: StrengthReducedU64) -> (u64, usize) {
        // Keys of this table fit 64 bits (TranspositionTable::new).
        let (quotient, remainder) = StrengthReducedU64::div_rem(key as u64, divisor);
        (quotient, remainder as usize)
    }
    fn zeroed(len: usize) -> Option<Vec<AtomicU64>> {
        // Zeroed by the allocator (writing every zero took 1.7 s a GiB), then one word of
        // each page written here, in order, on one thread. Left to the search, two threads
        // faulting the pages in at random spent 5 s a GiB in the kernel on this machine (one
        // thread 0.9 s; a thread touching them beside the search, 2-3 s): this takes about
        // 0.45 s a GiB up front, 0.03 s for the default 64 MiB (BENCHMARKS.md).
        let words = bytemuck::allocation::try_zeroed_vec::<AtomicU64>(len).ok()?;
        for word in words
            .iter()
            .step_by(PAGE_BYTES / std::mem::size_of::<AtomicU64>())
        {
            word.store(0, Ordering::Relaxed);
        }
        Some(words)
    }
    #[inline]
    fn load(atomic: &AtomicU64) -> u64 {
        atomic.load(Ordering::Relaxed)
    }
    #[inline]
    fn store(atomic: &AtomicU64, word: u64) {
        atomic.store(word, Ordering::Relaxed);
    }
    #[inline]
    fn entry(check: u64, data: u64) -> u64 {
        check << DATA_BITS | data
    }
    #[inline]
    fn data(self) -> u64 {
        self & DATA_MASK
    }
    #[inline]
    fn check(self) -> u64 {
        self >> DATA_BITS
    }
}

impl Word for u128 {
    type Atomic = portable_atomic::AtomicU128;
    type Divisor = StrengthReducedU128;
    const ZERO: u128 = 0;
    const CHECK_BITS: u32 = u128::BITS - DATA_BITS;
    const BUCKET_BYTES: u64 = BYTES_PER_WIDE_BUCKET;
    fn divisor(buckets: u64) -> StrengthReducedU128 {
        StrengthReducedU128::new(u128::from(buckets))
    }
    #[inline]
    fn split(key: u128, divisor: StrengthReducedU128) -> (u128, usize) {
        let (quotient, remainder) = StrengthReducedU128::div_rem(key, divisor);
        (quotient, remainder as usize)
    }
    fn zeroed(len: usize) -> Option<Vec<portable_atomic::AtomicU128>> {
        // Written with zeros as it is made (no zeroed allocation of this type without
        // unsafe code): about 1.7 s a GiB, paid by boards past 64 bits only.
        let mut words = Vec::new();
        words.try_reserve_exact(len).ok()?;
        words.resize_with(len, || portable_atomic::AtomicU128::new(0));
        Some(words)
    }
    #[inline]
    fn load(atomic: &portable_atomic::AtomicU128) -> u128 {
        atomic.load(Ordering::Relaxed)
    }
    #[inline]
    fn store(atomic: &portable_atomic::AtomicU128, word: u128) {
        atomic.store(word, Ordering::Relaxed);
    }
    #[inline]
    fn entry(check: u128, data: u64) -> u128 {
        check << DATA_BITS | u128::from(data)
    }
    #[inline]
    fn data(self) -> u64 {
        (self as u64) & DATA_MASK
    }
    #[inline]
    fn check(self) -> u128 {
        self >> DATA_BITS
    }
}

/// One part of the table: buckets of two entries.
#[derive(Debug)]
struct Part<W: Word> {
    words: Vec<W::Atomic>,
    buckets: u64,
    divisor: W::Divisor,
}

impl<W: Word> Part<W> {
    /// A part within `bytes` (of a table of `table_bytes`, for the errors).
    fn new(bytes: u64, key_bits: u32, table_bytes: u64) -> Result<Part<W>, TableError> {
        let least = least_buckets::<W>(key_bits);
        let buckets = largest_prime_at_most((bytes / W::BUCKET_BYTES).max(2));
        if buckets < least {
            return Err(TableError::TooSmall {
                key_bits,
                buckets: least,
                bucket_bytes: W::BUCKET_BYTES,
                needed: least * W::BUCKET_BYTES,
                given: table_bytes,
            });
        }
        let len = usize::try_from(2 * buckets)
            .map_err(|_| TableError::Allocation { bytes: table_bytes })?;
        let words = W::zeroed(len).ok_or(TableError::Allocation { bytes: table_bytes })?;
        Ok(Part {
            words,
            buckets,
            divisor: W::divisor(buckets),
        })
    }

    fn bytes(&self) -> u64 {
        self.buckets * W::BUCKET_BYTES
    }

    fn clear(&self) {
        for word in &self.words {
            W::store(word, W::ZERO);
        }
    }

    #[inline]
    fn slot(&self, key: u128) -> (usize, W) {
        let (quotient, remainder) = W::split(key, self.divisor);
        (remainder * 2, quotient)
    }

    #[inline]
    fn read(&self, key: u128) -> Probe<W> {
        let (bucket, check) = self.slot(key);
        Probe {
            words: [
                W::load(&self.words[bucket]),
                W::load(&self.words[bucket + 1]),
            ],
            check,
        }
    }

    fn put(&self, key: u128, depth: u32, bounds: Bounds) {
        let (bucket, check) = self.slot(key);
        let depth = depth.min(MAX_DEPTH);
        let [deep, newest] = [&self.words[bucket], &self.words[bucket + 1]];
        for slot in [deep, newest] {
            let word = W::load(slot);
            if occupied(word.data()) && word.check() == check {
                let old = unpack(word.data());
                let merged = Bounds {
                    lower: old.lower.max(bounds.lower),
                    upper: old.upper.min(bounds.upper),
                };
                W::store(slot, W::entry(check, pack(depth, merged)));
                return;
            }
        }
        let word = W::entry(check, pack(depth, bounds));
        let first = W::load(deep);
        if !occupied(first.data()) || depth >= depth_of(first.data()) {
            if occupied(first.data()) {
                W::store(newest, first);
            }
            W::store(deep, word);
        } else {
            W::store(newest, word);
        }
    }
}

/// A bucket as read for one key.
#[derive(Clone, Copy, Debug)]
struct Probe<W: Word> {
    words: [W; 2],
    check: W,
}

impl<W: Word> Probe<W> {
    /// The bounds the bucket held for the key, if any.
    #[inline]
    fn bounds(&self) -> Option<Bounds> {
        self.words
            .iter()
            .find(|&&word| occupied(word.data()) && word.check() == self.check)
            .map(|&word| unpack(word.data()))
    }
}

/// Buckets needed so that the quotient fits an entry's check bits.
fn least_buckets<W: Word>(key_bits: u32) -> u64 {
    if key_bits <= W::CHECK_BITS {
        2
    } else {
        (1u64 << (key_bits - W::CHECK_BITS)) + 1
    }
}

/// Whether an entry's data is a position's (an empty entry's depth field is 0).
#[inline]
fn occupied(data: u64) -> bool {
    data & DEPTH_MASK != 0
}

fn depth_of(data: u64) -> u32 {
    (data & DEPTH_MASK) as u32 - 1
}

/// An entry's data: the depth (at most [`MAX_DEPTH`]) plus one, and the bounds.
fn pack(depth: u32, bounds: Bounds) -> u64 {
    let lower = (bounds.lower + SCORE_OFFSET) as u64 & 127;
    let upper = (bounds.upper + SCORE_OFFSET) as u64 & 127;
    u64::from(depth + 1) | lower << LOWER_SHIFT | upper << UPPER_SHIFT
}

fn unpack(data: u64) -> Bounds {
    Bounds {
        lower: ((data >> LOWER_SHIFT) & 127) as i32 - SCORE_OFFSET,
        upper: ((data >> UPPER_SHIFT) & 127) as i32 - SCORE_OFFSET,
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
        let Parts::Narrow(halves) = &table.parts else {
            panic!("49-bit keys in one word")
        };
        let near = halves.near.as_ref().unwrap();
        assert_eq!(near.bytes(), largest_prime_at_most(NEAR_BYTES / 16) * 16);
        assert!(table.bytes() <= 64 << 20);
        for (bytes, key_bits) in [(16 * 8209, 56), (1 << 27, 64)] {
            // No room for a near part whose buckets tell the keys apart.
            let one = TranspositionTable::new(bytes, key_bits).unwrap();
            let Parts::Narrow(halves) = &one.parts else {
                panic!("keys of 64 bits at most in one word")
            };
            assert!(halves.near.is_none());
            assert_eq!(one.bytes(), halves.far.bytes());
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
            // 49-bit keys (7 x 6) in one word; 110-bit keys (a board past 64 bits) in two.
            key_bits in prop_oneof![Just(49u32), Just(110u32)],
            entries in proptest::collection::vec((any::<u128>(), 0u32..64, -64i32..=63, -64i32..=63), 1..200),
            probes in proptest::collection::vec(any::<u128>(), 0..50),
            // Too small for a near part, and with one (positions under 16 moves left).
            buckets in prop_oneof![Just(257u64), Just(1031u64)],
        ) {
            let key_mask = (1u128 << key_bits) - 1;
            let entries: Vec<_> = entries.iter().map(|&(k, d, a, b)| (k & key_mask, d, a, b)).collect();
            let probes = probes.iter().map(|k| k & key_mask);
            let bucket_bytes = if key_bits <= 64 { BYTES_PER_BUCKET } else { BYTES_PER_WIDE_BUCKET };
            // A tiny table: most keys collide in buckets, the check must tell them apart.
            let table = TranspositionTable::new(bucket_bytes * buckets, key_bits).unwrap();
            prop_assert_eq!(matches!(table.parts, Parts::Wide(_)), key_bits > 64);
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
            let depths: std::collections::HashMap<u128, u32> =
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

    #[test]
    fn keys_of_128_bits_need_a_table_whose_buckets_leave_the_rest_to_an_entry() {
        let refused = TranspositionTable::new(16 << 20, 128).unwrap_err();
        assert!(
            matches!(refused, TableError::TooSmall { bucket_bytes: 32, buckets, .. } if buckets == (1 << 20) + 1),
            "{refused:?}"
        );
        // The search's default table (64 MiB) holds them.
        let table = TranspositionTable::new(64 << 20, 128).unwrap();
        let key = u128::MAX - 12345;
        let bounds = Bounds {
            lower: -2,
            upper: 7,
        };
        table.put(key, 40, bounds);
        assert_eq!(table.get(key, 40), Some(bounds));
        assert_eq!(table.get(key - 1, 40), None);
        assert_eq!(table.get(key ^ 1 << 127, 40), None);
    }
}
