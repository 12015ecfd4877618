//! Sets of squares numbered densely (the combinatorial number system), for the games' indexes.

/// Binomial coefficients up to a size, and the ranks of sets they give. One flat table, so a
/// lookup is one load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Binomials {
    /// `table[a * width + b]` is `choose(a, b)`.
    table: Vec<u64>,
    width: usize,
}

impl Binomials {
    /// `choose(a, b)` for every `b <= a <= n` (saturating past `u64`).
    pub(crate) fn new(n: usize) -> Binomials {
        let width = n + 2;
        let mut table = vec![0u64; (n + 1) * width];
        for a in 0..=n {
            table[a * width] = 1;
            for b in 1..=a {
                table[a * width + b] =
                    table[(a - 1) * width + b - 1].saturating_add(table[(a - 1) * width + b]);
            }
        }
        Binomials { table, width }
    }

    /// Ways to choose `b` of `a`.
    #[inline]
    pub(crate) fn choose(&self, a: usize, b: usize) -> u64 {
        self.table[a * self.width + b]
    }

    /// The rank of the set `bits` among all sets of as many elements: the sum of
    /// `choose(p, j)` over its elements `p`, the `j`-th smallest counted from 1.
    pub(crate) fn rank(&self, bits: u64) -> u64 {
        let mut rank = 0;
        let mut rest = bits;
        let mut j = 0;
        while rest != 0 {
            j += 1;
            rank += self.choose(rest.trailing_zeros() as usize, j);
            rest &= rest - 1;
        }
        rank
    }

    /// The set of `k` elements below `n` with this rank.
    pub(crate) fn unrank(&self, mut rank: u64, k: usize, n: usize) -> u64 {
        let mut bits = 0;
        let mut left = k;
        let mut p = n;
        while left > 0 {
            p -= 1;
            let c = self.choose(p, left);
            if c <= rank {
                rank -= c;
                bits |= 1 << p;
                left -= 1;
            }
        }
        bits
    }
}

/// Two disjoint sets of squares and the side to move, numbered densely tier by tier, one tier
/// for each pair of set sizes (Dodgem's cars, Hexapawn's pawns): within a tier, the first set
/// ranked among all sets of its size, the second among the squares the first leaves, then the
/// side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TwoSets {
    cells: u32,
    choose: Binomials,
    /// The tiers in order, as set sizes (first, second).
    tiers: Vec<(u32, u32)>,
    /// Where each tier starts; one more entry for the end.
    starts: Vec<u64>,
}

impl TwoSets {
    /// The numbering of two sets on `cells` squares with the sizes of `tiers`, in that order.
    pub(crate) fn new(cells: u32, tiers: Vec<(u32, u32)>) -> TwoSets {
        let choose = Binomials::new(cells as usize);
        let mut starts = vec![0u64];
        for &(a, b) in &tiers {
            let size = choose
                .choose(cells as usize, a as usize)
                .saturating_mul(choose.choose((cells - a) as usize, b as usize))
                .saturating_mul(2);
            let last = *starts.last().unwrap_or(&0);
            starts.push(last.saturating_add(size));
        }
        TwoSets {
            cells,
            choose,
            tiers,
            starts,
        }
    }

    /// Every pair of sizes up to `most` each, the larger totals first, then the larger first
    /// set: the order in which moves that take a piece off only lead forward.
    pub(crate) fn shrinking_tiers(most: u32) -> Vec<(u32, u32)> {
        let mut tiers: Vec<(u32, u32)> = (0..=most)
            .flat_map(|a| (0..=most).map(move |b| (a, b)))
            .collect();
        tiers.sort_by_key(|&(a, b)| (std::cmp::Reverse(a + b), std::cmp::Reverse(a)));
        tiers
    }

    /// Indices in all (sets and the side to move).
    pub(crate) fn count(&self) -> u64 {
        *self.starts.last().unwrap_or(&0)
    }

    /// How many tiers.
    pub(crate) fn tier_count(&self) -> u64 {
        self.tiers.len() as u64
    }

    /// The tiers one piece fewer (of either set) leads to: the only moves out of a tier
    /// take a piece off.
    pub(crate) fn tier_children(&self, tier: u64) -> Vec<u64> {
        let Some(&(a, b)) = self.tiers.get(tier as usize) else {
            return Vec::new();
        };
        let fewer = [
            a.checked_sub(1).map(|a| (a, b)),
            b.checked_sub(1).map(|b| (a, b)),
        ];
        (0..self.tiers.len() as u64)
            .filter(|&t| fewer.contains(&Some(self.tiers[t as usize])))
            .collect()
    }

    /// The indices of a tier.
    pub(crate) fn tier_range(&self, tier: u64) -> std::ops::Range<u64> {
        self.starts[tier as usize]..self.starts[tier as usize + 1]
    }

    /// The index of two disjoint sets and the side to move.
    pub(crate) fn index(&self, first: u64, second: u64, first_to_move: bool) -> u64 {
        let (a, b) = (first.count_ones(), second.count_ones());
        let tier = self.tiers.iter().position(|&t| t == (a, b)).unwrap_or(0);
        let rest = compress(second, first, self.cells);
        let seconds = self.choose.choose((self.cells - a) as usize, b as usize);
        let within = self.choose.rank(first) * seconds + self.choose.rank(rest);
        self.starts[tier] + within * 2 + u64::from(!first_to_move)
    }

    /// The sets and the side to move of an index.
    pub(crate) fn sets(&self, index: u64) -> Option<(u64, u64, bool)> {
        let tier = self
            .starts
            .partition_point(|&s| s <= index)
            .checked_sub(1)?;
        let &(a, b) = self.tiers.get(tier)?;
        let cells = self.cells;
        let within = index - self.starts[tier];
        let seconds = self.choose.choose((cells - a) as usize, b as usize);
        let (first_rank, second_rank) = (within / 2 / seconds, within / 2 % seconds);
        let first = self.choose.unrank(first_rank, a as usize, cells as usize);
        let second = expand(
            self.choose
                .unrank(second_rank, b as usize, (cells - a) as usize),
            first,
            cells,
        );
        Some((first, second, within.is_multiple_of(2)))
    }
}

/// `bits` with the squares of `taken` left out (the squares left, renumbered).
fn compress(bits: u64, taken: u64, cells: u32) -> u64 {
    (0..cells)
        .filter(|p| taken >> p & 1 == 0)
        .enumerate()
        .fold(0, |out, (j, p)| out | (bits >> p & 1) << j)
}

/// The inverse of [`compress`].
fn expand(bits: u64, taken: u64, cells: u32) -> u64 {
    (0..cells)
        .filter(|p| taken >> p & 1 == 0)
        .enumerate()
        .fold(0, |out, (j, p)| out | (bits >> j & 1) << p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_of_a_size_has_its_own_rank_below_the_count() {
        let b = Binomials::new(10);
        for k in 0..=10 {
            let sets: Vec<u64> = (0u64..1 << 10)
                .filter(|s| s.count_ones() as usize == k)
                .collect();
            let mut ranks: Vec<u64> = sets.iter().map(|&s| b.rank(s)).collect();
            for (&s, &r) in sets.iter().zip(&ranks) {
                assert_eq!(b.unrank(r, k, 10), s);
            }
            ranks.sort_unstable();
            assert_eq!(ranks, (0..b.choose(10, k)).collect::<Vec<_>>());
        }
    }
}
