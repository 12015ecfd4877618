//! The engine's solve over several ranks: the processes of an MPI job (the `mpi` feature),
//! or threads of one process standing in for them ([`LocalCluster`]).
//!
//! A [`Schedule`] hands the tiers out in waves, as GamesmanOne's scheduler does: a wave is
//! the tiers whose children ([`IndexedGame::tier_children`]) are all solved. A tier of the
//! wave small enough to leave the others work goes whole to one rank, which solves it alone
//! as one process would; a larger one (and a wave's only tier: a chain of tiers, a one-tier
//! game) is cut into one slice of its indices per rank (in rank order), and each rank solves
//! its slice with its threads:
//!
//! - *Retrograde analysis* (games with un-moves): the scan plays each position's moves once;
//!   a move to another slice of the tier is simply counted open. At each level a rank visits
//!   the parents of its positions decided there; a parent in another slice is sent to its
//!   rank (its index, and whether the child was lost), in batched all-to-all rounds of at
//!   most [`ROUND_POSITIONS`] positions read, and counted off on arrival exactly as a local
//!   one. A level writes only results further from the end than itself, so the order of
//!   the messages changes nothing: the records come out the same as one process's.
//! - *Passes* (no un-moves, or ties in reach): before each pass a rank asks the others, in
//!   batched all-to-all rounds, for the records its open positions reach in their slices and
//!   still open here (the last pass listed them), passes over its slice, and the ranks agree
//!   on whether anything changed; it holds its slice and the records it asked for. A tier
//!   every move leaves ([`IndexedGame::moves_leave_tier`]: Connect Four's) asks for none.
//! - After each wave its tiers are sent on, and kept only by the ranks that read them: those
//!   solving a parent tier whole, every rank when a parent is cut. When that would not fit
//!   the memory limit ([`rank_bytes`]), the ranks keep only their own parts of a tier with a
//!   cut parent, and before solving its slice of the parent each rank borrows, in batched
//!   all-to-all rounds, the records its slice's moves reach in the others' parts (read once
//!   more to find them), held packed behind a bitmap of the tier. A tier every move leaves
//!   goes window by window of [`WINDOW_POSITIONS`] of its slice: the window's moves played
//!   once and kept, the records they reach borrowed (listed), the window decided from them,
//!   so that what a rank borrows stays a window's however large the tier; faster than the
//!   gather, so a game all of whose tiers are so always borrows. Once its last parent is
//!   solved, each rank cuts a tier down to its own part (the table holds a tier at a time,
//!   `table.rs`), and with a checkpoint lets go of that too: rank 0's gather reads it back
//!   from the checkpoint. So a rank holds the tiers it is solving and reading: a one-tier
//!   game (Dobutsu shogi) its slice and side table, about `1/N` of the table; a chain of
//!   tiers (Quixo) the two tiers in play. The tables are allocated zeroed, and the system
//!   gives only the pages written.
//!
//! The database is written by rank 0 from the ranks' parts gathered in index order, through
//! the same [`Writer`] as one process: the same bytes. Each rank keeps its own checkpoint
//! (its parts of the tiers it finished, and of the tier in progress at the last level
//! saved, with its side table when the tier is cut); the ranks take up the cut tiers all of
//! them finished, and a level of one only when every rank saved the same one; a tier solved
//! whole goes on from its owner's checkpoint alone.

mod exchange;
#[cfg(feature = "mpi")]
pub mod mpi;
mod schedule;
#[cfg(test)]
mod tests;

pub use exchange::{Exchange, LocalCluster, Reduce};
pub use schedule::{Assignment, Placement, Schedule};

use super::database::{Checkpoint, Header, Writer};
use super::passes::{PassResult, Passes, Peers, TierJob, restore, snapshot};
use super::retrograde::{Resume, ResumeFrom};
use super::solve::tiers;
use super::table::bitmap;
use super::{EngineError, IndexedGame, Options, Progress, RETROGRADE_BYTES_PER_POSITION, Record};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

pub use super::retrograde::ROUND_POSITIONS;

/// Positions of its slice a rank decides at a time when it borrows from the child tiers of
/// a tier every move leaves: their moves, played once and kept for the decision (eight
/// bytes a move), and the records borrowed for them (ten bytes each), a few MB. The tests
/// take small windows, so that a slice has many.
pub const WINDOW_POSITIONS: u64 = if cfg!(test) { 1 << 10 } else { 1 << 16 };

/// The error of a message shorter than its count says.
fn short_message() -> EngineError {
    EngineError::Exchange(String::from("a rank sent fewer records than it announced"))
}

/// Records a rank sends in one gather (of the database) or all-gather (of a tier).
const PIECE_RECORDS: u64 = 1 << 22;

/// The ranks, as a solve in progress sees them: the exchange and the current tier's slices.
pub struct Cluster<'x> {
    pub(super) exchange: &'x mut dyn Exchange,
    /// The current tier's slices, by rank.
    pub(super) slices: Vec<Range<u64>>,
    /// The tier being solved (for the traffic log).
    tier: u64,
    traffic: Vec<LevelTraffic>,
    /// Records of tiers in progress this rank received for the passes.
    pass_records: u64,
    /// Records of child tiers this rank borrowed for its slices of cut tiers.
    child_records: u64,
}

/// What the ranks sent each other at one level of a tier's retrograde analysis (all ranks
/// together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelTraffic {
    /// The tier.
    pub tier: u64,
    /// The level (remoteness).
    pub level: u32,
    /// Messages (parents told to another rank).
    pub messages: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Cut `range` into `size` slices in order, each starting on a multiple of 64 from the start
/// (whole words of the bitsets).
#[must_use]
pub fn split(range: &Range<u64>, size: usize) -> Vec<Range<u64>> {
    let size = size.max(1) as u64;
    let len = range.end - range.start;
    let cut = |r: u64| {
        if r == size {
            range.end
        } else {
            let at = (u128::from(len) * u128::from(r) / u128::from(size)) as u64;
            range.start + at / 64 * 64
        }
    };
    (0..size).map(|r| cut(r)..cut(r + 1)).collect()
}

impl Peers for Cluster<'_> {
    fn size(&self) -> usize {
        self.exchange.size()
    }

    fn slices(&self) -> &[Range<u64>] {
        &self.slices
    }

    fn slice(&self) -> Range<u64> {
        self.slices[self.exchange.rank()].clone()
    }

    fn any(&mut self, here: bool) -> Result<bool, EngineError> {
        Ok(self.exchange.all_reduce(u64::from(here), Reduce::Max)? != 0)
    }

    fn max(&mut self, here: u64) -> Result<u64, EngineError> {
        self.exchange.all_reduce(here, Reduce::Max)
    }

    fn combine(&mut self, here: PassResult) -> Result<PassResult, EngineError> {
        Ok(PassResult {
            changed: self.exchange.all_reduce(here.changed, Reduce::Sum)?,
            blocked: self.any(here.blocked)?,
        })
    }

    fn all_to_all(&mut self, outboxes: &[Vec<u64>]) -> Result<Vec<u64>, EngineError> {
        self.exchange.all_to_all(outboxes)
    }

    fn count_traffic(&mut self, level: u32, messages: u64, bytes: u64) -> Result<(), EngineError> {
        let messages = self.exchange.all_reduce(messages, Reduce::Sum)?;
        let bytes = self.exchange.all_reduce(bytes, Reduce::Sum)?;
        self.traffic.push(LevelTraffic {
            tier: self.tier,
            level,
            messages,
            bytes,
        });
        Ok(())
    }

    /// Before a pass over this rank's slice of tier `range`: bring in, by message, the
    /// records of the other slices that its open positions' moves reach and that are not
    /// final here yet (a final record never changes, so it is asked for once). Each rank then
    /// reads every record its pass needs as the others left them after the last pass, as an
    /// all-gather of the whole tier would have them, and holds only those. `waiting`: those
    /// indices as the last pass found them (else [`Passes::open_elsewhere`] finds them).
    fn pull<G: IndexedGame + Sync>(
        &mut self,
        passes: &Passes<'_, G>,
        range: &Range<u64>,
        waiting: Option<Vec<u64>>,
    ) -> Result<(), EngineError> {
        use rayon::prelude::*;
        let slices = self.slices.clone();
        let mine = self.slice();
        let wanted = |index: u64| {
            range.contains(&index)
                && !mine.contains(&index)
                && passes.load(index as usize) == Record::OPEN
        };
        let mut needed = match waiting {
            Some(waiting) => waiting,
            None => passes.open_elsewhere(&mine, range)?,
        };
        needed.par_sort_unstable();
        needed.dedup();
        // Asked once more only while still open here (a record pulled final stays so).
        needed.retain(|&index| wanted(index));
        // By owner: the slices are in index order.
        let mut asks: Vec<&[u64]> = Vec::with_capacity(slices.len());
        let mut rest = needed.as_slice();
        for slice in &slices {
            let cut = rest.partition_point(|&i| i < slice.end);
            asks.push(&rest[..cut]);
            rest = &rest[cut..];
        }
        let share = self.share();
        let longest = asks.iter().map(|a| a.len() as u64).max().unwrap_or(0);
        let rounds = self.max(longest.div_ceil(share))?;
        let mut pulled = 0u64;
        for round in 0..rounds {
            let part = |ask: &[u64]| -> Vec<u64> {
                let from = ((round * share) as usize).min(ask.len());
                let to = (from + share as usize).min(ask.len());
                ask[from..to].to_vec()
            };
            pulled += self.fetch(passes, asks.iter().map(|a| part(a)).collect())?;
        }
        self.pass_records += pulled;
        Ok(())
    }
}

impl Cluster<'_> {
    /// Records a rank asks of each other rank in one round: [`ROUND_POSITIONS`] in all, so
    /// that a round's buffers stay the same size however many ranks there are.
    fn share(&self) -> u64 {
        (ROUND_POSITIONS / self.size() as u64).max(1)
    }

    /// Before this rank solves `window` (its slice of a cut tier, or a window of it): borrow
    /// from their owners the records of the child tiers that its positions reach and that
    /// this rank does not hold (`tier`: the cut tier, of which this rank has written
    /// `written` records; `children`: each child tier's indices with the parts the ranks hold
    /// of it, by rank): those `listed`, in order (few, over a large range), else those found
    /// by playing the window's moves, marked by bit; refused when the rank would then hold
    /// more than `limit` bytes. They stay until
    /// [`Table::give_back`](super::table::Table::give_back). Every rank calls it together.
    /// Returns the records borrowed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn borrow_children<G: IndexedGame + Sync>(
        &mut self,
        passes: &mut Passes<'_, G>,
        tier: &Range<u64>,
        written: u64,
        window: &Range<u64>,
        children: &[(Range<u64>, Vec<Range<u64>>)],
        listed: Option<Vec<u64>>,
        limit: u64,
    ) -> Result<u64, EngineError> {
        // What this rank holds: its pages written (of the tier in progress, what it solved).
        let held = passes
            .table
            .held()
            .saturating_sub(tier.end - tier.start - written);
        let ranges: Vec<Range<u64>> = children.iter().map(|(r, _)| r.clone()).collect();
        let mut reached = Vec::new();
        let needed = if let Some(found) = &listed {
            // An index and a record.
            (held + found.len() as u64 * 5) * super::BYTES_PER_POSITION
        } else {
            for range in &ranges {
                if !passes.table.holds_all(range) {
                    reached.push((range.clone(), bitmap(range.end - range.start)?));
                }
            }
            passes.reached_elsewhere(window, &reached)?;
            let bitmaps: u64 = reached.iter().map(|(_, bits)| bits.len() as u64 * 8).sum();
            let to_borrow: u64 = reached
                .iter()
                .flat_map(|(_, bits)| bits.iter())
                .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
                .sum();
            (held + to_borrow) * super::BYTES_PER_POSITION + bitmaps
        };
        // Refused by every rank together.
        let over = self.max(needed)?;
        if over > limit {
            return Err(EngineError::OverMemory {
                needed: over,
                limit,
                indices: passes.table.len(),
            });
        }
        if let Some(found) = listed {
            passes.table.borrow_listed(found)?;
        }
        for (range, bits) in reached {
            passes.table.borrow(&range, bits)?;
        }
        let passes = &*passes;
        let mut borrowed = 0u64;
        let share = self.share() as usize;
        // Every part of every child tier, with its owner, in index order.
        let mut parts: Vec<(usize, &Range<u64>)> = children
            .iter()
            .flat_map(|(_, parts)| parts.iter().enumerate())
            .filter(|(_, part)| !part.is_empty())
            .collect();
        parts.sort_by_key(|(_, part)| part.start);
        let mut owners: Vec<_> = parts
            .iter()
            .map(|&(owner, part)| (owner, passes.table.borrowed_in(part).peekable()))
            .collect();
        loop {
            let mut asks = vec![Vec::new(); self.size()];
            for (owner, indices) in &mut owners {
                let room = share.saturating_sub(asks[*owner].len());
                asks[*owner].extend(indices.by_ref().take(room));
            }
            borrowed += self.fetch(passes, asks)?;
            let more = owners
                .iter_mut()
                .any(|(_, indices)| indices.peek().is_some());
            if !self.any(more)? {
                break;
            }
        }
        self.child_records += borrowed;
        Ok(borrowed)
    }

    /// One round of asking: `asks[r]` the indices this rank wants of rank `r`, which answers
    /// with its records there; they are stored in this rank's cells for them (held or
    /// borrowed). Every rank calls it together. Returns the records received.
    fn fetch<G: IndexedGame + Sync>(
        &mut self,
        passes: &Passes<'_, G>,
        asks: Vec<Vec<u64>>,
    ) -> Result<u64, EngineError> {
        // Each outbox starts with its count, so that the owner can answer each rank.
        let outboxes: Vec<Vec<u64>> = asks
            .iter()
            .map(|ask| {
                let mut outbox = Vec::with_capacity(ask.len() + 1);
                outbox.push(ask.len() as u64);
                outbox.extend(ask);
                outbox
            })
            .collect();
        let asked = self.exchange.all_to_all(&outboxes)?;
        let mut answers: Vec<Vec<u64>> = Vec::with_capacity(asks.len());
        let mut at = 0usize;
        for _ in &asks {
            let count = *asked.get(at).ok_or_else(short_message)? as usize;
            let indices = asked
                .get(at + 1..at + 1 + count)
                .ok_or_else(short_message)?;
            answers.push(
                indices
                    .iter()
                    .map(|&i| u64::from(passes.load(i as usize).bits()))
                    .collect(),
            );
            at += 1 + count;
        }
        let answered = self.exchange.all_to_all(&answers)?;
        let mut at = 0usize;
        let mut received = 0u64;
        for indices in &asks {
            let records = answered
                .get(at..at + indices.len())
                .ok_or_else(short_message)?;
            for (&index, &bits) in indices.iter().zip(records) {
                passes.store(index as usize, Record::from_bits(bits as u16));
            }
            at += indices.len();
            received += indices.len() as u64;
        }
        Ok(received)
    }

    /// Send every rank the records of `slices` (each rank's own, in pieces); the ranks keep
    /// what the others sent when `keep` is set for them, and otherwise leave their cells
    /// (and pages) untouched.
    pub(super) fn share_parts<G: IndexedGame + Sync>(
        &mut self,
        passes: &Passes<'_, G>,
        slices: &[Range<u64>],
        keep: bool,
    ) -> Result<(), EngineError> {
        let longest = slices.iter().map(|s| s.end - s.start).max().unwrap_or(0);
        let rounds = longest.div_ceil(PIECE_RECORDS);
        let piece = |slice: &Range<u64>, round: u64| {
            let from = (slice.start + round * PIECE_RECORDS).min(slice.end);
            from..(from + PIECE_RECORDS).min(slice.end)
        };
        let rank = self.exchange.rank();
        for round in 0..rounds {
            let mine: Vec<u16> = passes
                .cells(&piece(&slices[rank], round))
                .iter()
                .map(|c| c.load(Ordering::Relaxed))
                .collect();
            let all = self.exchange.all_gather(&mine)?;
            let mut at = 0usize;
            for (r, slice) in slices.iter().enumerate() {
                let part = piece(slice, round);
                let len = (part.end - part.start) as usize;
                let received = all.get(at..at + len).ok_or_else(|| {
                    EngineError::Exchange(String::from("a rank sent fewer records than its slice"))
                })?;
                if r != rank && keep {
                    for (cell, &bits) in passes.cells(&part).iter().zip(received) {
                        cell.store(bits, Ordering::Relaxed);
                    }
                }
                at += len;
            }
        }
        Ok(())
    }
}

/// What a rank's part of a distributed solve ends with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DistributedSolve {
    /// Positions of the whole table (every rank's).
    pub positions: u64,
    /// Levels and passes run (this rank's count).
    pub passes: u32,
    /// Whether the solve went on from the ranks' checkpoints.
    pub resumed: bool,
    /// Positions the checkpoints had solved (every rank's).
    pub already_solved: u64,
    /// The messages and bytes of each level of retrograde analysis, every rank's together.
    pub traffic: Vec<LevelTraffic>,
    /// Waves of the schedule: groups of tiers solved side by side ([`Schedule`]).
    pub waves: u64,
    /// Tiers cut into one slice per rank.
    pub tiers_split: u64,
    /// Records the ranks received from each other for the passes over cut tiers whose moves
    /// may stay in them (every rank's): the open ones their moves reach in other slices.
    pub pass_records_shared: u64,
    /// Records of child tiers the ranks borrowed from each other to solve their slices of cut
    /// tiers (every rank's): those their moves reach in parts they do not hold.
    pub child_records_borrowed: u64,
    /// Tiers solved whole by one rank.
    pub tiers_whole: u64,
    /// Cells this rank holds at the end: its own parts of the tiers (every tier it read is
    /// cut down to them once read), which rank 0 gathers into the database.
    pub held_records: u64,
    /// The database's size in bytes (on rank 0; 0 elsewhere).
    pub database_bytes: u64,
}

/// Bytes one rank of `size` takes at most to solve `game` as the command line runs it, each
/// rank with its checkpoint: the tiers it is reading and solving ([`Schedule::rank_records`]:
/// a one-tier game's slice, about `1/N` of the table; a chain of tiers the two tiers in play),
/// and the side table of its largest part of a tier solved by retrograde analysis. Its own
/// parts of the finished tiers go to its checkpoint and are read back for the database.
/// When the child tiers of a cut tier, read whole by every rank, would not fit
/// `options.memory_limit` (or every tier is left by every move: then borrowing is faster
/// too), the ranks borrow what their slices reach of them instead: then the figure is what
/// a rank holds before it borrows, and the records borrowed are checked against the limit
/// as each slice finds them.
#[must_use]
pub fn rank_bytes<G: IndexedGame>(game: &G, options: &Options, size: usize) -> u64 {
    plan(game, options, size, true).1
}

/// Whether the ranks borrow from the child tiers of a cut tier (see [`rank_bytes`]), and the
/// bytes a rank takes that way; the finished parts kept in memory unless `saved` (to a
/// checkpoint).
fn plan<G: IndexedGame>(game: &G, options: &Options, size: usize, saved: bool) -> (bool, u64) {
    let gathered = rank_bytes_reading(game, options, size, saved, false);
    // A game whose every tier is left by every move and solved by passes borrows window by
    // window, playing each move once: faster than reading the child tiers whole, and
    // leaner (Connect Four 6 x 4 on 8 ranks: 26.5 s and 60 MB a rank against 30.9 s and
    // 121 MB).
    let windowed = size > 1
        && !(options.retrograde && game.has_unmoves())
        && (0..game.tier_count()).all(|tier| game.moves_leave_tier(tier));
    if gathered <= options.memory_limit && !windowed {
        return (false, gathered);
    }
    let borrowed = rank_bytes_reading(game, options, size, saved, true);
    if borrowed < gathered {
        (true, borrowed)
    } else {
        (false, gathered)
    }
}

/// [`rank_bytes`], the child tiers of cut tiers borrowed from when `borrow`.
fn rank_bytes_reading<G: IndexedGame>(
    game: &G,
    options: &Options,
    size: usize,
    saved: bool,
    borrow: bool,
) -> u64 {
    let size = size.max(1);
    let retrograde = options.retrograde && game.has_unmoves();
    let Ok(tiers) = tiers(game) else {
        return super::solve_bytes(game, options);
    };
    let Ok(schedule) = Schedule::new(game, &tiers, size, borrow) else {
        return super::solve_bytes(game, options);
    };
    (0..size)
        .map(|rank| {
            let side = schedule
                .waves
                .iter()
                .flatten()
                .map(|p| {
                    let part = &schedule.parts(p.assignment, &tiers[p.tier as usize])[rank];
                    part.end - part.start
                })
                .max()
                .unwrap_or(0);
            let side = if retrograde {
                side.saturating_mul(RETROGRADE_BYTES_PER_POSITION)
            } else {
                0
            };
            schedule
                .rank_records(
                    &tiers,
                    rank,
                    |tier| !retrograde && !game.moves_leave_tier(tier),
                    saved,
                )
                .saturating_mul(super::BYTES_PER_POSITION)
                .saturating_add(side)
        })
        .max()
        .unwrap_or(0)
}

/// This rank's part of the solve of `game` over the ranks of `exchange`, writing the
/// database at `path` (rank 0 writes it; `header` with its `positions` filled in here).
/// Every rank calls it with the same game and options, and its own checkpoint (see the
/// module); `on_pass` reports this rank's progress.
///
/// # Errors
/// As [`super::solve`], per rank; [`EngineError::Exchange`] when the ranks fell out of step
/// or one of them left.
pub fn solve_distributed<G: IndexedGame + Sync>(
    game: &G,
    options: &Options,
    exchange: &mut dyn Exchange,
    path: &Path,
    header: &Header,
    checkpoint: Option<&mut Checkpoint>,
    on_pass: &(dyn Fn(&Progress) + Sync),
) -> Result<DistributedSolve, EngineError> {
    solve_on_ranks(
        game, options, exchange, path, header, checkpoint, on_pass, None,
    )
}

/// [`solve_distributed`], the ranks borrowing from child tiers or not as `force_borrow`
/// says (else as [`rank_bytes`] decides).
#[allow(clippy::too_many_arguments)]
fn solve_on_ranks<G: IndexedGame + Sync>(
    game: &G,
    options: &Options,
    exchange: &mut dyn Exchange,
    path: &Path,
    header: &Header,
    mut checkpoint: Option<&mut Checkpoint>,
    on_pass: &(dyn Fn(&Progress) + Sync),
    force_borrow: Option<bool>,
) -> Result<DistributedSolve, EngineError> {
    let count = game.index_count();
    let (rank, size) = (exchange.rank(), exchange.size());
    // The same figure on every rank, so that all refuse together (all have a checkpoint or
    // none has: a rank without one would keep its finished parts).
    let saved = exchange.all_reduce(u64::from(checkpoint.is_some()), Reduce::Min)? != 0;
    let (borrow, needed) = plan(game, options, size, saved);
    let borrow = force_borrow.unwrap_or(borrow);
    if needed > options.memory_limit || usize::try_from(count).is_err() {
        return Err(EngineError::OverMemory {
            needed,
            limit: options.memory_limit,
            indices: count,
        });
    }
    let tiers = tiers(game)?;
    let schedule = Schedule::new(game, &tiers, size, borrow)?;
    // The exchange stays on this thread (an MPI communicator may not move), so the work runs
    // on rayon's global pool, sized here unless it was built already.
    if options.threads != 0 {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .build_global();
    }
    let mut passes = Passes::new(game, count, options, false)?;
    let mut cluster = Some(Cluster {
        exchange,
        slices: Vec::new(),
        tier: 0,
        traffic: Vec::new(),
        pass_records: 0,
        child_records: 0,
    });
    let mut result = DistributedSolve {
        waves: schedule.waves.len() as u64,
        ..DistributedSolve::default()
    };
    // What this rank finished before: its slices of the split tiers, its whole tiers.
    let finished = checkpoint
        .as_mut()
        .map(|c| std::mem::take(&mut c.finished))
        .unwrap_or_default();
    let saved_part = |tier: u64| {
        finished
            .iter()
            .find(|(f, _)| *f == tier)
            .map(|(_, r)| r.as_slice())
    };
    // The split tiers every rank finished (they are solved together, in this order).
    let split_order = schedule.split_tiers();
    let here = split_order
        .iter()
        .take_while(|&&t| saved_part(t).is_some())
        .count();
    let agreed = with(&mut cluster, |c| {
        c.exchange.all_reduce(here as u64, Reduce::Min)
    })? as usize;
    let by_tier = schedule.by_tier();
    let mine_whole = |tier: u64| {
        by_tier
            .get(tier as usize)
            .copied()
            .flatten()
            .is_some_and(|p| p.assignment == Assignment::Whole(rank))
    };
    // A tier in progress that this rank solves alone goes on from its level by itself; one
    // cut into slices only when every rank saved the same level of it.
    let saved = checkpoint.as_mut().and_then(|c| c.in_progress.take());
    let (mut alone_in_progress, saved) = match saved {
        Some(s) if mine_whole(s.tier) => (Some(s), None),
        other => (None, other),
    };
    let key = saved
        .as_ref()
        .filter(|s| split_order.get(agreed) == Some(&s.tier))
        .map_or(0, |s| ((s.tier + 1) << 32) | u64::from(s.level));
    let lowest = with(&mut cluster, |c| c.exchange.all_reduce(key, Reduce::Min))?;
    let highest = with(&mut cluster, |c| c.exchange.all_reduce(key, Reduce::Max))?;
    let mut in_progress = saved.filter(|_| lowest == highest && lowest != 0);
    let mut indices_solved = 0;
    let mut solve_waves = || -> Result<(), EngineError> {
        for (now, wave) in schedule.waves.iter().enumerate() {
            for placement in wave {
                let tier = placement.tier;
                let range = &tiers[tier as usize];
                let alone = match placement.assignment {
                    Assignment::Split => false,
                    Assignment::Whole(owner) if owner == rank => true,
                    Assignment::Whole(_) => continue,
                };
                // The whole tier, though a rank writes only its slice: the passes gather it.
                passes.table.hold(range)?;
                let slice = if alone {
                    result.tiers_whole += 1;
                    range.clone()
                } else {
                    result.tiers_split += 1;
                    with(&mut cluster, |c| {
                        c.slices = split(range, size);
                        c.tier = tier;
                        Ok(c.slice())
                    })?
                };
                let agreed_done = split_order.iter().position(|&t| t == tier) < Some(agreed);
                if let Some(records) = saved_part(tier).filter(|_| alone || agreed_done) {
                    restore(passes.cells(&slice), records, &format!("tier {tier}"))?;
                    let positions = records.iter().filter(|r| !r.is_hole()).count() as u64;
                    result.positions += positions;
                    result.already_solved += positions;
                    result.resumed = true;
                    indices_solved += range.end - range.start;
                    continue;
                }
                let job = TierJob {
                    tier,
                    range,
                    indices_solved,
                };
                // The child tiers' parts, when this rank borrows from them.
                let mut children: Vec<(Range<u64>, Vec<Range<u64>>)> = Vec::new();
                if !alone && schedule.borrow {
                    children = game
                        .tier_children(tier)
                        .into_iter()
                        .filter_map(|child| {
                            let placement = by_tier.get(child as usize).copied().flatten()?;
                            let range = tiers[child as usize].clone();
                            let parts = schedule.parts(placement.assignment, &range);
                            Some((range, parts))
                        })
                        .collect();
                    children.sort_by_key(|(range, _)| range.start);
                }
                // A tier every move leaves, solved by passes, is decided window by window,
                // each move played once, each window's borrowed records let go of before the
                // next: a rank's borrowed records then stay within a window's, however large
                // the tier.
                let windowed = !alone
                    && schedule.borrow
                    && game.moves_leave_tier(tier)
                    && !(options.retrograde && game.has_unmoves());
                if windowed {
                    // Every rank takes as many windows as the longest slice has.
                    let longest = split(range, size)
                        .iter()
                        .map(|s| s.end - s.start)
                        .max()
                        .unwrap_or(0);
                    let window_of = |slice: &Range<u64>, window: u64| {
                        let from = (slice.start + window * WINDOW_POSITIONS).min(slice.end);
                        from..(from + WINDOW_POSITIONS).min(slice.end)
                    };
                    let ranges: Vec<Range<u64>> = children.iter().map(|(r, _)| r.clone()).collect();
                    let windows = longest.div_ceil(WINDOW_POSITIONS);
                    let mut positions = 0;
                    for window in 0..windows {
                        let mine = window_of(&slice, window);
                        // The moves played once: the borrowed records found, then decided.
                        let (played, elsewhere) = passes.play_window(&mine, &ranges)?;
                        with(&mut cluster, |c| {
                            let written = mine.end - slice.start;
                            c.borrow_children(
                                &mut passes,
                                range,
                                written,
                                &mine,
                                &children,
                                Some(elsewhere),
                                options.memory_limit,
                            )
                        })?;
                        positions += passes.decide_window(range, &played)?;
                        passes.table.give_back();
                        on_pass(&passes.progress(tier, 1, window as u32 + 1, indices_solved));
                    }
                    result.positions += positions;
                    result.passes += 1;
                    if let Some(checkpoint) = checkpoint.as_mut() {
                        checkpoint.save(tier, snapshot(passes.cells(&slice)))?;
                    }
                    indices_solved += range.end - range.start;
                    continue;
                }
                if !children.is_empty() {
                    // The records of the child tiers this slice reaches in other ranks' parts.
                    let written = slice.end - slice.start;
                    with(&mut cluster, |c| {
                        c.borrow_children(
                            &mut passes,
                            range,
                            written,
                            &slice,
                            &children,
                            None,
                            options.memory_limit,
                        )
                    })?;
                }
                let cells = passes.cells(&slice);
                let done = if alone {
                    let saved = alone_in_progress.take_if(|s| s.tier == tier);
                    result.resumed |= saved.is_some();
                    passes.solve_tier_alone(&job, saved, checkpoint.as_deref_mut(), on_pass)?
                } else {
                    let mut resume = None;
                    if let Some(saved) = in_progress.take_if(|s| s.tier == tier) {
                        let len = cells.len();
                        let (records, side) = saved.records.split_at(len.min(saved.records.len()));
                        restore(cells, records, "the tier in progress")?;
                        let pending = side
                            .chunks_exact(2)
                            .map(|pair| u32::from(pair[0].bits()) | u32::from(pair[1].bits()) << 16)
                            .collect();
                        result.resumed = true;
                        resume = Some(ResumeFrom::Restore {
                            resume: Resume {
                                level: saved.level,
                                ties: saved.ties,
                            },
                            pending,
                        });
                    }
                    let mut on_level = |level: u32,
                                        ties: bool,
                                        pending: &[AtomicU32],
                                        cluster: &mut Option<Cluster<'_>>|
                     -> Result<(), EngineError> {
                        let due = checkpoint.as_ref().is_some_and(|c| c.level_due());
                        let due = with(cluster, |c| c.any(due))?;
                        if due && let Some(checkpoint) = checkpoint.as_mut() {
                            // The records, then the side table as pairs of 16-bit halves.
                            let side = pending.iter().flat_map(|p| {
                                let p = p.load(Ordering::Relaxed);
                                [
                                    Record::from_bits(p as u16),
                                    Record::from_bits((p >> 16) as u16),
                                ]
                            });
                            checkpoint.stage_level(
                                tier,
                                level,
                                ties,
                                snapshot(cells).chain(side),
                            )?;
                        }
                        if due {
                            // Every rank has written the level before any puts it in place:
                            // a rank killed while writing leaves all ranks' last levels the
                            // same.
                            with(cluster, |c| c.any(false))?;
                            if let Some(checkpoint) = checkpoint.as_mut() {
                                checkpoint.commit_level()?;
                            }
                        }
                        on_pass(&passes.progress(tier, 1, level, indices_solved));
                        Ok(())
                    };
                    passes.solve_tier(&job, &mut cluster, resume, &mut on_level, on_pass)?
                };
                result.positions += done.positions;
                result.already_solved += done.restored;
                result.passes += done.passes;
                if let Some(checkpoint) = checkpoint.as_mut() {
                    checkpoint.save(tier, snapshot(cells))?;
                }
                passes.table.give_back();
                indices_solved += range.end - range.start;
            }
            // The tiers this wave read last: each rank keeps its own part of them, for the
            // database, or none when its checkpoint has it (read back at the end), unless
            // the solve is over.
            let spill = checkpoint.is_some() && now + 1 < schedule.waves.len();
            let own = |p: &Placement| {
                let range = &tiers[p.tier as usize];
                if spill {
                    range.start..range.start
                } else {
                    schedule.parts(p.assignment, range)[rank].clone()
                }
            };
            for placement in schedule.waves[..now].iter().flatten() {
                if placement.last_read == Some(now) {
                    let range = &tiers[placement.tier as usize];
                    passes.table.keep_only(range, &own(placement))?;
                }
            }
            // The wave's tiers go to the ranks that read them.
            for placement in wave.iter().filter(|p| p.readers.contains(&true)) {
                let keep = placement.readers[rank];
                if keep {
                    passes.table.hold(&tiers[placement.tier as usize])?;
                }
                let parts = schedule.parts(placement.assignment, &tiers[placement.tier as usize]);
                with(&mut cluster, |c| c.share_parts(&passes, &parts, keep))?;
            }
            for placement in wave.iter().filter(|p| p.last_read.is_none()) {
                let range = &tiers[placement.tier as usize];
                passes.table.keep_only(range, &own(placement))?;
            }
            // A tier read later but not whole here: this rank keeps its own part, which the
            // others borrow from.
            for placement in wave
                .iter()
                .filter(|p| p.last_read.is_some() && !p.readers[rank])
            {
                let range = &tiers[placement.tier as usize];
                let part = &schedule.parts(placement.assignment, range)[rank];
                passes.table.keep_only(range, part)?;
            }
        }
        Ok(())
    };
    solve_waves()?;
    let mut cluster = cluster.ok_or_else(|| EngineError::Exchange("no cluster".into()))?;
    let sum = |exchange: &mut dyn Exchange, value: u64| exchange.all_reduce(value, Reduce::Sum);
    result.positions = sum(cluster.exchange, result.positions)?;
    result.already_solved = sum(cluster.exchange, result.already_solved)?;
    result.tiers_whole = sum(cluster.exchange, result.tiers_whole)?;
    result.tiers_split = split_order.len() as u64;
    result.held_records = passes.table.held();
    result.resumed = cluster
        .exchange
        .all_reduce(u64::from(result.resumed), Reduce::Max)?
        != 0;
    result.traffic = std::mem::take(&mut cluster.traffic);
    result.pass_records_shared = sum(cluster.exchange, cluster.pass_records)?;
    result.child_records_borrowed = sum(cluster.exchange, cluster.child_records)?;
    let header = Header {
        positions: result.positions,
        ..header.clone()
    };
    result.database_bytes = write_gathered(
        &passes,
        &tiers,
        &schedule,
        checkpoint.as_deref(),
        cluster.exchange,
        path,
        &header,
    )?;
    Ok(result)
}

/// Run `f` on the cluster (always there in a distributed solve).
fn with<T>(
    cluster: &mut Option<Cluster<'_>>,
    f: impl FnOnce(&mut Cluster<'_>) -> Result<T, EngineError>,
) -> Result<T, EngineError> {
    match cluster.as_mut() {
        Some(c) => f(c),
        None => Err(EngineError::Exchange(String::from("no cluster"))),
    }
}

/// Rank 0 writes the database from every rank's parts, gathered in index order (a part no
/// longer held read back from the rank's checkpoint).
fn write_gathered<G: IndexedGame + Sync>(
    passes: &Passes<'_, G>,
    tiers: &[Range<u64>],
    schedule: &Schedule,
    checkpoint: Option<&Checkpoint>,
    exchange: &mut dyn Exchange,
    path: &Path,
    header: &Header,
) -> Result<u64, EngineError> {
    let rank = exchange.rank();
    let mut writer = (rank == 0).then(|| Writer::new(path, header));
    let by_tier = schedule.by_tier();
    let mut by_index: Vec<(usize, &Range<u64>)> = tiers.iter().enumerate().collect();
    by_index.sort_by_key(|(_, r)| r.start);
    for (tier, range) in by_index {
        let assignment = by_tier
            .get(tier)
            .copied()
            .flatten()
            .map_or(Assignment::Split, |p| p.assignment);
        for (owner, slice) in schedule.parts(assignment, range).iter().enumerate() {
            // This rank's part, when it let go of it once saved: read back.
            let saved = if owner == rank
                && !slice.is_empty()
                && passes.table.get(slice.start).is_none()
            {
                let records = match checkpoint {
                    Some(c) => c.read_saved(tier as u64)?,
                    None => None,
                };
                let records = records
                    .filter(|r| r.len() as u64 == slice.end - slice.start)
                    .ok_or_else(|| EngineError::Database {
                        path: String::from("the checkpoint"),
                        why: format!("this rank's part of tier {tier} is neither held nor saved"),
                    })?;
                Some(records)
            } else {
                None
            };
            let mut from = slice.start;
            while from < slice.end {
                let to = (from + PIECE_RECORDS).min(slice.end);
                let mine: Vec<u16> = match (&saved, owner == rank) {
                    (Some(records), _) => records
                        [(from - slice.start) as usize..(to - slice.start) as usize]
                        .iter()
                        .map(|r| r.bits())
                        .collect(),
                    (None, true) => passes
                        .cells(&(from..to))
                        .iter()
                        .map(|c| c.load(Ordering::Relaxed))
                        .collect(),
                    (None, false) => Vec::new(),
                };
                let got = exchange.gather(&mine)?;
                if let Some(writer) = writer.as_mut() {
                    let records: Vec<Record> = got.into_iter().map(Record::from_bits).collect();
                    if records.len() as u64 != to - from {
                        return Err(EngineError::Exchange(format!(
                            "rank {owner} sent {} records of {}",
                            records.len(),
                            to - from
                        )));
                    }
                    writer.push(&records)?;
                }
                from = to;
            }
        }
    }
    match writer {
        Some(writer) => writer.finish(),
        None => Ok(0),
    }
}
