//! Connect Four: a small board's table solved in memory by the engine and read at the
//! position after the moves played, or any board (7 x 6 by default) answered by the exact
//! search from that position.

use super::engine;
use crate::budget::Budget;
use crate::engine::database::{self, BookHeader, Header};
use crate::engine::{BYTES_PER_POSITION, Database, IndexedGame, Record, Solution};
use crate::games::connect_four::search::{Bitboards, Bits, Discs, fits_64_bits};
use crate::games::connect_four::{ConnectFour, parse_columns};
use crate::parse;
use crate::registry::{
    Answer, BoardGame, EngineGame, MoveAnswer, MoveName, Params, PositionAnswer, QueryError,
};
use crate::search::{
    After, Analysed, Analysis, Book, BookError, Bounds, Limits, MoveScore, ScoreGame, Search,
    StopReason, Stopped, Unfinished, book,
};
use serde_json::json;
use std::str::FromStr;
use std::time::Instant;

/// The board when none is given: the standard one.
pub const DEFAULT_WIDTH: u32 = 7;
/// The board when none is given: the standard one.
pub const DEFAULT_HEIGHT: u32 = 6;

/// The search's transposition table without `--memory-limit`: larger tables cost page
/// faults and cache misses that a position of a dozen plies or more does not repay
/// (BENCHMARKS.md: 4453 took 10.9 s with 16 MiB, 14.5 s with 256 MiB, on one core).
pub const SEARCH_TABLE_BYTES: u64 = 64 << 20;
/// The search's table at most, whatever the memory limit (the start of 7 x 6 is solved
/// within it).
pub const MAX_SEARCH_TABLE_BYTES: u64 = 1 << 30;
/// The table of an answer under a time budget (the server's: many at once, each short).
pub const BUDGETED_TABLE_BYTES: u64 = 64 << 20;
/// Nodes a search may take before it asks the budget's admission for room (a few tens of
/// milliseconds): most positions finish within it and never wait.
const QUICK_NODES: u64 = 300_000;
/// Nodes a best line read from a book may take past the book's edge (about a third of a
/// second: an answer from the book stays quick when the line cannot be finished).
const LINE_NODES: u64 = 3_000_000;
/// The share of a time budget the search takes before it stops and says what it proved.
const DEADLINE_SHARE: f64 = 0.85;
/// The share of a time budget a best move's null-window tests may take, first, when the
/// position's score is known (its own tests usually take a fraction of it).
const BEST_MOVE_SHARE: f64 = 0.4;
/// The fuzzers' small mode: nodes and table.
const SMALL_NODES: u64 = 20_000;
const SMALL_TABLE_BYTES: u64 = 1 << 20;

/// How a position is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The engine's table of the whole board, solved in memory (or read from a database).
    Table,
    /// The exact search from the position.
    Search,
    /// The table when the board solves in about a second, else the search.
    Auto,
}

impl FromStr for Method {
    type Err = QueryError;
    fn from_str(text: &str) -> Result<Method, QueryError> {
        match text {
            "table" => Ok(Method::Table),
            "search" => Ok(Method::Search),
            "auto" => Ok(Method::Auto),
            other => Err(QueryError::BadInput(format!(
                "method {:?} is not one of table, search, auto",
                parse::shorten(other)
            ))),
        }
    }
}

impl Method {
    /// The method `Auto` stands for on `board`: the table when its solve is estimated at a
    /// second or less, else the search.
    #[must_use]
    pub fn resolve(self, board: &ConnectFour) -> Method {
        match self {
            Method::Auto => {
                let seconds =
                    IndexedGame::index_count(board) as f64 / BoardGame::indices_per_second(board);
                if seconds <= 1.0 {
                    Method::Table
                } else {
                    Method::Search
                }
            }
            chosen => chosen,
        }
    }
}

/// The board's own fields of an answer: its size and the columns played.
///
/// # Errors
/// Moves that do not parse.
pub fn add_board(answer: &mut Answer, board: &ConnectFour, moves: &str) -> Result<(), QueryError> {
    let played = parse_columns(moves).map_err(QueryError::bad)?;
    answer.details.insert("width".into(), json!(board.width()));
    answer
        .details
        .insert("height".into(), json!(board.height()));
    answer.details.insert("moves_played".into(), json!(played));
    Ok(())
}

/// The table's own fields of an answer: its indices, the positions in it and its passes.
pub fn add_table(answer: &mut Answer, board: &ConnectFour, positions_in_table: u64, passes: u32) {
    answer
        .details
        .insert("indices".into(), json!(IndexedGame::index_count(board)));
    answer
        .details
        .insert("bytes_per_position".into(), json!(BYTES_PER_POSITION));
    answer
        .details
        .insert("positions_in_table".into(), json!(positions_in_table));
    answer.details.insert("passes".into(), json!(passes));
}

/// The board of the parameters (`width`, `height`; 7 x 6 by default).
///
/// # Errors
/// A size the bitboards do not hold.
pub fn board_of(params: &Params) -> Result<ConnectFour, QueryError> {
    let width = params.integer("width").unwrap_or(u64::from(DEFAULT_WIDTH)) as u32;
    let height = params
        .integer("height")
        .unwrap_or(u64::from(DEFAULT_HEIGHT)) as u32;
    ConnectFour::new(width, height).map_err(QueryError::bad)
}

/// The registry's answer: `width` and `height`, `method`, `position` the columns played.
///
/// # Errors
/// A board or moves not accepted, a table over the memory limit or the budget, or a search
/// that the budget's deadline stopped (with what it had proven).
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let board = board_of(params)?;
    let shipped = match params.text("book").unwrap_or("shipped") {
        "shipped" => shipped_book(&board),
        "none" => None,
        other => {
            return Err(QueryError::BadInput(format!(
                "book {other:?}: shipped (the opening book that comes with perfect-play) or none (search from scratch)"
            )));
        }
    };
    answer_with_shipped(params, position, budget, shipped)
}

/// [`answer`] with the shipped book as found (`None`: not of this board, or left out).
fn answer_with_shipped(
    params: &Params,
    position: &str,
    budget: &Budget,
    shipped: Option<Result<&BookFile, &QueryError>>,
) -> Result<Answer, QueryError> {
    let book = shipped.and_then(Result::ok);
    let mut answer = answer_with_book(params, position, budget, book)?;
    note_shipped(&mut answer, shipped);
    Ok(answer)
}

/// What an answer says of the shipped book: `book` when the search read it, `book_refused`
/// (its path and why) when it was damaged and left out.
pub fn note_shipped(answer: &mut Answer, shipped: Option<Result<&BookFile, &QueryError>>) {
    match shipped {
        Some(Ok(book)) if answer.method != "table" => {
            answer.details.insert("book".into(), shipped_json(book));
        }
        Some(Err(refused)) => {
            answer
                .details
                .insert("book_refused".into(), json!(refused.to_string()));
        }
        _ => {}
    }
}

/// Where the opening book that comes with perfect-play is kept in its repository (it is
/// built into the program from there: found without a flag by every front end).
pub const SHIPPED_BOOK_PATH: &str = "crates/perfect-play/data/connect-four-7x6.ppdb";

/// The shipped book's bytes, as `perfect-play book connect-four` wrote them (BENCHMARKS.md
/// has the command, its time and the file's digest).
const SHIPPED_BOOK: &[u8] = include_bytes!("../../../data/connect-four-7x6.ppdb");

/// The memory the shipped book's positions are listed in (38,203 positions to 7 plies, a
/// few megabytes).
const SHIPPED_LISTING_BYTES: u64 = 64 << 20;

/// The opening book that comes with perfect-play, when it is of `board` (7 x 6): read and
/// checked once, then shared. A damaged one is refused with its path (the search then goes
/// on without it).
#[must_use]
pub fn shipped_book(board: &ConnectFour) -> Option<Result<&'static BookFile, &'static QueryError>> {
    static SHIPPED: std::sync::OnceLock<Result<BookFile, QueryError>> = std::sync::OnceLock::new();
    if (board.width(), board.height()) != (DEFAULT_WIDTH, DEFAULT_HEIGHT) {
        return None;
    }
    Some(
        SHIPPED
            .get_or_init(|| {
                book_from_static(
                    std::path::Path::new(SHIPPED_BOOK_PATH),
                    SHIPPED_BOOK,
                    SHIPPED_LISTING_BYTES,
                )
            })
            .as_ref(),
    )
}

/// The `book` object of an answer the shipped book took part in.
fn shipped_json(book: &BookFile) -> serde_json::Value {
    json!({
        "path": SHIPPED_BOOK_PATH,
        "plies": book.plies,
        "positions": book.book.len(),
        "bytes": book.bytes,
        "shipped": true,
    })
}

/// [`answer`], the search reading `book` first when it is a book of the board asked about
/// (method `book` when it holds the position and its moves).
///
/// # Errors
/// As [`answer`].
pub fn answer_with_book(
    params: &Params,
    position: &str,
    budget: &Budget,
    book: Option<&BookFile>,
) -> Result<Answer, QueryError> {
    let board = board_of(params)?;
    let method = params.text("method").unwrap_or("auto").parse::<Method>()?;
    let book = book.filter(|b| {
        (b.board.width(), b.board.height()) == (board.width(), board.height())
            && method != Method::Table
    });
    match book.map_or(method.resolve(&board), |_| Method::Search) {
        Method::Search => {
            let mut searcher = Searcher::new(board, table_bytes(budget))?;
            if let Some(book) = book {
                searcher.set_book(book.book.clone());
            }
            searcher.answer(position, budget, None, 0)
        }
        _ => {
            let (read, solution): (_, Solution) =
                engine::in_memory(&board, Some(position), 0, budget, &|_| {})?;
            let mut answer = engine::answer_of(&read, None);
            add_board(&mut answer, &board, position)?;
            add_table(&mut answer, &board, solution.positions, solution.passes);
            Ok(answer)
        }
    }
}

/// The search's table under `budget`: [`SEARCH_TABLE_BYTES`], or the memory limit's worth
/// up to [`MAX_SEARCH_TABLE_BYTES`]; under a time budget (the server's, many answers at
/// once) at most [`BUDGETED_TABLE_BYTES`].
#[must_use]
pub fn table_bytes(budget: &Budget) -> u64 {
    if budget.small {
        return SMALL_TABLE_BYTES;
    }
    if budget.seconds.is_some() {
        return budget
            .memory(BUDGETED_TABLE_BYTES)
            .min(BUDGETED_TABLE_BYTES);
    }
    budget
        .memory(SEARCH_TABLE_BYTES)
        .min(MAX_SEARCH_TABLE_BYTES)
}

/// The search of `board` on words of `B` (`u64` when the board fits 64 bits, see
/// [`fits_64_bits`]; `u128` for any board) with a table of at most `table_bytes`.
///
/// # Errors
/// A table that the memory limit cannot hold or the machine cannot allocate.
pub fn search_of<B: Bits>(
    board: &ConnectFour,
    table_bytes: u64,
) -> Result<Search<Bitboards<B>>, QueryError> {
    Search::new(Bitboards::new(board), table_bytes)
        .map_err(|e| QueryError::OverMemory(e.to_string()))
}

/// A board's search, its table kept from one position to the next (a batch's lines).
#[derive(Debug)]
pub struct Searcher {
    board: ConnectFour,
    search: WordSearch,
}

/// The search on the board's word: 64 bits where the board fits them (as fast as before
/// wider boards came), else 128.
#[derive(Debug)]
enum WordSearch {
    Narrow(Search<Bitboards<u64>>),
    Wide(Search<Bitboards<u128>>),
}

impl Searcher {
    /// The search of `board` with a table of at most `table_bytes`.
    ///
    /// # Errors
    /// A table that the memory limit cannot hold or the machine cannot allocate.
    pub fn new(board: ConnectFour, table_bytes: u64) -> Result<Searcher, QueryError> {
        let search = if fits_64_bits(&board) {
            WordSearch::Narrow(search_of(&board, table_bytes)?)
        } else {
            WordSearch::Wide(search_of(&board, table_bytes)?)
        };
        Ok(Searcher { board, search })
    }

    /// Answer from `book` where it holds the position and its moves, and let the search
    /// stop where it reaches the book.
    pub fn set_book(&mut self, book: std::sync::Arc<Book>) {
        match &mut self.search {
            WordSearch::Narrow(search) => search.set_book(book),
            WordSearch::Wide(search) => search.set_book(book),
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &ConnectFour {
        &self.board
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> u64 {
        match &self.search {
            WordSearch::Narrow(search) => search.table().bytes(),
            WordSearch::Wide(search) => search.table().bytes(),
        }
    }

    /// The position after the columns `position`, read from the search: its value, every
    /// column's best first, a best line, with the nodes and seconds it took.
    ///
    /// # Errors
    /// Moves not accepted; a search stopped by the node budget (`max_nodes`) or by the
    /// budget's cancel flag (past a time budget: [`QueryError::OverBudget`] with the bounds
    /// proven so far).
    pub fn answer(
        &self,
        position: &str,
        budget: &Budget,
        max_nodes: Option<u64>,
        threads: usize,
    ) -> Result<Answer, QueryError> {
        match &self.search {
            WordSearch::Narrow(search) => {
                self.answer_in(search, position, budget, max_nodes, threads)
            }
            WordSearch::Wide(search) => {
                self.answer_in(search, position, budget, max_nodes, threads)
            }
        }
    }

    /// [`Searcher::answer`] with the search on the board's word.
    fn answer_in<B: Bits>(
        &self,
        search: &Search<Bitboards<B>>,
        position: &str,
        budget: &Budget,
        max_nodes: Option<u64>,
        threads: usize,
    ) -> Result<Answer, QueryError> {
        let started = Instant::now();
        let board = &self.board;
        let parsed = board.parse_position(position).map_err(QueryError::bad)?;
        let rules = search.game();
        let discs = rules.discs(&parsed);
        let max_nodes = if budget.small {
            Some(max_nodes.unwrap_or(SMALL_NODES).min(SMALL_NODES))
        } else {
            max_nodes
        };
        if let Some(mut analysis) = search.analyse_in_book(&discs) {
            let nodes = if analysis.best_line_complete {
                0
            } else {
                finish_line(search, &discs, &mut analysis, budget, started)
            };
            let mut answer = self.answer_of(
                search, position, &parsed, &discs, &analysis, "book", started,
            )?;
            // The search's nodes carrying the best line past the book's edge, if any.
            answer.details.insert("nodes".into(), json!(nodes));
            return Ok(answer);
        }
        let mut limits = Limits {
            // Node limits count this question's nodes alone (a batch's lines may be
            // answered side by side by one searcher).
            nodes: Some(max_nodes.unwrap_or(QUICK_NODES).min(QUICK_NODES)),
            cancel: budget.cancel.clone(),
            // Stop a little before the time budget runs out, so that the answer can say what
            // was proven before the caller's own deadline cuts it off.
            deadline: budget
                .seconds
                .map(|s| started + std::time::Duration::from_secs_f64(s * DEADLINE_SHARE)),
            threads,
        };
        // Under a time budget, a position whose score is known (the book's edge) has a best
        // move found first, by null-window tests alone, so that the answer can play it
        // even when every column's exact value does not fit the budget.
        let first_best =
            budget
                .seconds
                .zip(search.known_score(&discs))
                .and_then(|(seconds, score)| {
                    let quick = Limits {
                        nodes: None,
                        deadline: Some(
                            started + std::time::Duration::from_secs_f64(seconds * BEST_MOVE_SHARE),
                        ),
                        ..limits.clone()
                    };
                    search.best_move_for_score(&discs, score, &quick).ok()?
                });
        let nodes_of = |analysis: &Analysed<Bitboards<B>>| {
            analysis
                .as_ref()
                .map_or_else(|u| u.stopped.nodes, |a| a.nodes)
        };
        let mut analysis = search.analyse_keeping_decided(&discs, &limits);
        let mut nodes = nodes_of(&analysis);
        if let Err(Unfinished {
            stopped:
                Stopped {
                    reason: StopReason::Nodes,
                    ..
                },
            ..
        }) = analysis
            && max_nodes.is_none_or(|n| n > QUICK_NODES)
        {
            // Long work: wait for room as the budget's admission says, then go on from the
            // table the first try filled.
            budget.admit(budget.seconds.unwrap_or(f64::INFINITY))?;
            limits.nodes = max_nodes.map(|n| n.saturating_sub(nodes));
            analysis = search.analyse_keeping_decided(&discs, &limits);
            nodes += nodes_of(&analysis);
        }
        let seconds = started.elapsed().as_secs_f64();
        let (analysis, complete) = match analysis {
            Ok(analysis) => (analysis, true),
            Err(unfinished) => match best_known(search, &discs, &unfinished, first_best, budget) {
                // Every move may be decided with only the best line cut short.
                Some(partial) => {
                    let complete = partial.moves.len() == rules.moves(&discs).len();
                    (partial, complete)
                }
                None => {
                    return Err(self.stopped(
                        rules,
                        position,
                        &discs,
                        unfinished.stopped,
                        nodes,
                        seconds,
                        budget,
                    ));
                }
            },
        };
        let mut answer = self.answer_of(
            search, position, &parsed, &discs, &analysis, "search", started,
        )?;
        answer.moves_complete = complete;
        answer.details.insert("nodes".into(), json!(nodes));
        Ok(answer)
    }

    /// The answer of an analysis found by `method` (`search` or `book`).
    #[allow(clippy::too_many_arguments)]
    fn answer_of<B: Bits>(
        &self,
        search: &Search<Bitboards<B>>,
        position: &str,
        parsed: &crate::games::connect_four::Board,
        discs: &Discs<B>,
        analysis: &crate::search::Analysis<u32, Discs<B>>,
        method: &str,
        started: Instant,
    ) -> Result<Answer, QueryError> {
        let board = &self.board;
        let rules = search.game();
        let (outcome, remoteness) = rules.value_of(discs.moves, analysis.score);
        let moves: Vec<MoveAnswer> = analysis
            .moves
            .iter()
            .map(|m| {
                let (outcome, plies) = rules.value_of(discs.moves, m.score);
                let (ends_game, after) = match m.after {
                    After::Ends(_) => (true, None),
                    After::Continue(next) => (
                        false,
                        board.notation_after(position, &rules.board(&next), &m.mv),
                    ),
                };
                MoveAnswer {
                    name: MoveName::Number(m.mv + 1),
                    outcome,
                    // The move's value counts it: one ply more than the value of the position it
                    // leads to, which the score already tells from before the move.
                    remoteness: Some(plies),
                    ends_game,
                    position: after,
                }
            })
            .collect();
        let read = PositionAnswer {
            game: EngineGame::name(board),
            variant: BoardGame::variant(board),
            first_to_move: board.first_to_move(parsed),
            outcome,
            remoteness: Some(remoteness),
            moves,
            best_line: analysis
                .best_line
                .iter()
                .map(|&c| MoveName::Number(c + 1))
                .collect(),
            position: board.notation_given(position, parsed),
            picture: board.picture(parsed),
        };
        let mut answer = engine::answer_of(&read, None);
        answer.method = method.into();
        add_board(&mut answer, board, position)?;
        answer.details.insert("nodes".into(), json!(0));
        answer
            .details
            .insert("seconds".into(), json!(started.elapsed().as_secs_f64()));
        answer.details.insert(
            "best_line_complete".into(),
            json!(analysis.best_line_complete),
        );
        if !search.book().is_empty() {
            answer
                .details
                .insert("book_positions".into(), json!(search.book().len()));
        }
        answer
            .details
            .insert("table_bytes".into(), json!(self.table_bytes()));
        Ok(answer)
    }

    /// The refusal of a search that stopped: what it proved, in words.
    #[allow(clippy::too_many_arguments)]
    fn stopped<B: Bits>(
        &self,
        rules: &Bitboards<B>,
        position: &str,
        discs: &Discs<B>,
        stopped: Stopped,
        nodes: u64,
        seconds: f64,
        budget: &Budget,
    ) -> QueryError {
        let what = format!(
            "searching Connect Four {} x {} after {} ({nodes} nodes in {seconds:.1} s; proven so far: {})",
            self.board.width(),
            self.board.height(),
            if position.trim().is_empty() {
                "no moves".to_string()
            } else {
                parse::shorten(position)
            },
            proven(rules, discs.moves, stopped.bounds),
        );
        match (stopped.reason, budget.seconds) {
            (StopReason::Nodes, _) => QueryError::Unfinished(format!(
                "the search stopped at its node budget, {what}; raise --max-nodes or drop it"
            )),
            (StopReason::Cancelled | StopReason::Deadline, Some(limit)) => {
                QueryError::OverBudget(crate::budget::OverBudget {
                    what,
                    estimate: seconds.max(limit),
                    at_least: true,
                    budget: limit,
                })
            }
            (StopReason::Cancelled | StopReason::Deadline, None) => {
                QueryError::Cancelled(crate::budget::Cancelled)
            }
        }
    }
}

/// What a search the time budget ended can still answer: when the position's exact score
/// is known (from the book, or proven by the tests) and a move decided before the deadline
/// keeps it, the position's value with the moves decided (best first, a best one among
/// them), so that the page can show the value and play the perfect move at once instead of
/// refusing. None without a time budget (a command line's search runs to its end), for a
/// node budget, or when no decided move is known to be best.
fn best_known<B: Bits>(
    search: &Search<Bitboards<B>>,
    discs: &Discs<B>,
    unfinished: &Unfinished<u32, Discs<B>>,
    first_best: Option<MoveScore<u32, Discs<B>>>,
    budget: &Budget,
) -> Option<Analysis<u32, Discs<B>>> {
    let stopped = &unfinished.stopped;
    if budget.seconds.is_none() || stopped.reason == StopReason::Nodes {
        return None;
    }
    let proven = (stopped.bounds.lower == stopped.bounds.upper).then_some(stopped.bounds.lower);
    let score = search.known_score(discs).or(proven)?;
    let mut moves = unfinished.decided.clone();
    // The best move found before the analysis, when the analysis did not decide one.
    if let Some(first) = first_best.filter(|m| m.score == score)
        && moves.first().is_none_or(|m| m.score != score)
    {
        moves.insert(0, first);
    }
    let best = moves.first().filter(|m| m.score == score)?.mv;
    Some(Analysis {
        score,
        moves,
        best_line: vec![best],
        best_line_complete: false,
        nodes: stopped.nodes,
    })
}

/// A best line read from the book, carried past the book's edge by the search when that
/// takes at most [`LINE_NODES`] nodes (and the budget's time); else left at the edge. The
/// nodes it took.
fn finish_line<B: Bits>(
    search: &Search<Bitboards<B>>,
    discs: &Discs<B>,
    analysis: &mut crate::search::Analysis<u32, Discs<B>>,
    budget: &Budget,
    started: Instant,
) -> u64 {
    let rules = search.game();
    let mut edge = *discs;
    let mut score = analysis.score;
    for &column in &analysis.best_line {
        let next = rules.moves(&edge).into_iter().find(|&(c, _)| c == column);
        match next {
            Some((_, After::Continue(p))) => {
                edge = p;
                score = -score;
            }
            _ => return 0,
        }
    }
    let limits = Limits {
        nodes: Some(if budget.small {
            SMALL_NODES
        } else {
            LINE_NODES
        }),
        cancel: budget.cancel.clone(),
        deadline: budget
            .seconds
            .map(|s| started + std::time::Duration::from_secs_f64(s * DEADLINE_SHARE)),
        threads: 0,
    };
    match search.line_from_score(&edge, score, &limits) {
        Ok((rest, nodes)) => {
            analysis.best_line.extend(rest);
            analysis.best_line_complete = true;
            nodes
        }
        Err(stopped) => stopped.nodes,
    }
}

/// What score bounds say about the player to move, in words: "a win in at most 13 plies",
/// "at least a tie", "anything from a loss in 20 plies or more to a win in 9 or more".
#[must_use]
pub fn proven<B: Bits>(rules: &Bitboards<B>, moves: u32, bounds: Bounds) -> String {
    let plies = |score: i32| rules.value_of(moves, score).1;
    let Bounds { lower, upper } = bounds;
    if lower > 0 {
        format!("a win in at most {} plies", plies(lower))
    } else if lower == 0 && upper == 0 {
        "a tie".into()
    } else if lower == 0 {
        format!(
            "at least a tie (a win, if any, in {} plies or more)",
            plies(upper)
        )
    } else if upper < 0 {
        format!("a loss in at most {} plies", plies(upper))
    } else if upper == 0 {
        format!(
            "at best a tie (a loss, if any, in {} plies or more)",
            plies(lower)
        )
    } else {
        format!(
            "nothing yet beyond the board's limits: from a loss in {} plies or more to a win in {} or more",
            plies(lower),
            plies(upper)
        )
    }
}

/// An opening book of a board: every position within `plies` plies of the empty board (one
/// per key, so one per mirror pair below ten discs) with its exact score, kept in the
/// engine's database format (see [`write_book`]).
#[derive(Debug)]
pub struct BookFile {
    /// The board.
    pub board: ConnectFour,
    /// Plies from the empty board it covers.
    pub plies: u32,
    /// The scores.
    pub book: std::sync::Arc<Book>,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// The positions of a book of `plies` plies on `board`, listed within `memory_limit`, on
/// words of `B` (see [`search_of`]).
///
/// # Errors
/// More positions than the memory limit lists ([`QueryError::OverMemory`], with the count).
pub fn book_positions<B: Bits>(
    board: &ConnectFour,
    plies: u32,
    memory_limit: u64,
) -> Result<Vec<Discs<B>>, QueryError> {
    let rules = Bitboards::new(board);
    let start = rules.discs(&crate::game::Game::start(board));
    book::positions(
        &rules,
        &start,
        plies,
        memory_limit / book::BYTES_PER_LISTED_POSITION,
    )
    .map_err(|e| QueryError::OverMemory(e.to_string()))
}

/// The header of a book of `positions` on `board`.
fn book_header<B: Bits>(board: &ConnectFour, plies: u32, positions: &[Discs<B>]) -> Header {
    let rules = Bitboards::<B>::new(board);
    Header {
        game: BoardGame::name(board).into(),
        variant: format!("{}, book of {plies} plies", BoardGame::variant(board)),
        indices: positions.len() as u64,
        positions: positions.len() as u64,
        block_records: database::BLOCK_RECORDS,
        params: BoardGame::params(board)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        book: Some(BookHeader {
            plies,
            keys_crc32: book::digest(&rules, positions),
        }),
    }
}

/// Write a book: `positions` as [`book_positions`] lists them and their scores, as engine
/// records (outcome and remoteness for the player to move) in the same order. Returns the
/// file's size.
///
/// # Errors
/// A file that cannot be written, or scores that are not the positions'.
pub fn write_book<B: Bits>(
    path: &std::path::Path,
    board: &ConnectFour,
    plies: u32,
    positions: &[Discs<B>],
    scores: &[i32],
) -> Result<u64, QueryError> {
    let rules = Bitboards::<B>::new(board);
    if positions.len() != scores.len() {
        return Err(QueryError::bad(BookError::Mismatch(format!(
            "{} positions, {} scores",
            positions.len(),
            scores.len()
        ))));
    }
    let records: Vec<Record> = positions
        .iter()
        .zip(scores)
        .map(|(p, &s)| {
            let (outcome, plies) = rules.value_of(p.moves, s);
            Record::new(outcome, plies).unwrap_or(Record::HOLE)
        })
        .collect();
    Ok(database::write(
        path,
        &book_header(board, plies, positions),
        &records,
    )?)
}

/// Check before a book is built that it may be written at `path`: `Ok(false)` when nothing
/// is there, `Ok(true)` when the same book (game, board, plies and positions) is there
/// already; anything else (a link, a FIFO, a table, another book, any other file) is
/// refused and kept.
///
/// # Errors
/// [`QueryError::File`] saying what is there.
pub fn check_book_target<B: Bits>(
    path: &std::path::Path,
    board: &ConnectFour,
    plies: u32,
    positions: &[Discs<B>],
) -> Result<bool, QueryError> {
    database::check_writable(path, &book_header(board, plies, positions))?;
    Ok(crate::durable::readable(path)?.is_some())
}

/// Read a book written by [`write_book`]: its positions listed again (within
/// `memory_limit`) and checked against the file's digest, every block's checksum checked.
///
/// # Errors
/// A file that is not a Connect Four book, damaged, or of other positions.
pub fn open_book(path: &std::path::Path, memory_limit: u64) -> Result<BookFile, QueryError> {
    book_of_database(path, Database::open(path, true)?, memory_limit)
}

/// [`open_book`] of a book held in `bytes` (built into the program), named `path`.
///
/// # Errors
/// As [`open_book`].
pub fn book_from_static(
    path: &std::path::Path,
    bytes: &'static [u8],
    memory_limit: u64,
) -> Result<BookFile, QueryError> {
    book_of_database(
        path,
        Database::from_static(path, bytes, true)?,
        memory_limit,
    )
}

fn book_of_database(
    path: &std::path::Path,
    mut db: Database,
    memory_limit: u64,
) -> Result<BookFile, QueryError> {
    let header = db.header.clone();
    let Some(info) = header
        .book
        .clone()
        .filter(|_| header.game == "connect-four")
    else {
        return Err(QueryError::BadInput(format!(
            "{} holds {} {}, not a Connect Four opening book (perfect-play book connect-four writes one)",
            path.display(),
            header.game,
            header.variant
        )));
    };
    let param = |name: &str| {
        header
            .params
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, v)| v.parse::<u32>().ok())
    };
    let (Some(width), Some(height)) = (param("width"), param("height")) else {
        return Err(QueryError::BadInput(format!(
            "{}: the book does not say its board",
            path.display()
        )));
    };
    let board = ConnectFour::new(width, height).map_err(QueryError::bad)?;
    // 64-bit words where the board fits them, 128-bit ones past that.
    type ReadBook = fn(
        &std::path::Path,
        &mut Database,
        &ConnectFour,
        u32,
        u32,
        u64,
    ) -> Result<Book, QueryError>;
    let read: ReadBook = if fits_64_bits(&board) {
        book_of_records::<u64>
    } else {
        book_of_records::<u128>
    };
    let book = read(
        path,
        &mut db,
        &board,
        info.plies,
        info.keys_crc32,
        memory_limit,
    )?;
    Ok(BookFile {
        board,
        plies: info.plies,
        book: std::sync::Arc::new(book),
        bytes: db.bytes,
    })
}

/// The scores of a book's records, its positions listed again on words of `B` and checked
/// against the file's count and digest.
fn book_of_records<B: Bits>(
    path: &std::path::Path,
    db: &mut Database,
    board: &ConnectFour,
    plies: u32,
    keys_crc32: u32,
    memory_limit: u64,
) -> Result<Book, QueryError> {
    let header = db.header.clone();
    let positions = book_positions::<B>(board, plies, memory_limit)?;
    let rules = Bitboards::<B>::new(board);
    let mismatch = |why: String| {
        QueryError::BadInput(format!("{}: {}", path.display(), BookError::Mismatch(why)))
    };
    if positions.len() as u64 != header.positions || book::digest(&rules, &positions) != keys_crc32
    {
        return Err(mismatch(format!(
            "{} positions listed, {} in the file, or their keys differ",
            positions.len(),
            header.positions
        )));
    }
    let records = db.all_records()?;
    let scores = positions
        .iter()
        .zip(&records)
        .map(|(p, r)| match (r.outcome(), r.remoteness()) {
            (Some(outcome), Some(plies)) => Ok(rules.score_of(p.moves, outcome, plies)),
            _ => Err(mismatch("a record that is no value".into())),
        })
        .collect::<Result<Vec<i32>, _>>()?;
    Book::new(&rules, &positions, scores).map_err(|e| mismatch(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{After, ScoreGame};

    fn params(pairs: &[(&str, &str)]) -> Params {
        crate::registry::find("connect-four")
            .unwrap()
            .params_from(
                &pairs
                    .iter()
                    .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                    .collect::<Vec<_>>(),
            )
            .unwrap()
    }

    fn shipped() -> &'static BookFile {
        let board = ConnectFour::new(7, 6).unwrap();
        shipped_book(&board)
            .expect("a 7 x 6 book")
            .expect("read back whole")
    }

    /// The shipped book reads back, covers seven plies, and agrees with itself: every
    /// position inside its edge scores the best of its moves.
    #[test]
    fn the_shipped_book_reads_back_whole_and_consistent() {
        let book = shipped();
        assert!(book.plies >= 7, "{}", book.plies);
        let board = ConnectFour::new(7, 6).unwrap();
        let rules = Bitboards::<u64>::new(&board);
        let positions = book_positions(&board, book.plies, 1 << 30).unwrap();
        assert_eq!(positions.len(), book.book.len());
        for (p, &score) in positions.iter().zip(book.book.scores()) {
            if p.moves == book.plies {
                continue;
            }
            let best = rules
                .moves(p)
                .iter()
                .map(|(_, after)| match after {
                    After::Ends(s) => *s,
                    After::Continue(next) => -book
                        .book
                        .get(rules.depth(next), rules.key(next).into())
                        .unwrap(),
                })
                .max()
                .unwrap();
            assert_eq!(score, best, "{p:?}");
        }
        // The empty board: the first player wins with the 41st disc (Allen, Allis 1988).
        let empty = rules.discs(&board.empty());
        let score = book
            .book
            .get(rules.depth(&empty), rules.key(&empty).into())
            .unwrap();
        assert_eq!(rules.value_of(0, score), (crate::player::Outcome::Win, 41));
    }

    /// Its positions of four plies score as Christophe Steininger's verified test positions
    /// say (github.com/ChristopheSteininger/c4, tst/data/7x6/opening_L1.txt, columns 0-based
    /// there, 1-based here; the same scores as Pons'), and a sample searched here agrees.
    #[test]
    fn the_shipped_book_agrees_with_published_scores_and_the_search() {
        let book = shipped();
        let board = ConnectFour::new(7, 6).unwrap();
        let rules = Bitboards::<u64>::new(&board);
        let score_in_book = |moves: &str| {
            let columns = parse_columns(moves).unwrap();
            let discs = rules.discs(&board.play_columns(&columns).unwrap());
            book.book
                .get(rules.depth(&discs), rules.key(&discs).into())
                .unwrap()
        };
        // c4's "5035 18", "3626 18", "4433 18", "2532 18", "5030 18", "3144 18".
        for (moves, score) in [
            ("6146", 18),
            ("4737", 18),
            ("5544", 18),
            ("3643", 18),
            ("6141", 18),
            ("4255", 18),
        ] {
            assert_eq!(score_in_book(moves), score, "{moves}");
        }
        // A sample searched from scratch (nodes with 2 threads and this 64 MiB table): of
        // four plies, positions of 2 nodes, 1.0 M and 6.7 M (it held two of 77 M and 135 M
        // nodes, about 13 s of the suite); of five, two quick wins and a tie of 5.6 M nodes
        // (it held 15627 and 22611, not a few nodes each as once written but 85-94 M and
        // 300-416 M, 27 s of the suite on 2026-12-07); of six, the book's edge, a win in 2
        // nodes, one in 3,700 and a loss in 4.1 M (most of its losses and ties take 5-150 M
        // nodes); of seven, the book's edge since 2026-12-07, a loss in 2,300 nodes, one in
        // 0.6 M and a win of 1.4 M (24 random 7-ply positions took 0-18 M nodes each).
        let search = crate::search::Search::new(rules.clone(), 64 << 20).unwrap();
        for moves in [
            "6146", "3434", "4141", "51351", "16146", "44665", "521144", "425153", "743457",
            "4251535", "5354364", "5135152",
        ] {
            let columns = parse_columns(moves).unwrap();
            let discs = rules.discs(&board.play_columns(&columns).unwrap());
            let limits = crate::search::Limits {
                threads: 2,
                ..crate::search::Limits::default()
            };
            assert_eq!(
                search.score(&discs, &limits).unwrap(),
                score_in_book(moves),
                "{moves}"
            );
        }
    }

    /// Past the time budget (the page's), a position whose value is known and one of whose
    /// best moves was decided in time is answered with the moves decided (`moves_complete`
    /// false), not refused: the page still shows the value and plays a perfect move.
    #[test]
    fn a_search_out_of_time_answers_with_the_moves_decided_when_a_best_one_is_among_them() {
        // Ply 8, past the book: the first player wins at once in column 4; each other move
        // takes 0.5-4.7 M nodes to score exactly (13.3 M in all), far past 20 ms.
        let position = "11223377";
        let full = answer(&params(&[]), position, &Budget::default())
            .unwrap()
            .to_json();
        assert_eq!(full["moves_complete"], json!(true));
        assert_eq!(full["moves"].as_array().unwrap().len(), 7);
        let budget = Budget {
            seconds: Some(0.02),
            ..Budget::default()
        };
        let quick = answer(&params(&[]), position, &budget).unwrap().to_json();
        assert_eq!(quick["moves_complete"], json!(false), "{quick}");
        for field in ["outcome", "remoteness", "to_move", "position"] {
            assert_eq!(quick[field], full[field], "{field}");
        }
        let moves = quick["moves"].as_array().unwrap();
        assert!(!moves.is_empty() && moves.len() < 7, "{quick}");
        assert_eq!(moves[0]["move"], json!(4));
        assert_eq!(quick["best_line"], json!([4]));
        assert_eq!(quick["best_line_complete"], json!(false));
        // Each move listed has its exact value.
        for m in moves {
            let same = full["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["move"] == m["move"])
                .unwrap();
            assert_eq!(m, same);
        }
        // Without a move known to be best (the book off and the root's score unknown at a
        // position whose every move needs search), the refusal stands.
        let open = "4444";
        let refused = answer(&params(&[("book", "none")]), open, &budget).unwrap_err();
        assert!(matches!(refused, QueryError::OverBudget(_)), "{refused}");
    }

    /// At the book's edge the score is known without search, and a best move is found by
    /// null-window tests alone: after 7125671 (a win in 31 in the book; every column's exact
    /// value takes 260 M nodes, 10 s, columns 1 and 2 the most), column 5 keeps it.
    #[test]
    fn a_best_move_at_the_books_edge_is_found_from_the_books_score_alone() {
        let board = ConnectFour::new(7, 6).unwrap();
        let rules = Bitboards::<u64>::new(&board);
        let mut search = Search::new(rules.clone(), 64 << 20).unwrap();
        let discs = rules.discs(
            &board
                .play_columns(&parse_columns("7125671").unwrap())
                .unwrap(),
        );
        assert_eq!(search.known_score(&discs), None);
        search.set_book(shipped().book.clone());
        let score = search.known_score(&discs).unwrap();
        assert_eq!(
            rules.value_of(discs.moves, score),
            (crate::player::Outcome::Win, 31)
        );
        let limits = crate::search::Limits {
            threads: 2,
            ..crate::search::Limits::default()
        };
        let best = search
            .best_move_for_score(&discs, score, &limits)
            .unwrap()
            .unwrap();
        assert_eq!((best.mv + 1, best.score), (5, score));
        // A score the position does not have is kept by no move.
        assert!(
            search
                .best_move_for_score(&discs, score + 1, &limits)
                .unwrap()
                .is_none()
        );
    }

    /// The registry's answer reads the shipped book by default (the empty board at once),
    /// not with book=none, and goes on without a damaged one, saying why.
    #[test]
    fn answers_read_the_shipped_book_unless_told_not_to_or_it_is_damaged() {
        let budget = Budget::default();
        let empty = answer(&params(&[]), "", &budget).unwrap();
        assert_eq!(empty.method, "book");
        assert_eq!(empty.details["book"]["shipped"], json!(true));
        assert_eq!(empty.remoteness, Some(41));
        // Late positions are searched either way.
        let late = "7522763214663224332177546513";
        let none = answer(&params(&[("book", "none")]), late, &budget).unwrap();
        assert!(none.details.get("book").is_none());
        assert_eq!(none.method, "search");
        let Err(QueryError::BadInput(why)) = answer(&params(&[("book", "mine")]), late, &budget)
        else {
            panic!("book=mine accepted");
        };
        assert!(why.contains("shipped"), "{why}");
        let damaged = book_from_static(
            std::path::Path::new(SHIPPED_BOOK_PATH),
            &SHIPPED_BOOK[..SHIPPED_BOOK.len() - 9],
            1 << 30,
        )
        .unwrap_err();
        assert!(damaged.to_string().contains(SHIPPED_BOOK_PATH), "{damaged}");
        let refused =
            answer_with_shipped(&params(&[]), late, &budget, Some(Err(&damaged))).unwrap();
        assert_eq!(refused.method, "search");
        assert!(
            refused.details["book_refused"]
                .as_str()
                .unwrap()
                .contains(SHIPPED_BOOK_PATH)
        );
        assert_eq!(refused.outcome, none.outcome);
    }
}
