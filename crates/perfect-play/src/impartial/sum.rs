//! Sums of heap games: normal play by the nim-sum, misère play by exact search.

use super::{CoinRule, HeapGame, ImpartialError, Limits, SetRule, Values};
use crate::game::{Ending, Game, Transition};
use crate::octal::{self, OctalCode};
use crate::player::Outcome;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use std::collections::HashMap;
use std::str::FromStr;

/// One heap of one game: `GAME:HEAP` on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// The game.
    pub game: HeapGame,
    /// The heap.
    pub heap: BigUint,
}

impl FromStr for Component {
    type Err = ImpartialError;

    fn from_str(text: &str) -> Result<Component, ImpartialError> {
        let t = text.trim();
        let (game, heap) = t
            .rsplit_once(':')
            .ok_or_else(|| ImpartialError::Component(crate::parse::shorten(t)))?;
        let game: HeapGame = game.parse()?;
        let heap = crate::parse::natural(heap).map_err(|e| ImpartialError::Heap {
            component: crate::parse::shorten(t),
            reason: e.to_string(),
        })?;
        Ok(Component { game, heap })
    }
}

/// A winning move in a sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentMove {
    /// Which component, 1-based.
    pub component: usize,
    /// Tokens removed.
    pub take: BigUint,
    /// The heaps left in its place.
    pub leaves: Vec<BigUint>,
    /// A coin-turning component: `leaves` are the coins the move turns over besides its
    /// head, and `take` counts the coins turned.
    pub turns_coins: bool,
}

impl ComponentMove {
    /// The move in words: "take 3", "take 2 and split the rest into 1 and 6".
    #[must_use]
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self.leaves.iter().map(BigUint::to_string).collect();
        if self.turns_coins {
            return match parts.len() {
                0 => "turn its head down".into(),
                1 => format!("turn its head down and coin {} over", parts[0]),
                _ => format!("turn its head down and coins {} over", join_and(&parts)),
            };
        }
        match (self.take.is_zero(), parts.len()) {
            (_, 0 | 1) => format!("take {}", self.take),
            (true, _) => format!("split into {}", join_and(&parts)),
            (false, _) => format!(
                "take {} and split the rest into {}",
                self.take,
                join_and(&parts)
            ),
        }
    }
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Normal play on a sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumAnalysis {
    /// Each component's Grundy value.
    pub values: Vec<BigUint>,
    /// Their XOR.
    pub nim_sum: BigUint,
    /// Whether the player to move wins.
    pub first_player_wins: bool,
    /// The first winning moves ([`MAX_LISTED`] at most), components in order.
    pub winning_moves: Vec<ComponentMove>,
    /// How many winning moves there are: one per distinct resulting position (equal
    /// components give the same positions and are counted once, a split once).
    pub winning_moves_total: BigUint,
    /// Which component to play in and why, in one sentence.
    pub explanation: String,
    /// Heaps computed for each game of the sum, in order of first appearance.
    pub values_computed: Vec<(String, u64)>,
}

/// Most winning moves listed.
pub const MAX_LISTED: usize = 100;

/// Heaps of a rule set computed to look for a period when a heap is past the work limit.
const PERIOD_PROBE: u64 = 1 << 12;

/// Time an option check of a rule set's table costs at worst (squares to 5 x 10^6: 7.5 x
/// 10^9 checks in 47.8 s; to 1.5 x 10^6, 4.0 ns).
pub const SECONDS_PER_OPTION_CHECK: f64 = 6.5e-9;

/// The largest heap of `game` among the components (saturated at `u64::MAX`).
fn largest_heap(components: &[Component], game: &HeapGame) -> u64 {
    components
        .iter()
        .filter(|o| o.game == *game)
        .map(|o| o.heap.to_u64().unwrap_or(u64::MAX))
        .max()
        .unwrap_or(0)
}

/// The heaps of a rule set's table: every heap to the largest when the limits allow, else a
/// probe for a period.
fn rule_upto(rule: SetRule, largest: u64, limits: &Limits) -> u64 {
    if largest < limits.max_values && rule.work(largest) <= limits.max_work as f64 {
        largest
    } else {
        PERIOD_PROBE
    }
}

/// The largest heap of a take-and-break code computed whole under `limits`.
fn take_break_computable(code: &OctalCode, limits: &Limits) -> u64 {
    limits
        .max_values
        .saturating_sub(1)
        .min(octal::largest_upto(code))
}

/// About how long the values of a sum's normal-play answer take, for the work whose length
/// is known before it starts: the tables of rule sets without a formula, and of take-and-break
/// codes with no known period (the others stop at a period, usually early). Refusals are
/// [`analyse_sum`]'s; this is the figure a caller admits the work by.
#[must_use]
pub fn estimated_seconds(components: &[Component], limits: &Limits) -> f64 {
    let mut games: Vec<&HeapGame> = components.iter().map(|c| &c.game).collect();
    games.sort_by_key(|g| g.to_string());
    games.dedup();
    games
        .into_iter()
        .map(|game| {
            let largest = largest_heap(components, game);
            match game {
                HeapGame::Rule(rule) if rule.formula().is_none() => {
                    rule.work(rule_upto(*rule, largest, limits)) * SECONDS_PER_OPTION_CHECK
                }
                HeapGame::TakeBreak(code)
                    if octal::period_unknown(code)
                        && largest <= take_break_computable(code, limits) =>
                {
                    octal::estimated_seconds(code, largest.max(64))
                }
                _ => 0.0,
            }
        })
        .sum()
}

/// The values each game of the sum needs, one table per distinct game.
fn tables(
    components: &[Component],
    limits: &Limits,
    on_progress: &dyn Fn(u64, u64),
) -> Result<HashMap<HeapGame, Values>, ImpartialError> {
    let mut tables: HashMap<HeapGame, Values> = HashMap::new();
    for c in components {
        if tables.contains_key(&c.game) {
            continue;
        }
        let largest = largest_heap(components, &c.game);
        let table = match &c.game {
            // Heaps short of two windows of the largest move: one by one (the period's proof
            // alone would take more).
            HeapGame::Subtraction(set) if Values::short_of_a_period(&c.game, largest) => {
                Values::subtraction_heaps(set, largest, limits)?
            }
            // A closed form or a proven period answers every heap from a short table.
            HeapGame::Nim | HeapGame::Subtraction(_) | HeapGame::CoinTurning(_) => {
                Values::compute(&c.game, 0, limits, on_progress)?
            }
            HeapGame::Rule(rule) if rule.formula().is_some() => {
                Values::compute(&c.game, 0, limits, on_progress)?
            }
            HeapGame::TakeBreak(code) => {
                // Every heap up to the largest when they fit (it stops early at a proven
                // period); past that, a look for a period short of a second or two
                // (`octal::probe_upto`), or at once nothing for a game with no known period.
                let computable = take_break_computable(code, limits);
                let fits = largest <= computable;
                // Values a default table holds and the work limit allows, but not the time (a
                // time budget lowered the table): the figure is their estimate.
                let seconds = octal::estimated_seconds(code, largest);
                if !fits
                    && largest < Limits::default().max_values
                    && largest <= octal::largest_upto(code)
                    && seconds > limits.max_seconds as f64
                {
                    return Err(ImpartialError::TooLong {
                        what: format!("{code} up to heap {largest}"),
                        code: code.to_string(),
                        upto: largest,
                        estimate_ms: (seconds * 1000.0) as u64,
                        limit_seconds: limits.max_seconds,
                    });
                }
                if !fits && octal::period_unknown(code) {
                    return Err(ImpartialError::HeapTooLarge {
                        game: c.game.to_string(),
                        // The heap as given: `largest` saturates past 2^64.
                        heap: components
                            .iter()
                            .filter(|o| o.game == c.game)
                            .map(|o| &o.heap)
                            .max()
                            .map_or_else(|| largest.to_string(), ToString::to_string),
                        limit: computable,
                        why: "no period is known for this game (it is on the list of unsolved octal games), and the values up to the heap are past what one run computes".into(),
                    });
                }
                let upto = if fits {
                    largest.max(64)
                } else {
                    octal::probe_upto(code)
                }
                .min(computable);
                Values::compute_inner(&c.game, upto, false, limits, on_progress)?
            }
            HeapGame::Rule(rule) => Values::compute(
                &c.game,
                rule_upto(*rule, largest, limits),
                limits,
                on_progress,
            )?,
        };
        tables.insert(c.game.clone(), table);
    }
    Ok(tables)
}

fn value_of(table: &Values, c: &Component, limits: &Limits) -> Result<BigUint, ImpartialError> {
    table.value(&c.heap).ok_or_else(|| {
        let (limit, why) = match &c.game {
            HeapGame::Rule(rule) => {
                let mut n = 1u64;
                while n < limits.max_values && rule.work(n * 2) <= limits.max_work as f64 {
                    n *= 2;
                }
                (
                    n,
                    format!("about {:.0e} option checks at most", limits.max_work as f64),
                )
            }
            HeapGame::TakeBreak(code) => {
                let computable = limits
                    .max_values
                    .saturating_sub(1)
                    .min(octal::largest_upto(code));
                (
                    computable,
                    format!(
                        "within the memory and work limits; no period was proven among the first {} heaps, and `perfect-play values {code} --upto {computable}` looks further",
                        table.values_computed
                    ),
                )
            }
            _ => (table.values.len() as u64, "the table".into()),
        };
        ImpartialError::HeapTooLarge {
            game: c.game.to_string(),
            heap: c.heap.to_string(),
            limit,
            why,
        }
    })
}

/// Normal play on a sum: each value, the nim-sum, the winning moves and their number.
///
/// # Errors
/// [`ImpartialError::Empty`] for no component; refusals of tables past `limits`; a heap past
/// its table without a period or formula.
pub fn analyse_sum(
    components: &[Component],
    limits: &Limits,
) -> Result<SumAnalysis, ImpartialError> {
    analyse_sum_with_progress(components, limits, &|_, _| {})
}

/// As [`analyse_sum`], reporting the tables' progress as (done, total).
///
/// # Errors
/// As [`analyse_sum`].
pub fn analyse_sum_with_progress(
    components: &[Component],
    limits: &Limits,
    on_progress: &dyn Fn(u64, u64),
) -> Result<SumAnalysis, ImpartialError> {
    if components.is_empty() {
        return Err(ImpartialError::Empty);
    }
    let tables = tables(components, limits, on_progress)?;
    let values = components
        .iter()
        .map(|c| value_of(&tables[&c.game], c, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let nim_sum = values.iter().fold(BigUint::ZERO, |a, v| a ^ v);
    let mut winning_moves = Vec::new();
    let mut total = BigUint::ZERO;
    if !nim_sum.is_zero() {
        for (i, c) in components.iter().enumerate() {
            if components[..i].contains(c) {
                continue; // the same positions as moving in the earlier equal component
            }
            let target = &values[i] ^ &nim_sum;
            let mut list = |take: BigUint, leaves: Vec<BigUint>| {
                if winning_moves.len() < MAX_LISTED {
                    winning_moves.push(ComponentMove {
                        component: i + 1,
                        take,
                        leaves,
                        turns_coins: matches!(c.game, HeapGame::CoinTurning(_)),
                    });
                }
            };
            total += moves_to_value(&tables[&c.game], &c.heap, &target, &mut list)?;
        }
    }
    let first_player_wins = !nim_sum.is_zero();
    let explanation = explain(components, &values, &nim_sum, winning_moves.first());
    let mut values_computed = Vec::new();
    for c in components {
        let name = c.game.to_string();
        if !values_computed.iter().any(|(n, _)| *n == name) {
            values_computed.push((name, tables[&c.game].values_computed));
        }
    }
    Ok(SumAnalysis {
        values,
        nim_sum,
        first_player_wins,
        winning_moves,
        winning_moves_total: total,
        explanation,
        values_computed,
    })
}

fn explain(
    components: &[Component],
    values: &[BigUint],
    nim_sum: &BigUint,
    first: Option<&ComponentMove>,
) -> String {
    match first {
        None => format!(
            "The nim-sum of the values is {nim_sum}: every move changes exactly one value and so makes it non-zero, and the opponent can always restore 0, so the player to move loses."
        ),
        Some(m) => {
            let i = m.component - 1;
            let target = &values[i] ^ nim_sum;
            format!(
                "The nim-sum is {nim_sum}, not 0: play in component {} ({}:{}, value {}) and {}, which leaves value {target} there and nim-sum 0.",
                m.component,
                components[i].game,
                components[i].heap,
                values[i],
                m.describe()
            )
        }
    }
}

/// How many moves from `heap` leave Grundy value `target` (one per distinct position);
/// `list` sees them in order, the first few of each kind at least.
fn moves_to_value(
    table: &Values,
    heap: &BigUint,
    target: &BigUint,
    list: &mut dyn FnMut(BigUint, Vec<BigUint>),
) -> Result<BigUint, ImpartialError> {
    let value = |n: &BigUint| table.value(n);
    let mut total = BigUint::ZERO;
    let mut one = |take: BigUint, leaves: Vec<BigUint>, total: &mut BigUint| {
        *total += 1u8;
        list(take, leaves);
    };
    match &table.game {
        HeapGame::Nim => {
            if target < heap {
                one(heap - target, leaves_of(target), &mut total);
            }
        }
        HeapGame::CoinTurning(rule) => {
            // The coins turned: the head and those turned up (its leaves).
            total = rule.moves_to(heap, target, MAX_LISTED, &mut |coins| {
                list(BigUint::from(coins.len() + 1), coins);
            });
        }
        HeapGame::TakeBreak(_) => {
            let seq = table
                .take_break
                .as_ref()
                .expect("take-and-break tables keep their sequence");
            let Some(t) = target.to_u16() else {
                return Ok(total);
            };
            total = octal::moves_to(seq, heap, t, &mut |k, leaves| list(k.into(), leaves))?;
        }
        HeapGame::Subtraction(set) => {
            for &s in set.moves() {
                let s = BigUint::from(s);
                if s <= *heap {
                    let rest = heap - &s;
                    if value(&rest).as_ref() == Some(target) {
                        one(s, leaves_of(&rest), &mut total);
                    }
                }
            }
        }
        HeapGame::Rule(SetRule::AtLeastHalf) => {
            // Leave m <= heap / 2 with bit length `target`: m in [2^(t-1), 2^t - 1].
            let half: BigUint = heap >> 1u8;
            // Values reachable are bit lengths of heaps up to half: a larger target has no move
            // (and must not be turned into a power of two).
            let Some(t) = target.to_u64().filter(|&t| t <= heap.bits()) else {
                return Ok(total);
            };
            let (low, high) = if t == 0 {
                (BigUint::ZERO, BigUint::ZERO)
            } else {
                (
                    BigUint::from(1u8) << (t - 1),
                    (BigUint::from(1u8) << t) - 1u8,
                )
            };
            let high = high.min(half);
            if low <= high && !heap.is_zero() {
                total = &high - &low + 1u8;
                let mut m = low;
                let mut listed = 0;
                while m <= high && listed < MAX_LISTED {
                    list(heap - &m, leaves_of(&m));
                    m += 1u8;
                    listed += 1;
                }
            }
        }
        HeapGame::Rule(SetRule::AtMostHalf) => {
            for m in super::rule::at_most_half_moves_to(heap, target) {
                one(heap - &m, leaves_of(&m), &mut total);
            }
        }
        HeapGame::Rule(SetRule::PowersOfTwo)
            if heap.to_u64().is_none()
                && table
                    .period
                    .is_some_and(|p| p.preperiod == 0 && p.period == 3) =>
        {
            total = powers_of_two_moves_to(heap, target, &value, list);
        }
        HeapGame::Rule(rule) => {
            for s in members_up_to(*rule, heap) {
                let rest = heap - &s;
                if value(&rest).as_ref() == Some(target) {
                    one(s, leaves_of(&rest), &mut total);
                }
            }
        }
    }
    Ok(total)
}

/// The moves of a heap past `u64` in subtract-a-power-of-two that leave value `target`,
/// counted without listing them: with period 3 from 0, what a move leaves is worth
/// `(heap - 2^k) mod 3`, and `2^k mod 3` is 1 for even `k`, 2 for odd, so a move wins by the
/// parity of `k` alone. Only the first [`MAX_LISTED`] are made (a 100,000-digit heap has
/// 332,000 such moves, each a number of its size: 6.8 GB listed, audit 3 item 8).
fn powers_of_two_moves_to(
    heap: &BigUint,
    target: &BigUint,
    value: &dyn Fn(&BigUint) -> Option<BigUint>,
    list: &mut dyn FnMut(BigUint, Vec<BigUint>),
) -> BigUint {
    let largest = heap.bits() - 1; // 2^largest <= heap < 2^(largest + 1)
    let mut total = BigUint::ZERO;
    for parity in 0..2u64 {
        let rest = heap - (BigUint::from(1u8) << parity);
        if value(&rest).as_ref() != Some(target) {
            continue;
        }
        total += (largest - parity) / 2 + 1;
        for k in (parity..=largest).step_by(2).take(MAX_LISTED) {
            let taken = BigUint::from(1u8) << k;
            let rest = heap - &taken;
            list(taken, leaves_of(&rest));
        }
    }
    total
}

/// A heap of `n` as the heaps it leaves: none when empty.
fn leaves_of(n: &BigUint) -> Vec<BigUint> {
    if n.is_zero() {
        Vec::new()
    } else {
        vec![n.clone()]
    }
}

/// The members of a fixed set up to a heap of any size (the callers have a table or a period
/// for the heap, so only powers of two reach past `u64`).
fn members_up_to(rule: SetRule, heap: &BigUint) -> Vec<BigUint> {
    if let Some(h) = heap.to_u64() {
        return rule
            .members_up_to(h)
            .into_iter()
            .map(BigUint::from)
            .collect();
    }
    let mut members = Vec::new();
    if rule == SetRule::PowersOfTwo {
        let mut p = BigUint::from(1u8);
        while p <= *heap {
            members.push(p.clone());
            p <<= 1u8;
        }
    }
    members
}

/// A sum as a [`Game`] for exact search: positions are sorted (game index, heap) pairs without
/// heaps that have no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumGame {
    /// The distinct games of the sum.
    pub games: Vec<HeapGame>,
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
}

impl SumGame {
    /// Every move of game `g` from a heap of `h`: (tokens taken, heaps left).
    #[must_use]
    pub fn heap_moves(&self, g: usize, h: u32) -> Vec<(u32, Vec<u32>)> {
        let single = |m: u32| if m == 0 { Vec::new() } else { vec![m] };
        match &self.games[g] {
            HeapGame::Nim => (0..h).map(|m| (h - m, single(m))).collect(),
            HeapGame::TakeBreak(code) => octal::moves_of(code, h)
                .into_iter()
                .map(|(k, leaves)| (k as u32, leaves))
                .collect(),
            HeapGame::Subtraction(set) => set
                .moves()
                .iter()
                .filter(|&&s| s <= u64::from(h))
                .map(|&s| (s as u32, single(h - s as u32)))
                .collect(),
            HeapGame::Rule(SetRule::AtLeastHalf) if h == 0 => Vec::new(),
            HeapGame::Rule(SetRule::AtLeastHalf) => {
                (0..=h / 2).map(|m| (h - m, single(m))).collect()
            }
            HeapGame::Rule(SetRule::AtMostHalf) => {
                (h.div_ceil(2)..h).map(|m| (h - m, single(m))).collect()
            }
            HeapGame::Rule(rule) => rule
                .members_up_to(u64::from(h))
                .into_iter()
                .map(|s| (s as u32, single(h - s as u32)))
                .collect(),
            HeapGame::CoinTurning(rule) => rule
                .moves_of(h)
                .into_iter()
                .map(|coins| (coins.len() as u32 + 1, coins))
                .collect(),
        }
    }

    /// The canonical position: heaps with a move, sorted.
    #[must_use]
    pub fn canonical(&self, mut heaps: Vec<(usize, u32)>) -> Vec<(usize, u32)> {
        heaps.retain(|&(g, h)| !self.heap_moves(g, h).is_empty());
        heaps.sort_unstable();
        // Two heads on one coin are no head (the move that turned the second one over
        // turned it down): a coin-turning game keeps a set of heads, as the row of coins does.
        let mut kept: Vec<(usize, u32)> = Vec::with_capacity(heaps.len());
        for heap in heaps {
            let coins = matches!(self.games[heap.0], HeapGame::CoinTurning(_));
            if coins && kept.last() == Some(&heap) {
                kept.pop();
            } else {
                kept.push(heap);
            }
        }
        kept
    }
}

impl Game for SumGame {
    type Position = Vec<(usize, u32)>;
    /// (index in the position, tokens taken, heaps left).
    type Move = (usize, u32, Vec<u32>);

    fn start(&self) -> Self::Position {
        Vec::new()
    }

    fn moves(&self, heaps: &Self::Position) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        for (i, &(g, h)) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == (g, h) {
                continue;
            }
            for (take, leaves) in self.heap_moves(g, h) {
                moves.push((i, take, leaves));
            }
        }
        moves
    }

    fn play(
        &self,
        heaps: &Self::Position,
        (i, _, leaves): &Self::Move,
    ) -> Transition<Self::Position> {
        let mut next = heaps.clone();
        let (g, _) = next.swap_remove(*i);
        next.extend(leaves.iter().map(|&l| (g, l)));
        Transition::to(self.canonical(next))
    }

    fn no_moves(&self, _: &Self::Position) -> Ending {
        if self.misere {
            Ending::Win
        } else {
            Ending::Loss
        }
    }

    fn position_bytes(&self, heaps: &Self::Position) -> usize {
        std::mem::size_of_val(heaps.as_slice())
    }
}

/// Moves generated per position searched, on average, that the misère search may afford.
const MOVES_PER_STATE: u128 = 64;

/// At most how many moves a heap of `h` (or any smaller one) of `game` has.
fn most_moves(game: &HeapGame, h: u32) -> u128 {
    let h = u128::from(h);
    match game {
        HeapGame::Nim | HeapGame::Rule(_) => h,
        HeapGame::CoinTurning(CoinRule::Ruler) => h,
        HeapGame::CoinTurning(CoinRule::MockTurtles) => h * h / 2 + 1,
        HeapGame::Subtraction(set) => set.moves().len() as u128,
        HeapGame::TakeBreak(code) => {
            let removals = code.largest_removal() as u128 + 1;
            let per_removal = if code.is_hexadecimal() {
                h * h / 12 + h
            } else {
                h / 2 + 1
            };
            removals * per_removal
        }
    }
}

/// Misère play on a small sum, by exact search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereSum {
    /// Outcome for the player to move.
    pub outcome: Outcome,
    /// Every winning move.
    pub winning_moves: Vec<ComponentMove>,
    /// Positions searched.
    pub states: usize,
}

/// Misère play (whoever moves last loses) on `components`, by exact search.
///
/// # Errors
/// [`ImpartialError::MisereTooLarge`] up front when the positions reachable may pass
/// `limits.max_misere_states` (or during the search when they do).
pub fn analyse_misere(
    components: &[Component],
    limits: &Limits,
) -> Result<MisereSum, ImpartialError> {
    if components.is_empty() {
        return Err(ImpartialError::Empty);
    }
    if let Some(c) = components
        .iter()
        .find(|c| matches!(c.game, HeapGame::CoinTurning(_)))
    {
        return Err(ImpartialError::Unsupported(format!(
            "{} under misère play: a coin-turning game is a sum of its heads only under normal play (two heads on one coin cancel there, not in misère play)",
            c.game
        )));
    }
    let too_large = ImpartialError::MisereTooLarge(limits.max_misere_states);
    let mut games: Vec<HeapGame> = Vec::new();
    let mut heaps = Vec::new();
    let mut bound = 1u128;
    let mut moves = 0u128;
    for c in components {
        let h = c
            .heap
            .to_u32()
            .filter(|&h| h <= 100_000)
            .ok_or_else(|| too_large.clone())?;
        let g = games.iter().position(|x| *x == c.game).unwrap_or_else(|| {
            games.push(c.game.clone());
            games.len() - 1
        });
        // A heap that does not split reaches its sizes.
        if !matches!(&c.game, HeapGame::TakeBreak(code) if code.splits()) {
            bound = bound.saturating_mul(u128::from(h) + 1);
        }
        moves = moves.saturating_add(most_moves(&c.game, h));
        heaps.push((g, h));
    }
    // The heaps of a game that splits reach multisets of heaps of that game of at most their
    // total (see `octal::misere_positions_bound`).
    for (g, game) in games.iter().enumerate() {
        if matches!(game, HeapGame::TakeBreak(code) if code.splits()) {
            let own: Vec<u32> = heaps
                .iter()
                .filter(|(o, _)| *o == g)
                .map(|&(_, h)| h)
                .collect();
            bound = bound.saturating_mul(octal::misere_positions_bound(&own));
        }
    }
    // Positions, and the moves generated from them (Nim 100000 has few positions but 10^10
    // moves among them).
    let states = limits.max_misere_states as u128;
    if bound > states || bound.saturating_mul(moves) > states.saturating_mul(MOVES_PER_STATE) {
        return Err(too_large);
    }
    let game = SumGame {
        games,
        misere: true,
    };
    let mut solver = crate::Solver::with_limit(game.clone(), limits.max_misere_states)
        .with_cancel(limits.cancel.clone());
    let start = game.canonical(heaps.clone());
    let stopped = |e| match e {
        crate::SolveError::Cancelled(c) => ImpartialError::Cancelled(c),
        _ => too_large.clone(),
    };
    let value = solver.try_value(&start).map_err(stopped)?;
    let mut winning_moves = Vec::new();
    for (i, &(g, h)) in heaps.iter().enumerate() {
        if heaps[..i].contains(&(g, h)) {
            continue;
        }
        for (take, leaves) in game.heap_moves(g, h) {
            let mut after = heaps.clone();
            after.remove(i);
            after.extend(leaves.iter().map(|&l| (g, l)));
            let v = solver.try_value(&game.canonical(after)).map_err(stopped)?;
            if v.outcome() == Outcome::Loss {
                winning_moves.push(ComponentMove {
                    component: i + 1,
                    take: take.into(),
                    leaves: leaves.into_iter().map(BigUint::from).collect(),
                    turns_coins: false,
                });
            }
        }
    }
    Ok(MisereSum {
        outcome: value.outcome(),
        winning_moves,
        states: solver.states(),
    })
}

#[cfg(test)]
mod powers_of_two_tests {
    use super::*;

    /// The count by parity against every power of two listed, on heaps past `u64` near
    /// powers of two and between them, for every target.
    #[test]
    fn the_moves_counted_by_parity_are_the_moves_listed_one_by_one() {
        let value = |n: &BigUint| Some(n % 3u8);
        let mut heaps = Vec::new();
        for bits in [64u32, 65, 66, 100, 129] {
            let base = BigUint::from(1u8) << bits;
            for delta in 0..7u32 {
                heaps.push(&base + delta);
                heaps.push(&base - 1u8 - delta);
            }
        }
        for heap in heaps {
            for target in 0..4u8 {
                let target = BigUint::from(target);
                let mut listed = Vec::new();
                let total = powers_of_two_moves_to(&heap, &target, &value, &mut |taken, _| {
                    listed.push(taken);
                });
                let mut expected = Vec::new();
                let mut power = BigUint::from(1u8);
                while power <= heap {
                    if value(&(&heap - &power)).as_ref() == Some(&target) {
                        expected.push(power.clone());
                    }
                    power <<= 1u8;
                }
                assert_eq!(total, BigUint::from(expected.len()), "{heap} to {target}");
                expected.truncate(MAX_LISTED);
                assert_eq!(listed, expected, "{heap} to {target}");
            }
        }
    }
}
