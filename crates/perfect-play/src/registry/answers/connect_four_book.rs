//! Building a Connect Four opening book (`perfect-play book connect-four`): every position
//! within some plies of the empty board searched once, each score kept in `PATH.partial` as
//! it is found, so that a build cut short resumes, then the book written in the engine's
//! database format.
//!
//! Here rather than in a front end so that the search is instantiated (and optimised) with
//! the library: the command line only shows the progress and renders the result.

use super::connect_four::{
    BookFile, book_positions, check_book_target, open_book, search_of, table_bytes, write_book,
};
use crate::budget::Budget;
use crate::durable;
use crate::games::connect_four::ConnectFour;
use crate::games::connect_four::search::{Bitboards, Bits, fits_64_bits};
use crate::player::Outcome;
use crate::registry::QueryError;
use crate::search::{Limits, ScoreGame};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The memory the positions may be listed in without `--memory-limit`.
const LISTING_BYTES: u64 = 2 << 30;

/// What a book's build asked for.
#[derive(Clone, Debug)]
pub struct BookRequest<'a> {
    /// The board.
    pub board: &'a ConnectFour,
    /// Plies from the empty board the book covers.
    pub plies: u32,
    /// Where the book goes (its partial build beside it, `PATH.partial`).
    pub path: &'a Path,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// What a build did.
#[derive(Clone, Debug)]
pub struct BookBuilt {
    /// Positions in the book (one per mirror pair).
    pub positions: usize,
    /// Positions whose scores came from the partial build (a build resumed).
    pub resumed: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// The search's table.
    pub table_bytes: u64,
    /// The empty board's value for the first player.
    pub start: (Outcome, u32),
    /// The book's size on disk.
    pub bytes: u64,
    /// The book was at the path already: read back and checked, nothing searched.
    pub already: bool,
    /// Where the partial build is (or was) kept.
    pub partial_path: PathBuf,
}

/// Build the book `request` asks for, or report the one already at its path. `progress` is
/// told the positions done and in all, once at the start and after each position.
///
/// # Errors
/// A board or listing over the limits; a file at the path that is not this book (or a
/// link, a FIFO, another process's build); a write that failed; the build stopped by the
/// budget's cancel flag (what was found is kept in `PATH.partial`, the message says so).
pub fn build_book(
    request: &BookRequest<'_>,
    budget: &Budget,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BookBuilt, QueryError> {
    if fits_64_bits(request.board) {
        build_on::<u64>(request, budget, progress)
    } else {
        build_on::<u128>(request, budget, progress)
    }
}

/// [`build_book`] on bitboards of `B`.
fn build_on<B: Bits>(
    request: &BookRequest<'_>,
    budget: &Budget,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BookBuilt, QueryError> {
    let started = Instant::now();
    let (board, path) = (request.board, request.path);
    let positions = book_positions::<B>(board, request.plies, budget.memory(LISTING_BYTES))?;
    let rules = Bitboards::<B>::new(board);
    let digest = crate::search::book::digest(&rules, &positions);
    let mut partial_path = path.as_os_str().to_owned();
    partial_path.push(".partial");
    let partial_path = PathBuf::from(partial_path);
    let identity = format!(
        "perfect-play book connect-four {}x{} plies {} keys {digest:08x}",
        board.width(),
        board.height(),
        request.plies
    );
    // One build at a time into a path; a file there that is not this very book is kept.
    let _lock = durable::Lock::take(path)?;
    if check_book_target(path, board, request.plies, &positions)? {
        let book = open_book(path, budget.memory(LISTING_BYTES))?;
        return Ok(BookBuilt {
            positions: book.book.len(),
            resumed: 0,
            nodes: 0,
            seconds: started.elapsed().as_secs_f64(),
            table_bytes: 0,
            start: start_of(&rules, &book)?,
            bytes: book.bytes,
            already: true,
            partial_path,
        });
    }
    let mut known = read_partial(&partial_path, &identity)?;
    let resumed = known.len();
    let mut partial = open_partial(&partial_path, &identity, resumed == 0)?;
    let search = search_of::<B>(board, table_bytes(budget))?;
    let todo: Vec<_> = positions
        .iter()
        .filter(|p| !known.contains_key(&rules.key(p).into()))
        .copied()
        .collect();
    let (total, mut done) = (positions.len(), resumed);
    progress(done, total);
    let limits = Limits {
        cancel: budget.cancel.clone(),
        threads: request.threads,
        ..Limits::default()
    };
    let mut write_failed = None;
    let scores = search.score_all(&todo, known.clone(), &limits, &mut |i, score| {
        let key: u128 = rules.key(&todo[i]).into();
        known.insert(key, score);
        let line = partial_line(key, score);
        if let Err(e) = writeln!(partial, "{line} {:08x};", line_crc(&identity, &line))
            .and_then(|()| partial.flush())
        {
            write_failed.get_or_insert(e);
        }
        done += 1;
        progress(done, total);
    });
    if let Some(e) = write_failed {
        return Err(durable::write_error(&partial_path, e).into());
    }
    scores.map_err(|stopped| {
        QueryError::Unfinished(format!(
            "the book stopped ({}) with {} of {} positions searched, kept in {}: the same command resumes",
            stopped.reason,
            known.len(),
            positions.len(),
            partial_path.display()
        ))
    })?;
    let scores: Vec<i32> = positions
        .iter()
        .map(|p| known.get(&rules.key(p).into()).copied())
        .collect::<Option<_>>()
        .ok_or_else(|| QueryError::Unfinished("a position of the book was not searched".into()))?;
    let bytes = write_book(path, board, request.plies, &positions, &scores)?;
    drop(partial);
    durable::remove_if_present(&partial_path)?;
    let start_score = scores[positions
        .iter()
        .position(|p| p.moves == 0)
        .unwrap_or_default()];
    Ok(BookBuilt {
        positions: positions.len(),
        resumed,
        nodes: search.nodes(),
        seconds: started.elapsed().as_secs_f64(),
        table_bytes: search.table().bytes(),
        start: rules.value_of(0, start_score),
        bytes,
        already: false,
        partial_path,
    })
}

/// The empty board's value in a book read back.
fn start_of<B: Bits>(rules: &Bitboards<B>, book: &BookFile) -> Result<(Outcome, u32), QueryError> {
    let start = rules.discs(&crate::game::Game::start(&book.board));
    let score = book
        .book
        .get(rules.depth(&start), rules.key(&start).into())
        .ok_or_else(|| QueryError::BadInput("the book does not hold the empty board".into()))?;
    Ok(rules.value_of(0, score))
}

/// A partial book's line before its checksum: the key and the score.
fn partial_line(key: u128, score: i32) -> String {
    format!("{key:x} {score}")
}

/// The checksum that ends a partial book's line: CRC-32 of the book's identity and the line,
/// so that an edited score, or a line of another book, is searched again, not trusted.
fn line_crc(identity: &str, line: &str) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(identity.as_bytes());
    hasher.update(b"\n");
    hasher.update(line.as_bytes());
    hasher.finalize()
}

/// The scores a build cut short kept, by key: none when there is no file; refused when the
/// file is another book's (or a link, a FIFO, a folder). A line whose checksum does not
/// match (cut short by a kill, edited, damaged) is searched again.
fn read_partial(path: &Path, identity: &str) -> Result<HashMap<u128, i32>, QueryError> {
    if !durable::writable_target(path)? {
        return Ok(HashMap::new());
    }
    let read_failed = |e| QueryError::File(durable::read_error(path, e));
    let file = std::fs::File::open(path).map_err(read_failed)?;
    let mut lines = BufReader::new(file).lines();
    let first = lines
        .next()
        .transpose()
        .map_err(read_failed)?
        .unwrap_or_default();
    if identity.starts_with(&first) && first != identity {
        // The identity line itself cut short by a kill: nothing was kept.
        return Ok(HashMap::new());
    }
    if first != identity {
        return Err(QueryError::BadInput(format!(
            "{} is the partial build of another book ({}): remove it or give another --db",
            path.display(),
            crate::parse::shorten(&first)
        )));
    }
    let mut known = HashMap::new();
    for line in lines {
        let line = line.map_err(read_failed)?;
        let parsed = line
            .strip_suffix(';')
            .and_then(|l| l.rsplit_once(' '))
            .filter(|(body, crc)| {
                u32::from_str_radix(crc, 16).ok() == Some(line_crc(identity, body))
            })
            .and_then(|(body, _)| body.split_once(' '))
            .and_then(|(key, score)| {
                Some((u128::from_str_radix(key, 16).ok()?, score.parse().ok()?))
            });
        if let Some((key, score)) = parsed {
            known.insert(key, score);
        }
    }
    Ok(known)
}

/// The partial file, appended to (`fresh`: created, never through a link, and started with
/// the identity line).
fn open_partial(path: &Path, identity: &str, fresh: bool) -> Result<std::fs::File, QueryError> {
    let shown = |e: std::io::Error| QueryError::File(durable::write_error(path, e));
    if fresh {
        // Whatever was there held nothing of this book (read_partial said so): begun anew.
        durable::remove_if_present(path)?;
    }
    let mut file = durable::open_in_place(path)?;
    file.seek(std::io::SeekFrom::End(0)).map_err(shown)?;
    if fresh {
        writeln!(file, "{identity}").map_err(shown)?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY: &str = "perfect-play book connect-four 7x6 plies 2 keys 0123abcd";

    fn line(key: u128, score: i32) -> String {
        let body = partial_line(key, score);
        format!("{body} {:08x};", line_crc(IDENTITY, &body))
    }

    /// Audit item 4: one edited score line (or 2147483647) resumed into a finished book with a
    /// valid digest and a wrong best column. Now each line carries a checksum of the book's
    /// identity and the line: an edited, foreign, old or cut line is searched again.
    #[test]
    fn a_partial_book_keeps_only_lines_whose_checksum_holds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.partial");
        let good = line(0x1f, 3);
        let edited = line(0x2e, -2).replace(" -2 ", " 5 ");
        let huge = line(0x3d, 1).replace(" 1 ", " 2147483647 ");
        let other_book = {
            let body = partial_line(0x4c, 1);
            format!("{body} {:08x};", line_crc("another", &body))
        };
        let old_form = "5b 1;".to_string();
        let cut = line(0x6a, 0);
        let cut = &cut[..cut.len() - 1];
        std::fs::write(
            &path,
            format!("{IDENTITY}\n{good}\n{edited}\n{huge}\n{other_book}\n{old_form}\n{cut}"),
        )
        .unwrap();
        let known = read_partial(&path, IDENTITY).unwrap();
        assert_eq!(known, HashMap::from([(0x1f, 3)]));
        // Another book's partial build is refused, not read.
        let refused = read_partial(&path, "perfect-play book connect-four 6x5 plies 1 keys 0")
            .unwrap_err()
            .to_string();
        assert!(refused.contains("another book"), "{refused}");
        // A partial whose identity line was itself cut short holds nothing.
        std::fs::write(&path, &IDENTITY[..20]).unwrap();
        assert!(read_partial(&path, IDENTITY).unwrap().is_empty());
    }
}
