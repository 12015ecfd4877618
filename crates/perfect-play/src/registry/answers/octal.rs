//! Octal and hexadecimal (take-and-break) games by their code: Grundy values with a proven
//! period, sums of heaps of any size, misère play by exact search.

use super::{MAX_LISTED_MOVES, Report, after_heap_move, big_json, heap_move, join};
use crate::budget::Budget;
use crate::octal::{
    self, GrundySequence, Method, MisereAnalysis, OctalCode, OctalMove, Options, Storage,
    SumAnalysis,
};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use crate::{Outcome, parse};
use num_bigint::BigUint;
use serde_json::{Map, Value, json};

/// Positions the misère search may visit.
pub const MISERE_STATES: usize = 5_000_000;

/// Heaps computed by default: every heap asked about up to this size, and at least the
/// smallest default, so that a period can be proven.
pub const DEFAULT_UPTO: (u64, u64) = (1 << 16, 1 << 20);

/// Heaps computed by default for a hexadecimal code (time cubic in the heap): under 0.1 s here.
pub const HEXADECIMAL_UPTO: u64 = 1024;

/// Time a value costs at worst, measured on Grundy's game to 10^6.
pub const SECONDS_PER_VALUE: f64 = 3.5e-6;

/// The memory a run may take unless a memory limit says otherwise.
pub const DEFAULT_MEMORY_LIMIT: u64 = 2 << 30;

/// The largest heap whose moves are listed one by one (beyond it, the winning moves alone).
const MAX_LISTED_HEAP: u32 = 4_096;

/// A code as typed: `grundy` for Grundy's game, else octal or hexadecimal (`0.77`, `0.3F`).
///
/// # Errors
/// Text that is not a code.
pub fn parse_code(text: &str) -> Result<OctalCode, QueryError> {
    if text.trim() == "grundy" {
        Ok(OctalCode::grundys_game())
    } else {
        text.parse()
            .map_err(|e| QueryError::BadInput(format!("code {:?}: {e}", parse::shorten(text))))
    }
}

/// The code as the notation takes it back: Grundy's game by its name (its code 4!.0 is
/// CGSuite's, not the parser's).
#[must_use]
pub fn typed(code: &OctalCode) -> String {
    if *code == OctalCode::grundys_game() {
        "grundy".to_string()
    } else {
        code.to_string()
    }
}

/// Two bytes a value where they fit the limit (and up to [`octal::MAX_WIDE_UPTO`]), one byte
/// a value where only that fits; a refusal with both figures where neither does.
///
/// # Errors
/// Neither fits.
pub fn storage_within(upto: u64, memory_limit: u64) -> Result<Storage, QueryError> {
    let wide = octal::table_bytes(upto, Storage::Wide);
    if upto <= octal::MAX_WIDE_UPTO && wide <= memory_limit {
        return Ok(Storage::Wide);
    }
    let packed = Storage::Packed(octal::Packing::default());
    let needed = octal::table_bytes(upto, packed);
    if needed <= memory_limit {
        return Ok(packed);
    }
    Err(QueryError::BadInput(format!(
        "--upto {upto} needs at least {} for the values ({} at two bytes a heap, {} packed at about a byte a heap), above the memory limit of {}; raise --memory-limit or lower --upto",
        parse::human_size(needed.min(wide)),
        parse::human_size(wide),
        parse::human_size(needed),
        parse::human_size(memory_limit)
    )))
}

/// How far the values are computed, and how.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The options of the computation.
    pub options: Options,
    /// Whether the time budget lowered the heaps computed.
    pub capped: bool,
}

/// The computation for heaps up to `largest` (`upto` when asked, else the default) under
/// the budget.
///
/// # Errors
/// Work over the budget, or values past the memory limit.
pub fn plan(
    code: &OctalCode,
    largest: u64,
    upto: Option<u64>,
    full: bool,
    method: Method,
    budget: &Budget,
) -> Result<Plan, QueryError> {
    // A heap past the default is answered only through a period found below it: the values
    // up to such a heap are asked for explicitly with --upto. Hexadecimal codes cost time
    // cubic in the heap: their default stops where the work limit does (an explicit --upto
    // past it is refused with the figure).
    // Past them, a look for a period short of a second (or a refusal at once for a game with
    // no known period).
    let computable = if code.is_hexadecimal() {
        octal::largest_upto(code)
    } else {
        DEFAULT_UPTO.1
    };
    if upto.is_none() && largest > computable && octal::period_unknown(code) {
        return Err(QueryError::bad(octal::OctalError::NoKnownPeriod {
            code: code.to_string(),
            heap: largest.to_string(),
            computable,
        }));
    }
    let upto = upto.unwrap_or(if largest > computable {
        octal::probe_upto(code).min(DEFAULT_UPTO.0)
    } else if code.is_hexadecimal() {
        largest.max(HEXADECIMAL_UPTO)
    } else {
        largest.max(DEFAULT_UPTO.0)
    });
    let upto = budget.cap(upto, 300);
    let affordable = budget.limit_by_time(upto, SECONDS_PER_VALUE);
    if affordable < upto && full {
        budget.check_time(
            || format!("the Grundy values of {code} up to heap {upto}"),
            upto as f64 * SECONDS_PER_VALUE,
        )?;
    }
    let capped = affordable < upto;
    let upto = affordable;
    if upto > octal::MAX_UPTO {
        return Err(QueryError::bad(octal::OctalError::UptoTooLarge(upto)));
    }
    let storage = storage_within(upto, budget.memory(DEFAULT_MEMORY_LIMIT))?;
    // Every value is computed with `full`, or for a game with no known period (no period
    // ends the run early); else the period usually ends the run early, and the work's length
    // is not known before.
    if full || octal::period_unknown(code) {
        budget.admit(upto as f64 * SECONDS_PER_VALUE)?;
    }
    Ok(Plan {
        options: Options {
            upto,
            full,
            method,
            storage,
        },
        capped,
    })
}

/// A sequence computed under a capped plan without a period depends on values past the cap:
/// over the budget.
///
/// # Errors
/// That case.
pub fn check_capped(
    seq: &GrundySequence,
    plan: &Plan,
    code: &OctalCode,
    budget: &Budget,
) -> Result<(), QueryError> {
    if plan.capped && seq.period.is_none() {
        return Err(budget
            .stopped_at_cap(format!(
                "the Grundy values of {code} (no period below heap {})",
                plan.options.upto
            ))
            .into());
    }
    Ok(())
}

/// The heaps' largest size (saturated), for [`plan`].
#[must_use]
pub fn largest(heaps: &[BigUint]) -> u64 {
    heaps
        .iter()
        .map(|h| u64::try_from(h).unwrap_or(u64::MAX))
        .max()
        .unwrap_or(0)
}

/// The method's name in the answers: `auto`, `naive`, `rare-common`.
#[must_use]
pub fn method_name(method: Method) -> &'static str {
    match method {
        Method::Auto => "auto",
        Method::Naive => "naive",
        Method::RareCommon => "rare-common",
    }
}

/// The registry's answer: `position` CODE HEAP..., `misere`, `values` with `upto`.
///
/// # Errors
/// A code or heap not accepted, or work over the budget.
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let mut words = position.split_whitespace();
    let code = parse_code(words.next().unwrap_or(""))?;
    let heaps = words
        .map(|h| super::subtraction::parse_heap("heap", h))
        .collect::<Result<Vec<_>, _>>()?;
    // The code alone is the game with no heaps (the player to move has lost): with `values`,
    // what a page asks to draw the values.
    let plan = plan(
        &code,
        largest(&heaps),
        params.integer("upto"),
        false,
        Method::Auto,
        budget,
    )?;
    let seq =
        GrundySequence::compute_resumable(&code, &plan.options, None, &budget.cancel, &|_, _| {})?;
    check_capped(&seq, &plan, &code, budget)?;
    let misere = params.text("misere") == Some("true");
    let mut answer = report(&code, &seq, &heaps, misere, Method::Auto, budget)?.answer;
    if params.text("values") == Some("true") {
        let values = seq.values_upto(plan.options.upto).ok_or_else(|| {
            QueryError::BadInput("values past those computed need a proven period".into())
        })?;
        answer.details.insert("values".into(), json!(values));
    }
    Ok(answer)
}

/// What the heaps' analysis found: Grundy values in normal play, a search in misère play.
#[derive(Clone, Debug)]
pub enum Solved {
    /// Normal play: by the Sprague-Grundy theorem.
    Sum(SumAnalysis),
    /// Misère play: by exact search.
    Misere(MisereAnalysis),
}

/// The heaps of `code` (values in `seq`), in normal or misère play.
///
/// # Errors
/// A heap past the values without a period, or a misère search over its limit.
pub fn report(
    code: &OctalCode,
    seq: &GrundySequence,
    heaps: &[BigUint],
    misere: bool,
    method: Method,
    budget: &Budget,
) -> Result<Report<Solved>, QueryError> {
    let mut details = Map::new();
    details.insert("code".into(), json!(code.to_string()));
    details.insert("misere".into(), json!(misere));
    details.insert("period".into(), json!(seq.period));
    details.insert("values_computed".into(), json!(seq.values.len()));
    details.insert(
        "heaps".into(),
        json!(heaps.iter().map(big_json).collect::<Vec<_>>()),
    );
    let (solved, outcome, winning, total) = if misere {
        let small = heaps
            .iter()
            .map(|h| {
                u32::try_from(h).map_err(|_| {
                    QueryError::BadInput(format!("heap {h} is too large for the misère search"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let states = budget.cap(MISERE_STATES, 2_000);
        let mut a = octal::analyse_misere(code, &small, states, &budget.cancel)?;
        // Equal heaps give the same positions: each listed once, for the first of them.
        super::distinct(&mut a.winning_moves, |m| {
            after_heap_move(heaps, m.heap, &m.leaves)
        });
        details.insert("positions_searched".into(), json!(a.states));
        let (outcome, winning) = (a.outcome, a.winning_moves.clone());
        let total = BigUint::from(winning.len());
        (Solved::Misere(a), outcome, winning, total)
    } else {
        let a = octal::analyse_sum(seq, heaps).map_err(QueryError::bad)?;
        details.insert("grundy".into(), json!(a.grundy));
        details.insert("nim_sum".into(), json!(a.nim_sum));
        let outcome = if a.first_player_wins {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let (winning, total) = (a.winning_moves.clone(), a.winning_moves_total.clone());
        (Solved::Sum(a), outcome, winning, total)
    };
    let (moves, complete) = every_move(code, heaps, &winning, &total);
    let mut answer = Answer {
        game: "octal",
        position: format!("{} {}", typed(code), join(heaps))
            .trim_end()
            .to_string(),
        to_move: Side::First,
        outcome,
        first_player_wins: outcome == Outcome::Win,
        remoteness: None,
        moves,
        moves_complete: complete,
        winning_moves: winning.iter().map(octal_move_json).collect(),
        winning_moves_total: big_json(&total),
        best_line: None,
        method: method_name(method).into(),
        details,
    };
    answer.sort_moves();
    Ok(Report {
        analysis: solved,
        answer,
    })
}

/// An octal move as JSON, the heap families' one shape.
#[must_use]
pub fn octal_move_json(m: &OctalMove) -> Value {
    heap_move(
        m.heap,
        m.take as u64,
        m.leaves.iter().map(big_json).collect(),
    )
}

/// A move's canonical key: heap, take, leaves sorted.
fn key(heap: usize, take: u64, leaves: &[BigUint]) -> (usize, u64, Vec<BigUint>) {
    let mut leaves = leaves.to_vec();
    leaves.sort();
    (heap, take, leaves)
}

/// Every move of the heaps (heaps up to [`MAX_LISTED_HEAP`], one per distinct heap size),
/// valued by the winning moves (every other move loses), when the winning moves are all
/// listed; else the winning moves alone. Returns the moves and whether they are all of them.
fn every_move(
    code: &OctalCode,
    heaps: &[BigUint],
    winning: &[OctalMove],
    total: &BigUint,
) -> (Vec<MoveValue>, bool) {
    let valued = |heap: usize, take: u64, leaves: Vec<BigUint>, win: bool| {
        let after = after_heap_move(heaps, heap, &leaves);
        let position = if after.is_empty() {
            "0".to_string()
        } else {
            join(&after)
        };
        MoveValue {
            mv: heap_move(heap, take, leaves.iter().map(big_json).collect()),
            outcome: if win { Outcome::Win } else { Outcome::Loss },
            remoteness: None,
            ends_game: after.iter().all(|h| *h == BigUint::ZERO),
            position: Some(format!("{} {position}", typed(code))),
            details: Map::new(),
        }
    };
    let winners_only = || {
        let moves = winning
            .iter()
            .map(|m| valued(m.heap, m.take as u64, m.leaves.clone(), true))
            .collect();
        (moves, false)
    };
    if *total != BigUint::from(winning.len()) {
        return winners_only();
    }
    let winning_keys: std::collections::BTreeSet<_> = winning
        .iter()
        .map(|m| key(m.heap, m.take as u64, &m.leaves))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut moves = Vec::new();
    for (i, h) in heaps.iter().enumerate() {
        if !seen.insert(h) {
            continue;
        }
        let Some(small) = u32::try_from(h).ok().filter(|&s| s <= MAX_LISTED_HEAP) else {
            return winners_only();
        };
        for (take, leaves) in octal::moves_of(code, small) {
            let leaves: Vec<BigUint> = leaves.into_iter().map(BigUint::from).collect();
            let win = winning_keys.contains(&key(i, take as u64, &leaves));
            moves.push(valued(i, take as u64, leaves, win));
        }
        if moves.len() > MAX_LISTED_MOVES {
            return winners_only();
        }
    }
    (moves, true)
}
