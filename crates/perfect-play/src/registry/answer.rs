//! One answer for a position of any game: the value for the player to move, every legal move
//! valued with the position it leads to, the winning moves, a best line, and the game's own
//! fields. The CLI's `--json`, the HTTP API, the play mode and the page all show this object.

use crate::Outcome;
use crate::budget::OverBudget;
use serde::Serialize;
use serde_json::{Map, Value};

/// Who is to move. In the impartial families, where either player may face a position, the
/// player to move is the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player who moved first in the game.
    First,
    /// The other one.
    Second,
}

impl Side {
    /// `"first"` or `"second"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }

    /// The side to move when `first` says whether the first player is.
    #[must_use]
    pub fn of(first: bool) -> Side {
        if first { Side::First } else { Side::Second }
    }
}

/// One legal move, valued for the player who makes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveValue {
    /// The move, in the game's move notation (a number, a name, or a heap move object).
    #[serde(rename = "move")]
    pub mv: Value,
    /// The outcome for the player who makes it.
    pub outcome: Outcome,
    /// Moves to the end after it is made, counting it; None where only Grundy values are known.
    pub remoteness: Option<u64>,
    /// The move ends the game.
    pub ends_game: bool,
    /// The position it leads to, in the game's notation (None when it ends the game).
    pub position: Option<String>,
    /// The game's own fields of a move (the Stone Game's `margin`).
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// The game's name in the registry.
    pub game: &'static str,
    /// The position, in the notation the game takes back (`3 4 5`, `x...o....`, `2233`).
    pub position: String,
    /// Who is to move.
    pub to_move: Side,
    /// The outcome for the player to move.
    pub outcome: Outcome,
    /// The player to move wins (the vocabulary's long-standing name).
    pub first_player_wins: bool,
    /// Moves to the end with the winner hurrying and the loser delaying; None when not known.
    pub remoteness: Option<u64>,
    /// Every legal move best first, or the winning moves only (see `moves_complete`).
    pub moves: Vec<MoveValue>,
    /// Whether `moves` lists every legal move.
    pub moves_complete: bool,
    /// The moves that win for the player to move (possibly the first of many).
    pub winning_moves: Vec<Value>,
    /// How many winning moves there are (a number, or a decimal string past 2^64).
    pub winning_moves_total: Value,
    /// One line of perfect play, in the move notation at each point; None when not computed.
    pub best_line: Option<Vec<Value>>,
    /// How the answer was found.
    pub method: String,
    /// The game's own fields.
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

impl Answer {
    /// The answer as one JSON object.
    #[must_use]
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Sort the moves best first for the player to move: wins by increasing remoteness, ties,
    /// draws, then losses by decreasing remoteness (unknown remoteness last in its class).
    pub fn sort_moves(&mut self) {
        self.moves.sort_by_key(|m| {
            let r = m.remoteness;
            match m.outcome {
                Outcome::Win => (0, r.unwrap_or(u64::MAX)),
                Outcome::Tie => (1, r.unwrap_or(u64::MAX)),
                Outcome::Draw => (2, 0),
                Outcome::Loss => (3, r.map_or(u64::MAX, |r| u64::MAX - r)),
            }
        });
    }
}

/// Why a position is not answered.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The position or a parameter is not accepted, with the reason in one line.
    #[error("{0}")]
    BadInput(String),
    /// The work needs more memory than the limit (or the machine) holds: refused before it
    /// starts, the figure and the way around in one line.
    #[error("{0}")]
    OverMemory(String),
    /// The work is estimated above the time budget: refused before it starts.
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    /// A search stopped at the node budget it was given: what it had proven, in one line.
    #[error("{0}")]
    Unfinished(String),
    /// The work was cancelled (its [`crate::budget::Cancel`] raised) before it finished.
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// Long work turned away by the budget's admission (a busy server).
    #[error(transparent)]
    Busy(#[from] crate::budget::Busy),
    /// A file that could not be read or written, or that perfect-play will not touch: a
    /// refusal of what was named (a link, a FIFO, another game's file) or a failure of the
    /// system (a full disk: [`crate::durable::FileError::is_write_failure`]).
    #[error("{0}")]
    File(#[from] crate::durable::FileError),
}

/// A solver's error as a query's: a cancellation stays one, any other error is the input's.
macro_rules! from_solver_error {
    ($($error:ident),*) => {$(
        impl From<$error> for QueryError {
            fn from(e: $error) -> QueryError {
                match e {
                    $error::Cancelled(c) => QueryError::Cancelled(c),
                    e => QueryError::bad(e),
                }
            }
        }
    )*};
}

use crate::can_i_win::CanIWinError;
use crate::engine::EngineError;
use crate::impartial::ImpartialError;
use crate::octal::OctalError;
use crate::subtraction::SubtractionError;
use crate::take_ends::TakeEndsError;

impl From<EngineError> for QueryError {
    fn from(e: EngineError) -> QueryError {
        match e {
            EngineError::Cancelled(c) => QueryError::Cancelled(c),
            EngineError::File(f) => QueryError::File(f),
            e => QueryError::bad(e),
        }
    }
}

from_solver_error!(
    ImpartialError,
    CanIWinError,
    SubtractionError,
    TakeEndsError,
    OctalError
);

impl QueryError {
    /// A bad input from any error's message.
    pub fn bad(e: impl std::fmt::Display) -> QueryError {
        QueryError::BadInput(e.to_string())
    }
}
