//! `perfect-play octal`: Grundy sequences, proven periods, sums and misère play.

use super::subtraction::parse_heap;
use super::{Budget, CommandError};
use crate::args::{OctalArgs, OctalMethodArg};
use crate::output::{self, Output};
use crate::progress;
use num_bigint::BigUint;
use perfect_play::Outcome;
use perfect_play::budget::Cancel;
use perfect_play::octal::{
    self, GrundyCheckpoint, GrundySequence, Method, MisereAnalysis, OctalCode, OctalMove,
    SumAnalysis,
};
use perfect_play::registry::Side;
use perfect_play::registry::answers::octal::{self as answers, Solved};
use std::sync::LazyLock;

/// The longest estimated run of values made without --no-time-limit.
const MAX_SECONDS_UNASKED: f64 = 60.0;

/// Set by Ctrl-C during a run with --checkpoint.
static STOP: LazyLock<Cancel> = LazyLock::new(Cancel::new);
use serde_json::json;

pub fn run(args: &OctalArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    let code = answers::parse_code(&args.code)?;
    let heaps = args
        .heaps
        .iter()
        .flat_map(|h| h.split_whitespace())
        .map(|h| parse_heap("heap", h))
        .collect::<Result<Vec<_>, _>>()?;
    let method = match args.method {
        OctalMethodArg::Auto => Method::Auto,
        OctalMethodArg::Naive => Method::Naive,
        OctalMethodArg::RareCommon => Method::RareCommon,
    };
    let plan = answers::plan(
        &code,
        answers::largest(&heaps),
        args.upto,
        args.full,
        method,
        budget,
    )?;
    let options = plan.options;
    let upto = options.upto;
    // Every value to --upto is computed with --full (else the period usually ends the run):
    // past a minute, only when asked.
    let seconds = octal::estimated_seconds(&code, upto);
    if options.full && seconds > MAX_SECONDS_UNASKED && !args.no_time_limit {
        return Err(format!(
            "the values of {code} up to heap {upto} would take about {} here, past the minute a run takes unasked; add --no-time-limit to run it (with --checkpoint FILE it can be stopped and resumed)",
            perfect_play::parse::human_seconds(seconds)
        )
        .into());
    }
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
        let _ = ctrlc::set_handler(|| STOP.cancel());
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
    // Without a period the answer depends on values past the budget's cap.
    answers::check_capped(&seq, &plan, &code, budget)?;
    let mut out = solve(&code, &seq, &heaps, args, method, upto, budget)?;
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
    method: Method,
    upto: u64,
    budget: &Budget,
) -> Result<Output, CommandError> {
    let family = if *code == OctalCode::grundys_game() {
        "Grundy's game"
    } else if code.is_hexadecimal() {
        "Hexadecimal game"
    } else {
        "Octal game"
    };
    let mut text = format!("{family} {code}: {}\n", describe_period(seq, upto));
    let mut json = if heaps.is_empty() && args.heaps.is_empty() {
        // No position: the sequence alone.
        json!({
            "game": "octal",
            "code": code.to_string(),
            "misere": args.misere,
            "period": seq.period,
            "values_computed": seq.values.len(),
            "method": answers::method_name(method),
        })
    } else {
        let report = answers::report(code, seq, heaps, args.misere, method, budget)?;
        text.push_str(&match &report.analysis {
            Solved::Sum(a) => sum_text(seq, heaps, a),
            Solved::Misere(a) => misere_text(heaps, a),
        });
        report.answer.to_json()
    };
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

fn sum_text(seq: &GrundySequence, heaps: &[BigUint], a: &SumAnalysis) -> String {
    let outcome = if a.first_player_wins {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    let mut text = format!(
        "Heaps {} (Grundy values {}, nim-sum {}).\n{}\n",
        output::list(heaps),
        output::list(&a.grundy),
        a.nim_sum,
        output::result_sentence(Side::First, None, outcome, None, None)
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
    text
}

fn misere_text(heaps: &[BigUint], a: &MisereAnalysis) -> String {
    let mut text = format!(
        "Misère play, heaps {}.\n{}\nPositions searched: {}.\n",
        output::list(heaps),
        output::result_sentence(Side::First, None, a.outcome, None, None),
        a.states
    );
    if let Some(first) = a.winning_moves.first() {
        text.push_str(&format!("Winning move: {}.\n", describe_move(first)));
    }
    text
}
