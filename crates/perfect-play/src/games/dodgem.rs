//! Dodgem (Colin Vout; Winning Ways, chapter 22) on an `n` x `n` board.
//!
//! The first player's `n - 1` cars start on the left edge (every square but the bottom one)
//! and drive right, up or down; the second player's `n - 1` cars start on the bottom edge
//! (every square but the left one) and drive up, left or right. A car moves one square onto
//! an empty square, and leaves the board only forward: off the right edge for the first
//! player, off the top for the second. Whoever drives all their cars off first wins; a player
//! who leaves the opponent no legal move loses. Cars can drive back and forth, so the game
//! has loops, and draws.
//!
//! For the engine, positions are numbered by tier, one tier per pair of car counts (fewer
//! cars, later tier: a car leaving is the only move between tiers). Within a tier a position
//! is the set of squares of the first player's cars (ranked among all such sets), the set of
//! squares of the second player's among the squares left, and the side to move.

use super::notation::{Mark, NotationError, grid_picture, mark_of, marks_notation, parse_marks};
use super::subsets::TwoSets;
use crate::engine::IndexedGame;
use crate::game::{Ending, Game, Transition};
use crate::games::board::{BoardGame, MoveName};
use std::ops::Range;
use thiserror::Error;

/// A board size Dodgem is not played on here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("Dodgem is played here on boards of 2 x 2 up to 8 x 8, not {0} x {0}")]
pub struct SizeError(pub u32);

/// A position: each player's cars as a bitboard (square `x + n * y`, `y` counted from the
/// bottom) and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cars {
    /// The first player's cars.
    pub first: u64,
    /// The second player's cars.
    pub second: u64,
    /// Whether the first player is to move.
    pub first_to_move: bool,
}

/// A move: the square of the car and where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drive {
    /// The car's square.
    pub from: u32,
    /// The direction.
    pub to: Direction,
}

/// Where a car drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Forward for the first player.
    Right,
    /// Forward for the second player.
    Up,
    /// Sideways for the first player.
    Down,
    /// Sideways for the second player.
    Left,
}

/// Dodgem on one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dodgem {
    n: u32,
    /// The numbering: tiers by car counts (first, second), most cars first.
    index: TwoSets,
}

impl Dodgem {
    /// The game on an `n` x `n` board.
    ///
    /// # Errors
    /// A size outside 2 to 8.
    pub fn new(n: u32) -> Result<Dodgem, SizeError> {
        if !(2..=8).contains(&n) {
            return Err(SizeError(n));
        }
        Ok(Dodgem {
            n,
            index: TwoSets::new(n * n, TwoSets::shrinking_tiers(n - 1)),
        })
    }

    /// The board's side.
    #[must_use]
    pub fn size(&self) -> u32 {
        self.n
    }

    /// The starting position: the first player to move.
    #[must_use]
    pub fn start_position(&self) -> Cars {
        let n = self.n;
        Cars {
            first: (1..n).map(|y| 1u64 << (n * y)).sum(),
            second: (1..n).map(|x| 1u64 << x).sum(),
            first_to_move: true,
        }
    }

    fn square(&self, x: u32, y: u32) -> u32 {
        x + self.n * y
    }
}

impl Game for Dodgem {
    type Position = Cars;
    type Move = Drive;

    fn start(&self) -> Cars {
        self.start_position()
    }

    fn moves(&self, cars: &Cars) -> Vec<Drive> {
        let n = self.n;
        let occupied = cars.first | cars.second;
        let free = |x: u32, y: u32| occupied >> self.square(x, y) & 1 == 0;
        let mine = if cars.first_to_move {
            cars.first
        } else {
            cars.second
        };
        let mut moves = Vec::new();
        let mut rest = mine;
        while rest != 0 {
            let from = rest.trailing_zeros();
            rest &= rest - 1;
            let (x, y) = (from % n, from / n);
            let options: [(Direction, bool); 3] = if cars.first_to_move {
                [
                    (Direction::Right, x + 1 == n || free(x + 1, y)),
                    (Direction::Up, y + 1 < n && free(x, y + 1)),
                    (Direction::Down, y > 0 && free(x, y.wrapping_sub(1))),
                ]
            } else {
                [
                    (Direction::Up, y + 1 == n || free(x, y + 1)),
                    (Direction::Left, x > 0 && free(x.wrapping_sub(1), y)),
                    (Direction::Right, x + 1 < n && free(x + 1, y)),
                ]
            };
            moves.extend(
                options
                    .into_iter()
                    .filter(|&(_, ok)| ok)
                    .map(|(to, _)| Drive { from, to }),
            );
        }
        moves
    }

    fn play(&self, cars: &Cars, drive: &Drive) -> Transition<Cars> {
        let n = self.n;
        let (x, y) = (drive.from % n, drive.from / n);
        let target = match drive.to {
            Direction::Right if x + 1 < n => Some(self.square(x + 1, y)),
            Direction::Up if y + 1 < n => Some(self.square(x, y + 1)),
            Direction::Down => Some(self.square(x, y - 1)),
            Direction::Left => Some(self.square(x - 1, y)),
            _ => None, // off the board
        };
        let mut next = *cars;
        let mine = if cars.first_to_move {
            &mut next.first
        } else {
            &mut next.second
        };
        *mine &= !(1 << drive.from);
        if let Some(t) = target {
            *mine |= 1 << t;
        }
        if *mine == 0 {
            return Transition::End(Ending::Win);
        }
        next.first_to_move = !cars.first_to_move;
        Transition::to(next)
    }

    /// Left without a legal move: the opponent, who left it so, has lost.
    fn no_moves(&self, _cars: &Cars) -> Ending {
        Ending::Win
    }
}

impl IndexedGame for Dodgem {
    fn index_count(&self) -> u64 {
        self.index.count()
    }

    fn index(&self, cars: &Cars) -> u64 {
        self.index
            .index(cars.first, cars.second, cars.first_to_move)
    }

    fn position(&self, index: u64) -> Option<Cars> {
        let (first, second, first_to_move) = self.index.sets(index)?;
        // A side with no cars has already won: no such position is played.
        (first != 0 && second != 0).then_some(Cars {
            first,
            second,
            first_to_move,
        })
    }

    fn tier_count(&self) -> u64 {
        self.index.tier_count()
    }

    fn tier_range(&self, tier: u64) -> Range<u64> {
        self.index.tier_range(tier)
    }

    /// A car driven off the far side is the only way out of a tier: one car fewer.
    fn tier_children(&self, tier: u64) -> Vec<u64> {
        self.index.tier_children(tier)
    }

    fn has_unmoves(&self) -> bool {
        true
    }

    /// The moves that stay in a tier keep every car on the board: each car of the side that
    /// just moved may have come from the empty square behind it in each of its directions.
    fn tier_parents(&self, cars: &Cars, parents: &mut Vec<Cars>) {
        let n = self.n;
        let occupied = cars.first | cars.second;
        let first_moved = !cars.first_to_move;
        let moved = if first_moved { cars.first } else { cars.second };
        let mut rest = moved;
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            let (x, y) = (to % n, to / n);
            // Where the car came from, for each direction it may have driven.
            let sources: [Option<(u32, u32)>; 3] = if first_moved {
                [
                    (x > 0).then(|| (x - 1, y)),     // drove right
                    (y > 0).then(|| (x, y - 1)),     // drove up
                    (y + 1 < n).then(|| (x, y + 1)), // drove down
                ]
            } else {
                [
                    (y > 0).then(|| (x, y - 1)),     // drove up
                    (x + 1 < n).then(|| (x + 1, y)), // drove left
                    (x > 0).then(|| (x - 1, y)),     // drove right
                ]
            };
            for (sx, sy) in sources.into_iter().flatten() {
                let from = self.square(sx, sy);
                if occupied >> from & 1 == 1 {
                    continue;
                }
                let back = moved & !(1 << to) | 1 << from;
                parents.push(if first_moved {
                    Cars {
                        first: back,
                        second: cars.second,
                        first_to_move: true,
                    }
                } else {
                    Cars {
                        first: cars.first,
                        second: back,
                        first_to_move: false,
                    }
                });
            }
        }
    }
}

/// Dodgem's car bit for a square numbered in reading order from the top-left.
fn bit_of_square(n: u32, square: u32) -> u64 {
    1u64 << (square % n + n * (n - 1 - square / n))
}

impl BoardGame for Dodgem {
    /// 3.4-3.7 million a second measured for 4 x 4 (555,986 indices in 0.15-0.17 s whole
    /// process, 2026-12-05), 0.94 million for 5 x 5 (255 s: its loopy tiers take many passes).
    fn indices_per_second(&self) -> f64 {
        if self.size() <= 4 { 3.0e6 } else { 1.0e6 }
    }
    fn name(&self) -> &'static str {
        "dodgem"
    }
    fn variant(&self) -> String {
        format!("{0}x{0}", self.size())
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        vec![("size", self.size().to_string())]
    }
    fn parse_position(&self, text: &str) -> Result<Cars, NotationError> {
        let n = self.size();
        let what = format!("a {n} x {n} Dodgem board (rows from the top)");
        let (marks, first_to_move) = parse_marks(text, (n * n) as usize, &what)?;
        let mut cars = Cars {
            first: 0,
            second: 0,
            first_to_move,
        };
        for (i, mark) in marks.into_iter().enumerate() {
            let bit = bit_of_square(n, i as u32);
            match mark {
                Mark::X => cars.first |= bit,
                Mark::O => cars.second |= bit,
                Mark::Empty => {}
            }
        }
        let (a, b) = (cars.first.count_ones(), cars.second.count_ones());
        if a == 0 || b == 0 || a >= n || b >= n {
            return Err(NotationError::Rule(format!(
                "each player has 1 to {} cars on a {n} x {n} board until one drives the last off; got {a} x and {b} o",
                n - 1
            )));
        }
        Ok(cars)
    }
    fn first_to_move(&self, cars: &Cars) -> bool {
        cars.first_to_move
    }
    fn move_name(&self, drive: &Drive) -> MoveName {
        let n = self.size();
        let (x, y) = (drive.from % n, drive.from / n);
        let direction = match drive.to {
            Direction::Right => 'R',
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
        };
        MoveName::Text(format!(
            "{}{}{direction}",
            char::from(b'a' + x as u8),
            y + 1
        ))
    }
    fn notation(&self, cars: &Cars) -> Option<String> {
        let n = self.size();
        let marks = (0..n * n).map(|i| {
            let bit = bit_of_square(n, i);
            mark_of(cars.first & bit != 0, cars.second & bit != 0)
        });
        Some(marks_notation(marks, n as usize, cars.first_to_move))
    }
    fn picture(&self, cars: &Cars) -> String {
        let n = self.size();
        grid_picture(n, n, |square| {
            let bit = bit_of_square(n, square);
            mark_of(cars.first & bit != 0, cars.second & bit != 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Options, count_reachable, solve};
    use crate::player::Outcome;

    #[test]
    fn the_index_numbers_every_position_once() {
        for n in [2, 3] {
            let game = Dodgem::new(n).unwrap();
            let mut positions = 0;
            for index in 0..game.index_count() {
                if let Some(cars) = game.position(index) {
                    assert_eq!(game.index(&cars), index, "{n} x {n}");
                    assert_eq!(cars.first & cars.second, 0);
                    positions += 1;
                }
            }
            assert!(positions > 0);
        }
    }

    #[test]
    fn three_by_three_is_a_first_player_win() {
        // ../shared/reference/solved_games.md: Winning Ways gives 3 x 3 as a first-player win.
        let game = Dodgem::new(3).unwrap();
        let solution = solve(&game, &Options::default(), &|_| {}).unwrap();
        let start = solution.record(game.index(&game.start_position())).unwrap();
        assert_eq!(start.outcome(), Some(Outcome::Win));
        let reachable = count_reachable(&game, &game.start_position(), &Options::default());
        assert!(reachable.unwrap() > 100);
    }

    #[test]
    fn moves_follow_the_rules() {
        let game = Dodgem::new(3).unwrap();
        let start = game.start_position();
        // First player: cars at (0,1) and (0,2). (0,1) may go right or down (up is taken);
        // (0,2) right only (down is taken, up is off the board).
        let mut moves = game.moves(&start);
        moves.sort_by_key(|d| (d.from, d.to as u8));
        assert_eq!(
            moves,
            [
                Drive {
                    from: 3,
                    to: Direction::Right
                },
                Drive {
                    from: 3,
                    to: Direction::Down
                },
                Drive {
                    from: 6,
                    to: Direction::Right
                },
            ]
        );
        // A car on the far edge leaves; the last car leaving wins.
        let lone = Cars {
            first: 1 << 8,
            second: 1 << 1,
            first_to_move: true,
        };
        assert_eq!(
            game.play(
                &lone,
                &Drive {
                    from: 8,
                    to: Direction::Right
                }
            ),
            Transition::End(Ending::Win)
        );
        assert!(Dodgem::new(1).is_err() && Dodgem::new(9).is_err());
    }
}
