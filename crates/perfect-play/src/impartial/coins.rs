//! Coin-turning games (Winning Ways, chapter 14) as heap games: a row of coins, a move turns
//! some over with the rightmost going from heads to tails. A position is the sum of its heads,
//! so the component `GAME:N` is one head on coin `N` (coins numbered from 1; `N = 0` is no
//! coin), and a move replaces it with the heads it turns up (turning a head down again cancels
//! in the nim-sum, as two equal components do).
//!
//! - Mock Turtles: turn over one, two or three coins. The head on coin `n` is worth the
//!   `n`-th odious number (1, 2, 4, 7, 8, 11, ...: an odd count of ones in binary), that is
//!   `2(n - 1)` or `2(n - 1) + 1`, whichever is odious (Winning Ways numbers the coins from 0,
//!   its coin `k` is coin `k + 1` here).
//! - Ruler: turn over any run of adjacent coins ending at the head. The head on coin `n` is
//!   worth the largest power of 2 dividing `n`; the run from `k` to `n - 1` is worth
//!   `gray(n - 1) ^ gray(k - 1)` (`gray(m) = m ^ (m >> 1)` is the XOR of those powers from 1
//!   to `m`), so the move to any value is found by inverting the Gray code.
//!
//! Both answer heaps of any size by these closed forms.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

/// The longest run of coins a Ruler move lists as the heads it turns up.
pub const MAX_RUN_LISTED: u64 = 64;

/// Values tried for a Mock Turtles move's first coin when listing (the count is exact
/// whatever the listing finds).
pub const MAX_PAIRS_TRIED: u64 = 1 << 20;

/// A coin-turning game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoinRule {
    /// Turn over one, two or three coins, the rightmost from heads to tails.
    MockTurtles,
    /// Turn over a run of adjacent coins, the rightmost from heads to tails.
    Ruler,
}

fn is_odious(v: &BigUint) -> bool {
    v.count_ones() % 2 == 1
}

/// Bits of `v` past the lowest set one: `v & (v - 1)` is 0 for a power of two.
fn lowest_power(n: &BigUint) -> BigUint {
    match n.trailing_zeros() {
        Some(z) => BigUint::one() << z,
        None => BigUint::zero(),
    }
}

fn gray(m: &BigUint) -> BigUint {
    m ^ (m >> 1u8)
}

fn gray_inverse(g: &BigUint) -> BigUint {
    let mut m = g.clone();
    let mut shift = 1u64;
    while shift < g.bits().max(1) {
        let shifted = &m >> shift;
        m ^= shifted;
        shift *= 2;
    }
    m
}

impl CoinRule {
    /// Its name in `values` and `sum`: `mock-turtles`, `ruler`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CoinRule::MockTurtles => "mock-turtles",
            CoinRule::Ruler => "ruler",
        }
    }

    /// One line for people.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            CoinRule::MockTurtles => {
                "Mock Turtles: turn over 1, 2 or 3 coins, the rightmost from heads to tails (GAME:N is a head on coin N, from 1)"
            }
            CoinRule::Ruler => {
                "Ruler: turn over a run of adjacent coins, the rightmost from heads to tails (GAME:N is a head on coin N, from 1)"
            }
        }
    }

    /// The closed form, as the answers state it.
    #[must_use]
    pub fn formula(self) -> &'static str {
        match self {
            CoinRule::MockTurtles => {
                "g(0) = 0, g(n) = the n-th odious number: 2(n - 1) or 2(n - 1) + 1, whichever has an odd count of ones"
            }
            CoinRule::Ruler => "g(0) = 0, g(n) = the largest power of 2 dividing n",
        }
    }

    /// The value of a head on coin `n` (0: no coin).
    #[must_use]
    pub fn value(self, n: &BigUint) -> BigUint {
        if n.is_zero() {
            return BigUint::zero();
        }
        match self {
            CoinRule::MockTurtles => {
                let even = (n - 1u8) << 1u8;
                if is_odious(&even) { even } else { even + 1u8 }
            }
            CoinRule::Ruler => lowest_power(n),
        }
    }

    /// The coin whose head is worth `v`, if any (every value is some coin's in the Ruler only
    /// for powers of two; in Mock Turtles for odious numbers).
    fn coin_worth(self, v: &BigUint) -> Option<BigUint> {
        match self {
            CoinRule::MockTurtles => is_odious(v).then(|| (v >> 1u8) + 1u8),
            CoinRule::Ruler => None,
        }
    }

    /// Every move from a head on coin `n` that leaves the value `target`, as the coins it
    /// turns up (ascending); `list` sees them (the first `limit` at most); returns how many
    /// there are.
    pub fn moves_to(
        self,
        n: &BigUint,
        target: &BigUint,
        limit: usize,
        list: &mut dyn FnMut(Vec<BigUint>),
    ) -> BigUint {
        if n.is_zero() {
            return BigUint::zero();
        }
        match self {
            CoinRule::Ruler => {
                // The run k..=n-1 turned up: gray(n - 1) ^ gray(k - 1) = target.
                let k_minus_1 = gray_inverse(&(gray(&(n - 1u8)) ^ target));
                if k_minus_1 < *n {
                    let k = &k_minus_1 + 1u8;
                    // The coins turned up, listed while the run is short (a run of
                    // thousands would be a component each).
                    if limit > 0 && (n - &k).to_u64().is_some_and(|len| len <= MAX_RUN_LISTED) {
                        let mut coins = Vec::new();
                        let mut c = k;
                        while c < *n {
                            coins.push(c.clone());
                            c += 1u8;
                        }
                        list(coins);
                    }
                    BigUint::one()
                } else {
                    BigUint::zero()
                }
            }
            CoinRule::MockTurtles => {
                let mut total = BigUint::zero();
                let mut listed = 0usize;
                let mut emit = |coins: Vec<BigUint>, listed: &mut usize| {
                    if *listed < limit {
                        list(coins);
                        *listed += 1;
                    }
                };
                let top = self.value(n);
                if target.is_zero() {
                    total += 1u8;
                    emit(Vec::new(), &mut listed);
                }
                if let Some(a) = self.coin_worth(target).filter(|a| a < n && !a.is_zero()) {
                    total += 1u8;
                    emit(vec![a], &mut listed);
                }
                if !target.is_zero() && !is_odious(target) {
                    // Two coins a < b < n with odious values x < y = x ^ target < top.
                    total += count_pairs(target, &top);
                    let high = target.bits() - 1;
                    let mut x = BigUint::one();
                    let mut tried = 0u64;
                    while listed < limit && x < top && tried < MAX_PAIRS_TRIED {
                        if is_odious(&x) && !x.bit(high) {
                            let y = &x ^ target;
                            if y < top {
                                let a = (&x >> 1u8) + 1u8;
                                let b = (&y >> 1u8) + 1u8;
                                emit(vec![a, b], &mut listed);
                            }
                        }
                        x += 1u8;
                        tried += 1;
                    }
                }
                total
            }
        }
    }

    /// Every move from a head on coin `h` as the coins it turns up (small heaps: the
    /// exact search's moves and the tests').
    #[must_use]
    pub fn moves_of(self, h: u32) -> Vec<Vec<u32>> {
        let mut moves = vec![Vec::new()];
        match self {
            CoinRule::MockTurtles => {
                for a in 1..h {
                    moves.push(vec![a]);
                    for b in a + 1..h {
                        moves.push(vec![a, b]);
                    }
                }
            }
            CoinRule::Ruler => {
                for k in (1..h).rev() {
                    moves.push((k..h).collect());
                }
            }
        }
        if h == 0 {
            moves.clear();
        }
        moves
    }
}

/// How many odious `x` have `x < x ^ t < top` (`t` evil and not 0, so `x ^ t` is odious
/// too): a count over the bits from the top, keeping whether `x` and `y = x ^ t` are still
/// equal to `top`'s prefix and the parity of `x`'s ones.
fn count_pairs(t: &BigUint, top: &BigUint) -> BigUint {
    let high = t.bits() - 1;
    let bits = top.bits().max(t.bits());
    // state: (y still equal to top's prefix, parity of x's ones) -> count; x < y is forced
    // by x's bit `high` being 0 (and y's 1).
    let mut counts = [
        [BigUint::zero(), BigUint::zero()],
        [BigUint::zero(), BigUint::zero()],
    ];
    counts[1][0] = BigUint::one();
    for bit in (0..bits).rev() {
        let mut next = [
            [BigUint::zero(), BigUint::zero()],
            [BigUint::zero(), BigUint::zero()],
        ];
        let tb = t.bit(bit);
        let topb = top.bit(bit);
        for (tight, row) in counts.iter().enumerate() {
            for (parity, c) in row.iter().enumerate() {
                if c.is_zero() {
                    continue;
                }
                for xb in [false, true] {
                    if bit == high && xb {
                        continue;
                    }
                    let yb = xb ^ tb;
                    let (still, ok) = if tight == 1 {
                        match (yb, topb) {
                            (true, false) => (0, false),
                            (false, true) => (0, true),
                            _ => (1, true),
                        }
                    } else {
                        (0, true)
                    };
                    if !ok {
                        continue;
                    }
                    let p = parity ^ usize::from(xb);
                    next[still][p] += c;
                }
            }
        }
        counts = next;
    }
    // y < top strictly: not tight at the end; x odious.
    counts[0][1].clone()
}

/// The values of heaps `0..=upto` as a table, for `values`.
#[must_use]
pub fn table(rule: CoinRule, upto: u64) -> Vec<u32> {
    (0..=upto)
        .map(|n| rule.value(&n.into()).to_u32().unwrap_or(u32::MAX))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mex of the moves' values, from the moves themselves.
    fn by_mex(rule: CoinRule, upto: u32) -> Vec<u32> {
        let mut g = vec![0u32; upto as usize + 1];
        for h in 1..=upto {
            let mut seen = std::collections::HashSet::new();
            for coins in rule.moves_of(h) {
                seen.insert(coins.iter().fold(0, |x, &c| x ^ g[c as usize]));
            }
            g[h as usize] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
        g
    }

    #[test]
    fn the_closed_forms_agree_with_the_mex_and_every_move_is_found() {
        for rule in [CoinRule::MockTurtles, CoinRule::Ruler] {
            let upto = if rule == CoinRule::MockTurtles {
                70
            } else {
                300
            };
            let g = by_mex(rule, upto);
            assert_eq!(table(rule, u64::from(upto)), g, "{rule:?}");
            for h in 1..=upto {
                for target in 0..g[h as usize] + 3 {
                    let expected: Vec<Vec<u32>> = rule
                        .moves_of(h)
                        .into_iter()
                        .filter(|coins| coins.iter().fold(0, |x, &c| x ^ g[c as usize]) == target)
                        .collect();
                    let mut found = Vec::new();
                    let total = rule.moves_to(&h.into(), &target.into(), usize::MAX, &mut |c| {
                        found.push(c)
                    });
                    assert_eq!(
                        total,
                        BigUint::from(expected.len()),
                        "{rule:?} {h} -> {target}"
                    );
                    if rule == CoinRule::MockTurtles {
                        let mut found: Vec<Vec<u32>> = found
                            .iter()
                            .map(|c| c.iter().map(|v| v.to_u32().unwrap()).collect())
                            .collect();
                        found.sort();
                        let mut expected = expected.clone();
                        expected.sort();
                        assert_eq!(found, expected, "{rule:?} {h} -> {target}");
                    }
                }
            }
        }
    }

    #[test]
    fn huge_coins_by_the_closed_forms() {
        let n: BigUint = "1".repeat(60).parse().unwrap();
        let v = CoinRule::MockTurtles.value(&n);
        assert!(is_odious(&v));
        let ruler = CoinRule::Ruler.value(&(BigUint::one() << 200u32));
        assert_eq!(ruler, BigUint::one() << 200u32);
        // A move to 0 from a huge head: one move, counted without listing.
        let t = BigUint::zero();
        assert_eq!(
            CoinRule::Ruler.moves_to(&n, &t, 1, &mut |_| {}),
            BigUint::one()
        );
    }
}
