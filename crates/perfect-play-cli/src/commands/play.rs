//! `perfect-play play`: a game against the perfect player, one move a line from stdin.
//!
//! The perfect player takes the first move of the explorer's list: the fastest win, else a
//! tie or draw, else the slowest loss.

use super::CommandError;
use crate::args::{PlayArgs, Side};
use crate::explorer::{self, Explorer};
use crate::output::verdict_of;
use crate::{Io, WriteFailed};
use perfect_play::Outcome;
use perfect_play::registry::{self, GameInfo};
use serde_json::Value;

/// Seconds one answer may take in play: a game is played position by position, so each is
/// asked for separately; what one command would refuse, play refuses too.
const PLAY_BUDGET_SECONDS: f64 = 600.0;

type Query = Vec<(String, String)>;

pub fn run(args: &PlayArgs, io: &mut Io<'_>) -> Result<(), CommandError> {
    let spec = explorer::game(&args.game).ok_or_else(|| {
        let names: Vec<&str> = registry::GAMES.iter().map(|g| g.name).collect();
        format!(
            "there is no game {:?} to play; the games are {}",
            perfect_play::parse::shorten(&args.game),
            names.join(", ")
        )
    })?;
    let start = start_query(spec, args)?;
    if io.small_limits && !args.db.is_empty() {
        return Err("--db is not available under the small budget".into());
    }
    let (databases, books) = explorer::open_served(&args.db)?;
    let explorer = Explorer {
        budget_seconds: PLAY_BUDGET_SECONDS,
        small_limits: io.small_limits,
        databases: std::sync::Arc::new(databases),
        books: std::sync::Arc::new(books),
    };
    let mut history: Vec<Query> = vec![start];
    let mut line = String::new();
    let human_first = args.side == Side::First;
    say(
        io,
        &format!(
            "{}: you play {}. Type a move, `moves`, `hint`, `undo` or `quit`.",
            spec.title,
            if human_first { "first" } else { "second" }
        ),
    )?;
    loop {
        let query = history.last().cloned().unwrap_or_default();
        let answer = explorer.answer(spec.name, &query)?;
        let human_to_move = (history.len() % 2 == 1) == human_first;
        let moves = answer["moves"].as_array().cloned().unwrap_or_default();
        say(io, &picture(spec, &answer, &query))?;
        if moves.is_empty() {
            let outcome = answer["outcome"].as_str().unwrap_or("");
            return say(io, &game_over(outcome, human_to_move));
        }
        if !human_to_move {
            let best = &moves[0];
            let why = if best["outcome"] == "loss" {
                " (every move loses; this one holds out longest)"
            } else {
                ""
            };
            say(io, &format!("{}{why}.", played(spec, "I play", best)))?;
            if !follow(io, best, false, &mut history)? {
                return Ok(());
            }
            continue;
        }
        if args.hints {
            list_moves(io, spec, &moves)?;
        }
        loop {
            write!(io.stdout, "your move> ")
                .and_then(|()| io.stdout.flush())
                .map_err(WriteFailed)?;
            line.clear();
            let read = io.stdin.read_line(&mut line).map_err(|e| {
                if e.kind() == std::io::ErrorKind::InvalidData {
                    "standard input: a line that is not UTF-8 text".to_string()
                } else {
                    format!("standard input: {e}")
                }
            })?;
            if read == 0 {
                return say(io, "");
            }
            let said = line.trim();
            match said.to_ascii_lowercase().as_str() {
                "" => continue,
                "quit" | "q" | "exit" => return say(io, "Bye."),
                "moves" => list_moves(io, spec, &moves)?,
                "hint" => say(io, &format!("{}.", played(spec, "Hint:", &moves[0])))?,
                "undo" => {
                    // Back to the person's previous turn: their move and the reply.
                    if history.len() > 2 {
                        history.truncate(history.len() - 2);
                        break;
                    }
                    say(io, "Nothing to undo.")?;
                }
                _ => match moves.iter().find(|m| matches(spec, &m["move"], said)) {
                    Some(chosen) => {
                        say(io, &format!("{}.", played(spec, "You play", chosen)))?;
                        if !follow(io, chosen, true, &mut history)? {
                            return Ok(());
                        }
                        break;
                    }
                    None => say(
                        io,
                        &format!(
                            "{:?} is not a legal move here; type `moves` to see them",
                            perfect_play::parse::shorten(said)
                        ),
                    )?,
                },
            }
        }
    }
}

/// The first query: the position given (else the game's start, or for a game without one,
/// such as Nim, its first example) and the options.
fn start_query(spec: &GameInfo, args: &PlayArgs) -> Result<Query, CommandError> {
    let mut query: Query = Vec::new();
    let example = spec.examples[0];
    if args.position.is_empty() && spec.has_start() {
        query.push(("position".into(), String::new()));
    } else if args.position.is_empty() {
        query.push(("position".into(), example.position.into()));
        for (k, v) in example.params {
            query.push(((*k).into(), (*v).into()));
        }
    } else {
        query.push(("position".into(), args.position.join(" ")));
    }
    let options: [(&str, Option<String>); 13] = [
        ("misere", args.misere.then(|| "true".to_string())),
        ("moves", args.moves.clone()),
        ("pool", args.pool.clone()),
        ("ties_win", args.ties_win.then(|| "true".to_string())),
        ("width", args.width.map(|w| w.to_string())),
        ("height", args.height.map(|h| h.to_string())),
        ("size", args.size.map(|s| s.to_string())),
        ("pieces", args.pieces.map(|p| p.to_string())),
        ("animals", args.animals.clone()),
        ("graph", args.graph.clone()),
        ("m", args.m.map(|m| m.to_string())),
        ("removed", args.removed.map(|r| r.to_string())),
        ("second", args.second.then(|| "true".to_string())),
    ];
    for (name, value) in options {
        let Some(value) = value else { continue };
        if !spec.params.iter().any(|p| p.name == name) {
            return Err(format!("{} takes no --{}", spec.name, name.replace('_', "-")).into());
        }
        query.retain(|(k, _)| k != name);
        query.push((name.into(), value));
    }
    Ok(query)
}

/// Go to the position a move leads to; false when the game ended with it (and say how).
fn follow(
    io: &mut Io<'_>,
    chosen: &Value,
    by_human: bool,
    history: &mut Vec<Query>,
) -> Result<bool, CommandError> {
    let next = chosen["query"].as_object();
    match next {
        Some(next) if !next.get("position").is_some_and(Value::is_null) => {
            let query: Query = next
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or_else(|| v.to_string(), str::to_string),
                    )
                })
                .collect();
            history.push(query);
            Ok(true)
        }
        _ => {
            // The move ends the game where the notation has no position for the end.
            let outcome = chosen["outcome"].as_str().unwrap_or("");
            let text = match (outcome, by_human) {
                ("win", true) | ("loss", false) => "Game over: you win.",
                ("win", false) | ("loss", true) => "Game over: I win.",
                _ => "Game over: a tie.",
            };
            say(io, text)?;
            Ok(false)
        }
    }
}

fn game_over(outcome: &str, human_to_move: bool) -> String {
    match (outcome, human_to_move) {
        ("loss", true) | ("win", false) => "Game over: I win.".into(),
        ("win", true) | ("loss", false) => "Game over: you win.".into(),
        _ => "Game over: a tie.".into(),
    }
}

fn say(io: &mut Io<'_>, text: &str) -> Result<(), CommandError> {
    writeln!(io.stdout, "{text}")
        .and_then(|()| io.stdout.flush())
        .map_err(|e| WriteFailed(e).into())
}

fn list_moves(io: &mut Io<'_>, spec: &GameInfo, moves: &[Value]) -> Result<(), CommandError> {
    let mut text = String::from("Moves, best first (value for you):\n");
    for m in moves {
        text.push_str(&format!(
            "  {:<28} {}\n",
            move_text(spec, &m["move"]),
            reason(m)
        ));
    }
    say(io, text.trim_end())
}

/// "I play take 2 from heap 1: it wins in 11 moves": `who`, the move and why.
fn played(spec: &GameInfo, who: &str, m: &Value) -> String {
    format!("{who} {}: {}", move_text(spec, &m["move"]), reason(m))
}

/// "wins in 3 moves", "loses in 8 moves", "wins" (no remoteness known).
fn reason(m: &Value) -> String {
    let outcome = match m["outcome"].as_str() {
        Some("win") => Outcome::Win,
        Some("loss") => Outcome::Loss,
        Some("tie") => Outcome::Tie,
        _ => Outcome::Draw,
    };
    format!("it {}", verdict_of(outcome, m["remoteness"].as_u64()))
}

/// A move as the moves list shows it.
pub fn move_text(spec: &GameInfo, mv: &Value) -> String {
    match spec.name {
        "nim" | "coins" | "subtraction" | "octal" => {
            let leaves: Vec<String> = mv["leaves"]
                .as_array()
                .map(|a| a.iter().map(|l| l.to_string().replace('"', "")).collect())
                .unwrap_or_default();
            let mut text = format!("take {} from heap {}", plain(&mv["take"]), mv["heap"]);
            if leaves.len() > 1 {
                text.push_str(&format!(" leaving {}", leaves.join(" and ")));
            }
            text
        }
        "sum" => format!("component {}: {}", mv["component"], plain(&mv["move"])),
        _ => plain(mv),
    }
}

/// A JSON value as text, strings without their quotes.
fn plain(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Whether `said` names the move: its text, or the short form (heap and count, with the
/// heaps left for a split; `l`/`r` for Stones).
fn matches(spec: &GameInfo, mv: &Value, said: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let said_words = words(said);
    if said_words == words(&move_text(spec, mv)) {
        return true;
    }
    match spec.name {
        "nim" | "coins" | "subtraction" | "octal" | "sum" => {
            let index = if spec.name == "sum" {
                &mv["component"]
            } else {
                &mv["heap"]
            };
            let mut short = vec![plain(index), plain(&mv["take"])];
            if said_words.len() == 2 {
                return said_words == short;
            }
            let mut leaves: Vec<String> = mv["leaves"]
                .as_array()
                .map(|a| a.iter().map(plain).collect())
                .unwrap_or_default();
            let mut said_leaves = said_words.get(2..).unwrap_or_default().to_vec();
            leaves.sort();
            said_leaves.sort();
            short.extend(said_leaves);
            said_words.len() > 2 && said_words[..2] == short[..2] && short[2..] == leaves[..]
        }
        "stones" => {
            matches!(
                (said_words.as_slice(), mv.as_str()),
                ([w], Some("left")) if w == "l",
            ) || matches!(
                (said_words.as_slice(), mv.as_str()),
                ([w], Some("right")) if w == "r",
            )
        }
        _ => false,
    }
}

/// The position for a person: the notation, drawn where the game is a board.
fn picture(spec: &GameInfo, answer: &Value, query: &Query) -> String {
    let position = answer["position"].as_str().unwrap_or_else(|| {
        query
            .iter()
            .find(|(k, _)| k == "position")
            .map_or("", |(_, v)| v.as_str())
    });
    match spec.view.name() {
        "tic-tac-toe" => {
            let board = answer["position"].as_str().unwrap_or(".........");
            let rows: Vec<String> = board
                .as_bytes()
                .chunks(3)
                .map(|r| format!("  {}", String::from_utf8_lossy(r)))
                .collect();
            format!(
                "\n{}\n({} to move)",
                rows.join("\n"),
                if answer["to_move"] == "second" {
                    "o"
                } else {
                    "x"
                }
            )
        }
        "grid" => {
            // Rows numbered from the bottom and columns lettered, as moves name squares.
            let (marks, rest) = position.split_once(':').unwrap_or((position, "x"));
            let (hand, side) = rest.rsplit_once(':').unwrap_or(("", rest));
            let rows: Vec<&str> = marks.split('/').collect();
            let mut text = String::from("\n");
            for (i, row) in rows.iter().enumerate() {
                text.push_str(&format!("  {} {row}\n", rows.len() - i));
            }
            let width = rows.first().map_or(0, |r| r.chars().count());
            let letters: String = (b'a'..).take(width).map(char::from).collect();
            text.push_str(&format!("    {letters}\n"));
            if !hand.is_empty() {
                text.push_str(&format!("  in hand: {hand}\n"));
            }
            format!("{text}({side} to move)")
        }
        "star" => {
            let (marks, side) = position.split_once(':').unwrap_or((position, "x"));
            format!("\n  points 1-8 and the centre: {marks}\n({side} to move)")
        }
        "pool" => format!(
            "\nTotal to reach: {}; numbers left: {}",
            answer["target"],
            answer["pool"]
                .as_array()
                .map(|a| a.iter().map(plain).collect::<Vec<_>>().join(" "))
                .unwrap_or_default()
        ),
        "connect-four" => format!(
            "\nColumns played: {}",
            if position.is_empty() {
                "none"
            } else {
                position
            }
        ),
        _ => format!("\nPosition: {position}"),
    }
}
