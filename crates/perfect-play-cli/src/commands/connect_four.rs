//! `perfect-play connect-four`: a small board solved whole by the engine, then read; or any
//! board (7 x 6 by default) answered by the exact search from the position.

use super::engine::{
    no_files_under_small_budget, open_database, refuse_if_too_large, solve_into_database,
    solve_with_bar,
};
use super::{Budget, CommandError, batch_lines, batch_lines_side_by_side};
use crate::Io;
use crate::args::{ConnectFourArgs, ConnectFourMethod};
use crate::database_view::{database_json, read_database};
use crate::output::{Output, result_sentence, verdict_of};
use perfect_play::engine::Database;
use perfect_play::engine::{Options, Solution};
use perfect_play::games::connect_four::ConnectFour;
use perfect_play::registry::answers::connect_four::{self, BookFile, Method, Searcher};
use perfect_play::registry::answers::engine as answers;
use perfect_play::registry::{Answer, EngineGame, QueryError};

/// The opening book `--db` names, if it names one (a file written by `perfect-play book`).
fn book_of(args: &ConnectFourArgs, budget: &Budget) -> Result<Option<BookFile>, CommandError> {
    let Some(path) = args.db.as_ref().filter(|p| p.exists()) else {
        return Ok(None);
    };
    no_files_under_small_budget(budget, Some(path))?;
    let header = Database::open(path, false)?.header;
    if header.book.is_none() {
        return Ok(None);
    }
    let book = connect_four::open_book(path, budget.memory(BOOK_LISTING_BYTES))?;
    if (book.board.width(), book.board.height()) != (args.width, args.height) {
        return Err(format!(
            "{} is a book of the {} x {} board, not {} x {} (give --width and --height)",
            path.display(),
            book.board.width(),
            book.board.height(),
            args.width,
            args.height
        )
        .into());
    }
    if args.method == ConnectFourMethod::Table {
        return Err(format!(
            "{} is an opening book, read by the search: use --method search (or auto) with it",
            path.display()
        )
        .into());
    }
    Ok(Some(book))
}

/// The opening book that comes with perfect-play, when this board has one and neither
/// `--no-book`, `--db` nor the table method leaves it out (with why it was refused, if it
/// was damaged: the search then goes on without it).
fn shipped_of(args: &ConnectFourArgs) -> Option<Result<&'static BookFile, &'static QueryError>> {
    if args.no_book || args.db.is_some() || args.method == ConnectFourMethod::Table {
        return None;
    }
    connect_four::shipped_book(&ConnectFour::new(args.width, args.height).ok()?)
}

/// The memory a book's positions may be listed in when it is read.
const BOOK_LISTING_BYTES: u64 = 2 << 30;

/// The search's answer, from the book when there is one; its `database` object says which.
fn searched(
    board: ConnectFour,
    book: Option<&BookFile>,
    budget: &Budget,
) -> Result<Searcher, CommandError> {
    let mut searcher = Searcher::new(board, connect_four::table_bytes(budget))?;
    if let Some(book) = book {
        searcher.set_book(book.book.clone());
    }
    Ok(searcher)
}

/// The `database` object of an answer the book `--db` names took part in.
fn book_json(args: &ConnectFourArgs, book: &BookFile) -> serde_json::Value {
    let path = args.db.as_deref().unwrap_or(std::path::Path::new(""));
    let mut json = database_json(path, book.bytes, book.book.len() as u64, true, false, 0);
    json["book_plies"] = serde_json::json!(book.plies);
    json
}

/// What an answer says of its books: `database` for the one `--db` names, and what
/// [`connect_four::note_shipped`] says of the shipped one.
fn add_book_json(
    args: &ConnectFourArgs,
    given: Option<&BookFile>,
    shipped: Option<Result<&BookFile, &QueryError>>,
    answer: &mut Answer,
) {
    if let Some(book) = given {
        answer
            .details
            .insert("database".into(), book_json(args, book));
    }
    connect_four::note_shipped(answer, shipped);
}

/// The method the arguments ask for, `auto` resolved on the board; a database is the table's.
fn method_of(args: &ConnectFourArgs, board: &ConnectFour) -> Result<Method, CommandError> {
    let asked = match args.method {
        ConnectFourMethod::Table => Method::Table,
        ConnectFourMethod::Search => Method::Search,
        ConnectFourMethod::Auto if args.db.is_some() => Method::Table,
        ConnectFourMethod::Auto => Method::Auto,
    };
    if asked == Method::Search && args.db.is_some() {
        return Err("--db holds the engine's table of the whole board: use --method table (or auto) with it".into());
    }
    if args.max_nodes.is_some() && asked.resolve(board) == Method::Table {
        return Err("--max-nodes bounds the search: add --method search (this board is answered from its table)".into());
    }
    Ok(asked.resolve(board))
}

pub fn run(args: &ConnectFourArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    let board = ConnectFour::new(args.width, args.height)?;
    let book = book_of(args, budget)?;
    let shipped = shipped_of(args);
    if book.is_some() || method_of(args, &board)? == Method::Search {
        let read = book.as_ref().or(shipped.and_then(Result::ok));
        let searcher = searched(board, read, budget)?;
        let mut answer = searcher.answer(
            &args.moves,
            budget,
            args.max_nodes,
            usize::from(args.threads),
        )?;
        add_book_json(args, book.as_ref(), shipped, &mut answer);
        return Ok(output(args, &answer, None));
    }
    let game: &dyn EngineGame = &board;
    game.check_position(Some(&args.moves))?;
    let (solution, positions, passes, database) = table(args, &board, budget, quiet)?;
    let position = Some(args.moves.as_str());
    let read = match (&solution, &args.db) {
        (Some(solution), _) => game.answer(position, &mut |i| solution.record(i))?,
        (None, Some(path)) => {
            let mut db = open_database(game, path)?;
            read_database(game, &mut db, position)?
        }
        (None, None) => unreachable_table()?,
    };
    let mut answer = answers::answer_of(&read, database);
    connect_four::add_board(&mut answer, &board, &args.moves)?;
    connect_four::add_table(&mut answer, &board, positions, passes);
    let picture = read.picture.clone();
    Ok(output(args, &answer, Some((picture, positions))))
}

/// A table is either solved here or read from a database: never neither.
fn unreachable_table<T>() -> Result<T, CommandError> {
    Err("no table to read: neither solved nor a database".into())
}

/// The board's table: solved in memory, solved into a database, or (None) in a database
/// that exists, with its positions and passes and the database's JSON object.
fn table(
    args: &ConnectFourArgs,
    board: &ConnectFour,
    budget: &Budget,
    quiet: bool,
) -> Result<(Option<Solution>, u64, u32, Option<serde_json::Value>), CommandError> {
    let game: &dyn EngineGame = board;
    no_files_under_small_budget(budget, args.db.as_deref())?;
    let limit = budget.memory(2 << 30);
    let existing = args.db.as_ref().filter(|p| p.exists());
    if existing.is_none() {
        refuse_if_too_large(game, limit, budget)?;
    }
    let options = Options {
        memory_limit: limit,
        threads: usize::from(args.threads),
        ..Options::default()
    };
    Ok(match (&args.db, existing) {
        (_, Some(path)) => {
            let db = open_database(game, path)?;
            let json = database_json(path, db.bytes, db.header.positions, true, false, 0);
            (None, db.header.positions, 0, Some(json))
        }
        (Some(path), None) => {
            let (solution, bytes) = solve_into_database(game, path, &options, quiet)?;
            let json = database_json(
                path,
                bytes,
                solution.positions,
                false,
                solution.resumed,
                solution.already_solved,
            );
            let (positions, passes) = (solution.positions, solution.passes);
            (Some(solution), positions, passes, Some(json))
        }
        (None, _) => {
            let solution = solve_with_bar(game, &options, None, quiet)?;
            let (positions, passes) = (solution.positions, solution.passes);
            (Some(solution), positions, passes, None)
        }
    })
}

/// `--batch`: one position a line, one JSON object a line; the search keeps its table from
/// line to line and answers lines side by side (written in order), the table method solves
/// the board once.
pub fn batch(args: &ConnectFourArgs, budget: &Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let board = ConnectFour::new(args.width, args.height)?;
    let threads = usize::from(args.threads);
    let book = book_of(args, budget)?;
    let shipped = shipped_of(args);
    if book.is_some() || method_of(args, &board)? == Method::Search {
        let read = book.as_ref().or(shipped.and_then(Result::ok));
        let searcher = searched(board, read, budget)?;
        // Positions side by side, one table: two lines on two cores keep both busy better
        // than one line's tree split between them.
        return batch_lines_side_by_side(io, threads, |line| {
            let mut answer = searcher.answer(line.trim(), budget, args.max_nodes, threads)?;
            add_book_json(args, book.as_ref(), shipped, &mut answer);
            Ok(answer.to_json())
        });
    }
    let (solution, positions, passes, database) = table(args, &board, budget, true)?;
    // One database read a line: the file handle is the closure's to use mutably.
    let db = std::cell::RefCell::new(match (&solution, &args.db) {
        (None, Some(path)) => Some(open_database(&board, path)?),
        _ => None,
    });
    let game: &dyn EngineGame = &board;
    batch_lines(io, |line| {
        let position = Some(line.trim());
        game.check_position(position)?;
        let mut db = db.borrow_mut();
        let read = match (&solution, db.as_mut()) {
            (Some(solution), _) => game.answer(position, &mut |i| solution.record(i))?,
            (None, Some(db)) => read_database(game, db, position)?,
            (None, None) => unreachable_table()?,
        };
        let mut answer = answers::answer_of(&read, database.clone());
        connect_four::add_board(&mut answer, &board, line.trim())?;
        connect_four::add_table(&mut answer, &board, positions, passes);
        Ok(answer.to_json())
    })
}

/// The text and JSON of an answer; `table` is the picture and the table's positions when the
/// table answered (the search's answer carries its picture in no field).
fn output(args: &ConnectFourArgs, answer: &Answer, table: Option<(String, u64)>) -> Output {
    let json = answer.to_json();
    let mark = if answer.to_move == perfect_play::registry::Side::First {
        "x"
    } else {
        "o"
    };
    let mut text = format!(
        "Connect Four, {} x {} (columns 1-{}, x moves first):\n",
        args.width, args.height, args.width
    );
    let picture = match &table {
        Some((picture, _)) => picture.clone(),
        None => picture_of(args),
    };
    text.push_str(&picture);
    text.push_str(&result_sentence(
        answer.to_move,
        Some(mark),
        answer.outcome,
        answer.remoteness,
        None,
    ));
    match &table {
        Some((_, positions)) => text.push_str(&format!("\nPositions in the table: {positions}.\n")),
        None if answer.method == "book" => text.push_str(&format!(
            "\nRead from the opening book ({} positions{}) in {:.3} s.\n",
            json["book_positions"],
            if json["book"]["shipped"] == true {
                ", shipped with perfect-play"
            } else {
                ""
            },
            json["seconds"].as_f64().unwrap_or(0.0),
        )),
        None => text.push_str(&format!(
            "\nSearched {} nodes in {:.3} s (a table of {}).\n",
            json["nodes"],
            json["seconds"].as_f64().unwrap_or(0.0),
            perfect_play::parse::human_size(json["table_bytes"].as_u64().unwrap_or(0)),
        )),
    }
    if let Some(refused) = json["book_refused"].as_str() {
        text.push_str(&format!(
            "The opening book was refused ({refused}): searched without it.\n"
        ));
    }
    for m in &answer.moves {
        text.push_str(&format!(
            "  column {}: {}\n",
            m.mv,
            verdict_of(m.outcome, m.remoteness)
        ));
    }
    if let Some(line) = answer.best_line.as_ref().filter(|l| !l.is_empty()) {
        let line: Vec<String> = line.iter().map(ToString::to_string).collect();
        let through = if json["best_line_complete"] == false {
            " (to the book's edge; ask the position there for the rest)"
        } else {
            ""
        };
        text.push_str(&format!("Best line{through}: {}\n", line.join(" ")));
    }
    Output { text, json }
}

/// The board after the moves, drawn (the moves parsed already).
fn picture_of(args: &ConnectFourArgs) -> String {
    use perfect_play::registry::BoardGame;
    ConnectFour::new(args.width, args.height)
        .ok()
        .and_then(|board| {
            board
                .parse_position(&args.moves)
                .ok()
                .map(|b| board.picture(&b))
        })
        .unwrap_or_default()
}
