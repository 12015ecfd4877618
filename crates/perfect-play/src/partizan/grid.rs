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

/// The eight steps to the cells around one (a king's, and the directions of a queen's lines).
pub const AROUND: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The four steps to the cells side by side with one.
pub const BESIDE: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

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
        let steps: &[(isize, isize)] = if corners { &AROUND } else { &BESIDE };
        // Boards hold at most MAX_CELLS cells: the search's marks and stack fit on the stack.
        let mut seen = [false; MAX_CELLS];
        let mut stack = [0u16; MAX_CELLS];
        let mut members = [0u16; MAX_CELLS];
        let mut regions = Vec::new();
        for start in 0..self.cells.len() {
            if seen[start] || !joins(self.cells[start]) {
                continue;
            }
            seen[start] = true;
            let (mut pending, mut count) = (1, 0);
            stack[0] = start as u16;
            let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
            while pending > 0 {
                pending -= 1;
                let at = usize::from(stack[pending]);
                members[count] = at as u16;
                count += 1;
                let (r, c) = (at / self.width, at % self.width);
                (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
                for &(dr, dc) in steps {
                    if let Some((nr, nc)) = self.step(r, c, dr, dc) {
                        let next = nr * self.width + nc;
                        if !seen[next] && joins(self.cells[next]) {
                            seen[next] = true;
                            stack[pending] = next as u16;
                            pending += 1;
                        }
                    }
                }
            }
            let mut region = Grid {
                width: c1 - c0 + 1,
                height: r1 - r0 + 1,
                cells: vec![blank; (c1 - c0 + 1) * (r1 - r0 + 1)],
            };
            for &m in &members[..count] {
                let m = usize::from(m);
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

impl Grid {
    /// The board seen through one of the square's eight symmetries: `transpose` swaps rows
    /// and columns first, then the rows and the columns are reversed as asked.
    #[must_use]
    pub fn transformed(&self, transpose: bool, flip_rows: bool, flip_columns: bool) -> Grid {
        let (height, width) = if transpose {
            (self.width, self.height)
        } else {
            (self.height, self.width)
        };
        let mut cells = Vec::with_capacity(self.cells.len());
        for r in 0..height {
            for c in 0..width {
                let (r, c) = (
                    if flip_rows { height - 1 - r } else { r },
                    if flip_columns { width - 1 - c } else { c },
                );
                cells.push(if transpose {
                    self.at(c, r)
                } else {
                    self.at(r, c)
                });
            }
        }
        Grid {
            width,
            height,
            cells,
        }
    }

    /// The least of the board's images under the square's eight symmetries.
    #[must_use]
    pub fn least_image(&self) -> Grid {
        let mut best = self.clone();
        for transpose in [false, true] {
            for flip_rows in [false, true] {
                for flip_columns in [false, true] {
                    let image = self.transformed(transpose, flip_rows, flip_columns);
                    if image < best {
                        best = image;
                    }
                }
            }
        }
        best
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
