//! The rare/common method with its rare loop on a second thread.
//!
//! Each heap's work has two halves of about equal cost at large heaps (Grundy's game near
//! 2^20: some 1,300 splits with a rare part, read from all over the table, and some 3,100
//! splits walked in search): the rare loop, which only needs values well below the heap, and
//! the search, which needs the heap just before. So a helper thread lists, a block of heaps
//! ahead, every rare split whose two parts are both *far* below the block (known when it
//! starts), and the main thread adds the few *near* ones (a rare part smaller than two blocks,
//! or one found in the last block) and searches. The threads meet once a block, through
//! channels: the helper keeps its own copy of the values, sent a block at a time, and sends
//! back each heap's far options as the bytes of an option set. Nothing is shared, so nothing
//! is locked or atomic inside the loops. A packed table's helper copies only its two-byte runs
//! (the first heaps and the newest): far splits with a part in the packed middle are left to
//! the main thread, which reads them one value at a time, and each block says where the
//! helper stopped.
//!
//! The mask that divides rare from common is fixed between two re-choosings (when the heap
//! doubles): a pipeline runs from one to the next, and stops early when the adaptive method
//! switches to its naive loop. The values and the rare list are exactly those of
//! [`RareCommon::step`] heap by heap, and so is the work counted; only the adaptive method's
//! weighing of it differs, a pipelined heap costing the larger of its two halves.
//!
//! The adaptive method's naive stretches (most heaps rare: 0.024, 0.114, 0.016, ...) run on
//! the same two threads: the helper inserts the second half of each heap's splits, whose
//! parts are both far below the block, and the main thread the first half (with the near
//! ones), merges and takes the mex. A wide table only, from heaps large enough for the
//! hand-overs to pay; the work is counted as heap by heap. 0.024 to 10^5: 0.75 s against
//! 1.26-1.38 s on one thread.

use super::{
    GrundyMethod, RareCommon, ValueSet, ValueTable, insert_rare, insert_rare_splits, insert_splits,
    split_half, value_bits,
};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Heaps per block handed between the threads. Each hand-over can wake a sleeping thread, at
/// some microseconds in this VM: Officers (0.6) to 2 x 10^6 took 3.13-4.06 s (median 3.49) in
/// blocks of 128 against 3.90-4.74 s (median 3.99) in blocks of 64, seven runs each; 256 was
/// no better than 128, and Grundy's game, 0.14 and 0.07 did not change.
const BLOCK: usize = 128;

/// Rare splits a heap below which the rare loop stays on the main thread: 0.104 to 10^5
/// (about 20 a heap) took 0.04-0.07 s pipelined against 0.01-0.02 s on one thread; 0.36
/// (about 500) 0.07-0.10 s against 0.10-0.13 s.
const MIN_RARE_SPLITS: usize = 256;

/// Largest values (in bits) for which a pipeline runs: each heap's far options travel as
/// `2^bits + 8` bytes.
const MAX_BITS: u32 = 12;

/// One block's far options.
struct FarBlock {
    /// The helper knew heaps `0..known` when it listed them.
    known: usize,
    /// Bytes per heap.
    stride: usize,
    /// The option-set bytes of each heap of the block, in order.
    bytes: Vec<u8>,
    /// Rare splits listed for each heap (the work counted).
    steps: Vec<u64>,
    /// For each heap and each splitting removal, how many of the far splits the helper left
    /// to the main thread (the last ones it listed, with a part in a packed table's middle).
    left: Vec<usize>,
}

/// The helper thread's state: its own copy of the values and rare list.
struct Helper {
    /// Heaps `0..known` are known (a packed table's two-byte runs only).
    values: ValueTable,
    known: usize,
    rare: Vec<usize>,
    max: u16,
    mask: u32,
    common_odd: bool,
    two_heaps: Vec<(usize, bool)>,
    set: ValueSet,
}

impl Helper {
    fn learn(&mut self, block: &[u16]) {
        for &v in block {
            let n = self.known;
            if n > 0 && !RareCommon::common_under(self.mask, self.common_odd, v, n) {
                self.rare.push(n);
            }
            self.max = self.max.max(v);
            self.values.push(v);
            self.known += 1;
        }
    }

    /// The far options of heaps `first..first + len`: the rare splits whose two parts are
    /// both below the heaps known.
    fn far_block(&mut self, first: usize, len: usize) -> FarBlock {
        if !self.values.is_packed() {
            return self.far_block_wide(first, len);
        }
        let known = self.known;
        let bits = value_bits(self.max);
        let mut bytes = Vec::new();
        let mut steps = Vec::with_capacity(len);
        let mut left = Vec::with_capacity(len * self.two_heaps.len());
        let mut stride = 0;
        for m in first..first + len {
            self.set.clear(bits);
            let mut listed = 0;
            for &(k, unequal) in &self.two_heaps {
                if m < k + 2 {
                    left.push(0);
                    continue;
                }
                let rest = m - k;
                let low = near_below(&self.rare, rest, known);
                let high = self.rare.partition_point(|&r| r < rest.min(known));
                let mut undone = 0;
                if low < high {
                    let far = &self.rare[low..high];
                    let fast = self.values.fast_rare(far, rest);
                    let (large, base) = self.values.large_run(rest);
                    insert_rare_splits(
                        self.values.low(),
                        large,
                        base,
                        &far[..fast],
                        rest,
                        unequal,
                        &mut self.set,
                    );
                    listed += fast as u64;
                    undone = far.len() - fast;
                }
                left.push(undone);
            }
            let in_use = self.set.in_use();
            stride = in_use.len();
            bytes.extend_from_slice(in_use);
            steps.push(listed);
        }
        FarBlock {
            known,
            stride,
            bytes,
            steps,
            left,
        }
    }
}

impl Helper {
    /// [`Helper::far_block`] for a wide table, the same options listed the other way round: a
    /// rare heap at a time for a part of the block. Heap by heap, each rare split reads its
    /// large part from somewhere else in the table (1,583 places for Officers) and writes one
    /// option set; a rare heap `r` splits the part's consecutive heaps with consecutive large
    /// parts, one short run read in order, into sets that stay in the first-level cache.
    /// Officers near 10^6, alone: 0.58 ns a split in parts of 32 heaps, 0.65 in 16, 0.73 in
    /// 64, against 1.09 heap by heap.
    fn far_block_wide(&mut self, first: usize, len: usize) -> FarBlock {
        let known = self.known;
        let stride = ((1usize << value_bits(self.max)) + 8).min(1 << 16);
        let mut bytes = vec![0u8; len * stride];
        let mut steps = vec![0u64; len];
        let values = self.values.low();
        let rare = &self.rare;
        for &(k, unequal) in &self.two_heaps {
            // The rare heaps listed for each heap of the block, as a range of the rare list:
            // both ends grow with the heap, so each rare heap splits a run of the block's heaps.
            let listed: Vec<(usize, usize)> = (first..first + len)
                .map(|m| {
                    if m < k + 2 {
                        return (0, 0);
                    }
                    let rest = m - k;
                    let low = near_below(rare, rest, known);
                    let high = rare.partition_point(|&r| r < rest.min(known));
                    (low, high.max(low))
                })
                .collect();
            for (count, &(low, high)) in steps.iter_mut().zip(&listed) {
                *count += (high - low) as u64;
            }
            // A part of the block at a time, so that its option sets stay in the first-level
            // cache.
            for part in (0..len).step_by(SUB_BLOCK) {
                let end = (part + SUB_BLOCK).min(len);
                let listed = &listed[part..end];
                let from = listed.iter().map(|&(low, _)| low).min().unwrap_or(0);
                let to = listed.iter().map(|&(_, high)| high).max().unwrap_or(0);
                let sub = &mut bytes[part * stride..end * stride];
                let head = first + part;
                // The part's heaps `a..b` list rare heap `i`.
                let (mut a, mut b) = (0, 0);
                for (i, &r) in rare.iter().enumerate().take(to).skip(from) {
                    while a < listed.len() && listed[a].1 <= i {
                        a += 1;
                    }
                    while b < listed.len() && listed[b].0 <= i {
                        b += 1;
                    }
                    if a >= b {
                        continue;
                    }
                    // Heap `head + j` splits into `r` and `head + j - k - r`.
                    let large = &values[head + a - k - r..head + b - k - r];
                    let sets = &mut sub[a * stride..b * stride];
                    if unequal && (head + a..head + b).contains(&(k + 2 * r)) {
                        let j = k + 2 * r - head - a;
                        mark_options(values[r], &large[..j], &mut sets[..j * stride], stride);
                        let (large, sets) = (&large[j + 1..], &mut sets[(j + 1) * stride..]);
                        mark_options(values[r], large, sets, stride);
                    } else {
                        mark_options(values[r], large, sets, stride);
                    }
                }
            }
        }
        let removals = self.two_heaps.len();
        FarBlock {
            known,
            stride,
            bytes,
            steps,
            left: vec![0; len * removals],
        }
    }
}

/// What a helper thread does: keep its own copy of the values, a block at a time, and list a
/// block's far options from them.
trait FarLister: Send {
    /// Heaps `0..known` are known.
    fn known(&self) -> usize;
    /// The next block's values.
    fn learn(&mut self, block: &[u16]);
    /// The far options of heaps `first..first + len`.
    fn far_block(&mut self, first: usize, len: usize) -> FarBlock;
}

impl FarLister for Helper {
    fn known(&self) -> usize {
        self.known
    }

    fn learn(&mut self, block: &[u16]) {
        Helper::learn(self, block);
    }

    fn far_block(&mut self, first: usize, len: usize) -> FarBlock {
        Helper::far_block(self, first, len)
    }
}

/// The naive loop's helper: its own copy of a wide table's values.
struct NaiveHelper {
    values: Vec<u16>,
    max: u16,
    two_heaps: Vec<(usize, bool)>,
    set: ValueSet,
}

impl FarLister for NaiveHelper {
    fn known(&self) -> usize {
        self.values.len()
    }

    fn learn(&mut self, block: &[u16]) {
        self.max = block.iter().copied().fold(self.max, u16::max);
        self.values.extend_from_slice(block);
    }

    /// Each heap's splits `(a, rest - a)` past the main thread's share: both parts known.
    fn far_block(&mut self, first: usize, len: usize) -> FarBlock {
        let known = self.values.len();
        let bits = value_bits(self.max);
        let mut bytes = Vec::new();
        let mut steps = Vec::with_capacity(len);
        let mut stride = 0;
        for m in first..first + len {
            self.set.clear(bits);
            let mut listed = 0;
            for &(k, unequal) in &self.two_heaps {
                if m < k + 2 {
                    continue;
                }
                let rest = m - k;
                let half = split_half(rest, unequal);
                let here = naive_share(rest, half, known);
                if here < half {
                    insert_splits(
                        &self.values[here + 1..=half],
                        &self.values[rest - half..rest - here],
                        &mut self.set,
                    );
                    listed += (half - here) as u64;
                }
            }
            let in_use = self.set.in_use();
            stride = in_use.len();
            bytes.extend_from_slice(in_use);
            steps.push(listed);
        }
        FarBlock {
            known,
            stride,
            bytes,
            steps,
            left: Vec::new(),
        }
    }
}

/// How many of a heap's splits `1..=half` of `rest` the main thread inserts when the helper
/// knew heaps `0..known`: half of them, and all those with a part not below `known`.
fn naive_share(rest: usize, half: usize, known: usize) -> usize {
    (half / 2).max(rest.saturating_sub(known)).min(half)
}

/// Heaps of a block whose option sets are filled together (16 KiB of sets for values below
/// 512).
const SUB_BLOCK: usize = 32;

/// Into consecutive option sets of `stride` bytes, one option each: `small ^ large[j]`.
#[inline(never)] // a loop of its own, kept in registers
fn mark_options(small: u16, large: &[u16], sets: &mut [u8], stride: usize) {
    for (set, &part) in sets.chunks_exact_mut(stride).zip(large) {
        set[usize::from(small ^ part)] = 1;
    }
}

impl RareCommon {
    /// Whether the pipeline can run from here: splitting removals, the split in force (not
    /// the naive loop), values small enough to send as option sets, and at least
    /// `min_rare_splits` rare splits a heap for the helper (with fewer, the hand-overs cost
    /// more than they save).
    fn pipeline_applies(&self, min_rare_splits: usize) -> bool {
        !self.heaps.two_heaps.is_empty()
            && !self.naive_mode
            && value_bits(self.heaps.max) <= MAX_BITS
            && self.rare.len() * self.heaps.two_heaps.len() >= min_rare_splits
    }

    /// Compute heaps up to `upto` (or until `after_each` returns false) with the rare loop's
    /// far part on a second thread, in blocks of `block` heaps, whenever at least
    /// `min_heaps` heaps remain before the mask is next re-chosen and each heap has at least
    /// `min_rare_splits` rare splits; heap by heap otherwise.
    pub(crate) fn extend_pipelined(
        &mut self,
        upto: usize,
        block: usize,
        min_heaps: usize,
        min_rare_splits: usize,
        after_each: &mut dyn FnMut(&ValueTable) -> bool,
    ) {
        let block = block.max(1);
        while self.heaps.values.len() <= upto {
            let start = self.heaps.values.len();
            let end = self.next_rebuild.min(upto.saturating_add(1));
            if self.pipeline_applies(min_rare_splits) && end - start >= min_heaps.max(1) {
                if !self.run_segment(start, end, block, after_each) {
                    return;
                }
            } else if self.naive_pipeline_applies(start, min_heaps)
                && upto - start >= min_heaps.max(1)
            {
                if !self.run_naive_segment(start, upto.saturating_add(1), block, after_each) {
                    return;
                }
            } else {
                self.step();
                if !after_each(&self.heaps.values) {
                    return;
                }
            }
        }
    }

    /// Heaps `start..end` (or fewer, if the naive loop takes over) on two threads; false
    /// when `after_each` asked to stop.
    fn run_segment(
        &mut self,
        start: usize,
        end: usize,
        block: usize,
        after_each: &mut dyn FnMut(&ValueTable) -> bool,
    ) -> bool {
        let helper = Helper {
            values: self.heaps.values.ends_only(),
            known: start,
            rare: self.rare.clone(),
            max: self.heaps.max,
            mask: self.mask,
            common_odd: self.common_odd,
            two_heaps: self.heaps.removals(),
            set: ValueSet::new(),
        };
        self.run_blocks(
            helper,
            start,
            end,
            block,
            after_each,
            Self::pipelined_heap,
            |m| !m.naive_mode,
        )
    }

    /// Heaps `start..end` on two threads, the helper `lister` listing each block's far
    /// options a block ahead and `heap` doing the rest of each heap here, for as long as
    /// `stays` holds after a heap; false when `after_each` asked to stop.
    #[allow(clippy::too_many_arguments)] // the segment, and the two halves of its work
    fn run_blocks<L: FarLister>(
        &mut self,
        mut lister: L,
        start: usize,
        end: usize,
        block: usize,
        after_each: &mut dyn FnMut(&ValueTable) -> bool,
        heap: fn(&mut RareCommon, &FarBlock, usize),
        stays: fn(&RareCommon) -> bool,
    ) -> bool {
        std::thread::scope(|scope| {
            // Made here, so that this side's ends are dropped when it returns and a helper
            // waiting on them stops before the scope joins it.
            let (far_sender, far_receiver) = mpsc::sync_channel::<FarBlock>(2);
            let (value_sender, value_receiver) = mpsc::channel::<Vec<u16>>();
            scope.spawn(move || {
                let mut first = start;
                let mut index = 0;
                while first < end {
                    // Block `index` lists splits of heaps below the start of block
                    // `index - 1`, so the helper runs a block ahead of the main thread.
                    let needed = start + index.max(1) * block - block;
                    while lister.known() < needed {
                        match receive(&value_receiver) {
                            Ok(values) => lister.learn(&values),
                            Err(_) => return,
                        }
                    }
                    let len = block.min(end - first);
                    if far_sender.send(lister.far_block(first, len)).is_err() {
                        return;
                    }
                    first += len;
                    index += 1;
                }
            });
            let mut first = start;
            while first < end {
                let Ok(far) = receive(&far_receiver) else {
                    return true; // cannot happen; heap by heap goes on
                };
                let len = far.steps.len();
                for i in 0..len {
                    heap(self, &far, i);
                    if !after_each(&self.heaps.values) {
                        return false;
                    }
                    if !stays(self) {
                        return true;
                    }
                }
                // The helper may have stopped early only if this side dropped its end.
                let values = &self.heaps.values;
                let _ = value_sender.send((first..first + len).map(|n| values.at(n)).collect());
                first += len;
            }
            true
        })
    }

    /// Whether the naive loop can run on two threads from heap `n`: in the naive loop's
    /// stretch of the adaptive method, with splitting removals, a wide table (the helper's
    /// copy of a packed one would hold only its ends) and values small enough to send as
    /// option sets, and heaps large enough (`min_heaps`) for a block's hand-over to pay.
    fn naive_pipeline_applies(&self, n: usize, min_heaps: usize) -> bool {
        self.naive_mode
            && !self.heaps.two_heaps.is_empty()
            && !self.heaps.values.is_packed()
            && value_bits(self.heaps.max) <= MAX_BITS
            && n >= 4 * min_heaps
    }

    /// Heaps `start..end` (or fewer, when the split takes over again) by the naive loop on two
    /// threads: the helper inserts the second half of each heap's splits (those with both
    /// parts below the heaps it knows), this thread the first half and the near ones. False
    /// when `after_each` asked to stop.
    fn run_naive_segment(
        &mut self,
        start: usize,
        end: usize,
        block: usize,
        after_each: &mut dyn FnMut(&ValueTable) -> bool,
    ) -> bool {
        let helper = NaiveHelper {
            values: self.heaps.values.low()[..start].to_vec(),
            max: self.heaps.max,
            two_heaps: self.heaps.removals(),
            set: ValueSet::new(),
        };
        self.run_blocks(
            helper,
            start,
            end,
            block,
            after_each,
            Self::naive_pipelined_heap,
            |m| m.naive_mode,
        )
    }

    /// Heap `far`'s block start + `i` by the naive loop: the helper's half of the splits from
    /// `far`, the rest here. The work is counted as [`RareCommon::step`] counts it.
    fn naive_pipelined_heap(&mut self, far: &FarBlock, i: usize) {
        let n = self.heaps.begin();
        let heaps = &mut self.heaps;
        heaps
            .set
            .merge(&far.bytes[i * far.stride..(i + 1) * far.stride]);
        let values = heaps.values.low();
        let mut examined = 0;
        for (&k, &unequal) in heaps.two_heaps.iter().zip(heaps.unequal.iter()) {
            if n < k + 2 {
                continue;
            }
            let rest = n - k;
            let half = split_half(rest, unequal);
            let here = naive_share(rest, half, far.known);
            insert_splits(
                &values[1..=here],
                &values[rest - here..rest],
                &mut heaps.set,
            );
            examined += half as u64;
        }
        self.window_work += examined;
        self.window_naive += examined;
        self.naive_pipelined += 1;
        let v = self.heaps.set.mex();
        self.record(n, v);
    }

    /// Heap `far`'s block start + `i`: its far options from the helper, the near ones here.
    fn pipelined_heap(&mut self, far: &FarBlock, i: usize) {
        let before = (self.rare_steps, self.search_steps);
        let n = self.heaps.begin();
        self.heaps
            .set
            .merge(&far.bytes[i * far.stride..(i + 1) * far.stride]);
        self.rare_steps += far.steps[i];
        let known = far.known;
        let heaps = &mut self.heaps;
        let removals = heaps.two_heaps.len();
        let left = &far.left[i * removals..(i + 1) * removals];
        for ((&k, &unequal), &undone) in heaps.two_heaps.iter().zip(heaps.unequal.iter()).zip(left)
        {
            if n < k + 2 {
                continue;
            }
            let rest = n - k;
            let low = near_below(&self.rare, rest, known);
            let listed_to = self.rare.partition_point(|&r| r < rest.min(known));
            let high = listed_to.max(low);
            let count = self.rare.partition_point(|&r| r < rest);
            let undone = &self.rare[listed_to - undone..listed_to];
            for part in [&self.rare[..low], undone, &self.rare[high..count]] {
                insert_rare(&heaps.values, part, rest, unequal, &mut heaps.set);
                self.rare_steps += part.len() as u64;
            }
        }
        self.search_and_record(n, before, true);
    }
}

/// The next message, waited for by spinning a while before sleeping: the threads meet once a
/// block, each usually a few microseconds apart, and waking a sleeping thread costs about as
/// much again in this VM.
fn receive<T>(receiver: &mpsc::Receiver<T>) -> Result<T, mpsc::RecvError> {
    let start = Instant::now();
    loop {
        match receiver.try_recv() {
            Ok(message) => return Ok(message),
            Err(mpsc::TryRecvError::Disconnected) => return Err(mpsc::RecvError),
            Err(mpsc::TryRecvError::Empty) if start.elapsed() < SPIN => std::hint::spin_loop(),
            Err(mpsc::TryRecvError::Empty) => return receiver.recv(),
        }
    }
}

/// How long [`receive`] spins before it sleeps.
const SPIN: Duration = Duration::from_micros(100);

/// How many of the rare heaps `r` (sorted) split `rest` with a part `rest - r` not below
/// `known`: those are left to the main thread.
fn near_below(rare: &[usize], rest: usize, known: usize) -> usize {
    rare.partition_point(|&r| r < rest && rest - r >= known)
}

impl RareCommon {
    /// Whether heap `n` with value `v` is common under `mask`: of odd parity under it if
    /// `common_odd`, of even parity otherwise.
    pub(super) fn common_under(mask: u32, common_odd: bool, v: u16, n: usize) -> bool {
        Self::odd((u32::from(v) << 1 | (n as u32 & 1)) & mask) == common_odd
    }
}

/// Whether a second core is there to use.
pub(super) fn two_cores() -> bool {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get) >= 2
}

/// Used by [`GrundyMethod::extend`] for [`RareCommon`].
pub(super) fn extend(
    method: &mut RareCommon,
    upto: usize,
    after_each: &mut dyn FnMut(&ValueTable) -> bool,
) {
    // Room for every value at once: grown by doubling, a huge table would pass through a
    // copy of itself. Only a hint: an `upto` meaning "until stopped" gets no room up front.
    method.heaps.values.reserve_upto(upto);
    if two_cores() {
        method.extend_pipelined(upto, BLOCK, 4 * BLOCK, MIN_RARE_SPLITS, after_each);
    } else {
        while method.values().len() <= upto {
            method.step();
            if !after_each(method.values()) {
                return;
            }
        }
    }
}
