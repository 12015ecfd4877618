//! Reading a solved table: a position's value, every move's value, and a best line.

use super::passes::{ending_record, for_mover};
use super::{IndexedGame, Record, Solution, table_index};
use crate::game::Transition;
use crate::player::Outcome;

/// A move and what it is worth to the player who makes it (remoteness counted from before
/// the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord<M> {
    /// The move.
    pub mv: M,
    /// Its value for the mover.
    pub record: Record,
}

/// A position read from a solved table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAnalysis<M> {
    /// The position's value for the player to move.
    pub record: Record,
    /// Every legal move, best first (fastest win, then ties, draws, slowest loss); equal
    /// moves in the game's order.
    pub moves: Vec<MoveRecord<M>>,
    /// A line of best moves to the end of the game (for a draw, the first
    /// [`DRAW_LINE_MOVES`] moves of endless play).
    pub best_line: Vec<M>,
}

/// Moves shown of a drawn line, which never ends.
pub const DRAW_LINE_MOVES: usize = 40;

/// What each move from `position` is worth to the mover, in the game's move order; `None` if
/// the position or a move leaves the table.
pub fn move_records<G: IndexedGame>(
    game: &G,
    solution: &Solution,
    position: &G::Position,
) -> Option<Vec<MoveRecord<G::Move>>> {
    move_records_by(game, &mut |i| solution.record(i), position)
}

/// [`move_records`], reading records through `lookup` (a [`Solution`] or a
/// [`Database`](super::Database)).
pub fn move_records_by<G: IndexedGame>(
    game: &G,
    lookup: &mut dyn FnMut(u64) -> Option<Record>,
    position: &G::Position,
) -> Option<Vec<MoveRecord<G::Move>>> {
    game.moves(position)
        .into_iter()
        .map(|mv| {
            let record = match game.play(position, &mv) {
                Transition::End(ending) => ending_move_value(ending)?,
                Transition::Continue { position: next, .. } => {
                    move_value(lookup(table_index(game, &next))?)?
                }
            };
            Some(MoveRecord { mv, record })
        })
        .collect()
}

/// What a move is worth to its maker, given the record of the position it leads to (for the
/// opponent): the outcome turned round, one ply further. `None` for an open record.
#[must_use]
pub fn move_value(after: Record) -> Option<Record> {
    with_one_more_ply(for_mover(after))
}

/// What a move that ends the game with `ending` (for its maker) is worth to its maker.
#[must_use]
pub fn ending_move_value(ending: crate::game::Ending) -> Option<Record> {
    with_one_more_ply(ending_record(ending))
}

fn with_one_more_ply(seen: Record) -> Option<Record> {
    match (seen.outcome()?, seen.remoteness()) {
        (Outcome::Draw, _) => Some(Record::DRAW),
        (outcome, Some(r)) => Record::new(outcome, r + 1),
        (_, None) => None,
    }
}

/// The value of `position`, its moves best first and a best line; `None` when the position
/// is not in the table (a hole, or a table for another game).
pub fn analyse<G: IndexedGame>(
    game: &G,
    solution: &Solution,
    position: &G::Position,
) -> Option<TableAnalysis<G::Move>> {
    analyse_by(game, &mut |i| solution.record(i), position)
}

/// [`analyse`], reading records through `lookup`.
pub fn analyse_by<G: IndexedGame>(
    game: &G,
    lookup: &mut dyn FnMut(u64) -> Option<Record>,
    position: &G::Position,
) -> Option<TableAnalysis<G::Move>> {
    let record = lookup(table_index(game, position))?;
    record.outcome()?;
    let mut moves = move_records_by(game, lookup, position)?;
    moves.sort_by(|a, b| b.record.preference(a.record));
    let mut best_line = Vec::new();
    let mut here = position.clone();
    let limit = record.remoteness().map_or(DRAW_LINE_MOVES, |r| r as usize);
    while best_line.len() < limit {
        let mut options = move_records_by(game, lookup, &here)?;
        options.sort_by(|a, b| b.record.preference(a.record));
        let Some(best) = options.into_iter().next() else {
            break;
        };
        best_line.push(best.mv.clone());
        match game.play(&here, &best.mv) {
            Transition::End(_) => break,
            Transition::Continue { position: next, .. } => here = next,
        }
    }
    Some(TableAnalysis {
        record,
        moves,
        best_line,
    })
}
