//! Who moves, and how a game ends for the player to move.

use serde::Serialize;
use std::fmt;

/// One of the two players. The coin-game seed calls them A (moves first) and B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The player who makes the first move ("A").
    First,
    /// The player who replies ("B").
    Second,
}

impl Player {
    /// The other player.
    #[must_use]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// The seed's letter for the player: `A` moves first, `B` second.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Player::First => 'A',
            Player::Second => 'B',
        }
    }

    /// The player who wins when the player to move has `outcome`, or `None` for a draw.
    #[must_use]
    pub fn winner_from(to_move: Player, outcome: Outcome) -> Option<Player> {
        match outcome {
            Outcome::Win => Some(to_move),
            Outcome::Loss => Some(to_move.opponent()),
            Outcome::Draw | Outcome::Tie => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first player",
            Player::Second => "second player",
        })
    }
}

/// The result of perfect play for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player to move loses whatever they do.
    Loss,
    /// Play goes on forever under perfect play: neither side can force a win in a game with
    /// loops (the engine's retrograde analysis finds these).
    Draw,
    /// The game ends level (tic-tac-toe's full board, an equal total).
    Tie,
    /// The player to move can force a win.
    Win,
}

impl Outcome {
    /// The outcome for the other player.
    #[must_use]
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Tie => Outcome::Tie,
        }
    }

    /// The outcome of a final margin seen by the player it belongs to.
    #[must_use]
    pub fn from_margin<T: PartialOrd + Default>(margin: T) -> Outcome {
        let zero = T::default();
        if margin > zero {
            Outcome::Win
        } else if margin < zero {
            Outcome::Loss
        } else {
            Outcome::Tie
        }
    }

    /// `win`, `loss`, `draw` or `tie`, as used in JSON.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Tie => "tie",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
