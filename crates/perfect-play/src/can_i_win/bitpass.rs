//! The bit-parallel retrograde pass: one bit per set of available numbers.
//!
//! A position is the set `A` of numbers still available; the running total, and so the need
//! left, follows from it. `A`'s value depends only on the values of `A` minus one number, so one
//! pass over all subsets in increasing order solves every position.
//!
//! Refinements, each small:
//! - *Word packing.* The 64 subsets of the six smallest numbers share one `u64` word, indexed by
//!   the subset `H` of the other numbers. A move on a high number is a whole-word operation
//!   (`!W[H - a]`); a move on a low number is a shift inside the word, done layer by layer (a
//!   subset of `k` low numbers depends only on subsets of `k - 1`).
//! - *Finished positions folded in.* A subset whose need is already met is a position where the
//!   previous player reached the target: it is stored as lost (normal play) or won (misère).
//!   Immediate wins and forbidden moves then fall out of the same "some move leaves a lost
//!   position" rule, with no separate test.
//! - *Whole finished words skipped.* Words whose 64 subsets are all finished are filled directly.
//! - *Two cores.* Words are grouped in blocks by the top bits of `H`; a block depends only on the
//!   blocks whose index is a sub-mask of its own, so blocks of equal popcount run in parallel.
//!
//! Remoteness comes from layers instead: pass `k` adds the positions decided in `k` picks, and
//! within a pass every word is independent, so a pass goes a tile of words at a time in slice
//! operations ([`solve_depths`], every position's remoteness in bit-planes). [`solve_near`]
//! keeps the two sets but no planes, only the values of the positions near the start; past
//! 24 numbers [`solve_start`] does the same passes in one bit a position, overwriting the set
//! in place.

use super::pool::{Pool, bits};
use crate::budget::{Cancel, Cancelled};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Low numbers packed into one word.
const LOW_BITS: usize = 6;
/// `WITHOUT[i]`: the subsets of the six low numbers that leave out low number `i`.
const WITHOUT: [u64; LOW_BITS] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0f0f_0f0f_0f0f_0f0f,
    0x00ff_00ff_00ff_00ff,
    0x0000_ffff_0000_ffff,
    0x0000_0000_ffff_ffff,
];
/// Top bits of the word index used to split the work into blocks.
const BLOCK_BITS: usize = 8;

/// The solved table: bit `A` is set when the player to move with `A` available wins.
pub struct WinTable {
    blocks: Vec<Vec<u64>>,
    inner_bits: usize,
    low_bits: usize,
}

impl WinTable {
    /// Whether the player to move wins with the numbers of `available` left.
    #[must_use]
    pub fn wins(&self, available: u64) -> bool {
        let word = (available >> self.low_bits) as usize;
        let bit = available & ((1u64 << self.low_bits) - 1);
        let block = &self.blocks[word >> self.inner_bits];
        block[word & ((1usize << self.inner_bits) - 1)] >> bit & 1 == 1
    }
}

/// Bytes the table takes for a pool of `n` numbers.
#[must_use]
pub fn table_bytes(n: usize) -> u64 {
    8u64 << n.saturating_sub(LOW_BITS)
}

/// Masks over the subsets of the low numbers, fixed for a pool.
struct LowMasks {
    low_bits: usize,
    /// All valid bits of a word.
    valid: u64,
    /// `layer[k]`: subsets with `k` low numbers.
    layer: [u64; LOW_BITS + 1],
    /// `without[i]`: subsets that do not contain low number `i`.
    without: [u64; LOW_BITS],
    /// Subset sums in increasing order, and `at_most[j]`: the subsets among the first `j + 1`.
    sorted_sums: Vec<i128>,
    at_most: Vec<u64>,
    /// `by_sum[x]`: the subsets with sum at most `x`, for every `x` below the largest sum,
    /// when the low numbers are small enough for the table to be short (empty otherwise).
    by_sum: Vec<u64>,
}

/// Largest subset sum of the low numbers for which [`LowMasks`] tabulates every sum.
const BY_SUM_MAX: i128 = 4096;

impl LowMasks {
    fn new(pool: &Pool) -> LowMasks {
        let low_bits = pool.len().min(LOW_BITS);
        let count = 1usize << low_bits;
        let valid = if count == 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        };
        let mut layer = [0u64; LOW_BITS + 1];
        let mut without = [0u64; LOW_BITS];
        let mut by_sum: Vec<(i128, usize)> = Vec::with_capacity(count);
        for l in 0..count {
            layer[l.count_ones() as usize] |= 1 << l;
            for (i, w) in without.iter_mut().enumerate().take(low_bits) {
                if l >> i & 1 == 0 {
                    *w |= 1 << l;
                }
            }
            by_sum.push((pool.sum_of(l as u64), l));
        }
        by_sum.sort_unstable();
        let mut at_most = Vec::with_capacity(count);
        let mut acc = 0u64;
        for &(_, l) in &by_sum {
            acc |= 1 << l;
            at_most.push(acc);
        }
        debug_assert!(low_bits < LOW_BITS || without == WITHOUT);
        let sorted_sums: Vec<i128> = by_sum.into_iter().map(|(s, _)| s).collect();
        let largest = sorted_sums[count - 1];
        let by_sum = if largest <= BY_SUM_MAX {
            // Sums are at least 0 (the empty subset's): index `x` counts the sums up to `x`.
            let mut taken = 0;
            (0..largest)
                .map(|x| {
                    while taken < count && sorted_sums[taken] <= x {
                        taken += 1;
                    }
                    if taken == 0 { 0 } else { at_most[taken - 1] }
                })
                .collect()
        } else {
            Vec::new()
        };
        LowMasks {
            low_bits,
            valid,
            layer,
            without,
            sorted_sums,
            at_most,
            by_sum,
        }
    }

    /// The subsets `L` with `sum(L) <= limit`.
    fn sum_at_most(&self, limit: i128) -> u64 {
        // A binary search without branches: words come in no useful order, and a mispredicted
        // step per word cost more than the rest of setting the word up.
        let sums = &self.sorted_sums;
        let len = sums.len(); // a power of two
        // Most words are all open or all finished: no search for them.
        if limit < sums[0] {
            return 0;
        }
        if sums[len - 1] <= limit {
            return self.valid;
        }
        // Small numbers (the usual 1..=n): one read. `limit` is in 0..largest here.
        if let Some(&subsets) = usize::try_from(limit).ok().and_then(|x| self.by_sum.get(x)) {
            return subsets;
        }
        let mut n = 0;
        let mut step = len / 2;
        while step > 0 {
            n += step * usize::from(sums[n + step - 1] <= limit);
            step /= 2;
        }
        if n == 0 { 0 } else { self.at_most[n - 1] }
    }
}

/// Sums of the high numbers in a word index `h`, from two tables over half its bits each.
struct HighSums {
    split: usize,
    lower: Vec<i128>,
    upper: Vec<i128>,
}

impl HighSums {
    fn new(pool: &Pool, low_bits: usize) -> HighSums {
        let high_bits = pool.len() - low_bits;
        let split = high_bits / 2;
        let table = |shift: usize, bits: usize| -> Vec<i128> {
            (0..1u64 << bits)
                .map(|x| pool.sum_of(x << (low_bits + shift)))
                .collect()
        };
        HighSums {
            split,
            lower: table(0, split),
            upper: table(split, high_bits - split),
        }
    }

    #[inline]
    fn of(&self, h: u64) -> i128 {
        self.lower[(h & ((1 << self.split) - 1)) as usize] + self.upper[(h >> self.split) as usize]
    }
}

/// What is left to reach the target at each word's empty low part, the least in the word:
/// `need(A) = base_need + sum(A)`, the target minus what has been picked.
struct WordNeeds {
    high_sums: HighSums,
    base_need: i128,
}

impl WordNeeds {
    fn new(pool: &Pool, target: i128, low_bits: usize) -> WordNeeds {
        WordNeeds {
            high_sums: HighSums::new(pool, low_bits),
            base_need: target - pool.sum(),
        }
    }

    #[inline]
    fn least(&self, h: u64) -> i128 {
        self.base_need + self.high_sums.of(h)
    }

    /// The positions of word `h` whose need is met: the previous player reached the target.
    /// need(H ∪ L) <= 0  <=>  sum(L) <= -need(H).
    #[inline]
    fn finished(&self, masks: &LowMasks, h: u64) -> u64 {
        masks.sum_at_most(-self.least(h))
    }

    /// Every word's finished positions, written up front (see [`written_zeros`]); stopped
    /// once `cancel` is raised (seconds of work for the largest pools).
    fn finished_table(
        &self,
        masks: &LowMasks,
        words: usize,
        cancel: &Cancel,
    ) -> Result<Vec<u64>, Cancelled> {
        let mut table = written_zeros(words, cancel)?;
        for (chunk, part) in table.chunks_mut(1 << 16).enumerate() {
            cancel.check()?;
            let first = chunk << 16;
            for (h, w) in part.iter_mut().enumerate() {
                *w = self.finished(masks, (first + h) as u64);
            }
        }
        Ok(table)
    }
}

/// The numbers that decide one word: the pool, the rule, and the need at the empty low part.
struct Pass {
    masks: LowMasks,
    needs: WordNeeds,
    misere: bool,
}

impl Pass {
    /// Solve word `h` given `high_moves`: the OR of `!W[h - a]` over the high numbers `a` in `h`.
    #[inline]
    fn word(&self, h: u64, high_moves: u64) -> u64 {
        let m = &self.masks;
        let finished = self.needs.finished(m, h);
        let finished_value = if self.misere { finished } else { 0 };
        if finished == m.valid {
            return finished_value;
        }
        let open = !finished & m.valid;
        let mut w = (high_moves & open) | finished_value;
        for k in 1..=m.low_bits {
            let lost_below = !w & m.layer[k - 1];
            let mut won = 0;
            for i in 0..m.low_bits {
                won |= (lost_below & m.without[i]) << (1u32 << i);
            }
            w |= won & m.layer[k] & open;
        }
        w
    }
}

/// Solve every position of the game on `pool` towards `target`, normal or misère play.
///
/// `on_progress(done, total)` is called as blocks finish. Needs [`table_bytes`] of memory.
///
/// # Errors
/// [`Cancelled`] once `cancel` is raised (looked at before each block).
pub fn solve(
    pool: &Pool,
    target: i128,
    misere: bool,
    cancel: &Cancel,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<WinTable, Cancelled> {
    let masks = LowMasks::new(pool);
    let low_bits = masks.low_bits;
    let high_bits = pool.len() - low_bits;
    let block_bits = high_bits.min(BLOCK_BITS);
    let inner_bits = high_bits - block_bits;
    let block_len = 1usize << inner_bits;
    let pass = Pass {
        needs: WordNeeds::new(pool, target, low_bits),
        masks,
        misere,
    };

    let block_count = 1usize << block_bits;
    let mut blocks: Vec<Vec<u64>> = vec![Vec::new(); block_count];
    let total = block_count as u64;
    let mut done = 0u64;
    for popcount in 0..=block_bits as u32 {
        let indices: Vec<usize> = (0..block_count)
            .filter(|b| b.count_ones() == popcount)
            .collect();
        let solved: Vec<(usize, Vec<u64>)> = indices
            .par_iter()
            .map(|&b| {
                // A cancelled solve skips its blocks and is reported below.
                let words = if cancel.is_cancelled() {
                    Vec::new()
                } else {
                    solve_block(&pass, &blocks, b, inner_bits, block_len)
                };
                (b, words)
            })
            .collect();
        cancel.check()?;
        for (b, words) in solved {
            blocks[b] = words;
        }
        done += indices.len() as u64;
        on_progress(done, total);
    }
    Ok(WinTable {
        blocks,
        inner_bits,
        low_bits,
    })
}

/// Solve the words of block `b` (all `h` whose top bits are `b`), reading finished lower blocks.
fn solve_block(
    pass: &Pass,
    blocks: &[Vec<u64>],
    b: usize,
    inner_bits: usize,
    block_len: usize,
) -> Vec<u64> {
    let mut words = vec![0u64; block_len];
    let outer: Vec<usize> = bits(b as u64).collect();
    for inner in 0..block_len {
        let mut high_moves = 0u64;
        for i in bits(inner as u64) {
            high_moves |= !words[inner ^ (1 << i)];
        }
        for &j in &outer {
            high_moves |= !blocks[b ^ (1 << j)][inner];
        }
        let h = ((b << inner_bits) | inner) as u64;
        words[inner] = pass.word(h, high_moves);
    }
    words
}

/// Every position's value with its remoteness, found by layers: pass `k` adds the positions
/// whose remoteness is `k`. A win in `k` has a move into a loss in `k - 1`; a loss in `k` has
/// every move into a win in `k - 1` or less. Finished positions are losses in 0 (misère: wins
/// in 0), so in normal play wins have odd remoteness and losses even, and each pass changes only
/// one of the two sets: a pass reads the other set and grows its own. Since the outcome fixes
/// the parity, only half the pass number is written into bit-planes for the positions it adds:
/// one plane fewer.
///
/// The passes stop once the start and every position one pick from it are decided: positions
/// decided later are slower than anything perfect play from the start can reach, so the table
/// answers `None` for them ([`DepthTable::value`]).
///
/// Memory: the two sets plus `planes` bit-planes, `(2 + planes)` times [`table_bytes`].
pub struct DepthTable {
    win: Vec<u64>,
    lose: Vec<u64>,
    /// Tile by tile: the tile's `planes` bit-planes, `tile` words each. Bit `j` of a position's
    /// remoteness halved is in plane `j`.
    depth: Vec<u64>,
    planes: usize,
    misere: bool,
    tile_bits: usize,
    low_bits: usize,
}

impl DepthTable {
    /// Whether the player to move wins with the numbers of `available` left, and in how many
    /// moves to the end (0 when the game is over); `None` when the passes stopped before
    /// deciding it.
    #[must_use]
    pub fn value(&self, available: u64) -> Option<(bool, u32)> {
        let word = (available >> self.low_bits) as usize;
        let bit = available & ((1u64 << self.low_bits) - 1);
        let wins = self.win[word] >> bit & 1 == 1;
        if !wins && self.lose[word] >> bit & 1 == 0 {
            return None;
        }
        let tile = 1usize << self.tile_bits;
        let base = (word >> self.tile_bits) * self.planes * tile + (word & (tile - 1));
        let half: u32 = (0..self.planes)
            .map(|j| ((self.depth[base + j * tile] >> bit & 1) as u32) << j)
            .sum();
        // Wins are odd in normal play and even in misère play (finished positions are won in 0).
        Some((wins, 2 * half + u32::from(wins != self.misere)))
    }
}

/// Tables of fewer words are solved on one thread. In a fresh process the pool's second
/// thread starts too late to help a solve of a few milliseconds: 20 numbers (2^14 words) took
/// 2.6 ms on one thread against 3.5 ms on two; 21 and 22 numbers break even.
const PARALLEL_WORDS: usize = 1 << 15;

/// A pass works through the table a tile of `2^TILE_BITS` words at a time (4 KiB a set): the
/// tile's moves on its own high numbers are slice operations inside it, the rest are whole
/// tiles combined, and all of it stays in the first-level cache.
const TILE_BITS: usize = 9;

/// Words of a tile combined in straight-line code, and their index bits.
const GROUP_BITS: usize = 3;
const GROUP: usize = 1 << GROUP_BITS;

/// Tiles solved together by [`solve_start`] before they are written back (2 MiB).
const BATCH_TILES: usize = 512;

/// Bit-planes needed for half the remoteness, up to `n` picks (at least one, so that tiles of
/// planes are never empty).
fn depth_planes(n: usize) -> usize {
    ((usize::BITS - (n / 2).leading_zeros()) as usize).max(1)
}

/// Bytes [`solve_depths`] takes for a pool of `n` numbers.
#[must_use]
pub fn depth_bytes(n: usize) -> u64 {
    table_bytes(n).saturating_mul(2 + depth_planes(n) as u64)
}

/// Solve positions with their remoteness until the start is settled (see [`DepthTable`]).
/// `on_progress(k, n)` is called after pass `k`; there are at most `n + 1` passes.
///
/// # Errors
/// [`Cancelled`] once `cancel` is raised (looked at before each tile).
pub fn solve_depths(
    pool: &Pool,
    target: i128,
    misere: bool,
    cancel: &Cancel,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<DepthTable, Cancelled> {
    let keep = Keep::Planes;
    solve_depths_with(
        pool,
        target,
        misere,
        TILE_BITS,
        true,
        keep,
        cancel,
        on_progress,
    )
    .map(|(table, _)| table)
}

/// The start's value and the values of the positions up to `depth` picks from it (at least
/// one), by the passes of [`solve_depths`] without their bit-planes: the two sets, twice the
/// [`table_bytes`] of the outcome table. Watched positions take the number of the pass that
/// decides them; the passes stop when the start and every position one pick from it are
/// decided.
///
/// # Errors
/// [`Cancelled`] once `cancel` is raised.
pub fn solve_near(
    pool: &Pool,
    target: i128,
    misere: bool,
    depth: usize,
    cancel: &Cancel,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<StartValues, Cancelled> {
    let watched = near(pool.full_mask(), depth.max(1));
    let keep = Keep::Watched(&watched);
    let (_, found) = solve_depths_with(
        pool,
        target,
        misere,
        TILE_BITS,
        true,
        keep,
        cancel,
        on_progress,
    )?;
    Ok(StartValues::of_watched(&watched, found))
}

/// The watched positions' values (win or loss for the player to move, and the pass that
/// decided them), `None` when still undecided.
pub(crate) type Watched = Vec<Option<(bool, u32)>>;

/// What the depth passes keep besides the two sets.
#[derive(Clone, Copy)]
pub(crate) enum Keep<'w> {
    /// Every position's remoteness, in bit-planes.
    Planes,
    /// Only the values of these positions, noted after each pass.
    Watched(&'w [u64]),
}

/// The moves of one pass: which set it grows, and how a tile's words read the other set.
struct Moves<'a> {
    masks: &'a LowMasks,
    /// Whether the pass grows the won set (some move into the other set) or the lost set
    /// (every move into it).
    grow_wins: bool,
    tile_bits: usize,
}

impl Moves<'_> {
    /// Into `acc`, for each position of tile `t`: whether some move (`grow_wins`) or every move
    /// leads into `other`.
    #[inline(always)]
    fn gather(&self, t: usize, other: &[u64], acc: &mut [u64]) {
        let m = self.masks;
        let len = acc.len();
        let first = t << self.tile_bits;
        let own = &other[first..first + len];
        // Moves on the low numbers: shifts inside each word. With all six low numbers the
        // shifts and masks are constants and the loop runs on vector registers.
        if m.low_bits == LOW_BITS {
            if self.grow_wins {
                for (a, &mine) in acc.iter_mut().zip(own) {
                    *a = (0..LOW_BITS).fold(0, |any, i| any | (mine & WITHOUT[i]) << (1u32 << i));
                }
            } else {
                for (a, &mine) in acc.iter_mut().zip(own) {
                    *a = (0..LOW_BITS).fold(u64::MAX, |all, i| {
                        all & (((mine & WITHOUT[i]) << (1u32 << i)) | WITHOUT[i])
                    });
                }
            }
        } else {
            for (a, &mine) in acc.iter_mut().zip(own) {
                *a = if self.grow_wins {
                    (0..m.low_bits).fold(0, |any, i| any | (mine & m.without[i]) << (1u32 << i))
                } else {
                    (0..m.low_bits).fold(m.valid, |all, i| {
                        all & (((mine & m.without[i]) << (1u32 << i)) | m.without[i])
                    })
                };
            }
        }
        if first == 0 && !self.grow_wins {
            acc[0] &= !1; // the empty set has no move
        }
        // Moves on the tile's own high numbers: for each, the words holding it read the words
        // without it, half a block away.
        let inner = len.trailing_zeros() as usize;
        let mut first_inner = 0;
        if inner >= GROUP_BITS {
            // The three lowest in a group of eight words at a time, in straight-line code: as
            // slices their halves are one to four words long.
            for (a, o) in acc.chunks_exact_mut(GROUP).zip(own.chunks_exact(GROUP)) {
                for j in 1..GROUP {
                    for i in 0..GROUP_BITS {
                        if j >> i & 1 == 1 {
                            let moved = o[j ^ (1 << i)];
                            a[j] = if self.grow_wins {
                                a[j] | moved
                            } else {
                                a[j] & moved
                            };
                        }
                    }
                }
            }
            first_inner = GROUP_BITS;
        }
        for i in first_inner..inner {
            let half = 1 << i;
            for (a, o) in acc
                .chunks_exact_mut(2 * half)
                .zip(own.chunks_exact(2 * half))
            {
                self.combine(&mut a[half..], &o[..half]);
            }
        }
        // Moves on the numbers that pick the tile: whole tiles.
        for i in bits(t as u64) {
            let from = (t ^ (1 << i)) << self.tile_bits;
            self.combine(acc, &other[from..from + len]);
        }
    }

    /// A won position needs some move into the other set, a lost one every move.
    #[inline(always)]
    fn combine(&self, acc: &mut [u64], moved: &[u64]) {
        if self.grow_wins {
            for (a, &o) in acc.iter_mut().zip(moved) {
                *a |= o;
            }
        } else {
            for (a, &o) in acc.iter_mut().zip(moved) {
                *a &= o;
            }
        }
    }
}

/// The fixed inputs of one depth pass.
struct DepthPass<'a> {
    moves: Moves<'a>,
    /// Half the pass number, written into the planes of the positions it adds.
    half_k: u64,
    planes: usize,
}

impl DepthPass<'_> {
    /// Grow tile `t` of the growing set (`growing`, with its planes `depth`) from `other`, the
    /// set this pass reads. Returns whether any position was added, and whether any is still
    /// undecided.
    #[inline(always)]
    fn tile(
        &self,
        t: usize,
        growing: &mut [u64],
        depth: Option<&mut [u64]>,
        other: &[u64],
    ) -> (bool, bool) {
        let m = self.moves.masks;
        let len = growing.len();
        let depth = depth.unwrap_or_default();
        let first = t << self.moves.tile_bits;
        let own = &other[first..first + len];
        let mut acc = [0u64; 1 << TILE_BITS];
        let acc = &mut acc[..len];
        self.moves.gather(t, other, acc);
        let mut added = 0u64;
        let mut undecided = 0u64;
        for ((a, g), &o) in acc.iter_mut().zip(growing.iter_mut()).zip(own) {
            let fresh = *a & m.valid & !*g & !o;
            *g |= fresh;
            *a = fresh;
            added |= fresh;
            undecided |= m.valid & !*g & !o;
        }
        for (j, plane) in depth.chunks_exact_mut(len).enumerate().take(self.planes) {
            if self.half_k >> j & 1 == 1 {
                for (p, &f) in plane.iter_mut().zip(acc.iter()) {
                    *p |= f;
                }
            }
        }
        (added != 0, undecided != 0)
    }
}

/// One tile of a depth pass, run with the widest vector instructions the machine has (AVX2 or
/// AVX-512 where present; the build itself targets plain x86-64): the tile's word loops are
/// inlined into code compiled for them. 20 numbers: 0.80 ms a full analysis on SSE2, 0.56 ms.
struct TileJob<'a, 'p> {
    pass: &'a DepthPass<'p>,
    t: usize,
    growing: &'a mut [u64],
    depth: Option<&'a mut [u64]>,
    other: &'a [u64],
}

impl pulp::WithSimd for TileJob<'_, '_> {
    type Output = (bool, bool);

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> (bool, bool) {
        self.pass.tile(self.t, self.growing, self.depth, self.other)
    }
}

/// One tile's [`Moves::gather`], run like [`TileJob`].
struct Gather<'a> {
    moves: &'a Moves<'a>,
    t: usize,
    other: &'a [u64],
    acc: &'a mut [u64],
}

impl pulp::WithSimd for Gather<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        self.moves.gather(self.t, self.other, self.acc);
    }
}

/// Zeros written up front. `vec![0; len]` leaves the pages unmapped, and the passes read a word
/// before they write it: two page faults a page (the shared zero page, then a copy), which in a
/// fresh process cost as much as the passes themselves. Written 8 MiB at a time, looking at
/// `cancel` between (the largest tables take a second to write).
fn written_zeros(len: usize, cancel: &Cancel) -> Result<Vec<u64>, Cancelled> {
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        cancel.check()?;
        let more = (len - v.len()).min(1 << 20);
        v.resize(v.len() + more, 0u64);
    }
    Ok(v)
}

/// [`solve_depths`] with its tile size, whether to stop once the start is settled or go on
/// until every position is decided, and what to keep. With [`Keep::Watched`] the table has no
/// planes and the watched positions' values come second, in their order (`None` when still
/// undecided at the end). Stopped with [`Cancelled`] once `cancel` is raised.
#[allow(
    clippy::too_many_arguments,
    reason = "the public solvers above fix most of them"
)]
pub(crate) fn solve_depths_with(
    pool: &Pool,
    target: i128,
    misere: bool,
    tile_bits: usize,
    stop_when_settled: bool,
    keep: Keep<'_>,
    cancel: &Cancel,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(DepthTable, Watched), Cancelled> {
    let masks = LowMasks::new(pool);
    let low_bits = masks.low_bits;
    let words = 1usize << (pool.len() - low_bits);
    let tile_bits = tile_bits.min(TILE_BITS).min(pool.len() - low_bits);
    let tile = 1usize << tile_bits;
    let (planes, watched) = match keep {
        Keep::Planes => (depth_planes(pool.len()), &[][..]),
        Keep::Watched(watched) => (0, watched),
    };
    // Finished positions: lost in 0 for the player to move (won in 0 in misère play).
    let finished = WordNeeds::new(pool, target, low_bits).finished_table(&masks, words, cancel)?;
    let (mut win, mut lose) = if misere {
        (finished, written_zeros(words, cancel)?)
    } else {
        (written_zeros(words, cancel)?, finished)
    };
    let mut depth = written_zeros(words * planes, cancel)?;
    // Tiles with no undecided position left are skipped.
    let mut open = vec![true; words / tile];
    let full = pool.full_mask();
    let has = |set: &[u64], a: u64| {
        let (word, bit) = ((a >> low_bits) as usize, a & ((1u64 << low_bits) - 1));
        set[word] >> bit & 1 == 1
    };
    let decided = |win: &[u64], lose: &[u64], a: u64| has(win, a) || has(lose, a);
    let mut found: Vec<Option<(bool, u32)>> = watched
        .iter()
        .map(|&a| has(if misere { &win } else { &lose }, a).then_some((misere, 0)))
        .collect();
    // The driving loop runs on a worker of the pool: each pass's tiles are then shared out
    // by the worker itself while the other is still awake, instead of being handed in from
    // outside and waking the pool every pass.
    let arch = pulp::Arch::new();
    let mut passes = || {
        let mut quiet_passes = 0;
        for k in 1u64.. {
            let grow_wins = (k % 2 == 1) != misere;
            let (growing, other) = if grow_wins {
                (&mut win, &lose)
            } else {
                (&mut lose, &win)
            };
            let pass = DepthPass {
                moves: Moves {
                    masks: &masks,
                    grow_wins,
                    tile_bits,
                },
                half_k: k / 2,
                planes,
            };
            // One tile of planes per tile of the set, or none.
            let mut depth_tiles: Vec<Option<&mut [u64]>> = if planes == 0 {
                open.iter().map(|_| None).collect()
            } else {
                depth.chunks_mut(tile * planes).map(Some).collect()
            };
            type Job<'j, 'd> = (
                usize,
                ((&'j mut [u64], &'j mut Option<&'d mut [u64]>), &'j mut bool),
            );
            let run = |(t, ((g, d), open)): Job<'_, '_>| {
                // A cancelled pass leaves its tiles as they are; the loop then stops.
                if !*open || cancel.is_cancelled() {
                    return false;
                }
                let (added, undecided) = arch.dispatch(TileJob {
                    pass: &pass,
                    t,
                    growing: g,
                    depth: d.as_deref_mut(),
                    other,
                });
                *open = undecided;
                added
            };
            // Small tables stay on this thread: handing a few words to the pool each pass costs
            // more than the words (a batch of small queries spent 90% of its time in rayon).
            let added = if words < PARALLEL_WORDS {
                growing
                    .chunks_mut(tile)
                    .zip(depth_tiles.iter_mut())
                    .zip(open.iter_mut())
                    .enumerate()
                    .fold(false, |any, job| run(job) | any)
            } else {
                growing
                    .par_chunks_mut(tile)
                    .zip(depth_tiles.par_iter_mut())
                    .zip(open.par_iter_mut())
                    .enumerate()
                    .map(run)
                    .reduce(|| false, |a, b| a | b)
            };
            drop(depth_tiles);
            if cancel.is_cancelled() {
                return;
            }
            for (f, &a) in found.iter_mut().zip(watched) {
                if f.is_none() && has(growing, a) {
                    *f = Some((grow_wins, k as u32));
                }
            }
            on_progress(k.min(pool.len() as u64), pool.len() as u64);
            quiet_passes = if added { 0 } else { quiet_passes + 1 };
            let settled = stop_when_settled
                && decided(&win, &lose, full)
                && bits(full).all(|i| decided(&win, &lose, full & !(1 << i)));
            if quiet_passes == 2 || settled {
                break;
            }
        }
    };
    if words < PARALLEL_WORDS {
        passes();
    } else {
        rayon::scope(|_| passes());
    }
    cancel.check()?;
    let table = DepthTable {
        win,
        lose,
        depth,
        planes,
        misere,
        tile_bits,
        low_bits,
    };
    Ok((table, found))
}

/// Values of positions near the start, from [`solve_start`].
pub struct StartValues {
    values: FxHashMap<u64, (bool, u32)>,
}

impl StartValues {
    /// Whether the player to move with the numbers of `available` left wins, and the
    /// remoteness: known for the start and every position one pick from it; for positions up
    /// to the depth asked, when decided by then (the others are slower than any line of
    /// perfect play through them from the start).
    #[must_use]
    pub fn value(&self, available: u64) -> Option<(bool, u32)> {
        self.values.get(&available).copied()
    }

    /// The values found for `watched`, in its order (`None`: still undecided at the end).
    fn of_watched(watched: &[u64], found: Vec<Option<(bool, u32)>>) -> StartValues {
        let mut values = FxHashMap::with_capacity_and_hasher(watched.len(), Default::default());
        values.extend(
            watched
                .iter()
                .zip(found)
                .filter_map(|(&a, f)| Some((a, f?))),
        );
        StartValues { values }
    }
}

/// The start's value and the values of the positions up to `depth` picks from it (at least
/// one), by the layers of [`solve_depths`] in one bit a position: the [`table_bytes`] of the
/// outcome table and nothing more.
///
/// One array holds the wins within `k` picks; it is then overwritten by the losses within
/// `k + 1` (every move into a win within `k`), then by the wins within `k + 2` (some move into
/// a loss within `k + 1`), and so on: each set is computed from the other alone. Overwriting in
/// place is safe when tiles go in descending order, since a tile reads only itself and tiles
/// without some of its numbers, which come later. Watched positions take the number of the
/// pass in which they first appear; the passes stop when the start and all positions one pick
/// from it have.
///
/// # Errors
/// [`Cancelled`] once `cancel` is raised (looked at before each batch of tiles).
pub fn solve_start(
    pool: &Pool,
    target: i128,
    misere: bool,
    depth: usize,
    cancel: &Cancel,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<StartValues, Cancelled> {
    let (tile_bits, batch) = (TILE_BITS, BATCH_TILES);
    solve_start_with(
        pool,
        target,
        misere,
        depth,
        tile_bits,
        batch,
        cancel,
        on_progress,
    )
}

/// `available` and every subset of it without at most `depth` of its numbers, nearest first.
pub(crate) fn near(available: u64, depth: usize) -> Vec<u64> {
    let mut out = vec![available];
    let mut level = vec![(available, u64::MAX)];
    for _ in 0..depth {
        let mut next = Vec::new();
        for &(a, below) in &level {
            // Remove numbers in increasing index order, each set once.
            for i in bits(a & below) {
                next.push((a & !(1 << i), (1u64 << i) - 1));
            }
        }
        out.extend(next.iter().map(|&(a, _)| a));
        level = next;
    }
    out
}

/// [`solve_start`] with its tile size and the tiles in a batch.
#[allow(clippy::too_many_arguments, reason = "solve_start fixes the two sizes")]
pub(crate) fn solve_start_with(
    pool: &Pool,
    target: i128,
    misere: bool,
    depth: usize,
    tile_bits: usize,
    batch_tiles: usize,
    cancel: &Cancel,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<StartValues, Cancelled> {
    let masks = LowMasks::new(pool);
    let low_bits = masks.low_bits;
    let words = 1usize << (pool.len() - low_bits);
    let tile_bits = tile_bits.min(TILE_BITS).min(pool.len() - low_bits);
    let tile = 1usize << tile_bits;
    let needs = WordNeeds::new(pool, target, low_bits);
    // Finished positions are lost in 0 for the player to move (won in 0 in misère play), and
    // belong to every later set of their kind.
    let finished_wins = misere;
    let mut set = needs.finished_table(&masks, words, cancel)?;
    let full = pool.full_mask();
    // The start and the positions one pick from it come first: the passes stop when those are
    // decided.
    let watched = near(full, depth.max(1));
    let needed = 1 + pool.len();
    let mut found: Vec<Option<(bool, u32)>> = vec![None; watched.len()];
    let mut record = |set: &[u64], k: u32, wins: bool| {
        for (f, &a) in found.iter_mut().zip(&watched) {
            let word = set[(a >> low_bits) as usize];
            if f.is_none() && word >> (a & ((1 << low_bits) - 1)) & 1 == 1 {
                *f = Some((wins, k));
            }
        }
        found[..needed].iter().all(Option::is_some)
    };
    let mut done = record(&set, 0, finished_wins);
    let n = pool.len() as u32;
    let tiles = words / tile;
    let batch = tiles.min(batch_tiles.next_power_of_two());
    let mut next = vec![0u64; batch * tile];
    let arch = pulp::Arch::new();
    // Every position is decided within `n` picks, so the start and its picks are too.
    for k in 1..=n {
        if done {
            break;
        }
        let grow_wins = (k % 2 == 1) != misere;
        let moves = Moves {
            masks: &masks,
            grow_wins,
            tile_bits,
        };
        // Positions of the other kind are excluded (a loss has no move into a loss; a win is
        // no loss); finished ones rejoin their kind.
        let solve_tile = |set: &[u64], t: usize, out: &mut [u64]| {
            arch.dispatch(Gather {
                moves: &moves,
                t,
                other: set,
                acc: out,
            });
            let first = t << tile_bits;
            // The tile's least need is at its first word (its own numbers all picked): when that
            // is still positive, no position in it is finished.
            let any_finished = grow_wins == finished_wins && needs.least(first as u64) <= 0;
            for (j, (o, &w)) in out.iter_mut().zip(&set[first..first + tile]).enumerate() {
                let base = if any_finished {
                    needs.finished(&masks, (first + j) as u64)
                } else {
                    0
                };
                *o = (*o & masks.valid & !w) | base;
            }
        };
        // A batch of tiles is solved from the old set, then written back: the tiles of later
        // batches never read it, and within a batch nothing is overwritten yet, so the batch's
        // tiles can share the cores.
        for end in (1..=tiles / batch).rev().map(|b| b * batch) {
            cancel.check()?;
            let start = end - batch;
            if words < PARALLEL_WORDS {
                for (out, t) in next.chunks_mut(tile).zip(start..end) {
                    solve_tile(&set, t, out);
                }
            } else {
                next.par_chunks_mut(tile)
                    .zip(start..end)
                    .for_each(|(out, t)| solve_tile(&set, t, out));
            }
            set[start * tile..end * tile].copy_from_slice(&next);
        }
        done = record(&set, k, grow_wins);
        on_progress(u64::from(k), u64::from(n));
    }
    Ok(StartValues::of_watched(&watched, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subsets of the low numbers with sum at most `limit`, by the table for small numbers
    /// and by the search for large ones, are the ones counted by brute force.
    #[test]
    fn low_subsets_with_sum_at_most() {
        let pools = [
            vec![1, 2, 3, 4, 5, 6],
            vec![2, 3, 5, 7],
            vec![1, 2, 3, 5, 8, 13, 21],
            vec![700, 1000, 1200, 1500, 1700, 1800],
            vec![9, 1_000_000, 3_000_000_000],
        ];
        for values in pools {
            let pool = Pool::new(values.clone()).unwrap();
            let masks = LowMasks::new(&pool);
            let low_sum = pool.sum_of(pool.full_mask() & 63);
            assert_eq!(masks.by_sum.is_empty(), low_sum > BY_SUM_MAX, "{values:?}");
            let largest = masks.sorted_sums[masks.sorted_sums.len() - 1];
            let mut limits: Vec<i128> = (-3..=largest.min(5000) + 3).collect();
            limits.extend(masks.sorted_sums.iter().flat_map(|&s| [s - 1, s, s + 1]));
            for limit in limits {
                let expected = (0..1u64 << masks.low_bits)
                    .filter(|&l| pool.sum_of(l) <= limit)
                    .fold(0u64, |m, l| m | 1 << l);
                assert_eq!(masks.sum_at_most(limit), expected, "{values:?} {limit}");
            }
        }
    }
}
