//! Games given as their positions and moves: an explicit graph, solved by the engine.
//!
//! Three ways in, one graph underneath:
//! - [`GameGraph`]: positions numbered `0..n`, each with its moves (the positions they lead
//!   to) or, when it has none, its result for the player to move. It is an
//!   [`IndexedGame`] with un-moves, so the engine solves it by
//!   retrograde analysis on every core, loops and draws included.
//! - [`hashed`]: any [`Game`] whose positions hash (or a game known only through
//!   callbacks, as Python's are): the positions reachable from the start are found and
//!   numbered through a hash table, then solved as a [`GameGraph`]. Nobody writes an index.
//! - [`text`]: a graph written down, as JSON or as a streaming edge list, positions named.
//!
//! Memory is counted as the graph grows and refused past the limit with the figure; every
//! buffer sized by the input is reserved fallibly.

pub mod hashed;
pub mod text;

use crate::budget::Cancelled;
use crate::engine::{self, IndexedGame, Options, Record, Solution};
use crate::game::{Ending, Game, Transition};
use crate::player::Outcome;
use thiserror::Error;

/// Most positions a graph may hold (indices are `u32`, a few kept for the game's endings).
pub const MAX_POSITIONS: u64 = u32::MAX as u64 - 16;

/// Bytes a graph keeps a position, besides its moves: where its moves start, where its
/// parents start (8 bytes each), its result (1) and its record once solved (2).
pub const BYTES_PER_POSITION: u64 = 19;
/// Bytes a graph keeps a move: its target, and the same move as a parent link (4 bytes each).
pub const BYTES_PER_MOVE: u64 = 8;

/// The result of a position without moves, for the player to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finished {
    /// The player to move has won.
    Win,
    /// The player to move has lost (also the result of a position with no move and none
    /// given).
    Loss,
    /// Nobody wins.
    Tie,
}

impl Finished {
    pub(crate) fn code(self) -> u8 {
        match self {
            Finished::Loss => 0,
            Finished::Win => 1,
            Finished::Tie => 2,
        }
    }

    fn from_code(code: u8) -> Finished {
        match code {
            1 => Finished::Win,
            2 => Finished::Tie,
            _ => Finished::Loss,
        }
    }

    /// The result a game's [`Ending`] gives the player it concerns (a score by its sign).
    #[must_use]
    pub fn of_ending(ending: Ending) -> Finished {
        match ending.score().signum() {
            1 => Finished::Win,
            -1 => Finished::Loss,
            _ => Finished::Tie,
        }
    }

    /// The word used in files and answers: `win`, `loss`, `tie`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Finished::Win => "win",
            Finished::Loss => "loss",
            Finished::Tie => "tie",
        }
    }

    /// Read `win`, `loss` or `tie` (`draw` is taken for `tie`: a finished game nobody won).
    #[must_use]
    pub fn from_word(word: &str) -> Option<Finished> {
        match word {
            "win" => Some(Finished::Win),
            "loss" | "lose" => Some(Finished::Loss),
            "tie" | "draw" => Some(Finished::Tie),
            _ => None,
        }
    }
}

/// Why a graph could not be built or solved.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GraphError {
    /// The graph would pass the memory limit.
    #[error(
        "the game's graph needs more than {needed} ({positions} positions and {moves} moves found so far), above the memory limit of {limit}; raise the memory limit"
    )]
    OverMemory {
        /// Positions found when the limit was reached.
        positions: u64,
        /// Moves found by then.
        moves: u64,
        /// Bytes needed by then, for a person.
        needed: String,
        /// The limit, for a person.
        limit: String,
    },
    /// More positions than the indices hold.
    #[error("the game has more than {MAX_POSITIONS} positions: more than a graph can number")]
    TooManyPositions,
    /// A move's target is not a position of the graph.
    #[error("a move from position {from} leads to {to}, which is not a position (0 to {last})")]
    BadTarget {
        /// The position moved from.
        from: u32,
        /// The target.
        to: u32,
        /// The last position.
        last: u64,
    },
    /// A scoring game: graphs keep win, loss and tie.
    #[error("a move scores points (reward {0}): graphs solve win, loss and tie games, not scores")]
    Scoring(i64),
    /// The engine stopped.
    #[error(transparent)]
    Engine(#[from] engine::EngineError),
    /// The work was cancelled.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// A game given as a graph: positions `0..n`, the moves of each, the result of each position
/// without moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameGraph {
    start: u32,
    move_starts: Vec<u64>,
    targets: Vec<u32>,
    parent_starts: Vec<u64>,
    parents: Vec<u32>,
    results: Vec<u8>,
}

/// Count bytes against a limit, refusing with the figure.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    limit: u64,
}

impl Meter {
    pub(crate) fn new(limit: u64) -> Meter {
        Meter { limit }
    }

    /// Refuse when `bytes` (for `positions` and `moves`) pass the limit.
    pub(crate) fn check(&self, bytes: u64, positions: u64, moves: u64) -> Result<(), GraphError> {
        if bytes > self.limit {
            return Err(GraphError::OverMemory {
                positions,
                moves,
                needed: crate::parse::human_size(bytes),
                limit: crate::parse::human_size(self.limit),
            });
        }
        Ok(())
    }
}

/// Reserve room for `extra` more items, or refuse with the memory figure.
pub(crate) fn reserve<T>(
    items: &mut Vec<T>,
    extra: usize,
    positions: u64,
    moves: u64,
) -> Result<(), GraphError> {
    items
        .try_reserve(extra)
        .map_err(|_| GraphError::OverMemory {
            positions,
            moves,
            needed: crate::parse::human_size(
                ((items.len() + extra) * std::mem::size_of::<T>()) as u64,
            ),
            limit: "what the machine could allocate".into(),
        })
}

impl GameGraph {
    /// A graph from each position's moves in order: position `p`'s moves are
    /// `targets[move_starts[p]..move_starts[p + 1]]`; `results[p]` is its result when it has
    /// no moves (ignored otherwise). `move_starts` has one entry more than there are positions.
    ///
    /// # Errors
    /// A target that is not a position, more positions than [`MAX_POSITIONS`], or the parent
    /// links past `memory_limit`.
    pub fn from_moves(
        start: u32,
        move_starts: Vec<u64>,
        targets: Vec<u32>,
        results: Vec<Finished>,
        memory_limit: u64,
    ) -> Result<GameGraph, GraphError> {
        let codes = results.iter().map(|r| r.code()).collect();
        GameGraph::from_parts(start, move_starts, targets, codes, memory_limit)
    }

    pub(crate) fn from_parts(
        start: u32,
        move_starts: Vec<u64>,
        targets: Vec<u32>,
        results: Vec<u8>,
        memory_limit: u64,
    ) -> Result<GameGraph, GraphError> {
        let n = results.len();
        if n as u64 > MAX_POSITIONS {
            return Err(GraphError::TooManyPositions);
        }
        assert_eq!(
            move_starts.len(),
            n + 1,
            "one start per position and the end"
        );
        let moves = targets.len() as u64;
        Meter::new(memory_limit).check(
            n as u64 * BYTES_PER_POSITION + moves * BYTES_PER_MOVE,
            n as u64,
            moves,
        )?;
        for from in 0..n {
            let range = move_starts[from] as usize..move_starts[from + 1] as usize;
            if let Some(&to) = targets[range].iter().find(|&&t| t as usize >= n) {
                return Err(GraphError::BadTarget {
                    from: from as u32,
                    to,
                    last: n as u64 - 1,
                });
            }
        }
        // The parent links by counting sort: how many moves reach each position, then each
        // move's source written at its target's slot.
        let mut parent_starts = Vec::new();
        reserve(&mut parent_starts, n + 1, n as u64, moves)?;
        parent_starts.resize(n + 1, 0u64);
        for &t in &targets {
            parent_starts[t as usize + 1] += 1;
        }
        for i in 0..n {
            parent_starts[i + 1] += parent_starts[i];
        }
        let mut parents = Vec::new();
        reserve(&mut parents, targets.len(), n as u64, moves)?;
        parents.resize(targets.len(), 0u32);
        let mut next = parent_starts.clone();
        for from in 0..n {
            for &t in &targets[move_starts[from] as usize..move_starts[from + 1] as usize] {
                parents[next[t as usize] as usize] = from as u32;
                next[t as usize] += 1;
            }
        }
        Ok(GameGraph {
            start,
            move_starts,
            targets,
            parent_starts,
            parents,
            results,
        })
    }

    /// How many positions.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.results.len() as u64
    }

    /// How many moves, all positions together.
    #[must_use]
    pub fn move_count(&self) -> u64 {
        self.targets.len() as u64
    }

    /// The positions the moves of `position` lead to, in order.
    #[must_use]
    pub fn targets(&self, position: u32) -> &[u32] {
        let p = position as usize;
        &self.targets[self.move_starts[p] as usize..self.move_starts[p + 1] as usize]
    }

    /// The result of `position` when it has no moves.
    #[must_use]
    pub fn result(&self, position: u32) -> Finished {
        Finished::from_code(self.results[position as usize])
    }

    /// Bytes the graph holds.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.positions() * BYTES_PER_POSITION + self.move_count() * BYTES_PER_MOVE
    }

    /// Solve every position with the engine.
    ///
    /// # Errors
    /// The engine's refusals (memory) and cancellation.
    pub fn solve(&self, options: &Options) -> Result<GraphSolution, GraphError> {
        self.solve_with_progress(options, &|_| {})
    }

    /// [`GameGraph::solve`], calling `on_pass` as the engine goes.
    ///
    /// # Errors
    /// As [`GameGraph::solve`].
    pub fn solve_with_progress(
        &self,
        options: &Options,
        on_pass: &(dyn Fn(&engine::Progress) + Sync),
    ) -> Result<GraphSolution, GraphError> {
        let solution = engine::solve(self, options, on_pass).map_err(|e| match e {
            engine::EngineError::Cancelled(c) => GraphError::Cancelled(c),
            e => GraphError::Engine(e),
        })?;
        Ok(GraphSolution { solution })
    }
}

impl Game for GameGraph {
    type Position = u32;
    type Move = u32;

    fn start(&self) -> u32 {
        self.start
    }

    fn moves(&self, position: &u32) -> Vec<u32> {
        self.targets(*position).to_vec()
    }

    fn play(&self, _position: &u32, target: &u32) -> Transition<u32> {
        Transition::to(*target)
    }

    fn no_moves(&self, position: &u32) -> Ending {
        match self.result(*position) {
            Finished::Win => Ending::Win,
            Finished::Loss => Ending::Loss,
            Finished::Tie => Ending::Draw,
        }
    }
}

impl IndexedGame for GameGraph {
    fn index_count(&self) -> u64 {
        self.positions()
    }

    fn index(&self, position: &u32) -> u64 {
        u64::from(*position)
    }

    fn position(&self, index: u64) -> Option<u32> {
        (index < self.positions()).then_some(index as u32)
    }

    fn transitions(&self, position: &u32, out: &mut Vec<Transition<u32>>) {
        out.extend(self.targets(*position).iter().map(|&t| Transition::to(t)));
    }

    fn has_unmoves(&self) -> bool {
        true
    }

    fn tier_parents(&self, position: &u32, parents: &mut Vec<u32>) {
        let p = *position as usize;
        parents.extend_from_slice(
            &self.parents[self.parent_starts[p] as usize..self.parent_starts[p + 1] as usize],
        );
    }
}

/// A solved graph: the value of every position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphSolution {
    solution: Solution,
}

impl GraphSolution {
    /// The value of `position` for the player to move; `None` past the graph.
    #[must_use]
    pub fn record(&self, position: u32) -> Option<Record> {
        self.solution.record(u64::from(position))
    }

    /// The engine's table.
    #[must_use]
    pub fn table(&self) -> &Solution {
        &self.solution
    }

    /// How the positions `0..positions` divide by value.
    #[must_use]
    pub fn counts(&self, positions: u64) -> engine::Counts {
        let mut counts = engine::Counts::default();
        for record in self.solution.records().iter().take(positions as usize) {
            counts.positions += 1;
            match record.outcome() {
                Some(Outcome::Win) => counts.wins += 1,
                Some(Outcome::Loss) => counts.losses += 1,
                Some(Outcome::Tie) => counts.ties += 1,
                Some(Outcome::Draw) => counts.draws += 1,
                None => {}
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests;
