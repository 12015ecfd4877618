//! Subtraction games whose move set is given by a rule rather than a list: subtract a square,
//! a power of two, a prime or a Fibonacci number, and Ferguson's games where the move depends
//! on the pile (take at least half, take at most half).
//!
//! The sets are infinite, so values come from a table computed heap by heap: the mex over the
//! set's members up to the heap (time proportional to how many there are), or, for sets as
//! dense as the primes, one bitset a value whose bits mark the heaps that value is an option
//! of (time proportional to the heaps over 64). A period is claimed only with a proof (see
//! [`prove_pure_period`]); the two half games have closed forms, proven by induction in their
//! docs and checked against the mex in the tests.

use crate::budget::{Cancel, Cancelled};
use crate::period::Period;
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// A move set given by a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetRule {
    /// Subtract a positive square: 1, 4, 9, ... (LeetCode 1510, "Stone Game IV").
    Squares,
    /// Subtract a power of two: 1, 2, 4, 8, ...
    PowersOfTwo,
    /// Subtract a prime: 2, 3, 5, 7, ...
    Primes,
    /// Subtract a Fibonacci number: 1, 2, 3, 5, 8, ...
    Fibonacci,
    /// Take at least half of the pile (at least `ceil(n / 2)` and at most all of it).
    AtLeastHalf,
    /// Take at most half of the pile (at least one, at most `floor(n / 2)`).
    AtMostHalf,
}

impl SetRule {
    /// Every rule, for listings.
    pub const ALL: [SetRule; 6] = [
        SetRule::Squares,
        SetRule::PowersOfTwo,
        SetRule::Primes,
        SetRule::Fibonacci,
        SetRule::AtLeastHalf,
        SetRule::AtMostHalf,
    ];

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SetRule::Squares => "squares",
            SetRule::PowersOfTwo => "powers-of-two",
            SetRule::Primes => "primes",
            SetRule::Fibonacci => "fibonacci",
            SetRule::AtLeastHalf => "at-least-half",
            SetRule::AtMostHalf => "at-most-half",
        }
    }

    /// One line on what a move is.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            SetRule::Squares => "subtract a positive square (1, 4, 9, ...)",
            SetRule::PowersOfTwo => "subtract a power of two (1, 2, 4, 8, ...)",
            SetRule::Primes => "subtract a prime (2, 3, 5, 7, ...)",
            SetRule::Fibonacci => "subtract a Fibonacci number (1, 2, 3, 5, 8, ...)",
            SetRule::AtLeastHalf => "take at least half of the pile",
            SetRule::AtMostHalf => "take at least one and at most half of the pile",
        }
    }

    /// The closed form of the values, for the rules that have one.
    #[must_use]
    pub fn formula(self) -> Option<&'static str> {
        match self {
            SetRule::AtLeastHalf => Some("g(0) = 0, g(n) = the number of binary digits of n"),
            SetRule::AtMostHalf => Some("g(2m) = m, g(2m + 1) = g(m)"),
            _ => None,
        }
    }

    /// Whether the set is a fixed set of numbers (the half games depend on the pile).
    #[must_use]
    pub fn is_fixed_set(self) -> bool {
        !matches!(self, SetRule::AtLeastHalf | SetRule::AtMostHalf)
    }

    /// The members of a fixed set up to `max`, in increasing order.
    #[must_use]
    pub fn members_up_to(self, max: u64) -> Vec<u64> {
        match self {
            SetRule::Squares => (1u64..).map(|k| k * k).take_while(|&s| s <= max).collect(),
            SetRule::PowersOfTwo => (0..64)
                .map(|k| 1u64 << k)
                .take_while(|&s| s <= max)
                .collect(),
            SetRule::Fibonacci => {
                let mut members = Vec::new();
                let (mut a, mut b) = (1u64, 2u64);
                while a <= max {
                    members.push(a);
                    let next = a.saturating_add(b);
                    (a, b) = (b, next);
                }
                members
            }
            SetRule::Primes => primes_up_to(max),
            SetRule::AtLeastHalf | SetRule::AtMostHalf => Vec::new(),
        }
    }

    /// The value of a pile of any size from the closed form, for the rules that have one.
    #[must_use]
    pub fn value_by_formula(self, n: &BigUint) -> Option<BigUint> {
        match self {
            SetRule::AtLeastHalf => Some(BigUint::from(n.bits())),
            SetRule::AtMostHalf => {
                // Strip the trailing ones: g(2m + 1) = g(m); then g(2m) = m.
                let ones = n.trailing_ones();
                let m: BigUint = n >> ones;
                Some(m >> 1u8)
            }
            _ => None,
        }
    }

    /// About how many option checks computing heaps `0..=upto` costs with the method
    /// [`values`] picks.
    #[must_use]
    pub fn work(self, upto: u64) -> f64 {
        let n = upto as f64;
        match self {
            SetRule::Squares => 2.0 / 3.0 * n * n.sqrt(),
            SetRule::PowersOfTwo | SetRule::Fibonacci => n * (n.max(2.0)).log2(),
            // One bitset word per heap over 64, for each heap.
            SetRule::Primes => n * n / 128.0,
            SetRule::AtLeastHalf | SetRule::AtMostHalf => n,
        }
    }
}

/// The primes up to `max` (sieve of Eratosthenes).
#[must_use]
pub fn primes_up_to(max: u64) -> Vec<u64> {
    let Ok(max) = usize::try_from(max) else {
        return Vec::new();
    };
    if max < 2 {
        return Vec::new();
    }
    let mut composite = vec![false; max + 1];
    let mut primes = Vec::new();
    for p in 2..=max {
        if !composite[p] {
            primes.push(p as u64);
            let mut multiple = p * p;
            while multiple <= max {
                composite[multiple] = true;
                multiple += p;
            }
        }
    }
    primes
}

/// The values of heaps `0..=upto`, stopped when `cancel` is raised.
///
/// # Errors
/// [`Cancelled`].
pub fn values(
    rule: SetRule,
    upto: u64,
    cancel: &Cancel,
    on_progress: &dyn Fn(u64, u64),
) -> Result<Vec<u32>, Cancelled> {
    match rule {
        SetRule::AtLeastHalf | SetRule::AtMostHalf => Ok((0..=upto)
            .map(|n| {
                rule.value_by_formula(&BigUint::from(n))
                    .and_then(|v| v.to_u32())
                    .unwrap_or(u32::MAX)
            })
            .collect()),
        SetRule::Primes => by_option_bitsets(&rule.members_up_to(upto), upto, cancel, on_progress),
        // Powers of two too: their period is proven from computed values, not the formula.
        SetRule::Squares | SetRule::Fibonacci | SetRule::PowersOfTwo => {
            by_mex(&rule.members_up_to(upto), upto, cancel, on_progress)
        }
    }
}

/// The mex over `g(n - s)` for each member `s <= n`: the definition, and the fast way for
/// sparse sets.
///
/// # Errors
/// [`Cancelled`] once `cancel` is raised (looked at every 65,536 heaps).
pub fn by_mex(
    members: &[u64],
    upto: u64,
    cancel: &Cancel,
    on_progress: &dyn Fn(u64, u64),
) -> Result<Vec<u32>, Cancelled> {
    let upto = upto as usize;
    let mut values: Vec<u32> = Vec::with_capacity(upto + 1);
    // Options below 128 are marked in a register; larger ones (subtract-a-square first reaches
    // 128 past heap 10^6) in marks stamped with the heap, so nothing is cleared.
    let mut seen: Vec<u32> = Vec::new();
    let mut count = 0; // members at most n
    for n in 0..=upto {
        while count < members.len() && members[count] as usize <= n {
            count += 1;
        }
        let mut low: u128 = 0;
        let mut high = false;
        for &s in &members[..count] {
            let v = values[n - s as usize];
            if v < 128 {
                low |= 1u128 << v;
            } else {
                let v = v as usize;
                if v >= seen.len() {
                    seen.resize(2 * v + 2, u32::MAX);
                }
                seen[v] = n as u32;
                high = true;
            }
        }
        let mut mex = (!low).trailing_zeros() as usize;
        if mex == 128 && high {
            while seen.get(mex) == Some(&(n as u32)) {
                mex += 1;
            }
        }
        values.push(mex as u32);
        if n % 65536 == 0 {
            on_progress(n as u64, upto as u64);
            cancel.check()?;
        }
    }
    Ok(values)
}

/// For dense sets: one bitset per value, bit `n` set when some heap `m < n` of that value has
/// `n - m` in the set; heap `n`'s value is the first whose bit `n` is clear. Deciding heap `m`
/// ORs the set, shifted by `m`, into its value's bitset: `(upto - m) / 64` words.
///
/// # Errors
/// [`Cancelled`] once `cancel` is raised (looked at every 256 heaps: a heap costs up to
/// `upto / 64` words).
pub fn by_option_bitsets(
    members: &[u64],
    upto: u64,
    cancel: &Cancel,
    on_progress: &dyn Fn(u64, u64),
) -> Result<Vec<u32>, Cancelled> {
    let upto = upto as usize;
    let words = upto / 64 + 1;
    let mut set = vec![0u64; words];
    for &s in members {
        let s = s as usize;
        if s <= upto {
            set[s / 64] |= 1 << (s % 64);
        }
    }
    let mut hit: Vec<Vec<u64>> = Vec::new();
    let mut values = Vec::with_capacity(upto + 1);
    for m in 0..=upto {
        let (word, bit) = (m / 64, m % 64);
        let v = hit
            .iter()
            .position(|h| h[word] >> bit & 1 == 0)
            .unwrap_or(hit.len());
        if v == hit.len() {
            hit.push(vec![0u64; words]);
        }
        values.push(v as u32);
        // OR the set shifted left by m into hit[v], from word `word` on.
        let target = &mut hit[v][word..];
        if bit == 0 {
            for (t, &s) in target.iter_mut().zip(&set) {
                *t |= s;
            }
        } else {
            let mut carry = 0u64;
            for (t, &s) in target.iter_mut().zip(&set) {
                *t |= s << bit | carry;
                carry = s >> (64 - bit);
            }
        }
        if m % 256 == 0 {
            cancel.check()?;
        }
        if m % 65536 == 0 {
            on_progress(m as u64, upto as u64);
        }
    }
    Ok(values)
}

/// The residues modulo `p` of a fixed set's members, each with its smallest member, as far
/// as they can be known: `None` when some residue class that occurs has no member up to
/// `bound` (so no proof can use it).
fn residues(rule: SetRule, p: u64, bound: u64) -> Option<Vec<(u64, u64)>> {
    let mut smallest: Vec<Option<u64>> = vec![None; p as usize];
    let mut note = |s: u64| {
        let slot = &mut smallest[(s % p) as usize];
        if slot.is_none_or(|old| s < old) {
            *slot = Some(s);
        }
    };
    match rule {
        SetRule::Squares => {
            // k^2 mod p depends on k mod p: k from 1 to p meets every class that occurs.
            for k in 1..=p {
                note(k.checked_mul(k)?);
            }
        }
        SetRule::PowersOfTwo | SetRule::Fibonacci => {
            // Both are eventually periodic mod p; the members up to `bound` must complete a
            // cycle of residues (state: the last one or two residues).
            let members = rule.members_up_to(bound);
            let state = |i: usize| -> (u64, u64) {
                match rule {
                    SetRule::PowersOfTwo => (members[i] % p, 0),
                    _ => (
                        members[i] % p,
                        members.get(i + 1).map_or(u64::MAX, |m| m % p),
                    ),
                }
            };
            let mut first_seen = std::collections::HashMap::new();
            let mut cycled = false;
            for i in 0..members.len() {
                note(members[i]);
                if rule == SetRule::Fibonacci && i + 1 >= members.len() {
                    break;
                }
                if first_seen.insert(state(i), i).is_some() {
                    cycled = true;
                    break;
                }
            }
            if !cycled {
                return None;
            }
        }
        SetRule::Primes => {
            // Dirichlet: every class coprime to p holds infinitely many primes; the others
            // hold only the primes dividing p.
            for q in primes_up_to(bound) {
                note(q);
            }
            for c in 1..p {
                if gcd(c, p) == 1 && smallest[c as usize].is_none() {
                    return None; // its first prime is past the bound
                }
            }
        }
        SetRule::AtLeastHalf | SetRule::AtMostHalf => return None,
    }
    Some(
        smallest
            .iter()
            .enumerate()
            .filter_map(|(c, s)| s.map(|s| (c as u64, s)))
            .collect(),
    )
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The shortest pure period `p` (`g(n) = g(n mod p)` for every heap) that the values prove.
///
/// The proof: let `M` be the largest of the smallest members of the set's residue classes
/// mod `p`. Every heap `n >= M` has a member of each class at most `n`, so if the values so far
/// have period `p`, the options of `n` have the values `g((n - c) mod p)` for the classes `c`
/// that occur, which depend only on `n mod p`. Hence if the values have period `p` up to
/// `M + p` (and past it as far as they were computed), by induction they have it for ever.
#[must_use]
pub fn prove_pure_period(rule: SetRule, values: &[u32]) -> Option<Period> {
    if !rule.is_fixed_set() {
        return None;
    }
    let len = values.len() as u64;
    for p in 1..=len / 2 {
        let holds = (p as usize..values.len()).all(|n| values[n] == values[n - p as usize]);
        if !holds {
            continue;
        }
        let classes = residues(rule, p, len)?;
        let largest = classes.iter().map(|&(_, s)| s).max().unwrap_or(0);
        if largest.saturating_add(p) <= len {
            return Some(Period {
                preperiod: 0,
                period: p,
            });
        }
        return None; // a longer period would not be proven either before this one
    }
    None
}

/// The heaps `m` with `g(m) = t` that a heap of `n` can move to, for the at-most-half game
/// (`ceil(n / 2) <= m < n`): they are `(2t + 1) 2^i - 1`.
#[must_use]
pub fn at_most_half_moves_to(n: &BigUint, t: &BigUint) -> Vec<BigUint> {
    let low: BigUint = (n + 1u8) >> 1u8;
    let mut m: BigUint = t << 1u8;
    let mut found = Vec::new();
    while &m < n {
        if m >= low {
            found.push(m.clone());
        }
        m = (m << 1u8) + 1u8;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;

    fn quiet(_: u64, _: u64) {}

    /// The definition for any rule, including the pile-dependent ones.
    fn by_definition(rule: SetRule, upto: u64) -> Vec<u32> {
        let mut values: Vec<u32> = Vec::new();
        for n in 0..=upto {
            let targets: Vec<u64> = match rule {
                SetRule::AtLeastHalf if n == 0 => Vec::new(),
                SetRule::AtLeastHalf => (0..=n / 2).collect(),
                SetRule::AtMostHalf => (n.div_ceil(2)..n).filter(|&m| n - m >= 1).collect(),
                _ => rule.members_up_to(n).iter().map(|&s| n - s).collect(),
            };
            let options: std::collections::BTreeSet<u32> =
                targets.iter().map(|&m| values[m as usize]).collect();
            values.push((0..).find(|v| !options.contains(v)).unwrap());
        }
        values
    }

    #[test]
    fn values_past_the_register_marks_are_right() {
        // Options of 128 and more are marked apart. Subtracting any of 1..=400 is Nim up to
        // heap 400, whose values are the heaps themselves: they pass 128.
        let members: Vec<u64> = (1..=400).collect();
        let expected: Vec<u32> = (0..=400).collect();
        assert_eq!(
            by_mex(&members, 400, &Cancel::new(), &quiet).unwrap(),
            expected
        );
        assert_eq!(
            by_option_bitsets(&members, 400, &Cancel::new(), &quiet).unwrap(),
            expected
        );
    }

    #[test]
    fn every_rule_follows_the_definition_to_3000() {
        for rule in SetRule::ALL {
            assert_eq!(
                values(rule, 3000, &Cancel::new(), &quiet).unwrap(),
                by_definition(rule, 3000),
                "{rule:?}"
            );
        }
        // Both methods on every fixed set.
        for rule in [
            SetRule::Squares,
            SetRule::PowersOfTwo,
            SetRule::Primes,
            SetRule::Fibonacci,
        ] {
            let members = rule.members_up_to(3000);
            assert_eq!(
                by_mex(&members, 3000, &Cancel::new(), &quiet).unwrap(),
                by_option_bitsets(&members, 3000, &Cancel::new(), &quiet).unwrap(),
                "{rule:?}"
            );
        }
    }

    #[test]
    fn subtract_a_square_losing_heaps_are_oeis_a030193() {
        // OEIS A030193, the losing heaps of subtract-a-square, as far as its data line goes.
        let expected = [
            0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109,
            119, 124, 127, 130, 132, 137, 142, 147, 150, 170, 177, 180, 182, 187, 192, 197, 204,
            210, 215, 238, 243, 249, 255, 257, 260, 262, 267,
        ];
        let v = values(SetRule::Squares, 267, &Cancel::new(), &quiet).unwrap();
        let losing: Vec<u64> = (0..=267).filter(|&n| v[n as usize] == 0).collect();
        assert_eq!(losing, expected);
    }

    #[test]
    fn powers_of_two_have_the_proven_period_three() {
        let v = values(SetRule::PowersOfTwo, 100, &Cancel::new(), &quiet).unwrap();
        assert_eq!(
            prove_pure_period(SetRule::PowersOfTwo, &v),
            Some(Period {
                preperiod: 0,
                period: 3
            })
        );
        // The definition agrees: the formula is not assumed.
        let d = by_definition(SetRule::PowersOfTwo, 100);
        assert_eq!(
            prove_pure_period(SetRule::PowersOfTwo, &d).unwrap().period,
            3
        );
    }

    #[test]
    fn no_period_is_claimed_for_squares_or_primes() {
        let v = values(SetRule::Squares, 20_000, &Cancel::new(), &quiet).unwrap();
        assert_eq!(prove_pure_period(SetRule::Squares, &v), None);
        let v = values(SetRule::Primes, 20_000, &Cancel::new(), &quiet).unwrap();
        assert_eq!(prove_pure_period(SetRule::Primes, &v), None);
    }

    #[test]
    fn a_false_period_is_never_proven() {
        // Values that repeat with period 2 but stop before the smallest even square (4) plus
        // the period: the proof must refuse.
        let v = vec![0, 1, 0, 1, 0];
        assert_eq!(prove_pure_period(SetRule::Squares, &v), None);
    }

    #[test]
    fn formulas_hold_for_huge_heaps() {
        let huge: BigUint = "1000000000000000000000000".parse().unwrap();
        assert_eq!(
            SetRule::AtLeastHalf.value_by_formula(&huge),
            Some(BigUint::from(huge.bits()))
        );
        // 2m + 1 -> m: 2^80 - 1 strips to 0.
        let ones = (BigUint::one() << 80u8) - 1u8;
        assert_eq!(
            SetRule::AtMostHalf.value_by_formula(&ones),
            Some(BigUint::ZERO)
        );
        let moves = at_most_half_moves_to(&BigUint::from(100u8), &BigUint::from(3u8));
        // g(m) = 3 at m = 7 * 2^i - 1: 6, 13, 27, 55, 111; the one from 50 to 99 is 55.
        assert_eq!(moves, vec![BigUint::from(55u8)]);
    }

    #[test]
    fn at_most_half_moves_match_the_values() {
        let v = by_definition(SetRule::AtMostHalf, 300);
        for n in 0..=300u64 {
            for t in 0..20u32 {
                let listed: Vec<u64> = at_most_half_moves_to(&BigUint::from(n), &BigUint::from(t))
                    .iter()
                    .map(|m| m.to_u64().unwrap())
                    .collect();
                let expected: Vec<u64> = (n.div_ceil(2)..n)
                    .filter(|&m| n - m >= 1 && v[m as usize] == t)
                    .collect();
                assert_eq!(listed, expected, "{n} {t}");
            }
        }
    }
}
