//! Any impartial heap game and any sum of them, by the Sprague-Grundy theorem: a sum is lost
//! by the player to move exactly when the XOR of its components' Grundy values (the nim-sum)
//! is 0, and a winning move is one that makes it 0.
//!
//! The games: Nim, every take-and-break code (octal, hexadecimal, Grundy's game `4!.0`),
//! finite subtraction sets, and sets given by a rule ([`rule::SetRule`]).
//!
//! ```
//! use perfect_play::impartial::{analyse_sum, Component, Limits};
//!
//! let sum: Vec<Component> = ["0.77:10", "grundy:12", "squares:100", "subtract=1,3,4:7", "nim:5"]
//!     .iter()
//!     .map(|c| c.parse().unwrap())
//!     .collect();
//! let answer = analyse_sum(&sum, &Limits::default()).unwrap();
//! assert_eq!(answer.values.len(), 5);
//! assert_eq!(answer.first_player_wins, answer.nim_sum != 0u8.into());
//! ```

pub mod rule;
mod sum;

pub use rule::SetRule;
pub use sum::{
    Component, ComponentMove, MAX_LISTED, MisereSum, SECONDS_PER_OPTION_CHECK, SumAnalysis,
    SumGame, analyse_misere, analyse_sum, analyse_sum_with_progress,
    estimated_seconds as estimated_sum_seconds,
};

use crate::budget::Cancel;
pub mod coins;

use crate::octal::{self, GrundySequence, OctalCode};
use crate::period::{ArithmeticPeriod, Period, find_arithmetic_period};
use crate::subtraction::{self, SubtractionSet};
pub use coins::CoinRule;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// An impartial game played on one heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeapGame {
    /// Take any number of tokens.
    Nim,
    /// A take-and-break code: octal, hexadecimal, or with `!`/`?` restrictions.
    TakeBreak(OctalCode),
    /// Subtract a member of a finite set.
    Subtraction(SubtractionSet),
    /// Subtract a member of a set given by a rule.
    Rule(SetRule),
    /// A coin-turning game: the heap is the coin a head is on.
    CoinTurning(CoinRule),
}

/// Why a game name, component or query is not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ImpartialError {
    /// The work was cancelled (its [`crate::budget::Cancel`] raised) before it finished.
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// Not a game this library knows.
    #[error(
        "{0:?} is not a game: use nim, grundy, squares, powers-of-two, primes, fibonacci, mock-turtles, ruler, half (at most half), at-least-half, at-most-half, subtract=1,3,4 or a take-and-break code such as 0.77 or 0.3F"
    )]
    UnknownGame(String),
    /// A malformed take-and-break code.
    #[error("code {code:?}: {source}")]
    Code {
        /// The text.
        code: String,
        /// Why.
        source: octal::CodeError,
    },
    /// A malformed finite subtraction set.
    #[error("subtract={set}: {reason}")]
    Set {
        /// The text after `subtract=`.
        set: String,
        /// Why.
        reason: String,
    },
    /// A component without its heap.
    #[error("component {0:?} must be GAME:HEAP, for example 0.77:10 or nim:5")]
    Component(String),
    /// A heap that is not a number.
    #[error("component {component:?}: {reason}")]
    Heap {
        /// The component.
        component: String,
        /// Why.
        reason: String,
    },
    /// A heap whose value would need more values than may be computed.
    #[error(
        "{game} heap {heap} needs its value computed, and this game has no proven period or formula; at most {limit} heaps can be computed ({why})"
    )]
    HeapTooLarge {
        /// The game.
        game: String,
        /// The heap.
        heap: String,
        /// The most heaps computed.
        limit: u64,
        /// What bounds it.
        why: String,
    },
    /// Computing the values would take too long or too much memory.
    #[error("{0}")]
    TooMuch(String),
    /// The values' estimated time is past the longest a run may take.
    #[error(
        "{what} would take about {} here, past the {} one run may take; ask for fewer heaps (or compute them with `perfect-play octal {code} --upto {upto} --full --no-time-limit --checkpoint FILE`)",
        crate::parse::human_seconds(*estimate_ms as f64 / 1000.0),
        crate::parse::human_seconds(*limit_seconds as f64)
    )]
    TooLong {
        /// What would take the time.
        what: String,
        /// The game's code.
        code: String,
        /// The heaps asked for.
        upto: u64,
        /// The estimate, in milliseconds.
        estimate_ms: u64,
        /// The longest a run may take, in seconds.
        limit_seconds: u64,
    },
    /// The take-and-break engine refused.
    #[error(transparent)]
    Octal(#[from] octal::OctalError),
    /// The subtraction engine refused.
    #[error(transparent)]
    Subtraction(#[from] subtraction::SubtractionError),
    /// No sum given.
    #[error("give at least one component, GAME:HEAP")]
    Empty,
    /// A question the game does not answer, with the reason.
    #[error("{0}")]
    Unsupported(String),
    /// Misère play beyond exact search.
    #[error(
        "misère play of this sum is solved by exact search over at most {0} positions, and it needs more; use fewer or smaller heaps"
    )]
    MisereTooLarge(usize),
}

impl FromStr for HeapGame {
    type Err = ImpartialError;

    fn from_str(text: &str) -> Result<HeapGame, ImpartialError> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let game = match lower.as_str() {
            "nim" => HeapGame::Nim,
            "grundy" => HeapGame::TakeBreak(OctalCode::grundys_game()),
            "half" | "at-most-half" => HeapGame::Rule(SetRule::AtMostHalf),
            "at-least-half" => HeapGame::Rule(SetRule::AtLeastHalf),
            "squares" => HeapGame::Rule(SetRule::Squares),
            "powers-of-two" => HeapGame::Rule(SetRule::PowersOfTwo),
            "primes" => HeapGame::Rule(SetRule::Primes),
            "fibonacci" => HeapGame::Rule(SetRule::Fibonacci),
            "mock-turtles" => HeapGame::CoinTurning(CoinRule::MockTurtles),
            "ruler" => HeapGame::CoinTurning(CoinRule::Ruler),
            _ if lower.starts_with("subtract=") => {
                let list = &t["subtract=".len()..];
                let moves = crate::parse::list_in(list, 1, subtraction::MAX_MOVE).map_err(|e| {
                    ImpartialError::Set {
                        set: crate::parse::shorten(list),
                        reason: e.to_string(),
                    }
                })?;
                let set = SubtractionSet::new(&moves).map_err(|e| ImpartialError::Set {
                    set: crate::parse::shorten(list),
                    reason: e.to_string(),
                })?;
                HeapGame::Subtraction(set)
            }
            _ if t.contains('.') => {
                HeapGame::TakeBreak(t.parse().map_err(|source| ImpartialError::Code {
                    code: crate::parse::shorten(t),
                    source,
                })?)
            }
            _ => return Err(ImpartialError::UnknownGame(crate::parse::shorten(t))),
        };
        Ok(game)
    }
}

impl fmt::Display for HeapGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapGame::Nim => write!(f, "nim"),
            HeapGame::TakeBreak(code) if *code == OctalCode::grundys_game() => write!(f, "grundy"),
            HeapGame::TakeBreak(code) => write!(f, "{code}"),
            HeapGame::Subtraction(set) => {
                let moves: Vec<String> = set.moves().iter().map(u64::to_string).collect();
                write!(f, "subtract={}", moves.join(","))
            }
            HeapGame::Rule(rule) => write!(f, "{}", rule.name()),
            HeapGame::CoinTurning(rule) => write!(f, "{}", rule.name()),
        }
    }
}

impl HeapGame {
    /// One line on the game, for people.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            HeapGame::Nim => "Nim: take any number of tokens".into(),
            HeapGame::TakeBreak(code) if *code == OctalCode::grundys_game() => {
                "Grundy's game (4!.0): split a heap into two unequal heaps".into()
            }
            HeapGame::TakeBreak(code) => format!("take-and-break code {code}"),
            HeapGame::Subtraction(set) => {
                let moves: Vec<String> = set.moves().iter().map(u64::to_string).collect();
                format!("subtract one of {{{}}}", moves.join(", "))
            }
            HeapGame::Rule(rule) => rule.describe().into(),
            HeapGame::CoinTurning(rule) => rule.describe().into(),
        }
    }
}

/// Heaps [`Values::compute_proving`] computes at least, for a period to be proven.
pub const PROOF_HEAPS: u64 = 1 << 14;

/// Limits on one computation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most heaps whose values a table may hold (four bytes a heap for rule sets, two for
    /// take-and-break codes).
    pub max_values: u64,
    /// Most option checks a rule set's table may cost (see [`SetRule::work`]).
    pub max_work: u64,
    /// Positions the misère search may visit.
    pub max_misere_states: usize,
    /// The longest estimated time of a take-and-break code's values (about a minute, as the
    /// work limit).
    pub max_seconds: u64,
    /// Raised to stop the computation: it ends with [`ImpartialError::Cancelled`].
    pub cancel: Cancel,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_values: 1 << 28,
            // About a minute here (squares to 10^7 is 2.1e10 checks).
            max_work: 40_000_000_000,
            max_misere_states: 2_000_000,
            max_seconds: 60,
            cancel: Cancel::new(),
        }
    }
}

/// The Grundy values of one heap game: a table of heaps `0..values.len()`, and what answers
/// beyond it (a proven period or a formula) if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// The game.
    pub game: HeapGame,
    /// Values of heaps `0..values.len()`.
    pub values: Vec<u32>,
    /// The proven period, if any.
    pub period: Option<Period>,
    /// The closed form, if the game has one.
    pub formula: Option<&'static str>,
    /// An arithmetic period the table shows, when it has no proven period or closed form
    /// (observed, not proven).
    pub arithmetic_period: Option<ArithmeticPeriod>,
    /// How many heaps the engine computed (for a finite subtraction set, the heaps its period
    /// search needed).
    pub values_computed: u64,
    /// For a take-and-break code, the engine's own sequence (it lists the moves).
    pub take_break: Option<GrundySequence>,
}

impl Values {
    /// Values of heaps `0..=upto` and whatever is proven about the rest.
    ///
    /// # Errors
    /// Refused up front when the table would pass `limits`, with the figure.
    pub fn compute(
        game: &HeapGame,
        upto: u64,
        limits: &Limits,
        on_progress: &dyn Fn(u64, u64),
    ) -> Result<Values, ImpartialError> {
        Values::compute_inner(game, upto, true, limits, on_progress)
    }

    /// Values enough to answer heaps `0..=upto` ([`Values::upto`]), computed at least to
    /// [`PROOF_HEAPS`] (or what the work limit allows) so that a period has room to be proven;
    /// a take-and-break code stops once its period is proven.
    ///
    /// # Errors
    /// As [`Values::compute`].
    pub fn compute_proving(
        game: &HeapGame,
        upto: u64,
        limits: &Limits,
        on_progress: &dyn Fn(u64, u64),
    ) -> Result<Values, ImpartialError> {
        let mut target = upto.max(PROOF_HEAPS.min(limits.max_values.saturating_sub(1)));
        match game {
            // A closed form needs no room for a proof.
            HeapGame::Nim | HeapGame::CoinTurning(_) => target = upto,
            HeapGame::Rule(rule) if rule.formula().is_some() => target = upto,
            // Three-way splits cost time cubic in the heap: a shorter run for a period.
            HeapGame::TakeBreak(code) if code.is_hexadecimal() => {
                target = upto.max(1 << 10);
                while target > upto
                    && octal::three_way_splits(code, target) > limits.max_work as f64
                {
                    target = (target / 2).max(upto);
                }
            }
            HeapGame::TakeBreak(code) => target = target.min(octal::largest_upto(code).max(upto)),
            HeapGame::Rule(rule) => {
                while target > upto && rule.work(target) > limits.max_work as f64 {
                    target = (target / 2).max(upto);
                }
            }
            _ => {}
        }
        if let HeapGame::Subtraction(set) = game
            && Values::short_of_a_period(game, upto)
        {
            return Values::subtraction_heaps(set, upto, limits);
        }
        let full = !matches!(game, HeapGame::TakeBreak(_));
        Values::compute_inner(game, target, full, limits, on_progress)
    }

    /// A subtraction game's values of heaps `0..=upto` one by one, without a period: for fewer
    /// heaps than the period's proof needs (two windows of the largest move), which
    /// [`Values::compute`] would search for first.
    ///
    /// # Errors
    /// [`ImpartialError::Cancelled`].
    pub fn subtraction_heaps(
        set: &SubtractionSet,
        upto: u64,
        limits: &Limits,
    ) -> Result<Values, ImpartialError> {
        let values =
            subtraction::values_upto(set, subtraction::Rule::Normal, upto, &limits.cancel)?;
        Ok(Values {
            game: HeapGame::Subtraction(set.clone()),
            values_computed: values.len() as u64,
            values: values.into_iter().map(u32::from).collect(),
            period: None,
            formula: None,
            arithmetic_period: None,
            take_break: None,
        })
    }

    /// Whether [`Values::subtraction_heaps`] is the way to heaps `0..=upto` of `game`.
    #[must_use]
    pub fn short_of_a_period(game: &HeapGame, upto: u64) -> bool {
        matches!(game, HeapGame::Subtraction(set) if upto < set.largest().saturating_mul(2))
    }

    /// The values of heaps `0..=n`, from the table or beyond it; `None` past what is known.
    #[must_use]
    pub fn upto(&self, n: u64) -> Option<Vec<u32>> {
        (0..=n).map(|h| self.get(h)).collect()
    }

    /// The value of heap `n` as [`Values::value`] gives it, when it fits four bytes: from the
    /// table at once, else from the period or the formula.
    #[must_use]
    pub fn get(&self, n: u64) -> Option<u32> {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Some(v);
        }
        self.value(&n.into()).and_then(|v| v.to_u32())
    }

    /// As [`Values::compute`]; a take-and-break code stops at its proven period unless `full`.
    pub(crate) fn compute_inner(
        game: &HeapGame,
        upto: u64,
        full: bool,
        limits: &Limits,
        on_progress: &dyn Fn(u64, u64),
    ) -> Result<Values, ImpartialError> {
        if upto >= limits.max_values {
            return Err(ImpartialError::TooMuch(format!(
                "the values up to heap {upto} are more than the {} heaps a table may hold under the memory limit (and the time budget, if any); ask for fewer or raise --memory-limit",
                limits.max_values
            )));
        }
        let table = |values: Vec<u32>, period: Option<Period>, formula: Option<&'static str>| {
            let arithmetic_period = if period.is_none() && formula.is_none() {
                find_arithmetic_period(&values)
            } else {
                None
            };
            Values {
                game: game.clone(),
                values_computed: values.len() as u64,
                values,
                period,
                formula,
                arithmetic_period,
                take_break: None,
            }
        };
        Ok(match game {
            HeapGame::Nim => table(
                (0..=upto).map(|n| n as u32).collect(),
                None,
                Some("g(n) = n"),
            ),
            HeapGame::TakeBreak(code) => {
                let splits = octal::three_way_splits(code, upto);
                if splits > limits.max_work as f64 {
                    return Err(ImpartialError::TooMuch(format!(
                        "{code} up to heap {upto} means about {splits:.1e} three-way splits, past the {:.1e} one run may do; ask for fewer heaps",
                        limits.max_work as f64
                    )));
                }
                let seconds = octal::estimated_seconds(code, upto);
                if seconds > limits.max_seconds as f64 {
                    return Err(ImpartialError::TooLong {
                        what: format!("{code} up to heap {upto}"),
                        code: code.to_string(),
                        upto,
                        estimate_ms: (seconds * 1000.0) as u64,
                        limit_seconds: limits.max_seconds,
                    });
                }
                let options = octal::Options {
                    upto,
                    full,
                    method: octal::Method::Auto,
                    storage: octal::Storage::Auto,
                };
                let seq = GrundySequence::compute_resumable(
                    code,
                    &options,
                    None,
                    &limits.cancel,
                    on_progress,
                )?;
                let values = seq.values.iter().map(u32::from).collect();
                let period = seq.period;
                Values {
                    take_break: Some(seq),
                    ..table(values, period, None)
                }
            }
            HeapGame::Subtraction(set) => {
                let defaults = subtraction::Limits::default();
                let bounded = subtraction::Limits {
                    max_values: defaults.max_values.min(limits.max_values),
                    max_streamed_values: defaults.max_streamed_values.min(limits.max_work),
                    cancel: limits.cancel.clone(),
                    ..defaults
                };
                let seq = subtraction::Sequence::compute(set, subtraction::Rule::Normal, &bounded)?;
                // At least the preperiod and one period, which answer every heap.
                let kept = upto.max(seq.period.preperiod + seq.period.period - 1);
                Values {
                    game: game.clone(),
                    values: (0..=kept).map(|n| u32::from(seq.value(n))).collect(),
                    period: Some(seq.period),
                    formula: None,
                    arithmetic_period: None,
                    values_computed: seq.values_computed.max(upto + 1),
                    take_break: None,
                }
            }
            HeapGame::CoinTurning(rule) => {
                table(coins::table(*rule, upto), None, Some(rule.formula()))
            }
            HeapGame::Rule(rule) => {
                let work = rule.work(upto);
                if work > limits.max_work as f64 {
                    return Err(ImpartialError::TooMuch(format!(
                        "{} up to heap {upto} means about {work:.1e} option checks, past the {:.1e} one run may do (about a minute); ask for fewer heaps",
                        rule.name(),
                        limits.max_work as f64
                    )));
                }
                let values = rule::values(*rule, upto, &limits.cancel, on_progress)?;
                let period = rule::prove_pure_period(*rule, &values);
                table(values, period, rule.formula())
            }
        })
    }

    /// The value of a heap of any size: from the table, the formula or the period.
    #[must_use]
    pub fn value(&self, n: &BigUint) -> Option<BigUint> {
        match &self.game {
            HeapGame::Nim => return Some(n.clone()),
            HeapGame::CoinTurning(rule) => return Some(rule.value(n)),
            HeapGame::Rule(rule) => {
                if let Some(v) = rule.value_by_formula(n) {
                    return Some(v);
                }
            }
            _ => {}
        }
        if let Some(&v) = n.to_usize().and_then(|i| self.values.get(i)) {
            return Some(v.into());
        }
        let p = self.period?;
        let offset = ((n - p.preperiod) % p.period).to_u64()?;
        self.values
            .get((p.preperiod + offset) as usize)
            .map(|&v| v.into())
    }
}

#[cfg(test)]
mod tests;
