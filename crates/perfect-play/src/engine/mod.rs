//! The engine: solves a whole game, loops and draws included, on every core, within a memory
//! bound, one two-byte [`Record`] a position.
//!
//! A game tells the engine how to number its positions ([`IndexedGame`]: an index in
//! `0..index_count`, holes allowed) on top of the plain [`Game`] moves. The engine keeps one
//! record per number and fills the table in passes, the way GamesmanOne's value-iteration
//! tier solver does for loopy tiers, with no predecessor lists and no recursion:
//!
//! 1. Pass 0 marks the positions without moves (the game's [`Game::no_moves`] ending).
//! 2. Pass `k` decides, among the positions still open, a win in `r + 1` through the nearest
//!    loss `r` among the moves' known results, once that is sure to be the nearest (no move
//!    is still open, or `r < k`: every loss of the tier nearer than `k` is decided by pass
//!    `k`); and, once every move's result is known and none is a loss for the opponent, a tie
//!    (one more than the nearest tie), a draw (some move draws), or else a loss (one more
//!    than the farthest win). The passes write in place and in parallel: a record, once
//!    written, is final, so a pass may use what another thread wrote during it.
//! 3. When a pass decides nothing and waited for nothing, the positions still open are those
//!    from which neither side can force a win: a tie if a tie is in reach (a second round of
//!    passes finds the nearest), a draw (endless play) otherwise.
//!
//! A game may cut its index into tiers that moves only leave forward ([`IndexedGame::tier_count`]):
//! the engine then solves them from the last, each with the passes above, and a move into a
//! solved tier is known at once, so a tier without moves inside it takes a single pass.
//!
//! A game that can also take moves back within a tier ([`IndexedGame::tier_parents`]) gets
//! retrograde analysis instead of the passes for wins and losses: each position's moves are
//! played once and its parents visited once, when it is decided (see `retrograde.rs`). On
//! Quixo 4 x 4 that took the solve from 169 s to 38 s.
//!
//! A game with symmetries ([`IndexedGame::canonical`]: the board's rotations and reflections)
//! has one position of each class solved and the rest left holes; moves and lookups go through
//! [`table_index`]. On Quixo 4 x 4 (eight symmetries) the solve went from 44.5 s to 12.8 s.
//!
//! The same solve runs over several ranks, the processes of an MPI job (the `mpi` feature) or
//! threads standing in for them, each solving a slice of every tier: see [`distributed`].
//!
//! The old [`Solver`](crate::Solver) stays as the oracle: the tests check the engine against
//! it on every acyclic game small enough, and against a classic retrograde analysis with
//! child counters on loopy ones.

mod analyse;
pub mod database;
pub mod distributed;
mod passes;
pub mod record;
mod retrograde;
mod solve;
mod table;
#[cfg(test)]
mod tests;

pub use analyse::{
    DRAW_LINE_MOVES, MoveRecord, TableAnalysis, analyse, analyse_by, ending_move_value,
    move_records, move_records_by, move_value,
};
pub use database::{Checkpoint, Database, TierInProgress};
pub use passes::Progress;
pub use record::{MAX_REMOTENESS, Record};
pub use solve::{
    Counts, Solution, count_reachable, count_reachable_classes, reachable_counts, solve,
    solve_resumable,
};

use crate::game::{Game, Transition};
use std::ops::Range;
use thiserror::Error;

/// A game whose positions the engine can number: each position has an index in
/// `0..index_count()`, and each index is one position or a hole (no position).
///
/// `position(index(p))` must give back `p` for every position the moves reach, or one the game
/// plays the same way: Dobutsu shogi numbers the board as the side to move sees it, so a
/// position and its twin with the sides swapped and the board turned share a number.
pub trait IndexedGame: Game {
    /// How many indices there are (positions and holes).
    fn index_count(&self) -> u64;

    /// The index of a position.
    fn index(&self, position: &Self::Position) -> u64;

    /// The position with this index, or `None` for a hole.
    fn position(&self, index: u64) -> Option<Self::Position>;

    /// How many tiers the index is cut into: groups of positions that moves only leave toward
    /// later tiers (a tier for each number of pieces on the board, say). The engine solves the
    /// last tier first, and a tier with no move inside it in one pass. Default: one tier.
    fn tier_count(&self) -> u64 {
        1
    }

    /// The indices of tier `tier`: the tiers, in any order, cover `0..index_count()` exactly.
    fn tier_range(&self, tier: u64) -> Range<u64> {
        let _ = tier;
        0..self.index_count()
    }

    /// The tiers a move from a position of `tier` can lead to, other than `tier` itself: all
    /// later than `tier`. A solve over several ranks hands out at once the tiers whose
    /// children are solved, so a game whose tiers form a graph wider than a chain (Dodgem's
    /// tiers by the cars of each side) solves several tiers side by side. Default: every later
    /// tier (a chain), always right, never wrong: a move into a tier not listed is refused by
    /// the solve as a move into a tier not solved yet.
    fn tier_children(&self, tier: u64) -> Vec<u64> {
        (tier + 1..self.tier_count()).collect()
    }

    /// Whether every move from a position of `tier` leaves it (or ends the game): then one
    /// pass over the tier decides it, and a tier cut over several ranks needs none of its
    /// other slices. Default: moves may stay (always right); a move that stays in a tier said
    /// to be left is refused by the solve.
    fn moves_leave_tier(&self, tier: u64) -> bool {
        let _ = tier;
        false
    }

    /// Append to `out` what each move from `position` leads to, in the order of
    /// [`Game::moves`]. The engine's inner loop calls this with a buffer it reuses; the
    /// default plays every move, and a game may override it to skip building the move list.
    fn transitions(&self, position: &Self::Position, out: &mut Vec<Transition<Self::Position>>) {
        for mv in self.moves(position) {
            out.push(self.play(position, &mv));
        }
    }

    /// Whether [`IndexedGame::tier_parents`] is implemented. With un-moves the engine solves
    /// a loopy tier by retrograde analysis (each position's moves generated once, then its
    /// parents once when it is decided); without, by passes of value iteration.
    fn has_unmoves(&self) -> bool {
        false
    }

    /// Un-moves: append to `parents` every position of the same tier with a move that leads
    /// to `position` (the game going on), once for each such move, so that a position with
    /// two moves to `position` appears twice. Only called when [`IndexedGame::has_unmoves`].
    fn tier_parents(&self, position: &Self::Position, parents: &mut Vec<Self::Position>) {
        let _ = (position, parents);
    }

    /// Whether [`IndexedGame::canonical`] names symmetries (rotations or reflections of the
    /// board, say: maps of positions onto positions of the same value that commute with the
    /// moves). With them the engine solves one position of each class and leaves the others
    /// holes; [`table_index`] finds any position's record.
    fn has_symmetries(&self) -> bool {
        false
    }

    /// The position that stands for the class of `position` under the game's symmetries: the
    /// same for every member of the class, and in the same tier. Default: itself.
    fn canonical(&self, position: &Self::Position) -> Self::Position {
        position.clone()
    }

    /// How many distinct positions the class of `position` holds (1 without symmetries): the
    /// counts of reachable positions weigh each solved class by it.
    fn class_size(&self, position: &Self::Position) -> u64 {
        let _ = position;
        1
    }
}

/// Where the record of `position` is kept: the index of its class's canonical position when
/// the game has symmetries (a table solved without them holds the same record there).
pub fn table_index<G: IndexedGame>(game: &G, position: &G::Position) -> u64 {
    if game.has_symmetries() {
        game.index(&game.canonical(position))
    } else {
        game.index(position)
    }
}

/// Bytes the engine keeps per index: one [`Record`].
pub const BYTES_PER_POSITION: u64 = 2;

/// Bytes per position of the largest tier that retrograde analysis adds while it solves a tier
/// (moves still open, the nearest known win and the farthest known loss).
pub const RETROGRADE_BYTES_PER_POSITION: u64 = retrograde::PENDING_BYTES;

/// This machine's memory in bytes (Linux: `MemTotal` in `/proc/meminfo`); `None` where it
/// cannot be read. No memory limit makes a table larger than this fit: such a solve is refused
/// up front whatever the limit says.
#[must_use]
pub fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Bytes a solve of `game` takes: the records, and with retrograde analysis the side table of
/// the largest tier.
#[must_use]
pub fn solve_bytes<G: IndexedGame>(game: &G, options: &Options) -> u64 {
    let records = game.index_count().saturating_mul(BYTES_PER_POSITION);
    if !(options.retrograde && game.has_unmoves()) {
        return records;
    }
    records.saturating_add(largest_tier(game).saturating_mul(RETROGRADE_BYTES_PER_POSITION))
}

/// Indices in the game's largest tier (whose side table retrograde analysis holds).
pub(crate) fn largest_tier<G: IndexedGame>(game: &G) -> u64 {
    (0..game.tier_count())
        .map(|t| {
            let r = game.tier_range(t);
            r.end.saturating_sub(r.start)
        })
        .max()
        .unwrap_or(0)
}

/// How the engine may run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Most bytes the table may take.
    pub memory_limit: u64,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Solve loopy tiers by retrograde analysis when the game has un-moves (the default);
    /// false forces the passes of value iteration (kept as a second method to check against).
    pub retrograde: bool,
    /// Solve one position of each class when the game has symmetries (the default); false
    /// solves every position (kept to check the symmetries against).
    pub symmetries: bool,
    /// Raised to stop the solve: it ends with [`EngineError::Cancelled`] within a chunk of
    /// positions (a checkpoint keeps what was saved before).
    pub cancel: crate::budget::Cancel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            memory_limit: 2 << 30,
            threads: 0,
            retrograde: true,
            symmetries: true,
            cancel: crate::budget::Cancel::default(),
        }
    }
}

/// Why the engine stopped without a solution.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The table would not fit the memory limit: refused before anything is computed.
    #[error(
        "the solve needs {needed} bytes ({indices} positions at {BYTES_PER_POSITION} bytes, and with retrograde analysis {RETROGRADE_BYTES_PER_POSITION} bytes for each of the largest tier's), above the memory limit of {limit} bytes; raise the memory limit or solve a smaller variant"
    )]
    OverMemory {
        /// Bytes the table would take.
        needed: u64,
        /// The limit.
        limit: u64,
        /// Indices in the game.
        indices: u64,
    },
    /// The table would not fit this machine's memory, whatever the memory limit says.
    #[error(
        "the solve needs {needed} bytes, more than this machine's {machine} bytes of memory (no memory limit makes room for it); solve a smaller variant"
    )]
    OverMachine {
        /// Bytes the table would take.
        needed: u64,
        /// The machine's memory.
        machine: u64,
    },
    /// The table could not be allocated (the system refused the memory).
    #[error(
        "the system refused the {bytes} bytes of the solve's table; lower the memory limit below the memory free, or solve a smaller variant"
    )]
    OutOfMemory {
        /// Bytes asked for.
        bytes: u64,
    },
    /// A move earns points: the engine values win, loss, tie and draw, not margins.
    #[error(
        "a move earns {reward} points: the engine values win, loss, tie and draw only (the reference Solver values margins)"
    )]
    Scoring {
        /// The reward met.
        reward: i64,
    },
    /// The game's index sent a move outside the table or to a hole.
    #[error(
        "a move from index {from} leads to index {to}, which is {why}: the game's index is inconsistent"
    )]
    BadIndex {
        /// The index moved from.
        from: u64,
        /// The index reached.
        to: u64,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The solve was cancelled before it finished.
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// The tiers do not cover the index exactly (a gap or an overlap at this index).
    #[error("the game's tiers do not cover its index exactly: a gap or an overlap at index {0}")]
    BadTiers(u64),
    /// Some position is further from the end than a record holds.
    #[error(
        "a position is more than {MAX_REMOTENESS} moves from the end, past what a record holds"
    )]
    TooDeep,
    /// A database or checkpoint file could not be read or written.
    #[error("{path}: {why}")]
    Database {
        /// The file.
        path: String,
        /// What went wrong.
        why: String,
    },
    /// A file that could not be written or read, or that perfect-play will not touch (a
    /// link, a FIFO, another game's file).
    #[error("{0}")]
    File(#[from] crate::durable::FileError),
    /// The worker threads could not be started.
    #[error("could not start the worker threads: {0}")]
    Threads(String),
    /// The ranks of a distributed solve fell out of step, or one of them left.
    #[error("the distributed solve stopped: {0}")]
    Exchange(String),
}
