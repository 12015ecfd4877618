//! The registry's games without a command written out (the Stone Game series, the classic
//! puzzles): the position and flags to the registry's answer, told in one text for all.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::PuzzleCommand;
use crate::output::{Output, list, result_sentence, verdict_of};
use perfect_play::registry::{Answer, MoveValue};
use serde_json::Value;

/// The most moves the text lists (the JSON lists what the answer holds).
const TEXT_MOVES: usize = 12;

/// A position shown in the text: long ones cut in the middle.
fn shown(position: &str) -> String {
    let chars: Vec<char> = position.chars().collect();
    if chars.len() <= 120 {
        return position.to_string();
    }
    let head: String = chars[..60].iter().collect();
    let tail: String = chars[chars.len() - 40..].iter().collect();
    format!("{head} ... {tail} ({} characters)", chars.len())
}

fn word(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// The margin as the sentence says it: its size, and the totals where the game has them.
fn margin_of(details: &serde_json::Map<String, Value>) -> Option<String> {
    let margin = details.get("margin")?.as_i64()?;
    let totals = match (details.get("mover_total"), details.get("opponent_total")) {
        (Some(a), Some(b)) => format!(" ({a} to {b})"),
        _ => String::new(),
    };
    Some(format!("{}{totals}", margin.unsigned_abs()))
}

fn move_line(m: &MoveValue) -> String {
    if let (Some(cost), Some(reply)) = (m.details.get("cost"), m.details.get("reply")) {
        return format!(
            "  {:<8} costs at most {cost}: the worst answer is {} ({})\n",
            word(&m.mv),
            word(reply),
            m.position.as_deref().unwrap_or("")
        );
    }
    let margin = margin_of(&m.details).map_or_else(String::new, |m| format!(", by {m}"));
    let leads = m
        .position
        .as_deref()
        .map_or_else(String::new, |p| format!(" (leaves {})", shown(p)));
    format!(
        "  {:<8} {}{margin}{leads}\n",
        word(&m.mv),
        verdict_of(m.outcome, m.remoteness)
    )
}

/// The answer told for a person.
fn text_of(command: &PuzzleCommand, answer: &Answer) -> String {
    let info = command.info;
    let mut text = format!("{}: {}\n", info.title, shown(&answer.position));
    if let Some(cost) = answer.details.get("cost") {
        text.push_str(&format!(
            "The guesser needs {cost} to be sure of finding the number, whatever the answers.\n"
        ));
    } else {
        let remoteness = answer.remoteness;
        // Who is to move, where the game names the players (the cat or the mouse; Left or
        // Right in a partizan game).
        let player = answer
            .details
            .get("player")
            .and_then(Value::as_str)
            .map(|p| match p {
                "left" => "Left",
                "right" => "Right",
                other => other,
            });
        let animal = answer
            .details
            .get("animal_to_move")
            .and_then(Value::as_str)
            .or(player);
        text.push_str(&result_sentence(
            answer.to_move,
            animal,
            answer.outcome,
            remoteness,
            margin_of(&answer.details).as_deref(),
        ));
        text.push('\n');
        if let (None, Some(whole)) = (answer.remoteness, answer.details.get("remoteness_whole")) {
            text.push_str(&format!(
                "It lasts {} moves with both playing perfectly.\n",
                word(whole)
            ));
        }
    }
    if let Some(reason) = answer.details.get("reason").and_then(Value::as_str) {
        text.push_str(&format!("Why: {reason}.\n"));
    }
    if answer.moves.is_empty() {
        text.push_str("No move is possible: the game is over.\n");
        return text;
    }
    text.push_str("Moves (value for the player who makes it), best first:\n");
    for m in answer.moves.iter().take(TEXT_MOVES) {
        text.push_str(&move_line(m));
    }
    let more = answer.moves.len().saturating_sub(TEXT_MOVES);
    if more > 0 || !answer.moves_complete {
        text.push_str(&format!(
            "  ... {} more (--json lists {})\n",
            if answer.moves_complete {
                more.to_string()
            } else {
                "and others".to_string()
            },
            answer.moves.len()
        ));
    }
    match &answer.best_line {
        Some(line) if line.len() <= 60 => {
            let words: Vec<String> = line.iter().map(word).collect();
            text.push_str(&format!("Best line: {}\n", list(&words)));
        }
        Some(line) => {
            let words: Vec<String> = line.iter().take(30).map(word).collect();
            text.push_str(&format!(
                "Best line: {}, ... ({} moves; --json gives it whole)\n",
                list(&words),
                line.len()
            ));
        }
        None => {}
    }
    text
}

fn answer(
    command: &PuzzleCommand,
    position: &str,
    budget: &Budget,
) -> Result<Answer, CommandError> {
    let params = command.info.params_from(&command.params)?;
    Ok(command.info.answer(&params, position, budget)?)
}

pub fn run(command: &PuzzleCommand, budget: &Budget) -> Result<Output, CommandError> {
    let answer = answer(command, &command.position, budget)?;
    Ok(Output {
        text: text_of(command, &answer),
        json: answer.to_json(),
    })
}

pub fn batch(
    command: &PuzzleCommand,
    budget: &Budget,
    io: &mut Io<'_>,
) -> Result<(), CommandError> {
    if !command.position.is_empty() {
        return Err("--batch reads the positions from stdin: give none on the command line".into());
    }
    super::batch_lines(io, |line| Ok(answer(command, line, budget)?.to_json()))
}
