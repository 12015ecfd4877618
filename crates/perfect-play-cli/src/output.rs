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

/// A move in a heap game, the one shape every heap family uses: from heap `heap` (0-based,
/// shown 1-based) take `take`, leaving `leaves` (the non-empty heaps left in its place).
pub fn heap_move<T: Serialize>(heap: usize, take: u64, leaves: Vec<T>) -> serde_json::Value {
    json!({"heap": heap + 1, "take": take, "leaves": leaves})
}

/// The JSON fields every position solved by the generic solver shares (the contract in
/// README.md and the schemas).
pub fn analysis_json<M: Serialize + Clone>(
    analysis: &Analysis<M>,
    states: usize,
) -> serde_json::Value {
    let winning = analysis.winning_moves();
    json!({
        "outcome": analysis.value.outcome(),
        "first_player_wins": analysis.value.outcome() == Outcome::Win,
        "remoteness": analysis.value.remoteness,
        "moves": analysis.moves.iter().map(|m| move_json(&m.mv, m.value)).collect::<Vec<_>>(),
        "moves_complete": true,
        "winning_moves_total": winning.len(),
        "winning_moves": winning,
        "optimal_moves": analysis.optimal_moves(),
        "best_line": analysis.best_line,
        "states": states,
        "method": "search",
    })
}

/// "wins in 3 moves", "loses in 4 moves", "ties in 9 moves", "has lost: the game is over".
pub fn verdict(value: Value) -> String {
    verdict_of(value.outcome(), Some(u64::from(value.remoteness)))
}

/// [`verdict`] from an outcome and a remoteness that may be unknown.
pub fn verdict_of(outcome: Outcome, remoteness: Option<u64>) -> String {
    if remoteness == Some(0) {
        return match outcome {
            Outcome::Win => "has won: the game is over",
            Outcome::Loss => "has lost: the game is over",
            Outcome::Tie => "has tied: the game is over",
            Outcome::Draw => "draws",
        }
        .to_string();
    }
    let verb = match outcome {
        Outcome::Win => "wins",
        Outcome::Loss => "loses",
        Outcome::Tie => "ties",
        Outcome::Draw => return "draws: play goes on forever".to_string(),
    };
    match remoteness {
        Some(r) => format!("{verb} in {}", moves_word(r)),
        None => verb.to_string(),
    }
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
    if analysis.moves.is_empty() {
        return String::from("No move is possible: the game is over.\n");
    }
    let mut text = String::from("Every move (value for the player who makes it):\n");
    for m in &analysis.moves {
        text.push_str(&format!(
            "  {:<24} {}\n",
            m.mv.to_string(),
            verdict(m.value)
        ));
    }
    text.push_str(&format!("Best line: {}\n", list(&analysis.best_line)));
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

/// A heap of any size as JSON: a number while it fits in 64 bits, a decimal string beyond.
pub fn big_json(n: &num_bigint::BigUint) -> serde_json::Value {
    u64::try_from(n).map_or_else(|_| json!(n.to_string()), |v| json!(v))
}
