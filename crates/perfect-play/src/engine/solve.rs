//! Solving a game on one machine: the tiers in order, each by retrograde analysis and the
//! passes (see the module above for the method). The tier driver here is also what each rank
//! of a distributed solve runs, with its peers ([`Peers`]).

use super::database::{Checkpoint, TierInProgress};
use super::passes::{Alone, CHUNK, Passes, Peers, Progress, TierDone, TierJob, restore, snapshot};
use super::retrograde::{OnLevel, Outcomes, Resume, ResumeFrom};
use super::{EngineError, IndexedGame, Options, Record};
use crate::game::Transition;
use crate::player::Outcome;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

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
/// earlier tier, or a remoteness past [`MAX_REMOTENESS`](super::record::MAX_REMOTENESS).
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

impl<'a, G: IndexedGame + Sync> Passes<'a, G> {
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
        let mut on_level = |level: u32, ties: bool, _: &[AtomicU32], _: &mut Option<Alone>| {
            if let Some(checkpoint) = checkpoint.as_mut().filter(|c| c.level_due()) {
                checkpoint.save_level(tier, level, ties, snapshot(cells))?;
            }
            on_pass(&self.progress(tier, 1, level, job.indices_solved));
            Ok(())
        };
        self.solve_tier(job, &mut None, resume, &mut on_level, on_pass)
    }

    /// Solve one tier: its slice (the whole tier alone; this rank's part with a cluster, the
    /// other slices' results arriving through it). Wins and losses by retrograde analysis
    /// when the game has un-moves, else by the passes; ties and draws by the passes. Returns
    /// what it found; `on_level` is called after each level of retrograde analysis.
    pub(super) fn solve_tier<P: Peers>(
        &self,
        job: &TierJob<'_>,
        cluster: &mut Option<P>,
        resume: Option<ResumeFrom>,
        on_level: &mut OnLevel<'_, P>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<TierDone, EngineError> {
        let range = job.range;
        let slice = cluster.as_ref().map_or_else(|| range.clone(), P::slice);
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
}
