//! The answer of each family that is not an engine game, from its position notation and
//! parameters under a budget: one module per game, each returning the family's own analysis
//! (for a front end's text) with the one [`Answer`] every front end shows.

pub mod can_i_win;
pub mod connect_four;
pub mod connect_four_book;
pub mod engine;
pub mod nim;
pub mod octal;
pub mod partizan;
pub mod partizan_sum;
pub mod puzzles;
pub mod stones;
pub mod subtraction;
pub mod sum;
pub mod tic_tac_toe;

use super::Answer;
use num_bigint::BigUint;
use serde_json::{Value, json};

/// A family's own analysis, and the answer built from it.
#[derive(Clone, Debug)]
pub struct Report<A> {
    /// What the family's solver found, for a front end's own wording.
    pub analysis: A,
    /// The answer every front end shows.
    pub answer: Answer,
}

/// A heap of any size as JSON: a number while it fits in 64 bits, a decimal string beyond.
#[must_use]
pub fn big_json(n: &BigUint) -> Value {
    u64::try_from(n).map_or_else(|_| json!(n.to_string()), |v| json!(v))
}

/// A wide integer as JSON: a number while it fits in 64 bits, a decimal string beyond.
#[must_use]
pub fn int_json(v: i128) -> Value {
    i64::try_from(v).map_or_else(|_| json!(v.to_string()), |v| json!(v))
}

/// A move in a heap game, the one shape every heap family uses: from heap `heap` (0-based,
/// shown 1-based) take `take`, leaving `leaves` (the non-empty heaps left in its place).
pub fn heap_move<T: serde::Serialize>(heap: usize, take: u64, leaves: Vec<T>) -> Value {
    json!({"heap": heap + 1, "take": take, "leaves": leaves})
}

/// The name a value serialises to (`bit-table`, `grundy-sum`): an answer's `method`.
fn word<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// A space-separated list: positions of heaps and piles in the notation the families take.
pub fn join<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The heaps after a heap move: heap `index` (0-based) replaced by `leaves`.
fn after_heap_move<T: Clone>(heaps: &[T], index: usize, leaves: &[T]) -> Vec<T> {
    let mut after = Vec::with_capacity(heaps.len() + leaves.len());
    for (i, h) in heaps.iter().enumerate() {
        if i == index {
            after.extend(leaves.iter().cloned());
        } else {
            after.push(h.clone());
        }
    }
    after
}

/// The most moves an answer lists when a heap game has more (the winning moves are always
/// listed; `moves_complete` says false).
pub const MAX_LISTED_MOVES: usize = 2_000;

/// The answer of an engine game's position read from a table (a database's, or a solve's):
/// the engine's answer, with Connect Four's board fields (its size and the columns played).
///
/// # Errors
/// Connect Four moves that do not parse.
pub fn from_table(
    read: &super::PositionAnswer,
    position: &str,
    params: &[(&'static str, String)],
    database: Option<Value>,
) -> Result<Answer, super::QueryError> {
    let mut answer = engine::answer_of(read, database);
    if read.game == "connect-four" {
        let size = |name: &str| {
            params
                .iter()
                .find(|(k, _)| *k == name)
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(4)
        };
        let board = crate::games::connect_four::ConnectFour::new(size("width"), size("height"))
            .map_err(super::QueryError::bad)?;
        connect_four::add_board(&mut answer, &board, position)?;
    }
    Ok(answer)
}

/// The moves with the first kept of those that lead to the same position: equal heaps give
/// the same positions, and a move is one distinct resulting position. `after` gives the heaps
/// a move leaves (in any order).
fn distinct<M, H: Ord>(moves: &mut Vec<M>, after: impl Fn(&M) -> Vec<H>) {
    let mut seen = std::collections::BTreeSet::new();
    moves.retain(|m| {
        let mut heaps = after(m);
        heaps.sort();
        seen.insert(heaps)
    });
}
