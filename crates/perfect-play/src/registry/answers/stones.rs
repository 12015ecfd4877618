//! The Stone Game (coins in a row): take the pile at either end; the larger total wins.

use super::{Report, int_json, join};
use crate::Outcome;
use crate::budget::Budget;
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use crate::take_ends::{self, Analysis, End, Options};
use serde_json::{Map, Value, json};

/// Piles from text: whitespace- or comma-separated integers.
///
/// # Errors
/// A word that is not an integer of 64 bits.
pub fn parse_row(text: &str) -> Result<Vec<i64>, QueryError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>().map_err(|e| {
                QueryError::BadInput(match e.kind() {
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                        format!(
                            "pile {} does not fit in a 64-bit integer",
                            crate::parse::shorten(t)
                        )
                    }
                    _ => format!("pile {:?} is not a whole number", crate::parse::shorten(t)),
                })
            })
        })
        .collect()
}

/// What to compute besides the value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked {
    /// A tie counts as a win for the player to move.
    pub ties_win: bool,
    /// The whole optimal line.
    pub line: bool,
    /// The margin of every interval.
    pub table: bool,
    /// The most piles (None: the default).
    pub max_piles: Option<usize>,
}

/// The registry's answer: `position` the row, `ties_win`, `line`, `table`.
///
/// # Errors
/// A pile not accepted, or a row over the budget.
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let on = |name| params.text(name) == Some("true");
    let asked = Asked {
        ties_win: on("ties_win"),
        line: on("line"),
        table: on("table"),
        max_piles: None,
    };
    Ok(report(&parse_row(position)?, asked, budget)?.answer)
}

/// The Stone Game on `row` under `budget`.
///
/// # Errors
/// A row over the budget or the limits.
pub fn report(row: &[i64], asked: Asked, budget: &Budget) -> Result<Report<Analysis>, QueryError> {
    budget.check_time(
        || format!("the Stone Game over {} piles", row.len()),
        take_ends::margin_seconds(row),
    )?;
    budget.admit(take_ends::margin_seconds(row))?;
    let defaults = Options::default();
    let options = Options {
        ties_win: asked.ties_win,
        line: asked.line,
        memory_limit: budget.memory(defaults.memory_limit),
        max_piles: budget.cap(asked.max_piles.unwrap_or(defaults.max_piles), 300),
        cancel: budget.cancel.clone(),
    };
    let a = take_ends::analyse(row, &options)?;
    let mut answer = answer_of(row, &a, asked.ties_win);
    if asked.table {
        let table = take_ends::margin_table(row).map_err(QueryError::bad)?;
        answer.details.insert(
            "table".into(),
            json!(
                table
                    .iter()
                    .map(|r| r.iter().map(|m| m.map_or(Value::Null, int_json)).collect())
                    .collect::<Vec<Vec<Value>>>()
            ),
        );
    }
    Ok(Report {
        analysis: a,
        answer,
    })
}

fn answer_of(row: &[i64], a: &Analysis, ties_win: bool) -> Answer {
    let outcome_of = |margin: i128| match margin.signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ if ties_win => Outcome::Win,
        _ => Outcome::Tie,
    };
    let n = row.len();
    let moves = a
        .moves
        .iter()
        .map(|&(end, margin)| {
            let rest = match end {
                End::Left => &row[1..],
                End::Right => &row[..n - 1],
            };
            let mut details = Map::new();
            details.insert("margin".into(), int_json(margin));
            MoveValue {
                mv: json!(end),
                outcome: outcome_of(margin),
                remoteness: Some(n as u64),
                ends_game: rest.is_empty(),
                position: (!rest.is_empty()).then(|| join(rest)),
                details,
            }
        })
        .collect();
    let winning: Vec<Value> = if a.first_player_wins {
        a.optimal_moves.iter().map(|e| json!(e)).collect()
    } else {
        Vec::new()
    };
    let mut details = Map::new();
    details.insert("piles".into(), json!(row));
    details.insert("pile_count".into(), json!(n));
    details.insert("margin".into(), int_json(a.margin));
    details.insert("first_total".into(), int_json(a.first_total));
    details.insert("second_total".into(), int_json(a.second_total));
    details.insert("optimal_moves".into(), json!(a.optimal_moves));
    details.insert("ties_win".into(), json!(ties_win));
    let mut answer = Answer {
        game: "stones",
        position: join(row),
        to_move: Side::First,
        outcome: a.outcome,
        first_player_wins: a.first_player_wins,
        remoteness: Some(n as u64),
        moves,
        moves_complete: true,
        winning_moves_total: json!(winning.len()),
        winning_moves: winning,
        best_line: a
            .best_line
            .as_ref()
            .map(|line| line.iter().map(|e| json!(e)).collect()),
        method: "interval-dp".into(),
        details,
    };
    answer.sort_moves();
    answer
}
