//! `perfect-play nim`: exact search while it fits, Bouton's rule beyond (the library chooses).

use super::{Budget, CommandError};
use crate::args::NimArgs;
use crate::output::{self, Output};
use perfect_play::nim::{self, NimAnswer, NimLimits, NimMethod, NimMove};
use perfect_play::parse;
use serde_json::json;

pub fn run(args: &NimArgs, budget: Budget) -> Result<Output, CommandError> {
    let heaps = parse_heaps(&args.heaps)?;
    Ok(solve(&heaps, args.misere, budget))
}

/// Heap sizes from the arguments; each may hold several sizes, and `""` none.
fn parse_heaps(args: &[String]) -> Result<Vec<u64>, CommandError> {
    args.iter()
        .flat_map(|a| a.split_whitespace())
        .map(|h| parse::count(h).map_err(|e| format!("heap {e}").into()))
        .collect()
}

/// Solve Nim on `heaps`; used by the tour too.
pub fn solve(heaps: &[u64], misere: bool, budget: Budget) -> Output {
    let defaults = NimLimits::default();
    let limits = NimLimits {
        max_work: budget.cap(defaults.max_work, 2_000),
        memory_limit: budget.memory(defaults.memory_limit),
    };
    let answer = nim::analyse(heaps, misere, &limits);
    let rule = if misere { "misère" } else { "normal" };
    let sum = nim::nim_sum(heaps);
    let mut text = format!(
        "Nim ({rule} play) with heaps {}: nim-sum {sum}.\n",
        if heaps.is_empty() {
            "none".to_string()
        } else {
            output::list(heaps)
        }
    );
    text.push_str(&format!(
        "The player to move {}",
        output::verdict_of(answer.outcome, answer.remoteness)
    ));
    if answer.method == NimMethod::BoutonRule {
        text.push_str(" (Bouton's rule: too many positions to search every line)");
    }
    text.push_str(".\n");
    text.push_str(&describe_moves(heaps, &answer));
    Output {
        text,
        json: answer_json(heaps, misere, sum, &answer),
    }
}

fn describe_moves(heaps: &[u64], a: &NimAnswer) -> String {
    let mut text = String::new();
    if heaps.iter().all(|&h| h == 0) {
        return text;
    }
    if a.winning_moves.is_empty() {
        text.push_str("Every move leaves the opponent a winning position.\n");
    } else {
        text.push_str(&format!(
            "Winning moves: {}.\n",
            output::list(&a.winning_moves)
        ));
    }
    if a.moves_complete {
        text.push_str("Every move (value for the player who makes it):\n");
        for m in &a.moves {
            text.push_str(&format!(
                "  {:<24} {}\n",
                m.mv.to_string(),
                output::verdict_of(m.outcome, m.remoteness)
            ));
        }
    }
    if let Some(line) = &a.best_line {
        text.push_str(&format!(
            "Best line: {}\n",
            output::list(&line_as_played(heaps, line))
        ));
    }
    text
}

/// A Nim move as JSON: `{"heap": 1-based, "take", "leaves": [what is left of that heap]}`.
fn move_json(heaps: &[u64], mv: &NimMove) -> serde_json::Value {
    let left = heaps[mv.heap] - mv.take;
    output::heap_move(mv.heap, mv.take, if left > 0 { vec![left] } else { vec![] })
}

/// The best line with each move's heap numbered as `play` and the API number it there: the
/// first among the heaps as given, the later ones among the heaps left (an emptied heap is
/// gone from the position, so the heaps after it move up).
fn line_as_played(heaps: &[u64], line: &[NimMove]) -> Vec<NimMove> {
    let mut now = heaps.to_vec();
    line.iter()
        .enumerate()
        .map(|(i, m)| {
            let shown = if i == 0 {
                m.heap
            } else {
                now[..m.heap].iter().filter(|&&h| h > 0).count()
            };
            let left = now[m.heap] - m.take;
            now[m.heap] = left;
            NimMove {
                heap: shown,
                take: m.take,
            }
        })
        .collect()
}

fn answer_json(heaps: &[u64], misere: bool, sum: u64, a: &NimAnswer) -> serde_json::Value {
    let moves = |list: &[NimMove]| list.iter().map(|m| move_json(heaps, m)).collect::<Vec<_>>();
    let best_line = a.best_line.as_ref().map(|line| {
        let mut now = heaps.to_vec();
        line.iter()
            .zip(line_as_played(heaps, line))
            .map(|(m, shown)| {
                let left = now[m.heap] - m.take;
                now[m.heap] = left;
                output::heap_move(
                    shown.heap,
                    m.take,
                    if left > 0 { vec![left] } else { vec![] },
                )
            })
            .collect::<Vec<_>>()
    });
    json!({
        "game": "nim",
        "heaps": heaps,
        "misere": misere,
        "nim_sum": sum,
        "outcome": a.outcome,
        "first_player_wins": a.outcome == perfect_play::Outcome::Win,
        "remoteness": a.remoteness,
        "moves": a.moves.iter().map(|m| json!({
            "move": move_json(heaps, &m.mv),
            "outcome": m.outcome,
            "remoteness": m.remoteness,
        })).collect::<Vec<_>>(),
        "moves_complete": a.moves_complete,
        "winning_moves": moves(&a.winning_moves),
        "winning_moves_total": a.winning_moves.len(),
        "optimal_moves": a.optimal_moves.as_ref().map(|m| moves(m)),
        "best_line": best_line,
        "states": a.states,
        "method": a.method,
    })
}
