//! Rendering shared by every subcommand: one text block for a person or one JSON object.

use perfect_play::{Analysis, Outcome, Value};
use serde::Serialize;
use serde_json::json;
use std::fmt::Display;

/// What a command produced, in both renderings; `main` prints the one asked for.
pub struct Output {
    pub text: String,
    pub json: serde_json::Value,
}

/// A move and what it is worth to its maker, as JSON.
pub fn move_json<M: Serialize>(mv: &M, value: Value) -> serde_json::Value {
    json!({
        "move": mv,
        "outcome": value.outcome(),
        "remoteness": value.remoteness,
    })
}

/// The JSON fields every solved position shares (the contract in README.md).
pub fn analysis_json<M: Serialize + Clone>(
    analysis: &Analysis<M>,
    states: usize,
) -> serde_json::Value {
    json!({
        "outcome": analysis.value.outcome(),
        "first_player_wins": analysis.value.outcome() == Outcome::Win,
        "remoteness": analysis.value.remoteness,
        "moves": analysis.moves.iter().map(|m| move_json(&m.mv, m.value)).collect::<Vec<_>>(),
        "winning_moves": analysis.winning_moves(),
        "optimal_moves": analysis.optimal_moves(),
        "best_line": analysis.best_line,
        "states": states,
    })
}

/// "wins in 3 moves", "loses in 4 moves", "draws in 9 moves".
pub fn verdict(value: Value) -> String {
    let verb = match value.outcome() {
        Outcome::Win => "wins",
        Outcome::Loss => "loses",
        Outcome::Draw => "draws",
    };
    format!("{verb} in {}", moves_word(value.remoteness))
}

/// "1 move", "5 moves".
pub fn moves_word(n: impl Into<u64>) -> String {
    let n = n.into();
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

/// A comma-separated list of displayable items.
pub fn list<T: Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text lines every solved position shares: each move's value and the best line.
pub fn analysis_text<M: Display + Clone>(analysis: &Analysis<M>) -> String {
    let mut text = String::from("Every move (value for the player who makes it):\n");
    for m in &analysis.moves {
        text.push_str(&format!(
            "  {:<24} {}\n",
            m.mv.to_string(),
            verdict(m.value)
        ));
    }
    if analysis.best_line.is_empty() {
        text.push_str("No move is possible: the game is over.\n");
    } else {
        text.push_str(&format!("Best line: {}\n", list(&analysis.best_line)));
    }
    text
}

/// One character for a small value: 0-9, then A-Z for 10-35, a-z for 36-61, `+` beyond.
pub fn value_char(v: impl Into<u32>) -> char {
    let v = v.into();
    match v {
        0..=9 => char::from_digit(v, 10).unwrap_or('+'),
        10..=35 => char::from(b'A' + (v - 10) as u8),
        36..=61 => char::from(b'a' + (v - 36) as u8),
        _ => '+',
    }
}

/// A wide integer as JSON: a number while it fits in 64 bits, a decimal string beyond.
pub fn int_json(v: i128) -> serde_json::Value {
    i64::try_from(v).map_or_else(|_| json!(v.to_string()), |v| json!(v))
}
