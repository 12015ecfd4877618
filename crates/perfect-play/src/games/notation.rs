//! The notation the board games share: squares as marks (`x`, `o`, `.`) in reading order, rows
//! joined by `/`, then `:x` or `:o` for the side to move; squares named by a column letter and
//! a row counted from the bottom (`c3`). Parse errors are typed ([`NotationError`]).

use thiserror::Error;

/// Why a position's text is not a position of the game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// The text after `:` is not a side.
    #[error("{0:?} after ':' is not a side: use :x or :o")]
    Side(String),
    /// A character is not a square's mark.
    #[error("{0:?} is not a square: use x, o or .")]
    Mark(char),
    /// The board has another number of squares.
    #[error("{what} has {expected} squares, got {found}")]
    Squares {
        /// The board, described.
        what: String,
        /// Squares it has.
        expected: usize,
        /// Squares the text gave.
        found: usize,
    },
    /// The marks break one of the game's rules (the sentence says which).
    #[error("{0}")]
    Rule(String),
}

/// A square of a position written as marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The first player's.
    X,
    /// The second player's.
    O,
    /// Empty.
    Empty,
}

/// A position written as marks (`x`, `o`, `.`; a `/` between rows is ignored) and an optional
/// `:x` or `:o` for the side to move (default x): the marks in order, and whether x moves.
///
/// # Errors
/// A bad side, a character that is not a mark, or another number of squares than `cells`.
pub fn parse_marks(
    text: &str,
    cells: usize,
    what: &str,
) -> Result<(Vec<Mark>, bool), NotationError> {
    let (marks, side) = match text.trim().split_once(':') {
        Some((marks, side)) => (marks, side.trim()),
        None => (text.trim(), "x"),
    };
    let x_to_move = match side {
        "x" | "X" => true,
        "o" | "O" => false,
        other => return Err(NotationError::Side(crate::parse::shorten(other))),
    };
    let marks = marks
        .chars()
        .filter(|&c| c != '/')
        .map(|c| match c {
            'x' | 'X' => Ok(Mark::X),
            'o' | 'O' => Ok(Mark::O),
            '.' | '-' | '_' => Ok(Mark::Empty),
            other => Err(NotationError::Mark(other)),
        })
        .collect::<Result<Vec<Mark>, NotationError>>()?;
    if marks.len() != cells {
        return Err(NotationError::Squares {
            what: what.to_string(),
            expected: cells,
            found: marks.len(),
        });
    }
    Ok((marks, x_to_move))
}

/// The squares holding x and the squares holding o, as bit sets in reading order (square `i`
/// is bit `i`).
#[must_use]
pub fn mark_sets(marks: &[Mark]) -> (u64, u64) {
    marks
        .iter()
        .enumerate()
        .fold((0, 0), |(x, o), (square, mark)| match mark {
            Mark::X => (x | 1 << square, o),
            Mark::O => (x, o | 1 << square),
            Mark::Empty => (x, o),
        })
}

/// The marks of two bit sets in reading order over `cells` squares (the inverse of
/// [`mark_sets`]).
pub fn set_marks(x: u64, o: u64, cells: u32) -> impl Iterator<Item = char> {
    (0..cells).map(move |s| mark_of(x >> s & 1 == 1, o >> s & 1 == 1))
}

/// Marks in reading order as notation: rows of `width` joined by `/`, then the side to move.
pub fn marks_notation(marks: impl Iterator<Item = char>, width: usize, x_to_move: bool) -> String {
    let marks: Vec<char> = marks.collect();
    let rows: Vec<String> = marks
        .chunks(width.max(1))
        .map(|row| row.iter().collect())
        .collect();
    format!("{}:{}", rows.join("/"), if x_to_move { 'x' } else { 'o' })
}

/// The mark of a square shared by the notation and the picture: `x`, `o` or `.`.
#[must_use]
pub fn mark_of(first: bool, second: bool) -> char {
    match (first, second) {
        (true, _) => 'x',
        (_, true) => 'o',
        _ => '.',
    }
}

/// A square of a board `width` wide and `height` high in reading order (row 0 at the top) as a
/// column letter and a row counted from the bottom: `c3`.
#[must_use]
pub fn square_name(width: u32, height: u32, square: u32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % width) as u8),
        height - square / width
    )
}

/// A board drawn as text: each row (top first) after its number counted from the bottom, the
/// column letters below. `mark(square)` gives the character of a square in reading order.
pub fn grid_picture(width: u32, height: u32, mark: impl Fn(u32) -> char) -> String {
    let mut text = String::new();
    for row in 0..height {
        text.push_str(&format!("  {} ", height - row));
        text.extend((0..width).map(|col| mark(col + width * row)));
        text.push('\n');
    }
    text.push_str("    ");
    text.extend((0..width).map(|c| char::from(b'a' + c as u8)));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_read_back_as_written() {
        let (marks, x) = parse_marks("x./.o:o", 4, "a board").unwrap();
        assert_eq!(marks, [Mark::X, Mark::Empty, Mark::Empty, Mark::O]);
        assert!(!x);
        let chars = marks.iter().map(|m| match m {
            Mark::X => 'x',
            Mark::O => 'o',
            Mark::Empty => '.',
        });
        assert_eq!(marks_notation(chars, 2, x), "x./.o:o");
    }

    #[test]
    fn bad_marks_are_typed_errors() {
        assert_eq!(parse_marks("x?", 2, "b"), Err(NotationError::Mark('?')));
        assert!(matches!(
            parse_marks("x.:z", 2, "b"),
            Err(NotationError::Side(_))
        ));
        assert!(matches!(
            parse_marks("x..", 2, "b"),
            Err(NotationError::Squares { found: 3, .. })
        ));
    }

    #[test]
    fn squares_are_named_from_the_bottom_left() {
        assert_eq!(square_name(3, 4, 0), "a4");
        assert_eq!(square_name(3, 4, 11), "c1");
        assert_eq!(grid_picture(2, 1, |_| 'x'), "  1 xx\n    ab\n");
    }
}
