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

pub mod code;
pub mod grundy;
pub mod periodicity;

pub use code::{CodeError, OctalCode};

use crate::game::{Ending, Game, Transition};
use crate::period::Period;
use crate::player::Outcome;
use grundy::{GrundyMethod, Naive, RareCommon};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde::Serialize;
use thiserror::Error;

/// Why an octal query cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OctalError {
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
    /// `--upto` past what the engine stores.
    #[error("--upto {0} is too large: values up to {MAX_UPTO} heaps can be computed")]
    UptoTooLarge(u64),
    /// Misère search past its limit.
    #[error(
        "misère play of these heaps needs more than {0} positions of exact search; try smaller heaps"
    )]
    MisereTooLarge(usize),
}

/// The largest `upto` accepted (two bytes a value: 2 GiB).
pub const MAX_UPTO: u64 = 1 << 30;

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
}

impl Default for Options {
    fn default() -> Options {
        Options {
            upto: 1 << 20,
            full: false,
            method: Method::Auto,
        }
    }
}

/// Grundy values of single heaps, with the period when one is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrundySequence {
    /// The game.
    pub code: OctalCode,
    /// Values of heaps `0..values.len()`.
    pub values: Vec<u16>,
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
        if options.upto > MAX_UPTO {
            return Err(OctalError::UptoTooLarge(options.upto));
        }
        let (values, period) = match options.method {
            Method::Naive => run(Naive::new(code), code, options, on_progress),
            Method::Auto => run(RareCommon::adaptive(code), code, options, on_progress),
            Method::RareCommon => run(RareCommon::new(code), code, options, on_progress),
        };
        Ok(GrundySequence {
            code: code.clone(),
            values,
            period,
        })
    }

    /// The value of heap `n`, from the computed values or the period.
    #[must_use]
    pub fn value(&self, n: u64) -> Option<u16> {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Some(v);
        }
        let p = self.period?;
        let index = p.preperiod + (n - p.preperiod) % p.period;
        self.values.get(index as usize).copied()
    }

    /// The value of a heap of any size.
    #[must_use]
    pub fn value_of(&self, n: &BigUint) -> Option<u16> {
        if let Some(small) = n.to_u64() {
            return self.value(small);
        }
        let p = self.period?;
        let offset = ((n - p.preperiod) % p.period).to_u64()?;
        self.values.get((p.preperiod + offset) as usize).copied()
    }

    /// Values of heaps `0..=n`, extended by the period past those computed.
    #[must_use]
    pub fn values_upto(&self, n: u64) -> Option<Vec<u16>> {
        (0..=n).map(|i| self.value(i)).collect()
    }
}

fn run<M: GrundyMethod>(
    mut method: M,
    code: &OctalCode,
    options: &Options,
    on_progress: &dyn Fn(u64, u64),
) -> (Vec<u16>, Option<Period>) {
    let mut tracker = periodicity::PeriodTracker::new(code.largest_removal());
    let mut period = None;
    for n in 0..=options.upto {
        method.step();
        if period.is_none() {
            period = tracker.push(method.values());
            if period.is_some() && !options.full {
                break;
            }
        }
        if n % 4096 == 0 {
            on_progress(n, options.upto);
        }
    }
    on_progress(options.upto, options.upto);
    let values = method.values().to_vec();
    (values, period)
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
/// Splits of a huge heap are enumerated only while the smaller part stays below `part_limit`.
fn each_move(
    code: &OctalCode,
    n: &BigUint,
    part_limit: u64,
    keep: &mut dyn FnMut(usize, Vec<BigUint>) -> bool,
) {
    for k in 0..=code.largest_removal() {
        let d = code.digit(k);
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
                if !keep(k, vec![a, b]) {
                    return;
                }
            }
        }
    }
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
            total += splits_to_value(seq, &rest, target, &mut |a, b| list(k, vec![a, b]))?;
        }
    }
    Ok(total)
}

/// How many splits `a + b = rest` (`1 <= a <= b`) have `g(a) ^ g(b) == target`, listing the
/// first [`MAX_LISTED_MOVES`] with the smaller part first.
fn splits_to_value(
    seq: &GrundySequence,
    rest: &BigUint,
    target: u16,
    list: &mut dyn FnMut(BigUint, BigUint),
) -> Result<BigUint, OctalError> {
    let half = rest / 2u8;
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
/// move; moves are (heap index in that order, tokens taken, smaller part of a split or 0).
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
        let h = h as usize;
        (0..=self.code.largest_removal()).any(|k| {
            let d = self.code.digit(k);
            (d & 1 != 0 && k > 0 && h == k)
                || (d & 2 != 0 && k > 0 && h > k)
                || (d & 4 != 0 && h >= k + 2)
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
    type Move = (usize, usize, u32);

    fn start(&self) -> Vec<u32> {
        Vec::new()
    }

    fn moves(&self, heaps: &Vec<u32>) -> Vec<(usize, usize, u32)> {
        let mut moves = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue;
            }
            let hu = h as usize;
            for k in 0..=self.code.largest_removal().min(hu) {
                let d = self.code.digit(k);
                if d & 1 != 0 && k > 0 && hu == k {
                    moves.push((i, k, 0));
                }
                if d & 2 != 0 && k > 0 && hu > k {
                    moves.push((i, k, 0));
                }
                if d & 4 != 0 && hu >= k + 2 {
                    for a in 1..=((hu - k) / 2) as u32 {
                        moves.push((i, k, a));
                    }
                }
            }
        }
        moves.dedup();
        moves
    }

    fn play(&self, heaps: &Vec<u32>, &(i, k, a): &(usize, usize, u32)) -> Transition<Vec<u32>> {
        let mut next = heaps.clone();
        let rest = next.swap_remove(i) - k as u32;
        if a > 0 {
            next.extend([a, rest - a]);
        } else if rest > 0 {
            next.push(rest);
        }
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

/// Misère play (whoever moves last loses) on `heaps`, by exact search within `max_states`.
///
/// # Errors
/// [`OctalError::MisereTooLarge`] when the search would visit more than `max_states` positions.
pub fn analyse_misere(
    code: &OctalCode,
    heaps: &[u32],
    max_states: usize,
) -> Result<MisereAnalysis, OctalError> {
    // Every position reached from a heap of h is a partition of at most h tokens: refuse up
    // front when the product of those counts exceeds the limit.
    let bound = heaps
        .iter()
        .map(|&h| partitions_up_to(h))
        .try_fold(1u128, u128::checked_mul)
        .unwrap_or(u128::MAX);
    if bound > max_states as u128 {
        return Err(OctalError::MisereTooLarge(max_states));
    }
    let game = OctalSum {
        code: code.clone(),
        misere: true,
    };
    let start = game.canonical(heaps.to_vec());
    let mut solver = crate::Solver::with_limit(game.clone(), max_states);
    let too_large = OctalError::MisereTooLarge(max_states);
    let value = solver.try_value(&start).map_err(|_| too_large.clone())?;
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
                .map_err(|_| too_large.clone())?;
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

/// Heaps past this size are beyond any misère search: p(400) alone is about 6.9 x 10^18.
const LARGEST_SEARCHED_HEAP: u32 = 400;

/// How many multisets of positive heaps hold at most `n` tokens in all: p(0) + ... + p(n),
/// or `u128::MAX` past [`LARGEST_SEARCHED_HEAP`] (the count takes time quadratic in `n`, so a
/// heap of millions must not be counted).
fn partitions_up_to(n: u32) -> u128 {
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
