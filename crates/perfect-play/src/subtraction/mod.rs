//! Subtraction games: a pile of coins, a move takes exactly `s` coins for some `s` in a finite
//! set `S` (the coin seed's `{1, x, y}`); in normal play whoever takes the last coin wins, in
//! misère play whoever takes it loses.
//!
//! ```
//! use perfect_play::subtraction::coin_game_winner;
//! use perfect_play::Player;
//!
//! // Moves 1, 3, 4: the losing piles are 0 and 2 modulo 7.
//! assert_eq!(coin_game_winner(7, 3, 4), Ok(Player::Second));
//! assert_eq!(coin_game_winner(8, 3, 4), Ok(Player::First));
//! assert_eq!(coin_game_winner(0, 3, 4), Ok(Player::Second)); // no coins: B wins
//! ```
//!
//! Every answer comes from the Grundy sequence, whose period is found and proven
//! ([`period::find_period`]) before any pile is answered, so a pile of `10^100` coins costs no
//! more than a pile of 100. The seed's sets `{1, x, y}` with `y >= 64` take [`three`]: 64 piles
//! a word, in memory `O(y + period)` however long the preperiod.

pub mod period;
pub mod three;

use crate::budget::Cancel;
use crate::game::{Ending, Game, Transition};
use crate::nim;
use crate::player::{Outcome, Player};
pub use period::{NoPeriodWithin, Period, Proof};

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde::Serialize;
use thiserror::Error;

/// The largest number of distinct moves (Grundy values then fit in a byte).
pub const MAX_MOVES: usize = 64;
/// The largest single move.
pub const MAX_MOVE: u64 = 100_000_000;

/// Why a subtraction-game query cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SubtractionError {
    /// The work was cancelled (its [`crate::budget::Cancel`] raised) before it finished.
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// A move of 0 coins.
    #[error("a move must take at least 1 coin; 0 is not a move")]
    ZeroMove,
    /// No move at all.
    #[error("the move set is empty: give at least one move, e.g. --moves 1,3,4")]
    NoMoves,
    /// Too many distinct moves.
    #[error("{0} distinct moves is too many: at most 64 are supported")]
    TooManyMoves(usize),
    /// A move too large to tabulate.
    #[error("a move of {0} coins is too large: moves up to {MAX_MOVE} are supported")]
    MoveTooLarge(u64),
    /// The period search reached its limit.
    #[error(
        "no period proven within the first {0} pile sizes (the period search's limit, Limits::max_values)"
    )]
    NoPeriod(u64),
    /// The period search's limit is below the least any proof of a period needs.
    #[error(
        "no period provable within the first {limit} pile sizes (the period search's limit, Limits::max_values): any proof for these moves needs at least {needed}, twice the smallest move plus the largest and one"
    )]
    PeriodPastLimit {
        /// The fewest pile values a proof needs.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// A misère sum whose search would exceed its limit.
    #[error(
        "misère play with several piles is solved by exact search over at most {0} positions (the product of pile + 1), and these piles exceed it; use fewer or smaller piles"
    )]
    SearchTooLarge(usize),
    /// The `{1, x, y}` method's memory, past the limit.
    #[error(
        "the method for {{1, x, y}} keeps about {bytes_per_coin} bytes per coin of the largest move: {needed} for a move of {largest}, above the memory limit of {limit}; raise --memory-limit"
    )]
    OverMemory {
        /// The largest move.
        largest: u64,
        /// Bytes per coin of it.
        bytes_per_coin: u64,
        /// The bytes needed, for a person.
        needed: String,
        /// The limit, for a person.
        limit: String,
    },
}

/// The rule that decides who wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Taking the last coin wins.
    Normal,
    /// Taking the last coin loses.
    Misere,
}

/// Limits on the work one query may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most pile sizes whose values the general period search may compute (it keeps each, one
    /// byte a pile, so this bounds memory).
    pub max_values: u64,
    /// Most pile sizes the `{1, x, y}` method (`y >= 64`) may generate while it searches for
    /// the period. It keeps `O(y + period)` of them, so this bounds time only: about 0.4 ns a
    /// pile, 8 s at the default. Preperiods near `y^2 / x` occur (595,262,357 for
    /// `{1, 1228, 999213}`).
    pub max_streamed_values: u64,
    /// Most positions the exact misère search over several piles may visit.
    pub max_search_states: usize,
    /// Use the 64-piles-a-word method for `{1, x, y}` and `{1, y}` with `y >= 64` (tests turn
    /// it off to compare it with the general method).
    pub word_parallel: bool,
    /// How many leading values that method keeps besides one period, so memory stays
    /// `O(y + period)` however long the preperiod. Piles between them and the preperiod are
    /// kept when given up front ([`Sequence::compute_for`]), else generated again when asked.
    pub kept_prefix: usize,
    /// Most bytes the `{1, x, y}` method may keep (its ring and checkpoints: about 4 bytes
    /// per coin of the largest move, 8 in misère play, measured for 99,999,989).
    pub max_bytes: u64,
    /// Raised to stop the work: it ends with [`SubtractionError::Cancelled`].
    pub cancel: Cancel,
}

impl Limits {
    /// Whether `set` takes the `{1, x, y}` method under these limits.
    fn takes_word_path(&self, set: &SubtractionSet) -> bool {
        self.word_parallel && three::applies(set)
    }

    /// The period search's limit for `set`: [`Limits::max_streamed_values`] for the
    /// `{1, x, y}` method, [`Limits::max_values`] otherwise.
    #[must_use]
    pub fn search_limit(&self, set: &SubtractionSet) -> u64 {
        if self.takes_word_path(set) {
            self.max_streamed_values
        } else {
            self.max_values
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_values: 200_000_000,
            max_streamed_values: 20_000_000_000,
            max_search_states: 2_000_000,
            word_parallel: true,
            kept_prefix: 1 << 20,
            max_bytes: u64::MAX,
            cancel: Cancel::new(),
        }
    }
}

/// A finite set of positive move sizes, kept sorted and without repeats.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SubtractionSet {
    moves: Vec<u64>,
}

impl SubtractionSet {
    /// A set from any list of sizes (repeats are merged: the seed allows `x == y`).
    ///
    /// # Errors
    /// Moves must be between 1 and [`MAX_MOVE`], at most [`MAX_MOVES`] distinct ones.
    pub fn new(moves: &[u64]) -> Result<SubtractionSet, SubtractionError> {
        let mut moves = moves.to_vec();
        moves.sort_unstable();
        moves.dedup();
        match moves.as_slice() {
            [] => Err(SubtractionError::NoMoves),
            [0, ..] => Err(SubtractionError::ZeroMove),
            _ if moves.len() > MAX_MOVES => Err(SubtractionError::TooManyMoves(moves.len())),
            [.., last] if *last > MAX_MOVE => Err(SubtractionError::MoveTooLarge(*last)),
            _ => Ok(SubtractionSet { moves }),
        }
    }

    /// The seed's set `{1, x, y}`.
    ///
    /// # Errors
    /// As [`SubtractionSet::new`].
    pub fn coin_game(x: u64, y: u64) -> Result<SubtractionSet, SubtractionError> {
        SubtractionSet::new(&[1, x, y])
    }

    /// The moves, smallest first.
    #[must_use]
    pub fn moves(&self) -> &[u64] {
        &self.moves
    }

    /// The largest move: the window that determines the next value.
    #[must_use]
    pub fn largest(&self) -> u64 {
        *self.moves.last().expect("non-empty")
    }

    /// Whether every pile size from 1 to `max` is a move (then the game is Nim on those piles).
    #[must_use]
    pub fn contains_all_up_to(&self, max: u64) -> bool {
        max == 0 || (self.moves.len() as u64 >= max && self.moves[max as usize - 1] == max)
    }
}

/// Where a sequence keeps its values.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Store {
    /// One byte per pile.
    Bytes(Vec<u8>),
    /// Two bits per pile for a prefix and one period (the `{1, x, y}` fast path).
    Planes(three::Values),
}

/// The values of every pile size, stored up to the proven period and answered beyond it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    rule: Rule,
    values: Store,
    /// The proven period of the values.
    pub period: Period,
    /// The matching windows that prove it.
    pub proof: Proof,
    /// The proven period of the win/loss pattern (can be shorter).
    pub outcome_period: Period,
    /// How many values the search computed.
    pub values_computed: u64,
}

impl Sequence {
    /// Compute values until the period is proven.
    ///
    /// In normal play the values are Sprague-Grundy values; in misère play they are misère
    /// Grundy values (a pile with no move is worth 1), and a pile is lost exactly when its
    /// value is 0 in either case.
    ///
    /// # Errors
    /// [`SubtractionError::NoPeriod`] past `limits.max_values`.
    pub fn compute(
        set: &SubtractionSet,
        rule: Rule,
        limits: &Limits,
    ) -> Result<Sequence, SubtractionError> {
        Sequence::compute_for(set, rule, limits, &[])
    }

    /// As [`Sequence::compute`], and keep the values of `piles` as well: for `{1, x, y}`,
    /// piles inside a long preperiod are caught as the search passes them instead of being
    /// generated again when asked.
    ///
    /// # Errors
    /// As [`Sequence::compute`].
    pub fn compute_for(
        set: &SubtractionSet,
        rule: Rule,
        limits: &Limits,
        piles: &[u64],
    ) -> Result<Sequence, SubtractionError> {
        if limits.takes_word_path(set) {
            // 371 MB measured for {1, 99999971, 99999989}, 719 MB in misère play.
            let bytes_per_coin = if rule == Rule::Misere { 8 } else { 4 };
            let needed = set.largest().saturating_mul(bytes_per_coin) + (1 << 20);
            if needed > limits.max_bytes {
                return Err(SubtractionError::OverMemory {
                    largest: set.largest(),
                    bytes_per_coin,
                    needed: crate::parse::human_size(needed),
                    limit: crate::parse::human_size(limits.max_bytes),
                });
            }
            let limit = usize::try_from(limits.max_streamed_values).unwrap_or(usize::MAX);
            let computed =
                three::compute(set, rule, limit, limits.kept_prefix, piles, &limits.cancel);
            limits.cancel.check()?;
            let values = computed.ok_or(SubtractionError::NoPeriod(limits.max_streamed_values))?;
            return Ok(Sequence {
                rule,
                period: values.period,
                outcome_period: values.outcome_period,
                values_computed: values.values_computed,
                proof: Proof {
                    first: values.period.preperiod,
                    second: values.period.preperiod + values.period.period,
                    length: set.largest(),
                },
                values: Store::Planes(values),
            });
        }
        let needed = least_values_for_a_proof(set);
        if needed > limits.max_values {
            return Err(SubtractionError::PeriodPastLimit {
                needed,
                limit: limits.max_values,
            });
        }
        let window = usize::try_from(set.largest()).expect("moves are bounded");
        let mut generator = Generator {
            set,
            rule,
            values: Vec::new(),
            limit: usize::try_from(limits.max_values).unwrap_or(usize::MAX),
            cancel: &limits.cancel,
        };
        let found = period::find_period(window, &mut generator);
        limits.cancel.check()?;
        let (period, proof) = found.map_err(|e| SubtractionError::NoPeriod(e.0))?;
        let mut values = generator.values;
        let values_computed = values.len() as u64;
        let outcome_period = period::projected_period(&values, period, |v| v != 0);
        // Keep only what answers every pile: the preperiod and one period.
        values.truncate((period.preperiod + period.period) as usize);
        values.shrink_to_fit();
        Ok(Sequence {
            rule,
            values: Store::Bytes(values),
            period,
            proof,
            outcome_period,
            values_computed,
        })
    }

    /// The rule these values are for.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The value of a pile of `n` coins.
    ///
    /// Instant, except for a `{1, x, y}` pile below a preperiod longer than the kept prefix
    /// ([`Limits::kept_prefix`]), which is generated again (`O(n)` time, `O(y)` memory).
    #[must_use]
    pub fn value(&self, n: u64) -> u8 {
        match &self.values {
            Store::Bytes(v) => v[self.reduce_u64(n)],
            Store::Planes(p) => p.get(n),
        }
    }

    /// The value of a pile of any size.
    #[must_use]
    pub fn value_big(&self, n: &BigUint) -> u8 {
        self.value(self.reduce_big(n))
    }

    /// `n` itself when it fits in a `u64`, else the pile in the first period it answers like.
    fn reduce_big(&self, n: &BigUint) -> u64 {
        n.to_u64().unwrap_or_else(|| {
            let offset = (n - BigUint::from(self.period.preperiod)) % self.period.period;
            self.period.preperiod + offset.to_u64().expect("below the period")
        })
    }

    /// The values of many piles, with at most one pass over the piles below a long
    /// preperiod (see [`Sequence::value`]).
    #[must_use]
    pub fn values_of(&self, piles: &[BigUint]) -> Vec<u8> {
        let reduced: Vec<u64> = piles.iter().map(|n| self.reduce_big(n)).collect();
        match &self.values {
            Store::Bytes(_) => reduced.iter().map(|&n| self.value(n)).collect(),
            Store::Planes(p) => p.get_many(&reduced),
        }
    }

    /// Bytes held by the stored values.
    #[must_use]
    pub fn bytes(&self) -> usize {
        match &self.values {
            Store::Bytes(v) => v.capacity(),
            Store::Planes(p) => p.bytes(),
        }
    }

    fn reduce_u64(&self, n: u64) -> usize {
        let Period { preperiod, period } = self.period;
        let index = if n < preperiod {
            n
        } else {
            preperiod + (n - preperiod) % period
        };
        index as usize
    }

    /// Whether the player to move wins a single pile of `n` coins.
    #[must_use]
    pub fn wins(&self, n: &BigUint) -> bool {
        self.value_big(n) != 0
    }

    /// The values of piles `0..count`.
    #[must_use]
    pub fn prefix(&self, count: u64) -> Vec<u8> {
        (0..count).map(|n| self.value(n)).collect()
    }
}

/// Computes values in order, up to a limit.
struct Generator<'a> {
    set: &'a SubtractionSet,
    rule: Rule,
    values: Vec<u8>,
    limit: usize,
    /// Raised: the sequence refuses to grow (and the caller reports the cancellation).
    cancel: &'a Cancel,
}

impl period::Values for Generator<'_> {
    fn ensure(&mut self, len: usize) -> Result<(), NoPeriodWithin> {
        if len > self.limit {
            return Err(NoPeriodWithin(self.limit as u64));
        }
        self.values.reserve(len.saturating_sub(self.values.len()));
        while self.values.len() < len {
            if self.values.len().is_multiple_of(65536) && self.cancel.is_cancelled() {
                return Err(NoPeriodWithin(self.values.len() as u64));
            }
            let n = self.values.len() as u64;
            let v = next_value(self.set, self.rule, &self.values, n);
            self.values.push(v);
        }
        Ok(())
    }

    fn values(&self) -> &[u8] {
        &self.values
    }
}

/// The value of pile `n` from the values of smaller piles.
#[inline]
fn next_value(set: &SubtractionSet, rule: Rule, values: &[u8], n: u64) -> u8 {
    if n >= set.largest() {
        // Every move fits: the common case, without bounds tests.
        let n = n as usize;
        let seen = set
            .moves()
            .iter()
            .fold(0u128, |seen, &s| seen | 1u128 << values[n - s as usize]);
        return (!seen).trailing_zeros() as u8;
    }
    let mut seen = 0u128;
    let mut any = false;
    for &s in set.moves() {
        if s > n {
            break;
        }
        any = true;
        seen |= 1u128 << values[(n - s) as usize];
    }
    if !any && rule == Rule::Misere {
        return 1; // no move left: the player to move has won
    }
    (!seen).trailing_zeros() as u8
}

/// The values of piles `0..=upto` one by one, with no period: what a few piles need when the
/// period's proof would take more (two windows of the largest move at least: a set whose
/// largest move is 99,999,999 asked for its first hundred piles, every one 0).
///
/// # Errors
/// [`crate::budget::Cancelled`] once `cancel` is raised (looked at every 2^16 piles).
pub fn values_upto(
    set: &SubtractionSet,
    rule: Rule,
    upto: u64,
    cancel: &Cancel,
) -> Result<Vec<u8>, crate::budget::Cancelled> {
    let len = usize::try_from(upto)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    let mut values = Vec::with_capacity(len.min(1 << 20));
    for n in 0..len as u64 {
        if n.is_multiple_of(1 << 16) {
            cancel.check()?;
        }
        let v = next_value(set, rule, &values, n);
        values.push(v);
    }
    Ok(values)
}

/// A move in a sum of piles: take `take` coins from pile `pile` (0-based), leaving `leaves`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PileMove {
    /// Index of the pile, 0-based.
    pub pile: usize,
    /// Coins taken.
    pub take: u64,
    /// Coins left in that pile.
    #[serde(serialize_with = "crate::big::serialize")]
    pub leaves: BigUint,
}

/// How the answer for several piles was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Normal play: the nim-sum of Grundy values.
    GrundySum,
    /// One pile: its value in the proven sequence.
    SinglePile,
    /// Misère play where every pile size is a move: Bouton's misère Nim rule.
    MisereNimRule,
    /// Misère play with several piles: exact search over the multiset of piles.
    Search,
}

/// The full answer for a position of one or more piles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The rule played.
    pub rule: Rule,
    /// The outcome for the player to move (A, the first player).
    pub outcome: Outcome,
    /// Normal-play Grundy value of each pile.
    pub grundy: Vec<u8>,
    /// XOR of the Grundy values (normal play decides by it).
    pub nim_sum: u8,
    /// Every winning move.
    pub winning_moves: Vec<PileMove>,
    /// The proven period of the sequence the answer used; `None` when no period was proven
    /// within the limit and the piles were answered from their values directly.
    pub period: Option<Period>,
    /// The proof of that period.
    pub proof: Option<Proof>,
    /// The proven period of the single-pile win/loss pattern under the rule played.
    pub outcome_period: Option<Period>,
    /// How the answer was found.
    pub method: Method,
    /// Values computed (the period search's cost, or the direct table's size).
    pub values_computed: u64,
    /// The sequence of the rule played (normal or misère values), for further piles; `None`
    /// without a proven period.
    pub sequence: Option<Sequence>,
}

impl Analysis {
    /// The seed's answer: `A` when the first player wins, `B` otherwise.
    #[must_use]
    pub fn winner(&self) -> Player {
        if self.outcome == Outcome::Win {
            Player::First
        } else {
            Player::Second
        }
    }
}

/// The seed's question: who wins a pile of `n` coins when a move takes 1, `x` or `y` coins and
/// taking the last coin wins? `A` (the first player) or `B`.
///
/// # Errors
/// `x` and `y` must be moves of at least 1 coin (and at most [`MAX_MOVE`]).
pub fn coin_game_winner(n: u64, x: u64, y: u64) -> Result<Player, SubtractionError> {
    let set = SubtractionSet::coin_game(x, y)?;
    let analysis = analyse(&set, Rule::Normal, &[BigUint::from(n)], &Limits::default())?;
    Ok(analysis.winner())
}

/// Analyse a position of one or more piles under `rule`.
///
/// The answer comes from the proven period; when none is proven within the limit, piles that
/// fit in it are still answered, from their values computed one by one (`period` is then
/// `None`).
///
/// # Errors
/// [`SubtractionError::NoPeriod`] when no period is proven within the limit and a pile is
/// larger than it; [`SubtractionError::SearchTooLarge`] for a misère sum beyond exact search.
pub fn analyse(
    set: &SubtractionSet,
    rule: Rule,
    piles: &[BigUint],
    limits: &Limits,
) -> Result<Analysis, SubtractionError> {
    // The period search generates at least two windows of the largest move before it can
    // prove anything; heaps far below that are cheaper to answer from every smaller heap.
    let largest_pile = piles
        .iter()
        .map(BigUint::to_u64)
        .collect::<Option<Vec<_>>>();
    if let Some(max) = largest_pile.and_then(|p| p.into_iter().max())
        && max < limits.max_values
        && direct_is_cheaper(set, max)
    {
        return analyse_direct(set, rule, piles, max, limits);
    }
    match analyse_periodic(set, rule, piles, limits) {
        Err(e @ (SubtractionError::NoPeriod(_) | SubtractionError::PeriodPastLimit { .. })) => {
            let largest = piles.iter().map(|p| p.to_u64()).collect::<Option<Vec<_>>>();
            match largest.and_then(|p| p.into_iter().max()) {
                Some(max) if max < limits.max_values => {
                    analyse_direct(set, rule, piles, max, limits)
                }
                _ => Err(e),
            }
        }
        other => other,
    }
}

/// The fewest pile values the general period search must compute before it can prove a period:
/// `2 * smallest + largest + 1`.
///
/// Why: with `s` the smallest move, piles `0..s` have no move and piles `s..2s` only moves to
/// them, so the values open with a run of `s` equal values and then a run of `s` of another
/// (0s then 1s in normal play, 1s then 0s in misère). The values never settle on a constant
/// (from a constant `v` the move of `s` reaches `v`, so the value is not `v`), so a periodic
/// part holds no run as long as its period. Checking where the preperiod `f` falls (before `s`,
/// between `s` and `2s`, after) gives `f + period >= 2s` every time, and the proof compares the
/// window of the largest move at `f` with the one a period later.
#[must_use]
pub fn least_values_for_a_proof(set: &SubtractionSet) -> u64 {
    let smallest = set.moves().first().copied().unwrap_or(0);
    2 * smallest + set.largest() + 1
}

/// Whether answering heaps up to `max` from every smaller heap costs under a hundredth of the
/// least the period search must do (two windows of the largest move, every move each).
fn direct_is_cheaper(set: &SubtractionSet, max: u64) -> bool {
    let largest = set.moves().last().copied().unwrap_or(0);
    let search_floor = u128::from(largest) * 2 * set.moves().len() as u128;
    let direct = (u128::from(max) + 1) * set.moves().len() as u128;
    search_floor >= 10_000_000 && direct * 100 <= search_floor
}

/// Values of piles `0..=max` by the definition, without a period.
fn direct_values(set: &SubtractionSet, rule: Rule, max: u64) -> Vec<u8> {
    let mut values = Vec::with_capacity(usize::try_from(max).unwrap_or(0) + 1);
    for n in 0..=max {
        let v = next_value(set, rule, &values, n);
        values.push(v);
    }
    values
}

/// What the analysis decides, whichever way the values are looked up.
struct Decision {
    grundy: Vec<u8>,
    nim_sum: u8,
    outcome: Outcome,
    winning_moves: Vec<PileMove>,
    method: Method,
}

impl Decision {
    /// The analysis, with the period, proof and W/L period read off the sequence used.
    fn into_analysis(
        self,
        rule: Rule,
        sequence: Option<Sequence>,
        values_computed: u64,
    ) -> Analysis {
        Analysis {
            rule,
            outcome: self.outcome,
            grundy: self.grundy,
            nim_sum: self.nim_sum,
            winning_moves: self.winning_moves,
            period: sequence.as_ref().map(|s| s.period),
            proof: sequence.as_ref().map(|s| s.proof),
            outcome_period: sequence.as_ref().map(|s| s.outcome_period),
            method: self.method,
            values_computed,
            sequence,
        }
    }
}

/// Decide a position from the normal values and, in misère play, the misère values.
fn decide(
    set: &SubtractionSet,
    piles: &[BigUint],
    normal: &dyn Fn(&BigUint) -> u8,
    misere: Option<&dyn Fn(&BigUint) -> u8>,
    limits: &Limits,
) -> Result<Decision, SubtractionError> {
    let grundy: Vec<u8> = piles.iter().map(normal).collect();
    let nim_sum = grundy.iter().fold(0, |a, g| a ^ g);
    let (outcome, winning_moves, method) = match (misere, piles) {
        (None, _) => {
            // A move wins when it leaves a pile whose value makes the nim-sum 0.
            let moves = moves_to(set, piles, |pile, after| {
                normal(after) == nim_sum ^ grundy[pile]
            });
            (win_if(nim_sum != 0), moves, Method::GrundySum)
        }
        (Some(values), [pile]) => {
            let moves = moves_to(set, piles, |_, after| values(after) == 0);
            (win_if(values(pile) != 0), moves, Method::SinglePile)
        }
        (Some(_), _) => misere_sum(set, piles, limits)?,
    };
    Ok(Decision {
        grundy,
        nim_sum,
        outcome,
        winning_moves,
        method,
    })
}

/// [`analyse`] without a period: every pile is at most `max`, small enough to tabulate.
fn analyse_direct(
    set: &SubtractionSet,
    rule: Rule,
    piles: &[BigUint],
    max: u64,
    limits: &Limits,
) -> Result<Analysis, SubtractionError> {
    let lookup = |values: Vec<u8>| move |n: &BigUint| values[n.to_usize().expect("at most max")];
    let normal = lookup(direct_values(set, Rule::Normal, max));
    let misere = (rule == Rule::Misere).then(|| lookup(direct_values(set, Rule::Misere, max)));
    let d = decide(
        set,
        piles,
        &normal,
        misere.as_ref().map(|f| f as &dyn Fn(&BigUint) -> u8),
        limits,
    )?;
    Ok(d.into_analysis(rule, None, max + 1))
}

/// [`analyse`] from the proven period.
fn analyse_periodic(
    set: &SubtractionSet,
    rule: Rule,
    piles: &[BigUint],
    limits: &Limits,
) -> Result<Analysis, SubtractionError> {
    // Every pile the decision reads: the search keeps their values as it passes them, so
    // piles inside a long preperiod cost nothing more.
    let asked: Vec<BigUint> = piles
        .iter()
        .flat_map(|pile| {
            let after = set
                .moves()
                .iter()
                .filter(move |&&s| BigUint::from(s) <= *pile)
                .map(move |&s| pile - s);
            std::iter::once(pile.clone()).chain(after)
        })
        .collect();
    let small: Vec<u64> = asked.iter().filter_map(ToPrimitive::to_u64).collect();
    // The normal values (for the Grundy values reported) and, in misère play, the misère
    // values: independent, so on both cores.
    let (normal, misere) = match rule {
        Rule::Normal => (
            Sequence::compute_for(set, Rule::Normal, limits, &small)?,
            None,
        ),
        Rule::Misere => {
            let (normal, misere) = rayon::join(
                || Sequence::compute_for(set, Rule::Normal, limits, &small),
                || Sequence::compute_for(set, Rule::Misere, limits, &small),
            );
            (normal?, Some(misere?))
        }
    };
    let misere_value = misere.as_ref().map(|s| move |n: &BigUint| s.value_big(n));
    let d = decide(
        set,
        piles,
        &|n| normal.value_big(n),
        misere_value.as_ref().map(|f| f as &dyn Fn(&BigUint) -> u8),
        limits,
    )?;
    let sequence = misere.unwrap_or(normal);
    let values_computed = sequence.values_computed;
    Ok(d.into_analysis(rule, Some(sequence), values_computed))
}

fn win_if(wins: bool) -> Outcome {
    if wins { Outcome::Win } else { Outcome::Loss }
}

/// Every move (pile, take) whose result satisfies `good(pile, coins_left)`.
fn moves_to(
    set: &SubtractionSet,
    piles: &[BigUint],
    good: impl Fn(usize, &BigUint) -> bool,
) -> Vec<PileMove> {
    let mut found = Vec::new();
    for (pile, size) in piles.iter().enumerate() {
        for &take in set.moves() {
            if BigUint::from(take) > *size {
                break;
            }
            let leaves = size - take;
            if good(pile, &leaves) {
                found.push(PileMove { pile, take, leaves });
            }
        }
    }
    found
}

/// Misère play with several piles: the misère Nim rule when it applies, else exact search.
fn misere_sum(
    set: &SubtractionSet,
    piles: &[BigUint],
    limits: &Limits,
) -> Result<(Outcome, Vec<PileMove>, Method), SubtractionError> {
    let too_large = SubtractionError::SearchTooLarge(limits.max_search_states);
    let small: Vec<u64> = piles
        .iter()
        .map(|p| p.to_u64().ok_or(too_large.clone()))
        .collect::<Result<_, _>>()?;
    let largest = small.iter().copied().max().unwrap_or(0);
    let to_move = |m: &nim::NimMove| PileMove {
        pile: m.heap,
        take: m.take,
        leaves: BigUint::from(small[m.heap] - m.take),
    };
    if set.contains_all_up_to(largest) {
        let moves = nim::misere_winning_moves(&small)
            .iter()
            .map(to_move)
            .collect();
        return Ok((
            win_if(nim::misere_wins(&small)),
            moves,
            Method::MisereNimRule,
        ));
    }
    // Positions are multisets of piles, at most the product of (pile + 1): refuse up front.
    let estimate = small
        .iter()
        .map(|&p| u128::from(p) + 1)
        .try_fold(1u128, u128::checked_mul)
        .unwrap_or(u128::MAX);
    if estimate > limits.max_search_states as u128 {
        return Err(too_large);
    }
    let game = SubtractionSum {
        set: set.clone(),
        rule: Rule::Misere,
    };
    let mut solver = crate::Solver::new(game).with_cancel(limits.cancel.clone());
    // The count above bounds the table: only a cancellation stops the search.
    let stopped = |_| SubtractionError::Cancelled(crate::budget::Cancelled);
    let start = SubtractionSum::canonical(small.clone());
    let value = solver.try_value(&start).map_err(stopped)?;
    let mut moves = Vec::new();
    for (pile, &size) in small.iter().enumerate() {
        for &take in set.moves().iter().take_while(|&&s| s <= size) {
            let mut after = small.clone();
            after[pile] -= take;
            let after = solver
                .try_value(&SubtractionSum::canonical(after))
                .map_err(stopped)?;
            if after.outcome() == Outcome::Loss {
                moves.push(PileMove {
                    pile,
                    take,
                    leaves: BigUint::from(size - take),
                });
            }
        }
    }
    Ok((value.outcome(), moves, Method::Search))
}

/// Every pile's value from 0 to `upto` for the player to move: whether they win, and the
/// remoteness (the winner hurrying, the loser delaying). Time `upto` times the moves, 8 bytes
/// a pile: the explorer gives one pile's moves their remoteness with it, where Grundy values
/// give only the outcome.
#[must_use]
pub fn pile_values(set: &SubtractionSet, rule: Rule, upto: u64) -> Vec<(bool, u32)> {
    let mut values: Vec<(bool, u32)> = Vec::with_capacity(usize::try_from(upto).unwrap_or(0) + 1);
    for n in 0..=upto {
        // The fastest win through a losing child; else the slowest loss.
        let mut fastest_win: Option<u32> = None;
        let mut slowest: Option<u32> = None;
        for &take in set.moves().iter().filter(|&&take| take <= n) {
            let (child_wins, r) = values[(n - take) as usize];
            if !child_wins {
                fastest_win = Some(fastest_win.map_or(r, |b| b.min(r)));
            }
            slowest = Some(slowest.map_or(r, |b| b.max(r)));
        }
        values.push(match (fastest_win, slowest) {
            (Some(r), _) => (true, r + 1),
            (None, Some(r)) => (false, r + 1),
            // No move: the game is over (taking the last coin won, or lost in misère play).
            (None, None) => (rule == Rule::Misere, 0),
        });
    }
    values
}

/// One pile as a [`Game`]: the position is the number of coins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionPile {
    /// The moves.
    pub set: SubtractionSet,
    /// The rule.
    pub rule: Rule,
    /// The starting pile.
    pub pile: u64,
}

impl Game for SubtractionPile {
    type Position = u64;
    type Move = u64;

    fn start(&self) -> u64 {
        self.pile
    }

    fn moves(&self, pile: &u64) -> Vec<u64> {
        self.set
            .moves()
            .iter()
            .copied()
            .filter(|&s| s <= *pile)
            .collect()
    }

    fn play(&self, pile: &u64, take: &u64) -> Transition<u64> {
        Transition::to(pile - take)
    }

    fn no_moves(&self, _: &u64) -> Ending {
        match self.rule {
            Rule::Normal => Ending::Loss,
            Rule::Misere => Ending::Win,
        }
    }
}

/// Several piles as a [`Game`]: positions are sorted pile sizes (a multiset), moves are
/// `(index in that order, coins taken)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionSum {
    /// The moves.
    pub set: SubtractionSet,
    /// The rule.
    pub rule: Rule,
}

impl SubtractionSum {
    /// The canonical position for `piles`: sorted, empty piles dropped.
    #[must_use]
    pub fn canonical(mut piles: Vec<u64>) -> Vec<u64> {
        piles.retain(|&p| p > 0);
        piles.sort_unstable();
        piles
    }
}

impl Game for SubtractionSum {
    type Position = Vec<u64>;
    type Move = (usize, u64);

    fn start(&self) -> Vec<u64> {
        Vec::new()
    }

    fn moves(&self, piles: &Vec<u64>) -> Vec<(usize, u64)> {
        let mut moves = Vec::new();
        for (i, &p) in piles.iter().enumerate() {
            if i > 0 && piles[i - 1] == p {
                continue; // equal piles give the same positions
            }
            moves.extend(
                self.set
                    .moves()
                    .iter()
                    .take_while(|&&s| s <= p)
                    .map(|&s| (i, s)),
            );
        }
        moves
    }

    fn play(&self, piles: &Vec<u64>, &(i, take): &(usize, u64)) -> Transition<Vec<u64>> {
        let mut next = piles.clone();
        next[i] -= take;
        Transition::to(SubtractionSum::canonical(next))
    }

    fn no_moves(&self, _: &Vec<u64>) -> Ending {
        match self.rule {
            Rule::Normal => Ending::Loss,
            Rule::Misere => Ending::Win,
        }
    }

    fn position_bytes(&self, piles: &Vec<u64>) -> usize {
        piles.len() * std::mem::size_of::<u64>()
    }
}

#[cfg(test)]
mod tests;
