//! `perfect-play values` and `perfect-play sum`: any impartial heap game, and sums of them.

use super::{Budget, CommandError};
use crate::args::{SumArgs, ValuesArgs};
use crate::output::{self, Output};
use crate::progress;
use crate::{Io, WriteFailed};
use perfect_play::impartial::{ComponentMove, HeapGame, Limits, Values};
use perfect_play::registry::answers::partizan_sum;
use perfect_play::registry::answers::sum::{self, BYTES_PER_HEAP};
use perfect_play::registry::{Side, find};
use serde::Serialize;
use std::io::Write;

/// Values printed in text, per line.
const PER_LINE: usize = 20;

fn limits(budget: &Budget) -> Limits {
    sum::limits(budget)
}

/// `values`: written as it is rendered, not built first (16.8 million values make a JSON
/// array of 130 MB, and a `serde_json::Value` of it would take 540 MB more).
pub fn values(
    args: &ValuesArgs,
    budget: &Budget,
    quiet: bool,
    json: bool,
    io: &mut Io<'_>,
) -> Result<(), CommandError> {
    let game: HeapGame = args.game.parse()?;
    let upto = budget.cap(args.upto, 300);
    let limits = limits(budget);
    if upto >= limits.max_values {
        return Err(format!(
            "--upto {upto} needs about {} for the values ({BYTES_PER_HEAP} bytes a heap), above the memory limit of {}; raise --memory-limit or lower --upto",
            perfect_play::parse::human_size((upto + 1).saturating_mul(BYTES_PER_HEAP)),
            perfect_play::parse::human_size(budget.memory(2 << 30)),
        )
        .into());
    }
    let bar = progress::bar("grundy values", quiet);
    let update = progress::updater(&bar);
    let table = Values::compute_proving(&game, upto, &limits, &|d, t| update(d, t))?;
    bar.finish_and_clear();
    if (0..=upto).any(|n| table.get(n).is_none()) {
        return Err("the values stop before --upto (a value past four bytes)".into());
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut *io.stdout);
    if json {
        let document = ValuesJson {
            game: game.to_string(),
            description: game.describe(),
            values: HeapValues {
                table: &table,
                upto,
            },
            period: table.period,
            formula: table.formula,
            arithmetic_period: table.arithmetic_period,
            values_computed: table.values_computed,
        };
        serde_json::to_writer(&mut out, &document).map_err(|e| {
            WriteFailed(e.io_error_kind().map_or_else(
                || std::io::Error::other(e.to_string()),
                |kind| std::io::Error::new(kind, e.to_string()),
            ))
        })?;
        writeln!(out).map_err(WriteFailed)?;
    } else {
        writeln!(out, "{} ({}).", game, game.describe()).map_err(WriteFailed)?;
        writeln!(out, "{}", describe_period(&table, upto)).map_err(WriteFailed)?;
        let mut heap = 0u64;
        while heap <= upto {
            let row_end = (heap + PER_LINE as u64 - 1).min(upto);
            write!(out, "{heap:>8}:").map_err(WriteFailed)?;
            for n in heap..=row_end {
                write!(out, " {}", table.get(n).unwrap_or_default()).map_err(WriteFailed)?;
            }
            writeln!(out).map_err(WriteFailed)?;
            heap = row_end + 1;
        }
    }
    out.flush().map_err(WriteFailed)?;
    Ok(())
}

/// The JSON object of `values` (its schema: `schemas/values.schema.json`).
#[derive(Serialize)]
struct ValuesJson<'a> {
    game: String,
    description: String,
    values: HeapValues<'a>,
    period: Option<perfect_play::period::Period>,
    formula: Option<&'static str>,
    arithmetic_period: Option<perfect_play::period::ArithmeticPeriod>,
    values_computed: u64,
}

/// Heaps `0..=upto` of a table, serialized one by one as an array.
struct HeapValues<'a> {
    table: &'a Values,
    upto: u64,
}

impl Serialize for HeapValues<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(usize::try_from(self.upto + 1).ok())?;
        for n in 0..=self.upto {
            seq.serialize_element(&self.table.get(n).unwrap_or_default())?;
        }
        seq.end()
    }
}

fn describe_period(table: &Values, upto: u64) -> String {
    if let Some(formula) = table.formula {
        return format!("Closed form: {formula}.");
    }
    match (table.period, &table.game) {
        (Some(p), _) => format!(
            "The values are periodic from heap {} with period {} (proven).",
            p.preperiod, p.period
        ),
        (None, HeapGame::TakeBreak(code)) if code.restricts_parts() => format!(
            "No period is claimed up to {upto}: ! and ? put this game outside the periodicity theorem."
        ),
        (None, _) => {
            let searched = (table.values_computed.max(1) - 1).max(upto);
            match table.arithmetic_period {
                Some(a) => format!(
                    "No period found up to heap {searched}; the values look arithmetic-periodic from heap {}: g(n + {}) = g(n) + {}, seen up to heap {} (not proven).",
                    a.preperiod, a.period, a.saltus, a.checked_upto
                ),
                None => format!("No period found up to heap {searched}."),
            }
        }
    }
}

pub fn sum(args: &SumArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    let position = args.components.join(" ");
    if partizan_sum::has_partizan_component(&position) {
        return partizan(args, &position, budget);
    }
    let components = sum::parse_components(&position)?;
    let limits = limits(budget);
    if args.misere {
        let listed: Vec<String> = components
            .iter()
            .map(|c| format!("{}:{}", c.game, c.heap))
            .collect();
        let report = sum::misere(&components, &limits)?;
        let m = &report.analysis;
        let mut text = format!(
            "Misère play of {}.\n{}\nPositions searched: {}.\n",
            listed.join(" + "),
            output::result_sentence(Side::First, None, m.outcome, None, None),
            m.states
        );
        if !m.winning_moves.is_empty() {
            let moves: Vec<String> = m.winning_moves.iter().map(describe).collect();
            text.push_str(&format!("Winning moves: {}\n", moves.join("; ")));
        }
        return Ok(Output {
            text,
            json: report.answer.to_json(),
        });
    }
    let bar = progress::bar("grundy values", quiet);
    let update = progress::updater(&bar);
    let report = sum::normal(&components, &limits, budget, &|d, t| update(d, t))?;
    bar.finish_and_clear();
    let a = &report.analysis;
    let mut text = String::new();
    for (i, (c, v)) in components.iter().zip(&a.values).enumerate() {
        text.push_str(&format!(
            "{:>3}. {}:{} has Grundy value {v}\n",
            i + 1,
            c.game,
            c.heap
        ));
    }
    text.push_str(&format!(
        "Nim-sum {}.\n{}\n{}\n",
        a.nim_sum,
        output::result_sentence(Side::First, None, report.answer.outcome, None, None),
        a.explanation
    ));
    if a.first_player_wins {
        let moves: Vec<String> = a.winning_moves.iter().map(describe).collect();
        text.push_str(&format!(
            "Winning moves ({} in all): {}\n",
            a.winning_moves_total,
            moves.join("; ")
        ));
    }
    Ok(Output {
        text,
        json: report.answer.to_json(),
    })
}

/// A sum with a partizan component: each component's canonical form, the sum's, who wins
/// and every move of the player to move.
fn partizan(args: &SumArgs, position: &str, budget: &Budget) -> Result<Output, CommandError> {
    let info = find("sum").ok_or("the registry has no sum")?;
    let params = info.params_from(&[
        ("misere".into(), args.misere.to_string()),
        ("to_move".into(), args.to_move.clone()),
    ])?;
    let answer = partizan_sum::answer(&params, position, budget)?;
    let d = &answer.details;
    let text_of = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let mut text = String::new();
    for (i, c) in d["components"].as_array().into_iter().flatten().enumerate() {
        text.push_str(&format!(
            "{:>3}. {} {} has value {}\n",
            i + 1,
            text_of(&c["game"]),
            text_of(&c["position"]),
            text_of(&c["value"])
        ));
    }
    let player = if d["player"] == "right" {
        "Right"
    } else {
        "Left"
    };
    text.push_str(&format!(
        "The sum is {}.\n{}\nWhy: {}.\n",
        text_of(&d["value"]),
        output::result_sentence(Side::First, Some(player), answer.outcome, None, None),
        text_of(&d["reason"])
    ));
    if answer.moves.is_empty() {
        text.push_str(&format!("{player} has no move.\n"));
    } else {
        text.push_str(&format!("{player}'s moves, winning ones first:\n"));
        for m in answer.moves.iter().take(12) {
            text.push_str(&format!(
                "  component {}: {:<12} {} (the sum becomes {})\n",
                m.mv["component"],
                text_of(&m.mv["move"]),
                if m.outcome == perfect_play::Outcome::Win {
                    "wins"
                } else {
                    "loses"
                },
                text_of(&m.details["value"])
            ));
        }
        if answer.moves.len() > 12 {
            text.push_str(&format!(
                "  ... {} more (--json lists them all)\n",
                answer.moves.len() - 12
            ));
        }
    }
    if let Some(line) = answer.best_line.as_ref().filter(|l| !l.is_empty()) {
        let words: Vec<String> = line.iter().take(30).map(text_of).collect();
        text.push_str(&format!("Best line: {}\n", output::list(&words)));
    }
    Ok(Output {
        text,
        json: answer.to_json(),
    })
}

fn describe(m: &ComponentMove) -> String {
    format!("in component {}, {}", m.component, m.describe())
}
