//! Octal (take-and-break) games: the family that holds Nim, Kayles (`0.77`), Dawson's Kayles
//! (`0.07`), Dawson's Chess (`0.137`) and every subtraction game (digit 3 at each move size).
//!
//! ```
//! use perfect_play::octal::{OctalCode, GrundySequence, Options};
//!
//! let kayles: OctalCode = "0.77".parse().unwrap();
//! let seq = GrundySequence::compute(&kayles, &Options::default(), &|_, _| {}).unwrap();
//! let period = seq.period.unwrap();
//! assert_eq!((period.preperiod, period.period), (71, 12)); // Guy & Smith, 1956
//! // (10^12 - 71) mod 12 = 5: heap 10^12 has the value of heap 76.
//! assert_eq!(seq.value_of(&"1000000000000".parse().unwrap()), seq.value(76));
//! assert_eq!(seq.value(76), Some(1));
//! ```

pub mod checkpoint;
pub mod code;
pub mod grundy;
pub mod periodicity;
pub mod table;

pub use checkpoint::GrundyCheckpoint;
pub use code::{CodeError, OctalCode, Parts};
pub use table::{Packing, ValueTable};

use crate::budget::Cancel;
use crate::game::{Ending, Game, Transition};
use crate::period::Period;
use crate::player::Outcome;
use grundy::{GrundyMethod, Naive, RareCommon};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use serde::Serialize;
use thiserror::Error;

/// Why an octal query cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OctalError {
    /// The work was cancelled (its [`crate::budget::Cancel`] raised) before it finished.
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// A malformed code.
    #[error(transparent)]
    Code(#[from] CodeError),
    /// A heap beyond the values computed, with no period to extend them.
    #[error(
        "heap {heap} is beyond the {computed} values computed and no period is proven up to there; raise --upto"
    )]
    HeapBeyond {
        /// The heap asked about.
        heap: String,
        /// How many values were computed.
        computed: usize,
    },
    /// A heap past the values one run computes, of a game with no known period.
    #[error(
        "no period is known for {code} (it is on the list of unsolved octal games), so heap {heap} is answered only by computing the values up to it, past the {computable} one run computes; ask about a heap up to {computable}"
    )]
    NoKnownPeriod {
        /// The game.
        code: String,
        /// The heap asked about.
        heap: String,
        /// The largest heap one run computes.
        computable: u64,
    },
    /// `--upto` past what the engine stores.
    #[error("--upto {0} is too large: values up to heap {MAX_UPTO} can be computed")]
    UptoTooLarge(u64),
    /// A hexadecimal code's three-way splits past what a run may examine.
    #[error(
        "--upto {upto} means examining about {splits:.1e} three-way splits (time cubic in the heap); at most {limit:.1e} are examined in one run: use --upto {largest} or less",
        splits = *.splits as f64,
        limit = *.limit as f64
    )]
    TooMuchWork {
        /// The heaps asked for.
        upto: u64,
        /// Three-way splits that would be examined.
        splits: u64,
        /// The most examined in one run.
        limit: u64,
        /// The largest `upto` within the limit.
        largest: u64,
    },
    /// A Grundy value past the two bytes a value is stored in.
    #[error("a Grundy value reached 65535 below heap {0}, past the two bytes a value is stored in")]
    ValuesTooLarge(usize),
    /// A checkpoint file that cannot be written or read, or that perfect-play will not touch
    /// (a link, a FIFO, another file).
    #[error("{0}")]
    File(#[from] crate::durable::FileError),
    /// A checkpoint file that cannot be used.
    #[error("{path}: {why}")]
    Checkpoint {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// The computation was asked to stop; the values so far are saved.
    #[error(
        "stopped at heap {heaps}: the values so far are saved in {path}; the same command goes on from there"
    )]
    Stopped {
        /// Heaps whose values are saved.
        heaps: usize,
        /// The checkpoint file.
        path: String,
    },
    /// Misère search past its limit.
    #[error(
        "misère play of these heaps needs more than {0} positions of exact search; try smaller heaps"
    )]
    MisereTooLarge(usize),
}

/// The largest `upto` accepted: 2^40, a terabyte at a byte a value (in practice the memory
/// limit, with [`table_bytes`], says how far a run can go).
pub const MAX_UPTO: u64 = 1 << 40;

/// The largest `upto` kept at two bytes a value by [`Storage::Auto`] (2 GiB); past it a table
/// packs values into one byte each.
pub const MAX_WIDE_UPTO: u64 = 1 << 30;

/// How the values of a computation are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Storage {
    /// Two bytes a value up to [`MAX_WIDE_UPTO`], one byte beyond.
    #[default]
    Auto,
    /// Two bytes a value.
    Wide,
    /// One byte a value, but for the runs [`Packing`] keeps at two (see [`table`]).
    Packed(Packing),
}

impl Storage {
    /// The storage [`Storage::Auto`] stands for at `upto`, the others themselves.
    #[must_use]
    pub fn resolve(self, upto: u64) -> Storage {
        match self {
            Storage::Auto if upto > MAX_WIDE_UPTO => Storage::Packed(Packing::default()),
            Storage::Auto => Storage::Wide,
            other => other,
        }
    }
}

/// About how many bytes computing heaps `0..=upto` with `storage` holds at its peak: the
/// table, the helper thread's copy (all of a wide table, a packed one's two-byte runs) and the
/// period watcher's fingerprints. The few rare and escaped heaps are left out.
#[must_use]
pub fn table_bytes(upto: u64, storage: Storage) -> u64 {
    let heaps = upto.saturating_add(1);
    // One window in 16 to 2^24, one in 1,024 beyond, some 24 bytes each in a hash map.
    let fingerprints = 24 * (heaps.min(1 << 24) / 16 + heaps.saturating_sub(1 << 24) / 1024);
    let table = match storage.resolve(upto) {
        // The helper's copy: the two-byte runs only.
        Storage::Packed(packing) => {
            packing.bytes(heaps) + 2 * (packing.from as u64 + 2 * packing.window as u64)
        }
        _ => 2 * 2 * heaps,
    };
    table.saturating_add(fingerprints)
}

/// Three-way splits (hexadecimal digits) examined at most in one computation: about
/// a minute here (0.3F to heap 4000, 1.8e9 splits, takes 3.2 s).
pub const MAX_THREE_WAY_SPLITS: f64 = 3e10;

/// About how many three-way splits computing heaps `0..=upto` examines: a rest of `r` tokens
/// has about `r^2 / 12` splits into three heaps.
#[must_use]
pub fn three_way_splits(code: &OctalCode, upto: u64) -> f64 {
    let upto = upto as f64;
    code.removals_with(8)
        .iter()
        .map(|&k| {
            let r = (upto - k as f64).max(0.0);
            r * (r + 1.0) * (2.0 * r + 1.0) / 72.0
        })
        .sum()
}

/// The largest `upto` whose three-way splits stay within [`MAX_THREE_WAY_SPLITS`] (capped at
/// [`MAX_UPTO`]).
#[must_use]
pub fn largest_upto(code: &OctalCode) -> u64 {
    largest_upto_within(code, MAX_THREE_WAY_SPLITS)
}

/// The largest `upto` whose three-way splits stay within `splits` (capped at [`MAX_UPTO`]).
fn largest_upto_within(code: &OctalCode, splits: f64) -> u64 {
    let (mut low, mut high) = (0u64, MAX_UPTO);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        if three_way_splits(code, mid) <= splits {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    low
}

/// Three-way splits examined a second here (0.3F to heap 4000: 1.8e9 splits in 3.2 s).
pub const SPLITS_PER_SECOND: f64 = 5.6e8;

/// Seconds the values of an octal code take to heap 10^6 here, the slowest of those measured
/// (Grundy's game, .6 and .14 alike), and the power of the heap their time grows with: 0.68 s
/// at 2^18, 2.78 s at 2^20, 11.0 s at 2^22, 76 s at 2^24 for Grundy's game (BENCHMARKS.md,
/// 2026-12-03, third registry session).
const SECONDS_AT_A_MILLION: f64 = 2.7;
const GROWTH: f64 = 1.2;

/// About how long computing heaps `0..=upto` takes here: the three-way splits of a hexadecimal
/// code at [`SPLITS_PER_SECOND`], else the slowest octal code's measured time scaled by
/// `upto^1.2`. An upper bound for a run that stops at a period.
#[must_use]
pub fn estimated_seconds(code: &OctalCode, upto: u64) -> f64 {
    if code.is_hexadecimal() {
        three_way_splits(code, upto) / SPLITS_PER_SECOND
    } else {
        SECONDS_AT_A_MILLION * (upto as f64 / 1e6).powf(GROWTH)
    }
}

/// Three-way splits a look for a period may examine before a heap past the values a run can
/// compute is refused: about half a second here.
pub const PROBE_SPLITS: f64 = 3e8;

/// Heaps computed to look for a period when a heap asked about is past what one run can
/// compute: 2^20 for an octal code (a second or two at worst, and the run stops at the period
/// proven, most often far sooner), and for a hexadecimal code what [`PROBE_SPLITS`] allows.
#[must_use]
pub fn probe_upto(code: &OctalCode) -> u64 {
    if code.is_hexadecimal() {
        largest_upto_within(code, PROBE_SPLITS)
    } else {
        1 << 20
    }
}

/// Octal games with no known period, from tczajka/octal-games' UnsolvedGames.md (2018; Grundy's
/// game and .6 computed there to 2^21, .04 and .06 to 2^17, the rest listed without figures),
/// the list copied in `tests/reference/octal_periods_tczajka_solved_unsolved.txt`.
const NO_KNOWN_PERIOD: &str = ".6 .04 .06 .14 .36 .64 .74 .76 .004 .005 .006 .014 .015 .016 .024 \
    .026 .034 .054 .064 .104 .106 .114 .125 .126 .135 .136 .142 .143 .146 .161 .162 .163 .164 \
    .166 .167 .172 .174 .204 .205 .206 .207 .224 .244 .245 .264 .314 .324 .334 .336 .342 .344 \
    .346 .362 .364 .366 .371 .374 .404 .414 .416 .444 .454 .564 .604 .606 .744 .764 .774 .776 \
    4.004 4.007 4.026 4.044 4.045 4.064 4.324 4.327 4.344 4.364 4.367 4.404 4.406";

/// Whether no period is known for `code` (Grundy's game, and the octal games of
/// `NO_KNOWN_PERIOD`): a heap past the values one run computes is refused at once, since
/// the run's look for a period would only repeat, shorter, what found none.
#[must_use]
pub fn period_unknown(code: &OctalCode) -> bool {
    *code == OctalCode::grundys_game()
        || NO_KNOWN_PERIOD
            .split_whitespace()
            .any(|listed| listed.parse::<OctalCode>().is_ok_and(|c| c == *code))
}

/// How to compute Grundy values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The rare/common split while it examines fewer options than the naive loop, the naive
    /// loop otherwise ([`grundy::RareCommon::adaptive`]).
    #[default]
    Auto,
    /// Every option of every heap (the definition).
    Naive,
    /// The rare/common split always (see [`grundy::RareCommon`]).
    RareCommon,
}

/// How far to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Compute heaps `0..=upto` at most.
    pub upto: u64,
    /// Keep computing to `upto` after a period is proven.
    pub full: bool,
    /// The method.
    pub method: Method,
    /// How the values are kept.
    pub storage: Storage,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            upto: 1 << 20,
            full: false,
            method: Method::Auto,
            storage: Storage::Auto,
        }
    }
}

/// Grundy values of single heaps, with the period when one is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrundySequence {
    /// The game.
    pub code: OctalCode,
    /// Values of heaps `0..values.len()`.
    pub values: ValueTable,
    /// The proven period, if any.
    pub period: Option<Period>,
}

impl GrundySequence {
    /// Compute values until a period is proven (unless `options.full`) or `options.upto`.
    /// `on_progress(done, total)` is called every 4096 heaps.
    ///
    /// # Errors
    /// [`OctalError::UptoTooLarge`] past [`MAX_UPTO`].
    pub fn compute(
        code: &OctalCode,
        options: &Options,
        on_progress: &dyn Fn(u64, u64),
    ) -> Result<GrundySequence, OctalError> {
        GrundySequence::compute_resumable(code, options, None, &Cancel::new(), on_progress)
    }

    /// [`GrundySequence::compute`] from the values a checkpoint holds (those past `upto`
    /// aside), saving them there every [`GrundyCheckpoint::interval`] and at the end. When
    /// `stop` is raised (by a Ctrl-C handler, a client gone) the run ends within a heap's
    /// work: with a checkpoint, the values so far are saved and the error is
    /// [`OctalError::Stopped`] (the same call then goes on from them, and the values come out
    /// as an uninterrupted run's); without one, [`OctalError::Cancelled`].
    ///
    /// # Errors
    /// As [`GrundySequence::compute`]; [`OctalError::Checkpoint`] when the checkpoint cannot
    /// be written; [`OctalError::Stopped`] or [`OctalError::Cancelled`] when stopped.
    pub fn compute_resumable(
        code: &OctalCode,
        options: &Options,
        checkpoint: Option<&mut GrundyCheckpoint>,
        stop: &Cancel,
        on_progress: &dyn Fn(u64, u64),
    ) -> Result<GrundySequence, OctalError> {
        if options.upto > MAX_UPTO {
            return Err(OctalError::UptoTooLarge(options.upto));
        }
        let splits = three_way_splits(code, options.upto);
        if splits > MAX_THREE_WAY_SPLITS {
            return Err(OctalError::TooMuchWork {
                upto: options.upto,
                splits: splits as u64,
                limit: MAX_THREE_WAY_SPLITS as u64,
                largest: largest_upto(code),
            });
        }
        let run = Run {
            code,
            options,
            checkpoint,
            stop,
            on_progress,
        };
        let table = match options.storage.resolve(options.upto) {
            Storage::Packed(packing) => ValueTable::packed(packing),
            _ => ValueTable::wide(),
        };
        let (values, period) = match options.method {
            Method::Naive => run.go(Naive::new(code).with_table(table)),
            Method::Auto => run.go(RareCommon::adaptive(code).with_table(table)),
            Method::RareCommon => run.go(RareCommon::new(code).with_table(table)),
        }?;
        Ok(GrundySequence {
            code: code.clone(),
            values,
            period,
        })
    }

    /// The value of heap `n`, from the computed values or the period.
    #[must_use]
    pub fn value(&self, n: u64) -> Option<u16> {
        if let Some(v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Some(v);
        }
        let p = self.period?;
        let index = p.preperiod + (n - p.preperiod) % p.period;
        self.values.get(usize::try_from(index).ok()?)
    }

    /// The value of a heap of any size.
    #[must_use]
    pub fn value_of(&self, n: &BigUint) -> Option<u16> {
        if let Some(small) = n.to_u64() {
            return self.value(small);
        }
        let p = self.period?;
        let offset = ((n - p.preperiod) % p.period).to_u64()?;
        self.values.get(usize::try_from(p.preperiod + offset).ok()?)
    }

    /// Values of heaps `0..=n`, extended by the period past those computed.
    #[must_use]
    pub fn values_upto(&self, n: u64) -> Option<Vec<u16>> {
        (0..=n).map(|i| self.value(i)).collect()
    }
}

/// One computation's settings, for each method alike.
struct Run<'a> {
    code: &'a OctalCode,
    options: &'a Options,
    checkpoint: Option<&'a mut GrundyCheckpoint>,
    stop: &'a Cancel,
    on_progress: &'a dyn Fn(u64, u64),
}

impl Run<'_> {
    fn go<M: GrundyMethod>(
        mut self,
        mut method: M,
    ) -> Result<(ValueTable, Option<Period>), OctalError> {
        let (code, options) = (self.code, self.options);
        let mut tracker =
            periodicity::PeriodTracker::new(code.largest_removal(), code.most_parts());
        let mut period = None;
        let tracking = !code.restricts_parts();
        let upto = usize::try_from(options.upto).unwrap_or(usize::MAX);
        // The saved values, taken as computed, and the period search over them again.
        if let Some(checkpoint) = self.checkpoint.as_ref() {
            checkpoint.read(&mut |v| {
                method.resume(v);
                if tracking && period.is_none() {
                    period = tracker.push(method.values());
                }
                method.values().len() <= upto
            })?;
        }
        let mut failure = None;
        let mut stopped = false;
        if period.is_none() || options.full {
            method.extend(upto, &mut |values| {
                let n = values.len() - 1;
                if tracking && period.is_none() {
                    period = tracker.push(values);
                    if period.is_some() && !options.full {
                        return false;
                    }
                }
                if n % 4096 == 0 {
                    (self.on_progress)(n as u64, options.upto);
                }
                // Each heap: a large heap of a hexadecimal code alone takes seconds.
                if self.stop.is_cancelled() {
                    stopped = true;
                    return false;
                }
                if n % 4096 == 0
                    && let Some(checkpoint) = self.checkpoint.as_mut().filter(|c| c.due())
                    && let Err(e) = checkpoint.save(values)
                {
                    failure = Some(e);
                    return false;
                }
                true
            });
        }
        if let Some(e) = failure {
            return Err(e);
        }
        if method.overflowed() {
            return Err(OctalError::ValuesTooLarge(method.values().len()));
        }
        if let Some(checkpoint) = self.checkpoint.as_mut() {
            checkpoint.save(method.values())?;
            if stopped {
                return Err(OctalError::Stopped {
                    heaps: method.values().len(),
                    path: checkpoint.path().display().to_string(),
                });
            }
        }
        if stopped {
            return Err(crate::budget::Cancelled.into());
        }
        (self.on_progress)(options.upto, options.upto);
        Ok((method.into_values(), period))
    }
}

/// A move in a sum of heaps: from heap `heap` (0-based) take `take` tokens, leaving `leaves`
/// (no heap, one heap or two heaps).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OctalMove {
    /// Index of the heap, 0-based.
    pub heap: usize,
    /// Tokens removed.
    pub take: usize,
    /// The heaps left in its place.
    #[serde(serialize_with = "serialize_heaps")]
    pub leaves: Vec<BigUint>,
}

fn serialize_heaps<S: serde::Serializer>(heaps: &[BigUint], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(heaps.len()))?;
    for h in heaps {
        match h.to_u64() {
            Some(v) => seq.serialize_element(&v)?,
            None => seq.serialize_element(&h.to_string())?,
        }
    }
    seq.end()
}

/// The answer for a sum of heaps in normal play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumAnalysis {
    /// Grundy value of each heap.
    pub grundy: Vec<u16>,
    /// Their XOR.
    pub nim_sum: u16,
    /// Whether the player to move wins.
    pub first_player_wins: bool,
    /// The first winning moves (at most [`MAX_LISTED_MOVES`]): heaps in the order given,
    /// fewest tokens taken first, smaller split parts first.
    pub winning_moves: Vec<OctalMove>,
    /// How many winning moves there are in all. A move is one distinct resulting position:
    /// a split into `a` and `b` is one move, and equal heaps give the same moves, listed for
    /// the first of them.
    pub winning_moves_total: BigUint,
}

/// Most winning moves listed for a sum.
pub const MAX_LISTED_MOVES: usize = 100;

/// Splits of one heap counted one by one up to this many; past it (a heap far beyond the
/// computed values) they are counted by residue class of the period.
const DIRECT_SPLITS: u64 = 1 << 22;

/// Every move from a heap of `n`, as (tokens taken, heaps left), while `keep` returns true.
/// Splits of a huge heap are enumerated only while the smallest part stays below `part_limit`.
fn each_move(
    code: &OctalCode,
    n: &BigUint,
    part_limit: u64,
    keep: &mut dyn FnMut(usize, Vec<BigUint>) -> bool,
) {
    for k in 0..=code.largest_removal() {
        let d = code.digit(k);
        let parts = code.parts(k);
        let kb = BigUint::from(k);
        if d & 1 != 0 && k > 0 && *n == kb && !keep(k, Vec::new()) {
            return;
        }
        if *n <= kb {
            continue;
        }
        let rest = n - &kb;
        if d & 2 != 0 && k > 0 && !keep(k, vec![rest.clone()]) {
            return;
        }
        if d & 4 != 0 && rest >= BigUint::from(2u8) {
            let half: BigUint = &rest / 2u8;
            let last = half.to_u64().map_or(part_limit, |h| h.min(part_limit));
            for a in 1..=last {
                let a = BigUint::from(a);
                let b = &rest - &a;
                if (parts == Parts::Any || a != b) && !keep(k, vec![a, b]) {
                    return;
                }
            }
        }
        if d & 8 != 0
            && rest >= BigUint::from(3u8)
            && let Some(r) = rest.to_u64()
        {
            // Three heaps: only for heaps whose splits can be listed (the callers bound them).
            for (a, b, c) in three_way(r, parts) {
                if !keep(k, vec![a.into(), b.into(), c.into()]) {
                    return;
                }
            }
        }
    }
}

/// The splits of `rest` into three heaps `a <= b <= c` that `parts` allows, smallest parts first.
fn three_way(rest: u64, parts: Parts) -> impl Iterator<Item = (u64, u64, u64)> {
    (1..=rest / 3).flat_map(move |a| {
        (a..=(rest - a) / 2)
            .map(move |b| (a, b, rest - a - b))
            .filter(move |&(a, b, c)| parts.allows_three(a as usize, b as usize, c as usize))
    })
}

/// Normal play on a sum of heaps: Grundy values, nim-sum, the winning moves and their number.
///
/// # Errors
/// [`OctalError::HeapBeyond`] for a heap past the computed values without a proven period.
pub fn analyse_sum(seq: &GrundySequence, heaps: &[BigUint]) -> Result<SumAnalysis, OctalError> {
    let grundy = heaps
        .iter()
        .map(|h| value_or_beyond(seq, h))
        .collect::<Result<Vec<_>, _>>()?;
    let nim_sum = grundy.iter().fold(0, |a, g| a ^ g);
    let mut winning_moves = Vec::new();
    let mut total = BigUint::ZERO;
    if nim_sum != 0 {
        for (i, h) in heaps.iter().enumerate() {
            if heaps[..i].contains(h) {
                continue; // the same positions as moving in the earlier equal heap
            }
            let mut list = |take: usize, leaves: Vec<BigUint>| {
                if winning_moves.len() < MAX_LISTED_MOVES {
                    winning_moves.push(OctalMove {
                        heap: i,
                        take,
                        leaves,
                    });
                }
            };
            total += moves_to_value(seq, h, grundy[i] ^ nim_sum, &mut list)?;
        }
    }
    Ok(SumAnalysis {
        grundy,
        nim_sum,
        first_player_wins: nim_sum != 0,
        winning_moves,
        winning_moves_total: total,
    })
}

/// How many moves from a heap of `n` leave Grundy value `target`; `list` sees each as
/// (tokens taken, heaps left), the first [`MAX_LISTED_MOVES`] splits of each removal at most.
///
/// # Errors
/// [`OctalError::HeapBeyond`] for heaps past the computed values without a proven period.
pub fn moves_to(
    seq: &GrundySequence,
    n: &BigUint,
    target: u16,
    list: &mut dyn FnMut(usize, Vec<BigUint>),
) -> Result<BigUint, OctalError> {
    moves_to_value(seq, n, target, list)
}

/// Every move from a heap of `h`: (tokens taken, heaps left).
#[must_use]
pub fn moves_of(code: &OctalCode, h: u32) -> Vec<(usize, Vec<u32>)> {
    let mut moves = Vec::new();
    each_move(code, &BigUint::from(h), u64::from(h), &mut |k, leaves| {
        moves.push((k, leaves.iter().filter_map(ToPrimitive::to_u32).collect()));
        true
    });
    moves
}

fn value_or_beyond(seq: &GrundySequence, h: &BigUint) -> Result<u16, OctalError> {
    seq.value_of(h).ok_or_else(|| OctalError::HeapBeyond {
        heap: h.to_string(),
        computed: seq.values.len(),
    })
}

/// How many moves from a heap of `n` leave Grundy value `target`; `list` sees them in order
/// (it keeps the first few).
fn moves_to_value(
    seq: &GrundySequence,
    n: &BigUint,
    target: u16,
    list: &mut dyn FnMut(usize, Vec<BigUint>),
) -> Result<BigUint, OctalError> {
    let code = &seq.code;
    let mut total = BigUint::ZERO;
    for k in 0..=code.largest_removal() {
        let d = code.digit(k);
        let kb = BigUint::from(k);
        if d & 1 != 0 && k > 0 && *n == kb && target == 0 {
            total += 1u8;
            list(k, Vec::new());
        }
        if *n <= kb {
            continue;
        }
        let rest = n - &kb;
        if d & 2 != 0 && k > 0 && value_or_beyond(seq, &rest)? == target {
            total += 1u8;
            list(k, vec![rest.clone()]);
        }
        if d & 4 != 0 && rest >= BigUint::from(2u8) {
            let unequal = code.parts(k) != Parts::Any;
            total += splits_to_value(seq, &rest, target, unequal, &mut |a, b| {
                list(k, vec![a, b]);
            })?;
        }
        if d & 8 != 0 && rest >= BigUint::from(3u8) {
            let r = rest
                .to_u64()
                .filter(|&r| r < seq.values.len() as u64)
                .ok_or_else(|| OctalError::HeapBeyond {
                    heap: rest.to_string(),
                    computed: seq.values.len(),
                })?;
            let g = |x: u64| seq.values.at(x as usize);
            for (a, b, c) in three_way(r, code.parts(k)) {
                if g(a) ^ g(b) ^ g(c) == target {
                    total += 1u8;
                    list(k, vec![a.into(), b.into(), c.into()]);
                }
            }
        }
    }
    Ok(total)
}

/// How many splits `a + b = rest` (`1 <= a <= b`, `a < b` if `unequal`) have
/// `g(a) ^ g(b) == target`, listing the first [`MAX_LISTED_MOVES`] with the smaller part first.
fn splits_to_value(
    seq: &GrundySequence,
    rest: &BigUint,
    target: u16,
    unequal: bool,
    list: &mut dyn FnMut(BigUint, BigUint),
) -> Result<BigUint, OctalError> {
    let even = (rest % 2u8).is_zero();
    let half = if unequal && even {
        rest / 2u8 - 1u8
    } else {
        rest / 2u8
    };
    if let Some(half) = half.to_u64().filter(|&h| h <= DIRECT_SPLITS)
        && let Some(rest) = rest.to_u64()
    {
        let mut count = 0u64;
        let g = |x: u64| {
            seq.value(x).ok_or_else(|| OctalError::HeapBeyond {
                heap: x.to_string(),
                computed: seq.values.len(),
            })
        };
        for a in 1..=half {
            if g(a)? ^ g(rest - a)? == target {
                count += 1;
                if count <= MAX_LISTED_MOVES as u64 {
                    list(BigUint::from(a), BigUint::from(rest - a));
                }
            }
        }
        return Ok(BigUint::from(count));
    }
    // Far past the computed values: both parts are periodic once the smaller passes the
    // preperiod, and then the pair's values depend only on the smaller part's residue.
    let period = seq.period.ok_or_else(|| OctalError::HeapBeyond {
        heap: rest.to_string(),
        computed: seq.values.len(),
    })?;
    let (n0, p) = (period.preperiod, period.period);
    let value = |x: u64| seq.value(x).unwrap_or(0);
    // g(rest - a) for the smaller part a >= n0: rest - a - n0 = (rest - n0) - a (mod p).
    let shift = ((rest - n0) % p).to_u64().unwrap_or(0);
    let large = |a: u64| value(n0 + (shift + p - a % p) % p);
    let mut count = BigUint::ZERO;
    let mut listed = 0usize;
    for a in 1..n0.max(1) {
        // rest - a is huge: read its value through the period too.
        let b_index = (shift + p - (a % p)) % p;
        if value(a) ^ value(n0 + b_index) == target {
            count += 1u8;
            if listed < MAX_LISTED_MOVES {
                listed += 1;
                list(BigUint::from(a), rest - a);
            }
        }
    }
    // a in n0..=half: count per residue r = (a - n0) mod p.
    let span = &half + 1u8 - n0; // how many a from n0 to half
    let full = &span / p;
    let extra = (&span % p).to_u64().unwrap_or(0);
    for r in 0..p {
        let a = n0 + r;
        if value(a) ^ large(a) == target {
            count += &full + u8::from(r < extra);
        }
    }
    // List the smallest ones: within p * MAX_LISTED_MOVES of n0 every residue has come round.
    let mut a = n0;
    let last = n0.saturating_add(p.saturating_mul(MAX_LISTED_MOVES as u64 + 1));
    while listed < MAX_LISTED_MOVES && a <= last && BigUint::from(a) <= half {
        if value(a) ^ large(a) == target {
            listed += 1;
            list(BigUint::from(a), rest - a);
        }
        a += 1;
    }
    Ok(count)
}

/// A sum of heaps as a [`Game`]: positions are sorted heap sizes without heaps that have no
/// move; a move is (heap index in that order, tokens taken, the heaps left).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OctalSum {
    /// The game.
    pub code: OctalCode,
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
}

impl OctalSum {
    /// Whether a heap of `h` has any move.
    #[must_use]
    pub fn has_move(&self, h: u32) -> bool {
        let h = u64::from(h);
        (0..=self.code.largest_removal() as u64).any(|k| {
            let d = self.code.digit(k as usize);
            let parts = self.code.parts(k as usize);
            let rest = h.saturating_sub(k);
            (d & 1 != 0 && k > 0 && h == k)
                || (d & 2 != 0 && k > 0 && h > k)
                || (d & 4 != 0
                    && h > k
                    && (1..=rest / 2).any(|a| parts.allows_two(a as usize, (rest - a) as usize)))
                || (d & 8 != 0 && h > k && three_way(rest, parts).next().is_some())
        })
    }

    /// The canonical position: heaps with moves, sorted.
    #[must_use]
    pub fn canonical(&self, mut heaps: Vec<u32>) -> Vec<u32> {
        heaps.retain(|&h| self.has_move(h));
        heaps.sort_unstable();
        heaps
    }
}

impl Game for OctalSum {
    type Position = Vec<u32>;
    type Move = (usize, usize, Vec<u32>);

    fn start(&self) -> Vec<u32> {
        Vec::new()
    }

    fn moves(&self, heaps: &Vec<u32>) -> Vec<(usize, usize, Vec<u32>)> {
        let mut moves = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue; // the same positions as moving in the equal heap before
            }
            each_move(
                &self.code,
                &BigUint::from(h),
                u64::from(h),
                &mut |k, leaves| {
                    let leaves = leaves.iter().filter_map(ToPrimitive::to_u32).collect();
                    moves.push((i, k, leaves));
                    true
                },
            );
        }
        moves
    }

    fn play(
        &self,
        heaps: &Vec<u32>,
        (i, _, leaves): &(usize, usize, Vec<u32>),
    ) -> Transition<Vec<u32>> {
        let mut next = heaps.clone();
        next.swap_remove(*i);
        next.extend(leaves);
        Transition::to(self.canonical(next))
    }

    fn no_moves(&self, _: &Vec<u32>) -> Ending {
        if self.misere {
            Ending::Win
        } else {
            Ending::Loss
        }
    }

    fn position_bytes(&self, heaps: &Vec<u32>) -> usize {
        heaps.len() * std::mem::size_of::<u32>()
    }
}

/// Misère play on a small sum of heaps, by exact search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereAnalysis {
    /// Outcome for the player to move.
    pub outcome: Outcome,
    /// Winning moves: (heap index in the given order, tokens taken, heaps left).
    pub winning_moves: Vec<OctalMove>,
    /// Positions searched.
    pub states: usize,
}

/// Misère play (whoever moves last loses) on `heaps`, by exact search within `max_states`,
/// stopped when `cancel` is raised.
///
/// # Errors
/// [`OctalError::MisereTooLarge`] when the search would visit more than `max_states` positions;
/// [`OctalError::Cancelled`].
pub fn analyse_misere(
    code: &OctalCode,
    heaps: &[u32],
    max_states: usize,
    cancel: &Cancel,
) -> Result<MisereAnalysis, OctalError> {
    let bound = misere_positions_bound(heaps);
    if bound > max_states as u128 {
        return Err(OctalError::MisereTooLarge(max_states));
    }
    let game = OctalSum {
        code: code.clone(),
        misere: true,
    };
    let start = game.canonical(heaps.to_vec());
    let mut solver =
        crate::Solver::with_limit(game.clone(), max_states).with_cancel(cancel.clone());
    let too_large = |e| match e {
        crate::SolveError::Cancelled(c) => OctalError::Cancelled(c),
        _ => OctalError::MisereTooLarge(max_states),
    };
    let value = solver.try_value(&start).map_err(too_large)?;
    let mut winning_moves = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        let mut rest = heaps.to_vec();
        rest.remove(i);
        let mut candidates: Vec<(usize, Vec<u32>)> = Vec::new();
        each_move(
            code,
            &BigUint::from(h),
            u64::from(h),
            &mut |take, leaves| {
                candidates.push((
                    take,
                    leaves.iter().map(|l| l.to_u32().unwrap_or(0)).collect(),
                ));
                true
            },
        );
        for (take, leaves) in candidates {
            let mut after = rest.clone();
            after.extend(&leaves);
            let v = solver
                .try_value(&game.canonical(after))
                .map_err(too_large)?;
            if v.outcome() == Outcome::Loss {
                winning_moves.push(OctalMove {
                    heap: i,
                    take,
                    leaves: leaves.into_iter().map(BigUint::from).collect(),
                });
            }
        }
    }
    Ok(MisereAnalysis {
        outcome: value.outcome(),
        winning_moves,
        states: solver.states(),
    })
}

/// An upper bound on the positions a misère search from `heaps` visits. Every position reached
/// from a heap of h is a partition of at most h tokens, and no move adds a token: a position
/// reached is a multiset of heaps of at most the heaps' total. The smaller of the two counts
/// (the product of the heaps' and the total's) is within 10x of the search for Kayles on small
/// heaps (`octal::tests`): 28,629 for 10 10 10, searched 5,609, where the product alone said 5.4
/// million.
#[must_use]
pub fn misere_positions_bound(heaps: &[u32]) -> u128 {
    let product = heaps
        .iter()
        .map(|&h| partitions_up_to(h))
        .try_fold(1u128, u128::checked_mul)
        .unwrap_or(u128::MAX);
    let total = heaps
        .iter()
        .try_fold(0u32, |sum, &h| sum.checked_add(h))
        .map_or(u128::MAX, partitions_up_to);
    product.min(total)
}

/// Heaps past this size are beyond any misère search: p(400) alone is about 6.9 x 10^18.
const LARGEST_SEARCHED_HEAP: u32 = 400;

/// How many multisets of positive heaps hold at most `n` tokens in all: p(0) + ... + p(n),
/// or `u128::MAX` past [`LARGEST_SEARCHED_HEAP`] (the count takes time quadratic in `n`, so a
/// heap of millions must not be counted).
pub(crate) fn partitions_up_to(n: u32) -> u128 {
    if n > LARGEST_SEARCHED_HEAP {
        return u128::MAX;
    }
    let n = n as usize;
    let mut ways = vec![0u128; n + 1];
    ways[0] = 1;
    for part in 1..=n {
        for total in part..=n {
            ways[total] = ways[total].saturating_add(ways[total - part]);
        }
    }
    ways.iter().fold(0u128, |a, &w| a.saturating_add(w))
}

#[cfg(test)]
mod tests;
