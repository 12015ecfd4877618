//! Octal codes as the literature writes them: `0.77` (Kayles), `.07`, `4.7`, `0.137`.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a string is not an octal code.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodeError {
    /// No point, or several.
    #[error("an octal code looks like 0.77 or .07 or 4.7: digits, one point, digits")]
    Shape,
    /// A digit outside 0-7.
    #[error("{0:?} is not an octal digit (0-7)")]
    Digit(char),
    /// The digit before the point can only be 0 or 4.
    #[error(
        "the digit before the point must be 0 or 4 (4: a heap may be split in two without taking), not {0}"
    )]
    Leading(u8),
    /// No move at all.
    #[error("the code allows no move: give at least one non-zero digit")]
    NoMoves,
    /// More digits than the engine takes.
    #[error("codes of up to {MAX_DIGITS} digits after the point are supported")]
    TooLong,
}

/// Most digits after the point.
pub const MAX_DIGITS: usize = 64;

/// A parsed octal code: `digits[k]` says what removing `k` tokens may leave (bit 1: nothing,
/// bit 2: one heap, bit 4: two heaps); `digits[0]` is the digit before the point.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    digits: Vec<u8>,
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
        OctalCode { digits }
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

    /// The removals `k` whose digit has bit `bit` (1: leave nothing, 2: one heap, 4: two heaps).
    #[must_use]
    pub fn removals_with(&self, bit: u8) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&k| self.digits[k] & bit != 0)
            .collect()
    }

    /// Whether some move splits a heap in two.
    #[must_use]
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }
}

impl FromStr for OctalCode {
    type Err = CodeError;

    fn from_str(s: &str) -> Result<OctalCode, CodeError> {
        let s = s.trim();
        let (before, after) = s.split_once('.').ok_or(CodeError::Shape)?;
        if after.contains('.') || before.len() > 1 {
            return Err(CodeError::Shape);
        }
        let digit = |c: char| c.to_digit(8).map(|d| d as u8).ok_or(CodeError::Digit(c));
        let lead = match before.chars().next() {
            None => 0,
            Some(c) => digit(c)?,
        };
        if lead != 0 && lead != 4 {
            return Err(CodeError::Leading(lead));
        }
        let mut digits = vec![lead];
        for c in after.chars() {
            digits.push(digit(c)?);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() - 1 > MAX_DIGITS {
            return Err(CodeError::TooLong);
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(CodeError::NoMoves);
        }
        Ok(OctalCode { digits })
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
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
    fn rejects_malformed_codes() {
        assert_eq!("077".parse::<OctalCode>(), Err(CodeError::Shape));
        assert_eq!("0.7.7".parse::<OctalCode>(), Err(CodeError::Shape));
        assert_eq!("0.78".parse::<OctalCode>(), Err(CodeError::Digit('8')));
        assert_eq!("1.7".parse::<OctalCode>(), Err(CodeError::Leading(1)));
        assert_eq!("0.000".parse::<OctalCode>(), Err(CodeError::NoMoves));
        assert_eq!("12.7".parse::<OctalCode>(), Err(CodeError::Shape));
        assert_eq!("0.x".parse::<OctalCode>(), Err(CodeError::Digit('x')));
    }
}
