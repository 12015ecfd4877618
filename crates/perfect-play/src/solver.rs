//! The generic solver: memoised negamax over any [`Game`], with a transposition table.
//!
//! It is the reference oracle for every specialised solver in this crate: slow, simple and
//! obviously right.

use crate::game::{Game, Transition};
use crate::player::Outcome;
use crate::value::Value;
use std::cmp::Ordering;
use std::collections::HashMap;

/// A legal move and what it is worth to the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// The value of the game for the mover after this move (margin and remoteness counted from
    /// before the move).
    pub value: Value,
}

/// The full answer for one position: its value, every move's value, and the principal line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M> {
    /// The value for the player to move.
    pub value: Value,
    /// Every legal move with its value for the mover, in the game's move order.
    pub moves: Vec<MoveValue<M>>,
    /// One optimal line of play to the end of the game.
    pub best_line: Vec<M>,
}

impl<M: Clone> Analysis<M> {
    /// The moves that achieve the position's value exactly (margin and remoteness).
    #[must_use]
    pub fn optimal_moves(&self) -> Vec<M> {
        self.moves
            .iter()
            .filter(|m| m.value == self.value)
            .map(|m| m.mv.clone())
            .collect()
    }

    /// The moves that win for the mover, fastest or not.
    #[must_use]
    pub fn winning_moves(&self) -> Vec<M> {
        self.moves
            .iter()
            .filter(|m| m.value.outcome() == Outcome::Win)
            .map(|m| m.mv.clone())
            .collect()
    }
}

/// The search needed more positions than the solver's limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search needs more than {0} positions")]
pub struct StateLimit(pub usize);

/// Memoised negamax over a [`Game`]. Keeps its transposition table between queries.
pub struct Solver<G: Game> {
    game: G,
    table: HashMap<G::Position, Value>,
    limit: usize,
}

impl<G: Game> Solver<G> {
    /// A solver with an empty table and no limit on its size.
    pub fn new(game: G) -> Self {
        Solver::with_limit(game, usize::MAX)
    }

    /// A solver that refuses ([`StateLimit`]) to hold more than `limit` positions; query it
    /// with [`Solver::try_value`].
    pub fn with_limit(game: G, limit: usize) -> Self {
        Solver {
            game,
            table: HashMap::new(),
            limit,
        }
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Number of distinct positions solved so far (the size of the transposition table).
    pub fn states(&self) -> usize {
        self.table.len()
    }

    /// The value of `position` for the player to move.
    ///
    /// Recursion depth equals the longest line of play from `position`; for very long games,
    /// solve positions in order of increasing depth first so the recursion stays shallow.
    ///
    /// # Panics
    /// Only for a solver made [`Solver::with_limit`] whose limit is exceeded; such a solver is
    /// queried with [`Solver::try_value`].
    pub fn value(&mut self, position: &G::Position) -> Value {
        self.try_value(position)
            .expect("a solver without a limit never reaches it")
    }

    /// The value of `position`, or [`StateLimit`] when solving it would exceed the limit.
    ///
    /// # Errors
    /// [`StateLimit`] past the limit given to [`Solver::with_limit`].
    pub fn try_value(&mut self, position: &G::Position) -> Result<Value, StateLimit> {
        if let Some(&value) = self.table.get(position) {
            return Ok(value);
        }
        if self.table.len() >= self.limit {
            return Err(StateLimit(self.limit));
        }
        let moves = self.game.moves(position);
        let mut best: Option<Value> = None;
        for mv in &moves {
            let v = self.try_move_value(position, mv)?;
            if best.is_none_or(|b| v.preference(b) == Ordering::Greater) {
                best = Some(v);
            }
        }
        let value = best.unwrap_or_else(|| Value::terminal(self.game.no_moves(position).score()));
        self.table.insert(position.clone(), value);
        Ok(value)
    }

    /// The value of playing `mv` in `position`, for the player who plays it.
    pub fn move_value(&mut self, position: &G::Position, mv: &G::Move) -> Value {
        self.try_move_value(position, mv)
            .expect("a solver without a limit never reaches it")
    }

    fn try_move_value(
        &mut self,
        position: &G::Position,
        mv: &G::Move,
    ) -> Result<Value, StateLimit> {
        Ok(match self.game.play(position, mv) {
            Transition::End(ending) => Value {
                score: ending.score(),
                remoteness: 1,
            },
            Transition::Continue { position, reward } => {
                self.try_value(&position)?.before_move(reward)
            }
        })
    }

    /// The value of `position`, of every legal move, and one optimal line of play.
    pub fn analyse(&mut self, position: &G::Position) -> Analysis<G::Move> {
        let value = self.value(position);
        let moves = self
            .game
            .moves(position)
            .into_iter()
            .map(|mv| {
                let value = self.move_value(position, &mv);
                MoveValue { mv, value }
            })
            .collect();
        let best_line = self.best_line(position);
        Analysis {
            value,
            moves,
            best_line,
        }
    }

    /// One optimal line of play from `position` to the end: at each step the first move, in the
    /// game's order, that achieves the position's value.
    pub fn best_line(&mut self, position: &G::Position) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut current = position.clone();
        loop {
            let target = self.value(&current);
            let Some(mv) = self
                .game
                .moves(&current)
                .into_iter()
                .find(|mv| self.move_value(&current, mv).preference(target) == Ordering::Equal)
            else {
                return line;
            };
            let next = self.game.play(&current, &mv);
            line.push(mv);
            match next {
                Transition::End(_) => return line,
                Transition::Continue { position, .. } => current = position,
            }
        }
    }
}
