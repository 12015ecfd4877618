//! The seed's sets `{1, x, y}` with `64 <= x < y`, 64 piles at a time.
//!
//! Values are 0..=3, kept in two bit-planes. For a pile `n >= y` every move fits and
//! `g(n) = mex{g(n-1), a, b}` with `a = g(n-x)`, `b = g(n-y)`, both from earlier words. With
//! `m0 = mex{a, b}` and `m1` the next value missing from `{a, b}`, `g(n)` is `m1` exactly when
//! `g(n-1) = m0`, so `s(n) = [g(n) = m1]` obeys `s(n) = V(n) xor (K(n) and s(n-1))`, where
//! `V(n) = [m0(n-1) = m0(n)]` and `K(n) = V(n) xor [m1(n-1) = m0(n)]`: a prefix XOR within
//! runs of `K`, six shifts per word.
//!
//! Periods: the state is the window of `y` values. Fingerprints of the windows starting every
//! 32 piles (distinguished ones remembered, plus a Brent checkpoint for short cycles) find a
//! repeat within `lcm(period, 32)` piles of the cycle's start; the distance, a
//! multiple of the period, is reduced by its prime factors, and the preperiod is the end of the
//! last mismatch between the values and themselves one period later, found a word at a time.

use super::{Rule, SubtractionSet, next_value};
use crate::period::{Period, prime_factors};
use rustc_hash::FxHashMap;

/// Whether the fast path applies: moves `{1, x, y}` with `64 <= x < y`.
#[must_use]
pub fn applies(set: &SubtractionSet) -> bool {
    matches!(set.moves(), [1, x, y] if *x >= 64 && x < y)
}

/// Values in two bit-planes: bit `n % 64` of word `n / 64` of `low` / `high`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Planes {
    low: Vec<u64>,
    high: Vec<u64>,
}

impl Planes {
    /// The value of pile `n` (which must be stored).
    #[must_use]
    pub fn get(&self, n: usize) -> u8 {
        let (w, b) = (n / 64, n % 64);
        ((self.low[w] >> b & 1) | (self.high[w] >> b & 1) << 1) as u8
    }

    /// How many values are stored.
    #[must_use]
    pub fn len(&self) -> usize {
        self.low.len() * 64
    }

    /// Whether nothing is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.low.is_empty()
    }

    /// The 64 bits of `plane` starting at bit `start` (any alignment).
    fn bits(plane: &[u64], start: usize) -> u64 {
        let (w, b) = (start / 64, start % 64);
        if b == 0 {
            plane[w]
        } else {
            plane[w] >> b | plane[w + 1] << (64 - b)
        }
    }

    fn truncate_words(&mut self, words: usize) {
        self.low.truncate(words);
        self.high.truncate(words);
        self.low.shrink_to_fit();
        self.high.shrink_to_fit();
    }
}

/// Compute word `w` (piles `64w..64w+64`, all at least `y`) from the words before it.
fn next_word(p: &mut Planes, w: usize, x: usize, y: usize) {
    let start = 64 * w;
    let (a0, a1) = (
        Planes::bits(&p.low, start - x),
        Planes::bits(&p.high, start - x),
    );
    let (b0, b1) = (
        Planes::bits(&p.low, start - y),
        Planes::bits(&p.high, start - y),
    );
    // present_v: v is a or b.
    let eq = |l: u64, h: u64, v: u8| {
        let l = if v & 1 == 1 { l } else { !l };
        let h = if v & 2 == 2 { h } else { !h };
        l & h
    };
    let p0 = eq(a0, a1, 0) | eq(b0, b1, 0);
    let p1 = eq(a0, a1, 1) | eq(b0, b1, 1);
    let p2 = eq(a0, a1, 2) | eq(b0, b1, 2);
    // m0 = mex{a, b} in {0, 1, 2}; m1 = the next missing value in {1, 2, 3}.
    let m0_lo = p0 & !p1;
    let m0_hi = p0 & p1;
    let m1_lo = (!p0 & !p1) | (!p0 & p1 & p2) | (p0 & !p1 & p2) | (p0 & p1);
    let m1_hi = p0 | p1;
    // The same quantities one pile earlier: shift in the previous word's top pile.
    let prev = start - 1;
    let g_prev = p.get(prev);
    // For the first pile of the word, "m0(n-1) = m0(n)" and "m1(n-1) = m0(n)" are replaced by
    // the exact test on g(n-1) below, so the shifted-in bits only need to be consistent.
    let sh = |v: u64| v << 1;
    let v_eq = !((sh(m0_lo) ^ m0_lo) | (sh(m0_hi) ^ m0_hi)); // m0(n-1) == m0(n)
    let u_eq = !((sh(m1_lo) ^ m0_lo) | (sh(m1_hi) ^ m0_hi)); // m1(n-1) == m0(n)
    let mut v = v_eq;
    let mut k = v_eq ^ u_eq;
    // Pile 64w: s = [g(n-1) == m0(n)] exactly, and it starts a segment.
    let m0_first = (m0_lo & 1) as u8 | ((m0_hi & 1) as u8) << 1;
    v = (v & !1) | u64::from(g_prev == m0_first);
    k &= !1;
    // Segmented prefix XOR: s_i = v_i xor (k_i and s_{i-1}).
    let mut d = 1;
    while d < 64 {
        v ^= (v << d) & k;
        k &= k << d;
        d <<= 1;
    }
    let s = v;
    p.low.push((m0_lo & !s) | (m1_lo & s));
    p.high.push((m0_hi & !s) | (m1_hi & s));
}

/// The values and their proven period, or `None` past `limit` piles.
#[must_use]
pub fn compute(set: &SubtractionSet, rule: Rule, limit: usize) -> Option<(Planes, Period)> {
    let [1, x, y] = *set.moves() else { return None };
    let (x, y) = (x as usize, y as usize);
    let mut planes = Planes::default();
    // The first words by the definition (they include every pile below y).
    let first_words = y / 64 + 1;
    let mut bytes: Vec<u8> = Vec::with_capacity(first_words * 64);
    for n in 0..first_words * 64 {
        let v = next_value(set, rule, &bytes, n as u64);
        bytes.push(v);
    }
    for chunk in bytes.chunks_exact(64) {
        let (mut lo, mut hi) = (0u64, 0u64);
        for (i, &v) in chunk.iter().enumerate() {
            lo |= u64::from(v & 1) << i;
            hi |= u64::from(v >> 1) << i;
        }
        planes.low.push(lo);
        planes.high.push(hi);
    }
    drop(bytes);

    // Fingerprints of the window of y values starting every 32 piles: a repeat then shows
    // within lcm(period, 32) piles of the first, at 2 rolling hashes a word. Fewer offsets cost
    // less over a long preperiod and more after it (measured, {1, 4818, 524052} with a
    // preperiod of 57M / {1, 999983, 10^6} with a period of 2M: 8 offsets 37 / 27 ms, 4 offsets
    // 52 / 26 ms, 2 offsets 43 / 33 ms).
    const OFFSETS: usize = 2;
    const BASE: u64 = 0x9E37_79B9_7F4A_7C15 | 1;
    // The fingerprint covers the window's whole words (64 * full <= y piles); a match is
    // confirmed on all y values, so the last partial word need not be hashed.
    let full = y / 64;
    let top = BASE.wrapping_pow(full.saturating_sub(1) as u32);
    // Each word is mixed so that its high bits reach the low ones: a multiplication alone
    // carries a difference only upwards, and windows differing in a word's top bits collided.
    let mix = |p: &Planes, at: usize| spread(Planes::bits(&p.low, at), Planes::bits(&p.high, at));
    // The mixed window words, kept until they leave the window: slot (j % full) * OFFSETS + r
    // holds the word starting at pile 64 j + 32 r.
    let mut ring = vec![0u64; full * OFFSETS];
    let mut seen: FxHashMap<u64, usize> = FxHashMap::default();
    seen.reserve(1 << 16);
    let mut rolling = [0u64; OFFSETS];
    let mut checkpoint: (usize, u64) = (usize::MAX, 0); // Brent: the window at a power of two
    let mut k = 0usize; // window start word
    let (earlier, at) = 'detect: loop {
        while planes.low.len() <= k + full + 1 {
            let w = planes.low.len();
            if w * 64 >= limit {
                return None;
            }
            next_word(&mut planes, w, x, y);
        }
        for (r, hash) in rolling.iter_mut().enumerate() {
            let start = 64 * k + 32 * r;
            *hash = if k == 0 {
                (0..full).fold(0u64, |h, j| {
                    let m = mix(&planes, start + 64 * j);
                    ring[j * OFFSETS + r] = m;
                    h.wrapping_mul(BASE).wrapping_add(m)
                })
            } else {
                // The word that leaves started at 64 (k - 1) + 32 r; the one that enters at
                // 64 (k - 1 + full) + 32 r, in the same slot.
                let slot = ((k - 1) % full) * OFFSETS + r;
                let entering = mix(&planes, start + 64 * (full - 1));
                let leaving = std::mem::replace(&mut ring[slot], entering);
                hash.wrapping_sub(leaving.wrapping_mul(top))
                    .wrapping_mul(BASE)
                    .wrapping_add(entering)
            };
            let fingerprint = *hash;
            if r == 0 {
                if checkpoint.1 == fingerprint && same_window(&planes, checkpoint.0, start, y) {
                    break 'detect (checkpoint.0, start);
                }
                if k.is_power_of_two() {
                    checkpoint = (start, fingerprint);
                }
            }
            if fingerprint >> 58 == 0 {
                match seen.get(&fingerprint) {
                    Some(&before) if same_window(&planes, before, start, y) => {
                        break 'detect (before, start);
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(fingerprint, start);
                    }
                }
            }
        }
        k += 1;
    };
    let period_multiple = at - earlier;
    // The window at `earlier` repeats `period_multiple` later: reduce to the minimal period.
    let mut period = period_multiple;
    for q in prime_factors(period_multiple) {
        while period % q == 0 && same_window(&planes, earlier, earlier + period / q, y) {
            period /= q;
        }
    }
    // Preperiod: the first pile after the last place where g(n) != g(n + period). The values
    // repeat from the window's start, so every mismatch lies before it.
    let preperiod = last_mismatch(&planes, earlier, period).map_or(0, |n| n + 1);
    // Two periods past the preperiod, so that shifted comparisons stay within the store.
    let stored_words = (preperiod + 2 * period).div_ceil(64) + 1;
    while planes.low.len() < stored_words {
        let w = planes.low.len();
        next_word(&mut planes, w, x, y);
    }
    planes.truncate_words(stored_words);
    Some((
        planes,
        Period {
            preperiod: preperiod as u64,
            period: period as u64,
        },
    ))
}

/// The proven period of the win/loss pattern (value non-zero), from the values' period.
#[must_use]
pub fn outcome_period(p: &Planes, period: Period) -> Period {
    let wins = Planes {
        low: p.low.iter().zip(&p.high).map(|(l, h)| l | h).collect(),
        high: vec![0; p.low.len()],
    };
    let (start, cycle) = (period.preperiod as usize, period.period as usize);
    let mut d = cycle;
    for q in prime_factors(cycle) {
        while d % q == 0 && same_window(&wins, start, start + d / q, cycle) {
            d /= q;
        }
    }
    let first = last_mismatch(&wins, start, d).map_or(0, |n| n + 1);
    Period {
        preperiod: first as u64,
        period: d as u64,
    }
}

/// One window word (both planes) mixed so that every bit reaches the low bits.
#[inline]
fn spread(low: u64, high: u64) -> u64 {
    let x = low ^ high.wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(29);
    let x = (x ^ x >> 32).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ x >> 29
}

/// Whether the `len` values from `a` equal those from `b` (both stored).
fn same_window(p: &Planes, a: usize, b: usize, len: usize) -> bool {
    let mut i = 0;
    while i + 64 <= len {
        if Planes::bits(&p.low, a + i) != Planes::bits(&p.low, b + i)
            || Planes::bits(&p.high, a + i) != Planes::bits(&p.high, b + i)
        {
            return false;
        }
        i += 64;
    }
    (i..len).all(|j| p.get(a + j) == p.get(b + j))
}

/// The largest `n < end` with `g(n) != g(n + period)`, a word at a time.
fn last_mismatch(p: &Planes, end: usize, period: usize) -> Option<usize> {
    let mut start = end;
    while start > 0 {
        let from = start.saturating_sub(64);
        let count = start - from;
        let mask = if count == 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        };
        let diff = ((Planes::bits(&p.low, from) ^ Planes::bits(&p.low, from + period))
            | (Planes::bits(&p.high, from) ^ Planes::bits(&p.high, from + period)))
            & mask;
        if diff != 0 {
            return Some(from + 63 - diff.leading_zeros() as usize);
        }
        start = from;
    }
    None
}
