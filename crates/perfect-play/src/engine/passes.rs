//! The table being filled and the forward passes over it: what the tier drivers
//! ([`super::solve`] on one machine, [`super::distributed`] across ranks) and retrograde
//! analysis ([`super::retrograde`]) share. It uses neither: what a solve needs of the other
//! ranks is the [`Peers`] trait, which the cluster implements above it.

use super::table::Table;
use super::{EngineError, IndexedGame, MAX_REMOTENESS, Options, Record};
use crate::game::{Ending, Transition};
use crate::player::Outcome;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};

/// What solving a slice of a tier needs of the ranks that hold the other slices: agreement
/// on flags and numbers, messages each way, and the records of other slices before a pass.
/// One process alone has no peers ([`Alone`]).
pub(super) trait Peers {
    /// Ranks in all.
    fn size(&self) -> usize;
    /// Every rank's slice of the current tier, by rank.
    fn slices(&self) -> &[Range<u64>];
    /// This rank's slice of the current tier.
    fn slice(&self) -> Range<u64>;
    /// Whether `here` holds on some rank.
    fn any(&mut self, here: bool) -> Result<bool, EngineError>;
    /// The largest of the ranks' numbers.
    fn max(&mut self, here: u64) -> Result<u64, EngineError>;
    /// A pass's result over every slice.
    fn combine(&mut self, here: PassResult) -> Result<PassResult, EngineError>;
    /// Send `outboxes[r]` to rank `r`; returns what every rank sent this one, in rank order.
    fn all_to_all(&mut self, outboxes: &[Vec<u64>]) -> Result<Vec<u64>, EngineError>;
    /// Record a level's traffic of retrograde analysis, summed over the ranks.
    fn count_traffic(&mut self, level: u32, messages: u64, bytes: u64) -> Result<(), EngineError>;
    /// Before a pass over this rank's slice of tier `range`: bring in the records of other
    /// slices its open positions reach (`waiting`: as the last pass found them).
    fn pull<G: IndexedGame + Sync>(
        &mut self,
        passes: &Passes<'_, G>,
        range: &Range<u64>,
        waiting: Option<Vec<u64>>,
    ) -> Result<(), EngineError>;
}

/// No peers: a process that solves every tier whole. It has no values, so an
/// `Option<Alone>` is always `None` and its methods are never called.
pub(super) enum Alone {}

impl Peers for Alone {
    fn size(&self) -> usize {
        match *self {}
    }
    fn slices(&self) -> &[Range<u64>] {
        match *self {}
    }
    fn slice(&self) -> Range<u64> {
        match *self {}
    }
    fn any(&mut self, _: bool) -> Result<bool, EngineError> {
        match *self {}
    }
    fn max(&mut self, _: u64) -> Result<u64, EngineError> {
        match *self {}
    }
    fn combine(&mut self, _: PassResult) -> Result<PassResult, EngineError> {
        match *self {}
    }
    fn all_to_all(&mut self, _: &[Vec<u64>]) -> Result<Vec<u64>, EngineError> {
        match *self {}
    }
    fn count_traffic(&mut self, _: u32, _: u64, _: u64) -> Result<(), EngineError> {
        match *self {}
    }
    fn pull<G: IndexedGame + Sync>(
        &mut self,
        _: &Passes<'_, G>,
        _: &Range<u64>,
        _: Option<Vec<u64>>,
    ) -> Result<(), EngineError> {
        match *self {}
    }
}

/// What a pass reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The tier being solved.
    pub tier: u64,
    /// 1 while wins and losses are found, 2 while ties among the open positions are.
    pub round: u8,
    /// The pass within the round.
    pub pass: u32,
    /// Positions decided by this run so far (win, loss, tie or draw).
    pub decided: u64,
    /// Indices in the tiers finished so far.
    pub indices_solved: u64,
    /// Indices in the game.
    pub indices: u64,
}

/// The mover's view of a child's record.
pub(super) fn for_mover(child: Record) -> Record {
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

/// What the known results of a position's moves offer the mover, each one move short.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Known {
    pub(super) nearest_win: Option<u32>,
    pub(super) nearest_tie: Option<u32>,
    pub(super) farthest_loss: Option<u32>,
    pub(super) draw: bool,
}

impl Known {
    /// Take in one move's result for the mover.
    pub(super) fn add(&mut self, seen: Record) {
        let r = seen.remoteness().unwrap_or(0);
        match seen.outcome() {
            Some(Outcome::Win) => self.nearest_win = Some(self.nearest_win.map_or(r, |w| w.min(r))),
            Some(Outcome::Tie) => self.nearest_tie = Some(self.nearest_tie.map_or(r, |t| t.min(r))),
            Some(Outcome::Draw) => self.draw = true,
            _ => self.farthest_loss = Some(self.farthest_loss.map_or(r, |l| l.max(r))),
        }
    }
}

/// An ending's record for the player it concerns, as a position with remoteness 0.
pub(super) fn ending_record(ending: Ending) -> Record {
    let outcome = match ending.score().signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ => Outcome::Tie,
    };
    Record::new(outcome, 0).unwrap_or(Record::DRAW)
}

/// A move into a tier not solved yet: the tiers are not in the order moves take.
pub(super) fn earlier_tier(from: usize, to: u64) -> EngineError {
    EngineError::BadIndex {
        from: from as u64,
        to,
        why: "in an earlier tier, not solved yet",
    }
}

/// Where a move leads, for the solver.
pub(super) enum Child {
    /// The move ends the game: its record for the mover.
    Ended(Record),
    /// The index of the position the opponent faces, and its record now.
    At(u64, Record),
}

/// The table being filled, shared by the worker threads.
pub(super) struct Passes<'a, G> {
    pub(super) game: &'a G,
    /// Whether to use the game's un-moves (see [`super::Options::retrograde`]).
    pub(super) retrograde: bool,
    /// Whether to solve one position per class of the game's symmetries.
    pub(super) symmetric: bool,
    pub(super) table: Table,
    pub(super) decided: AtomicU64,
    /// Checked once a chunk of positions: a raised flag ends the solve.
    pub(super) cancel: crate::budget::Cancel,
}

/// Indices a worker takes at a time.
pub(super) const CHUNK: usize = 4096;

/// The moves of a chunk of a window, played once ([`Passes::play_window`]).
pub(super) struct MovesChunk {
    /// The chunk's first index.
    start: usize,
    /// By index: a hole, the record of a position without moves, or open (decided from its
    /// moves).
    ends: Vec<Record>,
    /// By index, where its moves start in `moves` (one more at the end).
    first: Vec<u32>,
    moves: Vec<Reached>,
    /// Indices reached that this rank neither holds nor borrowed.
    elsewhere: Vec<u64>,
}

/// Where a move leads, in one word: the index reached, or with [`Reached::ENDED`] set the
/// end of the game, its record for the mover in the low bits.
#[derive(Clone, Copy)]
struct Reached(u64);

impl Reached {
    const ENDED: u64 = 1 << 63;

    fn ended(record: Record) -> Reached {
        Reached(Reached::ENDED | u64::from(record.bits()))
    }
}

/// What one pass did.
pub(super) struct PassResult {
    /// Positions decided.
    pub(super) changed: u64,
    /// Whether some position waited for a result decided too early in the pass to be used
    /// (another pass will use it).
    pub(super) blocked: bool,
}

impl PassResult {
    fn merge(self, other: PassResult) -> PassResult {
        PassResult {
            changed: self.changed + other.changed,
            blocked: self.blocked || other.blocked,
        }
    }
}

/// Where a pass is: the tier it passes over, its round (1: wins, losses and draws; 2: ties)
/// and number, and whether moves may stay in the tier.
#[derive(Clone, Copy)]
struct PassAt<'r> {
    tier: &'r Range<u64>,
    round: u8,
    pass: u32,
    stays: bool,
}

/// One tier to solve: its number, its indices, and the indices of the tiers finished before
/// it (for the progress reports).
pub(super) struct TierJob<'r> {
    pub(super) tier: u64,
    pub(super) range: &'r Range<u64>,
    pub(super) indices_solved: u64,
}

/// What solving a tier (this process's slice of it) found.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TierDone {
    /// Positions of the slice.
    pub(super) positions: u64,
    /// Of them, decided already in the records restored from a checkpoint.
    pub(super) restored: u64,
    /// Levels and passes run.
    pub(super) passes: u32,
}

/// Put a checkpoint's records of a tier (`what`, for the error) back in its cells.
pub(super) fn restore(
    cells: &[AtomicU16],
    records: &[Record],
    what: &str,
) -> Result<(), EngineError> {
    if records.len() != cells.len() {
        return Err(EngineError::Database {
            path: String::from("the checkpoint"),
            why: format!(
                "{what} has {} records there and {} in this game: a checkpoint of another game",
                records.len(),
                cells.len()
            ),
        });
    }
    for (cell, record) in cells.iter().zip(records) {
        cell.store(record.bits(), Ordering::Relaxed);
    }
    Ok(())
}

/// The records of a tier's cells as they stand, for a checkpoint.
pub(super) fn snapshot(cells: &[AtomicU16]) -> impl Iterator<Item = Record> + '_ {
    cells
        .iter()
        .map(|c| Record::from_bits(c.load(Ordering::Relaxed)))
}

impl<'a, G: IndexedGame + Sync> Passes<'a, G> {
    /// The table of `game`'s `count` indices: every cell held when `whole` (one process),
    /// else none until the solve holds them ([`Table::hold`]: a rank of a distributed solve).
    pub(super) fn new(
        game: &'a G,
        count: u64,
        options: &Options,
        whole: bool,
    ) -> Result<Passes<'a, G>, EngineError> {
        // Sized by the game: asked of the system first, so that a refusal is an error and not
        // an abort. Zeroed memory is every record open, and the system hands it out page by
        // page as it is written.
        let table = if whole {
            Table::whole(count)?
        } else {
            Table::sparse(count)
        };
        Ok(Passes {
            game,
            retrograde: options.retrograde,
            symmetric: options.symmetries && game.has_symmetries(),
            table,
            decided: AtomicU64::new(0),
            cancel: options.cancel.clone(),
        })
    }

    /// The position the solve works on at `index`: `None` for a hole, and with symmetries
    /// for a position that is not its class's canonical one (left a hole too).
    pub(super) fn position(&self, index: usize) -> Option<G::Position> {
        let position = self.game.position(index as u64)?;
        if self.symmetric && self.game.canonical(&position) != position {
            return None;
        }
        Some(position)
    }

    /// The index of the record that holds `position`'s value.
    pub(super) fn index_of(&self, position: &G::Position) -> u64 {
        if self.symmetric {
            super::table_index(self.game, position)
        } else {
            self.game.index(position)
        }
    }

    /// The record at `index`: open where this rank holds no cell for it.
    pub(super) fn load(&self, index: usize) -> Record {
        self.table.get(index as u64).map_or(Record::OPEN, |cell| {
            Record::from_bits(cell.load(Ordering::Relaxed))
        })
    }

    /// Write a record; the caller counts it in `decided` (once per chunk: one shared
    /// counter bumped per position kept two cores waiting on its cache line).
    pub(super) fn store(&self, index: usize, record: Record) {
        if let Some(cell) = self.table.get(index as u64) {
            cell.store(record.bits(), Ordering::Relaxed);
        }
    }

    /// What to report after step `pass` of round `round` of tier `tier`, the tiers before it
    /// holding `indices_solved` indices.
    pub(super) fn progress(
        &self,
        tier: u64,
        round: u8,
        pass: u32,
        indices_solved: u64,
    ) -> Progress {
        Progress {
            tier,
            round,
            pass,
            decided: self.decided.load(Ordering::Relaxed),
            indices_solved,
            indices: self.table.len(),
        }
    }

    /// The cells of the indices `range`.
    pub(super) fn cells(&self, range: &Range<u64>) -> &[AtomicU16] {
        self.table.cells(range)
    }

    /// Where a move leads: the end of the game (its record for the mover, as a position with
    /// remoteness 0), or the index of the position the opponent faces with its record now.
    pub(super) fn child(
        &self,
        from: usize,
        transition: &Transition<G::Position>,
    ) -> Result<Child, EngineError> {
        match transition {
            Transition::End(ending) => Ok(Child::Ended(ending_record(*ending))),
            Transition::Continue {
                position: next,
                reward,
            } => {
                if *reward != 0 {
                    return Err(EngineError::Scoring { reward: *reward });
                }
                self.child_at(from, self.index_of(next))
            }
        }
    }

    /// The record of index `to`, reached by a move from `from`.
    pub(super) fn child_at(&self, from: usize, to: u64) -> Result<Child, EngineError> {
        let bad = |why| EngineError::BadIndex {
            from: from as u64,
            to,
            why,
        };
        let child = usize::try_from(to)
            .ok()
            .filter(|&i| (i as u64) < self.table.len())
            .map(|i| self.load(i))
            .ok_or_else(|| bad("outside the table"))?;
        if child.is_hole() {
            return Err(bad("a hole"));
        }
        Ok(Child::At(to, child))
    }

    /// Pass 0 over a tier (or a slice of one): holes, and the positions without moves.
    /// Returns the positions.
    pub(super) fn mark_terminals(&self, range: &Range<u64>) -> Result<u64, EngineError> {
        let start = range.start as usize;
        self.cells(range)
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, cells)| {
                self.cancel.check()?;
                let (mut here, mut ended) = (0, 0);
                let mut transitions = Vec::new();
                for (offset, cell) in cells.iter().enumerate() {
                    let index = start + chunk * CHUNK + offset;
                    let Some(position) = self.position(index) else {
                        cell.store(Record::HOLE.bits(), Ordering::Relaxed);
                        continue;
                    };
                    here += 1;
                    transitions.clear();
                    self.game.transitions(&position, &mut transitions);
                    if transitions.is_empty() {
                        let record = ending_record(self.game.no_moves(&position));
                        self.store(index, record);
                        ended += 1;
                    }
                }
                self.decided.fetch_add(ended, Ordering::Relaxed);
                Ok(here)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// One pass over the open positions of `slice`, part of tier `range` (whose moves may
    /// stay in it when `stays`). With `waiting` (a slice of a tier cut over ranks), also the
    /// indices of other slices, open here, that the positions still open after the pass
    /// reach: what the next pass asks the other ranks for.
    pub(super) fn pass(
        &self,
        slice: &Range<u64>,
        range: &Range<u64>,
        round: u8,
        pass: u32,
        stays: bool,
        waiting: bool,
    ) -> Result<(PassResult, Vec<u64>), EngineError> {
        let start = slice.start as usize;
        self.cells(slice)
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, cells)| {
                self.cancel.check()?;
                let mut result = PassResult {
                    changed: 0,
                    blocked: false,
                };
                let mut elsewhere = Vec::new();
                let mut transitions = Vec::new();
                let at = PassAt {
                    tier: range,
                    round,
                    pass,
                    stays,
                };
                for (offset, cell) in cells.iter().enumerate() {
                    if cell.load(Ordering::Relaxed) != Record::OPEN.bits() {
                        continue; // solved, or a hole
                    }
                    let index = start + chunk * CHUNK + offset;
                    let before = elsewhere.len();
                    let remote = waiting.then_some((slice, &mut elsewhere));
                    let (record, blocked) = self.decide(index, at, remote, &mut transitions)?;
                    result.blocked |= blocked;
                    if let Some(record) = record {
                        self.store(index, record);
                        result.changed += 1;
                        elsewhere.truncate(before);
                    }
                }
                self.decided.fetch_add(result.changed, Ordering::Relaxed);
                Ok((result, elsewhere))
            })
            .try_reduce(
                || {
                    (
                        PassResult {
                            changed: 0,
                            blocked: false,
                        },
                        Vec::new(),
                    )
                },
                |a, mut b| {
                    let (result, mut elsewhere) = a;
                    if elsewhere.len() < b.1.len() {
                        std::mem::swap(&mut elsewhere, &mut b.1);
                    }
                    elsewhere.extend(b.1);
                    Ok((result.merge(b.0), elsewhere))
                },
            )
    }

    /// The indices of tier `range` outside `slice`, open here, that the open positions of
    /// `slice` reach: what a rank asks the others for before its first pass over a cut tier
    /// (later passes list them as they go).
    pub(super) fn open_elsewhere(
        &self,
        slice: &Range<u64>,
        range: &Range<u64>,
    ) -> Result<Vec<u64>, EngineError> {
        let start = slice.start as usize;
        self.cells(slice)
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, cells)| {
                self.cancel.check()?;
                let mut found = Vec::new();
                let mut transitions = Vec::new();
                for (offset, cell) in cells.iter().enumerate() {
                    if cell.load(Ordering::Relaxed) != Record::OPEN.bits() {
                        continue;
                    }
                    let index = start + chunk * CHUNK + offset;
                    let Some(position) = self.position(index) else {
                        continue;
                    };
                    transitions.clear();
                    self.game.transitions(&position, &mut transitions);
                    for transition in &transitions {
                        if let Child::At(to, Record::OPEN) = self.child(index, transition)?
                            && range.contains(&to)
                            && !slice.contains(&to)
                        {
                            found.push(to);
                        }
                    }
                }
                Ok(found)
            })
            .try_reduce(Vec::new, |mut a, b| {
                a.extend(b);
                Ok(a)
            })
    }

    /// Play the moves of every position of `window` (of a tier every move leaves) once, for
    /// [`Passes::decide_window`], and list in order the indices they reach in `ranges` (the
    /// child tiers, in index order) that this rank neither holds nor borrowed: what it
    /// borrows first.
    pub(super) fn play_window(
        &self,
        window: &Range<u64>,
        ranges: &[Range<u64>],
    ) -> Result<(Vec<MovesChunk>, Vec<u64>), EngineError> {
        let start = window.start as usize;
        let len = (window.end - window.start) as usize;
        let mut chunks: Vec<MovesChunk> = (0..len.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                self.cancel.check()?;
                let from = start + chunk * CHUNK;
                let to = (from + CHUNK).min(start + len);
                let mut played = MovesChunk {
                    start: from,
                    ends: Vec::with_capacity(to - from),
                    first: Vec::with_capacity(to - from + 1),
                    moves: Vec::new(),
                    elsewhere: Vec::new(),
                };
                let mut transitions = Vec::new();
                for index in from..to {
                    played.first.push(played.moves.len() as u32);
                    let Some(position) = self.position(index) else {
                        played.ends.push(Record::HOLE);
                        continue;
                    };
                    transitions.clear();
                    self.game.transitions(&position, &mut transitions);
                    if transitions.is_empty() {
                        played
                            .ends
                            .push(ending_record(self.game.no_moves(&position)));
                        continue;
                    }
                    played.ends.push(Record::OPEN);
                    for transition in &transitions {
                        let reached = match transition {
                            Transition::End(ending) => Reached::ended(ending_record(*ending)),
                            Transition::Continue {
                                position: next,
                                reward,
                            } => {
                                if *reward != 0 {
                                    return Err(EngineError::Scoring { reward: *reward });
                                }
                                let to = self.index_of(next);
                                let at = ranges.partition_point(|r| r.start <= to);
                                if at.checked_sub(1).is_some_and(|a| to < ranges[a].end)
                                    && self.table.get(to).is_none()
                                {
                                    played.elsewhere.push(to);
                                }
                                if to & Reached::ENDED != 0 {
                                    return Err(EngineError::BadIndex {
                                        from: index as u64,
                                        to,
                                        why: "outside the table",
                                    });
                                }
                                Reached(to)
                            }
                        };
                        played.moves.push(reached);
                    }
                }
                played.first.push(played.moves.len() as u32);
                Ok(played)
            })
            .collect::<Result<_, EngineError>>()?;
        let mut elsewhere: Vec<u64> = chunks
            .iter_mut()
            .flat_map(|c| std::mem::take(&mut c.elsewhere))
            .collect();
        elsewhere.par_sort_unstable();
        elsewhere.dedup();
        Ok((chunks, elsewhere))
    }

    /// Decide every position of a window of tier `tier` (every move leaves it) from its moves
    /// as [`Passes::play_window`] played them, the child tiers' records held or borrowed: one
    /// pass, the moves not played again. Returns the positions.
    pub(super) fn decide_window(
        &self,
        tier: &Range<u64>,
        chunks: &[MovesChunk],
    ) -> Result<u64, EngineError> {
        chunks
            .par_iter()
            .map(|played| {
                self.cancel.check()?;
                let (mut positions, mut decided) = (0u64, 0u64);
                for (offset, &end) in played.ends.iter().enumerate() {
                    let index = played.start + offset;
                    if end == Record::HOLE {
                        self.store(index, Record::HOLE);
                        continue;
                    }
                    positions += 1;
                    let record = if end == Record::OPEN {
                        let moves = &played.moves
                            [played.first[offset] as usize..played.first[offset + 1] as usize];
                        self.decide_left(index, tier, moves)?
                    } else {
                        end
                    };
                    self.store(index, record);
                    decided += 1;
                }
                self.decided.fetch_add(decided, Ordering::Relaxed);
                Ok(positions)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// The record of position `index` of `tier`, whose moves all leave the tier (`moves`:
    /// where they lead), every child's record known.
    fn decide_left(
        &self,
        index: usize,
        tier: &Range<u64>,
        moves: &[Reached],
    ) -> Result<Record, EngineError> {
        let mut known = Known::default();
        for &Reached(reached) in moves {
            let seen = match reached {
                ended if ended & Reached::ENDED != 0 => Record::from_bits(ended as u16),
                to if tier.contains(&to) => {
                    return Err(EngineError::BadIndex {
                        from: index as u64,
                        to,
                        why: "in the tier the game says every move leaves",
                    });
                }
                to => match self.child_at(index, to)? {
                    Child::At(_, Record::OPEN) => return Err(earlier_tier(index, to)),
                    Child::At(_, child) => for_mover(child),
                    Child::Ended(record) => record,
                },
            };
            known.add(seen);
        }
        let (outcome, r) = match (
            known.nearest_win,
            known.nearest_tie,
            known.draw,
            known.farthest_loss,
        ) {
            (Some(w), ..) => (Outcome::Win, w),
            (None, Some(t), ..) => (Outcome::Tie, t),
            (None, None, true, _) => return Ok(Record::DRAW),
            (None, None, false, Some(l)) => (Outcome::Loss, l),
            // Played with moves, so one of the above.
            (None, None, false, None) => {
                return Err(EngineError::BadIndex {
                    from: index as u64,
                    to: index as u64,
                    why: "a position played with moves and none found",
                });
            }
        };
        Record::new(outcome, r + 1).ok_or(EngineError::TooDeep)
    }

    /// Mark in `reached` the indices of each range (child tiers, in index order, each with
    /// its bitmap from [`super::table::bitmap`]) that the positions of `slice` reach by one
    /// move and this rank neither holds nor borrowed: what it borrows before solving `slice`.
    pub(super) fn reached_elsewhere(
        &self,
        slice: &Range<u64>,
        reached: &[(Range<u64>, Vec<AtomicU64>)],
    ) -> Result<(), EngineError> {
        let start = slice.start as usize;
        let len = (slice.end - slice.start) as usize;
        (0..len.div_ceil(CHUNK))
            .into_par_iter()
            .try_for_each(|chunk| {
                self.cancel.check()?;
                let mut transitions = Vec::new();
                let from = start + chunk * CHUNK;
                for index in from..(from + CHUNK).min(start + len) {
                    let Some(position) = self.position(index) else {
                        continue;
                    };
                    transitions.clear();
                    self.game.transitions(&position, &mut transitions);
                    for transition in &transitions {
                        let Transition::Continue { position: next, .. } = transition else {
                            continue;
                        };
                        let to = self.index_of(next);
                        let at = reached.partition_point(|(r, _)| r.start <= to);
                        let Some((range, bits)) = at.checked_sub(1).map(|a| &reached[a]) else {
                            continue;
                        };
                        if to < range.end && self.table.get(to).is_none() {
                            let offset = to - range.start;
                            bits[(offset / 64) as usize]
                                .fetch_or(1 << (offset % 64), Ordering::Relaxed);
                        }
                    }
                }
                Ok(())
            })
    }

    /// The record of open position `index` if this pass can decide it, and whether it waits
    /// for a result of this tier decided too early in the pass to be used yet.
    fn decide(
        &self,
        index: usize,
        at: PassAt<'_>,
        mut remote: Option<(&Range<u64>, &mut Vec<u64>)>,
        transitions: &mut Vec<Transition<G::Position>>,
    ) -> Result<(Option<Record>, bool), EngineError> {
        let PassAt {
            tier,
            round,
            pass,
            stays,
        } = at;
        let Some(position) = self.position(index) else {
            return Ok((None, false));
        };
        let mut known = Known::default();
        // Some move reaches a position of this tier still open.
        let mut open = false;
        transitions.clear();
        self.game.transitions(&position, transitions);
        for transition in transitions.iter() {
            // The move's result for the mover, one move short.
            let seen = match self.child(index, transition)? {
                Child::Ended(record) => record,
                Child::At(to, _) if !stays && tier.contains(&to) => {
                    return Err(EngineError::BadIndex {
                        from: index as u64,
                        to,
                        why: "in the tier the game says every move leaves",
                    });
                }
                Child::At(to, child) => {
                    if child == Record::OPEN {
                        if !tier.contains(&to) {
                            return Err(earlier_tier(index, to));
                        }
                        if let Some((slice, elsewhere)) = remote.as_mut()
                            && !slice.contains(&to)
                        {
                            elsewhere.push(to);
                        }
                        open = true;
                        continue;
                    }
                    for_mover(child)
                }
            };
            known.add(seen);
        }
        // A nearest win (or, in the second round, tie) found among the known results is the
        // nearest of all when no move is open, or when it is nearer than the pass number: every
        // result of this tier that near is decided by now, so an open move's will be farther.
        // Otherwise it waits for a later pass.
        let exact = |nearest: u32| !open || nearest < pass;
        let mut blocked = false;
        let decided = if let Some(w) = known.nearest_win {
            blocked = !exact(w);
            exact(w).then_some((Outcome::Win, w))
        } else if round == 1 && !open {
            match (known.nearest_tie, known.draw, known.farthest_loss) {
                (Some(t), _, _) => Some((Outcome::Tie, t)),
                (None, true, _) => return Ok((Some(Record::DRAW), false)),
                (None, false, Some(l)) => Some((Outcome::Loss, l)),
                (None, false, None) => None, // no moves: decided in pass 0
            }
        } else if let (2, Some(t)) = (round, known.nearest_tie) {
            // Only ties and draws are left to the open positions: a tie in reach is better.
            blocked = !exact(t);
            exact(t).then_some((Outcome::Tie, t))
        } else {
            None
        };
        let Some((outcome, r)) = decided else {
            return Ok((None, blocked));
        };
        if r + 1 > MAX_REMOTENESS {
            return Err(EngineError::TooDeep);
        }
        Ok((Record::new(outcome, r + 1), blocked))
    }
}
