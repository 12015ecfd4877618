//! Amazons: a player moves one of their amazons like a chess queen over empty cells, then
//! shoots an arrow from where it lands, again like a queen, burning the cell it lands on;
//! who cannot move loses. Written `x..#|o...` (`x` Left's amazons, `o` Right's, `#` burnt,
//! `.` empty).

use super::PartizanError;
use super::clobber::stones;
use super::grid::{AROUND, Grid};
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Amazons.
#[derive(Clone, Copy, Debug, Default)]
pub struct Amazons;

/// Read an Amazons position.
///
/// # Errors
/// [`PartizanError::Position`].
pub fn parse(text: &str) -> Result<Grid, PartizanError> {
    Grid::parse(text, "xo#.", "Amazons")
}

/// The empty cells a queen at (`r`, `c`) reaches.
fn reach(grid: &Grid, r: usize, c: usize) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    for (dr, dc) in AROUND {
        let (mut at_r, mut at_c) = (r, c);
        while let Some((nr, nc)) = grid.step(at_r, at_c, dr, dc) {
            if grid.at(nr, nc) != b'.' {
                break;
            }
            cells.push((nr, nc));
            (at_r, at_c) = (nr, nc);
        }
    }
    cells
}

impl PartizanRules for Amazons {
    type Position = Grid;

    fn options(&self, grid: &Grid, side: Side) -> Vec<Grid> {
        let (mine, _) = stones(side);
        let mut options = Vec::new();
        for r in 0..grid.height {
            for c in 0..grid.width {
                if grid.at(r, c) != mine {
                    continue;
                }
                for (tr, tc) in reach(grid, r, c) {
                    let mut moved = grid.clone();
                    moved.set(r, c, b'.');
                    moved.set(tr, tc, mine);
                    for (ar, ac) in reach(&moved, tr, tc) {
                        let mut shot = moved.clone();
                        shot.set(ar, ac, b'#');
                        options.push(shot);
                    }
                }
            }
        }
        options
    }

    /// The groups of cells not burnt joined side by side or corner to corner (every step
    /// of a queen's line is one of those); a group without an amazon is worth 0.
    fn components(&self, grid: &Grid) -> Vec<Grid> {
        grid.regions(
            |c| c != b'#',
            |g| g.cells.iter().any(|&c| c == b'x' || c == b'o'),
            b'#',
            true,
        )
    }

    /// Every symmetry of the square keeps each player's moves (they go every way alike).
    fn symmetric(&self, grid: &Grid) -> (Grid, bool) {
        (grid.least_image(), false)
    }
}
