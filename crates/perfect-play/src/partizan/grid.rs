//! Rectangular boards written as CGSuite writes them: rows joined by `|`, one character a
//! cell (`..#.|x.o.`). Shared by the board games, with the split of a board into its
//! independent regions.

use super::PartizanError;

/// The most cells a board may have: the values of boards far smaller are already out of
/// reach, and the limit keeps a position's key small.
pub const MAX_CELLS: usize = 256;

/// A board: `height` rows of `width` cells, each a byte of the game's alphabet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    /// Cells in a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells, row by row.
    pub cells: Vec<u8>,
}

impl Grid {
    /// Read `text` (rows joined by `|`), each cell one of `alphabet`.
    ///
    /// # Errors
    /// [`PartizanError::Position`] naming the first wrong character, uneven rows, or a
    /// board past [`MAX_CELLS`].
    pub fn parse(text: &str, alphabet: &str, game: &str) -> Result<Grid, PartizanError> {
        let bad = |why: String| PartizanError::Position(format!("a {game} position: {why}"));
        let text = text.trim();
        if text.is_empty() {
            return Err(bad(String::from(
                "empty: write rows joined by '|', e.g. ..|..",
            )));
        }
        if text.len() > MAX_CELLS * 2 {
            return Err(bad(format!("longer than a board of {MAX_CELLS} cells")));
        }
        let rows: Vec<&str> = text.split('|').collect();
        let width = rows[0].chars().count();
        let mut cells = Vec::with_capacity(text.len());
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(bad(format!(
                    "row {} has {} cells and row 1 has {width}: rows must be even",
                    r + 1,
                    row.chars().count()
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                if !alphabet.contains(ch) || !ch.is_ascii() {
                    return Err(bad(format!(
                        "{ch:?} in row {}, column {}: the cells are {}",
                        r + 1,
                        c + 1,
                        alphabet
                            .chars()
                            .map(|a| format!("'{a}'"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                cells.push(ch as u8);
            }
        }
        if width == 0 {
            return Err(bad(String::from("rows without cells")));
        }
        if cells.len() > MAX_CELLS {
            return Err(bad(format!(
                "{} cells: at most {MAX_CELLS} are valued",
                cells.len()
            )));
        }
        Ok(Grid {
            width,
            height: rows.len(),
            cells,
        })
    }

    /// The cell at row `r`, column `c`.
    #[must_use]
    pub fn at(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.width + c]
    }

    /// Set the cell at row `r`, column `c`.
    pub fn set(&mut self, r: usize, c: usize, cell: u8) {
        self.cells[r * self.width + c] = cell;
    }

    /// The cell one step from (`r`, `c`) in direction (`dr`, `dc`), if on the board.
    #[must_use]
    pub fn step(&self, r: usize, c: usize, dr: isize, dc: isize) -> Option<(usize, usize)> {
        let r = r.checked_add_signed(dr)?;
        let c = c.checked_add_signed(dc)?;
        (r < self.height && c < self.width).then_some((r, c))
    }

    /// The board's independent regions: the groups of cells joined side by side (and corner
    /// to corner when `corners`) through cells where `joins` holds, each cut to its bounding
    /// box, every other cell `blank`. Regions where `matters` fails are left out (worth 0).
    #[must_use]
    pub fn regions(
        &self,
        joins: impl Fn(u8) -> bool,
        matters: impl Fn(&Grid) -> bool,
        blank: u8,
        corners: bool,
    ) -> Vec<Grid> {
        let steps: &[(isize, isize)] = if corners {
            &[
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ]
        } else {
            &[(-1, 0), (1, 0), (0, -1), (0, 1)]
        };
        let mut seen = vec![false; self.cells.len()];
        let mut regions = Vec::new();
        for start in 0..self.cells.len() {
            if seen[start] || !joins(self.cells[start]) {
                continue;
            }
            let mut stack = vec![start];
            seen[start] = true;
            let mut members = Vec::new();
            while let Some(at) = stack.pop() {
                members.push(at);
                let (r, c) = (at / self.width, at % self.width);
                for &(dr, dc) in steps {
                    if let Some((nr, nc)) = self.step(r, c, dr, dc) {
                        let next = nr * self.width + nc;
                        if !seen[next] && joins(self.cells[next]) {
                            seen[next] = true;
                            stack.push(next);
                        }
                    }
                }
            }
            let rows = members.iter().map(|&m| m / self.width);
            let cols = members.iter().map(|&m| m % self.width);
            let (r0, r1) = (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0));
            let (c0, c1) = (cols.clone().min().unwrap_or(0), cols.max().unwrap_or(0));
            let mut region = Grid {
                width: c1 - c0 + 1,
                height: r1 - r0 + 1,
                cells: vec![blank; (c1 - c0 + 1) * (r1 - r0 + 1)],
            };
            for &m in &members {
                region.set(m / self.width - r0, m % self.width - c0, self.cells[m]);
            }
            if matters(&region) {
                regions.push(region);
            }
        }
        regions.sort();
        regions
    }
}

impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in 0..self.height {
            if r > 0 {
                write!(f, "|")?;
            }
            let row = &self.cells[r * self.width..(r + 1) * self.width];
            write!(f, "{}", String::from_utf8_lossy(row))?;
        }
        Ok(())
    }
}
