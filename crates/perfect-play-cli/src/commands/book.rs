//! `perfect-play book connect-four`: an opening book built by the search, positions kept in
//! `PATH.partial` as they finish so that a build cut short resumes.

use super::engine::{database_json, no_files_under_small_budget};
use super::{Budget, CommandError};
use crate::args::{BookArgs, BookGame, ConnectFourBookArgs};
use crate::output::Output;
use crate::progress;
use perfect_play::games::connect_four::ConnectFour;
use perfect_play::games::connect_four::search::Bitboards;
use perfect_play::registry::answers::connect_four::{self, Searcher};
use perfect_play::search::{Limits, ScoreGame, book};
use serde_json::json;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
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
    let started = Instant::now();
    let board = ConnectFour::new(args.width, args.height)?;
    let positions = connect_four::book_positions(&board, args.depth, budget.memory(LISTING_BYTES))?;
    let rules = Bitboards::new(&board);
    let digest = book::digest(&rules, &positions);
    let mut partial_path = args.db.as_os_str().to_owned();
    partial_path.push(".partial");
    let partial_path = std::path::PathBuf::from(partial_path);
    let identity = format!(
        "perfect-play book connect-four {}x{} plies {} keys {digest:08x}",
        args.width, args.height, args.depth
    );
    let mut known = read_partial(&partial_path, &identity)?;
    let resumed = known.len();
    let mut partial = open_partial(&partial_path, &identity, resumed == 0)?;
    let searcher = Searcher::new(board.clone(), connect_four::table_bytes(budget))?;
    let search = searcher.search();
    let todo: Vec<_> = positions
        .iter()
        .filter(|p| !known.contains_key(&rules.key(p)))
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
    let scores = search.score_all(&todo, &limits, &mut |i, score| {
        let key = rules.key(&todo[i]);
        known.insert(key, score);
        if let Err(e) = writeln!(partial, "{key:x} {score};").and_then(|()| partial.flush()) {
            write_failed.get_or_insert(e);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(e) = write_failed {
        return Err(format!("{}: {e}", partial_path.display()).into());
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
        .map(|p| known.get(&rules.key(p)).copied())
        .collect::<Option<_>>()
        .ok_or("a position of the book was not searched")?;
    let bytes = connect_four::write_book(&args.db, &board, args.depth, &positions, &scores)?;
    drop(partial);
    std::fs::remove_file(&partial_path).map_err(|e| format!("{}: {e}", partial_path.display()))?;
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
        "table_bytes": searcher.table_bytes(),
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

/// The scores a build cut short kept, by key: none when there is no file; refused when the
/// file is another book's.
fn read_partial(path: &Path, identity: &str) -> Result<HashMap<u64, i32>, CommandError> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display()).into()),
    };
    let mut lines = BufReader::new(file).lines();
    let first = lines.next().transpose()?.unwrap_or_default();
    if first != identity {
        return Err(format!(
            "{} is the partial build of another book ({first:?}): remove it or give another --db",
            path.display()
        )
        .into());
    }
    let mut known = HashMap::new();
    for line in lines {
        let line = line?;
        // A line cut short by a kill (the last one) lacks its `;`: searched again.
        let parsed = line
            .strip_suffix(';')
            .and_then(|l| l.split_once(' '))
            .and_then(|(key, score)| {
                Some((u64::from_str_radix(key, 16).ok()?, score.parse().ok()?))
            });
        if let Some((key, score)) = parsed {
            known.insert(key, score);
        }
    }
    Ok(known)
}

/// The partial file, appended to (`fresh`: started with the identity line).
fn open_partial(path: &Path, identity: &str, fresh: bool) -> Result<std::fs::File, CommandError> {
    let shown = |e: std::io::Error| format!("{}: {e}", path.display());
    if fresh {
        let mut file = std::fs::File::create(path).map_err(shown)?;
        writeln!(file, "{identity}").map_err(shown)?;
        return Ok(file);
    }
    Ok(std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(shown)?)
}
