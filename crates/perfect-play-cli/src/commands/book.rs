//! `perfect-play book connect-four`: an opening book built by the search, positions kept in
//! `PATH.partial` as they finish so that a build cut short resumes.

use super::engine::no_files_under_small_budget;
use super::{Budget, CommandError};
use crate::args::{BookArgs, BookGame, ConnectFourBookArgs};
use crate::database_view::database_json;
use crate::output::Output;
use crate::progress;
use perfect_play::durable;
use perfect_play::games::connect_four::ConnectFour;
use perfect_play::games::connect_four::search::{Bitboards, Bits, fits_64_bits};
use perfect_play::registry::answers::connect_four;
use perfect_play::search::{Limits, ScoreGame, book};
use serde_json::json;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Seek, Write};
use std::path::Path;
use std::time::Instant;

/// The memory the positions may be listed in without `--memory-limit`.
const LISTING_BYTES: u64 = 2 << 30;

pub fn run(args: &BookArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    match &args.game {
        BookGame::ConnectFour(args) => connect_four_book(args, budget, quiet),
    }
}

fn connect_four_book(
    args: &ConnectFourBookArgs,
    budget: &Budget,
    quiet: bool,
) -> Result<Output, CommandError> {
    no_files_under_small_budget(budget, Some(&args.db))?;
    let board = ConnectFour::new(args.width, args.height)?;
    // 64-bit words where the board fits them, 128-bit ones past that.
    if fits_64_bits(&board) {
        connect_four_book_on::<u64>(args, budget, quiet, &board)
    } else {
        connect_four_book_on::<u128>(args, budget, quiet, &board)
    }
}

/// [`connect_four_book`] on bitboards of `B`.
fn connect_four_book_on<B: Bits>(
    args: &ConnectFourBookArgs,
    budget: &Budget,
    quiet: bool,
    board: &ConnectFour,
) -> Result<Output, CommandError> {
    let started = Instant::now();
    let positions =
        connect_four::book_positions::<B>(board, args.depth, budget.memory(LISTING_BYTES))?;
    let rules = Bitboards::<B>::new(board);
    let digest = book::digest(&rules, &positions);
    let mut partial_path = args.db.as_os_str().to_owned();
    partial_path.push(".partial");
    let partial_path = std::path::PathBuf::from(partial_path);
    let identity = format!(
        "perfect-play book connect-four {}x{} plies {} keys {digest:08x}",
        args.width, args.height, args.depth
    );
    // One build at a time into a path; a file there that is not this very book is kept.
    let _lock = durable::Lock::take(&args.db)?;
    if connect_four::check_book_target(&args.db, board, args.depth, &positions)? {
        return built_already(args, budget, &rules, started);
    }
    let mut known = read_partial(&partial_path, &identity)?;
    let resumed = known.len();
    let mut partial = open_partial(&partial_path, &identity, resumed == 0)?;
    let search = connect_four::search_of::<B>(board, connect_four::table_bytes(budget))?;
    let todo: Vec<_> = positions
        .iter()
        .filter(|p| !known.contains_key(&rules.key(p).into()))
        .copied()
        .collect();
    let bar = progress::bar("searching the book's positions", quiet);
    bar.set_length(positions.len() as u64);
    bar.set_position(resumed as u64);
    let limits = Limits {
        cancel: budget.cancel.clone(),
        threads: usize::from(args.threads),
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
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(e) = write_failed {
        return Err(durable::write_error(&partial_path, e).into());
    }
    scores.map_err(|stopped| {
        format!(
            "the book stopped ({}) with {} of {} positions searched, kept in {}: the same command resumes",
            stopped.reason,
            known.len(),
            positions.len(),
            partial_path.display()
        )
    })?;
    let scores: Vec<i32> = positions
        .iter()
        .map(|p| known.get(&rules.key(p).into()).copied())
        .collect::<Option<_>>()
        .ok_or("a position of the book was not searched")?;
    let bytes = connect_four::write_book(&args.db, board, args.depth, &positions, &scores)?;
    drop(partial);
    durable::remove_if_present(&partial_path)?;
    let seconds = started.elapsed().as_secs_f64();
    let nodes = search.nodes();
    let start_score = scores[positions
        .iter()
        .position(|p| p.moves == 0)
        .unwrap_or_default()];
    let (outcome, remoteness) = rules.value_of(0, start_score);
    let json = json!({
        "game": "connect-four",
        "width": args.width,
        "height": args.height,
        "plies": args.depth,
        "positions": positions.len(),
        "resumed": resumed,
        "nodes": nodes,
        "seconds": seconds,
        "table_bytes": search.table().bytes(),
        "start": {"outcome": outcome, "remoteness": remoteness},
        "database": database_json(&args.db, bytes, positions.len() as u64, false, resumed > 0, 0),
    });
    let text = format!(
        "Connect Four {} x {}: a book of {} plies, {} positions (one per mirror pair), in {} ({} bytes).\n{}Searched {nodes} nodes in {seconds:.1} s. The empty board: {} for the first player in {remoteness} plies.\n",
        args.width,
        args.height,
        args.depth,
        positions.len(),
        args.db.display(),
        bytes,
        if resumed > 0 {
            format!(
                "{resumed} positions came from {} (resumed).\n",
                partial_path.display()
            )
        } else {
            String::new()
        },
        outcome,
    );
    Ok(Output { text, json })
}

/// A book already built at `--db`: read back (every block's checksum and the positions'
/// digest checked) and reported, nothing searched.
fn built_already<B: Bits>(
    args: &ConnectFourBookArgs,
    budget: &Budget,
    rules: &Bitboards<B>,
    started: Instant,
) -> Result<Output, CommandError> {
    let book = connect_four::open_book(&args.db, budget.memory(LISTING_BYTES))?;
    let start = rules.discs(&perfect_play::Game::start(&book.board));
    let positions = book.book.len();
    let score = book
        .book
        .get(rules.depth(&start), rules.key(&start).into())
        .ok_or("the book does not hold the empty board")?;
    let (outcome, remoteness) = rules.value_of(0, score);
    let seconds = started.elapsed().as_secs_f64();
    let json = json!({
        "game": "connect-four",
        "width": args.width,
        "height": args.height,
        "plies": args.depth,
        "positions": positions,
        "resumed": 0,
        "nodes": 0,
        "seconds": seconds,
        "table_bytes": 0,
        "start": {"outcome": outcome, "remoteness": remoteness},
        "database": database_json(&args.db, book.bytes, positions as u64, true, false, 0),
    });
    let text = format!(
        "Connect Four {} x {}: the book of {} plies is in {} already ({positions} positions, {} bytes): read back and checked, nothing searched.\nThe empty board: {outcome} for the first player in {remoteness} plies.\n",
        args.width,
        args.height,
        args.depth,
        args.db.display(),
        book.bytes,
    );
    Ok(Output { text, json })
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
fn read_partial(path: &Path, identity: &str) -> Result<HashMap<u128, i32>, CommandError> {
    if !durable::writable_target(path)? {
        return Ok(HashMap::new());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = BufReader::new(file).lines();
    let first = lines.next().transpose()?.unwrap_or_default();
    if identity.starts_with(&first) && first != identity {
        // The identity line itself cut short by a kill: nothing was kept.
        return Ok(HashMap::new());
    }
    if first != identity {
        return Err(format!(
            "{} is the partial build of another book ({}): remove it or give another --db",
            path.display(),
            perfect_play::parse::shorten(&first)
        )
        .into());
    }
    let mut known = HashMap::new();
    for line in lines {
        let line = line?;
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
fn open_partial(path: &Path, identity: &str, fresh: bool) -> Result<std::fs::File, CommandError> {
    let shown = |e: std::io::Error| durable::write_error(path, e);
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
