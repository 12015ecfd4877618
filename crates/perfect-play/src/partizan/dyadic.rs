//! Dyadic rationals: the numbers a short game can equal (`m / 2^k`).

use std::cmp::Ordering;
use std::fmt;

/// The largest power of two in a denominator: enough for every board this crate can
/// value (a game's denominators grow by one halving per move), small enough that sums and
/// comparisons of two numbers fit in 128 bits.
pub const MAX_EXPONENT: u32 = 62;

/// The largest numerator (in magnitude): every number has a negative, and the neighbours a
/// number's canonical form names (`(m - 1) / 2^k`, `(m + 1) / 2^k`, `n - 1`) fit too.
pub const MAX_NUMERATOR: i64 = 1 << 62;

/// A dyadic rational `numerator / 2^exponent`, kept reduced (an odd numerator, or exponent 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    numerator: i64,
    exponent: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic {
        numerator: 0,
        exponent: 0,
    };

    /// Minus one: the temperature thermographs start from.
    pub const MINUS_ONE: Dyadic = Dyadic {
        numerator: -1,
        exponent: 0,
    };

    /// `numerator / 2^exponent`, reduced; `None` past [`MAX_EXPONENT`].
    #[must_use]
    pub fn new(numerator: i64, exponent: u32) -> Option<Dyadic> {
        let (mut numerator, mut exponent) = (numerator, exponent);
        while exponent > 0 && numerator % 2 == 0 {
            numerator /= 2;
            exponent -= 1;
        }
        (exponent <= MAX_EXPONENT && numerator.abs() <= MAX_NUMERATOR).then_some(Dyadic {
            numerator,
            exponent,
        })
    }

    /// The integer `n`; `None` past [`MAX_NUMERATOR`].
    #[must_use]
    pub fn integer(n: i64) -> Option<Dyadic> {
        Dyadic::new(n, 0)
    }

    /// The day on which this number is born: `|n|` for an integer, `floor(|x|) + 1 + k` for
    /// `m / 2^k`.
    #[must_use]
    pub fn birthday(self) -> u64 {
        let whole = self.numerator.unsigned_abs() >> self.exponent;
        if self.exponent == 0 {
            whole
        } else {
            whole + 1 + u64::from(self.exponent)
        }
    }

    /// The two numbers of this number's canonical form `{left | right}`: `n - 1` and none
    /// for a positive integer, none and `n + 1` for a negative one, nothing for 0, and the
    /// neighbours `(m -+ 1) / 2^k` otherwise.
    #[must_use]
    pub fn options(self) -> (Option<Dyadic>, Option<Dyadic>) {
        let step = |delta: i64| Dyadic::new(self.numerator + delta, self.exponent);
        match (self.exponent, self.numerator.signum()) {
            (0, 0) => (None, None),
            (0, 1) => (step(-1), None),
            (0, _) => (None, step(1)),
            _ => (step(-1), step(1)),
        }
    }

    /// The numerator, reduced.
    #[must_use]
    pub fn numerator(self) -> i64 {
        self.numerator
    }

    /// The power of two of the denominator.
    #[must_use]
    pub fn exponent(self) -> u32 {
        self.exponent
    }

    /// Whether this is a whole number.
    #[must_use]
    pub fn is_integer(self) -> bool {
        self.exponent == 0
    }

    /// Both numerators over the larger denominator, widened.
    fn common(self, other: Dyadic) -> (i128, i128, u32) {
        let e = self.exponent.max(other.exponent);
        (
            i128::from(self.numerator) << (e - self.exponent),
            i128::from(other.numerator) << (e - other.exponent),
            e,
        )
    }

    fn from_wide(numerator: i128, exponent: u32) -> Option<Dyadic> {
        let (mut numerator, mut exponent) = (numerator, exponent);
        while exponent > 0 && numerator % 2 == 0 {
            numerator /= 2;
            exponent -= 1;
        }
        Dyadic::new(i64::try_from(numerator).ok()?, exponent)
    }

    /// The sum; `None` when it does not fit.
    #[must_use]
    pub fn checked_add(self, other: Dyadic) -> Option<Dyadic> {
        let (a, b, e) = self.common(other);
        Dyadic::from_wide(a + b, e)
    }

    /// The difference `self - other`; `None` when it does not fit.
    #[must_use]
    pub fn checked_sub(self, other: Dyadic) -> Option<Dyadic> {
        self.checked_add(other.negative())
    }

    /// The negative (every number has one: numerators are at most [`MAX_NUMERATOR`]).
    #[must_use]
    pub fn negative(self) -> Dyadic {
        Dyadic {
            numerator: -self.numerator,
            exponent: self.exponent,
        }
    }

    /// The magnitude.
    #[must_use]
    pub fn abs(self) -> Dyadic {
        if self.numerator < 0 {
            self.negative()
        } else {
            self
        }
    }

    /// Half of this number; `None` past [`MAX_EXPONENT`].
    #[must_use]
    pub fn half(self) -> Option<Dyadic> {
        Dyadic::new(self.numerator, self.exponent + 1)
    }

    /// The largest integer at most this number.
    #[must_use]
    pub fn floor(self) -> i64 {
        self.numerator >> self.exponent
    }

    /// The smallest integer at least this number.
    #[must_use]
    pub fn ceil(self) -> i64 {
        -((-i128::from(self.numerator)) >> self.exponent) as i64
    }

    /// The simplest number strictly between `low` and `high` (either side open when `None`),
    /// as the simplicity rule defines it: an integer of least magnitude when one fits, else
    /// the fitting number with the smallest denominator. `None` when `low >= high` or the
    /// answer does not fit.
    #[must_use]
    pub fn simplest_between(low: Option<Dyadic>, high: Option<Dyadic>) -> Option<Dyadic> {
        if let (Some(l), Some(h)) = (low, high)
            && l >= h
        {
            return None;
        }
        let above_low = |x: Dyadic| low.is_none_or(|l| x > l);
        let below_high = |x: Dyadic| high.is_none_or(|h| x < h);
        if above_low(Dyadic::ZERO) && below_high(Dyadic::ZERO) {
            return Some(Dyadic::ZERO);
        }
        // Both bounds are on one side of zero now.
        if let Some(l) = low.filter(|l| *l >= Dyadic::ZERO) {
            let next = Dyadic::integer(l.floor().checked_add(1)?)?;
            if below_high(next) {
                return Some(next);
            }
        } else if let Some(h) = high.filter(|h| *h <= Dyadic::ZERO) {
            let next = Dyadic::integer(h.ceil().checked_sub(1)?)?;
            if above_low(next) {
                return Some(next);
            }
        }
        // No integer fits: both bounds are finite and within one unit.
        let (l, h) = (low?, high?);
        for exponent in 1..=MAX_EXPONENT {
            // The floor of l * 2^exponent, then one step of 2^-exponent up.
            let floor = if l.exponent > exponent {
                i128::from(l.numerator) >> (l.exponent - exponent)
            } else {
                i128::from(l.numerator) << (exponent - l.exponent)
            };
            let candidate = Dyadic::from_wide(floor + 1, exponent)?;
            if candidate > l && candidate < h {
                return Some(candidate);
            }
        }
        None
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let (a, b, _) = self.common(*other);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Dyadic {
    /// CGSuite's spelling: `3`, `-3/2`, `23/16`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exponent == 0 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, 1u64 << self.exponent)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, e: u32) -> Dyadic {
        Dyadic::new(n, e).unwrap()
    }

    fn i(n: i64) -> Dyadic {
        d(n, 0)
    }

    #[test]
    fn reduced_and_ordered() {
        assert_eq!(d(4, 2), i(1));
        assert_eq!(d(6, 2), d(3, 1));
        assert!(d(3, 2) < d(1, 0));
        assert_eq!(d(-3, 1).to_string(), "-3/2");
        assert_eq!(d(-3, 1).floor(), -2);
        assert_eq!(d(-3, 1).ceil(), -1);
        assert_eq!(d(3, 1).floor(), 1);
        assert_eq!(d(3, 1).ceil(), 2);
    }

    #[test]
    fn simplest_numbers_follow_the_simplicity_rule() {
        let s = |l: Option<Dyadic>, h: Option<Dyadic>| Dyadic::simplest_between(l, h);
        assert_eq!(s(None, None), Some(Dyadic::ZERO));
        assert_eq!(s(Some(i(0)), None), Some(i(1)));
        assert_eq!(s(None, Some(i(-2))), Some(i(-3)));
        assert_eq!(s(Some(i(0)), Some(i(1))), Some(d(1, 1)));
        assert_eq!(s(Some(d(1, 1)), Some(i(1))), Some(d(3, 2)));
        assert_eq!(s(Some(d(-3, 2)), Some(d(-1, 2))), Some(d(-1, 1)));
        assert_eq!(s(Some(d(-5, 2)), Some(d(1, 2))), Some(Dyadic::ZERO));
        assert_eq!(s(Some(d(5, 2)), Some(d(7, 2))), Some(d(3, 1)));
        assert_eq!(s(Some(d(5, 4)), Some(d(7, 4))), Some(d(3, 3)));
        assert_eq!(s(Some(d(13, 3)), Some(d(7, 1))), Some(i(2)));
        assert_eq!(s(Some(i(1)), Some(i(1))), None);
    }

    #[test]
    fn birthdays_and_options_are_the_canonical_forms() {
        assert_eq!(i(0).birthday(), 0);
        assert_eq!(i(-3).birthday(), 3);
        assert_eq!(d(1, 1).birthday(), 2);
        assert_eq!(d(3, 2).birthday(), 3);
        assert_eq!(d(-5, 2).birthday(), 4);
        assert_eq!(i(2).options(), (Some(i(1)), None));
        assert_eq!(i(-2).options(), (None, Some(i(-1))));
        assert_eq!(d(3, 2).options(), (Some(d(1, 1)), Some(i(1))));
        assert_eq!(i(MAX_NUMERATOR).options().0, Some(i(MAX_NUMERATOR - 1)));
    }

    #[test]
    fn sums_do_not_overflow_silently() {
        let big = i(MAX_NUMERATOR);
        assert_eq!(big.checked_add(i(1)), None);
        assert_eq!(d(1, 2).checked_add(d(1, 2)), Some(d(1, 1)));
    }
}
