//! Konane: a player's stone jumps over a side-by-side stone of the other's into the empty
//! cell beyond, removing it, and may go on jumping in the same direction; who cannot move
//! loses. Written as Clobber is (`x` Left, `o` Right, `.` empty).

use super::PartizanError;
use super::clobber::stones;
use super::grid::{BESIDE, Grid};
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Konane.
#[derive(Clone, Copy, Debug, Default)]
pub struct Konane;

/// Read a Konane position.
///
/// # Errors
/// [`PartizanError::Position`].
pub fn parse(text: &str) -> Result<Grid, PartizanError> {
    Grid::parse(text, "xo.", "Konane")
}

impl PartizanRules for Konane {
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
                    // Each landing cell of a run of jumps is a move of its own.
                    let mut next = grid.clone();
                    let (mut at_r, mut at_c) = (r, c);
                    while let Some((over_r, over_c)) = grid.step(at_r, at_c, dr, dc) {
                        let Some((land_r, land_c)) = grid.step(over_r, over_c, dr, dc) else {
                            break;
                        };
                        if next.at(over_r, over_c) != theirs || next.at(land_r, land_c) != b'.' {
                            break;
                        }
                        next.set(at_r, at_c, b'.');
                        next.set(over_r, over_c, b'.');
                        next.set(land_r, land_c, mine);
                        options.push(next.clone());
                        (at_r, at_c) = (land_r, land_c);
                    }
                }
            }
        }
        options
    }

    /// Every symmetry of the square keeps each player's moves (they go every way alike).
    fn symmetric(&self, grid: &Grid) -> (Grid, bool) {
        (grid.least_image(), false)
    }
}
