//! `perfect-play values` and `perfect-play sum`: any impartial heap game, and sums of them.

use super::{Budget, CommandError};
use crate::args::{SumArgs, ValuesArgs};
use crate::output::{Output, big_json};
use crate::progress;
use perfect_play::Outcome;
use perfect_play::impartial::{
    self, Component, ComponentMove, HeapGame, Limits, Values, analyse_misere,
    analyse_sum_with_progress,
};
use serde_json::json;

/// Bytes a table keeps a heap: four for the values, two more for a take-and-break code's own.
const BYTES_PER_HEAP: u64 = 6;

/// Values printed in text, per line.
const PER_LINE: usize = 20;

fn limits(budget: Budget) -> Limits {
    let defaults = Limits::default();
    let memory = budget.memory(2 << 30);
    Limits {
        max_values: (memory / BYTES_PER_HEAP).min(defaults.max_values),
        max_work: budget.cap(defaults.max_work, 2_000_000),
        max_misere_states: budget.cap(defaults.max_misere_states, 2_000),
    }
}

pub fn values(args: &ValuesArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
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
    let shown = table
        .upto(upto)
        .ok_or("the values stop before --upto (a value past four bytes)")?;
    let mut text = format!("{} ({}).\n", game, game.describe());
    text.push_str(&describe_period(&table, upto));
    text.push('\n');
    for (row, chunk) in shown.chunks(PER_LINE).enumerate() {
        let values: Vec<String> = chunk.iter().map(u32::to_string).collect();
        text.push_str(&format!("{:>8}: {}\n", row * PER_LINE, values.join(" ")));
    }
    let json = json!({
        "game": game.to_string(),
        "description": game.describe(),
        "values": shown,
        "period": table.period,
        "formula": table.formula,
        "values_computed": table.values_computed,
    });
    Ok(Output { text, json })
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
        (None, _) => format!(
            "No period found up to heap {}.",
            (table.values_computed.max(1) - 1).max(upto)
        ),
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
    let a = analyse_sum_with_progress(&components, &limits, &|d, t| update(d, t))?;
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

/// A sum of Kayles, Grundy's game, subtract-a-square and Nim, for the tour.
pub fn tour_example() -> Result<Output, CommandError> {
    let args = SumArgs {
        components: ["0.77:10", "grundy:12", "squares:100", "nim:5"]
            .map(String::from)
            .to_vec(),
        misere: false,
    };
    sum(&args, Budget::default(), true)
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
