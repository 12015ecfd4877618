//! `perfect-play octal`: Grundy sequences, proven periods, sums and misère play.

use super::CommandError;
use super::subtraction::parse_pile;
use crate::args::{OctalArgs, OctalMethodArg};
use crate::output::{self, Output};
use crate::progress;
use num_bigint::BigUint;
use perfect_play::Outcome;
use perfect_play::octal::{self, GrundySequence, Method, OctalCode, OctalMove, Options};
use serde_json::json;

/// Positions the misère search may visit.
const MISERE_STATES: usize = 5_000_000;

pub fn run(args: &OctalArgs, json: bool) -> Result<Output, CommandError> {
    let code: OctalCode = args.code.parse()?;
    let heaps = args
        .heaps
        .iter()
        .map(|h| parse_pile(h))
        .collect::<Result<Vec<_>, _>>()?;
    let largest = heaps
        .iter()
        .filter_map(|h| u64::try_from(h).ok())
        .max()
        .unwrap_or(0);
    let upto = args
        .upto
        .unwrap_or_else(|| largest.clamp(1 << 16, octal::MAX_UPTO));
    let options = Options {
        upto,
        full: args.full,
        method: match args.method {
            OctalMethodArg::Naive => Method::Naive,
            OctalMethodArg::RareCommon => Method::RareCommon,
        },
    };
    let bar = progress::bar("grundy values", json);
    let update = progress::updater(&bar);
    let seq = GrundySequence::compute(&code, &options, &|done, total| update(done, total))?;
    bar.finish_and_clear();
    solve(&code, &seq, &heaps, args, upto)
}

/// Kayles with heaps 3 4 5, for the tour.
pub fn tour_example() -> Result<Output, CommandError> {
    let code: OctalCode = "0.77".parse()?;
    let seq = GrundySequence::compute(&code, &Options::default(), &|_, _| {})?;
    let heaps: Vec<BigUint> = [3u32, 4, 5].into_iter().map(BigUint::from).collect();
    let text = format!("{}\n", describe_period(&seq, 1 << 20));
    let mut out = sum_output(&seq, &heaps)?;
    out.text.insert_str(0, &text);
    Ok(out)
}

fn solve(
    code: &OctalCode,
    seq: &GrundySequence,
    heaps: &[BigUint],
    args: &OctalArgs,
    upto: u64,
) -> Result<Output, CommandError> {
    let mut text = format!("Octal game {code}: {}\n", describe_period(seq, upto));
    let mut json = json!({
        "code": code.to_string(),
        "period": seq.period,
        "values_computed": seq.values.len(),
    });
    if !heaps.is_empty() {
        let out = if args.misere {
            misere_output(code, heaps)?
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
        None => format!("no period proven up to {upto}."),
    }
}

fn moves_json(moves: &[OctalMove]) -> serde_json::Value {
    json!(moves.iter().map(|m| json!({
        "heap": m.heap + 1,
        "take": m.take,
        "leaves": m.leaves.iter().map(|l| u64::try_from(l).map_or_else(|_| json!(l.to_string()), |v| json!(v))).collect::<Vec<_>>(),
    })).collect::<Vec<_>>())
}

fn describe_move(m: &OctalMove) -> String {
    let leaves = match m.leaves.len() {
        0 => "leaving nothing".to_string(),
        1 => format!("leaving {}", m.leaves[0]),
        _ => format!(
            "splitting the rest into {} and {}",
            m.leaves[0], m.leaves[1]
        ),
    };
    format!("from heap {} take {}, {leaves}", m.heap + 1, m.take)
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
    if let Some(first) = a.winning_moves.first() {
        text.push_str(&format!(
            "Winning move: {} (the nim-sum becomes 0){}.\n",
            describe_move(first),
            if a.winning_moves.len() > 1 {
                format!("; {} winning moves in all", a.winning_moves.len())
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
    });
    Ok(Output { text, json })
}

fn misere_output(code: &OctalCode, heaps: &[BigUint]) -> Result<Output, CommandError> {
    let small = heaps
        .iter()
        .map(|h| {
            u32::try_from(h).map_err(|_| format!("heap {h} is too large for the misère search"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let a = octal::analyse_misere(code, &small, MISERE_STATES)?;
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
        "states": a.states,
    });
    Ok(Output { text, json })
}
