//! Take-and-break codes as the literature writes them: octal `0.77` (Kayles), `.07`, `4.7`,
//! `0.137`; hexadecimal `0.3F`, `4.F` (digit bit 8: a move may leave three heaps); and
//! CGSuite's part modifiers after a digit, `!` (the heaps left must all differ) and `?` (they
//! must not all be equal), so that Grundy's game is `4!.0`.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a string is not a take-and-break code.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodeError {
    /// No point, or several.
    #[error(
        "a take-and-break code looks like 0.77, .07, 4.7 or 0.3F: a digit, one point, digits (0-9, A-F), each optionally followed by ! or ?"
    )]
    Shape,
    /// A digit outside 0-F.
    #[error("{0:?} is not a digit of a take-and-break code (0-9, A-F)")]
    Digit(char),
    /// The digit before the point takes nothing, so it can only split.
    #[error(
        "the digit before the point must be 0, 4, 8 or C (4: a heap may be split in two without taking, 8: in three), not {0:X}"
    )]
    Leading(u8),
    /// A `!` or `?` on a digit that never leaves two heaps or more.
    #[error(
        "{modifier} after digit {digit:X} means nothing: ! and ? restrict the heaps a split leaves, and that digit does not split"
    )]
    Modifier {
        /// The modifier.
        modifier: char,
        /// The digit it follows.
        digit: u8,
    },
    /// No move at all.
    #[error("the code allows no move: give at least one non-zero digit")]
    NoMoves,
    /// More digits than the engine takes.
    #[error("codes of up to {MAX_DIGITS} digits after the point are supported")]
    TooLong,
}

/// Most digits after the point.
pub const MAX_DIGITS: usize = 64;

/// Which heaps a split may leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Parts {
    /// Any sizes.
    #[default]
    Any,
    /// Not all equal (`?`): for two heaps, the same as `!`.
    NotAllEqual,
    /// All different (`!`): Grundy's game splits a heap into two unequal heaps.
    Distinct,
}

impl Parts {
    /// Whether a split into `a <= b` may be played.
    #[inline]
    #[must_use]
    pub fn allows_two(self, a: usize, b: usize) -> bool {
        self == Parts::Any || a != b
    }

    /// Whether a split into `a <= b <= c` may be played.
    #[inline]
    #[must_use]
    pub fn allows_three(self, a: usize, b: usize, c: usize) -> bool {
        match self {
            Parts::Any => true,
            Parts::NotAllEqual => a != c,
            Parts::Distinct => a != b && b != c,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Parts::Any => "",
            Parts::NotAllEqual => "?",
            Parts::Distinct => "!",
        }
    }
}

/// A parsed take-and-break code: `digits[k]` says what removing `k` tokens may leave (bit 1:
/// nothing, bit 2: one heap, bit 4: two heaps, bit 8: three heaps); `digits[0]` is the digit
/// before the point, and `parts[k]` restricts the heaps its splits leave.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    digits: Vec<u8>,
    parts: Vec<Parts>,
}

impl OctalCode {
    /// The code of a subtraction set: digit 3 at each move size (take `s`, leaving nothing or
    /// one heap).
    ///
    /// # Panics
    /// Never for moves from 1 to [`MAX_DIGITS`]; larger moves are ignored by the caller's check.
    #[must_use]
    pub fn subtraction(moves: &[usize]) -> OctalCode {
        let t = moves.iter().copied().max().unwrap_or(0);
        let mut digits = vec![0u8; t + 1];
        for &m in moves {
            digits[m] = 3;
        }
        OctalCode {
            parts: vec![Parts::Any; digits.len()],
            digits,
        }
    }

    /// Grundy's game, `4!.0`: split a heap into two unequal heaps.
    #[must_use]
    pub fn grundys_game() -> OctalCode {
        OctalCode {
            digits: vec![4],
            parts: vec![Parts::Distinct],
        }
    }

    /// Which heaps the splits that remove `k` tokens may leave.
    #[must_use]
    pub fn parts(&self, k: usize) -> Parts {
        self.parts.get(k).copied().unwrap_or_default()
    }

    /// Whether some digit is hexadecimal (a move may leave three heaps).
    #[must_use]
    pub fn is_hexadecimal(&self) -> bool {
        self.digits.iter().any(|d| d & 8 != 0)
    }

    /// The most heaps one move leaves in place of one (1, 2 or 3).
    #[must_use]
    pub fn most_parts(&self) -> usize {
        if self.is_hexadecimal() {
            3
        } else if self.splits() {
            2
        } else {
            1
        }
    }

    /// Whether some split is restricted by `!` or `?`. The periodicity theorem pairs each
    /// split with one whose largest part is a period longer, which a restriction can forbid,
    /// so no period is claimed for such a code.
    #[must_use]
    pub fn restricts_parts(&self) -> bool {
        self.parts.iter().any(|&p| p != Parts::Any)
    }

    /// The digit for removing `k` tokens (0 beyond the code).
    #[must_use]
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// The largest number of tokens a move removes (the last non-zero digit's index).
    #[must_use]
    pub fn largest_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// The removals `k` whose digit has bit `bit` (1: leave nothing, 2: one heap, 4: two heaps,
    /// 8: three heaps).
    #[must_use]
    pub fn removals_with(&self, bit: u8) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&k| self.digits[k] & bit != 0)
            .collect()
    }

    /// Whether some move splits a heap in two.
    #[must_use]
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 12 != 0)
    }
}

impl FromStr for OctalCode {
    type Err = CodeError;

    fn from_str(s: &str) -> Result<OctalCode, CodeError> {
        let s = s.trim();
        let (before, after) = s.split_once('.').ok_or(CodeError::Shape)?;
        if after.contains('.') {
            return Err(CodeError::Shape);
        }
        let mut digits = Vec::new();
        let mut parts = Vec::new();
        for (side, text) in [(0, before), (1, after)] {
            let mut chars = text.chars().peekable();
            if side == 0 && text.is_empty() {
                digits.push(0);
                parts.push(Parts::Any);
            }
            while let Some(c) = chars.next() {
                if side == 0 && !digits.is_empty() {
                    return Err(CodeError::Shape); // one digit before the point
                }
                let d = c.to_digit(16).map(|d| d as u8).ok_or(CodeError::Digit(c))?;
                let mut restriction = Parts::Any;
                if let Some(&m @ ('!' | '?')) = chars.peek() {
                    chars.next();
                    if d & 12 == 0 {
                        return Err(CodeError::Modifier {
                            modifier: m,
                            digit: d,
                        });
                    }
                    restriction = if m == '!' {
                        Parts::Distinct
                    } else {
                        Parts::NotAllEqual
                    };
                }
                digits.push(d);
                parts.push(restriction);
            }
        }
        let lead = digits[0];
        if lead & 3 != 0 {
            return Err(CodeError::Leading(lead));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
            parts.pop();
        }
        if digits.len() - 1 > MAX_DIGITS {
            return Err(CodeError::TooLong);
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(CodeError::NoMoves);
        }
        Ok(OctalCode { digits, parts })
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (d, p)) in self.digits.iter().zip(&self.parts).enumerate() {
            write!(f, "{d:X}{}", p.symbol())?;
            if k == 0 {
                write!(f, ".")?;
            }
        }
        if self.digits.len() == 1 {
            write!(f, "0")?; // "4.0", as the literature writes a code with nothing after the point
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_spellings() {
        let kayles: OctalCode = "0.77".parse().unwrap();
        assert_eq!(kayles, ".77".parse().unwrap());
        assert_eq!(kayles.to_string(), "0.77");
        assert_eq!(kayles.largest_removal(), 2);
        assert_eq!("4.7".parse::<OctalCode>().unwrap().digit(0), 4);
        assert_eq!("0.070".parse::<OctalCode>().unwrap().largest_removal(), 2);
        assert_eq!(OctalCode::subtraction(&[1, 2, 3]), "0.333".parse().unwrap());
    }

    #[test]
    fn parses_hexadecimal_digits_and_part_modifiers() {
        let code: OctalCode = "0.3f".parse().unwrap();
        assert_eq!(code.to_string(), "0.3F");
        assert_eq!(code.digit(2), 15);
        assert!(code.is_hexadecimal());
        assert_eq!(code.most_parts(), 3);
        let grundy: OctalCode = "4!.0".parse().unwrap();
        assert_eq!(grundy, OctalCode::grundys_game());
        assert_eq!(grundy.to_string(), "4!.0");
        assert_eq!(grundy.parts(0), Parts::Distinct);
        assert!(grundy.restricts_parts());
        let not_all: OctalCode = "0.3F?".parse().unwrap();
        assert_eq!(not_all.parts(2), Parts::NotAllEqual);
        assert_eq!(not_all.to_string(), "0.3F?");
        assert_eq!("C.1".parse::<OctalCode>().unwrap().digit(0), 12);
        assert!(!"0.77".parse::<OctalCode>().unwrap().restricts_parts());
    }

    #[test]
    fn rejects_malformed_codes() {
        assert_eq!("077".parse::<OctalCode>(), Err(CodeError::Shape));
        assert_eq!("0.7.7".parse::<OctalCode>(), Err(CodeError::Shape));
        assert_eq!("0.7G".parse::<OctalCode>(), Err(CodeError::Digit('G')));
        assert_eq!("1.7".parse::<OctalCode>(), Err(CodeError::Leading(1)));
        assert_eq!("5.7".parse::<OctalCode>(), Err(CodeError::Leading(5)));
        assert_eq!(
            "0.3!".parse::<OctalCode>(),
            Err(CodeError::Modifier {
                modifier: '!',
                digit: 3
            })
        );
        assert_eq!("0.7!!".parse::<OctalCode>(), Err(CodeError::Digit('!')));
        assert_eq!("!4.0".parse::<OctalCode>(), Err(CodeError::Digit('!')));
        assert_eq!("0.000".parse::<OctalCode>(), Err(CodeError::NoMoves));
        assert_eq!("12.7".parse::<OctalCode>(), Err(CodeError::Shape));
        assert_eq!("0.x".parse::<OctalCode>(), Err(CodeError::Digit('x')));
    }
}
