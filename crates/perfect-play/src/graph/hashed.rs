//! The hash-numbering adapter: any game whose positions hash, solved by the engine without an
//! index written for it.
//!
//! [`explore`] walks the positions reachable from the start breadth first and numbers each the
//! first time it is seen, through a hash table that keeps every position once
//! ([`indexmap::IndexSet`]: the number is the insertion order). Because positions are expanded
//! in the order they are numbered, each one's moves are appended in order and the graph comes
//! out in compressed rows with no sorting. Moves that end the game point at three shared
//! end positions (won, lost, tied for the player to move there). The graph is then solved by
//! [`GameGraph::solve`]: the game's own code is not called again, so the solve runs on every
//! core even when the game's code cannot (Python's).
//!
//! [`solve_game`] is the whole path for a Rust [`Game`]; front ends whose games are callbacks
//! (Python) call [`explore`] with their own expansion.

use super::{
    BYTES_PER_MOVE, BYTES_PER_POSITION, Finished, GameGraph, GraphError, GraphSolution,
    MAX_POSITIONS, Meter,
};
use crate::budget::Cancel;
use crate::engine::{self, IndexedGame, Options, Record, TableAnalysis};
use crate::game::{Ending, Game, Transition};
use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;
use std::hash::Hash;

/// Bytes the hash table keeps a position besides the position itself: its hash and the
/// entry's slot (8 bytes each), the table's control byte and room to grow.
pub const TABLE_BYTES_PER_POSITION: u64 = 32;

/// Where the ends of the game sit after the positions: the target codes of moves that end it,
/// until the positions are all numbered.
const END_CODES: u32 = u32::MAX - 3;

/// Why exploring stopped: the graph's limits, or an error of the game's own code.
#[derive(Debug)]
pub enum ExploreError<E> {
    /// Memory, size, scoring or cancellation.
    Graph(GraphError),
    /// The expansion failed (a Python exception, say), at this position's number.
    Game(E),
}

impl<E> From<GraphError> for ExploreError<E> {
    fn from(e: GraphError) -> Self {
        ExploreError::Graph(e)
    }
}

/// The positions of a game, numbered, and its graph.
#[derive(Debug)]
pub struct Numbered<P> {
    positions: IndexSet<P, FxBuildHasher>,
    graph: GameGraph,
}

impl<P: Hash + Eq> Numbered<P> {
    /// The number of `position`, if the start reaches it.
    #[must_use]
    pub fn index_of(&self, position: &P) -> Option<u32> {
        self.positions.get_index_of(position).map(|i| i as u32)
    }

    /// The position numbered `index`.
    #[must_use]
    pub fn position(&self, index: u32) -> Option<&P> {
        self.positions.get_index(index as usize)
    }

    /// How many positions the start reaches (itself included).
    #[must_use]
    pub fn len(&self) -> u64 {
        self.positions.len() as u64
    }

    /// Whether there are none (never: the start is one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The graph (the positions, then the three ends of the game).
    #[must_use]
    pub fn graph(&self) -> &GameGraph {
        &self.graph
    }
}

/// What [`explore`] may use.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most bytes the positions, the hash table and the graph may take.
    pub memory_limit: u64,
    /// Raised to stop.
    pub cancel: Cancel,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_limit: 2 << 30,
            cancel: Cancel::default(),
        }
    }
}

/// An expansion: what each move of a position does, and the ending when it has none.
pub type Expand<'a, P, E> = dyn FnMut(&P, &mut Vec<Transition<P>>) -> Result<Ending, E> + 'a;

/// Number the positions reachable from `start`.
///
/// `expand(position, steps)` appends what each move from `position` does (the game goes on
/// to a position, or ends with an ending for the mover) and returns the ending for the player
/// to move when it appended nothing (a position without moves). `position_bytes` is the heap
/// memory a position owns beyond its own size, counted against the limit; `on_progress` gets
/// the positions numbered and expanded every 4,096.
///
/// # Errors
/// The memory limit (with the positions and moves found by then), more than
/// [`MAX_POSITIONS`] positions, a move that scores points, cancellation, or the expansion's
/// own error.
pub fn explore<P, E>(
    start: P,
    limits: &Limits,
    position_bytes: &dyn Fn(&P) -> u64,
    expand: &mut Expand<'_, P, E>,
    on_progress: &dyn Fn(u64, u64),
) -> Result<Numbered<P>, ExploreError<E>>
where
    P: Hash + Eq,
{
    let meter = Meter::new(limits.memory_limit);
    let per_position = std::mem::size_of::<P>() as u64 + TABLE_BYTES_PER_POSITION;
    let mut owned_bytes = position_bytes(&start);
    let mut positions: IndexSet<P, FxBuildHasher> = IndexSet::with_hasher(FxBuildHasher);
    positions.insert(start);
    let mut move_starts: Vec<u64> = vec![0];
    let mut targets: Vec<u32> = Vec::new();
    let mut results: Vec<u8> = Vec::new();
    let mut steps: Vec<Transition<P>> = Vec::new();
    let mut expanded = 0usize;
    while expanded < positions.len() {
        let count = positions.len() as u64;
        let moves = targets.len() as u64;
        if expanded.is_multiple_of(4096) {
            limits.cancel.check().map_err(GraphError::from)?;
            on_progress(count, expanded as u64);
            meter.check(
                count * (per_position + BYTES_PER_POSITION) + owned_bytes + moves * BYTES_PER_MOVE,
                count,
                moves,
            )?;
        }
        steps.clear();
        let ending = expand(&positions[expanded], &mut steps).map_err(ExploreError::Game)?;
        if steps.is_empty() {
            push(
                &mut results,
                Finished::of_ending(ending).code(),
                count,
                moves,
            )?;
        } else {
            push(&mut results, Finished::Loss.code(), count, moves)?;
        }
        if targets.capacity() - targets.len() < steps.len() {
            let extra = steps.len().max(targets.len());
            super::reserve(&mut targets, extra, count, moves)?;
        }
        for step in steps.drain(..) {
            let target = match step {
                Transition::Continue {
                    reward: 0,
                    position,
                } => {
                    if positions.len() == positions.capacity() {
                        positions
                            .try_reserve(positions.len().max(1024))
                            .map_err(|_| GraphError::OverMemory {
                                positions: count,
                                moves,
                                needed: crate::parse::human_size(
                                    2 * count * (per_position + BYTES_PER_POSITION),
                                ),
                                limit: "what the machine could allocate".into(),
                            })?;
                    }
                    let bytes = position_bytes(&position);
                    let (index, new) = positions.insert_full(position);
                    if new {
                        owned_bytes += bytes;
                        if index as u64 >= MAX_POSITIONS {
                            return Err(GraphError::TooManyPositions.into());
                        }
                    }
                    index as u32
                }
                Transition::Continue { reward, .. } => {
                    return Err(GraphError::Scoring(reward).into());
                }
                // The end position the opponent is left facing: the mover's win is its loss.
                Transition::End(ending) => match Finished::of_ending(ending) {
                    Finished::Win => END_CODES + Finished::Loss.code() as u32,
                    Finished::Loss => END_CODES + Finished::Win.code() as u32,
                    Finished::Tie => END_CODES + Finished::Tie.code() as u32,
                },
            };
            targets.push(target);
        }
        push(&mut move_starts, targets.len() as u64, count, moves)?;
        expanded += 1;
    }
    let n = positions.len() as u32;
    for t in &mut targets {
        if *t >= END_CODES {
            *t = n + (*t - END_CODES);
        }
    }
    for code in [Finished::Loss, Finished::Win, Finished::Tie] {
        results.push(code.code());
        move_starts.push(targets.len() as u64);
    }
    let graph = GameGraph::from_parts(
        0,
        move_starts,
        targets,
        results,
        limits
            .memory_limit
            .saturating_sub(u64::from(n) * per_position + owned_bytes),
    )?;
    Ok(Numbered { positions, graph })
}

fn push<T>(items: &mut Vec<T>, item: T, positions: u64, moves: u64) -> Result<(), GraphError> {
    if items.len() == items.capacity() {
        super::reserve(items, items.len().max(1024), positions, moves)?;
    }
    items.push(item);
    Ok(())
}

/// A [`Game`] solved through its numbered positions.
pub struct GameSolution<'g, G: Game> {
    game: &'g G,
    numbered: Numbered<G::Position>,
    solution: GraphSolution,
}

/// Solve every position `game` reaches from its start with the engine, numbering them
/// through a hash table: no [`IndexedGame`] needed. `options.memory_limit` bounds the
/// positions, the graph and the table together.
///
/// # Errors
/// As [`explore`] and [`GameGraph::solve`].
pub fn solve_game<'g, G: Game>(
    game: &'g G,
    options: &Options,
) -> Result<GameSolution<'g, G>, GraphError> {
    let limits = Limits {
        memory_limit: options.memory_limit,
        cancel: options.cancel.clone(),
    };
    let mut expand = |position: &G::Position,
                      steps: &mut Vec<Transition<G::Position>>|
     -> Result<Ending, std::convert::Infallible> {
        for mv in game.moves(position) {
            steps.push(game.play(position, &mv));
        }
        Ok(if steps.is_empty() {
            game.no_moves(position)
        } else {
            Ending::Loss
        })
    };
    let numbered = match explore(
        game.start(),
        &limits,
        &|p| game.position_bytes(p) as u64,
        &mut expand,
        &|_, _| {},
    ) {
        Ok(numbered) => numbered,
        Err(ExploreError::Graph(e)) => return Err(e),
        Err(ExploreError::Game(never)) => match never {},
    };
    let solution = numbered.graph().solve(&Options {
        memory_limit: options
            .memory_limit
            .saturating_sub(numbered.graph().bytes()),
        ..options.clone()
    })?;
    Ok(GameSolution {
        game,
        numbered,
        solution,
    })
}

impl<G: Game> std::fmt::Debug for GameSolution<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameSolution")
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}

impl<G: Game> GameSolution<'_, G> {
    /// The value of `position` for the player to move; `None` when the start does not reach it.
    #[must_use]
    pub fn value(&self, position: &G::Position) -> Option<Record> {
        self.solution.record(self.numbered.index_of(position)?)
    }

    /// The value of `position`, every move's value best first and a best line; `None` when
    /// the start does not reach it.
    #[must_use]
    pub fn analyse(&self, position: &G::Position) -> Option<TableAnalysis<G::Move>> {
        let view = View {
            game: self.game,
            numbered: &self.numbered,
        };
        engine::analyse_by(
            &view,
            &mut |index| self.solution.record(u32::try_from(index).ok()?),
            position,
        )
    }

    /// How the positions the start reaches divide by value.
    #[must_use]
    pub fn counts(&self) -> engine::Counts {
        self.solution.counts(self.numbered.len())
    }

    /// The numbered positions and their graph.
    #[must_use]
    pub fn numbered(&self) -> &Numbered<G::Position> {
        &self.numbered
    }
}

/// The game seen through its numbering, for the engine's readers of a table.
struct View<'a, G: Game> {
    game: &'a G,
    numbered: &'a Numbered<G::Position>,
}

impl<G: Game> Game for View<'_, G> {
    type Position = G::Position;
    type Move = G::Move;
    fn start(&self) -> G::Position {
        self.game.start()
    }
    fn moves(&self, position: &G::Position) -> Vec<G::Move> {
        self.game.moves(position)
    }
    fn play(&self, position: &G::Position, mv: &G::Move) -> Transition<G::Position> {
        self.game.play(position, mv)
    }
    fn no_moves(&self, position: &G::Position) -> Ending {
        self.game.no_moves(position)
    }
}

impl<G: Game> IndexedGame for View<'_, G> {
    fn index_count(&self) -> u64 {
        self.numbered.len()
    }
    fn index(&self, position: &G::Position) -> u64 {
        self.numbered.index_of(position).map_or(u64::MAX, u64::from)
    }
    fn position(&self, index: u64) -> Option<G::Position> {
        self.numbered.position(u32::try_from(index).ok()?).cloned()
    }
}
