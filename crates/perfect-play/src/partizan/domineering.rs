//! Domineering: Left places a domino on two empty cells one above the other, Right on two
//! side by side; who cannot place one loses. Written `..#.|....` (`.` empty, `#` covered or
//! off the board).

use super::PartizanError;
use super::grid::Grid;
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Domineering.
#[derive(Clone, Copy, Debug, Default)]
pub struct Domineering;

/// Read a Domineering position.
///
/// # Errors
/// [`PartizanError::Position`].
pub fn parse(text: &str) -> Result<Grid, PartizanError> {
    Grid::parse(text, ".#", "Domineering")
}

/// The empty `rows` x `columns` board.
#[must_use]
pub fn empty(rows: usize, columns: usize) -> Grid {
    Grid {
        width: columns,
        height: rows,
        cells: vec![b'.'; rows * columns],
    }
}

impl PartizanRules for Domineering {
    type Position = Grid;

    fn options(&self, grid: &Grid, side: Side) -> Vec<Grid> {
        let (dr, dc) = match side {
            Side::Left => (1, 0),
            Side::Right => (0, 1),
        };
        let mut options = Vec::new();
        for r in 0..grid.height {
            for c in 0..grid.width {
                if grid.at(r, c) != b'.' {
                    continue;
                }
                if let Some((r2, c2)) = grid.step(r, c, dr, dc)
                    && grid.at(r2, c2) == b'.'
                {
                    let mut next = grid.clone();
                    next.set(r, c, b'#');
                    next.set(r2, c2, b'#');
                    options.push(next);
                }
            }
        }
        options
    }

    /// The groups of empty cells joined side by side; a lone cell is worth 0.
    fn components(&self, grid: &Grid) -> Vec<Grid> {
        grid.regions(|c| c == b'.', |g| g.cells.len() > 1, b'#', false)
    }
}
