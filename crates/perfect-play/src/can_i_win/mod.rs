//! "Can I Win": players alternately pick an unused number from a pool (the seed: `1..=max`);
//! whoever brings the running total to the target or beyond wins (misère: loses).
//!
//! ```
//! use perfect_play::can_i_win::can_i_win;
//!
//! assert_eq!(can_i_win(10, 11), Ok(false)); // the seed's example
//! assert_eq!(can_i_win(10, 0), Ok(true));   // a target of 0 is reached by the first pick
//! assert_eq!(can_i_win(10, 1), Ok(true));
//! assert!(can_i_win(0, 5).is_err());
//! ```
//!
//! [`analyse`] gives the full answer: outcome, remoteness, the value of every first pick, the
//! winning picks and a best line. The solver picks its method by itself: the bit-parallel
//! retrograde pass ([`bitpass`]) when most subsets matter, a memoised search ([`dfs`]) when few
//! positions are reachable or the pool is too large for a table.

pub mod bitpass;
pub mod dfs;
mod pool;
mod remoteness;

pub use pool::{MAX_POOL, Pool};

use crate::game::{Ending, Game, Transition};
use crate::player::Outcome;
use pool::bits;
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

/// Why a query cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CanIWinError {
    /// The work was cancelled (its [`crate::budget::Cancel`] raised) before it finished.
    #[error(transparent)]
    Cancelled(#[from] crate::budget::Cancelled),
    /// The pool list was empty.
    #[error("the pool is empty: give at least one number")]
    EmptyPool,
    /// `max_choosable` outside 1 to 64.
    #[error(
        "MAX {0} is out of range: the numbers to pick are 1 to MAX, with MAX from 1 to {MAX_POOL}"
    )]
    MaxOutOfRange(i64),
    /// More numbers than a 64-bit mask holds.
    #[error("a pool of {0} numbers is too large: at most 64 numbers are supported")]
    PoolTooLarge(usize),
    /// 0 is not a positive integer.
    #[error("the pool must hold positive integers, 0 is not allowed")]
    ZeroInPool,
    /// The pool holds a number twice.
    #[error("the pool holds {0} twice: numbers must be distinct")]
    Repeated(u64),
    /// `--all-targets` whose solves would take too long.
    #[error(
        "solving all {targets} targets of a pool of {numbers} numbers would take about {estimate} here; ask for single targets, or use a smaller pool"
    )]
    AllTargetsTooSlow {
        /// How many targets.
        targets: u64,
        /// Pool size.
        numbers: usize,
        /// The estimated time, for people.
        estimate: String,
    },
    /// `--all-targets` on a pool whose sum would mean too many solves.
    #[error(
        "the pool adds up to {0}: solving every target from 1 to the sum is refused above {MAX_TARGETS} targets; ask for single targets instead"
    )]
    TooManyTargets(u128),
    /// The bit table and the search both exceed the memory limit.
    #[error(
        "this query needs {at_least}{} ({what}; pool of {numbers} numbers, target {target}), above the memory limit of {}; raise it with --memory-limit (library: Options::memory_limit)",
        crate::parse::human_size(*needed),
        crate::parse::human_size(*limit)
    )]
    OverMemory {
        /// "at least " when the figure is a lower bound (a count that was cut short).
        at_least: &'static str,
        /// What takes the memory.
        what: &'static str,
        /// Memory needed, in bytes.
        needed: u64,
        /// The limit in force, in bytes.
        limit: u64,
        /// Pool size.
        numbers: usize,
        /// The target.
        target: i128,
    },
}

/// How to solve: pick automatically, or force one method (for benchmarks and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Choose the cheaper method that fits in memory.
    #[default]
    Auto,
    /// The bit-parallel retrograde pass over all subsets (pools of up to 36 numbers).
    BitTable,
    /// Memoised depth-first search from the start position.
    Search,
    /// No search was needed (a target of 0 or less, or one nobody can reach).
    Trivial,
}

/// Limits and choices for a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The method to use.
    pub method: Method,
    /// Memory the solver may use, in bytes (default 4 GiB: pools of up to 35 numbers by table).
    pub memory_limit: u64,
    /// Most positions the remoteness walk may visit; beyond it remoteness is not computed.
    pub remoteness_limit: usize,
    /// Raised to stop the solve: it ends with [`CanIWinError::Cancelled`].
    pub cancel: crate::budget::Cancel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            method: Method::Auto,
            memory_limit: 4 << 30,
            remoteness_limit: 2_000_000,
            cancel: crate::budget::Cancel::new(),
        }
    }
}

/// One query: the pool, the target and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanIWin {
    /// The numbers to pick from.
    pub pool: Pool,
    /// The total to reach.
    pub target: i128,
    /// Misère: whoever reaches the target loses.
    pub misere: bool,
}

impl CanIWin {
    /// The seed's game: numbers `1..=max`, normal play.
    ///
    /// # Errors
    /// `max` must be between 1 and 64.
    pub fn seed(max_choosable: i64, desired_total: i64) -> Result<CanIWin, CanIWinError> {
        let max = u32::try_from(max_choosable)
            .ok()
            .filter(|&m| (1..=MAX_POOL as u32).contains(&m))
            .ok_or(CanIWinError::MaxOutOfRange(max_choosable))?;
        Ok(CanIWin {
            pool: Pool::up_to(max)?,
            target: i128::from(desired_total),
            misere: false,
        })
    }

    /// Nobody can reach the target: every number gets picked and the game is drawn.
    #[must_use]
    pub fn unreachable(&self) -> bool {
        self.pool.sum() < self.target
    }
}

/// The seed's question: does the first player force a win? (Numbers `1..=max_choosable`.)
///
/// A target of 0 or less is won by the first pick. When `1 + 2 + ... + max` is below the target
/// nobody can reach it and the answer is `false` ([`analyse`] reports a draw).
///
/// # Errors
/// `max_choosable` must be between 1 and 64; a solve that would exceed the default memory limit
/// is refused.
pub fn can_i_win(max_choosable: i64, desired_total: i64) -> Result<bool, CanIWinError> {
    let query = CanIWin::seed(max_choosable, desired_total)?;
    Ok(outcome(&query, &Options::default())?.0 == Outcome::Win)
}

/// A first pick and its value for the first player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstMove {
    /// The number picked.
    #[serde(rename = "move")]
    pub pick: u64,
    /// The outcome for the first player after this pick.
    pub outcome: Outcome,
    /// Moves to the end of the game after this pick (counting it), when computed.
    pub remoteness: Option<u32>,
}

/// The full answer for one query.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The outcome for the first player.
    pub outcome: Outcome,
    /// Moves to the end under perfect play; `None` when the walk exceeded its limit.
    pub remoteness: Option<u32>,
    /// Every first pick with its value.
    pub moves: Vec<FirstMove>,
    /// The first picks that win.
    pub winning_moves: Vec<u64>,
    /// One line of perfect play (the numbers in the order picked). Fastest win / slowest loss
    /// when remoteness was computed, otherwise a line that keeps the outcome.
    pub best_line: Vec<u64>,
    /// Positions the solver examined.
    pub states: u64,
    /// The method used.
    pub method: Method,
}

impl Analysis {
    /// A solved query: the outcome from whether the first player wins, the winning picks
    /// read off the moves.
    fn solved(
        first_wins: bool,
        remoteness: Option<u32>,
        moves: Vec<FirstMove>,
        best_line: Vec<u64>,
        states: u64,
        method: Method,
    ) -> Analysis {
        Analysis {
            outcome: if first_wins {
                Outcome::Win
            } else {
                Outcome::Loss
            },
            remoteness,
            winning_moves: moves
                .iter()
                .filter(|m| m.outcome == Outcome::Win)
                .map(|m| m.pick)
                .collect(),
            moves,
            best_line,
            states,
            method,
        }
    }
}

/// The positions' values, however they were computed.
enum Oracle<'a> {
    Table(bitpass::WinTable),
    Search(dfs::Dfs<'a>),
}

impl Oracle<'_> {
    /// Positions examined: every subset for the table, the memo's size for the search.
    fn states(&self, numbers: usize) -> u64 {
        match self {
            Oracle::Table(_) => 1u64 << numbers.min(63),
            Oracle::Search(s) => s.states(),
        }
    }

    fn wins(&mut self, available: u64) -> Result<bool, dfs::OverBudget> {
        match self {
            Oracle::Table(t) => Ok(t.wins(available)),
            Oracle::Search(s) => s.wins(available),
        }
    }
}

/// Decide the method, or refuse the query with the memory it would need. Everything a method
/// allocates is counted here, before it starts: the bit table, or the search's memo at its
/// peak for every position it may reach, plus the remoteness walk's memo.
fn choose_method(
    query: &CanIWin,
    options: &Options,
    with_remoteness: bool,
) -> Result<Method, CanIWinError> {
    plan(query, options, with_remoteness).map(|(method, _)| method)
}

/// [`choose_method`], and the positions the method will visit (every set of picks for the
/// table; for the search, the sets whose sum is below the target).
fn plan(
    query: &CanIWin,
    options: &Options,
    with_remoteness: bool,
) -> Result<(Method, u64), CanIWinError> {
    let n = query.pool.len();
    let walk = if with_remoteness {
        remoteness::memo_bytes(n, options.remoteness_limit)
    } else {
        0
    };
    let table_need = if with_remoteness && uses_depths(n, options) {
        remoteness_table_bytes(n)
    } else if with_remoteness && uses_start_layers(n, options) {
        bitpass::table_bytes(n)
    } else {
        bitpass::table_bytes(n.min(63)).saturating_add(walk)
    };
    let table_fits = n <= 36 && table_need <= options.memory_limit;
    let table_what = if with_remoteness && uses_start_layers(n, options) {
        "the bit table"
    } else if with_remoteness && uses_depths(n, options) {
        "the bit table with every position's remoteness"
    } else {
        "the bit table and the remoteness walk"
    };
    let search_cap = dfs::entries_within(options.memory_limit.saturating_sub(walk));
    let refuse = |bytes: u64, what: &'static str, at_least: bool| CanIWinError::OverMemory {
        at_least: if at_least { "at least " } else { "" },
        what,
        needed: bytes,
        limit: options.memory_limit,
        numbers: n,
        target: query.target,
    };
    let table_positions = 1u64 << n.min(63);
    let search_need = |reachable: u64| dfs::map_peak_bytes(reachable).saturating_add(walk);
    match options.method {
        Method::BitTable if table_fits => return Ok((Method::BitTable, table_positions)),
        Method::BitTable => return Err(refuse(table_need, table_what, false)),
        Method::Search => {
            let reachable = query
                .pool
                .subsets_with_sum_below(query.target, search_cap + 1);
            return if reachable <= search_cap {
                Ok((Method::Search, reachable))
            } else {
                Err(refuse(
                    search_need(reachable),
                    "the search's memo at its peak and the remoteness walk",
                    true,
                ))
            };
        }
        Method::Auto | Method::Trivial => {}
    }
    if n <= 12 && table_fits {
        return Ok((Method::BitTable, table_positions));
    }
    // The search visits at most the subsets of picked numbers whose sum is below the target;
    // it pays ~30x more per position than the table, so it wins when those are few.
    let cap = if table_fits {
        (table_positions / 32).min(search_cap + 1)
    } else {
        search_cap + 1
    };
    let reachable = query.pool.subsets_with_sum_below(query.target, cap);
    if table_fits && reachable >= cap {
        Ok((Method::BitTable, table_positions))
    } else if reachable <= search_cap {
        Ok((Method::Search, reachable))
    } else if n <= 36 {
        // The table is the way that works: say what it takes.
        Err(refuse(table_need, table_what, false))
    } else {
        // The search count was capped at the limit: it needs at least that much.
        Err(refuse(
            search_need(reachable),
            "the search's memo at its peak and the remoteness walk",
            true,
        ))
    }
}

/// Whether the table method computes every position's remoteness by layers
/// ([`bitpass::solve_depths`]): when remoteness is wanted and its bit-planes fit in memory.
/// Otherwise the outcome table is walked from the start ([`remoteness::Walk`]).
fn uses_depths(n: usize, options: &Options) -> bool {
    options.remoteness_limit > 0
        && n <= DEPTHS_MAX_POOL
        && remoteness_table_bytes(n) <= options.memory_limit
}

/// Pools from this size on get the depth passes without planes ([`bitpass::solve_near`]): half
/// the memory and as fast at 20 numbers (at 28, 69 MB and 0.24 s against 199 MB and 0.37 s
/// with planes). Smaller pools keep every position's planes. From 15 rather than 18: the rest
/// of 20 numbers' line is then the two sets of 17 (32 KiB) instead of its planes (96 KiB),
/// which in a fresh process is 36 fewer page faults of 296, and 20/158 whole-process in
/// 2.7-2.9 ms against 3.2-3.4 ms (2026-12-03).
const NEAR_MIN_POOL: usize = 15;

/// Picks from the start that [`bitpass::solve_near`] watches: 1 + 20 + 190 + 1,140 positions at
/// 20 numbers, and the rest of the line is the analysis of a pool an eighth the size.
const NEAR_DEPTH: usize = 3;

/// Bytes the depth passes take for a pool of `n` numbers: the two sets of
/// [`bitpass::solve_near`] (the smaller analysis after it needs less), or the sets and planes
/// of [`bitpass::solve_depths`].
fn remoteness_table_bytes(n: usize) -> u64 {
    if n >= NEAR_MIN_POOL {
        bitpass::table_bytes(n).saturating_mul(2)
    } else {
        bitpass::depth_bytes(n)
    }
}

/// Pools up to this size get the depth passes; larger ones the start's layers in one bit a
/// position, one sub-pool along the best line at a time, so that remoteness costs at most
/// 1.5x the outcome table's memory (peak process memory against the outcome alone: 1.29x at
/// 24 numbers with the two sets, 1.60x at 26, where the start's layers take 1.14x). At 28
/// numbers the start's layers take 0.47 s and 40 MB, the two sets 0.19 s and 71 MB.
const DEPTHS_MAX_POOL: usize = 24;

/// Whether the table method finds remoteness by [`bitpass::solve_start`], in the memory of the
/// outcome table: when remoteness is wanted and the depth table is not used.
fn uses_start_layers(n: usize, options: &Options) -> bool {
    options.remoteness_limit > 0 && !uses_depths(n, options) && n <= 36
}

/// Picks from the start whose positions [`analysis_from_start`] watches: down to the depth
/// passes' size, at most this many; the line's rest is the analysis of the pool reached (for
/// 32 numbers, the start's layers of 28, then the depth passes of 24).
const WATCH_MAX_DEPTH: usize = 4;

/// The full analysis from the start's layers ([`bitpass::solve_start`]): the start and every
/// first pick exactly. The best line follows the watched positions near the start (the same
/// rule as the depth table's line), then goes on with the analysis of the position reached, a
/// pool `depth` numbers smaller: for 32 numbers, the analysis of 28.
fn analysis_from_start(
    query: &CanIWin,
    options: &Options,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Analysis, CanIWinError> {
    let depth = query
        .pool
        .len()
        .saturating_sub(DEPTHS_MAX_POOL)
        .clamp(1, WATCH_MAX_DEPTH);
    analysis_watching(query, options, depth, bitpass::solve_start, on_progress)
}

/// How the values near the start are found: [`bitpass::solve_start`] (one bit a position) or
/// [`bitpass::solve_near`] (the two sets).
type SolveNear = fn(
    &Pool,
    i128,
    bool,
    usize,
    &crate::budget::Cancel,
    &(dyn Fn(u64, u64) + Sync),
) -> Result<bitpass::StartValues, crate::budget::Cancelled>;

/// The full analysis from the values of the positions up to `depth` picks from the start,
/// found by `solve`; the rest of the best line is the analysis of the position where they run
/// out, a pool `depth` numbers smaller.
fn analysis_watching(
    query: &CanIWin,
    options: &Options,
    depth: usize,
    solve: SolveNear,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Analysis, CanIWinError> {
    let near = solve(
        &query.pool,
        query.target,
        query.misere,
        depth,
        &options.cancel,
        on_progress,
    )?;
    let (mut analysis, reached) = analysis_from_values(query, &|a| near.value(a), depth);
    if reached != 0 {
        let next = CanIWin {
            pool: Pool::new(bits(reached).map(|j| query.pool.value(j)).collect())?,
            target: query.need(reached),
            misere: query.misere,
        };
        let rest = analyse_with_progress(&next, options, &|_, _| {})?.best_line;
        analysis.best_line.extend(rest);
    }
    Ok(analysis)
}

/// The full analysis read off the depth table: every value and remoteness is exact.
fn analysis_from_depths(query: &CanIWin, table: &bitpass::DepthTable) -> Analysis {
    analysis_from_values(query, &|a| table.value(a), usize::MAX).0
}

/// The analysis read off `value` (whether the player to move with `available` left wins, and
/// the remoteness; `None` for a position the passes left undecided, slower than any that
/// perfect play from the start reaches): the start, every first pick, and at most `line_picks`
/// of the best line. Also the position where the line stopped short of the end, or 0.
fn analysis_from_values(
    query: &CanIWin,
    value: &dyn Fn(u64) -> Option<(bool, u32)>,
    line_picks: usize,
) -> (Analysis, u64) {
    let values = query.pool.values();
    let full = query.pool.full_mask();
    // A move's outcome and remoteness for the player who makes it.
    let move_value = |available: u64, i: usize| match query.pool_move(available, i) {
        MoveEffect::Finishes => Some((query.finishing_outcome(), 1)),
        MoveEffect::Continues => value(available & !(1 << i)).map(|(wins, r)| {
            let outcome = if wins { Outcome::Loss } else { Outcome::Win };
            (outcome, r + 1)
        }),
    };
    let (first_wins, remoteness) = value(full).expect("the passes run until the start is decided");
    let moves: Vec<FirstMove> = (0..values.len())
        .map(|i| {
            let (outcome, r) =
                move_value(full, i).expect("the passes run until every first pick is decided");
            FirstMove {
                pick: values[i],
                outcome,
                remoteness: Some(r),
            }
        })
        .collect();
    // The line: the winner's fastest winning move, the loser's slowest move, the first in
    // the pool's order among equals.
    let mut best_line = Vec::new();
    let mut available = full;
    while available != 0 && best_line.len() < line_picks {
        let Some((wins, _)) = value(available) else {
            break;
        };
        let mut chosen: Option<(usize, u32)> = None;
        for i in bits(available) {
            let Some((outcome, r)) = move_value(available, i) else {
                continue;
            };
            if (outcome == Outcome::Win) != wins {
                continue;
            }
            if chosen.is_none_or(|(_, b)| if wins { r < b } else { r > b }) {
                chosen = Some((i, r));
            }
        }
        let Some((i, _)) = chosen else { break };
        best_line.push(values[i]);
        if matches!(query.pool_move(available, i), MoveEffect::Finishes) {
            available = 0;
        } else {
            available &= !(1 << i);
        }
    }
    let analysis = Analysis::solved(
        first_wins,
        Some(remoteness),
        moves,
        best_line,
        1u64 << values.len().min(63),
        Method::BitTable,
    );
    (analysis, available)
}

/// Seconds the whole answer (outcome, every move's value, remoteness) takes on this kind of
/// machine with the method [`analyse`] will choose; 0 when it will refuse (the refusal is at
/// once) or the outcome is plain without a search. Measured with the optimised binary on 2 cores: the bit table
/// about 2 ns a set of picks (7.9 s for 32 numbers, 2.6 s for 30), the search about
/// [`SEARCH_SECONDS_PER_POSITION`] a reachable set.
#[must_use]
pub fn estimated_seconds(query: &CanIWin, options: &Options) -> f64 {
    if trivial_outcome(query).is_some() {
        return 0.0;
    }
    match plan(query, options, true) {
        Ok((Method::BitTable, sets)) => sets as f64 * TABLE_SECONDS_PER_SET,
        Ok((Method::Search, reachable)) => reachable as f64 * SEARCH_SECONDS_PER_POSITION,
        _ => 0.0,
    }
}

/// The bit table's time a set of picks, in the whole answer.
pub const TABLE_SECONDS_PER_SET: f64 = 2.0e-9;
/// The memoised search's time a reachable set of picks, in the whole answer.
pub const SEARCH_SECONDS_PER_POSITION: f64 = 1.0e-7;

/// Seconds the bit table takes for a pool of `n` numbers on this kind of machine (1.5 s
/// measured for 32 numbers on 2 cores, and linear in the table's size); an upper bound per
/// target for [`all_targets`], where two solves share the cores.
#[must_use]
pub fn table_seconds(n: usize) -> f64 {
    1.5 * (2f64).powi(n as i32 - 32)
}

fn build_oracle<'a>(
    query: &'a CanIWin,
    options: &Options,
    method: Method,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Oracle<'a>, CanIWinError> {
    Ok(match method {
        Method::BitTable => Oracle::Table(bitpass::solve(
            &query.pool,
            query.target,
            query.misere,
            &options.cancel,
            on_progress,
        )?),
        _ => Oracle::Search(
            dfs::Dfs::new(
                &query.pool,
                query.target,
                query.misere,
                usize::try_from(dfs::entries_within(options.memory_limit)).unwrap_or(usize::MAX),
            )
            .with_cancel(options.cancel.clone()),
        ),
    })
}

/// The search outgrew its memo after the up-front count said it fits (only possible when the
/// count is wrong, so the figure is the limit it reached), or was cancelled.
fn over_memory(query: &CanIWin, options: &Options) -> CanIWinError {
    if options.cancel.is_cancelled() {
        return crate::budget::Cancelled.into();
    }
    CanIWinError::OverMemory {
        at_least: "more than ",
        what: "the search's memo",
        needed: options.memory_limit,
        limit: options.memory_limit,
        numbers: query.pool.len(),
        target: query.target,
    }
}

/// The outcome for the first player and the positions examined, without remoteness.
///
/// # Errors
/// [`CanIWinError::OverMemory`] when the solve would exceed `options.memory_limit`.
pub fn outcome(query: &CanIWin, options: &Options) -> Result<(Outcome, u64), CanIWinError> {
    if let Some(trivial) = trivial_outcome(query) {
        return Ok((trivial, 0));
    }
    let method = choose_method(query, options, false)?;
    let mut oracle = build_oracle(query, options, method, &|_, _| {})?;
    let wins = oracle
        .wins(query.pool.full_mask())
        .map_err(|_| over_memory(query, options))?;
    let states = oracle.states(query.pool.len());
    Ok((if wins { Outcome::Win } else { Outcome::Loss }, states))
}

fn trivial_outcome(query: &CanIWin) -> Option<Outcome> {
    if query.target <= 0 {
        // The first pick reaches the target.
        Some(if query.misere {
            Outcome::Loss
        } else {
            Outcome::Win
        })
    } else if query.unreachable() {
        Some(Outcome::Tie)
    } else {
        None
    }
}

/// The full analysis of one query.
///
/// # Errors
/// [`CanIWinError::OverMemory`] when the solve would exceed `options.memory_limit`.
pub fn analyse(query: &CanIWin, options: &Options) -> Result<Analysis, CanIWinError> {
    analyse_with_progress(query, options, &|_, _| {})
}

/// [`analyse`], calling `on_progress(done, total)` during long solves.
///
/// # Errors
/// As [`analyse`].
pub fn analyse_with_progress(
    query: &CanIWin,
    options: &Options,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Analysis, CanIWinError> {
    let values = query.pool.values();
    if let Some(outcome) = trivial_outcome(query) {
        // Either every pick ends the game at once, or every number gets picked.
        let length = if outcome == Outcome::Tie {
            u32::try_from(values.len()).unwrap_or(u32::MAX)
        } else {
            1
        };
        let moves: Vec<FirstMove> = values
            .iter()
            .map(|&pick| FirstMove {
                pick,
                outcome,
                remoteness: Some(length),
            })
            .collect();
        return Ok(Analysis {
            outcome,
            remoteness: Some(length),
            winning_moves: if outcome == Outcome::Win {
                values.to_vec()
            } else {
                Vec::new()
            },
            best_line: values[..length as usize].to_vec(),
            moves,
            states: 0,
            method: Method::Trivial,
        });
    }
    let method = choose_method(query, options, true)?;
    if method == Method::BitTable && uses_depths(query.pool.len(), options) {
        if query.pool.len() >= NEAR_MIN_POOL {
            let solve = bitpass::solve_near;
            return analysis_watching(query, options, NEAR_DEPTH, solve, on_progress);
        }
        let (pool, target, misere) = (&query.pool, query.target, query.misere);
        let table = bitpass::solve_depths(pool, target, misere, &options.cancel, on_progress)?;
        return Ok(analysis_from_depths(query, &table));
    }
    if method == Method::BitTable && uses_start_layers(query.pool.len(), options) {
        return analysis_from_start(query, options, on_progress);
    }
    let mut oracle = build_oracle(query, options, method, on_progress)?;
    let full = query.pool.full_mask();
    let mut walk = remoteness::Walk::new(query, options.remoteness_limit);
    let analysis = (|| {
        let first_wins = oracle.wins(full)?;
        let mut moves = Vec::with_capacity(values.len());
        for (i, &pick) in values.iter().enumerate() {
            let child = full & !(1 << i);
            let outcome = match query.pool_move(full, i) {
                MoveEffect::Finishes => query.finishing_outcome(),
                MoveEffect::Continues => {
                    if oracle.wins(child)? {
                        Outcome::Loss
                    } else {
                        Outcome::Win
                    }
                }
            };
            moves.push(FirstMove {
                pick,
                outcome,
                remoteness: None,
            });
        }
        let remoteness = walk.remoteness(&mut oracle, full)?;
        if remoteness.is_some() {
            for (i, m) in moves.iter_mut().enumerate() {
                m.remoteness = walk.move_remoteness(&mut oracle, full, i)?;
            }
        }
        let best_line = walk.best_line(&mut oracle, full)?;
        let states = oracle.states(values.len());
        Ok::<_, dfs::OverBudget>(Analysis::solved(
            first_wins, remoteness, moves, best_line, states, method,
        ))
    })();
    analysis.map_err(|_| over_memory(query, options))
}

/// Whether picking a number ends the game.
enum MoveEffect {
    Finishes,
    Continues,
}

impl CanIWin {
    fn need(&self, available: u64) -> i128 {
        self.target - (self.pool.sum() - self.pool.sum_of(available))
    }

    fn pool_move(&self, available: u64, index: usize) -> MoveEffect {
        if i128::from(self.pool.value(index)) >= self.need(available) {
            MoveEffect::Finishes
        } else {
            MoveEffect::Continues
        }
    }

    /// The outcome for a player whose pick reaches the target.
    fn finishing_outcome(&self) -> Outcome {
        if self.misere {
            Outcome::Loss
        } else {
            Outcome::Win
        }
    }
}

/// The most targets [`all_targets`] solves in one call.
pub const MAX_TARGETS: u64 = 100_000;

/// The longest [`all_targets`] run accepted, by its up-front estimate.
pub const MAX_ALL_TARGETS_SECONDS: f64 = 120.0;

/// Which targets the first player wins, for one pool and rule: every target from 1 to the sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TargetTable {
    /// `outcomes[t - 1]` is the first player's outcome for target `t`.
    pub outcomes: Vec<Outcome>,
    /// Positions examined over all targets.
    pub states: u64,
}

impl TargetTable {
    /// The targets the first player wins, as inclusive ranges.
    #[must_use]
    pub fn winning_ranges(&self) -> Vec<(u64, u64)> {
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for (t, _) in (1u64..)
            .zip(&self.outcomes)
            .filter(|(_, o)| **o == Outcome::Win)
        {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == t => *end = t,
                _ => ranges.push((t, t)),
            }
        }
        ranges
    }
}

/// The first player's outcome for every target from 1 to the pool's sum (targets of 0 or less
/// are won by the first pick, targets above the sum are draws). Targets run in parallel.
///
/// # Errors
/// [`CanIWinError::TooManyTargets`] when the pool adds up to more than [`MAX_TARGETS`];
/// [`CanIWinError::OverMemory`] when a target's solve would exceed the memory limit.
pub fn all_targets(
    pool: &Pool,
    misere: bool,
    options: &Options,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<TargetTable, CanIWinError> {
    let sum = u64::try_from(pool.sum())
        .ok()
        .filter(|&s| s <= MAX_TARGETS)
        .ok_or(CanIWinError::TooManyTargets(pool.sum().unsigned_abs()))?;
    // Outcomes only: no remoteness walk. Two solves at once at most, one per core.
    let per_target = Options {
        memory_limit: options.memory_limit / 2,
        remoteness_limit: 0,
        ..options.clone()
    };
    // Up front: at most one table per target (the search takes over only where it is
    // cheaper); a table already keeps both cores busy.
    let seconds = sum as f64 * table_seconds(pool.len());
    if seconds > MAX_ALL_TARGETS_SECONDS {
        return Err(CanIWinError::AllTargetsTooSlow {
            targets: sum,
            numbers: pool.len(),
            estimate: crate::parse::human_seconds(seconds),
        });
    }
    let done = std::sync::atomic::AtomicU64::new(0);
    let results: Vec<(Outcome, u64)> = (1..=sum)
        .into_par_iter()
        .map(|target| {
            let query = CanIWin {
                pool: pool.clone(),
                target: i128::from(target),
                misere,
            };
            let result = outcome(&query, &per_target);
            let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            on_progress(finished, sum);
            result
        })
        .collect::<Result<_, _>>()?;
    Ok(TargetTable {
        states: results.iter().map(|r| r.1).sum(),
        outcomes: results.into_iter().map(|r| r.0).collect(),
    })
}

/// The game as a [`Game`], for the generic solver. Positions are the masks of available numbers.
impl Game for CanIWin {
    type Position = u64;
    type Move = u64;

    fn start(&self) -> u64 {
        self.pool.full_mask()
    }

    fn moves(&self, available: &u64) -> Vec<u64> {
        pool::bits(*available).map(|i| self.pool.value(i)).collect()
    }

    fn play(&self, available: &u64, pick: &u64) -> Transition<u64> {
        let index = self.pool.index_of(*pick).expect("a number from the pool");
        match self.pool_move(*available, index) {
            MoveEffect::Finishes => Transition::End(if self.misere {
                Ending::Loss
            } else {
                Ending::Win
            }),
            MoveEffect::Continues => Transition::to(available & !(1 << index)),
        }
    }

    /// Every number is picked and nobody reached the target.
    fn no_moves(&self, _: &u64) -> Ending {
        Ending::Draw
    }
}

#[cfg(test)]
mod tests;
