//! Toads and Frogs: one row of cells; Left's toads (`t`) move right, Right's frogs (`f`)
//! left, each one step into an empty cell (`.`) or a jump over one of the other's pieces
//! into the empty cell beyond; who cannot move loses. Written `ttt..fff`.

use super::PartizanError;
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Toads and Frogs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToadsAndFrogs;

/// The longest row valued.
pub const MAX_CELLS: usize = 256;

/// Read a row.
///
/// # Errors
/// [`PartizanError::Position`] for another character or a row past [`MAX_CELLS`].
pub fn parse(text: &str) -> Result<Vec<u8>, PartizanError> {
    let text = text.trim();
    if text.len() > MAX_CELLS {
        return Err(PartizanError::Position(format!(
            "a Toads and Frogs row of {} cells: at most {MAX_CELLS} are valued",
            text.len()
        )));
    }
    text.chars()
        .enumerate()
        .map(|(i, c)| match c {
            't' | 'f' | '.' => Ok(c as u8),
            _ => Err(PartizanError::Position(format!(
                "a Toads and Frogs row: {c:?} at cell {}: the cells are 't' (toad), 'f' (frog) and '.'",
                i + 1
            ))),
        })
        .collect()
}

impl PartizanRules for ToadsAndFrogs {
    type Position = Vec<u8>;

    fn options(&self, row: &Vec<u8>, side: Side) -> Vec<Vec<u8>> {
        let (mine, theirs, step): (u8, u8, isize) = match side {
            Side::Left => (b't', b'f', 1),
            Side::Right => (b'f', b't', -1),
        };
        let cell = |i: usize, k: isize| -> Option<usize> {
            i.checked_add_signed(k).filter(|&j| j < row.len())
        };
        let mut options = Vec::new();
        for i in (0..row.len()).filter(|&i| row[i] == mine) {
            let to = match cell(i, step) {
                Some(j) if row[j] == b'.' => Some(j),
                Some(j) if row[j] == theirs => cell(i, 2 * step).filter(|&k| row[k] == b'.'),
                _ => None,
            };
            if let Some(to) = to {
                let mut next = row.clone();
                next[i] = b'.';
                next[to] = mine;
                options.push(next);
            }
        }
        options
    }

    /// Frogs at the left end and toads at the right end never move again, and nothing
    /// jumps them: trimmed off (the rest of the row is one region).
    fn components(&self, row: &Vec<u8>) -> Vec<Vec<u8>> {
        let mut start = 0;
        // Frogs at the left end with nothing but frogs before them never move again.
        while start < row.len() && row[start] == b'f' {
            start += 1;
        }
        let mut end = row.len();
        // Toads at the right end likewise.
        while end > start && row[end - 1] == b't' {
            end -= 1;
        }
        vec![row[start..end].to_vec()]
    }
}
