//! Nim: exact search while it fits the budget, Bouton's rule beyond.

use super::{Report, heap_move, join};
use crate::budget::Budget;
use crate::nim::{self, NimAnswer, NimLimits, NimMove};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use crate::{Outcome, parse};
use serde_json::{Map, Value, json};

/// Heap sizes from the position's words.
///
/// # Errors
/// A word that is not a whole number.
pub fn parse_heaps(position: &str) -> Result<Vec<u64>, QueryError> {
    position
        .split_whitespace()
        .map(|h| parse::count(h).map_err(|e| QueryError::BadInput(format!("heap {e}"))))
        .collect()
}

/// The registry's answer: `position` the heaps, `misere` the rule.
///
/// # Errors
/// A heap that is not a whole number.
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let heaps = parse_heaps(position)?;
    Ok(report(&heaps, params.text("misere") == Some("true"), budget).answer)
}

/// Nim on `heaps` under `budget`.
#[must_use]
pub fn report(heaps: &[u64], misere: bool, budget: &Budget) -> Report<NimAnswer> {
    let defaults = NimLimits::default();
    let limits = NimLimits {
        max_work: budget.cap(defaults.max_work, 2_000),
        memory_limit: budget.memory(defaults.memory_limit),
    };
    let mut analysis = nim::analyse(heaps, misere, &limits);
    // Equal heaps give the same positions: each listed once, for the first of them.
    super::distinct(&mut analysis.winning_moves, |m| after(heaps, m));
    super::distinct(&mut analysis.moves, |m| after(heaps, &m.mv));
    if let Some(optimal) = analysis.optimal_moves.as_mut() {
        super::distinct(optimal, |m| after(heaps, m));
    }
    let answer = answer_of(heaps, misere, &analysis);
    Report { analysis, answer }
}

/// A Nim move as JSON: `{"heap": 1-based, "take", "leaves": [what is left of that heap]}`.
fn move_json(heaps: &[u64], mv: &NimMove) -> Value {
    let left = heaps[mv.heap] - mv.take;
    heap_move(mv.heap, mv.take, if left > 0 { vec![left] } else { vec![] })
}

/// The best line with each move's heap numbered as `play` and the API number it there: the
/// first among the heaps as given, the later ones among the heaps left (an emptied heap is
/// gone from the position, so the heaps after it move up).
#[must_use]
pub fn line_as_played(heaps: &[u64], line: &[NimMove]) -> Vec<NimMove> {
    let mut now = heaps.to_vec();
    line.iter()
        .enumerate()
        .map(|(i, m)| {
            let shown = if i == 0 {
                m.heap
            } else {
                now[..m.heap].iter().filter(|&&h| h > 0).count()
            };
            now[m.heap] -= m.take;
            NimMove {
                heap: shown,
                take: m.take,
            }
        })
        .collect()
}

/// The heaps a move leaves, the emptied ones gone (the position's notation).
fn after(heaps: &[u64], mv: &NimMove) -> Vec<u64> {
    let mut after = heaps.to_vec();
    after[mv.heap] -= mv.take;
    after.retain(|&h| h > 0);
    after
}

fn answer_of(heaps: &[u64], misere: bool, a: &NimAnswer) -> Answer {
    let moves_of = |list: &[NimMove]| list.iter().map(|m| move_json(heaps, m)).collect::<Vec<_>>();
    let best_line = a.best_line.as_ref().map(|line| {
        let mut now = heaps.to_vec();
        line.iter()
            .zip(line_as_played(heaps, line))
            .map(|(m, shown)| {
                let left = now[m.heap] - m.take;
                now[m.heap] = left;
                heap_move(
                    shown.heap,
                    m.take,
                    if left > 0 { vec![left] } else { vec![] },
                )
            })
            .collect::<Vec<_>>()
    });
    let moves = a
        .moves
        .iter()
        .map(|m| {
            let left = after(heaps, &m.mv);
            MoveValue {
                mv: move_json(heaps, &m.mv),
                outcome: m.outcome,
                remoteness: m.remoteness,
                ends_game: left.is_empty(),
                position: Some(if left.is_empty() {
                    "0".to_string()
                } else {
                    join(&left)
                }),
                details: Map::new(),
            }
        })
        .collect();
    let mut details = Map::new();
    details.insert("heaps".into(), json!(heaps));
    details.insert("misere".into(), json!(misere));
    details.insert("nim_sum".into(), json!(nim::nim_sum(heaps)));
    details.insert(
        "optimal_moves".into(),
        json!(a.optimal_moves.as_ref().map(|m| moves_of(m))),
    );
    details.insert("positions_searched".into(), json!(a.states));
    let mut answer = Answer {
        game: "nim",
        position: join(heaps),
        to_move: Side::First,
        outcome: a.outcome,
        first_player_wins: a.outcome == Outcome::Win,
        remoteness: a.remoteness,
        moves,
        moves_complete: a.moves_complete,
        winning_moves: moves_of(&a.winning_moves),
        winning_moves_total: json!(a.winning_moves.len()),
        best_line,
        method: super::word(&a.method),
        details,
    };
    answer.sort_moves();
    answer
}
