//! The passes that fill the table (see the module above for the method).

use super::{BYTES_PER_POSITION, EngineError, IndexedGame, MAX_REMOTENESS, Options, Record};
use crate::game::{Ending, Transition};
use crate::player::Outcome;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};

/// What a pass reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// 1 while wins and losses are found, 2 while ties among the open positions are.
    pub round: u8,
    /// The pass within the round.
    pub pass: u32,
    /// Positions decided so far (win, loss or tie).
    pub decided: u64,
    /// Positions in the game (holes left out).
    pub positions: u64,
}

/// A solved game: a record for every index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    records: Vec<Record>,
    /// Positions (indices that are not holes).
    pub positions: u64,
    /// Passes made, both rounds.
    pub passes: u32,
}

impl Solution {
    /// The record of an index; `None` past the table.
    #[must_use]
    pub fn record(&self, index: u64) -> Option<Record> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.records.get(i))
            .copied()
    }

    /// Every record, by index.
    #[must_use]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// How many positions have this outcome.
    #[must_use]
    pub fn count(&self, outcome: Outcome) -> u64 {
        self.records
            .iter()
            .filter(|r| r.outcome() == Some(outcome))
            .count() as u64
    }
}

/// What one move gives the mover, as far as is known.
enum Option_ {
    /// The move ends the game, or reaches a decided position: the record seen by the mover
    /// (a win for the mover when the child is a loss for the player there).
    Known(Record),
    /// The move reaches a position still open.
    Open,
}

/// The mover's view of a child's record.
fn for_mover(child: Record) -> Record {
    let outcome = match child.outcome() {
        Some(Outcome::Win) => Outcome::Loss,
        Some(Outcome::Loss) => Outcome::Win,
        other => {
            return if other == Some(Outcome::Tie) {
                child
            } else {
                Record::DRAW
            };
        }
    };
    Record::new(outcome, child.remoteness().unwrap_or(0)).unwrap_or(Record::DRAW)
}

/// An ending's record for the player it concerns, as a position with remoteness 0.
fn ending_record(ending: Ending) -> Record {
    let outcome = match ending.score().signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ => Outcome::Tie,
    };
    Record::new(outcome, 0).unwrap_or(Record::DRAW)
}

/// Count the positions reachable from `start` (itself included), by a walk over the index
/// with a bitset: `index_count / 8` bytes and a stack.
///
/// # Errors
/// [`EngineError::OverMemory`] when the bitset would pass the memory limit, and
/// [`EngineError::BadIndex`] for a move the index does not place.
pub fn count_reachable<G: IndexedGame>(
    game: &G,
    start: &G::Position,
    options: &Options,
) -> Result<u64, EngineError> {
    let count = game.index_count();
    let needed = count.div_ceil(8);
    if needed > options.memory_limit {
        return Err(EngineError::OverMemory {
            needed,
            limit: options.memory_limit,
            indices: count,
        });
    }
    let mut seen = vec![0u64; count.div_ceil(64) as usize];
    let mut stack = vec![start.clone()];
    let first = game.index(start);
    if first >= count {
        return Err(EngineError::BadIndex {
            from: first,
            to: first,
            why: "outside the table",
        });
    }
    seen[(first / 64) as usize] |= 1 << (first % 64);
    let mut reached = 1;
    while let Some(position) = stack.pop() {
        let from = game.index(&position);
        for mv in game.moves(&position) {
            if let Transition::Continue { position: next, .. } = game.play(&position, &mv) {
                let to = game.index(&next);
                if to >= count {
                    return Err(EngineError::BadIndex {
                        from,
                        to,
                        why: "outside the table",
                    });
                }
                let (word, bit) = ((to / 64) as usize, 1u64 << (to % 64));
                if seen[word] & bit == 0 {
                    seen[word] |= bit;
                    reached += 1;
                    stack.push(next);
                }
            }
        }
    }
    Ok(reached)
}

/// Solve every position of `game`, calling `on_pass` after each pass.
///
/// # Errors
/// Refused up front when the table passes the memory limit; stopped on a move that earns
/// points, an index the game does not keep, or a remoteness past [`MAX_REMOTENESS`].
pub fn solve<G>(
    game: &G,
    options: &Options,
    on_pass: &(dyn Fn(&Progress) + Sync),
) -> Result<Solution, EngineError>
where
    G: IndexedGame + Sync,
{
    let count = game.index_count();
    let needed = count.saturating_mul(BYTES_PER_POSITION);
    if needed > options.memory_limit || usize::try_from(count).is_err() {
        return Err(EngineError::OverMemory {
            needed,
            limit: options.memory_limit,
            indices: count,
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| EngineError::Threads(e.to_string()))?;
    pool.install(|| Passes::new(game, count).run(on_pass))
}

/// The table being filled, shared by the worker threads.
struct Passes<'a, G> {
    game: &'a G,
    table: Vec<AtomicU16>,
    /// The largest remoteness decided so far.
    deepest: AtomicU32,
    decided: AtomicU64,
    positions: u64,
}

/// Indices a worker takes at a time.
const CHUNK: usize = 4096;

impl<'a, G: IndexedGame + Sync> Passes<'a, G> {
    fn new(game: &'a G, count: u64) -> Passes<'a, G> {
        Passes {
            game,
            table: (0..count)
                .map(|_| AtomicU16::new(Record::DRAW.bits()))
                .collect(),
            deepest: AtomicU32::new(0),
            decided: AtomicU64::new(0),
            positions: 0,
        }
    }

    fn load(&self, index: usize) -> Record {
        Record::from_bits(self.table[index].load(Ordering::Relaxed))
    }

    fn store(&self, index: usize, record: Record) {
        self.table[index].store(record.bits(), Ordering::Relaxed);
        if let Some(r) = record.remoteness() {
            self.deepest.fetch_max(r, Ordering::Relaxed);
        }
        if record.is_decided() {
            self.decided.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn run(mut self, on_pass: &(dyn Fn(&Progress) + Sync)) -> Result<Solution, EngineError> {
        // Pass 0: holes, and the positions without moves.
        let positions = AtomicU64::new(0);
        self.table
            .par_chunks(CHUNK)
            .enumerate()
            .for_each(|(chunk, cells)| {
                let mut here = 0;
                for (offset, cell) in cells.iter().enumerate() {
                    let index = (chunk * CHUNK + offset) as u64;
                    let Some(position) = self.game.position(index) else {
                        cell.store(Record::HOLE.bits(), Ordering::Relaxed);
                        continue;
                    };
                    here += 1;
                    if self.game.moves(&position).is_empty() {
                        let record = ending_record(self.game.no_moves(&position));
                        self.store(index as usize, record);
                    }
                }
                positions.fetch_add(here, Ordering::Relaxed);
            });
        self.positions = positions.into_inner();
        let mut passes = 1;
        for round in [1u8, 2] {
            let mut pass = 1u32;
            loop {
                let changed = self.pass(round, pass)?;
                on_pass(&Progress {
                    round,
                    pass,
                    decided: self.decided.load(Ordering::Relaxed),
                    positions: self.positions,
                });
                passes += 1;
                // Every decided remoteness has been usable for a whole pass, and nothing
                // changed: nothing will.
                if changed == 0 && pass >= self.deepest.load(Ordering::Relaxed) + 2 {
                    break;
                }
                pass += 1;
            }
        }
        let records = self
            .table
            .into_iter()
            .map(|cell| Record::from_bits(cell.into_inner()))
            .collect();
        Ok(Solution {
            records,
            positions: self.positions,
            passes,
        })
    }

    /// One pass over the open positions; returns how many it decided.
    fn pass(&self, round: u8, pass: u32) -> Result<u64, EngineError> {
        self.table
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, cells)| {
                let mut changed = 0;
                for (offset, cell) in cells.iter().enumerate() {
                    let bits = cell.load(Ordering::Relaxed);
                    if bits != Record::DRAW.bits() {
                        continue; // decided, or a hole
                    }
                    let index = chunk * CHUNK + offset;
                    if let Some(record) = self.decide(index, round, pass)? {
                        self.store(index, record);
                        changed += 1;
                    }
                }
                Ok(changed)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// The record of open position `index` if this pass can decide it.
    fn decide(&self, index: usize, round: u8, pass: u32) -> Result<Option<Record>, EngineError> {
        let Some(position) = self.game.position(index as u64) else {
            return Ok(None);
        };
        // Nearest win (through a loss usable in this pass), nearest tie, farthest loss, and
        // whether every move's result is known and none is a loss still out of reach.
        let mut nearest_win: Option<u32> = None;
        let mut nearest_tie: Option<u32> = None;
        let mut farthest_loss: Option<u32> = None;
        let mut settled = true;
        for mv in self.game.moves(&position) {
            let option = match self.game.play(&position, &mv) {
                Transition::End(ending) => Option_::Known(ending_record(ending)),
                Transition::Continue {
                    position: next,
                    reward,
                } => {
                    if reward != 0 {
                        return Err(EngineError::Scoring { reward });
                    }
                    let to = self.game.index(&next);
                    let child = usize::try_from(to)
                        .ok()
                        .filter(|&i| i < self.table.len())
                        .map(|i| self.load(i))
                        .ok_or(EngineError::BadIndex {
                            from: index as u64,
                            to,
                            why: "outside the table",
                        })?;
                    if child.is_hole() {
                        return Err(EngineError::BadIndex {
                            from: index as u64,
                            to,
                            why: "a hole",
                        });
                    }
                    if child.is_decided() {
                        // What the move is worth to the mover, one move further from the end.
                        let seen = for_mover(child);
                        Option_::Known(seen)
                    } else {
                        Option_::Open
                    }
                }
            };
            match option {
                Option_::Open => settled = false,
                Option_::Known(seen) => {
                    let r = seen.remoteness().unwrap_or(0);
                    match seen.outcome() {
                        Some(Outcome::Win) => {
                            // The child is a loss in r; usable once every loss that near is
                            // decided (all are, by pass r + 1).
                            if r < pass {
                                nearest_win = Some(nearest_win.map_or(r, |w| w.min(r)));
                            } else {
                                settled = false;
                            }
                        }
                        Some(Outcome::Tie) => {
                            nearest_tie = Some(nearest_tie.map_or(r, |t| t.min(r)));
                        }
                        _ => farthest_loss = Some(farthest_loss.map_or(r, |l| l.max(r))),
                    }
                }
            }
        }
        let (outcome, r) = if let Some(r) = nearest_win {
            (Outcome::Win, r)
        } else if round == 1 && settled {
            match (nearest_tie, farthest_loss) {
                (Some(t), _) => (Outcome::Tie, t),
                (None, Some(l)) => (Outcome::Loss, l),
                (None, None) => return Ok(None), // no moves: decided in pass 0
            }
        } else if round == 2 {
            // Only draws and ties are left to the open positions: a tie in reach is better.
            match nearest_tie {
                Some(t) if t < pass => (Outcome::Tie, t),
                _ => return Ok(None),
            }
        } else {
            return Ok(None);
        };
        if r + 1 > MAX_REMOTENESS {
            return Err(EngineError::TooDeep);
        }
        Ok(Record::new(outcome, r + 1))
    }
}
