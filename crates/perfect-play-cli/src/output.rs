//! Rendering shared by every subcommand: one text block for a person or one JSON object.

use perfect_play::registry::Side;
use perfect_play::{Analysis, Outcome, Value};
use std::fmt::Display;

/// What a command produced, in both renderings; `main` prints the one asked for.
pub struct Output {
    pub text: String,
    pub json: serde_json::Value,
}

/// The one sentence every result is told in: who is to move (with their mark or letter when
/// the game has one), the outcome for them, in how many moves when known, and the margin where
/// the game has one. "The first player (x) to move ties in 9 moves."
pub fn result_sentence(
    side: Side,
    label: Option<&str>,
    outcome: Outcome,
    remoteness: Option<u64>,
    margin: Option<&str>,
) -> String {
    let label = label.map_or_else(String::new, |l| format!(" ({l})"));
    let margin = margin.map_or_else(String::new, |m| format!(", by {m}"));
    format!(
        "The {} player{label} to move {}{margin}.",
        side.name(),
        verdict_of(outcome, remoteness)
    )
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
