//! Clobber: a player moves one of their stones onto a side-by-side stone of the other's,
//! which is removed; who cannot move loses. Written `xo.|ox.` (`x` Left's stones, `o`
//! Right's, `.` empty).

use super::PartizanError;
use super::grid::{BESIDE, Grid};
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Clobber.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clobber;

/// Read a Clobber position.
///
/// # Errors
/// [`PartizanError::Position`].
pub fn parse(text: &str) -> Result<Grid, PartizanError> {
    Grid::parse(text, "xo.", "Clobber")
}

/// A side's stone and the other's.
pub(super) fn stones(side: Side) -> (u8, u8) {
    match side {
        Side::Left => (b'x', b'o'),
        Side::Right => (b'o', b'x'),
    }
}

impl PartizanRules for Clobber {
    type Position = Grid;

    fn options(&self, grid: &Grid, side: Side) -> Vec<Grid> {
        let (mine, theirs) = stones(side);
        let mut options = Vec::new();
        for r in 0..grid.height {
            for c in 0..grid.width {
                if grid.at(r, c) != mine {
                    continue;
                }
                for (dr, dc) in BESIDE {
                    if let Some((r2, c2)) = grid.step(r, c, dr, dc)
                        && grid.at(r2, c2) == theirs
                    {
                        let mut next = grid.clone();
                        next.set(r, c, b'.');
                        next.set(r2, c2, mine);
                        options.push(next);
                    }
                }
            }
        }
        options
    }

    /// The groups of stones joined side by side; a group of one colour is worth 0.
    fn components(&self, grid: &Grid) -> Vec<Grid> {
        grid.regions(
            |c| c != b'.',
            |g| g.cells.contains(&b'x') && g.cells.contains(&b'o'),
            b'.',
            false,
        )
    }

    /// Every symmetry of the square keeps each player's moves (they go every way alike).
    fn symmetric(&self, grid: &Grid) -> (Grid, bool) {
        (grid.least_image(), false)
    }
}
