//! The value of a position under perfect play: outcome, margin and remoteness.

use crate::player::Outcome;
use serde::Serialize;
use std::cmp::Ordering;

/// What a position is worth to the player to move under perfect play.
///
/// `score` is the final margin (mover's points minus the opponent's) for scoring games, and
/// `+1` / `0` / `-1` for win / draw / loss games. `remoteness` is the number of moves left when
/// both sides play perfectly: the winner hurries, the loser delays, and a drawn or equal-margin
/// game takes the quickest optimal line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Value {
    /// Final margin for the player to move (`+1`, `0`, `-1` in win/loss games).
    pub score: i64,
    /// Moves until the game ends under perfect play.
    pub remoteness: u32,
}

impl Value {
    /// A position that is already over with `score` for the player to move.
    #[must_use]
    pub const fn terminal(score: i64) -> Value {
        Value {
            score,
            remoteness: 0,
        }
    }

    /// Win, loss or draw for the player to move.
    #[must_use]
    pub fn outcome(self) -> Outcome {
        Outcome::from_margin(self.score)
    }

    /// The value seen by the opponent one move earlier, when the move itself earned `reward`.
    #[must_use]
    pub fn before_move(self, reward: i64) -> Value {
        Value {
            score: reward - self.score,
            remoteness: self.remoteness + 1,
        }
    }

    /// Orders values from the mover's point of view: `Greater` means `self` is preferred.
    ///
    /// A higher margin is better; with equal margins a winner prefers the shorter game, a loser
    /// the longer one, and a draw the shorter one.
    #[must_use]
    pub fn preference(self, other: Value) -> Ordering {
        self.score.cmp(&other.score).then_with(|| {
            if self.score < 0 {
                self.remoteness.cmp(&other.remoteness)
            } else {
                other.remoteness.cmp(&self.remoteness)
            }
        })
    }
}
