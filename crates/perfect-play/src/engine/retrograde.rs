//! Retrograde analysis of one tier, for games with un-moves ([`IndexedGame::tier_parents`]).
//!
//! The passes of value iteration re-generate every open position's moves once per pass, and a
//! loopy tier takes a pass per remoteness. With un-moves each position's moves are generated
//! once and its parents once, when it is decided (GamesmanOne's loopy tier solver works this
//! way):
//!
//! 1. *Scan.* Every position's moves are played once. The moves that leave the tier (or end
//!    the game) have known results; those staying in it are counted. A position with none
//!    staying is decided at once. The others keep, in four bytes, the count of moves still
//!    open in the tier, the nearest win the known results offer and the farthest loss.
//! 2. *Levels.* Level `r` first decides the positions whose nearest known win is `r`, then
//!    takes every position of the tier decided at remoteness `r` and visits its parents in
//!    the tier: a loss makes each open parent a win in `r + 1`; a win counts one of each
//!    parent's moves as lost, and a parent whose last open move this was is a loss in one
//!    more than its farthest win. Results are only ever written once (compare-and-swap from
//!    open), so the threads of a level need no other coordination, and a level only writes
//!    remoteness above its own, so its own frontier is fixed while it is read. Two bitsets
//!    over the tier (decided but not visited, open with a known win) let a level read only
//!    its own positions rather than every record: Quixo 4 x 4 runs 315 levels.
//!
//! With symmetries ([`IndexedGame::canonical`]) a position counts its distinct classes of
//! children, not its moves, and a decided position visits each class of its parents once, so
//! the counts still run down to zero exactly when every child is decided.
//!
//! Wins and losses come out exact: level `r` sees every loss at `r` (they are written at
//! lower levels), so a parent's first win is its nearest; and a parent's moves are counted
//! off in the order of their remoteness, so the last one sets the loss's. What stays open is a
//! draw, unless the tier can reach a tie: then the passes of value iteration settle ties and
//! draws among the open positions, as they do without un-moves.

use super::passes::{Child, Known, Passes, Peers, earlier_tier, ending_record, for_mover};
use super::{EngineError, IndexedGame, Record};
use crate::game::Transition;
use crate::player::Outcome;
use rayon::prelude::*;
use std::convert::Infallible;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Bytes per position of the largest tier that the scan's side table takes, rounded up from
/// its four bytes and the two bits of the bitsets of positions to visit and to promote.
pub const PENDING_BYTES: u64 = 5;

/// A pending position's four bytes: moves still open in the tier (8 bits), the remoteness of
/// the nearest win the known results give (12 bits) and that of the loss if every open move
/// turns out a win for the opponent (12 bits).
const COUNT_BITS: u32 = 8;
const FIELD_BITS: u32 = 12;
const COUNT_MASK: u32 = (1 << COUNT_BITS) - 1;
const FIELD_MASK: u32 = (1 << FIELD_BITS) - 1;
/// In the win field: no win known. In the loss field: a tie or draw is in reach, so the
/// position is no loss whatever its open moves give.
const NONE: u32 = FIELD_MASK;
/// The largest remoteness the fields hold; a tier that goes further falls back to the passes.
const FIELD_MAX: u32 = FIELD_MASK - 1;

/// Indices a worker takes at a time.
const CHUNK: usize = 4096;

/// What a worker decided in a chunk, added to the shared counts when the chunk is done: two
/// cores adding to one counter per position spent a third of the scan waiting on its cache
/// line.
#[derive(Default)]
struct Tally {
    decided: u64,
    /// The largest remoteness written, or promised (a known win to promote).
    deepest: u32,
}

impl Tally {
    fn decide(&mut self, record: Record) {
        self.decided += 1;
        self.reach(record.remoteness().unwrap_or(0));
    }

    fn reach(&mut self, remoteness: u32) {
        self.deepest = self.deepest.max(remoteness);
    }
}

/// One tier's retrograde state beside the records, for the slice of it this process solves
/// (the whole tier alone).
pub(super) struct Tier {
    /// The whole tier: moves that stay in it are counted open.
    range: Range<u64>,
    /// The slice solved here.
    slice: Range<u64>,
    /// The slice's first index.
    start: usize,
    /// The side table, by position in the slice (see [`Scanned::Pending`]).
    pending: Vec<AtomicU32>,
    /// The largest remoteness decided or promised so far: the last level to run.
    deepest: AtomicU32,
    /// Wins and losses decided whose parents are still to visit: a level reads this bitset
    /// instead of every record of the tier (Quixo 4 x 4 has 315 levels).
    unvisited: Vec<AtomicU64>,
    /// Open positions with a known win, to promote at its level.
    promised: Vec<AtomicU64>,
}

impl Tier {
    fn new(range: &Range<u64>, slice: &Range<u64>) -> Result<Tier, EngineError> {
        let len = (slice.end - slice.start) as usize;
        let bytes = (len as u64).saturating_mul(PENDING_BYTES);
        let refused = |()| EngineError::OutOfMemory { bytes };
        let bits = || bytemuck::allocation::try_zeroed_vec::<AtomicU64>(len.div_ceil(64));
        Ok(Tier {
            range: range.clone(),
            slice: slice.clone(),
            start: slice.start as usize,
            pending: bytemuck::allocation::try_zeroed_vec::<AtomicU32>(len).map_err(refused)?,
            deepest: AtomicU32::new(0),
            unvisited: bits().map_err(refused)?,
            promised: bits().map_err(refused)?,
        })
    }
}

/// Set bit `at` of a bitset.
fn set(bits: &[AtomicU64], at: usize) {
    bits[at / 64].fetch_or(1 << (at % 64), Ordering::Relaxed);
}

/// Call `visit(bit)` for each bit of `word` set when it is read, then clear the bits for which
/// it answered true (claims by other workers may set bits of the word meanwhile).
fn drain<E>(word: &AtomicU64, mut visit: impl FnMut(usize) -> Result<bool, E>) -> Result<(), E> {
    let mut bits = word.load(Ordering::Relaxed);
    let mut done = 0u64;
    while bits != 0 {
        let bit = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if visit(bit)? {
            done |= 1 << bit;
        }
    }
    word.fetch_and(!done, Ordering::Relaxed);
    Ok(())
}

/// Buffers for the parents of one position, reused, and a worker's messages to other ranks
/// (by rank) until its chunk is done.
struct Places<P> {
    parents: Vec<P>,
    indices: Vec<u64>,
    outboxes: Vec<Vec<u64>>,
}

impl<P> Default for Places<P> {
    fn default() -> Places<P> {
        Places {
            parents: Vec::new(),
            indices: Vec::new(),
            outboxes: Vec::new(),
        }
    }
}

/// Where a level's messages to other ranks go: the outboxes by rank, shared by the worker
/// threads, and the ranks' slices of the tier.
type Across<'a> = (&'a Mutex<Vec<Vec<u64>>>, &'a [Range<u64>]);

/// The rank whose slice holds index `at` (the slices cover the tier in rank order).
pub(super) fn owner(slices: &[Range<u64>], at: u64) -> usize {
    slices
        .partition_point(|slice| slice.end <= at)
        .min(slices.len().saturating_sub(1))
}

/// A parent counted off more often than it has moves into the tier.
fn inconsistent_unmoves(parent: usize, child: usize) -> EngineError {
    EngineError::BadIndex {
        from: parent as u64,
        to: child as u64,
        why: "reached by more un-moves than moves: the game's un-moves are inconsistent",
    }
}

/// Keep open position `at` (its place in the tier) with side-table entry `fields`, and mark
/// it for promotion when it has a known win.
fn keep_pending(tier: &Tier, at: usize, cell: &AtomicU32, fields: u32, tally: &mut Tally) {
    let win = fields >> COUNT_BITS & FIELD_MASK;
    if win != NONE {
        tally.reach(win);
        set(&tier.promised, at);
    }
    cell.store(fields, Ordering::Relaxed);
}

/// The side-table entry of an open position with `inside` moves open in the tier and the
/// others' results `known`; `None` past what the entry holds.
fn pending_entry(inside: usize, known: &Known) -> Option<u32> {
    let inside = u32::try_from(inside).ok().filter(|&n| n <= COUNT_MASK)?;
    let too_far = |r: Option<u32>| r.is_some_and(|r| r + 1 > FIELD_MAX);
    if too_far(known.nearest_win) || too_far(known.farthest_loss) {
        return None;
    }
    let win = known.nearest_win.map_or(NONE, |w| w + 1);
    let loss = if known.nearest_tie.is_some() || known.draw {
        NONE
    } else {
        known.farthest_loss.map_or(0, |l| l + 1)
    };
    Some(inside | win << COUNT_BITS | loss << (COUNT_BITS + FIELD_BITS))
}

/// What the scan found for one position.
enum Scanned {
    /// A hole.
    Hole,
    /// Decided now (no moves, or none staying in the tier).
    Decided(Record),
    /// Open, with its side-table entry.
    Pending(u32),
    /// Past what the side table holds.
    Unfit,
}

/// How the retrograde analysis of a tier ended.
pub(super) enum Outcomes {
    /// Wins and losses are decided; `levels` counts the levels run.
    Done { scan: TierScan, levels: u32 },
    /// The tier does not fit the side table (a position with more than 255 moves inside the
    /// tier, or a remoteness past 4094): it was left open for the passes.
    Unfit,
}

/// What the scan (or the rescan of a restored tier) found.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TierScan {
    /// The tier's positions.
    pub(super) positions: u64,
    /// Whether a tie is in reach somewhere in the tier: the passes must then settle the
    /// positions left open.
    pub(super) ties: bool,
    /// Positions already decided in the restored records (0 for a scan).
    pub(super) restored: u64,
}

impl TierScan {
    fn add(self, other: TierScan) -> TierScan {
        TierScan {
            positions: self.positions + other.positions,
            ties: self.ties || other.ties,
            restored: self.restored + other.restored,
        }
    }
}

/// Where the retrograde analysis of a tier goes on from: the tier's records as they were once
/// `level` was done (restored in the table), and whether a tie is in reach in the tier.
#[derive(Clone, Copy, Debug)]
pub(super) struct Resume {
    pub(super) level: u32,
    pub(super) ties: bool,
}

/// How a tier saved part-way is taken up again.
pub(super) enum ResumeFrom {
    /// From its records alone, by playing the open positions' moves again (one process: the
    /// whole tier's records are at hand).
    Rescan(Resume),
    /// From its records and the side table saved with them (a rank of a distributed solve:
    /// a rescan would read records of other ranks' slices).
    Restore { resume: Resume, pending: Vec<u32> },
}

/// A message to the rank that holds a parent: its index, with this bit set when the child
/// was lost (the parent wins) and clear when it was won (one of the parent's moves is
/// counted off).
pub(super) const CHILD_LOST: u64 = 1 << 63;

/// Words of the unvisited bitset a rank reads between two exchanges: the messages they send
/// stay within some hundreds of megabytes.
const ROUND_WORDS: usize = (ROUND_POSITIONS / 64) as usize;

/// Positions of the unvisited set a rank reads between two exchanges of a level.
pub const ROUND_POSITIONS: u64 = 1 << 20;

/// Called after each level of retrograde analysis with the level, whether a tie is in reach,
/// the slice's side table (what a distributed checkpoint saves with the records) and the
/// peers: to report progress and save the tier in progress.
pub(super) type OnLevel<'a, P> =
    dyn FnMut(u32, bool, &[AtomicU32], &mut Option<P>) -> Result<(), EngineError> + 'a;

impl<G: IndexedGame + Sync> Passes<'_, G> {
    /// Decide every win and loss of tier `range` (see the module), in `slice` (all of it
    /// alone; with a cluster this rank's part, parents in other slices told by message),
    /// from the start or from where `resume` says. `on_level` is called after each level (to
    /// report it and save the tier in progress).
    pub(super) fn retrograde<P: Peers>(
        &self,
        range: &Range<u64>,
        slice: &Range<u64>,
        resume: Option<ResumeFrom>,
        cluster: &mut Option<P>,
        on_level: &mut OnLevel<'_, P>,
    ) -> Result<Outcomes, EngineError> {
        let tier = Tier::new(range, slice)?;
        let (scanned, done) = match resume {
            None => (self.scan(&tier)?, None),
            Some(ResumeFrom::Rescan(resume)) => (self.rescan(&tier, resume)?, Some(resume)),
            Some(ResumeFrom::Restore { resume, pending }) => (
                Some(self.restore_side(&tier, resume, &pending)?),
                Some(resume),
            ),
        };
        let mut scan = scanned.unwrap_or_default();
        let mut unfit = scanned.is_none();
        if let Some(cluster) = cluster.as_mut() {
            unfit = cluster.any(unfit)?;
            scan.ties = cluster.any(scan.ties)?;
        }
        if unfit {
            for cell in self.cells(slice) {
                cell.store(Record::OPEN.bits(), Ordering::Relaxed);
            }
            return Ok(Outcomes::Unfit);
        }
        let mut level = done.map_or(0, |r| r.level + 1);
        let mut deepest = self.deepest(&tier, cluster)?;
        while level <= deepest {
            self.promote_wins(&tier, level);
            match cluster.as_mut() {
                None => self.visit_parents(&tier, level, 0..tier.unvisited.len(), None)?,
                Some(cluster) => self.visit_parents_across(&tier, level, cluster)?,
            }
            deepest = self.deepest(&tier, cluster)?;
            on_level(level, scan.ties, &tier.pending, cluster)?;
            level += 1;
        }
        Ok(Outcomes::Done {
            scan,
            levels: level,
        })
    }

    /// The last level to run: the largest remoteness decided or promised, over every slice.
    fn deepest<P: Peers>(&self, tier: &Tier, cluster: &mut Option<P>) -> Result<u32, EngineError> {
        let here = tier.deepest.load(Ordering::Relaxed);
        match cluster.as_mut() {
            None => Ok(here),
            Some(cluster) => Ok(cluster.max(u64::from(here))? as u32),
        }
    }

    /// The parents of the slice's positions decided at `level`, in rounds of
    /// [`ROUND_WORDS`] words of the unvisited bitset: parents in the slice are counted off
    /// here, the others sent to their ranks, which count them off on arrival.
    fn visit_parents_across<P: Peers>(
        &self,
        tier: &Tier,
        level: u32,
        cluster: &mut P,
    ) -> Result<(), EngineError> {
        let words = tier.unvisited.len();
        let rounds = cluster.max(words.div_ceil(ROUND_WORDS) as u64)? as usize;
        let (mut messages, mut bytes) = (0u64, 0u64);
        for round in 0..rounds {
            let from = (round * ROUND_WORDS).min(words);
            let to = (from + ROUND_WORDS).min(words);
            let outbox = Mutex::new(vec![Vec::new(); cluster.size()]);
            self.visit_parents(tier, level, from..to, Some((&outbox, cluster.slices())))?;
            let outboxes = outbox
                .into_inner()
                .map_err(|_| EngineError::Exchange("a worker thread failed".into()))?;
            let sent: u64 = outboxes.iter().map(|b| b.len() as u64).sum();
            messages += sent;
            bytes += sent * 8;
            let inbox = cluster.all_to_all(&outboxes)?;
            drop(outboxes);
            self.apply_messages(tier, level, &inbox)?;
        }
        cluster.count_traffic(level, messages, bytes)
    }

    /// Count off the parents other ranks sent (see [`CHILD_LOST`]).
    fn apply_messages(&self, tier: &Tier, level: u32, inbox: &[u64]) -> Result<(), EngineError> {
        let Some(parent_wins) = Record::new(Outcome::Win, level + 1) else {
            return Err(EngineError::TooDeep);
        };
        inbox.par_chunks(CHUNK).try_for_each(|messages| {
            let mut tally = Tally::default();
            for &message in messages {
                let at = (message & !CHILD_LOST) as usize;
                if !tier.slice.contains(&(at as u64)) {
                    return Err(EngineError::Exchange(format!(
                        "a message for index {at}, outside this rank's slice"
                    )));
                }
                self.count_off(
                    tier,
                    at,
                    at,
                    message & CHILD_LOST != 0,
                    parent_wins,
                    level,
                    &mut tally,
                )?;
            }
            self.flush(&tally, tier);
            Ok(())
        })
    }

    /// Rebuild the state of a tier restored with its side table once `resume.level` was done:
    /// the positions decided further from the end are still to visit, the open ones with a
    /// known win still to promote.
    fn restore_side(
        &self,
        tier: &Tier,
        resume: Resume,
        pending: &[u32],
    ) -> Result<TierScan, EngineError> {
        if pending.len() != tier.pending.len() {
            return Err(EngineError::Database {
                path: String::from("the checkpoint"),
                why: format!(
                    "the saved level has {} side entries for a slice of {}: a checkpoint of another solve",
                    pending.len(),
                    tier.pending.len()
                ),
            });
        }
        let mut found = TierScan {
            ties: resume.ties,
            ..TierScan::default()
        };
        let mut tally = Tally::default();
        for (at, (&fields, cell)) in pending.iter().zip(&tier.pending).enumerate() {
            let record = self.load(tier.start + at);
            if record.is_hole() {
                continue;
            }
            found.positions += 1;
            if record == Record::OPEN {
                keep_pending(tier, at, cell, fields, &mut tally);
                continue;
            }
            found.restored += 1;
            let r = record.remoteness().unwrap_or(0);
            if matches!(record.outcome(), Some(Outcome::Win | Outcome::Loss)) && r > resume.level {
                tally.reach(r);
                set(&tier.unvisited, at);
            }
        }
        self.decided.fetch_add(found.restored, Ordering::Relaxed);
        self.flush(&tally, tier);
        Ok(found)
    }

    /// Write `record` at `index` if it is still open, count it in `tally`, and mark it for
    /// its level's visit.
    fn claim(&self, tier: &Tier, index: usize, record: Record, tally: &mut Tally) {
        // Most parents are decided already: a plain load spares them the locked operation.
        let Some(cell) = self.table.get(index as u64) else {
            return;
        };
        if cell.load(Ordering::Relaxed) != Record::OPEN.bits() {
            return;
        }
        let written = cell
            .compare_exchange(
                Record::OPEN.bits(),
                record.bits(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok();
        if written {
            tally.decide(record);
            set(&tier.unvisited, index - tier.start);
        }
    }

    /// Add a worker's tally to the shared counts.
    fn flush(&self, tally: &Tally, tier: &Tier) {
        self.decided.fetch_add(tally.decided, Ordering::Relaxed);
        tier.deepest.fetch_max(tally.deepest, Ordering::Relaxed);
    }

    /// Step 1: every position's moves once. `None` when some position does not fit the
    /// side table.
    fn scan(&self, tier: &Tier) -> Result<Option<TierScan>, EngineError> {
        let (start, range) = (tier.start, &tier.range);
        let chunks: Vec<Option<TierScan>> = tier
            .pending
            .par_chunks(CHUNK)
            .enumerate()
            .with_max_len(1)
            .map_init(Default::default, |(transitions, inside), (chunk, cells)| {
                self.cancel.check()?;
                let mut found = TierScan::default();
                let mut tally = Tally::default();
                for (offset, cell) in cells.iter().enumerate() {
                    let index = start + chunk * CHUNK + offset;
                    let scanned =
                        self.scan_position(index, range, transitions, inside, &mut found.ties)?;
                    match scanned {
                        Scanned::Hole => {
                            self.store(index, Record::HOLE);
                        }
                        Scanned::Decided(record) => {
                            found.positions += 1;
                            self.store(index, record);
                            tally.decide(record);
                            if matches!(record.outcome(), Some(Outcome::Win | Outcome::Loss)) {
                                set(&tier.unvisited, index - start);
                            }
                        }
                        Scanned::Pending(fields) => {
                            found.positions += 1;
                            keep_pending(tier, index - start, cell, fields, &mut tally);
                        }
                        Scanned::Unfit => return Ok(None),
                    }
                }
                self.flush(&tally, tier);
                Ok(Some(found))
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(chunks
            .into_iter()
            .try_fold(TierScan::default(), |sum, chunk| chunk.map(|c| sum.add(c))))
    }

    /// Step 1 again for a tier restored once level `resume.level` was done: the positions
    /// decided further from the end are still to visit; an open position counts as open
    /// the moves to positions of the tier not decided by then (its count before the next
    /// level), and takes the results of the others as known. The tie in reach is the one
    /// saved.
    fn rescan(&self, tier: &Tier, resume: Resume) -> Result<Option<TierScan>, EngineError> {
        let (start, range, done) = (tier.start, &tier.range, resume.level);
        let buffers = || -> (Vec<Transition<G::Position>>, Vec<u64>) { Default::default() };
        let chunks: Vec<Option<TierScan>> = tier
            .pending
            .par_chunks(CHUNK)
            .enumerate()
            .map_init(buffers, |(transitions, inside), (chunk, cells)| {
                self.cancel.check()?;
                let mut found = TierScan {
                    ties: resume.ties,
                    ..TierScan::default()
                };
                let mut tally = Tally::default();
                for (offset, cell) in cells.iter().enumerate() {
                    let index = start + chunk * CHUNK + offset;
                    let record = self.load(index);
                    if record.is_hole() {
                        continue;
                    }
                    found.positions += 1;
                    if record != Record::OPEN {
                        found.restored += 1;
                        let r = record.remoteness().unwrap_or(0);
                        if matches!(record.outcome(), Some(Outcome::Win | Outcome::Loss))
                            && r > done
                        {
                            tally.reach(r);
                            set(&tier.unvisited, index - start);
                        }
                        continue;
                    }
                    let position = self.position(index).ok_or(EngineError::BadIndex {
                        from: index as u64,
                        to: index as u64,
                        why: "open in the saved level but no position: a checkpoint of another game",
                    })?;
                    transitions.clear();
                    self.game.transitions(&position, transitions);
                    let known = self.sort_moves(index, range, Some(done), transitions, inside)?;
                    let Some(fields) = pending_entry(inside.len(), &known) else {
                        return Ok(None);
                    };
                    keep_pending(tier, index - start, cell, fields, &mut tally);
                }
                self.decided.fetch_add(found.restored, Ordering::Relaxed);
                self.flush(&tally, tier);
                Ok(Some(found))
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(chunks
            .into_iter()
            .try_fold(TierScan::default(), |sum, chunk| chunk.map(|c| sum.add(c))))
    }

    /// Sort the moves of position `index` (its `transitions`): those to positions of the
    /// tier still open go to `inside` (each class once, with symmetries: its parents are
    /// visited once), the results of the others are returned. With `visited`, a move to a
    /// position of the tier decided and visited by that level counts as known.
    fn sort_moves(
        &self,
        index: usize,
        range: &Range<u64>,
        visited: Option<u32>,
        transitions: &[Transition<G::Position>],
        inside: &mut Vec<u64>,
    ) -> Result<Known, EngineError> {
        let mut known = Known::default();
        inside.clear();
        for transition in transitions {
            // The scan counts a move inside the tier open without reading its record: the
            // record is open then anyway, and the read is a cache miss (Quixo 4 x 4's scan
            // spent a fifth of its time in them).
            let child = match transition {
                Transition::Continue {
                    position: next,
                    reward: 0,
                } => {
                    let to = self.index_of(next);
                    if visited.is_none() && range.contains(&to) {
                        inside.push(to);
                        continue;
                    }
                    self.child_at(index, to)?
                }
                other => self.child(index, other)?,
            };
            let seen = match child {
                Child::Ended(record) => record,
                Child::At(to, child) if range.contains(&to) => {
                    let decided = matches!(child.outcome(), Some(Outcome::Win | Outcome::Loss))
                        && child
                            .remoteness()
                            .is_some_and(|r| visited.is_some_and(|done| r <= done));
                    if !decided {
                        inside.push(to);
                        continue;
                    }
                    for_mover(child)
                }
                Child::At(to, child) if !child.is_final() => return Err(earlier_tier(index, to)),
                Child::At(_, child) => for_mover(child),
            };
            known.add(seen);
        }
        if self.symmetric {
            inside.sort_unstable();
            inside.dedup();
        }
        Ok(known)
    }

    /// Play every move of position `index` once; `ties` is set when a tie is in reach.
    /// `inside` is a buffer for the indices of the moves that stay in the tier.
    fn scan_position(
        &self,
        index: usize,
        range: &Range<u64>,
        transitions: &mut Vec<Transition<G::Position>>,
        inside: &mut Vec<u64>,
        ties: &mut bool,
    ) -> Result<Scanned, EngineError> {
        let Some(position) = self.position(index) else {
            return Ok(Scanned::Hole);
        };
        transitions.clear();
        self.game.transitions(&position, transitions);
        if transitions.is_empty() {
            let record = ending_record(self.game.no_moves(&position));
            *ties |= record.outcome() == Some(Outcome::Tie);
            return Ok(Scanned::Decided(record));
        }
        let known = self.sort_moves(index, range, None, transitions, inside)?;
        *ties |= known.nearest_tie.is_some();
        if inside.is_empty() {
            // Every move's result is known: decided now, as a pass would.
            let record = match (
                known.nearest_win,
                known.nearest_tie,
                known.draw,
                known.farthest_loss,
            ) {
                (Some(w), ..) => Record::new(Outcome::Win, w + 1),
                (None, Some(t), ..) => Record::new(Outcome::Tie, t + 1),
                (None, None, true, _) => Some(Record::DRAW),
                (None, None, false, l) => Record::new(Outcome::Loss, l.unwrap_or(0) + 1),
            };
            return record.map(Scanned::Decided).ok_or(EngineError::TooDeep);
        }
        Ok(pending_entry(inside.len(), &known).map_or(Scanned::Unfit, Scanned::Pending))
    }

    /// The open positions whose nearest known win is `level` win there.
    fn promote_wins(&self, tier: &Tier, level: u32) {
        // Known wins are at least one move away.
        let Some(record) = Record::new(Outcome::Win, level).filter(|_| level > 0) else {
            return;
        };
        tier.promised
            .par_chunks(CHUNK / 64)
            .enumerate()
            .for_each(|(chunk, words)| {
                let mut tally = Tally::default();
                for (w, word) in words.iter().enumerate() {
                    let first = (chunk * CHUNK / 64 + w) * 64;
                    let Ok(()) = drain(word, |bit| -> Result<bool, Infallible> {
                        let at = first + bit;
                        let win =
                            tier.pending[at].load(Ordering::Relaxed) >> COUNT_BITS & FIELD_MASK;
                        if win == level {
                            self.claim(tier, tier.start + at, record, &mut tally);
                        }
                        Ok(win == level)
                    });
                }
                self.flush(&tally, tier);
            });
    }

    /// Visit the parents of the positions decided at remoteness `level` among the words
    /// `words` of the unvisited bitset. With `across` (a shared outbox by rank and the
    /// ranks' slices), a parent outside the slice goes to its rank's outbox.
    fn visit_parents(
        &self,
        tier: &Tier,
        level: u32,
        words: Range<usize>,
        across: Option<Across<'_>>,
    ) -> Result<(), EngineError> {
        let (Some(won), Some(lost), Some(parent_wins)) = (
            Record::new(Outcome::Win, level),
            Record::new(Outcome::Loss, level),
            Record::new(Outcome::Win, level + 1),
        ) else {
            return Err(EngineError::TooDeep);
        };
        let first_word = words.start;
        tier.unvisited[words]
            .par_chunks(CHUNK / 64)
            .enumerate()
            // Chunk by chunk: a level's work is uneven and short, and rayon's larger splits
            // left one core idle at the end of each of Quixo 4 x 4's 315 levels.
            .with_max_len(1)
            .try_for_each_init(Places::default, |places, (chunk, words)| {
                self.cancel.check()?;
                let Places {
                    parents,
                    indices,
                    outboxes,
                } = places;
                let mut tally = Tally::default();
                for (w, word) in words.iter().enumerate() {
                    let first = tier.start + (first_word + chunk * CHUNK / 64 + w) * 64;
                    drain(word, |bit| -> Result<bool, EngineError> {
                        let index = first + bit;
                        let record = self.load(index);
                        if record != won && record != lost {
                            return Ok(false); // decided further from the end: a later level's
                        }
                        let Some(position) = self.position(index) else {
                            return Ok(true);
                        };
                        parents.clear();
                        self.game.tier_parents(&position, parents);
                        // The indices first, then the atomic operations on them: measured
                        // 27.3 s against 27.9 s for Quixo 4 x 4 with each index computed in
                        // turn.
                        indices.clear();
                        indices.extend(
                            parents
                                .iter()
                                .map(|parent| self.index_of(parent))
                                .filter(|at| tier.range.contains(at)),
                        );
                        if self.symmetric {
                            // Each class of parents once, as the scan counted each class of
                            // children once.
                            indices.sort_unstable();
                            indices.dedup();
                        }
                        for &at in indices.iter() {
                            if let Some((_, slices)) = across.filter(|_| !tier.slice.contains(&at))
                            {
                                let rank = owner(slices, at);
                                if outboxes.len() < slices.len() {
                                    outboxes.resize(slices.len(), Vec::new());
                                }
                                let lost_bit = if record == lost { CHILD_LOST } else { 0 };
                                outboxes[rank].push(at | lost_bit);
                                continue;
                            }
                            self.count_off(
                                tier,
                                at as usize,
                                index,
                                record == lost,
                                parent_wins,
                                level,
                                &mut tally,
                            )?;
                        }
                        Ok(true)
                    })?;
                }
                self.flush(&tally, tier);
                if let Some((shared, _)) = across {
                    let mut shared = shared
                        .lock()
                        .map_err(|_| EngineError::Exchange("a worker thread failed".into()))?;
                    for (rank, out) in outboxes.iter_mut().enumerate() {
                        shared[rank].append(out);
                    }
                }
                Ok(())
            })
    }

    /// Parent `at` (in this slice) of position `child`, decided at `level`: a lost child makes
    /// it a win in `level + 1`; a won child counts one of its moves off, and the last open
    /// move counted off makes it a loss.
    #[allow(clippy::too_many_arguments)]
    fn count_off(
        &self,
        tier: &Tier,
        at: usize,
        child: usize,
        child_lost: bool,
        parent_wins: Record,
        level: u32,
        tally: &mut Tally,
    ) -> Result<(), EngineError> {
        if child_lost {
            self.claim(tier, at, parent_wins, tally);
        } else if self.load(at) == Record::OPEN {
            let before = tier.pending[at - tier.start].fetch_sub(1, Ordering::Relaxed);
            match before & COUNT_MASK {
                0 => return Err(inconsistent_unmoves(at, child)),
                1 => self.last_open_move_lost(tier, at, before, level, tally)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Every move of open position `at` is now known to win for the opponent, the last at
    /// `level`: a loss, unless a known win (decided at its own level) or a tie or draw in
    /// reach (left to the passes) says otherwise.
    fn last_open_move_lost(
        &self,
        tier: &Tier,
        at: usize,
        fields: u32,
        level: u32,
        tally: &mut Tally,
    ) -> Result<(), EngineError> {
        let win = fields >> COUNT_BITS & FIELD_MASK;
        let loss = fields >> (COUNT_BITS + FIELD_BITS) & FIELD_MASK;
        if win != NONE || loss == NONE {
            return Ok(());
        }
        let record = Record::new(Outcome::Loss, loss.max(level + 1)).ok_or(EngineError::TooDeep)?;
        self.claim(tier, at, record, tally);
        Ok(())
    }
}
