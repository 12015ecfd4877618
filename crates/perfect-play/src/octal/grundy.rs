//! Grundy values of single heaps, heap by heap: a straightforward mex method and the
//! rare/common ("sparse space") method, which agree value for value.

use super::code::{OctalCode, Parts};
use super::table::ValueTable;

mod pipeline;

/// A set of Grundy values (all below 2^16), for the mex: one byte per value, so that an
/// insert is a plain store (no read-modify-write chain between consecutive inserts), and a
/// `u16` always indexes it in bounds. Only the prefix in use is cleared.
struct ValueSet {
    bytes: Box<[u8; 1 << 16]>,
    used: usize,
}

impl ValueSet {
    fn new() -> ValueSet {
        ValueSet {
            bytes: vec![0u8; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .expect("2^16 bytes"),
            used: 8,
        }
    }

    /// Empty the set, sized for values below `2^bits`.
    fn clear(&mut self, bits: u32) {
        let needed = ((1usize << bits) + 8).min(1 << 16);
        self.bytes[..self.used.max(needed)].fill(0);
        self.used = needed;
    }

    #[inline]
    fn insert(&mut self, v: u16) {
        self.bytes[usize::from(v)] = 1;
    }

    fn mex(&self) -> u16 {
        self.mex_from(0)
    }

    /// The bytes in use (values below `2^bits` of the last [`ValueSet::clear`]).
    fn in_use(&self) -> &[u8] {
        &self.bytes[..self.used]
    }

    /// Add the values of another set given as its bytes in use.
    fn merge(&mut self, bytes: &[u8]) {
        if bytes.len() > self.used {
            self.bytes[self.used..bytes.len()].fill(0);
            self.used = bytes.len();
        }
        for (mine, theirs) in self.bytes.iter_mut().zip(bytes) {
            *mine |= theirs;
        }
    }

    /// The mex, given that every value below `start` is in the set. Every value from 0 to
    /// 65535 present (impossible below a heap of 65535, and refused beyond by the callers'
    /// cost limits) would read as 65535: [`GrundyMethod::overflowed`] reports it.
    fn mex_from(&self, start: u16) -> u16 {
        const ALL: u64 = 0x0101_0101_0101_0101;
        let first = usize::from(start) / 8;
        for (i, chunk) in self.bytes[first * 8..self.used].chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            if word != ALL {
                let first_missing = (word ^ ALL).trailing_zeros() / 8;
                return ((first + i) * 8) as u16 + first_missing as u16;
            }
        }
        u16::try_from(self.used / 8 * 8).unwrap_or(u16::MAX)
    }
}

/// The options that take tokens without splitting: they do not depend on the method.
fn taking_options(whole: &[usize], one_heap: &[usize], values: &ValueTable, set: &mut ValueSet) {
    let n = values.len();
    for &k in whole {
        if k == n && k > 0 {
            set.insert(0);
        }
    }
    for &k in one_heap {
        if k >= 1 && k < n {
            set.insert(values.at(n - k));
        }
    }
}

/// Bits that any value so far, and any XOR of two, fits in.
fn value_bits(max: u16) -> u32 {
    16 - max.leading_zeros()
}

/// Computes Grundy values one heap at a time.
pub trait GrundyMethod {
    /// The values computed so far (heap 0 first).
    fn values(&self) -> &ValueTable;
    /// The values computed, taken out (the method is spent): no copy of a large table.
    fn into_values(self) -> ValueTable
    where
        Self: Sized;
    /// Compute the value of the next heap.
    fn step(&mut self);
    /// Compute heaps up to `upto`, calling `after_each` with the values after each heap; it
    /// returns false to stop there.
    fn extend(&mut self, upto: usize, after_each: &mut dyn FnMut(&ValueTable) -> bool) {
        while self.values().len() <= upto {
            self.step();
            if !after_each(self.values()) {
                return;
            }
        }
    }
    /// Take `v` as the next heap's value (from a checkpoint), computed.
    fn resume(&mut self, v: u16);
    /// Whether some value reached 65535, past what two bytes a value hold: the values from
    /// there on are not to be trusted.
    fn overflowed(&self) -> bool;
}

/// What both methods keep: the game's moves by kind, the values so far and the option set.
struct Heaps {
    whole: Vec<usize>,
    one_heap: Vec<usize>,
    two_heaps: Vec<usize>,
    /// Whether the two parts must differ, for each of `two_heaps`.
    unequal: Vec<bool>,
    /// Removals that may leave three heaps, with the restriction on those heaps.
    three_heaps: Vec<(usize, Parts)>,
    values: ValueTable,
    max: u16,
    set: ValueSet,
}

impl Heaps {
    fn new(code: &OctalCode) -> Heaps {
        Heaps {
            whole: code.removals_with(1),
            one_heap: code.removals_with(2),
            two_heaps: code.removals_with(4),
            unequal: code
                .removals_with(4)
                .iter()
                .map(|&k| code.parts(k) != Parts::Any)
                .collect(),
            three_heaps: code
                .removals_with(8)
                .into_iter()
                .map(|k| (k, code.parts(k)))
                .collect(),
            values: ValueTable::wide(),
            max: 0,
            set: ValueSet::new(),
        }
    }

    /// Start the next heap: clear the option set and add the options that take without
    /// splitting and those that leave three heaps (both methods list these in full). Returns
    /// the heap's size.
    fn begin(&mut self) -> usize {
        self.set.clear(value_bits(self.max));
        taking_options(&self.whole, &self.one_heap, &self.values, &mut self.set);
        let n = self.values.len();
        for &(k, parts) in &self.three_heaps {
            if n >= k + 3 {
                three_way_splits(n - k, parts, &self.values, &mut self.set);
            }
        }
        n
    }

    /// The smaller part of the largest split of `rest` for the `i`-th two-heap removal.
    #[inline]
    fn half(&self, i: usize, rest: usize) -> usize {
        split_half(rest, self.unequal[i])
    }

    /// Each splitting removal with whether its two parts must differ, for a helper thread.
    fn removals(&self) -> Vec<(usize, bool)> {
        self.two_heaps
            .iter()
            .copied()
            .zip(self.unequal.iter().copied())
            .collect()
    }

    fn push(&mut self, v: u16) {
        self.max = self.max.max(v);
        self.values.push(v);
    }

    /// Insert the value of every split of heap `n` (the definition); returns the options
    /// examined.
    fn all_splits(&mut self, n: usize) -> u64 {
        let mut examined = 0;
        for (i, &k) in self.two_heaps.iter().enumerate() {
            if n >= k + 2 {
                let rest = n - k;
                let half = self.half(i, rest);
                let fast = half.min(self.values.fast_splits(rest));
                let (small, large) = self.values.split_runs(rest, fast);
                insert_splits(small, large, &mut self.set);
                // Parts in the packed middle of a long table, one at a time.
                for a in fast + 1..=half {
                    self.set
                        .insert(self.values.at(a) ^ self.values.at(rest - a));
                }
                examined += half as u64;
            }
        }
        examined
    }

    /// Use `table` (empty) for the values.
    fn with_table(mut self, table: ValueTable) -> Heaps {
        debug_assert!(table.is_empty());
        self.values = table;
        self
    }
}

/// The splits `(a, rest - a)` of a removal: `a` from 1 to this (the parts unequal if asked).
fn split_half(rest: usize, unequal: bool) -> usize {
    if unequal { (rest - 1) / 2 } else { rest / 2 }
}

/// Insert the options `small[j] ^ large[len - 1 - j]` (two slices of one length walked in
/// opposite directions: the splits of a heap): a chunk at a time, so no bounds check per split
/// and eight stores a loop turn (a split a turn ran at 1.7 times the time, measured on 0.024).
fn insert_splits(small: &[u16], large: &[u16], set: &mut ValueSet) {
    let small_chunks = small.chunks_exact(CHUNK);
    let large_chunks = large.rchunks_exact(CHUNK);
    let (small_rest, large_rest) = (small_chunks.remainder(), large_chunks.remainder());
    for (s, l) in small_chunks.zip(large_chunks) {
        for j in 0..CHUNK {
            set.insert(s[j] ^ l[CHUNK - 1 - j]);
        }
    }
    for (&a, &b) in small_rest.iter().zip(large_rest.iter().rev()) {
        set.insert(a ^ b);
    }
}

/// Insert the value of every split of `rest` tokens into three heaps `a <= b <= c` that
/// `parts` allows. Cubic in the heap over a whole sequence: callers bound the heaps (so they
/// never reach a packed table's middle, read one value at a time).
fn three_way_splits(rest: usize, parts: Parts, table: &ValueTable, set: &mut ValueSet) {
    let Some(values) = table.run(0, rest) else {
        for a in 1..=rest / 3 {
            for b in a..=(rest - a) / 2 {
                let c = rest - a - b;
                if parts.allows_three(a, b, c) {
                    set.insert(table.at(a) ^ table.at(b) ^ table.at(c));
                }
            }
        }
        return;
    };
    for a in 1..=rest / 3 {
        let ga = values[a];
        for b in a..=(rest - a) / 2 {
            let c = rest - a - b;
            if parts.allows_three(a, b, c) {
                set.insert(ga ^ values[b] ^ values[c]);
            }
        }
    }
}

/// The definition: the mex over every option, every split enumerated.
pub struct Naive {
    heaps: Heaps,
}

impl Naive {
    /// Start at heap 0.
    #[must_use]
    pub fn new(code: &OctalCode) -> Naive {
        Naive {
            heaps: Heaps::new(code),
        }
    }

    /// Keep the values in `table` (empty): a packed one, say.
    #[must_use]
    pub fn with_table(self, table: ValueTable) -> Naive {
        Naive {
            heaps: self.heaps.with_table(table),
        }
    }
}

impl GrundyMethod for Naive {
    fn values(&self) -> &ValueTable {
        &self.heaps.values
    }

    fn into_values(self) -> ValueTable {
        self.heaps.values
    }

    fn resume(&mut self, v: u16) {
        self.heaps.push(v);
    }

    fn overflowed(&self) -> bool {
        self.heaps.max == u16::MAX
    }

    fn step(&mut self) {
        let h = &mut self.heaps;
        let n = h.begin();
        h.all_splits(n);
        let v = h.set.mex();
        h.push(v);
    }
}

/// The rare/common method.
///
/// Heaps are classed by their value and their parity: with `e(a) = 2 g(a) + (a mod 2)`, heap
/// `a` is *common* when `e(a) & m` has a chosen parity (odd, or even) for a mask `m`. For a
/// split of `r` tokens into `a + b`, `e(a) ^ e(b) = 2 (g(a) ^ g(b)) + (r mod 2)`, and for two
/// common parts, of the same parity under `m`, that has even parity: so a split into two
/// common heaps can only produce an option `o` with `2 o + (r mod 2)` of even parity. For
/// each heap, the options from taking and from every split with a *rare* part are listed in
/// full; their mex is the answer unless some removal's common splits could produce it, in
/// which case it is searched for among the splits (eight splits of each removal in turn),
/// usually found at once, and the mex moves on. Any mask and parity give the right values; a
/// good choice, one that makes most heaps common, makes the rare parts few. It is re-chosen
/// from the counts of `e` each time the number of heaps doubles, among the choices under
/// which a common heap's own value is one two common parts cannot make. (The even parity
/// matters: in 0.324, whose one splitting removal takes 3, the common heaps are those where
/// `g(a)` and `a` have the same bit parity, the even class under every bit.)
pub struct RareCommon {
    heaps: Heaps,
    mask: u32,
    /// Whether common heaps have odd parity under the mask (even otherwise).
    common_odd: bool,
    /// Heaps (from 1) whose value is not common.
    rare: Vec<usize>,
    /// How many heaps have each `e = 2 * value + parity`.
    counts: Vec<u64>,
    next_rebuild: usize,
    /// Splits examined while searching for non-common candidates (the method's cost).
    pub search_steps: u64,
    /// Splits examined with a rare part.
    pub rare_steps: u64,
    /// Heaps computed by the naive loop on two threads (see `pipeline`).
    pub(crate) naive_pipelined: u64,
    /// Switch to the naive loop while it examines fewer options (see [`RareCommon::adaptive`]).
    adaptive: bool,
    naive_mode: bool,
    /// Options examined in the current window by the mode in force, and by the naive loop.
    window_work: u64,
    window_naive: u64,
    /// Heap at which a naive stretch tries the rare/common split again.
    retry_at: usize,
    /// The search's walks over each removal's splits (kept to reuse their memory).
    walks: Vec<SplitWalk>,
}

/// Heaps per window over which the adaptive mode compares the two methods' work.
const WINDOW: usize = 1024;

/// What one option examined by the rare/common split costs against one of the naive loop's,
/// as a fraction: 4/3. Measured here to heap 100,000 (2026-12-02) on 0.04, 0.016 and 0.07:
/// the naive loop takes 0.40 to 0.47 ns an option; the split 0.57 to 0.62 ns on one thread,
/// and 0.63 ns per option of the larger of its rare loop and its search when the rare loop
/// runs on a second core (the work counted then).
const RARE_STEP_COST: (u64, u64) = (4, 3);

impl RareCommon {
    /// Start at heap 0.
    #[must_use]
    pub fn new(code: &OctalCode) -> RareCommon {
        RareCommon {
            heaps: Heaps::new(code),
            mask: 0,
            common_odd: true,
            rare: Vec::new(),
            counts: Vec::new(),
            next_rebuild: 64,
            search_steps: 0,
            rare_steps: 0,
            naive_pipelined: 0,
            adaptive: false,
            naive_mode: false,
            window_work: 0,
            window_naive: 0,
            retry_at: 0,
            walks: Vec::new(),
        }
    }

    /// The rare/common split where it pays, the naive loop where it does not: the options the
    /// split examines (weighted by their measured cost, 4:3) are compared with
    /// those the naive loop would examine for the same heaps, and the split is dropped while
    /// it costs more (when most values are rare, say); it is tried again each time the heap
    /// doubles. The values are the same either way.
    #[must_use]
    pub fn adaptive(code: &OctalCode) -> RareCommon {
        RareCommon {
            adaptive: true,
            ..RareCommon::new(code)
        }
    }

    /// The heaps (from 1) whose values are rare under the class in force, in order.
    #[must_use]
    pub fn rare_heaps(&self) -> &[usize] {
        &self.rare
    }

    /// Keep the values in `table` (empty): a packed one, say.
    #[must_use]
    pub fn with_table(self, table: ValueTable) -> RareCommon {
        RareCommon {
            heaps: self.heaps.with_table(table),
            ..self
        }
    }

    /// The class in force: common heaps `a` are those where `(2 g(a) + a mod 2) & mask` has
    /// odd parity if the flag is true, even parity otherwise.
    #[must_use]
    pub fn common_class(&self) -> (u32, bool) {
        (self.mask, self.common_odd)
    }

    /// Whether this method switches to the naive loop where the split costs more.
    #[must_use]
    pub fn is_adaptive(&self) -> bool {
        self.adaptive
    }

    /// Whether the last heap was computed by the naive loop.
    #[must_use]
    pub fn in_naive_mode(&self) -> bool {
        self.naive_mode
    }

    /// After each heap: every 64 heaps, drop the split once its work is twice the naive
    /// loop's for the same heaps (a trial at a large heap must not cost a whole window); at each
    /// window's end, drop it if it cost more at all, and retry it when the heap has doubled.
    fn choose_mode(&mut self, n: usize) {
        if !self.adaptive || n == 0 || !n.is_multiple_of(64) {
            return;
        }
        let window_end = n.is_multiple_of(WINDOW);
        let split = u128::from(self.window_work) * u128::from(RARE_STEP_COST.0);
        let naive = u128::from(self.window_naive) * u128::from(RARE_STEP_COST.1);
        let slower = if window_end {
            split > naive
        } else {
            split > 2 * naive
        };
        if !self.naive_mode && slower {
            self.naive_mode = true;
            self.retry_at = 2 * n;
            self.start_window();
            return;
        }
        if window_end {
            if self.naive_mode && n >= self.retry_at {
                self.naive_mode = false;
            }
            self.start_window();
        }
    }

    fn start_window(&mut self) {
        self.window_work = 0;
        self.window_naive = 0;
    }

    /// Whether heap `n` with value `v` is common.
    #[inline]
    fn common(&self, v: u16, n: usize) -> bool {
        Self::common_under(self.mask, self.common_odd, v, n)
    }

    #[inline]
    fn odd(x: u32) -> bool {
        x.count_ones() & 1 == 1
    }

    /// Whether a split of two common heaps could produce `candidate`, given which parities
    /// of the split rest occur for this heap (`rests[0]`: some even rest, `rests[1]`: odd).
    #[inline]
    fn needs_search(mask: u32, rests: [bool; 2], candidate: u16) -> bool {
        let c = u32::from(candidate) << 1;
        (rests[0] && !Self::odd(c & mask)) || (rests[1] && !Self::odd((c | 1) & mask))
    }

    /// Choose the mask and parity that make the most heaps common, and list the rare heaps
    /// again.
    fn rebuild(&mut self) {
        let bits = value_bits(self.heaps.max) + 1;
        let total: u64 = self.counts.iter().sum();
        let mut best = (0u64, self.mask, self.common_odd);
        // A common heap's value must be one that two common parts cannot make, or its search
        // would run through every split. The parts of heap `n` split `n - k`: under a mask
        // without the parity bit only the odd class does that; with it, the odd class does
        // for even `k` and the even class for odd `k`.
        let odd_k = self.heaps.two_heaps.iter().any(|k| k % 2 == 1);
        let even_k = self.heaps.two_heaps.iter().any(|k| k % 2 == 0);
        for mask in 1..(1u32 << bits) {
            let odd: u64 = self
                .counts
                .iter()
                .enumerate()
                .filter(|&(e, _)| Self::odd(e as u32 & mask))
                .map(|(_, c)| c)
                .sum();
            for (common, common_odd) in [(odd, true), (total - odd, false)] {
                let prunes = match (mask & 1 == 1, common_odd) {
                    (false, odd_class) => odd_class,
                    (true, true) => !odd_k,
                    (true, false) => !even_k,
                };
                if prunes && common > best.0 {
                    best = (common, mask, common_odd);
                }
            }
        }
        if (best.1, best.2) != (self.mask, self.common_odd) {
            (self.mask, self.common_odd) = (best.1, best.2);
            let values = &self.heaps.values;
            self.rare = (1..values.len())
                .filter(|&n| !self.common(values.at(n), n))
                .collect();
        }
        self.heaps.values.prefer_class(self.mask, self.common_odd);
    }
}

impl GrundyMethod for RareCommon {
    fn values(&self) -> &ValueTable {
        &self.heaps.values
    }

    fn into_values(self) -> ValueTable {
        self.heaps.values
    }

    /// The rare list, the counts and the mask as if the heap had been computed here.
    fn resume(&mut self, v: u16) {
        self.record(self.heaps.values.len(), v);
    }

    fn overflowed(&self) -> bool {
        self.heaps.max == u16::MAX
    }

    /// On two cores, with the rare loop's far part on a second thread (see `pipeline`).
    fn extend(&mut self, upto: usize, after_each: &mut dyn FnMut(&ValueTable) -> bool) {
        pipeline::extend(self, upto, after_each);
    }

    fn step(&mut self) {
        if self.naive_mode {
            let n = self.heaps.begin();
            let examined = self.heaps.all_splits(n);
            self.window_work += examined;
            self.window_naive += examined;
            let v = self.heaps.set.mex();
            self.record(n, v);
            return;
        }
        let before = (self.rare_steps, self.search_steps);
        let n = self.heaps.begin();
        let Heaps {
            values,
            set,
            two_heaps,
            unequal,
            ..
        } = &mut self.heaps;
        for (&k, &unequal) in two_heaps.iter().zip(unequal.iter()) {
            if n >= k + 2 {
                let rest = n - k;
                let count = self.rare.partition_point(|&r| r < rest);
                self.rare_steps += count as u64;
                insert_rare(values, &self.rare[..count], rest, unequal, set);
            }
        }
        self.search_and_record(n, before, false);
    }
}

/// Insert the splits of `rest` tokens into `(r, rest - r)` for each `r` of `rare` (sorted,
/// each below `rest`, each other part `rest - r` computed), the equal split left out if
/// `unequal`: from the table's two-byte runs, then, for parts in a packed table's middle, one
/// value at a time.
fn insert_rare(table: &ValueTable, rare: &[usize], rest: usize, unequal: bool, set: &mut ValueSet) {
    let fast = table.fast_rare(rare, rest);
    let (large, base) = table.large_run(rest);
    insert_rare_splits(table.low(), large, base, &rare[..fast], rest, unequal, set);
    for &r in &rare[fast..] {
        if !(unequal && 2 * r == rest) {
            set.insert(table.at(r) ^ table.at(rest - r));
        }
    }
}

/// Insert the splits of `rest` tokens into `(r, rest - r)` for each `r` of `rare` (sorted,
/// each below `rest`), the equal split left out if `unequal`. `small` holds the parts `r`,
/// `large` the parts `rest - r` from heap `base` on.
#[inline(never)] // a loop of its own: inlined into a larger one, its pointers spill to the stack
fn insert_rare_splits(
    small: &[u16],
    large: &[u16],
    base: usize,
    rare: &[usize],
    rest: usize,
    unequal: bool,
    set: &mut ValueSet,
) {
    if rare.is_empty() {
        return; // and `large` may not reach down to `rest`
    }
    // The equal split, if forbidden and its part is rare, is left out by splitting the list
    // around it, so the loop itself has no test.
    let skip = if unequal && rest.is_multiple_of(2) {
        rare.binary_search(&(rest / 2)).ok()
    } else {
        None
    };
    let (first, second) = match skip {
        Some(i) => (&rare[..i], &rare[i + 1..]),
        None => (rare, &rare[..0]),
    };
    let top = rest - base;
    for part in [first, second] {
        for &r in part {
            set.insert(small[r] ^ large[top - r]);
        }
    }
}

impl RareCommon {
    /// The rest of heap `n` once the set holds every option but the splits of two common
    /// heaps: find the value (searching those splits where they could make the candidate)
    /// and record it. `before` is the rare and search work counted before the heap began;
    /// `pipelined` says whether the rare loop ran on a second core.
    fn search_and_record(&mut self, n: usize, before: (u64, u64), pipelined: bool) {
        let Heaps {
            values,
            set,
            two_heaps,
            unequal,
            ..
        } = &mut self.heaps;
        let values = &*values;
        let mut candidate = set.mex();
        let mut rests = [false; 2];
        for &k in two_heaps.iter() {
            if n >= k + 2 {
                rests[(n - k) & 1] = true;
            }
        }
        let mask = self.mask;
        // Search the splits of every removal together, a chunk of each in turn: for one
        // removal the parts' values soon repeat, so a value it cannot make would otherwise
        // cost all of its splits before the next removal is tried.
        let walks = &mut self.walks;
        walks.clear();
        // The walks read their large parts from one run: a walk whose parts lie elsewhere
        // (near where a table starts packing) goes one value at a time.
        let (large, base) = values.large_run(n);
        for (&k, &unequal) in two_heaps.iter().zip(unequal.iter()) {
            if n >= k + 2 {
                let rest = n - k;
                let half = if unequal { (rest - 1) / 2 } else { rest / 2 };
                let fast = if values.large_run(rest).1 == base {
                    half.min(values.fast_splits(rest))
                } else {
                    0
                };
                walks.push(SplitWalk {
                    rest,
                    half,
                    fast,
                    done: 0,
                });
            }
        }
        let mut steps = match &walks[..] {
            _ if !Self::needs_search(mask, rests, candidate) => 0,
            [one] => {
                let (small, large) = values.split_runs(one.rest, one.fast);
                let done = walk_one(small, large, mask, rests, &mut candidate, set);
                walks[0].done = done as usize;
                done
            }
            _ => walk_splits(
                values.low(),
                large,
                base,
                walks,
                mask,
                rests,
                &mut candidate,
                set,
            ),
        };
        // Splits with a part in a packed table's middle: walked one value at a time.
        if Self::needs_search(mask, rests, candidate) && walks.iter().any(|w| w.done < w.half) {
            steps += walk_packed(values, walks, mask, rests, &mut candidate, set);
        }
        self.search_steps += steps;
        // Pipelined, the rare loop runs beside the search on the second core.
        let (rare, search) = (self.rare_steps - before.0, self.search_steps - before.1);
        self.window_work += if pipelined {
            rare.max(search)
        } else {
            rare + search
        };
        self.window_naive += two_heaps
            .iter()
            .filter(|&&k| n >= k + 2)
            .map(|&k| ((n - k) / 2) as u64)
            .sum::<u64>();
        self.record(n, candidate);
    }
}

/// Splits walked at a time by the search: the candidate is checked once per chunk (inserting a
/// few more real options changes nothing), in plain array loops the compiler keeps tight.
const CHUNK: usize = 8;

/// Insert the options `small[j] ^ large[CHUNK - 1 - j]` of one chunk; whether one of them is
/// the candidate.
#[inline(always)]
fn insert_chunk(
    small: &[u16; CHUNK],
    large: &[u16; CHUNK],
    candidate: u16,
    set: &mut ValueSet,
) -> bool {
    let mut hit = false;
    for j in 0..CHUNK {
        let option = small[j] ^ large[CHUNK - 1 - j];
        set.insert(option);
        hit |= option == candidate;
    }
    hit
}

/// The candidate was found among the options: move it on to the next value not in the set.
/// Returns whether the search is over (two common parts cannot make the new candidate).
#[inline(always)]
fn advance(candidate: &mut u16, set: &ValueSet, mask: u32, rests: [bool; 2]) -> bool {
    *candidate = set.mex_from(*candidate);
    !RareCommon::needs_search(mask, rests, *candidate)
}

/// [`walk_splits`] for one removal, its splits `(small[i], large[half - 1 - i])` given as two
/// slices: without a walk's state kept in memory between chunks, this loop is 20-40% faster
/// for codes with a single splitting removal (0.04 and 0.6, measured).
fn walk_one(
    small: &[u16],
    large: &[u16],
    mask: u32,
    rests: [bool; 2],
    candidate: &mut u16,
    set: &mut ValueSet,
) -> u64 {
    let half = small.len();
    let mut done = 0;
    while done + CHUNK <= half {
        let s = small[done..done + CHUNK].try_into().expect("a chunk");
        let l = large[half - done - CHUNK..half - done]
            .try_into()
            .expect("a chunk");
        done += CHUNK;
        if insert_chunk(s, l, *candidate, set) && advance(candidate, set, mask, rests) {
            return done as u64;
        }
    }
    while done < half {
        let option = small[done] ^ large[half - 1 - done];
        set.insert(option);
        done += 1;
        if option == *candidate && advance(candidate, set, mask, rests) {
            break;
        }
    }
    done as u64
}

/// One splitting removal's splits of a heap, `(a, rest - a)` for `a` in `1..=half`, the first
/// `done` of them walked; the first `fast` have both parts in the table's two-byte runs.
struct SplitWalk {
    rest: usize,
    half: usize,
    fast: usize,
    done: usize,
}

/// Insert the splits of every walk, a chunk of each in turn, while the candidate needs a
/// search, advancing it past each value found; returns the splits examined. Only the `fast`
/// splits of each walk: the small parts are read from `small` (heaps from 0), the large ones
/// from `large` (heaps from `base`).
#[allow(clippy::too_many_arguments)] // the search's state, kept in registers
fn walk_splits(
    small: &[u16],
    large: &[u16],
    base: usize,
    walks: &mut [SplitWalk],
    mask: u32,
    rests: [bool; 2],
    candidate: &mut u16,
    set: &mut ValueSet,
) -> u64 {
    let mut steps = 0u64;
    loop {
        let mut walked = false;
        for walk in walks.iter_mut() {
            let left = walk.fast - walk.done;
            if left == 0 {
                continue;
            }
            walked = true;
            let first = 1 + walk.done;
            let last = walk.rest - walk.done - base; // one past the next split's large part
            let (len, hit) = if left >= CHUNK {
                let s = small[first..first + CHUNK].try_into().expect("a chunk");
                let l = large[last - CHUNK..last].try_into().expect("a chunk");
                (CHUNK, insert_chunk(s, l, *candidate, set))
            } else {
                let mut hit = false;
                for j in 0..left {
                    let option = small[first + j] ^ large[last - 1 - j];
                    set.insert(option);
                    hit |= option == *candidate;
                }
                (left, hit)
            };
            walk.done += len;
            steps += len as u64;
            if hit && advance(candidate, set, mask, rests) {
                return steps;
            }
        }
        if !walked {
            return steps;
        }
    }
}

/// [`walk_splits`] for the splits past each walk's `fast` ones, a split of each walk in turn,
/// its parts read one at a time from the table.
fn walk_packed(
    values: &ValueTable,
    walks: &mut [SplitWalk],
    mask: u32,
    rests: [bool; 2],
    candidate: &mut u16,
    set: &mut ValueSet,
) -> u64 {
    let mut steps = 0u64;
    loop {
        let mut walked = false;
        for walk in walks.iter_mut() {
            if walk.done == walk.half {
                continue;
            }
            walked = true;
            walk.done += 1;
            steps += 1;
            let option = values.at(walk.done) ^ values.at(walk.rest - walk.done);
            set.insert(option);
            if option == *candidate && advance(candidate, set, mask, rests) {
                return steps;
            }
        }
        if !walked {
            return steps;
        }
    }
}

impl RareCommon {
    /// Store heap `n`'s value `v` and keep the rare list and the counts up to date.
    fn record(&mut self, n: usize, v: u16) {
        self.heaps.push(v);
        let e = usize::from(v) << 1 | (n & 1);
        if self.counts.len() <= e {
            self.counts.resize(e + 1, 0);
        }
        self.counts[e] += 1;
        if n > 0 && !self.common(v, n) {
            self.rare.push(n);
        }
        if self.heaps.values.len() >= self.next_rebuild {
            self.next_rebuild *= 2;
            self.rebuild();
        }
        self.choose_mode(n);
    }
}
