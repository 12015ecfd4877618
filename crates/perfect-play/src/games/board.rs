//! The board trait every engine game implements beside its rules and its index: its name,
//! variant, notation for positions and moves, and a picture. It sits with the games; the
//! registry, above them, lists them and hands them out behind
//! [`crate::registry::EngineGame`].

use crate::engine::IndexedGame;
use crate::games::notation::NotationError;
use serde::Serialize;
use std::fmt;

/// Positions the engine solves a second on one core, measured on Connect Four 5 x 4 (1.4
/// million): the rate of a game that does not say its own (see
/// [`BoardGame::indices_per_second`]).
pub const INDICES_PER_SECOND: f64 = 1.4e6;

/// A move as the notation names it: a number (tic-tac-toe's square, Connect Four's column,
/// 1-based) or a word (`a3R`, `C*b3`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum MoveName {
    /// A square or a column, 1-based.
    Number(u32),
    /// A move's name.
    Text(String),
}

impl fmt::Display for MoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveName::Number(n) => write!(f, "{n}"),
            MoveName::Text(t) => f.write_str(t),
        }
    }
}

/// What a front end needs of an engine game beyond its rules and its index.
pub trait BoardGame: IndexedGame + Send + Sync {
    /// The game's name in the registry, the CLI and the database (`quixo`).
    fn name(&self) -> &'static str;
    /// The variant (`4x4`), empty when the game has one form only.
    fn variant(&self) -> String;
    /// The registry's parameters that build this variant (`size` = `4`).
    fn params(&self) -> Vec<(&'static str, String)>;
    /// A position in the game's notation.
    ///
    /// # Errors
    /// Text that is not a position of this variant, with the reason.
    fn parse_position(&self, text: &str) -> Result<Self::Position, NotationError>;
    /// Whether the first player is to move.
    fn first_to_move(&self, position: &Self::Position) -> bool;
    /// A move's name.
    fn move_name(&self, mv: &Self::Move) -> MoveName;
    /// The position in the notation [`BoardGame::parse_position`] reads, when a bare position
    /// has one (Connect Four's notation is the moves played, which a position does not keep).
    fn notation(&self, position: &Self::Position) -> Option<String>;
    /// The position `text` (already read as `position`) written back in the notation: its
    /// [`BoardGame::notation`], or for a game whose notation is the moves played, the moves.
    fn notation_given(&self, text: &str, position: &Self::Position) -> Option<String> {
        let _ = text;
        self.notation(position)
    }
    /// The position `mv` leads to from the position written `text`, in the notation.
    fn notation_after(
        &self,
        text: &str,
        after: &Self::Position,
        mv: &Self::Move,
    ) -> Option<String> {
        let _ = (text, mv);
        self.notation(after)
    }
    /// The position drawn as text, rows and coordinates included.
    fn picture(&self, position: &Self::Position) -> String;
    /// Table indices the answer from scratch goes through a second, whole process on this kind
    /// of machine (2 cores): the time estimate behind refusals before work. Games override it
    /// with their measured rate (their moves and loops make it range from 1 to 9 million).
    fn indices_per_second(&self) -> f64 {
        INDICES_PER_SECOND
    }
    /// A number for a move that does the same thing wherever it is played (a piece's squares,
    /// a push's square and side), for the proof search's history heuristic. Any number is
    /// correct; one per kind of move makes the search faster.
    fn move_key(&self, mv: &Self::Move) -> u32 {
        let _ = mv;
        0
    }
}
