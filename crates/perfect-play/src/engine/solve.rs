//! The passes that fill the table (see the module above for the method).

use super::database::{Checkpoint, TierInProgress};
use super::distributed::Cluster;
use super::retrograde::{Outcomes, Resume, ResumeFrom};
use super::table::Table;
use super::{EngineError, IndexedGame, MAX_REMOTENESS, Options, Record};
use crate::game::{Ending, Transition};
use crate::player::Outcome;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};

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

/// A solved game: a record for every index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    records: Vec<Record>,
    /// Positions (indices that are not holes).
    pub positions: u64,
    /// Passes made, both rounds and every tier (pass 0 included).
    pub passes: u32,
    /// Whether the solve went on from a checkpoint.
    pub resumed: bool,
    /// Positions the checkpoint had already solved.
    pub already_solved: u64,
}

impl Solution {
    /// A solution read back whole (from a database): `records` by index.
    #[must_use]
    pub fn from_records(records: Vec<Record>) -> Solution {
        let positions = records.iter().filter(|r| !r.is_hole()).count() as u64;
        Solution {
            records,
            positions,
            passes: 0,
            resumed: false,
            already_solved: 0,
        }
    }

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

/// How the positions reachable from a start divide by value, for the player to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions reachable (the start included).
    pub positions: u64,
    /// Of them, wins for the player to move.
    pub wins: u64,
    /// Losses.
    pub losses: u64,
    /// Ties.
    pub ties: u64,
    /// Draws.
    pub draws: u64,
}

/// Count the positions reachable from `start` by their value in `solution`.
///
/// # Errors
/// As [`count_reachable`].
pub fn reachable_counts<G: IndexedGame + Sync>(
    game: &G,
    start: &G::Position,
    solution: &Solution,
    options: &Options,
) -> Result<Counts, EngineError> {
    walk_reachable(game, start, options, &|index| {
        let mut counts = Counts {
            positions: 1,
            ..Counts::default()
        };
        match solution.record(index).and_then(Record::outcome) {
            Some(Outcome::Win) => counts.wins = 1,
            Some(Outcome::Loss) => counts.losses = 1,
            Some(Outcome::Tie) => counts.ties = 1,
            Some(Outcome::Draw) => counts.draws = 1,
            None => {}
        }
        counts
    })
}

/// Count the positions reachable from `start` (itself included), by a walk over the index on
/// every core with three bitsets (seen, this generation, the next): `3 * index_count / 8`
/// bytes.
///
/// # Errors
/// [`EngineError::OverMemory`] when the bitset would pass the memory limit, and
/// [`EngineError::BadIndex`] for a move the index does not place.
pub fn count_reachable<G: IndexedGame + Sync>(
    game: &G,
    start: &G::Position,
    options: &Options,
) -> Result<u64, EngineError> {
    walk_reachable(game, start, options, &|_| Counts {
        positions: 1,
        ..Counts::default()
    })
    .map(|counts| counts.positions)
}

/// Count the classes of positions reachable from `start` under the game's symmetries (a
/// position and its mirror image once, say): what tables that store one position of each
/// class report. Walks the positions as [`count_reachable`] does, with a fourth bitset for
/// the classes seen. Without symmetries it is [`count_reachable`].
///
/// # Errors
/// As [`count_reachable`].
pub fn count_reachable_classes<G: IndexedGame + Sync>(
    game: &G,
    start: &G::Position,
    options: &Options,
) -> Result<u64, EngineError> {
    if !game.has_symmetries() {
        return count_reachable(game, start, options);
    }
    let options = Options {
        symmetries: false,
        memory_limit: options
            .memory_limit
            .saturating_sub(game.index_count().div_ceil(8)),
        ..options.clone()
    };
    let classes: Vec<AtomicU64> = (0..game.index_count().div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    // Without classes the walk names each position's record by its class's index.
    walk_reachable(game, start, &options, &|index| {
        let bit = 1u64 << (index % 64);
        let first = classes[(index / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0;
        Counts {
            positions: u64::from(first),
            ..Counts::default()
        }
    })
    .map(|counts| counts.positions)
}

impl Counts {
    /// Each count `n` times: a class of `n` positions with the same value.
    fn times(self, n: u64) -> Counts {
        Counts {
            positions: self.positions * n,
            wins: self.wins * n,
            losses: self.losses * n,
            ties: self.ties * n,
            draws: self.draws * n,
        }
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;

    fn add(self, other: Counts) -> Counts {
        Counts {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            ties: self.ties + other.ties,
            draws: self.draws + other.draws,
        }
    }
}

/// The sum of `visit` over every position reachable from `start`, breadth first, one
/// generation at a time on every core. A generation is a bitset over the index, like the set
/// of positions seen: three bits an index in all (10.8 MB for Quixo 4 x 4's 86 million,
/// where lists of the generations' indices peaked at 250 MB). A position is claimed by the
/// thread that sets its bit in the seen set, so each is visited once whatever the order.
/// `visit` gets the index of the position's record ([`super::table_index`]).
///
/// With symmetries and a start that is its own class, the walk goes over classes and weighs
/// each by its size: what is reachable from a symmetric start is closed under the symmetries.
fn walk_reachable<G: IndexedGame + Sync>(
    game: &G,
    start: &G::Position,
    options: &Options,
    visit: &(dyn Fn(u64) -> Counts + Sync),
) -> Result<Counts, EngineError> {
    let count = game.index_count();
    let needed = count.div_ceil(8).saturating_mul(3);
    if needed > options.memory_limit {
        return Err(EngineError::OverMemory {
            needed,
            limit: options.memory_limit,
            indices: count,
        });
    }
    let classes = options.symmetries && game.has_symmetries() && game.class_size(start) == 1;
    // The bit a position takes in the walk, the index of its record, and the positions it
    // stands for.
    let key = |position: &G::Position| {
        if classes {
            super::table_index(game, position)
        } else {
            game.index(position)
        }
    };
    let record_at = |key: u64, position: &G::Position| {
        if classes || !game.has_symmetries() {
            key
        } else {
            super::table_index(game, position)
        }
    };
    let weight = |position: &G::Position| {
        if classes {
            game.class_size(position)
        } else {
            1
        }
    };
    let first = key(start);
    if first >= count {
        return Err(EngineError::BadIndex {
            from: first,
            to: first,
            why: "outside the table",
        });
    }
    let words = count.div_ceil(64) as usize;
    let bitset = || -> Vec<AtomicU64> { (0..words).map(|_| AtomicU64::new(0)).collect() };
    let (seen, mut generation, mut next) = (bitset(), bitset(), bitset());
    // Most moves reach a position seen already: a plain load answers those without the
    // locked read-modify-write.
    let set = |bits: &[AtomicU64], index: u64| {
        let bit = 1u64 << (index % 64);
        let word = &bits[(index / 64) as usize];
        word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    };
    set(&seen, first);
    set(&generation, first);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| EngineError::Threads(e.to_string()))?;
    let first_counts = visit(record_at(first, start)).times(weight(start));
    pool.install(|| {
        let mut total = first_counts;
        loop {
            let counts = generation
                .par_iter()
                .enumerate()
                .map_init(
                    Vec::new,
                    |next_ones, (w, word)| -> Result<Counts, EngineError> {
                        if w % 64 == 0 {
                            options.cancel.check()?;
                        }
                        let mut counts = Counts::default();
                        let mut bits = word.swap(0, Ordering::Relaxed);
                        while bits != 0 {
                            let from = (w as u64) * 64 + u64::from(bits.trailing_zeros());
                            bits &= bits - 1;
                            let position = game.position(from).ok_or(EngineError::BadIndex {
                                from,
                                to: from,
                                why: "a hole: the index gives no position back",
                            })?;
                            next_ones.clear();
                            game.transitions(&position, next_ones);
                            for transition in next_ones.iter() {
                                if let Transition::Continue {
                                    position: child, ..
                                } = transition
                                {
                                    let to = key(child);
                                    if to >= count {
                                        return Err(EngineError::BadIndex {
                                            from,
                                            to,
                                            why: "outside the table",
                                        });
                                    }
                                    if set(&seen, to) {
                                        set(&next, to);
                                        counts = counts
                                            + visit(record_at(to, child)).times(weight(child));
                                    }
                                }
                            }
                        }
                        Ok(counts)
                    },
                )
                .try_reduce(Counts::default, |a, b| Ok(a + b))?;
            if counts.positions == 0 {
                return Ok(total);
            }
            total = total + counts;
            std::mem::swap(&mut generation, &mut next);
        }
    })
}

/// Solve every position of `game`, tier by tier from the last, calling `on_pass` after each
/// pass.
///
/// # Errors
/// Refused up front when the table passes the memory limit or the tiers do not cover the
/// index; stopped on a move that earns points, an index the game does not keep, a move to an
/// earlier tier, or a remoteness past [`MAX_REMOTENESS`].
pub fn solve<G>(
    game: &G,
    options: &Options,
    on_pass: &(dyn Fn(&Progress) + Sync),
) -> Result<Solution, EngineError>
where
    G: IndexedGame + Sync,
{
    solve_resumable(game, options, None, on_pass)
}

/// [`solve`], starting from the tiers a checkpoint holds and adding each tier to it as it
/// finishes (and a tier solved by retrograde analysis at the end of a level every
/// [`Checkpoint::level_interval`]), so that an interrupted solve goes on where it stopped. The
/// records are the same as those of an uninterrupted solve.
///
/// # Errors
/// As [`solve`], and [`EngineError::Database`] when the checkpoint cannot be written or
/// holds tiers of another game.
pub fn solve_resumable<G>(
    game: &G,
    options: &Options,
    checkpoint: Option<&mut Checkpoint>,
    on_pass: &(dyn Fn(&Progress) + Sync),
) -> Result<Solution, EngineError>
where
    G: IndexedGame + Sync,
{
    let count = game.index_count();
    let needed = super::solve_bytes(game, options);
    if needed > options.memory_limit || usize::try_from(count).is_err() {
        return Err(EngineError::OverMemory {
            needed,
            limit: options.memory_limit,
            indices: count,
        });
    }
    if let Some(machine) = super::machine_memory().filter(|&m| needed > m) {
        return Err(EngineError::OverMachine { needed, machine });
    }
    let tiers = tiers(game)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| EngineError::Threads(e.to_string()))?;
    let passes = Passes::new(game, count, options, true)?;
    pool.install(|| passes.run(&tiers, checkpoint, on_pass))
}

/// The game's tiers as index ranges, checked to cover the index exactly.
pub(super) fn tiers<G: IndexedGame>(game: &G) -> Result<Vec<Range<u64>>, EngineError> {
    let tiers: Vec<Range<u64>> = (0..game.tier_count()).map(|t| game.tier_range(t)).collect();
    let mut sorted = tiers.clone();
    sorted.sort_by_key(|r| r.start);
    let mut next = 0;
    for range in &sorted {
        if range.start != next || range.end < range.start {
            return Err(EngineError::BadTiers(range.start.min(next)));
        }
        next = range.end;
    }
    if next != game.index_count() {
        return Err(EngineError::BadTiers(next));
    }
    Ok(tiers)
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
    retrograde: bool,
    /// Whether to solve one position per class of the game's symmetries.
    pub(super) symmetric: bool,
    pub(super) table: Table,
    pub(super) decided: AtomicU64,
    /// Checked once a chunk of positions: a raised flag ends the solve.
    pub(super) cancel: crate::budget::Cancel,
}

/// Indices a worker takes at a time.
const CHUNK: usize = 4096;

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

/// Called after each level of retrograde analysis with the level, whether a tie is in reach,
/// the slice's side table (what a distributed checkpoint saves with the records) and the
/// cluster: to report progress and save the tier in progress.
pub(super) type OnLevel<'a> =
    dyn FnMut(u32, bool, &[AtomicU32], &mut Option<Cluster<'_>>) -> Result<(), EngineError> + 'a;

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

    fn run(
        self,
        tiers: &[Range<u64>],
        mut checkpoint: Option<&mut Checkpoint>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<Solution, EngineError> {
        let mut restored: Vec<(u64, Vec<Record>)> = checkpoint
            .as_mut()
            .map(|c| std::mem::take(&mut c.finished))
            .unwrap_or_default();
        let mut in_progress = checkpoint.as_mut().and_then(|c| c.in_progress.take());
        let mut resumed = !restored.is_empty();
        let mut positions = 0;
        let mut already_solved = 0;
        let mut passes = 0;
        let mut indices_solved = 0;
        for (tier, range) in tiers.iter().enumerate().rev() {
            let tier = tier as u64;
            let cells = self.cells(range);
            if let Some(at) = restored.iter().position(|(t, _)| *t == tier) {
                let (_, records) = restored.swap_remove(at);
                restore(cells, &records, &format!("tier {tier}"))?;
                let here = records.iter().filter(|r| !r.is_hole()).count() as u64;
                positions += here;
                already_solved += here;
                indices_solved += range.end - range.start;
                continue;
            }
            let job = TierJob {
                tier,
                range,
                indices_solved,
            };
            let saved = in_progress.take_if(|saved| saved.tier == tier);
            resumed |= saved.is_some();
            let done = self.solve_tier_alone(&job, saved, checkpoint.as_deref_mut(), on_pass)?;
            positions += done.positions;
            already_solved += done.restored;
            passes += done.passes;
            indices_solved += range.end - range.start;
            if let Some(checkpoint) = checkpoint.as_mut() {
                checkpoint.save(tier, snapshot(cells))?;
            }
        }
        let records = self.table.into_records();
        Ok(Solution {
            records,
            positions,
            passes,
            resumed,
            already_solved,
        })
    }

    /// Solve a whole tier in this process alone (one process, or a rank given the tier
    /// whole), going on from `saved` (its last saved level) when retrograde analysis solves
    /// it, and saving its levels to `checkpoint` as they come due.
    pub(super) fn solve_tier_alone(
        &self,
        job: &TierJob<'_>,
        saved: Option<TierInProgress>,
        mut checkpoint: Option<&mut Checkpoint>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<TierDone, EngineError> {
        let (tier, cells) = (job.tier, self.cells(job.range));
        // A tier saved part-way goes on from its last saved level.
        let mut resume = None;
        if self.retrograde
            && self.game.has_unmoves()
            && let Some(saved) = saved
        {
            restore(cells, &saved.records, "the tier in progress")?;
            resume = Some(ResumeFrom::Rescan(Resume {
                level: saved.level,
                ties: saved.ties,
            }));
        }
        let mut on_level =
            |level: u32, ties: bool, _: &[AtomicU32], _: &mut Option<Cluster<'_>>| {
                if let Some(checkpoint) = checkpoint.as_mut().filter(|c| c.level_due()) {
                    checkpoint.save_level(tier, level, ties, snapshot(cells))?;
                }
                on_pass(&self.progress(tier, 1, level, job.indices_solved));
                Ok(())
            };
        self.solve_tier(job, &mut None, resume, &mut on_level, on_pass)
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

    /// Solve one tier: its slice (the whole tier alone; this rank's part with a cluster, the
    /// other slices' results arriving through it). Wins and losses by retrograde analysis
    /// when the game has un-moves, else by the passes; ties and draws by the passes. Returns
    /// what it found; `on_level` is called after each level of retrograde analysis.
    pub(super) fn solve_tier(
        &self,
        job: &TierJob<'_>,
        cluster: &mut Option<Cluster<'_>>,
        resume: Option<ResumeFrom>,
        on_level: &mut OnLevel<'_>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<TierDone, EngineError> {
        let range = job.range;
        let slice = cluster
            .as_ref()
            .map_or_else(|| range.clone(), Cluster::slice);
        let mut done = TierDone::default();
        // With un-moves, retrograde analysis decides the wins and losses; the passes
        // below then only settle ties (and are skipped when no tie is in reach).
        let mut settled = false;
        let mut rounds_needed = true;
        if self.retrograde && self.game.has_unmoves() {
            let outcomes = self.retrograde(range, &slice, resume, cluster, on_level)?;
            if let Outcomes::Done { scan, levels } = outcomes {
                done.positions += scan.positions;
                done.restored += scan.restored;
                done.passes += levels;
                settled = true;
                rounds_needed = scan.ties;
            }
        }
        if !settled {
            done.positions += self.mark_terminals(&slice)?;
            done.passes += 1;
        }
        // Moves into other slices of the tier are read by the passes: before each pass a
        // rank brings in the records they reach there. A tier every move leaves needs none.
        let stays = !self.game.moves_leave_tier(job.tier);
        let pulls = stays && cluster.is_some();
        // What the last pass's open positions wait for in other slices (none yet: the first
        // pull looks).
        let mut waiting: Option<Vec<u64>> = None;
        for round in [1u8, 2].into_iter().filter(|_| rounds_needed) {
            let mut pass = 1u32;
            loop {
                if pulls && let Some(cluster) = cluster.as_mut() {
                    cluster.pull(self, range, waiting.take())?;
                }
                let (mut result, elsewhere) =
                    self.pass(&slice, range, round, pass, stays, pulls)?;
                waiting = pulls.then_some(elsewhere);
                if let Some(cluster) = cluster.as_mut() {
                    result = cluster.combine(result)?;
                }
                on_pass(&self.progress(job.tier, round, pass, job.indices_solved));
                done.passes += 1;
                if result.changed == 0 && !result.blocked {
                    break;
                }
                pass += 1;
            }
        }
        // What is still open in the tier can neither win nor reach a tie: a draw.
        self.cells(&slice).par_chunks(CHUNK).for_each(|chunk| {
            let mut draws = 0;
            for cell in chunk {
                if cell.load(Ordering::Relaxed) == Record::OPEN.bits() {
                    cell.store(Record::DRAW.bits(), Ordering::Relaxed);
                    draws += 1;
                }
            }
            self.decided.fetch_add(draws, Ordering::Relaxed);
        });
        Ok(done)
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
    fn mark_terminals(&self, range: &Range<u64>) -> Result<u64, EngineError> {
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
    fn pass(
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
