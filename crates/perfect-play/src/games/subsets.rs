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
