//! Mu Torere, the Maori game: eight points on a star (a cycle) around a centre, four pieces
//! each, one cell always empty. A piece moves to an adjacent empty point of the star, from the
//! centre to the empty point, or from a point to the empty centre only when it stands next to
//! an opponent's piece. A player who cannot move loses. The first player starts on points 1-4,
//! the second on points 5-8, the centre empty.
//!
//! Cells 0-7 are the points in order around the star, cell 8 the centre. For the engine a
//! position is numbered by the empty cell, the set of the first player's four cells among the
//! other eight (ranked), and the side to move: 9 x 70 x 2 = 1,260 numbers, one tier (the game
//! has loops).

use super::notation::{Mark, NotationError, mark_of, marks_notation, parse_marks};
use crate::engine::IndexedGame;
use crate::game::{Game, Transition};
use crate::games::board::{BoardGame, MoveName};

/// The centre's cell.
pub const CENTRE: u8 = 8;

/// A position: the first player's cells (bits 0-8), the empty cell, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Star {
    /// The first player's four cells.
    pub first: u16,
    /// The empty cell.
    pub empty: u8,
    /// Whether the first player is to move.
    pub first_to_move: bool,
}

impl Star {
    /// The second player's cells.
    #[must_use]
    pub fn second(&self) -> u16 {
        0x1FF & !self.first & !(1 << self.empty)
    }
}

/// A move: a piece from one cell to the empty one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The cell the piece leaves.
    pub from: u8,
    /// The cell it enters (the empty one).
    pub to: u8,
}

/// Mu Torere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MuTorere;

/// The points next to point `p` on the star.
fn neighbours(p: u8) -> [u8; 2] {
    [(p + 1) % 8, (p + 7) % 8]
}

/// Ways to choose `k` of `n` (n <= 8).
fn choose(n: u32, k: u32) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * u64::from(n - i) / u64::from(i + 1))
}

impl MuTorere {
    /// The starting position.
    #[must_use]
    pub fn start_position(&self) -> Star {
        Star {
            first: 0b1111,
            empty: CENTRE,
            first_to_move: true,
        }
    }
}

impl Game for MuTorere {
    type Position = Star;
    type Move = Step;

    fn start(&self) -> Star {
        self.start_position()
    }

    fn moves(&self, star: &Star) -> Vec<Step> {
        let mine = if star.first_to_move {
            star.first
        } else {
            star.second()
        };
        let theirs = 0x1FF & !mine & !(1 << star.empty);
        let to = star.empty;
        let mut steps = Vec::new();
        if to == CENTRE {
            // Into the centre: only a piece next to an opponent's.
            for p in 0..8u8 {
                if mine >> p & 1 == 1 && neighbours(p).iter().any(|&q| theirs >> q & 1 == 1) {
                    steps.push(Step { from: p, to });
                }
            }
        } else {
            for from in neighbours(to).into_iter().chain([CENTRE]) {
                if mine >> from & 1 == 1 {
                    steps.push(Step { from, to });
                }
            }
        }
        steps
    }

    fn play(&self, star: &Star, step: &Step) -> Transition<Star> {
        let mut next = *star;
        if star.first_to_move {
            next.first = star.first & !(1 << step.from) | 1 << step.to;
        }
        next.empty = step.from;
        next.first_to_move = !star.first_to_move;
        Transition::to(next)
    }
}

impl IndexedGame for MuTorere {
    fn index_count(&self) -> u64 {
        9 * 70 * 2
    }

    fn index(&self, star: &Star) -> u64 {
        // The first player's cells among the eight that are not empty, renumbered.
        let mut rank = 0;
        let mut k = 0;
        let mut j = 0;
        for cell in 0..9u8 {
            if cell == star.empty {
                continue;
            }
            if star.first >> cell & 1 == 1 {
                k += 1;
                rank += choose(j, k);
            }
            j += 1;
        }
        (u64::from(star.empty) * 70 + rank) * 2 + u64::from(!star.first_to_move)
    }

    fn position(&self, index: u64) -> Option<Star> {
        if index >= self.index_count() {
            return None;
        }
        let first_to_move = index.is_multiple_of(2);
        let empty = (index / 2 / 70) as u8;
        let mut rank = index / 2 % 70;
        let cells: Vec<u8> = (0..9u8).filter(|&c| c != empty).collect();
        let mut first = 0u16;
        let mut k = 4u32;
        for j in (0..8u32).rev() {
            if k > 0 && choose(j, k) <= rank {
                rank -= choose(j, k);
                first |= 1 << cells[j as usize];
                k -= 1;
            }
        }
        Some(Star {
            first,
            empty,
            first_to_move,
        })
    }
}

/// Cells a player may stand on, for parsing: 1-8 around the star, `c` the centre.
#[must_use]
pub fn cell_name(cell: u8) -> String {
    if cell == CENTRE {
        "c".into()
    } else {
        (cell + 1).to_string()
    }
}

/// The mark of a cell (points 1-8 are cells 0-7, the centre is 8).
fn star_mark(star: &Star, cell: u8) -> char {
    mark_of(
        cell != star.empty && star.first >> cell & 1 == 1,
        cell != star.empty && star.first >> cell & 1 == 0,
    )
}

impl BoardGame for MuTorere {
    fn name(&self) -> &'static str {
        "mu-torere"
    }
    fn variant(&self) -> String {
        "star".into()
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    fn parse_position(&self, text: &str) -> Result<Star, NotationError> {
        let what = "a Mu Torere position (points 1-8, then the centre)";
        let (marks, first_to_move) = parse_marks(text, 9, what)?;
        let mut first = 0u16;
        let mut empty = Vec::new();
        let mut seconds = 0;
        for (cell, mark) in marks.into_iter().enumerate() {
            match mark {
                Mark::X => first |= 1 << cell,
                Mark::O => seconds += 1,
                Mark::Empty => empty.push(cell as u8),
            }
        }
        if first.count_ones() != 4 || seconds != 4 || empty.len() != 1 {
            return Err(NotationError::Rule(format!(
                "Mu Torere has four pieces each and one empty cell; got {} x, {seconds} o and {} empty",
                first.count_ones(),
                empty.len()
            )));
        }
        Ok(Star {
            first,
            empty: empty[0],
            first_to_move,
        })
    }
    fn first_to_move(&self, star: &Star) -> bool {
        star.first_to_move
    }
    fn move_name(&self, step: &Step) -> MoveName {
        MoveName::Text(format!("{}{}", cell_name(step.from), cell_name(step.to)))
    }
    fn notation(&self, star: &Star) -> Option<String> {
        let marks = (0..9u8).map(|cell| star_mark(star, cell));
        Some(marks_notation(marks, 9, star.first_to_move))
    }
    fn picture(&self, star: &Star) -> String {
        let points: String = (0..8).map(|cell| star_mark(star, cell)).collect();
        format!(
            "  points 1-8: {points}  centre: {}\n",
            star_mark(star, CENTRE)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Options, reachable_counts, solve};
    use crate::player::Outcome;

    #[test]
    fn the_index_numbers_every_position_once() {
        let game = MuTorere;
        for index in 0..game.index_count() {
            let star = game.position(index).unwrap();
            assert_eq!(star.first.count_ones(), 4);
            assert_eq!(star.first >> star.empty & 1, 0);
            assert_eq!(game.index(&star), index);
        }
    }

    #[test]
    fn the_start_is_a_draw() {
        // ../shared/reference/solved_games.md: a draw with perfect play.
        let game = MuTorere;
        let options = Options::default();
        let solution = solve(&game, &options, &|_| {}).unwrap();
        let start = solution.record(game.index(&game.start_position())).unwrap();
        assert_eq!(start.outcome(), Some(Outcome::Draw));
        let counts = reachable_counts(&game, &game.start_position(), &solution, &options).unwrap();
        assert!(
            counts.draws > 0 && counts.wins > 0 && counts.losses > 0,
            "{counts:?}"
        );
        // From the start only the two pieces at the ends of each row touch an opponent.
        let first_moves = game.moves(&game.start_position());
        assert_eq!(
            first_moves,
            [
                Step {
                    from: 0,
                    to: CENTRE
                },
                Step {
                    from: 3,
                    to: CENTRE
                }
            ]
        );
    }
}
