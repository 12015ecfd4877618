//! `perfect-play book connect-four`: an opening book built by the library's
//! [`build_book`] (resumed from `PATH.partial` when a build was cut short), shown with a bar.

use super::engine::no_files_under_small_budget;
use super::{Budget, CommandError};
use crate::args::{BookArgs, BookGame, ConnectFourBookArgs};
use crate::database_view::database_json;
use crate::output::Output;
use crate::progress;
use perfect_play::games::connect_four::ConnectFour;
use perfect_play::registry::answers::connect_four_book::{BookRequest, build_book};
use serde_json::json;

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
    let request = BookRequest {
        board: &board,
        plies: args.depth,
        path: &args.db,
        threads: usize::from(args.threads),
    };
    let bar = progress::bar("searching the book's positions", quiet);
    let built = build_book(&request, budget, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let built = built?;
    let (outcome, remoteness) = built.start;
    let json = json!({
        "game": "connect-four",
        "width": args.width,
        "height": args.height,
        "plies": args.depth,
        "positions": built.positions,
        "resumed": built.resumed,
        "nodes": built.nodes,
        "seconds": built.seconds,
        "table_bytes": built.table_bytes,
        "start": {"outcome": outcome, "remoteness": remoteness},
        "database": database_json(
            &args.db,
            built.bytes,
            built.positions as u64,
            built.already,
            built.resumed > 0,
            0
        ),
    });
    let text = if built.already {
        format!(
            "Connect Four {} x {}: the book of {} plies is in {} already ({} positions, {} bytes): read back and checked, nothing searched.\nThe empty board: {outcome} for the first player in {remoteness} plies.\n",
            args.width,
            args.height,
            args.depth,
            args.db.display(),
            built.positions,
            built.bytes,
        )
    } else {
        format!(
            "Connect Four {} x {}: a book of {} plies, {} positions (one per mirror pair), in {} ({} bytes).\n{}Searched {} nodes in {:.1} s. The empty board: {outcome} for the first player in {remoteness} plies.\n",
            args.width,
            args.height,
            args.depth,
            built.positions,
            args.db.display(),
            built.bytes,
            if built.resumed > 0 {
                format!(
                    "{} positions came from {} (resumed).\n",
                    built.resumed,
                    built.partial_path.display()
                )
            } else {
                String::new()
            },
            built.nodes,
            built.seconds,
        )
    };
    Ok(Output { text, json })
}
