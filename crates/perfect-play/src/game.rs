//! The `Game` trait: what every game, built in or user-defined, tells the solver.

use std::hash::Hash;

/// How a game ends for the player who just moved or who cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The player concerned wins.
    Win,
    /// The player concerned loses.
    Loss,
    /// Nobody wins.
    Draw,
    /// A scoring game ends with this margin for the player concerned (from this point on).
    Score(i64),
}

impl Ending {
    /// The margin this ending is worth (`+1`, `-1`, `0` for win, loss, draw).
    #[must_use]
    pub fn score(self) -> i64 {
        match self {
            Ending::Win => 1,
            Ending::Loss => -1,
            Ending::Draw => 0,
            Ending::Score(s) => s,
        }
    }
}

/// What a move does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transition<P> {
    /// The game goes on from `position`, with the opponent to move. `reward` is what the move
    /// earned its maker in a scoring game (use 0 in win/loss games).
    Continue {
        /// The position the opponent faces.
        position: P,
        /// Points the mover earned with this move.
        reward: i64,
    },
    /// The move ends the game, with this ending for the mover.
    End(Ending),
}

impl<P> Transition<P> {
    /// The game goes on from `position` and the move scored nothing.
    pub fn to(position: P) -> Self {
        Transition::Continue {
            position,
            reward: 0,
        }
    }
}

/// A finite two-player game of perfect information.
///
/// The reference [`Solver`](crate::Solver) values acyclic games and reports a loop as an error.
///
/// Positions are seen from the player to move. Win/loss games and zero-sum scoring games use the
/// same trait: a scoring game reports rewards in [`Transition::Continue`] or final margins in
/// [`Ending::Score`].
///
/// ```
/// use perfect_play::{Game, Transition, Solver, Outcome};
///
/// /// Take 1 or 2 from a pile; taking the last one wins.
/// struct TakeOneOrTwo(u32);
///
/// impl Game for TakeOneOrTwo {
///     type Position = u32;
///     type Move = u32;
///     fn start(&self) -> u32 { self.0 }
///     fn moves(&self, pile: &u32) -> Vec<u32> { (1..=2).filter(|t| t <= pile).collect() }
///     fn play(&self, pile: &u32, take: &u32) -> Transition<u32> { Transition::to(pile - take) }
/// }
///
/// let mut solver = Solver::new(TakeOneOrTwo(9));
/// assert_eq!(solver.value(&9).outcome(), Outcome::Loss); // multiples of 3 lose
/// assert_eq!(solver.analyse(&7).winning_moves(), vec![1]);
/// ```
pub trait Game {
    /// A position, including whatever decides who is to move.
    type Position: Clone + Eq + Hash;
    /// A move from a position.
    type Move: Clone;

    /// The position the game starts from.
    fn start(&self) -> Self::Position;

    /// Every legal move from `position`.
    fn moves(&self, position: &Self::Position) -> Vec<Self::Move>;

    /// The effect of playing `mv` (one of `moves(position)`) in `position`.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Transition<Self::Position>;

    /// What a position without legal moves means for the player to move. Normal play: a loss.
    fn no_moves(&self, _position: &Self::Position) -> Ending {
        Ending::Loss
    }

    /// Heap bytes a position owns beyond its own size (a `Vec`'s buffer, say), so the solver's
    /// memory limit counts them. Positions that own nothing keep the default, 0.
    fn position_bytes(&self, _position: &Self::Position) -> usize {
        0
    }
}
