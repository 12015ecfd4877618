//! One solved position in two bytes: what it is worth to the player to move and how far the
//! end is.

use crate::player::Outcome;

/// A position's value as the engine stores it: 16 bits, the top two for the kind (win, loss,
/// tie, or none of those: then the low bits say draw, not solved yet, or hole) and fourteen
/// for the remoteness. GamesmanOne's array database keeps the same 16 bits a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record(u16);

const KIND_SHIFT: u32 = 14;
const REMOTENESS_MASK: u16 = (1 << KIND_SHIFT) - 1;
const WIN: u16 = 1;
const LOSS: u16 = 2;
const TIE: u16 = 3;

/// The largest remoteness a record holds; deeper games are refused when it is reached.
pub const MAX_REMOTENESS: u32 = REMOTENESS_MASK as u32 - 1;

impl Record {
    /// Not solved yet.
    pub const OPEN: Record = Record(0);
    /// A draw: endless play under perfect play.
    pub const DRAW: Record = Record(1);
    /// A number that is no position of the game (a hole in its index).
    pub const HOLE: Record = Record(REMOTENESS_MASK);

    /// A win, loss or tie (`outcome`) with `remoteness` moves to the end; `None` for a draw
    /// or a remoteness past [`MAX_REMOTENESS`].
    #[must_use]
    pub fn new(outcome: Outcome, remoteness: u32) -> Option<Record> {
        let kind = match outcome {
            Outcome::Win => WIN,
            Outcome::Loss => LOSS,
            Outcome::Tie => TIE,
            Outcome::Draw => return None,
        };
        (remoteness <= MAX_REMOTENESS).then_some(Record(kind << KIND_SHIFT | remoteness as u16))
    }

    /// The record's bits, as stored.
    #[must_use]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The record with these bits.
    #[must_use]
    pub fn from_bits(bits: u16) -> Record {
        Record(bits)
    }

    /// Whether the record is a hole.
    #[must_use]
    pub fn is_hole(self) -> bool {
        self == Record::HOLE
    }

    /// Whether the position has a win, loss or tie (not a draw, not a hole).
    #[must_use]
    pub fn is_decided(self) -> bool {
        self.0 >> KIND_SHIFT != 0
    }

    /// Whether the position's value is known: a win, loss, tie or draw.
    #[must_use]
    pub fn is_final(self) -> bool {
        self.is_decided() || self == Record::DRAW
    }

    /// The outcome for the player to move; `None` for a hole or a position not solved yet.
    #[must_use]
    pub fn outcome(self) -> Option<Outcome> {
        match self.0 >> KIND_SHIFT {
            WIN => Some(Outcome::Win),
            LOSS => Some(Outcome::Loss),
            TIE => Some(Outcome::Tie),
            _ if self == Record::DRAW => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Moves to the end under perfect play (the winner hurries, the loser delays, a tie takes
    /// the shortest line); `None` for a draw or a hole.
    #[must_use]
    pub fn remoteness(self) -> Option<u32> {
        self.is_decided()
            .then_some(u32::from(self.0 & REMOTENESS_MASK))
    }

    /// Whether the mover prefers `self` to `other`, both seen from the mover: a win beats a
    /// tie, a tie a draw, a draw a loss; a faster win or tie and a slower loss are better.
    #[must_use]
    pub fn preference(self, other: Record) -> std::cmp::Ordering {
        fn rank(r: Record) -> (u8, i64) {
            let remoteness = i64::from(r.remoteness().unwrap_or(0));
            match r.outcome() {
                Some(Outcome::Win) => (4, -remoteness),
                Some(Outcome::Tie) => (3, -remoteness),
                Some(Outcome::Draw) => (2, 0),
                Some(Outcome::Loss) => (1, remoteness),
                None => (0, 0),
            }
        }
        rank(self).cmp(&rank(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_order_as_a_player_would() {
        for outcome in [Outcome::Win, Outcome::Loss, Outcome::Tie] {
            for remoteness in [0, 1, 9, MAX_REMOTENESS] {
                let r = Record::new(outcome, remoteness).unwrap();
                assert_eq!(
                    (r.outcome(), r.remoteness()),
                    (Some(outcome), Some(remoteness))
                );
                assert_eq!(Record::from_bits(r.bits()), r);
                assert!(r.is_decided() && !r.is_hole());
            }
        }
        assert_eq!(Record::new(Outcome::Win, MAX_REMOTENESS + 1), None);
        assert_eq!(Record::new(Outcome::Draw, 0), None);
        assert_eq!(Record::DRAW.outcome(), Some(Outcome::Draw));
        assert_eq!(Record::DRAW.remoteness(), None);
        assert_eq!(Record::HOLE.outcome(), None);
        assert_eq!(Record::OPEN.outcome(), None);
        assert!(Record::DRAW.is_final() && !Record::OPEN.is_final() && !Record::HOLE.is_final());
        let win = |r| Record::new(Outcome::Win, r).unwrap();
        let loss = |r| Record::new(Outcome::Loss, r).unwrap();
        let tie = |r| Record::new(Outcome::Tie, r).unwrap();
        let mut order = vec![
            loss(3),
            win(5),
            Record::DRAW,
            tie(2),
            loss(8),
            win(1),
            tie(6),
        ];
        order.sort_by(|a, b| b.preference(*a));
        assert_eq!(
            order,
            [
                win(1),
                win(5),
                tie(2),
                tie(6),
                Record::DRAW,
                loss(8),
                loss(3)
            ]
        );
    }
}
