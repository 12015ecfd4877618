//! Partizan games: what a position is worth in Conway's sense, not only who wins.
//!
//! In a partizan game the two players, Left and Right, may have different moves. A short
//! game's value is its canonical form (Winning Ways; Siegel, *Combinatorial Game Theory*):
//! equal for two positions exactly when they can replace each other in any sum. From it
//! follow who wins moving first or second ([`OutcomeClass`]), the stops, and the value of any
//! sum of components.
//!
//! - [`dyadic`]: the numbers short games take (`m / 2^k`).
//! - [`table`]: canonical forms kept once each ([`GameTable`], [`GameId`]), and the operations
//!   on them, cached by ids.
//! - [`notation`]: CGSuite's notation, printed and read.
//! - [`rules`]: the [`PartizanRules`] trait a game implements (its positions and each
//!   side's moves), and the value of a position, its independent regions valued apart.
//! - one module per game: [`domineering`], [`clobber`], [`konane`], [`amazons`],
//!   [`toads_and_frogs`], [`hackenbush`], [`cutcake`].
//!
//! ```
//! use perfect_play::partizan::{GameTable, notation, OutcomeClass};
//!
//! let mut games = GameTable::new();
//! let g = notation::parse(&mut games, "{1|-1} + ^ + *").unwrap();
//! assert_eq!(notation::show(&mut games, g), "{1^*|-1^*}");
//! assert_eq!(games.outcome(g), OutcomeClass::Next);
//! ```

pub mod amazons;
pub mod answer;
pub mod atomic;
pub mod clobber;
pub mod cooling;
pub mod cutcake;
pub mod domineering;
pub mod dyadic;
pub mod grid;
pub mod hackenbush;
pub mod konane;
pub mod notation;
pub mod rules;
pub mod table;
pub mod thermograph;
pub mod toads_and_frogs;

#[cfg(test)]
mod operation_tests;
#[cfg(test)]
mod tests;

pub use dyadic::Dyadic;
pub use rules::{PartizanRules, Valuer};
pub use table::{GameId, GameTable, OutcomeClass, Side};
pub use thermograph::{Piece, Thermograph, Trajectory};

use thiserror::Error;

/// Why a partizan value could not be given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PartizanError {
    /// A number past what the table keeps.
    #[error("a number past 2^62 (or with a denominator past 2^62): too large to keep exactly")]
    TooLarge,
    /// The table of canonical forms is full.
    #[error(
        "more than {limit} distinct canonical forms would be needed: raise --memory-limit, or value a smaller position"
    )]
    TooManyGames {
        /// The most forms allowed.
        limit: usize,
    },
    /// An operation that needs a number was given another value.
    #[error("{0} is not a number: cooling is by a number (a temperature)")]
    NotANumber(String),
    /// Cooling is defined above -1 only.
    #[error("a game can be cooled only by a temperature above -1, not by {0}")]
    CoolingTooCold(Dyadic),
    /// A value written in CGSuite's notation could not be read.
    #[error("{0}")]
    Notation(#[from] notation::NotationError),
    /// The work was cancelled (Ctrl-C, a client gone).
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// A line of play longer than the valuer follows.
    #[error(
        "a line of play longer than {limit} moves: the value is refused (does every line of play end?)"
    )]
    TooDeep {
        /// The deepest line followed.
        limit: usize,
    },
    /// A position could not be read.
    #[error("{0}")]
    Position(String),
}
