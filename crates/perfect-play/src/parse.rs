//! Parsers for what people type: whole numbers of any size, bounded counts, comma lists and
//! memory sizes. Every failure is a typed error whose message gives the value and what is
//! accepted; the caller adds which argument it was.
//!
//! ```
//! use perfect_play::parse::{count_in, size, NumberError};
//!
//! assert_eq!(count_in("12", 1, 64), Ok(12));
//! assert_eq!(
//!     count_in("-1", 1, 64).unwrap_err().to_string(),
//!     "-1 is negative: expected a whole number from 1 to 64"
//! );
//! assert_eq!(size("512M"), Ok(512 << 20));
//! assert!(matches!(count_in("", 0, 9), Err(NumberError::Empty { .. })));
//! ```

use num_bigint::BigUint;
use std::io::Read;
use thiserror::Error;

/// Longest piece of the offending text an error message repeats.
const SHOWN: usize = 40;

/// Input longer than the most it may hold: refused as soon as the limit is passed, before
/// more is read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{what} is longer than {limit} bytes, the most {why}; {way_around}")]
pub struct TooLong {
    /// What was read ("standard input").
    pub what: String,
    /// The most bytes it may hold.
    pub limit: u64,
    /// Where the limit comes from ("--memory-limit 256M allows").
    pub why: String,
    /// What to do instead.
    pub way_around: String,
}

/// Why input could not be read whole.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReadError {
    /// Over its limit.
    #[error(transparent)]
    TooLong(#[from] TooLong),
    /// The reader failed.
    #[error("cannot read {what}: {why}")]
    Io {
        /// What was read.
        what: String,
        /// What the system said.
        why: String,
    },
}

/// All of `input`, refused as soon as it passes `limit` bytes (no more than `limit + 1` bytes
/// are ever held), so that input of any size costs at most its limit.
///
/// # Errors
/// [`ReadError::TooLong`] with `what`, `why` and `way_around` for the message, or
/// [`ReadError::Io`].
pub fn read_limited(
    input: &mut dyn std::io::Read,
    limit: u64,
    what: &str,
    why: &str,
    way_around: &str,
) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    input
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io {
            what: what.to_string(),
            why: e.to_string(),
        })?;
    if bytes.len() as u64 > limit {
        return Err(TooLong {
            what: what.to_string(),
            limit,
            why: why.to_string(),
            way_around: way_around.to_string(),
        }
        .into());
    }
    Ok(bytes)
}

/// `text` cut to 40 characters, with an ellipsis when cut, on one line (see [`one_line`]).
#[must_use]
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= SHOWN {
        one_line(text)
    } else {
        let head: String = text.chars().take(SHOWN).collect();
        format!("{}… ({} characters)", one_line(&head), text.chars().count())
    }
}

/// `text` with its control characters written as escapes (a newline as `\n`), so that a
/// value or a path repeated in a message keeps the message one line: a command line prints
/// each refusal as one line, and a file name may hold a newline.
///
/// ```
/// assert_eq!(perfect_play::parse::one_line("a\nb\tc"), "a\\nb\\tc");
/// assert_eq!(perfect_play::parse::one_line("plain é"), "plain é");
/// ```
#[must_use]
pub fn one_line(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Why a text is not an accepted whole number.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NumberError {
    /// Nothing was given.
    #[error("an empty value: expected a whole number {accepted}")]
    Empty {
        /// What is accepted, e.g. "from 1 to 64".
        accepted: String,
    },
    /// A minus sign where only 0 or more makes sense.
    #[error("{text} is negative: expected a whole number {accepted}")]
    Negative {
        /// The value as given (shortened).
        text: String,
        /// What is accepted.
        accepted: String,
    },
    /// A minus sign on zero where only 0 or more is accepted: refused as a typo, as the
    /// command line's options refuse it, so that every command reads `-0` alike.
    #[error("{text} has a minus sign: expected a whole number {accepted}, written without one")]
    Signed {
        /// The value as given (shortened).
        text: String,
        /// What is accepted.
        accepted: String,
    },
    /// Below the smallest accepted value.
    #[error("{text} is too small: expected a whole number {accepted}")]
    TooSmall {
        /// The value as given (shortened).
        text: String,
        /// What is accepted.
        accepted: String,
    },
    /// Above the largest accepted value.
    #[error("{text} is too large: expected a whole number {accepted}")]
    TooLarge {
        /// The value as given (shortened).
        text: String,
        /// What is accepted.
        accepted: String,
    },
    /// Not a whole number at all.
    #[error("{text:?} is not a whole number: expected a whole number {accepted}")]
    NotANumber {
        /// The value as given (shortened).
        text: String,
        /// What is accepted.
        accepted: String,
    },
}

fn accepted(min: i128, max: i128) -> String {
    if max == i128::MAX {
        format!("{min} or more")
    } else if max == i128::from(u64::MAX) {
        // The upper bound is real: a larger number is refused, so the message names it.
        format!("from {min} to {max} (2^64 - 1)")
    } else {
        format!("from {min} to {max}")
    }
}

/// Whether `t` is an optional sign followed by ASCII digits only.
fn is_integer(t: &str) -> bool {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A whole number in `min..=max` (signed), read from decimal text.
///
/// # Errors
/// [`NumberError`] naming the value and the accepted range.
pub fn integer_in(text: &str, min: i128, max: i128) -> Result<i128, NumberError> {
    let t = text.trim();
    let accepted = accepted(min, max);
    let shown = shorten(t);
    if t.is_empty() {
        return Err(NumberError::Empty { accepted });
    }
    if !is_integer(t) {
        return Err(NumberError::NotANumber {
            text: shown,
            accepted,
        });
    }
    match t.parse::<i128>() {
        Ok(0) if min >= 0 && t.starts_with('-') => Err(NumberError::Signed {
            text: shown,
            accepted,
        }),
        Ok(v) if v < min && v < 0 && min >= 0 => Err(NumberError::Negative {
            text: shown,
            accepted,
        }),
        Ok(v) if v < min => Err(NumberError::TooSmall {
            text: shown,
            accepted,
        }),
        Ok(v) if v > max => Err(NumberError::TooLarge {
            text: shown,
            accepted,
        }),
        Ok(v) => Ok(v),
        Err(_) if t.starts_with('-') && min >= 0 => Err(NumberError::Negative {
            text: shown,
            accepted,
        }),
        Err(_) if t.starts_with('-') => Err(NumberError::TooSmall {
            text: shown,
            accepted,
        }),
        Err(_) => Err(NumberError::TooLarge {
            text: shown,
            accepted,
        }),
    }
}

/// A count in `min..=max`.
///
/// # Errors
/// [`NumberError`] naming the value and the accepted range.
pub fn count_in(text: &str, min: u64, max: u64) -> Result<u64, NumberError> {
    integer_in(text, i128::from(min), i128::from(max)).map(|v| v as u64)
}

/// A count from 0 to `u64::MAX`.
///
/// # Errors
/// [`NumberError`].
pub fn count(text: &str) -> Result<u64, NumberError> {
    count_in(text, 0, u64::MAX)
}

/// A whole number of any size, 0 or more (a pile or heap written out in decimal).
///
/// # Errors
/// [`NumberError`].
pub fn natural(text: &str) -> Result<BigUint, NumberError> {
    let t = text.trim();
    let accepted = "0 or more".to_string();
    if t.is_empty() {
        return Err(NumberError::Empty { accepted });
    }
    if !is_integer(t) {
        return Err(NumberError::NotANumber {
            text: shorten(t),
            accepted,
        });
    }
    if let Some(digits) = t.strip_prefix('-') {
        let zero = digits.bytes().all(|b| b == b'0');
        return Err(if zero {
            NumberError::Signed {
                text: shorten(t),
                accepted,
            }
        } else {
            NumberError::Negative {
                text: shorten(t),
                accepted,
            }
        });
    }
    t.trim_start_matches(['-', '+'])
        .parse::<BigUint>()
        .map_err(|_| NumberError::NotANumber {
            text: shorten(t),
            accepted,
        })
}

/// Why a comma list is not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ListError {
    /// Nothing between the commas at all.
    #[error("an empty list: give whole numbers separated by commas, e.g. 1,3,4")]
    Empty,
    /// One entry is wrong.
    #[error("entry {position} of the list: {error}")]
    Entry {
        /// 1-based position in the list.
        position: usize,
        /// What is wrong with it.
        error: NumberError,
    },
}

/// A comma-separated list of counts in `min..=max` (spaces around entries are allowed).
///
/// # Errors
/// [`ListError`].
pub fn list_in(text: &str, min: u64, max: u64) -> Result<Vec<u64>, ListError> {
    if text.trim().is_empty() {
        return Err(ListError::Empty);
    }
    text.split(',')
        .enumerate()
        .map(|(i, entry)| {
            count_in(entry, min, max).map_err(|error| ListError::Entry {
                position: i + 1,
                error,
            })
        })
        .collect()
}

/// Why a memory size is not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SizeError {
    /// No number in front.
    #[error(
        "{0:?} is not a memory size: expected a whole number with an optional unit K, M, G or T (e.g. 512M, 8G)"
    )]
    NotASize(String),
    /// An unknown unit.
    #[error("{0:?} has an unknown unit: use K, M, G or T (powers of 1024), e.g. 512M, 8G")]
    Unit(String),
    /// More than 2^64 bytes.
    #[error("{0} is too large: the largest memory size is 2^64 - 1 bytes (just under 16777216T)")]
    TooLarge(String),
}

/// A memory size: bytes, or a number with K, M, G or T (powers of 1024; `KiB`, `GB` and the
/// like are read the same way).
///
/// # Errors
/// [`SizeError`].
pub fn size(text: &str) -> Result<u64, SizeError> {
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits_end);
    if number.is_empty() {
        return Err(SizeError::NotASize(shorten(t)));
    }
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(SizeError::Unit(shorten(t))),
    };
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1u64 << shift))
        .ok_or_else(|| SizeError::TooLarge(shorten(t)))
}

/// A memory size for people: "512 MiB", "1.5 GiB", "300 bytes".
#[must_use]
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value >= 100.0 || (value - value.round()).abs() < 0.05 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A duration for people: "0.4 s", "3 min", "2.5 hours", "3 days".
#[must_use]
pub fn human_seconds(seconds: f64) -> String {
    if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else if seconds < 3600.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 86_400.0 * 2.0 {
        format!("{:.1} hours", seconds / 3600.0)
    } else if seconds < 86_400.0 * 365.0 * 2.0 {
        format!("{:.0} days", seconds / 86_400.0)
    } else {
        format!("{:.0} years", seconds / (86_400.0 * 365.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn messages_name_the_value_and_the_range() {
        let cases = [
            ("-1", "-1 is negative: expected a whole number from 1 to 64"),
            (
                "65",
                "65 is too large: expected a whole number from 1 to 64",
            ),
            ("0", "0 is too small: expected a whole number from 1 to 64"),
            (
                "x",
                "\"x\" is not a whole number: expected a whole number from 1 to 64",
            ),
            ("", "an empty value: expected a whole number from 1 to 64"),
            (
                "1000000000000000000000000000000000000000000",
                "1000000000000000000000000000000000000000… (43 characters) is too large: expected a whole number from 1 to 64",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(count_in(text, 1, 64).unwrap_err().to_string(), message);
        }
        // Audit 3, item 16: -0 was read as 0 by some commands and refused by others (the
        // options, as a flag): a count never takes a minus sign.
        assert!(matches!(count("-0"), Err(NumberError::Signed { .. })));
        assert!(matches!(natural("-00"), Err(NumberError::Signed { .. })));
        assert_eq!(
            count_in("-0", 1, 64).unwrap_err().to_string(),
            "-0 has a minus sign: expected a whole number from 1 to 64, written without one"
        );
        assert!(matches!(integer_in("-0", -5, 5), Ok(0)));
        assert!(matches!(count("+7"), Ok(7)));
        assert!(matches!(count("1 2"), Err(NumberError::NotANumber { .. })));
    }

    #[test]
    fn lists_name_the_entry() {
        assert_eq!(list_in("1, 3,4", 1, 10), Ok(vec![1, 3, 4]));
        assert_eq!(list_in("", 1, 10), Err(ListError::Empty));
        assert_eq!(
            list_in("1,,3", 1, 10).unwrap_err().to_string(),
            "entry 2 of the list: an empty value: expected a whole number from 1 to 10"
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(size("100"), Ok(100));
        assert_eq!(size("2k"), Ok(2048));
        assert_eq!(size("8GiB"), Ok(8 << 30));
        assert_eq!(size("1 GB"), Ok(1 << 30));
        assert!(matches!(size("-1"), Err(SizeError::NotASize(_))));
        assert!(matches!(size("5Q"), Err(SizeError::Unit(_))));
        assert!(matches!(size("100000000T"), Err(SizeError::TooLarge(_))));
        assert_eq!(human_size(512 << 20), "512 MiB");
        assert_eq!(human_size(3 << 29), "1.5 GiB");
    }

    proptest! {
        #[test]
        fn any_text_parses_or_fails_cleanly(text in "\\PC{0,60}") {
            let _ = count_in(&text, 1, 64);
            let _ = natural(&text);
            let _ = size(&text);
            let _ = list_in(&text, 1, 100);
        }

        #[test]
        fn counts_round_trip(v in any::<u64>()) {
            prop_assert_eq!(count(&v.to_string()), Ok(v));
            prop_assert_eq!(natural(&v.to_string()), Ok(BigUint::from(v)));
        }
    }
}
