//! `perfect-play values` and `perfect-play sum`: any impartial heap game, and sums of them.

use super::{Budget, CommandError};
use crate::args::{SumArgs, ValuesArgs};
use crate::output::{Output, big_json};
use crate::progress;
use crate::{Io, WriteFailed};
use perfect_play::Outcome;
use perfect_play::impartial::{
    self, Component, ComponentMove, HeapGame, Limits, Values, analyse_misere,
    analyse_sum_with_progress,
};
use serde::Serialize;
use serde_json::json;
use std::io::Write;

/// Bytes a heap costs at the peak: four for the table's values; for a take-and-break code two
/// more for its own and two for the second thread's copy. Measured peak resident memory over
/// heaps 0 to 2^22: 6.9 bytes a heap for Grundy's game, 8.8 for 0.6, 7.7 for squares (to
/// 10^6), the output written as it is rendered.
const BYTES_PER_HEAP: u64 = 10;

/// Values printed in text, per line.
const PER_LINE: usize = 20;

/// Time a heap's value costs at worst, measured on Grundy's game to 10^6 (3.4 s).
const SECONDS_PER_VALUE: f64 = 3.5e-6;

fn limits(budget: Budget) -> Limits {
    let defaults = Limits::default();
    let memory = budget.memory(2 << 30);
    Limits {
        max_values: budget.limit_by_time(
            (memory / BYTES_PER_HEAP).min(defaults.max_values),
            SECONDS_PER_VALUE,
        ),
        max_work: budget.cap(defaults.max_work, 2_000_000),
        max_misere_states: budget.cap(defaults.max_misere_states, 2_000),
    }
}

/// `values`: written as it is rendered, not built first (16.8 million values make a JSON
/// array of 130 MB, and a `serde_json::Value` of it would take 540 MB more).
pub fn values(
    args: &ValuesArgs,
    budget: Budget,
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

pub fn sum(args: &SumArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
    let components = args
        .components
        .iter()
        .flat_map(|c| c.split_whitespace())
        .map(str::parse::<Component>)
        .collect::<Result<Vec<_>, _>>()?;
    if components.is_empty() {
        return Err(impartial::ImpartialError::Empty.into());
    }
    let limits = limits(budget);
    if args.misere {
        let listed: Vec<String> = components
            .iter()
            .map(|c| format!("{}:{}", c.game, c.heap))
            .collect();
        return misere(&components, &listed, &limits);
    }
    let bar = progress::bar("grundy values", quiet);
    let update = progress::updater(&bar);
    let a = analyse_sum_with_progress(&components, &limits, &|d, t| update(d, t)).map_err(
        |e| -> CommandError {
            match e {
                impartial::ImpartialError::HeapTooLarge {
                    game, heap, limit, ..
                } if budget
                    .affordable(SECONDS_PER_VALUE)
                    .is_some_and(|a| a <= limit.saturating_add(1)) =>
                {
                    budget
                        .stopped_at_cap(format!("the values of {game} up to heap {heap}"))
                        .into()
                }
                e => e.into(),
            }
        },
    )?;
    bar.finish_and_clear();
    let outcome = if a.first_player_wins {
        Outcome::Win
    } else {
        Outcome::Loss
    };
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
        "Nim-sum {}: the player to move {}.\n{}\n",
        a.nim_sum,
        if a.first_player_wins { "wins" } else { "loses" },
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
    let json = json!({
        "game": "sum",
        "misere": false,
        "components": components.iter().zip(&a.values).map(|(c, v)| json!({
            "game": c.game.to_string(),
            "heap": big_json(&c.heap),
            "value": big_json(v),
        })).collect::<Vec<_>>(),
        "values": a.values.iter().map(big_json).collect::<Vec<_>>(),
        "nim_sum": big_json(&a.nim_sum),
        "outcome": outcome,
        "first_player_wins": a.first_player_wins,
        "winning_moves": a.winning_moves.iter().map(move_json).collect::<Vec<_>>(),
        "winning_moves_total": big_json(&a.winning_moves_total),
        "explanation": a.explanation,
        "values_computed": a.values_computed.iter().map(|(g, n)| json!({"game": g, "values": n})).collect::<Vec<_>>(),
        "method": "sprague-grundy",
    });
    Ok(Output { text, json })
}

fn misere(
    components: &[Component],
    listed: &[String],
    limits: &Limits,
) -> Result<Output, CommandError> {
    let m = analyse_misere(components, limits)?;
    let mut text = format!(
        "Misère play of {}: the player to move {} ({} positions searched).\n",
        listed.join(" + "),
        if m.outcome == Outcome::Win {
            "wins"
        } else {
            "loses"
        },
        m.states
    );
    if !m.winning_moves.is_empty() {
        let moves: Vec<String> = m.winning_moves.iter().map(describe).collect();
        text.push_str(&format!("Winning moves: {}\n", moves.join("; ")));
    }
    let json = json!({
        "game": "sum",
        "misere": true,
        "components": components.iter().map(|c| json!({
            "game": c.game.to_string(),
            "heap": big_json(&c.heap),
        })).collect::<Vec<_>>(),
        "outcome": m.outcome,
        "first_player_wins": m.outcome == Outcome::Win,
        "winning_moves": m.winning_moves.iter().map(move_json).collect::<Vec<_>>(),
        "winning_moves_total": m.winning_moves.len(),
        "states": m.states,
        "method": "search",
    });
    Ok(Output { text, json })
}

fn describe(m: &ComponentMove) -> String {
    format!("in component {}, {}", m.component, m.describe())
}

fn move_json(m: &ComponentMove) -> serde_json::Value {
    json!({
        "component": m.component,
        "move": m.describe(),
        "take": big_json(&m.take),
        "leaves": m.leaves.iter().map(big_json).collect::<Vec<_>>(),
    })
}
