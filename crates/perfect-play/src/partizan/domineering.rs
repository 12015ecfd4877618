//! Domineering: Left places a domino on two empty cells one above the other, Right on two
//! side by side; who cannot place one loses. Written `..#.|....` (`.` empty, `#` covered or
//! off the board).
//!
//! A board is a bitboard of its empty cells ([`Board`]): moves, the regions a board falls
//! into and their symmetries are word operations, which is where the time goes once the
//! values are cached.

use super::PartizanError;
use super::grid::Grid;
use super::rules::PartizanRules;
use super::table::Side;
use std::fmt;

/// The most cells a Domineering board may have (the bits of a `u128`).
pub const MAX_CELLS: usize = 128;

/// A Domineering board: `height` rows of `width` cells, bit `r * width + c` set when the
/// cell at row `r`, column `c` is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    height: u8,
    width: u8,
    empty: u128,
}

/// The rules of Domineering.
#[derive(Clone, Copy, Debug, Default)]
pub struct Domineering;

/// Read a Domineering position.
///
/// # Errors
/// [`PartizanError::Position`], for a board of more than [`MAX_CELLS`] cells too.
pub fn parse(text: &str) -> Result<Board, PartizanError> {
    let grid = Grid::parse(text, ".#", "Domineering")?;
    if grid.cells.len() > MAX_CELLS {
        return Err(PartizanError::Position(format!(
            "a Domineering board of {} cells: at most {MAX_CELLS} are valued",
            grid.cells.len()
        )));
    }
    let mut empty = 0u128;
    for (i, &cell) in grid.cells.iter().enumerate() {
        if cell == b'.' {
            empty |= 1 << i;
        }
    }
    Ok(Board {
        height: grid.height as u8,
        width: grid.width as u8,
        empty,
    })
}

/// The empty `rows` x `columns` board.
///
/// # Errors
/// [`PartizanError::Position`] for no cells or more than [`MAX_CELLS`].
pub fn empty(rows: usize, columns: usize) -> Result<Board, PartizanError> {
    let cells = rows
        .checked_mul(columns)
        .filter(|&n| n > 0 && n <= MAX_CELLS)
        .ok_or_else(|| {
            PartizanError::Position(format!(
                "an empty Domineering board of {rows} x {columns}: from 1 to {MAX_CELLS} cells are valued"
            ))
        })?;
    Ok(Board {
        height: rows as u8,
        width: columns as u8,
        empty: if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        },
    })
}

impl Board {
    fn width(self) -> usize {
        usize::from(self.width)
    }

    fn height(self) -> usize {
        usize::from(self.height)
    }

    /// The cells of one row (`width` bits).
    fn row_mask(self) -> u128 {
        if self.width() >= 128 {
            u128::MAX
        } else {
            (1u128 << self.width()) - 1
        }
    }

    /// Every cell but those of the last column.
    fn not_last_column(self) -> u128 {
        let row = self.row_mask() >> 1;
        (0..self.height()).fold(0, |m, r| m | row << (r * self.width()))
    }

    /// Every cell but those of the first column.
    fn not_first_column(self) -> u128 {
        self.not_last_column() << 1
    }

    /// The empty cells joined to `seed` side by side through empty cells.
    fn flood(self, seed: u128) -> u128 {
        let (w, right, left) = (
            self.width(),
            self.not_last_column(),
            self.not_first_column(),
        );
        let mut region = seed;
        loop {
            let grown =
                (region | (region & right) << 1 | (region & left) >> 1 | region << w | region >> w)
                    & self.empty;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// `cells` (a subset of this board's) as a board of their own, cut to their bounding box.
    fn cut(self, cells: u128) -> Board {
        let w = self.width();
        let rows: Vec<u128> = (0..self.height())
            .map(|r| (cells >> (r * w)) & self.row_mask())
            .collect();
        let used: Vec<usize> = (0..rows.len()).filter(|&r| rows[r] != 0).collect();
        let columns = rows.iter().fold(0u128, |m, &r| m | r);
        let (Some(&r0), Some(&r1)) = (used.first(), used.last()) else {
            return Board {
                height: 0,
                width: 0,
                empty: 0,
            };
        };
        let c0 = columns.trailing_zeros() as usize;
        let c1 = 127 - columns.leading_zeros() as usize;
        let width = c1 - c0 + 1;
        let mut empty = 0u128;
        for (i, r) in (r0..=r1).enumerate() {
            empty |= (rows[r] >> c0) << (i * width);
        }
        Board {
            height: (r1 - r0 + 1) as u8,
            width: width as u8,
            empty,
        }
    }

    /// The board with rows and columns swapped.
    fn transposed(self) -> Board {
        let (h, w) = (self.height(), self.width());
        let mut empty = 0u128;
        let mut rest = self.empty;
        while rest != 0 {
            let at = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (r, c) = (at / w, at % w);
            empty |= 1 << (c * h + r);
        }
        Board {
            height: self.width,
            width: self.height,
            empty,
        }
    }

    /// The board's four reflections (itself, rows reversed, columns reversed, both), built
    /// row by row: a row's columns reversed is its bits reversed.
    fn reflections(self) -> [Board; 4] {
        let (h, w) = (self.height(), self.width());
        let mut images = [Board { empty: 0, ..self }; 4];
        for r in 0..h {
            let row = (self.empty >> (r * w)) & self.row_mask();
            let reversed = row.reverse_bits() >> (128 - w);
            let (down, up) = (r * w, (h - 1 - r) * w);
            images[0].empty |= row << down;
            images[1].empty |= row << up;
            images[2].empty |= reversed << down;
            images[3].empty |= reversed << up;
        }
        images
    }
}

impl fmt::Display for Board {
    /// CGSuite's spelling: rows joined by `|`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.height() {
            if r > 0 {
                write!(f, "|")?;
            }
            for c in 0..self.width() {
                let empty = self.empty >> (r * self.width() + c) & 1 == 1;
                write!(f, "{}", if empty { '.' } else { '#' })?;
            }
        }
        Ok(())
    }
}

impl PartizanRules for Domineering {
    type Position = Board;

    fn options(&self, board: &Board, side: Side) -> Vec<Board> {
        // The first cell of each domino that fits: the other is one row down (Left) or one
        // column right (Right).
        let (step, fits) = match side {
            Side::Left => (board.width(), board.empty & board.empty >> board.width()),
            Side::Right => (1, board.empty & board.empty >> 1 & board.not_last_column()),
        };
        let mut options = Vec::with_capacity(fits.count_ones() as usize);
        let mut rest = fits;
        while rest != 0 {
            let at = rest & rest.wrapping_neg();
            rest &= rest - 1;
            options.push(Board {
                empty: board.empty & !(at | at << step),
                ..*board
            });
        }
        options
    }

    /// The groups of empty cells joined side by side; a lone cell is worth 0.
    fn components(&self, board: &Board) -> Vec<Board> {
        let mut regions = Vec::new();
        let mut rest = board.empty;
        while rest != 0 {
            let region = board.flood(rest & rest.wrapping_neg());
            rest &= !region;
            if region.count_ones() > 1 {
                regions.push(board.cut(region));
            }
        }
        regions
    }

    /// Reflected boards are worth the same; a board turned a quarter is worth the negative
    /// (the players' dominoes swap).
    fn symmetric(&self, board: &Board) -> (Board, bool) {
        let mut best = (*board, false);
        for (turned, start) in [(false, *board), (true, board.transposed())] {
            for image in start.reflections() {
                if image < best.0 {
                    best = (image, turned);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_read_back_and_split_into_regions() {
        let board = parse("..#.|.#..|#...").unwrap();
        assert_eq!(board.to_string(), "..#.|.#..|#...");
        let regions = Domineering.components(&board);
        let shown: Vec<String> = regions.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["..|.#", "##.|#..|..."]);
        assert_eq!(Domineering.options(&board, Side::Left).len(), 4);
        assert_eq!(Domineering.options(&board, Side::Right).len(), 4);
        let (image, turned) = Domineering.symmetric(&parse("..|..|..").unwrap());
        assert_eq!((image.to_string().as_str(), turned), ("...|...", true));
    }
}
