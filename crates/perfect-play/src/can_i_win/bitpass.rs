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

use super::pool::{Pool, bits};
use rayon::prelude::*;

/// Low numbers packed into one word.
const LOW_BITS: usize = 6;
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
}

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
        LowMasks {
            low_bits,
            valid,
            layer,
            without,
            sorted_sums: by_sum.into_iter().map(|(s, _)| s).collect(),
            at_most,
        }
    }

    /// The subsets `L` with `sum(L) <= limit`.
    fn sum_at_most(&self, limit: i128) -> u64 {
        let n = self.sorted_sums.partition_point(|&s| s <= limit);
        if n == 0 { 0 } else { self.at_most[n - 1] }
    }
}

/// The numbers that decide one word: the pool, the rule, and the need at the empty low part.
struct Pass<'a> {
    masks: LowMasks,
    pool: &'a Pool,
    misere: bool,
    /// `need(A) = base_need + sum(A)`: the target minus what has been picked.
    base_need: i128,
}

impl Pass<'_> {
    /// Solve word `h` given `high_moves`: the OR of `!W[h - a]` over the high numbers `a` in `h`.
    #[inline]
    fn word(&self, h: u64, high_moves: u64) -> u64 {
        let m = &self.masks;
        let need_h = self.base_need + self.pool.sum_of(h << m.low_bits);
        // need(H ∪ L) <= 0  <=>  sum(L) <= -need_h: the previous player has reached the target.
        let finished = m.sum_at_most(-need_h);
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
pub fn solve(
    pool: &Pool,
    target: i128,
    misere: bool,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> WinTable {
    let masks = LowMasks::new(pool);
    let low_bits = masks.low_bits;
    let high_bits = pool.len() - low_bits;
    let block_bits = high_bits.min(BLOCK_BITS);
    let inner_bits = high_bits - block_bits;
    let block_len = 1usize << inner_bits;
    let pass = Pass {
        masks,
        pool,
        misere,
        base_need: target - pool.sum(),
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
            .map(|&b| (b, solve_block(&pass, &blocks, b, inner_bits, block_len)))
            .collect();
        for (b, words) in solved {
            blocks[b] = words;
        }
        done += indices.len() as u64;
        on_progress(done, total);
    }
    WinTable {
        blocks,
        inner_bits,
        low_bits,
    }
}

/// Solve the words of block `b` (all `h` whose top bits are `b`), reading finished lower blocks.
fn solve_block(
    pass: &Pass<'_>,
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
/// one of the two sets: both are updated in place, a word at a time with the same shifts as
/// the outcome pass, and the pass number is written into bit-planes for the positions it adds.
///
/// Memory: the two sets plus `planes` bit-planes, `(2 + planes)` times [`table_bytes`].
pub struct DepthTable {
    win: Vec<u64>,
    /// `planes` words per table word: bit `j` of a position's remoteness in word `j`.
    depth: Vec<u64>,
    planes: usize,
    low_bits: usize,
}

impl DepthTable {
    /// Whether the player to move wins with the numbers of `available` left.
    #[must_use]
    pub fn wins(&self, available: u64) -> bool {
        let (word, bit) = self.locate(available);
        self.win[word] >> bit & 1 == 1
    }

    /// Moves to the end under perfect play from `available` (0 when the game is over).
    #[must_use]
    pub fn remoteness(&self, available: u64) -> u32 {
        let (word, bit) = self.locate(available);
        let planes = &self.depth[word * self.planes..(word + 1) * self.planes];
        planes
            .iter()
            .enumerate()
            .map(|(j, p)| ((p >> bit & 1) as u32) << j)
            .sum()
    }

    fn locate(&self, available: u64) -> (usize, u64) {
        (
            (available >> self.low_bits) as usize,
            available & ((1u64 << self.low_bits) - 1),
        )
    }
}

/// Tables of fewer words are solved on one thread.
const PARALLEL_WORDS: usize = 1 << 12;

/// Words a thread takes at a time in a pass of [`solve_depths`].
const CHUNK_WORDS: usize = 1 << 10;

/// Bit-planes needed for remoteness up to `n` picks.
fn depth_planes(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

/// Bytes [`solve_depths`] takes for a pool of `n` numbers.
#[must_use]
pub fn depth_bytes(n: usize) -> u64 {
    table_bytes(n).saturating_mul(2 + depth_planes(n) as u64)
}

/// Solve every position with its remoteness (see [`DepthTable`]). `on_progress(k, n)` is
/// called after pass `k`; there are at most `n + 1` passes.
#[must_use]
pub fn solve_depths(
    pool: &Pool,
    target: i128,
    misere: bool,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> DepthTable {
    let masks = LowMasks::new(pool);
    let low_bits = masks.low_bits;
    let words = 1usize << (pool.len() - low_bits);
    let planes = depth_planes(pool.len());
    let pass = Pass {
        masks,
        pool,
        misere,
        base_need: target - pool.sum(),
    };
    // Finished positions: lost in 0 for the player to move (won in 0 in misère play).
    let finished = |h: usize| -> u64 {
        let need_h = pass.base_need + pool.sum_of((h as u64) << low_bits);
        pass.masks.sum_at_most(-need_h)
    };
    let mut win = vec![0u64; words];
    let mut lose = vec![0u64; words];
    let zero = if misere { &mut win } else { &mut lose };
    for (h, w) in zero.iter_mut().enumerate() {
        *w = finished(h);
    }
    let mut depth = vec![0u64; words * planes];
    let m = &pass.masks;
    let mut quiet_passes = 0;
    for k in 1u64.. {
        let grow_wins = (k % 2 == 1) != misere;
        let (growing, other) = if grow_wins {
            (&mut win, &lose)
        } else {
            (&mut lose, &win)
        };
        let grow = |h: usize, set: &mut u64, bits_of_depth: &mut [u64]| -> u64 {
            // Undecided positions: finished ones were put in a set before the first pass.
            let mine = other[h];
            let open = m.valid & !*set & !mine;
            if open == 0 {
                return 0;
            }
            let fresh = if grow_wins {
                // Some move leads into the other set.
                let mut any = 0u64;
                for i in bits(h as u64) {
                    any |= other[h ^ (1 << i)];
                }
                for i in 0..m.low_bits {
                    any |= (mine & m.without[i]) << (1u32 << i);
                }
                any
            } else {
                // Every move leads into the other set (and there is a move).
                let mut all = m.valid;
                for i in bits(h as u64) {
                    all &= other[h ^ (1 << i)];
                }
                for i in 0..m.low_bits {
                    all &= ((mine & m.without[i]) << (1u32 << i)) | m.without[i];
                }
                if h == 0 {
                    all &= !1; // the empty set has no move
                }
                all
            } & open;
            *set |= fresh;
            for (j, plane) in bits_of_depth.iter_mut().enumerate() {
                if k >> j & 1 == 1 {
                    *plane |= fresh;
                }
            }
            u64::from(fresh.count_ones())
        };
        // Words go to the threads a chunk at a time, each chunk one plain loop: handed over
        // word by word, a third of the time went to the pool's calls.
        let grow_chunk = |(c, (sets, depths)): (usize, (&mut [u64], &mut [u64]))| -> u64 {
            let mut added = 0;
            for (j, (set, bits_of_depth)) in
                sets.iter_mut().zip(depths.chunks_mut(planes)).enumerate()
            {
                added += grow(c * CHUNK_WORDS + j, set, bits_of_depth);
            }
            added
        };
        // Small tables stay on this thread: handing a few words to the pool each pass costs
        // more than the words (a batch of small queries spent 90% of its time in rayon).
        let added: u64 = if words < PARALLEL_WORDS {
            grow_chunk((0, (&mut growing[..], &mut depth[..])))
        } else {
            growing
                .par_chunks_mut(CHUNK_WORDS)
                .zip(depth.par_chunks_mut(CHUNK_WORDS * planes))
                .enumerate()
                .map(grow_chunk)
                .sum()
        };
        on_progress(k.min(pool.len() as u64), pool.len() as u64);
        quiet_passes = if added == 0 { quiet_passes + 1 } else { 0 };
        if quiet_passes == 2 {
            break;
        }
    }
    DepthTable {
        win,
        depth,
        planes,
        low_bits,
    }
}
