//! What the commands and the explorer share about databases: the one `database` object of
//! every answer read from or written to one, and a position read from an open database. It
//! sits below both, so that neither imports the other for it.

use perfect_play::engine::Database;
use perfect_play::registry::{EngineGame, PositionAnswer};
use serde_json::json;

/// Any failure reading a database, printed as one line.
type ViewError = Box<dyn std::error::Error>;

/// `position` (the start when none) read from an open database: one block per record needed.
pub(crate) fn read_database(
    game: &dyn EngineGame,
    db: &mut Database,
    position: Option<&str>,
) -> Result<PositionAnswer, ViewError> {
    let mut failure = None;
    let read = game.answer(position, &mut |i| {
        db.record(i).map_err(|e| failure = Some(e)).ok()
    });
    if let Some(e) = failure {
        return Err(e.into());
    }
    Ok(read.map_err(|e| match e {
        perfect_play::registry::AnswerError::NotInTable => {
            "the position is not in the database (a position no game reaches)".to_string()
        }
        other => other.to_string(),
    })?)
}

/// The one `database` object of every answer read from or written to a database: where the
/// table is, its size on disk, and how this run used it.
pub(crate) fn database_json(
    path: &std::path::Path,
    bytes: u64,
    positions_in_table: u64,
    loaded: bool,
    resumed: bool,
    already_solved: u64,
) -> serde_json::Value {
    let bits = if positions_in_table == 0 {
        0.0
    } else {
        bytes as f64 * 8.0 / positions_in_table as f64
    };
    json!({
        "path": path.display().to_string(),
        "bytes": bytes,
        "bits_per_position": bits,
        "loaded": loaded,
        "resumed": resumed,
        "already_solved": already_solved,
    })
}
