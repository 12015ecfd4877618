//! `perfect-play octal`: Grundy sequences, proven periods, sums and misère play.

use super::subtraction::parse_heap;
use super::{Budget, CommandError};
use crate::args::{OctalArgs, OctalMethodArg};
use crate::output::{self, Output, big_json};
use crate::progress;
use num_bigint::BigUint;
use perfect_play::Outcome;
use perfect_play::octal::{
    self, GrundyCheckpoint, GrundySequence, Method, OctalCode, OctalMove, Options, Storage,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C during a run with --checkpoint.
static STOP: AtomicBool = AtomicBool::new(false);
use serde_json::json;

/// Positions the misère search may visit.
const MISERE_STATES: usize = 5_000_000;

/// Heaps computed by default: every heap asked about up to this size, and at least the
/// smallest default, so that a period can be proven.
const DEFAULT_UPTO: (u64, u64) = (1 << 16, 1 << 20);

/// Heaps computed by default for a hexadecimal code (time cubic in the heap): under 0.1 s here.
const HEXADECIMAL_UPTO: u64 = 1024;

/// Time a value costs at worst, measured on Grundy's game to 10^6.
const SECONDS_PER_VALUE: f64 = 3.5e-6;

/// The memory a run may take unless --memory-limit says otherwise.
const DEFAULT_MEMORY_LIMIT: u64 = 2 << 30;

/// Two bytes a value where they fit the limit (and up to [`octal::MAX_WIDE_UPTO`]), one byte
/// a value where only that fits; a refusal with both figures where neither does.
fn storage_within(upto: u64, memory_limit: u64) -> Result<Storage, CommandError> {
    let wide = octal::table_bytes(upto, Storage::Wide);
    if upto <= octal::MAX_WIDE_UPTO && wide <= memory_limit {
        return Ok(Storage::Wide);
    }
    let packed = Storage::Packed(octal::Packing::default());
    let needed = octal::table_bytes(upto, packed);
    if needed <= memory_limit {
        return Ok(packed);
    }
    Err(format!(
        "--upto {upto} needs about {} for the values (about a byte a heap; {} with two-byte values), above the memory limit of {}; raise --memory-limit or lower --upto",
        perfect_play::parse::human_size(needed),
        perfect_play::parse::human_size(wide),
        perfect_play::parse::human_size(memory_limit)
    )
    .into())
}

pub fn run(args: &OctalArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
    let code: OctalCode = if args.code.trim() == "grundy" {
        OctalCode::grundys_game()
    } else {
        args.code
            .parse()
            .map_err(|e| format!("code {:?}: {e}", perfect_play::parse::shorten(&args.code)))?
    };
    let heaps = args
        .heaps
        .iter()
        .flat_map(|h| h.split_whitespace())
        .map(|h| parse_heap("heap", h))
        .collect::<Result<Vec<_>, _>>()?;
    let largest = heaps
        .iter()
        .map(|h| u64::try_from(h).unwrap_or(u64::MAX))
        .max()
        .unwrap_or(0);
    // A heap past the default is answered only through a period found below it: the values
    // up to such a heap are asked for explicitly with --upto.
    // Hexadecimal codes cost time cubic in the heap: their default stops where the work
    // limit does (an explicit --upto past it is refused with the figure).
    let upto = args.upto.unwrap_or(if code.is_hexadecimal() {
        largest
            .max(HEXADECIMAL_UPTO)
            .min(octal::largest_upto(&code))
    } else if largest <= DEFAULT_UPTO.1 {
        largest.max(DEFAULT_UPTO.0)
    } else {
        DEFAULT_UPTO.0
    });
    let upto = budget.cap(upto, 300);
    let affordable = budget.limit_by_time(upto, SECONDS_PER_VALUE);
    if affordable < upto && args.full {
        budget.check_time(
            || format!("the Grundy values of {code} up to heap {upto}"),
            upto as f64 * SECONDS_PER_VALUE,
        )?;
    }
    let capped = affordable < upto;
    let upto = affordable;
    if upto > octal::MAX_UPTO {
        return Err(octal::OctalError::UptoTooLarge(upto).into());
    }
    let memory_limit = budget.memory(DEFAULT_MEMORY_LIMIT);
    let storage = storage_within(upto, memory_limit)?;
    let options = Options {
        upto,
        full: args.full,
        method: match args.method {
            OctalMethodArg::Auto => Method::Auto,
            OctalMethodArg::Naive => Method::Naive,
            OctalMethodArg::RareCommon => Method::RareCommon,
        },
        storage,
    };
    let bar = progress::bar("grundy values", quiet);
    let update = progress::updater(&bar);
    let mut checkpoint = match &args.checkpoint {
        Some(_) if budget.small => {
            return Err("--checkpoint is not available under the small budget".into());
        }
        Some(path) => Some(GrundyCheckpoint::open(path, &code)?),
        None => None,
    };
    let resumed_from = checkpoint.as_ref().map(GrundyCheckpoint::saved);
    if checkpoint.is_some() {
        // Ctrl-C stops the run at its next progress step, which saves the values. A second
        // handler in the same process is refused by ctrlc: the first one sets the same flag.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    }
    let seq = GrundySequence::compute_resumable(
        &code,
        &options,
        checkpoint.as_mut(),
        &STOP,
        &|done, total| update(done, total),
    );
    bar.finish_and_clear();
    let seq = seq?;
    if capped && seq.period.is_none() {
        // Without a period the answer depends on values past the budget's cap.
        return Err(budget
            .stopped_at_cap(format!(
                "the Grundy values of {code} (no period below heap {upto})"
            ))
            .into());
    }
    let mut out = solve(&code, &seq, &heaps, args, upto, budget)?;
    if let Some(heaps) = resumed_from {
        out.json["resumed_from"] = json!(heaps);
        if heaps > 0 {
            out.text.push_str(&format!(
                "Went on from the {heaps} values saved in the checkpoint.\n"
            ));
        }
    }
    Ok(out)
}

fn solve(
    code: &OctalCode,
    seq: &GrundySequence,
    heaps: &[BigUint],
    args: &OctalArgs,
    upto: u64,
    budget: Budget,
) -> Result<Output, CommandError> {
    let family = if *code == OctalCode::grundys_game() {
        "Grundy's game"
    } else if code.is_hexadecimal() {
        "Hexadecimal game"
    } else {
        "Octal game"
    };
    let mut text = format!("{family} {code}: {}\n", describe_period(seq, upto));
    let mut json = json!({
        "game": "octal",
        "code": code.to_string(),
        "misere": args.misere,
        "period": seq.period,
        "values_computed": seq.values.len(),
        "method": match args.method {
            OctalMethodArg::Auto => "auto",
            OctalMethodArg::Naive => "naive",
            OctalMethodArg::RareCommon => "rare-common",
        },
    });
    if !heaps.is_empty() || !args.heaps.is_empty() {
        json["heaps"] = json!(heaps.iter().map(big_json).collect::<Vec<_>>());
        let out = if args.misere {
            misere_output(code, heaps, budget.cap(MISERE_STATES, 2_000))?
        } else {
            sum_output(seq, heaps)?
        };
        text.push_str(&out.text);
        if let serde_json::Value::Object(fields) = out.json {
            for (k, v) in fields {
                json[k] = v;
            }
        }
    }
    if args.values {
        let values = seq
            .values_upto(upto)
            .ok_or("values past those computed need a proven period; raise --upto or add --full")?;
        let shown: String = values.iter().map(|&v| output::value_char(v)).collect();
        text.push_str(&format!(
            "Values of heaps 0-{upto} (0-9, then A=10, B=11, ...):\n{shown}\n"
        ));
        json["values"] = json!(values);
    }
    Ok(Output { text, json })
}

fn describe_period(seq: &GrundySequence, upto: u64) -> String {
    match seq.period {
        Some(p) => format!(
            "the Grundy values are periodic from heap {} with period {} (proven by the Guy-Smith bound after {} values).",
            p.preperiod,
            p.period,
            seq.values.len()
        ),
        None if seq.code.restricts_parts() => format!(
            "values computed up to {upto}; no period is claimed, since ! and ? put such games outside the periodicity theorem."
        ),
        None => format!("no period proven up to {upto}."),
    }
}

fn moves_json(moves: &[OctalMove]) -> serde_json::Value {
    json!(
        moves
            .iter()
            .map(|m| output::heap_move(
                m.heap,
                m.take as u64,
                m.leaves.iter().map(big_json).collect()
            ))
            .collect::<Vec<_>>()
    )
}

fn describe_move(m: &OctalMove) -> String {
    let leaves = match m.leaves.len() {
        0 => "leaving nothing".to_string(),
        1 => format!("leaving {}", m.leaves[0]),
        2 => format!(
            "splitting the rest into {} and {}",
            m.leaves[0], m.leaves[1]
        ),
        _ => format!(
            "splitting the rest into {}, {} and {}",
            m.leaves[0], m.leaves[1], m.leaves[2]
        ),
    };
    format!("from heap {} take {}, {leaves}", m.heap + 1, m.take)
}

/// Whether a heap of `h` has any move in this game.
fn has_move(seq: &GrundySequence, h: &BigUint) -> bool {
    u32::try_from(h).map_or(true, |h| {
        octal::OctalSum {
            code: seq.code.clone(),
            misere: false,
        }
        .has_move(h)
    })
}

fn sum_output(seq: &GrundySequence, heaps: &[BigUint]) -> Result<Output, CommandError> {
    let a = octal::analyse_sum(seq, heaps)?;
    let mut text = format!(
        "Heaps {} (Grundy values {}, nim-sum {}): the player to move {}.\n",
        output::list(heaps),
        output::list(&a.grundy),
        a.nim_sum,
        if a.first_player_wins { "wins" } else { "loses" }
    );
    if heaps.iter().all(|h| seq.value_of(h) == Some(0)) && !heaps.iter().any(|h| has_move(seq, h)) {
        text.push_str("No move is possible: the game is over.\n");
    } else if let Some(first) = a.winning_moves.first() {
        text.push_str(&format!(
            "Winning move: {} (the nim-sum becomes 0){}.\n",
            describe_move(first),
            if a.winning_moves_total > BigUint::from(1u8) {
                format!("; {} winning moves in all", a.winning_moves_total)
            } else {
                String::new()
            }
        ));
    }
    let json = json!({
        "grundy": a.grundy,
        "nim_sum": a.nim_sum,
        "first_player_wins": a.first_player_wins,
        "outcome": if a.first_player_wins { "win" } else { "loss" },
        "winning_moves": moves_json(&a.winning_moves),
        "winning_moves_total": big_json(&a.winning_moves_total),
    });
    Ok(Output { text, json })
}

fn misere_output(
    code: &OctalCode,
    heaps: &[BigUint],
    max_states: usize,
) -> Result<Output, CommandError> {
    let small = heaps
        .iter()
        .map(|h| {
            u32::try_from(h).map_err(|_| format!("heap {h} is too large for the misère search"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let a = octal::analyse_misere(code, &small, max_states)?;
    let mut text = format!(
        "Misère play, heaps {}: the player to move {} ({} positions searched).\n",
        output::list(&small),
        if a.outcome == Outcome::Win {
            "wins"
        } else {
            "loses"
        },
        a.states
    );
    if let Some(first) = a.winning_moves.first() {
        text.push_str(&format!("Winning move: {}.\n", describe_move(first)));
    }
    let json = json!({
        "misere": true,
        "first_player_wins": a.outcome == Outcome::Win,
        "outcome": a.outcome,
        "winning_moves": moves_json(&a.winning_moves),
        "winning_moves_total": a.winning_moves.len(),
        "states": a.states,
    });
    Ok(Output { text, json })
}
