//! Exact search, for positions whose game is too large to tabulate: negamax alpha-beta over
//! a shared transposition table, the exact score found by null-window tests that narrow its
//! bounds (Pascal Pons' scheme for Connect Four), on every core at once (young brothers wait:
//! near the root, a node's first move is searched alone, then the others side by side on
//! rayon's pool, all sharing the table).
//!
//! A game takes part through [`ScoreGame`]: an integer score for the player to move, larger
//! is better (a game folds remoteness into it: Connect Four's is the number of the winner's
//! stones left unplayed), a key per position, bounds of the score without search, and its
//! moves best first. The search gives a position's exact score, every move's, and a best
//! line; a node budget or a raised [`Cancel`] ends it with the bounds proven so far.

pub mod book;
pub mod proof;
#[cfg(test)]
mod proof_tests;
pub mod table;

use crate::budget::Cancel;
use arrayvec::ArrayVec;
pub use book::{Book, BookError};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
pub use table::{Bounds, TableError, TranspositionTable};
use thiserror::Error;

/// The most moves a position may have. 64 (for Connect Four boards of one or two rows
/// wider than 32 columns) cost 1-2% more instructions on 7 x 6 (BENCHMARKS.md), so those
/// boards are refused.
pub const MAX_CHILDREN: usize = 32;

/// Slots of the history table: a game names each of its moves by a slot (taken modulo this),
/// moves that do the same thing anywhere sharing one.
pub const MOVE_SLOTS: usize = 128;

/// The slot of no move (a ply without killer moves yet).
pub const NO_SLOT: u16 = u16::MAX;

/// Plies from the root with killer moves of their own (deeper plies share the last).
const KILLER_PLIES: usize = 64;

/// What the search has learned about moves, for [`ScoreGame::children`]'s order to use
/// below the game's own criteria (or not at all): all zero and [`NO_SLOT`] with the
/// heuristics off, so that an order by them changes nothing then.
#[derive(Clone, Copy, Debug)]
pub struct MoveHints<'a> {
    /// Per slot: the cut-offs the move made, each weighted by the square of the moves left
    /// (the history heuristic, Schaeffer 1989).
    pub history: &'a [u32; MOVE_SLOTS],
    /// The last two moves that cut off at this ply, newest first (killer moves).
    pub killers: [u16; 2],
    /// Whether any heuristic is on (when not, [`MoveHints::rank`] is 0 for every move and a
    /// game may skip it).
    pub active: bool,
}

impl MoveHints<'_> {
    /// No heuristic on.
    pub const NONE: MoveHints<'static> = MoveHints {
        history: &[0; MOVE_SLOTS],
        killers: [NO_SLOT; 2],
        active: false,
    };

    /// A move's rank among equals by the heuristics: killers first (the newest before the
    /// other), then by history.
    #[must_use]
    pub fn rank(&self, slot: u16) -> u64 {
        let killer = if slot == self.killers[0] {
            2
        } else if slot == self.killers[1] {
            1
        } else {
            0
        };
        (killer << 32) | u64::from(self.history[usize::from(slot) % MOVE_SLOTS])
    }
}

/// The move-ordering heuristics a search keeps (the game's own order always applies first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heuristics {
    /// Count cut-offs per move slot.
    pub history: bool,
    /// Keep the last two moves that cut off at each ply.
    pub killers: bool,
}

/// What a position is without searching below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node<S> {
    /// Its score, known at once.
    Exact(i32),
    /// Bounds of its score, and what the game needs to list its children.
    Open {
        /// The score is at least this.
        lower: i32,
        /// The score is at most this.
        upper: i32,
        /// Passed to [`ScoreGame::children`].
        scratch: S,
    },
}

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After<P> {
    /// The game ends: the mover's score.
    Ends(i32),
    /// The position the opponent faces.
    Continue(P),
}

/// A game the search can solve: scores for the player to move (zero-sum: a move's score is
/// minus the score of the position it leads to), keys, and moves.
pub trait ScoreGame: Sync {
    /// A position.
    type Position: Copy + Send + Sync;
    /// A move.
    type Move: Copy + Send;
    /// What [`ScoreGame::node`] hands to [`ScoreGame::children`] (work done once).
    type Scratch: Copy;
    /// A position's key: `u64` or `u128` (the table and books take it as `u128`; a game
    /// whose keys fit 64 bits keeps them in one register through the search).
    type Key: Copy + Ord + std::hash::Hash + std::fmt::Debug + Send + Sync + Into<u128>;

    /// Bits a key has at most (the table stores keys whole, so longer keys need more buckets).
    fn key_bits(&self) -> u32;
    /// A key that tells positions with different scores apart: equal keys, equal scores (a
    /// position and its mirror image may share one). Under `1 << key_bits()`.
    fn key(&self, position: &Self::Position) -> Self::Key;
    /// Moves left at most: how much work a stored result saves.
    fn depth(&self, position: &Self::Position) -> u32;
    /// The mover's score when a move wins at once, else `None`.
    fn win_now(&self, position: &Self::Position) -> Option<i32>;
    /// The position's score or bounds of it, for a position where the mover cannot win at
    /// once (the search calls it only there).
    fn node(&self, position: &Self::Position) -> Node<Self::Scratch>;
    /// The positions after the moves worth searching, best first (the game's criteria,
    /// then `hints` among equals if the game likes), each one where the mover cannot win at
    /// once; moves left out must not be better than [`ScoreGame::node`]'s lower bound.
    fn children(
        &self,
        position: &Self::Position,
        scratch: Self::Scratch,
        hints: &MoveHints<'_>,
        out: &mut ArrayVec<Self::Position, MAX_CHILDREN>,
    );
    /// Whether the position has one move worth searching (a forced block): the search then
    /// goes straight to it, without looking the position up or storing it (its value is
    /// the move's, which the table keeps).
    fn single_move(&self, _scratch: Self::Scratch) -> bool {
        false
    }
    /// The slot ([`MOVE_SLOTS`]) of the move from `position` to `child`, one of its
    /// [`ScoreGame::children`]: asked only of a move that cut off, with a heuristic on.
    fn move_slot(&self, position: &Self::Position, child: &Self::Position) -> u16;
    /// Every legal move and what it leads to, in the game's order.
    fn moves(
        &self,
        position: &Self::Position,
    ) -> ArrayVec<(Self::Move, After<Self::Position>), MAX_CHILDREN>;
    /// The score of a position without moves (the game is over).
    fn no_moves(&self, position: &Self::Position) -> i32;
}

/// How far a search may go.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// When bounded: the nodes this question may visit (every thread's for it; questions
    /// asked of one searcher at once count apart).
    pub nodes: Option<u64>,
    /// Raised to stop.
    pub cancel: Cancel,
    /// When to stop, if at all (looked at with the flags, about every millisecond).
    pub deadline: Option<std::time::Instant>,
    /// Threads (0: every core).
    pub threads: usize,
}

/// A search that stopped before its answer: what it had proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("the search stopped ({reason}) with the score proven between {} and {}", bounds.lower, bounds.upper)]
pub struct Stopped {
    /// The score's proven bounds.
    pub bounds: Bounds,
    /// Why it stopped.
    pub reason: StopReason,
    /// Nodes visited.
    pub nodes: u64,
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The node budget ran out.
    Nodes,
    /// The cancel flag was raised.
    Cancelled,
    /// The deadline passed.
    Deadline,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Nodes => "node budget reached",
            StopReason::Cancelled => "cancelled",
            StopReason::Deadline => "deadline reached",
        })
    }
}

/// A move's exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore<M, P> {
    /// The move.
    pub mv: M,
    /// What it leads to.
    pub after: After<P>,
    /// The mover's score after it.
    pub score: i32,
}

/// A move's exact score in `G`.
pub type ScoredMove<G> = MoveScore<<G as ScoreGame>::Move, <G as ScoreGame>::Position>;

/// An analysis of a position of `G`, or what the limits left of it.
pub type Analysed<G> = Result<
    Analysis<<G as ScoreGame>::Move, <G as ScoreGame>::Position>,
    Unfinished<<G as ScoreGame>::Move, <G as ScoreGame>::Position>,
>;

/// An analysis the limits ended: what was proven, and the moves decided before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished<M, P> {
    /// The position's bounds, why the search stopped, its nodes.
    pub stopped: Stopped,
    /// The moves whose exact scores were found, best first (possibly none).
    pub decided: Vec<MoveScore<M, P>>,
}

/// A position analysed: its score, every move's best first, a best line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M, P> {
    /// The mover's score.
    pub score: i32,
    /// Every move, best first (the game's order among equals).
    pub moves: Vec<MoveScore<M, P>>,
    /// Moves of a game both sides play perfectly from here.
    pub best_line: Vec<M>,
    /// Whether the best line goes to the end of the game (one read from a [`Book`] stops at
    /// the book's edge).
    pub best_line_complete: bool,
    /// Nodes visited.
    pub nodes: u64,
}

/// Plies from the root within which a node's moves after the first are searched in parallel
/// (3, 8, 10, 12, 16 and all tried on the reference positions and 4453: 8 to 12 best).
const SPLIT_PLIES: u32 = 10;

/// Nodes between looks at the stop flags (about a millisecond of work).
const CHECK_EVERY: u64 = 1 << 12;

/// The searcher: a game and its table, kept across questions (a batch's lines share it).
#[derive(Debug)]
pub struct Search<G: ScoreGame> {
    game: G,
    table: TranspositionTable,
    nodes: AtomicU64,
    book: std::sync::Arc<Book>,
    heuristics: Heuristics,
}

/// What a worker learned about moves: a copy goes down to each fork, so that a thread starts
/// with what its parent knew.
#[derive(Clone)]
struct Learned {
    history: [u32; MOVE_SLOTS],
    killers: [[u16; 2]; KILLER_PLIES],
}

impl Learned {
    fn new() -> Learned {
        Learned {
            history: [0; MOVE_SLOTS],
            killers: [[NO_SLOT; 2]; KILLER_PLIES],
        }
    }

    fn hints(&self, ply: u32) -> MoveHints<'_> {
        MoveHints {
            history: &self.history,
            killers: self.killers[(ply as usize).min(KILLER_PLIES - 1)],
            active: true,
        }
    }

    /// The move in `slot` cut off at `ply` with `depth` moves left.
    fn cut(&mut self, heuristics: Heuristics, slot: u16, ply: u32, depth: u32) {
        if heuristics.history {
            let count = &mut self.history[usize::from(slot) % MOVE_SLOTS];
            *count = count.saturating_add(depth * depth);
            if *count >= 1 << 30 {
                // Halved together, the counts keep their order and room to grow.
                for count in &mut self.history {
                    *count /= 2;
                }
            }
        }
        if heuristics.killers {
            let killers = &mut self.killers[(ply as usize).min(KILLER_PLIES - 1)];
            if killers[0] != slot {
                killers[1] = killers[0];
                killers[0] = slot;
            }
        }
    }
}

/// One thread's search.
struct Worker<'a, G: ScoreGame> {
    game: &'a G,
    table: &'a TranspositionTable,
    book: &'a Book,
    /// Plies from the root within which the moves after the first are searched in
    /// parallel (0: one thread).
    split_plies: u32,
    nodes: u64,
    unflushed: u64,
    total: &'a AtomicU64,
    call: &'a Call<'a>,
    /// Raised when the work is no longer needed: a sibling above proved a cut-off.
    aborts: ArrayVec<&'a AtomicBool, MAX_SPLITS>,
    heuristics: Heuristics,
    /// What the heuristics learned (none when they are off).
    learned: Option<Box<Learned>>,
}

/// Why a worker unwound.
#[derive(Clone, Copy, Debug)]
enum Halt {
    Stop(StopReason),
    /// A sibling's cut-off made the work useless.
    Done,
}

/// One question to the searcher: its limits, and the nodes visited for it (apart from other
/// questions asked at the same time, whose nodes the searcher's total mixes in).
struct Call<'a> {
    limits: &'a Limits,
    nodes: AtomicU64,
}

impl Call<'_> {
    fn new(limits: &Limits) -> Call<'_> {
        Call {
            limits,
            nodes: AtomicU64::new(0),
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// Split points a worker can be nested in.
const MAX_SPLITS: usize = 8;

impl<G: ScoreGame> Worker<'_, G> {
    fn tick(&mut self) -> Result<(), Halt> {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.flush();
            self.check()?;
        }
        Ok(())
    }

    /// Whether the work must stop: a sibling's cut-off above, the cancel flag, the node
    /// budget (every thread's nodes flushed so far), the deadline.
    fn check(&self) -> Result<(), Halt> {
        if self.aborts.iter().any(|a| a.load(Ordering::Relaxed)) {
            return Err(Halt::Done);
        }
        let limits = self.call.limits;
        if limits.cancel.is_cancelled() {
            return Err(Halt::Stop(StopReason::Cancelled));
        }
        let used = self.call.nodes.load(Ordering::Relaxed);
        if limits.nodes.is_some_and(|n| used >= n) {
            return Err(Halt::Stop(StopReason::Nodes));
        }
        if limits
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            return Err(Halt::Stop(StopReason::Deadline));
        }
        Ok(())
    }

    fn flush(&mut self) {
        self.total.fetch_add(self.unflushed, Ordering::Relaxed);
        self.call.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// The score if within `(alpha, beta)`; else a bound on the side it fell (at most alpha,
    /// or at least beta). The mover cannot win at once.
    fn negamax(
        &mut self,
        position: &G::Position,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, Halt> {
        self.tick()?;
        let (lower, upper, scratch) = match self.game.node(position) {
            Node::Exact(score) => return Ok(score),
            Node::Open {
                lower,
                upper,
                scratch,
            } => (lower, upper, scratch),
        };
        if self.game.single_move(scratch) {
            let mut only = ArrayVec::new();
            self.game
                .children(position, scratch, &MoveHints::NONE, &mut only);
            if let [child] = only.as_slice() {
                return self.negamax(child, ply + 1, -beta, -alpha).map(|s| -s);
            }
        }
        // The game's own key type through the node (one register for 64-bit keys), widened
        // only where the table or the book takes it.
        let key = self.game.key(position);
        let depth = self.game.depth(position);
        if let Some(score) = self.book.get(depth, key.into()) {
            return Ok(score);
        }
        let (mut known_lower, mut known_upper) = (lower, upper);
        if let Some(stored) = self.table.get(key.into(), depth) {
            known_lower = known_lower.max(stored.lower);
            known_upper = known_upper.min(stored.upper);
        }
        if known_lower >= known_upper {
            return Ok(known_lower);
        }
        if alpha < known_lower {
            alpha = known_lower;
            if alpha >= beta {
                return Ok(alpha);
            }
        }
        if beta > known_upper {
            beta = known_upper;
            if alpha >= beta {
                return Ok(beta);
            }
        }
        let mut children = ArrayVec::new();
        let hints = self
            .learned
            .as_ref()
            .map_or(MoveHints::NONE, |learned| learned.hints(ply));
        self.game.children(position, scratch, &hints, &mut children);
        // Enhanced transposition cut-off: a move whose position the table already knows to
        // be bad enough for the opponent cuts without a search. The look-ups also bring the
        // children's buckets into the cache together, while the first child is searched.
        for child in &children {
            if let Some(stored) = self
                .table
                .get(self.game.key(child).into(), self.game.depth(child))
                && -stored.upper >= beta
            {
                self.table.put(
                    key.into(),
                    depth,
                    Bounds {
                        lower: -stored.upper,
                        upper: known_upper,
                    },
                );
                return Ok(-stored.upper);
            }
        }
        let start_alpha = alpha;
        // The best score proven for a move below the window: what a fail-low returns (fail
        // soft), so that the next test of the score can start from it.
        let mut best = i32::MIN;
        let mut result = Ok(None);
        let parallel = ply < self.split_plies && self.aborts.len() < MAX_SPLITS;
        for (i, child) in children.iter().enumerate() {
            if parallel && i == 1 && children.len() > 2 {
                // Young brothers wait: the first move searched alone (it is usually the best
                // and may cut at once), then the others side by side on every core.
                match self.split(&children[1..], ply, alpha, beta) {
                    Ok((Some(cut), _)) => result = Ok(Some(cut)),
                    Ok((None, split_best)) => {
                        best = best.max(split_best);
                        alpha = alpha.max(split_best);
                    }
                    Err(halt) => result = Err(halt),
                }
                break;
            }
            match self.negamax(child, ply + 1, -beta, -alpha) {
                Ok(child_score) => {
                    let score = -child_score;
                    if score >= beta {
                        if let Some(learned) = &mut self.learned {
                            let slot = self.game.move_slot(position, child);
                            learned.cut(self.heuristics, slot, ply, depth);
                        }
                        result = Ok(Some(score));
                        break;
                    }
                    best = best.max(score);
                    alpha = alpha.max(score);
                }
                Err(halt) => {
                    result = Err(halt);
                    break;
                }
            }
        }
        match result? {
            Some(cut) => {
                self.table.put(
                    key.into(),
                    depth,
                    Bounds {
                        lower: cut,
                        upper: known_upper,
                    },
                );
                Ok(cut)
            }
            None if alpha > start_alpha => {
                self.table.put(
                    key.into(),
                    depth,
                    Bounds {
                        lower: alpha,
                        upper: alpha,
                    },
                );
                Ok(alpha)
            }
            None => {
                // Every move's bound is at most alpha; the best of them bounds the position
                // (and is at least what the table or the game already proved below): the
                // moves the game left out are no better than its lower bound, so this holds
                // even when no move was searched.
                let upper = best.max(known_lower);
                self.table.put(
                    key.into(),
                    depth,
                    Bounds {
                        lower: known_lower,
                        upper,
                    },
                );
                Ok(upper)
            }
        }
    }

    /// The moves `children` searched side by side with the window `(alpha, beta)`: a
    /// cut-off (the best score at or above beta) or the best score below it.
    fn split(
        &mut self,
        children: &[G::Position],
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<(Option<i32>, i32), Halt> {
        let cut = AtomicBool::new(false);
        let this = &*self;
        let outcomes: Vec<Result<i32, Halt>> = children
            .par_iter()
            .map(|child| {
                if cut.load(Ordering::Relaxed) {
                    return Err(Halt::Done);
                }
                let mut worker = this.fork(&cut);
                // Forks with fewer nodes than a flush would never look at the limits.
                worker.check()?;
                let result = worker.negamax(child, ply + 1, -beta, -alpha).map(|s| -s);
                worker.flush();
                let result = result.and_then(|score| worker.check().map(|()| score));
                if matches!(result, Ok(score) if score >= beta) {
                    cut.store(true, Ordering::Relaxed);
                }
                result
            })
            .collect();
        let scores = || outcomes.iter().filter_map(|r| r.as_ref().ok()).copied();
        if let Some(cut) = scores().filter(|&s| s >= beta).max() {
            return Ok((Some(cut), alpha));
        }
        if let Some(&Err(halt)) = outcomes.iter().find(|r| r.is_err()) {
            return Err(halt);
        }
        Ok((None, scores().max().unwrap_or(alpha)))
    }

    /// A worker for one move of a split, stopped when `cut` is raised.
    fn fork<'b>(&'b self, cut: &'b AtomicBool) -> Worker<'b, G> {
        let mut aborts: ArrayVec<&'b AtomicBool, MAX_SPLITS> =
            self.aborts.iter().copied().collect();
        aborts.push(cut);
        Worker {
            game: self.game,
            table: self.table,
            book: self.book,
            split_plies: self.split_plies,
            nodes: 0,
            unflushed: 0,
            total: self.total,
            call: self.call,
            aborts,
            heuristics: self.heuristics,
            learned: self.learned.clone(),
        }
    }

    /// Narrow `[lower, upper]` by null-window tests until it is one score, each at
    /// [`next_test`].
    fn solve(&mut self, position: &G::Position, bounds: &mut Bounds) -> Result<i32, Halt> {
        let mut last: Option<i32> = None;
        while bounds.lower < bounds.upper {
            let test = next_test(bounds.lower, bounds.upper, last);
            let score = self.negamax(position, 0, test, test + 1)?;
            last = Some(score);
            if score <= test {
                bounds.upper = bounds.upper.min(score);
            } else {
                bounds.lower = bounds.lower.max(score);
            }
        }
        Ok(bounds.lower)
    }
}

/// Where to test a score known to lie in `[lower, upper]` (`lower < upper`) next: "is it
/// above the returned value?", always with `lower <= test < upper`, so that either answer
/// narrows the range. `last` is the bound the previous test returned (fail soft).
///
/// The first test is in the middle; the next at the last bound when that is within one of
/// zero, so that a score next to zero takes two tests (as c4 does, MTD(f) in spirit: tests
/// next to such a score are the costly ones, and a binary search made four of them from the
/// empty 7 x 6 board, a third more time); else a binary search leaning away from zero
/// (Pons'), since from the bound a score far from zero is walked to a step at a time,
/// through tests below it that cost more than the ones at it.
fn next_test(lower: i32, upper: i32, last: Option<i32>) -> i32 {
    let middle = lower + (upper - lower) / 2;
    let Some(bound) = last else {
        return middle;
    };
    let from_bound = (bound.max(lower + 1) - 1).min(upper - 1);
    if (-1..=1).contains(&from_bound) {
        from_bound
    } else if middle <= 0 && lower / 2 < middle {
        lower / 2
    } else if middle >= 0 && upper / 2 > middle {
        upper / 2
    } else {
        middle
    }
}

impl<G: ScoreGame> Search<G> {
    /// A searcher for `game` with a table of at most `table_bytes`.
    ///
    /// # Errors
    /// A table that cannot be made.
    pub fn new(game: G, table_bytes: u64) -> Result<Search<G>, TableError> {
        Ok(Search {
            table: TranspositionTable::new(table_bytes, game.key_bits())?,
            game,
            nodes: AtomicU64::new(0),
            book: std::sync::Arc::default(),
            heuristics: Heuristics::default(),
        })
    }

    /// The move-ordering heuristics to keep (none by default: see [`Heuristics`]).
    pub fn set_heuristics(&mut self, heuristics: Heuristics) {
        self.heuristics = heuristics;
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &TranspositionTable {
        &self.table
    }

    /// Nodes visited since the searcher was made.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The exact score of a position.
    ///
    /// # Errors
    /// [`Stopped`] with the bounds proven when the limits end the search first.
    pub fn score(&self, position: &G::Position, limits: &Limits) -> Result<i32, Stopped> {
        self.score_in(position, i32::MIN, &Call::new(limits))
    }

    /// The position's score, known to be at least `at_least` (proven elsewhere).
    fn score_in(
        &self,
        position: &G::Position,
        at_least: i32,
        call: &Call<'_>,
    ) -> Result<i32, Stopped> {
        let game = &self.game;
        if let Some(score) = game.win_now(position) {
            return Ok(score);
        }
        let (lower, upper) = match game.node(position) {
            Node::Exact(score) => return Ok(score),
            Node::Open { lower, upper, .. } => (lower, upper),
        };
        let mut worker = self.worker(call);
        let mut bounds = Bounds {
            lower: lower.max(at_least.min(upper)),
            upper,
        };
        let result = worker.solve(position, &mut bounds);
        worker.flush();
        let halt = match result {
            Ok(score) => return Ok(score),
            Err(halt) => halt,
        };
        // Stopped: what the tests so far proved.
        Err(Stopped {
            bounds,
            reason: match halt {
                Halt::Stop(reason) => reason,
                // The root worker has no sibling to be cut off by.
                Halt::Done => StopReason::Cancelled,
            },
            nodes: call.nodes(),
        })
    }

    /// The score of what `after` leads to, for the mover, known to be at most `at_most`.
    fn score_after(
        &self,
        after: &After<G::Position>,
        at_most: i32,
        call: &Call<'_>,
    ) -> Result<i32, Stopped> {
        match after {
            After::Ends(score) => Ok(*score),
            After::Continue(next) => self
                .score_in(next, at_most.saturating_neg(), call)
                .map(|s| -s)
                .map_err(|stopped| Stopped {
                    bounds: Bounds {
                        lower: -stopped.bounds.upper,
                        upper: -stopped.bounds.lower,
                    },
                    ..stopped
                }),
        }
    }

    /// The position's score, every move's exact score best first, and a best line.
    ///
    /// # Errors
    /// [`Stopped`] when the limits end the search first, with the position's bounds proven
    /// so far (from the moves scored and those stopped).
    pub fn analyse(
        &self,
        position: &G::Position,
        limits: &Limits,
    ) -> Result<Analysis<G::Move, G::Position>, Stopped> {
        self.analyse_keeping_decided(position, limits)
            .map_err(|unfinished| unfinished.stopped)
    }

    /// The score the book or the table knows exactly for `position`, without search.
    #[must_use]
    pub fn known_score(&self, position: &G::Position) -> Option<i32> {
        let (key, depth) = (self.game.key(position), self.game.depth(position));
        self.book.get(depth, key.into()).or_else(|| {
            self.table
                .get(key.into(), depth)
                .filter(|b| b.lower == b.upper)
                .map(|b| b.lower)
        })
    }

    /// [`Search::analyse`], and when the limits end it first, the moves whose exact scores
    /// were found before they did (so that a caller out of time can still play a move it
    /// knows to be best).
    ///
    /// # Errors
    /// [`Unfinished`]: the bounds proven, why it stopped, and the moves decided.
    pub fn analyse_keeping_decided(&self, position: &G::Position, limits: &Limits) -> Analysed<G> {
        let call = &Call::new(limits);
        let all = self.game.moves(position);
        if all.is_empty() {
            return Ok(Analysis {
                score: self.game.no_moves(position),
                moves: Vec::new(),
                best_line: Vec::new(),
                best_line_complete: true,
                nodes: 0,
            });
        }
        // Every move scored on its own, side by side when there are threads to spare: one
        // move's tests near its score are the narrow part of a search, and a split inside
        // them leaves a core idle more often than another move does (rayon nests the two).
        // Moves to positions of one key (a position and its mirror image, early on) are
        // scored once: searched side by side, the second would repeat the first's work before
        // the table could tell it the answer.
        let keys: ArrayVec<Option<G::Key>, MAX_CHILDREN> = all
            .iter()
            .map(|(_, after)| match after {
                After::Ends(_) => None,
                After::Continue(p) => Some(self.game.key(p)),
            })
            .collect();
        // The moves searched (the first to each key), and each move's place among them.
        let mut distinct: ArrayVec<usize, MAX_CHILDREN> = ArrayVec::new();
        let mut slots: ArrayVec<usize, MAX_CHILDREN> = ArrayVec::new();
        for (i, key) in keys.iter().enumerate() {
            let twin = key.and_then(|_| distinct.iter().position(|&d| keys[d] == *key));
            slots.push(twin.unwrap_or_else(|| {
                distinct.push(i);
                distinct.len() - 1
            }));
        }
        let afters: ArrayVec<After<G::Position>, MAX_CHILDREN> =
            all.iter().map(|&(_, after)| after).collect();
        // No move is worth more than the position: its upper bound from the book or the
        // table (a book's score when a line asked about ends at the book's edge) is a floor
        // under what each move leads to, and saves the tests below it.
        let (key, depth) = (self.game.key(position), self.game.depth(position));
        let at_most = self
            .book
            .get(depth, key.into())
            .or_else(|| self.table.get(key.into(), depth).map(|b| b.upper))
            .unwrap_or(i32::MAX);
        let score = |&i: &usize| self.score_after(&afters[i], at_most, call);
        let distinct_scores: Vec<Result<i32, Stopped>> = if self.threads(call) > 1 {
            distinct.as_slice().par_iter().map(score).collect()
        } else {
            let mut scores = Vec::with_capacity(distinct.len());
            for i in &distinct {
                let result = score(i);
                let stopped = result.is_err();
                scores.push(result);
                if stopped {
                    break;
                }
            }
            scores
        };
        if let Some(first) = distinct_scores.iter().find_map(|r| r.err()) {
            // The position is at least the best lower bound among its moves, and at most
            // the best upper bound (a move not searched: what the table and the game say).
            let (mut lower, mut upper) = (i32::MIN, i32::MIN);
            for (&(_, after), &slot) in all.iter().zip(&slots) {
                let (low, up) = match distinct_scores.get(slot) {
                    Some(Ok(score)) => (*score, *score),
                    Some(Err(stopped)) => (stopped.bounds.lower, stopped.bounds.upper),
                    None => match after {
                        After::Ends(score) => (score, score),
                        After::Continue(next) => (i32::MIN, -self.lower_bound(&next)),
                    },
                };
                lower = lower.max(low);
                upper = upper.max(up);
            }
            let mut decided: Vec<MoveScore<G::Move, G::Position>> = all
                .iter()
                .zip(&slots)
                .filter_map(|(&(mv, after), &slot)| match distinct_scores.get(slot) {
                    Some(Ok(score)) => Some(MoveScore {
                        mv,
                        after,
                        score: *score,
                    }),
                    _ => None,
                })
                .collect();
            decided.sort_by_key(|m| std::cmp::Reverse(m.score));
            return Err(Unfinished {
                stopped: Stopped {
                    bounds: Bounds {
                        lower: lower.min(upper),
                        upper,
                    },
                    reason: first.reason,
                    nodes: call.nodes(),
                },
                decided,
            });
        }
        // Every move's score, in the game's order (each searched move scored, none stopped).
        let exact = slots
            .iter()
            .filter_map(|&slot| distinct_scores.get(slot)?.ok());
        let mut moves: Vec<MoveScore<G::Move, G::Position>> = all
            .iter()
            .zip(exact)
            .map(|(&(mv, after), score)| MoveScore { mv, after, score })
            .collect();
        let best = moves.iter().map(|m| m.score).max().unwrap_or(i32::MIN);
        // Best first; the game's order among equals.
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let best_line = self
            .best_line(&moves[0].after, moves[0].mv, moves[0].score, call)
            .map_err(|stopped| Unfinished {
                stopped: Stopped {
                    bounds: Bounds {
                        lower: best,
                        upper: best,
                    },
                    ..stopped
                },
                decided: moves.clone(),
            })?;
        Ok(Analysis {
            score: best,
            moves,
            best_line,
            best_line_complete: true,
            nodes: call.nodes(),
        })
    }

    /// The threads a call may use.
    fn threads(&self, call: &Call<'_>) -> usize {
        match call.limits.threads {
            0 => rayon::current_num_threads(),
            n => n,
        }
    }

    /// A worker at the root, splitting its work on rayon's pool when `limits` allow threads.
    fn worker<'a>(&'a self, call: &'a Call<'a>) -> Worker<'a, G> {
        let threads = self.threads(call);
        Worker {
            game: &self.game,
            table: &self.table,
            book: &self.book,
            split_plies: if threads > 1 { SPLIT_PLIES } else { 0 },
            nodes: 0,
            unflushed: 0,
            total: &self.nodes,
            call,
            aborts: ArrayVec::new(),
            heuristics: self.heuristics,
            learned: (self.heuristics != Heuristics::default()).then(|| Box::new(Learned::new())),
        }
    }

    /// A lower bound of a position's score without search.
    fn lower_bound(&self, position: &G::Position) -> i32 {
        if let Some(score) = self.game.win_now(position) {
            return score;
        }
        match self.game.node(position) {
            Node::Exact(score) => score,
            Node::Open { lower, .. } => lower.max(
                self.table
                    .get(self.game.key(position).into(), self.game.depth(position))
                    .map_or(lower, |b| b.lower),
            ),
        }
    }

    /// The line from a first move `first` (leading to `after`, worth `score` to the mover):
    /// at each position after it, the first move in the search's order that keeps the score,
    /// found by one null-window test each.
    fn best_line(
        &self,
        after: &After<G::Position>,
        first: G::Move,
        score: i32,
        call: &Call<'_>,
    ) -> Result<Vec<G::Move>, Stopped> {
        let mut line = vec![first];
        line.extend(self.line_from(*after, -score, call)?);
        Ok(line)
    }

    /// A best line from `position`, whose score for its mover is `score` (known already, as
    /// a book tells it): at each position the first move in the search's order that keeps
    /// the score (the same line every time), found by one null-window test each. With the
    /// nodes it took.
    ///
    /// # Errors
    /// [`Stopped`] when the limits end a test first.
    pub fn line_from_score(
        &self,
        position: &G::Position,
        score: i32,
        limits: &Limits,
    ) -> Result<(Vec<G::Move>, u64), Stopped> {
        let call = Call::new(limits);
        let line = self.line_from(After::Continue(*position), score, &call)?;
        Ok((line, call.nodes()))
    }

    fn line_from(
        &self,
        mut here: After<G::Position>,
        // The score of `here` for its mover.
        mut expected: i32,
        call: &Call<'_>,
    ) -> Result<Vec<G::Move>, Stopped> {
        let mut line = Vec::new();
        while let After::Continue(position) = here {
            let moves = self.game.moves(&position);
            if moves.is_empty() {
                break;
            }
            let Some((mv, later)) = self.first_keeping(&position, &moves, expected, call)? else {
                break;
            };
            line.push(mv);
            here = later;
            expected = -expected;
        }
        Ok(line)
    }

    /// The first of `moves` (the position's) that keeps its score `expected`. A move keeps
    /// the score when what it leads to is worth -expected to the opponent, that is at most
    /// -expected (it can be no less). Tried in the search's order (the likeliest best first,
    /// so that the first test usually keeps it, each test of a move that does not being a
    /// search of its own), then the rest.
    #[allow(clippy::type_complexity)]
    fn first_keeping(
        &self,
        position: &G::Position,
        moves: &[(G::Move, After<G::Position>)],
        expected: i32,
        call: &Call<'_>,
    ) -> Result<Option<(G::Move, After<G::Position>)>, Stopped> {
        for i in self.search_order(position, moves) {
            let (mv, later) = moves[i];
            let keeps = match later {
                After::Ends(s) => s == expected,
                After::Continue(p) => self.at_most(&p, -expected, call)?,
            };
            if keeps {
                return Ok(Some((mv, later)));
            }
        }
        Ok(None)
    }

    /// A best move of `position` whose score for its mover is `score` (known already, as a
    /// book tells it): the first move in the search's order that keeps it, found by one
    /// null-window test a move tried, with what it leads to. None when no move keeps it
    /// (`score` was not the position's).
    ///
    /// # Errors
    /// [`Stopped`] when the limits end a test first.
    pub fn best_move_for_score(
        &self,
        position: &G::Position,
        score: i32,
        limits: &Limits,
    ) -> Result<Option<ScoredMove<G>>, Stopped> {
        let call = Call::new(limits);
        let moves = self.game.moves(position);
        Ok(self
            .first_keeping(position, &moves, score, &call)?
            .map(|(mv, after)| MoveScore { mv, after, score }))
    }

    /// The indices of `moves` (the position's, in the game's order) in the order the search
    /// tries them: the moves that end the game, then [`ScoreGame::children`]'s (without
    /// learned hints: the same order every time), then the others in the game's order.
    fn search_order(
        &self,
        position: &G::Position,
        moves: &[(G::Move, After<G::Position>)],
    ) -> ArrayVec<usize, MAX_CHILDREN> {
        // Each move's key still to place (none for a move that ends the game: placed first).
        let mut keys: ArrayVec<Option<G::Key>, MAX_CHILDREN> = moves
            .iter()
            .map(|(_, after)| match after {
                After::Ends(_) => None,
                After::Continue(p) => Some(self.game.key(p)),
            })
            .collect();
        let mut order: ArrayVec<usize, MAX_CHILDREN> =
            (0..moves.len()).filter(|&i| keys[i].is_none()).collect();
        if self.game.win_now(position).is_none()
            && let Node::Open { scratch, .. } = self.game.node(position)
        {
            let mut children = ArrayVec::new();
            self.game
                .children(position, scratch, &MoveHints::NONE, &mut children);
            for child in &children {
                let key = Some(self.game.key(child));
                if let Some(i) = keys.iter().position(|k| *k == key) {
                    keys[i] = None;
                    order.push(i);
                }
            }
        }
        order.extend((0..moves.len()).filter(|&i| keys[i].is_some()));
        order
    }

    /// Whether the position's score is at most `bound`.
    fn at_most(
        &self,
        position: &G::Position,
        bound: i32,
        call: &Call<'_>,
    ) -> Result<bool, Stopped> {
        if let Some(score) = self.game.win_now(position) {
            return Ok(score <= bound);
        }
        let mut worker = self.worker(call);
        let result = worker.negamax(position, 0, bound, bound + 1);
        worker.flush();
        match result {
            Ok(score) => Ok(score <= bound),
            Err(halt) => Err(Stopped {
                bounds: Bounds {
                    lower: i32::MIN,
                    upper: i32::MAX,
                },
                reason: match halt {
                    Halt::Stop(reason) => reason,
                    // A lone worker is never told that another finished.
                    Halt::Done => StopReason::Cancelled,
                },
                nodes: call.nodes(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::next_test;
    use proptest::prelude::*;

    proptest! {
        /// Every test narrows the range, whatever bound the last one returned.
        #[test]
        fn the_next_test_lies_inside_the_range(
            lower in -64i32..63,
            width in 1i32..64,
            last in proptest::option::of(-130i32..130),
        ) {
            let upper = lower + width;
            let test = next_test(lower, upper, last);
            prop_assert!(lower <= test && test < upper, "{test} outside [{lower}, {upper})");
        }
    }

    #[test]
    fn a_score_next_to_zero_is_tested_from_the_bound_and_one_far_from_it_by_halves() {
        // The empty 7 x 6 board: 0 first, then 1 from the bound the first test returned.
        assert_eq!(next_test(-20, 20, None), 0);
        assert_eq!(next_test(1, 20, Some(1)), 1);
        assert_eq!(next_test(-20, 0, Some(0)), -1);
        // A quick win: the bound 11 is far from zero, so the range is halved.
        assert_eq!(next_test(11, 16, Some(11)), 13);
        // Leaning away from zero, as Pons' solver does.
        assert_eq!(next_test(-16, 8, Some(-5)), -8);
        assert_eq!(next_test(2, 16, Some(3)), 9);
    }
}
