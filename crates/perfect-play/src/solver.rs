//! The generic solver: memoised negamax over any [`Game`], with a transposition table.
//!
//! It is the reference oracle for every specialised solver in this crate: slow, simple and
//! obviously right.

use crate::game::{Game, Transition};
use crate::player::Outcome;
use crate::value::Value;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Ordering;

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

/// Why the solver stopped without a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The table would hold more positions than the limit given to [`Solver::with_limit`].
    #[error("the search needs more than {0} positions")]
    TooManyPositions(usize),
    /// The table would take more memory than [`Solver::with_memory_limit`] allows.
    #[error(
        "the search's table needs more than {limit} bytes ({positions} positions solved so far)"
    )]
    OverMemory {
        /// The limit in bytes.
        limit: u64,
        /// Positions solved when the limit was reached.
        positions: usize,
    },
    /// A position repeats along a line of play: the game has a loop, which this solver (for
    /// acyclic games) cannot value. The engine's retrograde analysis handles loopy games.
    #[error("the game has a loop: a position repeats along a line of play")]
    Cycle,
    /// The search was cancelled (see [`Solver::with_cancel`]).
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
}

/// A position being expanded on the solver's explicit stack.
struct Frame<P, M> {
    position: P,
    moves: Vec<M>,
    /// Index of the next move to value.
    next: usize,
    /// The reward of the move whose child is being solved above this frame.
    pending_reward: i64,
    best: Option<Value>,
}

/// The value of a panicking query, or its panic: the error and the fallible method to use.
fn solved<T>(result: Result<T, SolveError>, method: &str, instead: &str) -> T {
    match result {
        Ok(value) => value,
        Err(e) => panic!("Solver::{method}: {e}; use {instead}"),
    }
}

/// Bytes a hash-table entry costs beyond the key and value themselves (control byte and the
/// table's spare capacity, rounded up).
const ENTRY_OVERHEAD: u64 = 16;

/// Memoised negamax over a [`Game`]. Keeps its transposition table between queries.
///
/// The search runs on an explicit stack, so no depth of game can overflow the call stack; its
/// table is bounded by a number of positions ([`Solver::with_limit`]) or by bytes
/// ([`Solver::with_memory_limit`]).
pub struct Solver<G: Game> {
    game: G,
    table: FxHashMap<G::Position, Value>,
    limit: usize,
    memory_limit: u64,
    bytes: u64,
    cancel: Option<crate::budget::Cancel>,
    /// Frames opened, to check `cancel` once every [`CANCEL_CHECK_FRAMES`].
    frames: u64,
}

/// Frames the search opens between two looks at its cancellation flag (well under a
/// millisecond of search).
const CANCEL_CHECK_FRAMES: u64 = 4096;

impl<G: Game> Solver<G> {
    /// A solver with an empty table and no limit on its size.
    pub fn new(game: G) -> Self {
        Solver::with_limit(game, usize::MAX)
    }

    /// A solver that refuses ([`SolveError::TooManyPositions`]) to hold more than `limit`
    /// positions; query it with [`Solver::try_value`].
    pub fn with_limit(game: G, limit: usize) -> Self {
        Solver {
            game,
            table: FxHashMap::default(),
            limit,
            memory_limit: u64::MAX,
            bytes: 0,
            cancel: None,
            frames: 0,
        }
    }

    /// This solver, stopping with [`SolveError::Cancelled`] once `cancel` is raised.
    #[must_use]
    pub fn with_cancel(self, cancel: crate::budget::Cancel) -> Self {
        Solver {
            cancel: Some(cancel),
            ..self
        }
    }

    /// A solver whose table may take at most `bytes` (counted as the entry's size, the
    /// position's own heap bytes from [`Game::position_bytes`] and the hash table's overhead);
    /// past it [`Solver::try_value`] answers [`SolveError::OverMemory`].
    pub fn with_memory_limit(game: G, bytes: u64) -> Self {
        Solver {
            memory_limit: bytes,
            ..Solver::with_limit(game, usize::MAX)
        }
    }

    /// Bytes one table entry for `position` costs, as the memory limit counts them.
    pub fn entry_bytes(&self, position: &G::Position) -> u64 {
        (std::mem::size_of::<(G::Position, Value)>() + self.game.position_bytes(position)) as u64
            + ENTRY_OVERHEAD
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Number of distinct positions solved so far (the size of the transposition table).
    pub fn states(&self) -> usize {
        self.table.len()
    }

    /// Bytes the table holds, as the memory limit counts them.
    pub fn table_bytes(&self) -> u64 {
        self.bytes
    }

    /// The value of `position` for the player to move.
    ///
    /// # Panics
    /// When [`Solver::try_value`] fails: a limit given to the solver is exceeded, or the game
    /// has a loop. A solver with limits, or a game that may loop, is queried with
    /// [`Solver::try_value`].
    pub fn value(&mut self, position: &G::Position) -> Value {
        solved(self.try_value(position), "value", "try_value")
    }

    /// The value of `position`, or why it cannot be had within the solver's limits.
    ///
    /// # Errors
    /// [`SolveError`]: past a limit, or on a game with a loop.
    pub fn try_value(&mut self, position: &G::Position) -> Result<Value, SolveError> {
        if let Some(&value) = self.table.get(position) {
            return Ok(value);
        }
        let mut on_stack: FxHashSet<G::Position> = FxHashSet::default();
        let mut stack = vec![self.frame(position.clone(), &mut on_stack)?];
        let mut solved_child: Option<Value> = None;
        loop {
            let frame = stack
                .last_mut()
                .expect("the stack holds the frame being expanded");
            if let Some(child) = solved_child.take() {
                Self::consider(frame, child.before_move(frame.pending_reward));
                frame.next += 1;
            }
            let mut descend = None;
            while frame.next < frame.moves.len() {
                match self.game.play(&frame.position, &frame.moves[frame.next]) {
                    Transition::End(ending) => Self::consider(
                        frame,
                        Value {
                            score: ending.score(),
                            remoteness: 1,
                        },
                    ),
                    Transition::Continue { position, reward } => {
                        if let Some(&known) = self.table.get(&position) {
                            Self::consider(frame, known.before_move(reward));
                        } else {
                            frame.pending_reward = reward;
                            descend = Some(position);
                            break;
                        }
                    }
                }
                frame.next += 1;
            }
            if let Some(child) = descend {
                let frame = self.frame(child, &mut on_stack)?;
                stack.push(frame);
                continue;
            }
            let done = stack.pop().expect("the frame just expanded");
            let value = done
                .best
                .unwrap_or_else(|| Value::terminal(self.game.no_moves(&done.position).score()));
            on_stack.remove(&done.position);
            self.store(done.position, value);
            if stack.is_empty() {
                return Ok(value);
            }
            solved_child = Some(value);
        }
    }

    /// A new frame for `position`, after the checks that keep the search within its limits.
    fn frame(
        &mut self,
        position: G::Position,
        on_stack: &mut FxHashSet<G::Position>,
    ) -> Result<Frame<G::Position, G::Move>, SolveError> {
        self.frames += 1;
        if self.frames.is_multiple_of(CANCEL_CHECK_FRAMES)
            && let Some(cancel) = &self.cancel
        {
            cancel.check()?;
        }
        // Every frame on the stack will be stored: count them with the table.
        if self.table.len() + on_stack.len() >= self.limit {
            return Err(SolveError::TooManyPositions(self.limit));
        }
        let pending = (on_stack.len() as u64 + 1).saturating_mul(self.entry_bytes(&position));
        if self.bytes.saturating_add(pending) > self.memory_limit {
            return Err(SolveError::OverMemory {
                limit: self.memory_limit,
                positions: self.table.len(),
            });
        }
        if !on_stack.insert(position.clone()) {
            return Err(SolveError::Cycle);
        }
        Ok(Frame {
            moves: self.game.moves(&position),
            position,
            next: 0,
            pending_reward: 0,
            best: None,
        })
    }

    fn consider(frame: &mut Frame<G::Position, G::Move>, value: Value) {
        if frame
            .best
            .is_none_or(|b| value.preference(b) == Ordering::Greater)
        {
            frame.best = Some(value);
        }
    }

    fn store(&mut self, position: G::Position, value: Value) {
        self.bytes = self.bytes.saturating_add(self.entry_bytes(&position));
        self.table.insert(position, value);
    }

    /// The value of playing `mv` in `position`, for the player who plays it.
    ///
    /// # Panics
    /// As [`Solver::value`].
    pub fn move_value(&mut self, position: &G::Position, mv: &G::Move) -> Value {
        solved(
            self.try_move_value(position, mv),
            "move_value",
            "try_analyse",
        )
    }

    fn try_move_value(
        &mut self,
        position: &G::Position,
        mv: &G::Move,
    ) -> Result<Value, SolveError> {
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
    ///
    /// # Panics
    /// As [`Solver::value`]; [`Solver::try_analyse`] reports instead.
    pub fn analyse(&mut self, position: &G::Position) -> Analysis<G::Move> {
        solved(self.try_analyse(position), "analyse", "try_analyse")
    }

    /// [`Solver::analyse`] within the solver's limits.
    ///
    /// # Errors
    /// [`SolveError`], as [`Solver::try_value`].
    pub fn try_analyse(&mut self, position: &G::Position) -> Result<Analysis<G::Move>, SolveError> {
        let value = self.try_value(position)?;
        let moves = self
            .game
            .moves(position)
            .into_iter()
            .map(|mv| {
                let value = self.try_move_value(position, &mv)?;
                Ok(MoveValue { mv, value })
            })
            .collect::<Result<_, SolveError>>()?;
        let best_line = self.try_best_line(position)?;
        Ok(Analysis {
            value,
            moves,
            best_line,
        })
    }

    /// One optimal line of play from `position` to the end: at each step the first move, in the
    /// game's order, that achieves the position's value.
    ///
    /// # Panics
    /// As [`Solver::value`].
    pub fn best_line(&mut self, position: &G::Position) -> Vec<G::Move> {
        solved(self.try_best_line(position), "best_line", "try_analyse")
    }

    fn try_best_line(&mut self, position: &G::Position) -> Result<Vec<G::Move>, SolveError> {
        let mut line = Vec::new();
        let mut current = position.clone();
        loop {
            let target = self.try_value(&current)?;
            let mut chosen = None;
            for mv in self.game.moves(&current) {
                if self.try_move_value(&current, &mv)?.preference(target) == Ordering::Equal {
                    chosen = Some(mv);
                    break;
                }
            }
            let Some(mv) = chosen else {
                return Ok(line);
            };
            let next = self.game.play(&current, &mv);
            line.push(mv);
            match next {
                Transition::End(_) => return Ok(line),
                Transition::Continue { position, .. } => current = position,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Ending;

    /// Take 1 or 2 from a pile; taking the last wins. Multiples of 3 lose.
    struct Subtract12;

    impl Game for Subtract12 {
        type Position = u64;
        type Move = u64;
        fn start(&self) -> u64 {
            0
        }
        fn moves(&self, pile: &u64) -> Vec<u64> {
            (1..=2).filter(|t| t <= pile).collect()
        }
        fn play(&self, pile: &u64, take: &u64) -> Transition<u64> {
            Transition::to(pile - take)
        }
    }

    #[test]
    fn a_game_a_million_moves_deep_does_not_overflow_the_stack() {
        let mut solver = Solver::new(Subtract12);
        let value = solver.value(&1_000_000);
        assert_eq!(value.outcome(), Outcome::Win); // 10^6 = 1 mod 3
        assert_eq!(solver.value(&999_999).outcome(), Outcome::Loss);
        // The winner takes 1 then mirrors: 2 moves per 3 tokens.
        assert_eq!(solver.value(&999_999).remoteness, 666_666);
        assert_eq!(solver.states(), 1_000_001);
    }

    /// A game with a loop: from 0 move to 1, from 1 back to 0 or end.
    struct Loop;

    impl Game for Loop {
        type Position = u8;
        type Move = u8;
        fn start(&self) -> u8 {
            0
        }
        fn moves(&self, p: &u8) -> Vec<u8> {
            if *p == 0 { vec![1] } else { vec![0, 2] }
        }
        fn play(&self, _: &u8, to: &u8) -> Transition<u8> {
            if *to == 2 {
                Transition::End(Ending::Win)
            } else {
                Transition::to(*to)
            }
        }
    }

    #[test]
    fn a_loop_is_reported_not_followed_forever() {
        let mut solver = Solver::new(Loop);
        assert_eq!(solver.try_value(&0), Err(SolveError::Cycle));
    }

    #[test]
    fn limits_stop_the_search_before_the_table_grows_past_them() {
        let mut by_count = Solver::with_limit(Subtract12, 100);
        assert_eq!(
            by_count.try_value(&1000),
            Err(SolveError::TooManyPositions(100))
        );
        assert!(by_count.try_value(&50).is_ok());
        let entry = by_count.entry_bytes(&0);
        let mut by_bytes = Solver::with_memory_limit(Subtract12, 10 * entry);
        assert!(matches!(
            by_bytes.try_value(&100),
            Err(SolveError::OverMemory { .. })
        ));
        assert!(by_bytes.table_bytes() <= 10 * entry);
        assert_eq!(by_bytes.try_value(&8).map(Value::outcome), Ok(Outcome::Win));
    }
}
