//! The seed's sets `{1, x, y}` (and `{1, y}`) with `y >= 64`: 64 piles a word, in memory
//! `O(y + period)` however long the preperiod.
//!
//! Values are 0..=3, kept in two bit-planes. For a pile `n` the moves of `x` and `y` read
//! `a = g(n-x)` and `b = g(n-y)`. With `m0 = mex{a, b}` and `m1` the next value missing from
//! `{a, b}`, `g(n)` is `m1` exactly when `g(n-1) = m0`, so `s(n) = [g(n) = m1]` obeys
//! `s(n) = V(n) xor (K(n) and s(n-1))`, where `V(n) = [m0(n-1) = m0(n)]` and
//! `K(n) = V(n) xor [m1(n-1) = m0(n)]`: a prefix XOR within runs of `K`, six shifts per word.
//! When `x < 64`, `g(n-x)` may lie in the word being built, so the word is built `x` piles at
//! a time.
//!
//! First a sweep (`sweep.rs`) tries to jump over the preperiod: long preperiods (near
//! `y^2 / x`) drift towards a period of `y + x` or `y + 1` with few differences from one
//! stretch to the next, and only the piles next to a difference need computing. When the
//! differences are many, the general search takes over.
//!
//! Only the last `y` values are needed to go on, so the values live in a ring of words, and
//! the search runs in three passes, none of which keeps more than `O(y + period)` words:
//! 1. Detect: fingerprints of the windows of `y` values starting at a few offsets of every
//!    word (distinguished ones remembered, in a table thinned as it grows, plus a Brent
//!    checkpoint for short cycles) show a window seen before: a distance that is a multiple of
//!    the period unless two fingerprints collide. Snapshots of the ring are kept on the way.
//! 2. Period: the window where the repeat was seen is copied, and the windows at each divisor
//!    of that distance after it are compared with it value by value. The first equal one gives
//!    the minimal period and proves it (a window equal to the one `p` later repeats forever);
//!    one period of values is kept. A collision matches no divisor and detection goes on.
//! 3. Preperiod: a pile is at or past the preperiod exactly when its window equals the one a
//!    period later. The snapshots are bisected by that test, and from the last one before the
//!    preperiod the values are generated again with a ring one period long: the preperiod is
//!    the end of the last mismatch between a value and the one a period later. The win/loss
//!    pattern's period (found on the kept cycle) is settled in the same scan.
//!
//! Piles below the preperiod are answered from a kept prefix, or generated again on demand.

mod sweep;

use super::{Rule, SubtractionSet};
use crate::budget::Cancel;
use crate::period::{Period, prime_factors};
use rustc_hash::FxHashMap;

/// Whether this method applies: moves `{1, x, y}` or `{1, y}` with `y >= 64`.
#[must_use]
pub fn applies(set: &SubtractionSet) -> bool {
    matches!(set.moves(), [1, y] | [1, _, y] if *y >= 64)
}

/// Values in two bit-planes: bit `i % 64` of word `i / 64` of `low` / `high` is value `i`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Planes {
    low: Vec<u64>,
    high: Vec<u64>,
}

impl Planes {
    /// Value `i` (which must be stored).
    fn get(&self, i: usize) -> u8 {
        let (w, b) = (i / 64, i % 64);
        ((self.low[w] >> b & 1) | (self.high[w] >> b & 1) << 1) as u8
    }

    /// How many values are stored (a whole number of words).
    fn len(&self) -> usize {
        self.low.len() * 64
    }

    fn push(&mut self, (low, high): (u64, u64)) {
        self.low.push(low);
        self.high.push(high);
    }

    fn truncate(&mut self, values: usize) {
        let words = values.div_ceil(64);
        self.low.truncate(words);
        self.high.truncate(words);
        self.low.shrink_to_fit();
        self.high.shrink_to_fit();
    }

    /// The 64 values starting at `i` (any alignment; values past the end read as 0).
    fn bits(&self, i: usize) -> (u64, u64) {
        let (w, b) = (i / 64, i % 64);
        let word = |w: usize| {
            (
                self.low.get(w).copied().unwrap_or(0),
                self.high.get(w).copied().unwrap_or(0),
            )
        };
        let (l0, h0) = word(w);
        if b == 0 {
            return (l0, h0);
        }
        let (l1, h1) = word(w + 1);
        (l0 >> b | l1 << (64 - b), h0 >> b | h1 << (64 - b))
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        16 * self.low.capacity().max(self.high.capacity())
    }
}

/// Piles a query will read, their values caught as the search passes them: a pile inside a
/// long preperiod then costs nothing more.
#[derive(Clone, Debug, Default)]
struct Catch {
    /// Sorted, without repeats.
    piles: Vec<usize>,
    next: usize,
    values: Vec<(u64, u8)>,
}

impl Catch {
    fn new(piles: &[u64]) -> Catch {
        let mut piles: Vec<usize> = piles
            .iter()
            .filter_map(|&p| usize::try_from(p).ok())
            .collect();
        piles.sort_unstable();
        piles.dedup();
        Catch {
            piles,
            ..Catch::default()
        }
    }

    /// Catch the piles below `end`, whose values `value` must give.
    fn below(&mut self, end: usize, value: impl Fn(usize) -> u8) {
        while let Some(&n) = self.piles.get(self.next) {
            if n >= end {
                break;
            }
            self.values.push((n as u64, value(n)));
            self.next += 1;
        }
    }
}

/// All-ones from bit `threshold - start` on: which of the 64 piles from `start` are at least
/// `threshold`.
#[inline]
fn from_pile(start: usize, threshold: usize) -> u64 {
    if start >= threshold {
        u64::MAX
    } else if threshold - start >= 64 {
        0
    } else {
        u64::MAX << (threshold - start)
    }
}

/// All-ones up to bit `limit - start`: which of the 64 piles from `start` are below `limit`.
#[inline]
fn below_pile(start: usize, limit: usize) -> u64 {
    !from_pile(start, limit)
}

/// Which of two runs of 64 values (both planes) differ.
#[inline]
fn differing(a: (u64, u64), b: (u64, u64)) -> u64 {
    (a.0 ^ b.0) | (a.1 ^ b.1)
}

/// Which of two runs of 64 values differ in their win/loss mark (value 0 or not).
#[inline]
fn differing_marks(a: (u64, u64), b: (u64, u64)) -> u64 {
    (a.0 | a.1) ^ (b.0 | b.1)
}

/// The last pile set in `bits`, the 64 piles from `start` (`bits` not 0).
#[inline]
fn last_pile(start: usize, bits: u64) -> usize {
    start + 63 - bits.leading_zeros() as usize
}

/// Whether the `len` values read 64 at a time by `a` and `b` (from an offset) are equal.
fn same_values(
    a: impl Fn(usize) -> (u64, u64),
    b: impl Fn(usize) -> (u64, u64),
    len: usize,
) -> bool {
    (0..len)
        .step_by(64)
        .all(|i| differing(a(i), b(i)) & below_pile(i, len) == 0)
}

/// 64 values or fewer, packed into the two planes.
fn pack(values: &[u8]) -> (u64, u64) {
    values
        .iter()
        .enumerate()
        .fold((0, 0), |(low, high), (i, &v)| {
            (low | u64::from(v & 1) << i, high | u64::from(v >> 1) << i)
        })
}

/// The values of one rule in order, keeping only the most recent words in a ring.
#[derive(Clone, Debug)]
struct Stream {
    x: usize,
    y: usize,
    rule: Rule,
    /// Piles computed per step: 64, or `x` (the last chunk of a word may be shorter).
    chunk: usize,
    /// Ring of words: (low plane, high plane) of 64 piles.
    ring: Vec<(u64, u64)>,
    mask: usize,
    /// Words completed.
    words: usize,
}

impl Stream {
    /// A stream for moves `{1, x, y}` (`x == y` for `{1, y}`) that keeps at least `history`
    /// piles readable behind the newest word, besides the `y` its own moves need.
    fn new(x: usize, y: usize, rule: Rule, history: usize) -> Stream {
        let capacity = ((history.max(y) + y) / 64 + 4).next_power_of_two();
        let mut stream = Stream {
            x,
            y,
            rule,
            chunk: x.min(64),
            ring: vec![(0, 0); capacity],
            mask: capacity - 1,
            words: 0,
        };
        stream.first_word();
        stream
    }

    /// Piles 0..64 by the definition (the only ones that may have no move of 1).
    fn first_word(&mut self) {
        let mut values = [0u8; 64];
        for n in 0..64 {
            let mut seen = 0u8;
            for s in [1, self.x, self.y] {
                if s <= n {
                    seen |= 1 << values[n - s];
                }
            }
            values[n] = if n == 0 && self.rule == Rule::Misere {
                1 // no move left: the player to move has won
            } else {
                (!seen).trailing_zeros() as u8
            };
        }
        self.ring[0] = pack(&values);
        self.words = 1;
    }

    /// The words a stream needs to go on from here: the last `y` values and a word.
    fn snapshot(&self) -> Snapshot {
        let keep = (self.y / 64 + 2).min(self.words);
        Snapshot {
            words: self.words,
            ring: (self.words - keep..self.words)
                .map(|w| self.word(w))
                .collect(),
        }
    }

    /// A stream that goes on from `snapshot`, with `history` piles readable.
    fn resume(&self, snapshot: &Snapshot, history: usize) -> Stream {
        let mut stream = Stream::new(self.x, self.y, self.rule, history);
        let first = snapshot.words - snapshot.ring.len();
        for (i, &word) in snapshot.ring.iter().enumerate() {
            stream.ring[(first + i) & stream.mask] = word;
        }
        stream.words = snapshot.words;
        stream
    }

    /// Piles computed so far.
    fn len(&self) -> usize {
        self.words * 64
    }

    #[inline]
    fn word(&self, w: usize) -> (u64, u64) {
        self.ring[w & self.mask]
    }

    /// The 64 values from pile `start`; piles below 0 read as 0. The ring must still hold
    /// them: at most `history` piles behind the newest word.
    #[inline(always)]
    fn bits(&self, start: isize) -> (u64, u64) {
        if start < 0 {
            let shift = start.unsigned_abs();
            if shift >= 64 {
                return (0, 0);
            }
            let (l, h) = self.word(0);
            return (l << shift, h << shift);
        }
        let start = start as usize;
        let (w, b) = (start / 64, start % 64);
        let (l0, h0) = self.word(w);
        if b == 0 {
            return (l0, h0);
        }
        let (l1, h1) = self.word(w + 1);
        (l0 >> b | l1 << (64 - b), h0 >> b | h1 << (64 - b))
    }

    fn value(&self, n: usize) -> u8 {
        let (l, h) = self.word(n / 64);
        ((l >> (n % 64) & 1) | (h >> (n % 64) & 1) << 1) as u8
    }

    /// Compute the next word.
    #[inline(always)]
    fn advance(&mut self) {
        let w = self.words;
        if self.chunk == 64 && 64 * w >= self.y {
            // The common case: one step, every move fits.
            let word = self.chunk_core(64 * w, u64::MAX, u64::MAX);
            self.ring[w & self.mask] = word;
            self.words += 1;
        } else if 64 * w >= self.y {
            self.advance_in_chunks();
        } else {
            self.advance_early();
        }
    }

    /// [`Stream::advance`] when `x < 64` once every move fits.
    #[inline(never)]
    fn advance_in_chunks(&mut self) {
        self.fill_in_chunks(true);
    }

    /// [`Stream::advance`] while some move does not fit yet.
    #[inline(never)]
    fn advance_early(&mut self) {
        self.fill_in_chunks(false);
    }

    /// Compute the next word `chunk` piles at a time (the last chunk may be shorter).
    #[inline(always)]
    fn fill_in_chunks(&mut self, every_move_fits: bool) {
        let w = self.words;
        let slot = w & self.mask;
        // Chunks read earlier chunks of this word, so it is filled in place.
        self.ring[slot] = (0, 0);
        for offset in (0..64).step_by(self.chunk) {
            let start = 64 * w + offset;
            let (low, high) = if every_move_fits {
                self.chunk_core(start, u64::MAX, u64::MAX)
            } else {
                self.chunk_values(start)
            };
            let keep = below_pile(offset, offset + self.chunk);
            self.ring[slot].0 |= (low & keep) << offset;
            self.ring[slot].1 |= (high & keep) << offset;
        }
        self.words += 1;
    }

    /// The values of piles `start..start + chunk` (in the low bits; the rest is garbage), for
    /// `start >= 64`, from the values before them.
    #[inline]
    fn chunk_values(&self, start: usize) -> (u64, u64) {
        // Which piles have the moves of x and y (only the first words lack them).
        let (a_fits, b_fits) = (from_pile(start, self.x), from_pile(start, self.y));
        self.chunk_core(start, a_fits, b_fits)
    }

    /// [`Stream::chunk_values`] given which piles have the moves of x and y.
    #[inline(always)]
    fn chunk_core(&self, start: usize, a_fits: u64, b_fits: u64) -> (u64, u64) {
        let (x, y) = (self.x, self.y);
        let (a0, a1) = self.bits(start as isize - x as isize);
        let (b0, b1) = self.bits(start as isize - y as isize);
        // present_v: v is a or b.
        let eq = |l: u64, h: u64, v: u8| {
            let l = if v & 1 == 1 { l } else { !l };
            let h = if v & 2 == 2 { h } else { !h };
            l & h
        };
        let present = |v: u8| (eq(a0, a1, v) & a_fits) | (eq(b0, b1, v) & b_fits);
        let (p0, p1, p2) = (present(0), present(1), present(2));
        // m0 = mex{a, b} in {0, 1, 2}; m1 = the next missing value in {1, 2, 3}.
        let m0_lo = p0 & !p1;
        let m0_hi = p0 & p1;
        let m1_lo = (!p0 & !p1) | (!p0 & p1 & p2) | (p0 & !p1 & p2) | (p0 & p1);
        let m1_hi = p0 | p1;
        // For the first pile, "m0(n-1) = m0(n)" and "m1(n-1) = m0(n)" are replaced by the
        // exact test on g(n-1) below, so the shifted-in bits only need to be consistent.
        let sh = |v: u64| v << 1;
        let v_eq = !((sh(m0_lo) ^ m0_lo) | (sh(m0_hi) ^ m0_hi)); // m0(n-1) == m0(n)
        let u_eq = !((sh(m1_lo) ^ m0_lo) | (sh(m1_hi) ^ m0_hi)); // m1(n-1) == m0(n)
        let m0_first = (m0_lo & 1) as u8 | ((m0_hi & 1) as u8) << 1;
        // Pile `start`: s = [g(n-1) == m0(n)] exactly, and it starts a segment.
        let mut v = (v_eq & !1) | u64::from(self.value(start - 1) == m0_first);
        let mut k = (v_eq ^ u_eq) & !1;
        // Segmented prefix XOR: s_i = v_i xor (k_i and s_{i-1}), over the chunk's piles.
        let mut d = 1;
        while d < self.chunk {
            v ^= (v << d) & k;
            k &= k << d;
            d <<= 1;
        }
        let s = v;
        ((m0_lo & !s) | (m1_lo & s), (m0_hi & !s) | (m1_hi & s))
    }

    /// Compute words until pile `pile` is readable.
    fn reach(&mut self, pile: usize) {
        while self.len() <= pile {
            self.advance();
        }
    }
}

/// What a [`Stream`] needs to go on from pile `64 * words`.
#[derive(Clone, Debug)]
struct Snapshot {
    words: usize,
    /// The words just before, oldest first.
    ring: Vec<(u64, u64)>,
}

impl Snapshot {
    fn pile(&self) -> usize {
        64 * self.words
    }
}

/// Snapshots taken every `spacing` words during detection, at most [`Checkpoints::KEPT`]:
/// when more are due, every other one goes and the spacing doubles. They let the preperiod
/// be searched from near it rather than from pile 0, in `O(y)` memory.
#[derive(Debug)]
struct Checkpoints {
    spacing: usize,
    kept: Vec<Snapshot>,
}

impl Checkpoints {
    const KEPT: usize = 16;

    fn new(y: usize) -> Checkpoints {
        Checkpoints {
            spacing: y.max(1 << 20) / 64,
            kept: Vec::new(),
        }
    }

    fn offer(&mut self, stream: &Stream) {
        if !stream.words.is_multiple_of(self.spacing) {
            return;
        }
        self.kept.push(stream.snapshot());
        if self.kept.len() > Self::KEPT {
            // Keep the ones at multiples of the doubled spacing.
            let spacing = 2 * self.spacing;
            self.kept.retain(|s| s.words % spacing == 0);
            self.spacing = spacing;
        }
    }
}

/// The proven period of a `{1, x, y}` sequence and the values that answer every pile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    x: usize,
    y: usize,
    rule: Rule,
    /// The first values (all of them below the preperiod when it is short).
    prefix: Planes,
    prefix_len: usize,
    /// One period of values, from pile `cycle_start`.
    cycle: Planes,
    cycle_start: usize,
    /// The proven period of the values.
    pub period: Period,
    /// The proven period of the win/loss pattern.
    pub outcome_period: Period,
    /// Values generated by the three passes together.
    pub values_computed: u64,
    /// Values of the piles asked for up front, by pile.
    caught: Vec<(u64, u8)>,
}

impl Values {
    /// The value of pile `n`: from the prefix, the cycle, the piles asked for up front, or,
    /// for other piles between the prefix and the preperiod, generated again (in `O(n)` time
    /// and `O(y)` memory).
    #[must_use]
    pub fn get(&self, n: u64) -> u8 {
        self.stored(n).unwrap_or_else(|| self.get_many(&[n])[0])
    }

    /// The values of `piles`, generating the sequence again at most once.
    #[must_use]
    pub fn get_many(&self, piles: &[u64]) -> Vec<u8> {
        let mut values: Vec<Option<u8>> = piles.iter().map(|&n| self.stored(n)).collect();
        let mut gaps: Vec<usize> = (0..piles.len()).filter(|&i| values[i].is_none()).collect();
        if !gaps.is_empty() {
            gaps.sort_by_key(|&i| piles[i]);
            let mut stream = Stream::new(self.x, self.y, self.rule, 0);
            for i in gaps {
                let n = usize::try_from(piles[i]).expect("below the preperiod");
                stream.reach(n);
                values[i] = Some(stream.value(n));
            }
        }
        values
            .into_iter()
            .map(|v| v.expect("every pile is looked up"))
            .collect()
    }

    /// The value of pile `n` when it is stored.
    fn stored(&self, n: u64) -> Option<u8> {
        let Period { preperiod, period } = self.period;
        if n < self.prefix_len as u64 {
            Some(self.prefix.get(n as usize))
        } else if n >= preperiod {
            let offset = (i128::from(n) - self.cycle_start as i128).rem_euclid(i128::from(period));
            Some(self.cycle.get(offset as usize))
        } else {
            self.caught
                .binary_search_by_key(&n, |&(pile, _)| pile)
                .ok()
                .map(|i| self.caught[i].1)
        }
    }

    /// Bytes held by the stored values.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.prefix.bytes() + self.cycle.bytes() + 16 * self.caught.capacity()
    }
}

/// A window whose fingerprint was seen before.
struct Detection {
    /// Where the earlier window starts.
    earlier: usize,
    /// Where the repeat starts.
    at: usize,
}

/// Find the period and the preperiod of `{1, x, y}` under `rule`, keeping the first
/// `keep_prefix` values (at least those below the preperiod up to that many) and the values
/// of `wanted`; `None` when no period shows within `limit` piles.
#[must_use]
pub fn compute(
    set: &SubtractionSet,
    rule: Rule,
    limit: usize,
    keep_prefix: usize,
    wanted: &[u64],
    cancel: &Cancel,
) -> Option<Values> {
    let (x, y) = match *set.moves() {
        [1, y] => (y as usize, y as usize),
        [1, x, y] => (x as usize, y as usize),
        _ => return None,
    };
    let catch = Catch::new(wanted);
    let proven = match sweep::sweep(x, y, rule, limit, &catch, cancel) {
        Some(swept) => from_sweep(swept),
        None if cancel.is_cancelled() => return None,
        None => search(x, y, rule, limit, catch, cancel)?,
    };
    Some(Values::new(x, y, rule, proven, keep_prefix))
}

/// What either method proves: one period of values from `cycle_start`, the periods with
/// their preperiods, and the values of the piles asked for.
struct Proven {
    cycle: Planes,
    cycle_start: usize,
    period: Period,
    outcome_period: Period,
    /// Values generated on the way.
    generated: usize,
    caught: Vec<(u64, u8)>,
}

impl Values {
    /// The values that answer every pile: `proven`, and the first `keep_prefix` values below
    /// the preperiod, generated again.
    fn new(x: usize, y: usize, rule: Rule, proven: Proven, keep_prefix: usize) -> Values {
        let prefix_len = keep_prefix.min(proven.period.preperiod as usize);
        Values {
            x,
            y,
            rule,
            prefix: first_values(x, y, rule, prefix_len),
            prefix_len,
            cycle: proven.cycle,
            cycle_start: proven.cycle_start,
            period: proven.period,
            outcome_period: proven.outcome_period,
            values_computed: (proven.generated + prefix_len) as u64,
            caught: proven.caught,
        }
    }
}

/// The three passes (detect, prove the period, bisect for the preperiod).
fn search(
    x: usize,
    y: usize,
    rule: Rule,
    limit: usize,
    mut catch: Catch,
    cancel: &Cancel,
) -> Option<Proven> {
    let mut stream = Stream::new(x, y, rule, 0);
    catch.below(stream.len(), |n| stream.value(n));
    let mut checkpoints = Checkpoints::new(y);
    let offsets = offsets_for(x);
    let (cycle_start, period, cycle) = loop {
        let found = detect(
            &mut stream,
            &mut checkpoints,
            &mut catch,
            offsets,
            limit,
            cancel,
        )?;
        if let Some((period, cycle)) = exact_period(&mut stream, &found) {
            break (found.at, period, cycle);
        }
        // Two different windows shared a fingerprint: keep looking from here.
    };
    let outcome_cycle = cyclic_outcome_period(&cycle, period);
    let lags = Lags {
        period,
        outcome_period: outcome_cycle,
        cycle_start,
    };
    let found = preperiods(&stream, &checkpoints, &lags);
    Some(Proven {
        cycle,
        cycle_start,
        period: Period {
            preperiod: found.preperiod as u64,
            period: period as u64,
        },
        outcome_period: Period {
            preperiod: found.outcome_preperiod as u64,
            period: outcome_cycle as u64,
        },
        generated: stream.len() + found.generated,
        caught: catch.values,
    })
}

/// What a sweep proved, with the ring (one multiple of the period) turned into one period.
fn from_sweep(swept: sweep::Swept) -> Proven {
    let lag = swept.lag;
    let mut whole = Planes::default();
    for word in swept.ring.chunks(64).map(pack) {
        whole.push(word);
    }
    // The tail from the preperiod is purely periodic, so its minimal period is the ring's
    // minimal cyclic period, and the preperiod for it is the one found for the lag.
    let period = cyclic_period(&whole, lag, |marks| marks);
    whole.truncate(period);
    Proven {
        outcome_period: Period {
            preperiod: swept.outcome_preperiod as u64,
            period: cyclic_outcome_period(&whole, period) as u64,
        },
        // The first multiple of the lag past the preperiod: the ring's slot 0.
        cycle_start: swept.preperiod.next_multiple_of(lag),
        cycle: whole,
        period: Period {
            preperiod: swept.preperiod as u64,
            period: period as u64,
        },
        generated: swept.generated,
        caught: swept.caught,
    }
}

/// Pass 1: run until a window's fingerprint is seen again.
///
/// The windows starting at the `offsets` of every word are fingerprinted. A window on the
/// cycle at offset `r` shows again `m` periods later at the first `m` with
/// `r + m * period mod 64` among the offsets: few offsets cost less a word over a long
/// preperiod, more find the repeat sooner.
fn detect(
    stream: &mut Stream,
    checkpoints: &mut Checkpoints,
    catch: &mut Catch,
    offsets: &[usize],
    limit: usize,
    cancel: &Cancel,
) -> Option<Detection> {
    const BASE: u64 = 0x9E37_79B9_7F4A_7C15 | 1;
    let y = stream.y;
    // The fingerprint covers whole words, at least the y values of the window: equal windows
    // of that length are equal windows of y values. (Hashing fewer values than y let windows
    // that differ only at their end match again and again.)
    let full = y.div_ceil(64);
    let top = BASE.wrapping_pow(full.saturating_sub(1) as u32);
    // Each word is mixed so that its high bits reach the low ones: a multiplication alone
    // carries a difference only upwards, and windows differing in a word's top bits collided.
    let mix = |s: &Stream, at: usize| {
        let (l, h) = s.bits(at as isize);
        spread(l, h)
    };
    // The word leaving a window is mixed again rather than remembered: keeping it measured no
    // faster and cost 8 bytes per offset and window word.
    // Distinguished fingerprints (top `zero_bits` bits 0) and where they were seen. The table
    // is thinned, one more zero bit at a time, when it outgrows `table_cap`, so it stays
    // O(y) entries however long the preperiod.
    let table_cap = (y / 16).max(1 << 14);
    let mut zero_bits = 6u32;
    let mut seen: FxHashMap<u64, usize> = FxHashMap::default();
    let mut rolling = vec![0u64; offsets.len()];
    let mut checkpoint: (usize, u64) = (usize::MAX, 0); // Brent: the window at a power of two
    let first = stream.words;
    let mut k = first; // window start word
    loop {
        // The windows starting in word k need piles up to 64 (k + full) + 63 + 64.
        while stream.words <= k + full + 1 {
            // A word is 64 piles: the flag is looked at every 2^16 piles.
            if stream.len() >= limit || (stream.words.is_multiple_of(1024) && cancel.is_cancelled())
            {
                return None;
            }
            stream.advance();
            checkpoints.offer(stream);
            catch.below(stream.len(), |n| stream.value(n));
        }
        for (r, (hash, &offset)) in rolling.iter_mut().zip(offsets).enumerate() {
            let start = 64 * k + offset;
            *hash = if k == first {
                (0..full).fold(0u64, |h, j| {
                    h.wrapping_mul(BASE)
                        .wrapping_add(mix(stream, start + 64 * j))
                })
            } else {
                // The word that leaves starts 64 piles before this window; the one that
                // enters is this window's last, in the same slot.
                let entering = mix(stream, start + 64 * (full - 1));
                let leaving = mix(stream, start - 64);
                hash.wrapping_sub(leaving.wrapping_mul(top))
                    .wrapping_mul(BASE)
                    .wrapping_add(entering)
            };
            let fingerprint = *hash;
            if r == 0 {
                if checkpoint.1 == fingerprint && checkpoint.0 < start {
                    return Some(Detection {
                        earlier: checkpoint.0,
                        at: start,
                    });
                }
                if (k - first).is_power_of_two() {
                    checkpoint = (start, fingerprint);
                }
            }
            if fingerprint.leading_zeros() >= zero_bits {
                match seen.get(&fingerprint) {
                    Some(&before) => {
                        return Some(Detection {
                            earlier: before,
                            at: start,
                        });
                    }
                    None => {
                        seen.insert(fingerprint, start);
                        if seen.len() > table_cap {
                            zero_bits += 1;
                            seen.retain(|f, _| f.leading_zeros() >= zero_bits);
                        }
                    }
                }
            }
        }
        k += 1;
    }
}

/// The offsets within a word whose windows are fingerprinted.
///
/// A window on the cycle at offset `r` is seen again at the first `m` periods with
/// `m * period mod 64` a difference of two offsets. Every offset costs a rolling hash a word,
/// paid over the whole preperiod; `m` multiplies the period's share. Measured in whole runs
/// (normal play, ms, best of 3):
///
/// | x | offsets (largest m) | {1, 4818, 524052} μ 57M | {1, 999983, 10^6} λ 2M odd |
/// |---|---|---|---|
/// | >= 64 | 0, 32 (32) | 31.5 | 34.6 |
/// | >= 64 | **0, 16** (16) | 26.5 | 20.5 |
/// | >= 64 | 0, 4, 28 (8) | 30.5 | 7.0 |
///
/// | x | offsets (largest m) | {1, 44, 975555} μ 20M | {1, 63, 10^6} λ 1M odd | {1, 22, 993972} |
/// |---|---|---|---|---|
/// | 16..64 | difference cover (1) | 46.2 | 5.4 | 28.0 |
/// | 16..64 | 0, 4, 28 (8) | 27.8 | 7.0 | 31.5 |
/// | 16..64 | **0, 4, 12, 48** (4) | 29.3 | 6.9 | 25.8 |
/// | 16..64 | 0, 16 (16) | 28.9 | 23.3 | 37.2 |
///
/// Below `x = 16` a word costs four or more chunks, so hashing is relatively cheap: ten
/// offsets that form a difference cover modulo 64 (every residue is the difference of two of
/// them, so `m = 1`) had the lowest worst case over x = 2, 3, 8, 12 (against 16 or 32 evenly
/// spaced offsets: 29.5 ms against 38.8 and 32.0 at {1, 3, 987512}).
fn offsets_for(x: usize) -> &'static [usize] {
    const EVERY_16: [usize; 2] = [0, 16];
    const DIFFERENCE_COVER: [usize; 10] = [0, 7, 12, 16, 18, 19, 39, 52, 54, 62];
    const FOUR: [usize; 4] = [0, 4, 12, 48];
    match x {
        64.. => &EVERY_16,
        16..64 => &FOUR,
        _ => &DIFFERENCE_COVER,
    }
}

/// The sorted divisors of `n`.
fn divisors(n: usize) -> Vec<usize> {
    let mut all = vec![1];
    let mut rest = n;
    for q in prime_factors(n) {
        let mut power = 1;
        let before = all.len();
        while rest.is_multiple_of(q) {
            rest /= q;
            power *= q;
            for i in 0..before {
                all.push(all[i] * power);
            }
        }
    }
    all.sort_unstable();
    all
}

/// Pass 2: the minimal period from a detected repeat, and one period of values from
/// `found.at`; `None` when the repeat was a fingerprint collision.
fn exact_period(stream: &mut Stream, found: &Detection) -> Option<(usize, Planes)> {
    let (at, y) = (found.at, stream.y);
    let mut window = Planes::default();
    for i in (0..y).step_by(64) {
        window.push(stream.bits((at + i) as isize));
    }
    let mut cycle = Planes::default();
    for d in divisors(found.at - found.earlier) {
        // Windows at `at + d` and `at` agree on all y values: the values repeat with period d
        // from `at`, and as every divisor below d failed, d is the minimal period.
        loop {
            // Keep the values from `at` before the ring forgets them.
            while at + cycle.len() + 64 < stream.len() {
                cycle.push(stream.bits((at + cycle.len()) as isize));
            }
            if stream.len() > at + d + y + 64 {
                break;
            }
            stream.advance();
        }
        let later = |i: usize| stream.bits((at + d + i) as isize);
        if same_values(|i| window.bits(i), later, y) {
            cycle.truncate(d);
            return Some((d, cycle));
        }
    }
    None
}

/// Whether `marks` of the cyclic sequence `cycle[0..period]` are unchanged by a rotation of
/// `shift`; `marks` turns 64 values (both planes) into the bits compared.
fn rotation_keeps(
    cycle: &Planes,
    period: usize,
    shift: usize,
    marks: impl Fn((u64, u64)) -> (u64, u64),
) -> bool {
    let at = |i: usize| marks(cycle.bits(i));
    // Position i against position (i + shift) mod period, 64 at a time.
    let mut i = 0;
    while i < period {
        let count = (period - i).min(64);
        let j = (i + shift) % period;
        // The 64 values from j may wrap past the end of the cycle.
        let ahead = if j + count <= period {
            at(j)
        } else {
            let first = period - j;
            let keep = below_pile(0, first);
            let ((l0, h0), (l1, h1)) = (at(j), at(0));
            (l0 & keep | l1 << first, h0 & keep | h1 << first)
        };
        let here = at(i);
        if differing(here, ahead) & below_pile(0, count) != 0 {
            return false;
        }
        i += count;
    }
    true
}

/// The minimal period of `marks` on the cycle (a divisor of `period`).
fn cyclic_period(
    cycle: &Planes,
    period: usize,
    marks: impl Fn((u64, u64)) -> (u64, u64) + Copy,
) -> usize {
    let mut d = period;
    for q in prime_factors(period) {
        while d.is_multiple_of(q) && rotation_keeps(cycle, period, d / q, marks) {
            d /= q;
        }
    }
    d
}

/// The minimal period of the win/loss marks on the cycle (a divisor of `period`).
fn cyclic_outcome_period(cycle: &Planes, period: usize) -> usize {
    cyclic_period(cycle, period, |(l, h)| (l | h, 0))
}

/// The lags pass 3 compares at, and where both are known to hold.
struct Lags {
    period: usize,
    outcome_period: usize,
    /// A pile from which the values repeat with `period` (and the marks with
    /// `outcome_period`).
    cycle_start: usize,
}

/// What pass 3 found.
struct Preperiods {
    preperiod: usize,
    outcome_preperiod: usize,
    generated: usize,
}

/// Pass 3: the preperiods of the values and of the win/loss marks.
///
/// A pile `c` is at or past the preperiod exactly when the window at `c` equals the one a
/// period later, so the checkpoints before the cycle are bisected by that test (each costs a
/// period and a window of values) when that is cheaper than starting from pile 0; the last
/// checkpoint before the preperiod is then scanned forward for the last mismatch.
fn preperiods(stream: &Stream, checkpoints: &Checkpoints, lags: &Lags) -> Preperiods {
    let (period, y) = (lags.period, stream.y);
    let before: Vec<&Snapshot> = checkpoints
        .kept
        .iter()
        .filter(|s| s.pile() <= lags.cycle_start)
        .collect();
    let probe = period + y;
    let bisect_cost =
        (before.len() + 1).next_power_of_two().ilog2() as usize * probe + 64 * checkpoints.spacing;
    let mut generated = 0;
    let mut from = None;
    if bisect_cost < lags.cycle_start {
        // on_cycle is false, then true, along the checkpoints.
        let (mut lo, mut hi) = (0, before.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (repeats, cost) = window_repeats(stream, before[mid], period);
            generated += cost;
            if repeats {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        from = lo.checked_sub(1).map(|i| before[i]);
    }
    let scan = scan_mismatches(stream, from, lags);
    generated += scan.generated;
    let mut outcome_last = scan.outcome_last;
    if from.is_some() && outcome_last.is_none() {
        // The marks settled before the checkpoint: look again from pile 0.
        let again = scan_mismatches(stream, None, lags);
        generated += again.generated;
        outcome_last = again.outcome_last;
    }
    let after = |n: Option<usize>| n.map_or(0, |n| n + 1);
    Preperiods {
        preperiod: after(scan.last),
        outcome_preperiod: after(outcome_last),
        generated,
    }
}

/// Whether the window at the checkpoint equals the one a period later, and the values
/// generated to see it.
fn window_repeats(stream: &Stream, from: &Snapshot, period: usize) -> (bool, usize) {
    let y = stream.y;
    let mut probe = stream.resume(from, period + y + 128);
    let c = from.pile();
    probe.reach(c + period + y + 64);
    let repeats = same_values(
        |i| probe.bits((c + i) as isize),
        |i| probe.bits((c + period + i) as isize),
        y,
    );
    (repeats, probe.len() - c)
}

/// The last mismatches found by [`scan_mismatches`].
struct Scan {
    last: Option<usize>,
    outcome_last: Option<usize>,
    generated: usize,
}

/// Generate from the checkpoint (or pile 0) with a ring one period long, and find the last
/// pile `n` (from the checkpoint on) with `g(n) != g(n + period)`, and the last one whose
/// win/loss mark differs from the one `outcome_period` later.
fn scan_mismatches(stream: &Stream, from: Option<&Snapshot>, lags: &Lags) -> Scan {
    let Lags {
        period,
        outcome_period,
        cycle_start,
    } = *lags;
    let y = stream.y;
    let history = period + 64;
    let (mut scan, first) = match from {
        Some(snapshot) => (stream.resume(snapshot, history), snapshot.pile()),
        None => (Stream::new(stream.x, y, stream.rule, history), 0),
    };
    let (mut last, mut outcome_last) = (None, None);
    let mut w = first / 64;
    if from.is_some() {
        scan.advance();
    }
    loop {
        let start = 64 * w;
        let now = scan.word(w);
        // Pairs (n - period, n) with first <= n - period < cycle_start; past the cycle's
        // start every pair agrees.
        let diff = differing(now, scan.bits(start as isize - period as isize))
            & from_pile(start, first + period)
            & below_pile(start, cycle_start + period);
        if diff != 0 {
            last = Some(last_pile(start, diff) - period);
        }
        let outcome_diff =
            differing_marks(now, scan.bits(start as isize - outcome_period as isize))
                & from_pile(start, first + outcome_period)
                & below_pile(start, cycle_start + outcome_period);
        if outcome_diff != 0 {
            outcome_last = Some(last_pile(start, outcome_diff) - outcome_period);
        }
        if start + 64 >= period + last.map_or(first, |n| n + 1) + y
            || start + 64 >= cycle_start + period
        {
            // The y values after the last mismatch agree with those a period later, so every
            // later value does; and the win/loss marks, periodic from there, have no
            // mismatch past it either.
            break;
        }
        w += 1;
        scan.advance();
    }
    Scan {
        last,
        outcome_last,
        generated: scan.len() - first,
    }
}

/// The first `count` values of `{1, x, y}` under `rule`, generated again.
fn first_values(x: usize, y: usize, rule: Rule, count: usize) -> Planes {
    let mut again = Stream::new(x, y, rule, 0);
    let mut prefix = Planes::default();
    while prefix.len() < count {
        prefix.push(again.word(again.words - 1));
        again.advance();
    }
    prefix
}

/// One window word (both planes) mixed so that every bit reaches the low bits.
#[inline]
fn spread(low: u64, high: u64) -> u64 {
    let x = low ^ high.wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(29);
    let x = (x ^ x >> 32).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ x >> 29
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisors_are_sorted_and_complete() {
        assert_eq!(divisors(1), [1]);
        assert_eq!(divisors(12), [1, 2, 3, 4, 6, 12]);
        assert_eq!(
            divisors(32 * 9),
            [
                1, 2, 3, 4, 6, 8, 9, 12, 16, 18, 24, 32, 36, 48, 72, 96, 144, 288
            ]
        );
        assert_eq!(divisors(999_983), [1, 999_983]);
    }

    /// Values by the definition.
    fn brute(x: usize, y: usize, rule: Rule, n: usize) -> Vec<u8> {
        let mut v: Vec<u8> = Vec::with_capacity(n);
        for i in 0..n {
            let seen: Vec<u8> = [1, x, y]
                .iter()
                .filter(|&&s| s <= i)
                .map(|&s| v[i - s])
                .collect();
            v.push(if i == 0 && rule == Rule::Misere {
                1
            } else {
                (0..).find(|g| !seen.contains(g)).unwrap()
            });
        }
        v
    }

    #[test]
    fn streams_match_the_definition_for_every_small_x() {
        for x in 2..=70 {
            for y in [x.max(64), 64, 65, 100, 127, 128, 129, 200, 1000] {
                if y < x {
                    continue;
                }
                for rule in [Rule::Normal, Rule::Misere] {
                    let n = 3000;
                    let expected = brute(x, y, rule, n);
                    // The smallest ring, read as it goes: stale words must never leak in.
                    let mut stream = Stream::new(x, y, rule, 0);
                    for (i, &e) in expected.iter().enumerate() {
                        stream.reach(i);
                        assert_eq!(stream.value(i), e, "x {x} y {y} {rule:?} pile {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_small_x_offsets_cover_every_difference() {
        let offsets = offsets_for(10);
        let differences: std::collections::BTreeSet<usize> = offsets
            .iter()
            .flat_map(|a| offsets.iter().map(move |b| (a + 64 - b) % 64))
            .collect();
        assert_eq!(differences.len(), 64);
    }

    #[test]
    fn a_false_repeat_is_rejected_and_a_true_one_gives_the_minimal_period() {
        let mut stream = Stream::new(100, 1000, Rule::Normal, 0);
        let mut checkpoints = Checkpoints::new(1000);
        let found = detect(
            &mut stream,
            &mut checkpoints,
            &mut Catch::default(),
            offsets_for(100),
            usize::MAX,
            &Cancel::new(),
        )
        .unwrap();
        let (period, cycle) = exact_period(&mut stream.clone(), &found).unwrap();
        let general = crate::subtraction::Limits {
            word_parallel: false,
            ..crate::subtraction::Limits::default()
        };
        let set = SubtractionSet::new(&[1, 100, 1000]).unwrap();
        let oracle = crate::subtraction::Sequence::compute(&set, Rule::Normal, &general).unwrap();
        assert_eq!(period as u64, oracle.period.period);
        assert_eq!(cycle.len(), period.div_ceil(64) * 64);
        // A prime distance has no multiple of the period among its divisors: as when two
        // windows share a fingerprint by chance.
        let prime = (period + 1..).find(|&q| prime_factors(q) == [q]).unwrap();
        assert!(found.at >= prime, "repeat seen at {}", found.at);
        let fake = Detection {
            earlier: found.at - prime,
            at: found.at,
        };
        assert!(exact_period(&mut stream, &fake).is_none());
    }

    /// The sweep against the three passes: the same period, preperiods and values.
    fn check_sweep(x: usize, y: usize, rule: Rule, must_sweep: bool) {
        let ctx = format!("{{1, {x}, {y}}} {rule:?}");
        let Some(swept) = sweep::sweep(x, y, rule, usize::MAX, &Catch::default(), &Cancel::new())
        else {
            assert!(!must_sweep, "{ctx}: the sweep gave way");
            return;
        };
        let fast = Values::new(x, y, rule, from_sweep(swept), 1000);
        let searched = search(x, y, rule, usize::MAX, Catch::default(), &Cancel::new()).unwrap();
        let slow = Values::new(x, y, rule, searched, 1000);
        assert_eq!(fast.period, slow.period, "{ctx}");
        assert_eq!(fast.outcome_period, slow.outcome_period, "{ctx}");
        let Period { preperiod, period } = slow.period;
        let piles: Vec<u64> = (0..3 * period + 100)
            .step_by(7)
            .map(|i| preperiod + i)
            .chain([
                0,
                1,
                999,
                1000,
                preperiod.saturating_sub(1),
                preperiod.saturating_sub(2),
            ])
            .collect();
        assert_eq!(fast.get_many(&piles), slow.get_many(&piles), "{ctx}");
        // Piles inside the preperiod, caught on the way by either method, against the values
        // generated again.
        let gap: Vec<u64> = (1..20)
            .map(|i| preperiod * i / 20)
            .filter(|&p| p >= 1000)
            .collect();
        let regenerated = fast.get_many(&gap);
        let swept =
            sweep::sweep(x, y, rule, usize::MAX, &Catch::new(&gap), &Cancel::new()).unwrap();
        let caught = Values::new(x, y, rule, from_sweep(swept), 1000);
        assert_eq!(caught.caught.len(), gap.len(), "{ctx}");
        assert_eq!(caught.get_many(&gap), regenerated, "{ctx}");
        let searched = search(x, y, rule, usize::MAX, Catch::new(&gap), &Cancel::new()).unwrap();
        let searched = Values::new(x, y, rule, searched, 1000);
        assert_eq!(searched.caught.len(), gap.len(), "{ctx}");
        assert_eq!(searched.get_many(&gap), regenerated, "{ctx}");
    }

    #[test]
    fn the_sweep_agrees_with_the_three_passes() {
        // Long preperiods (near y^2 / x), where the sweep is what makes them fast.
        for (x, y) in [(4818, 524_052), (46, 646_438), (250, 100_000)] {
            for rule in [Rule::Normal, Rule::Misere] {
                check_sweep(x, y, rule, true);
            }
        }
        // Every kind of set, wherever the sweep finishes.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let y = 64 + (state % 20_000) as usize;
            let x = 2 + (state >> 32) as usize % (y - 1);
            let rule = if state & 1 == 0 {
                Rule::Normal
            } else {
                Rule::Misere
            };
            check_sweep(x, y, rule, false);
        }
    }

    #[test]
    fn masks_select_piles() {
        assert_eq!(from_pile(64, 64), u64::MAX);
        assert_eq!(from_pile(0, 64), 0);
        assert_eq!(from_pile(0, 3), u64::MAX << 3);
        assert_eq!(below_pile(0, 3), 0b111);
        assert_eq!(below_pile(128, 100), 0);
    }
}
