//! One module per subcommand: each turns its arguments into an [`Output`].

mod book;
mod can_i_win;
mod cgt;
#[cfg(feature = "mpi")]
mod cluster;
mod connect_four;
pub(crate) mod engine;
mod graph;
mod impartial;
mod nim;
mod octal;
mod play;
mod puzzle;
mod serve;
mod stones;
mod subtraction;
mod tic_tac_toe;
mod tour;

use crate::args::{Cli, Command};
use crate::output::Output;
use crate::{Io, WriteFailed};
use std::error::Error;

/// Any failure a command reports: printed as one line, exit status 2 (a [`WriteFailed`]
/// inside is told apart by the caller).
pub type CommandError = Box<dyn Error>;

pub use perfect_play::budget::Budget;

/// `perfect-play solve`: over the ranks of an MPI job when built with the `mpi` feature and
/// started by `mpirun -np N` with N > 1 (`None` on the ranks other than the first, which
/// print nothing), else in this process.
fn solve(
    args: &crate::args::EngineArgs,
    budget: &Budget,
    quiet: bool,
) -> Result<Option<Output>, CommandError> {
    #[cfg(feature = "mpi")]
    if let Some(ranked) = cluster::solve_if_launched(args, budget, quiet)? {
        return Ok(ranked);
    }
    engine::solve(args, budget, quiet).map(Some)
}

/// Run the chosen subcommand and write its output.
pub fn run(cli: &Cli, io: &mut Io<'_>) -> Result<(), CommandError> {
    let quiet = cli.json || !io.progress;
    // Work that counts as it goes (a partizan value's regions) shows a counter on a
    // terminal; hidden under --json and when stderr is not a terminal.
    let counter = crate::progress::counter(quiet);
    let shown = counter.clone();
    let budget = Budget {
        memory_limit: cli.memory_limit,
        small: io.small_limits,
        seconds: None,
        cancel: perfect_play::budget::Cancel::new(),
        admission: None,
        progress: Some(perfect_play::budget::Progress(std::sync::Arc::new(
            move |what: &str, count: u64| {
                shown.set_message(what.to_string());
                shown.set_position(count);
            },
        ))),
    };
    let output = output_of(cli, &budget, quiet, io);
    counter.finish_and_clear();
    let Some(output) = output? else {
        return Ok(());
    };
    if cli.json {
        emit(io, &output.json.to_string())
    } else {
        io.stdout
            .write_all(output.text.as_bytes())
            .map_err(|e| WriteFailed(e).into())
    }
}

/// The chosen subcommand's answer, or `None` when it wrote its own output (batches, the
/// server, play, values' stream, schemas).
pub fn output_of(
    cli: &Cli,
    budget: &Budget,
    quiet: bool,
    io: &mut Io<'_>,
) -> Result<Option<Output>, CommandError> {
    let output = match &cli.command {
        Command::Tour => tour::run(budget)?,
        Command::Nim(args) => nim::run(args, budget)?,
        Command::TicTacToe(args) => tic_tac_toe::run(args)?,
        Command::ConnectFour(args) if args.batch => {
            connect_four::batch(args, budget, io)?;
            return Ok(None);
        }
        Command::ConnectFour(args) => connect_four::run(args, budget, quiet)?,
        Command::Book(args) => book::run(args, budget, quiet)?,
        Command::Solve(args) => match solve(args, budget, quiet)? {
            Some(output) => output,
            // A rank of an MPI job other than the first: rank 0 answers for the job.
            None => return Ok(None),
        },
        Command::Query(args) => engine::query(args, budget, quiet)?,
        Command::Board(args) => engine::query(&args.as_query(), budget, quiet)?,
        Command::Puzzle(args) if args.batch => {
            puzzle::batch(args, budget, io)?;
            return Ok(None);
        }
        Command::Puzzle(args) => puzzle::run(args, budget)?,
        Command::Coins(args) if args.options.batch => {
            subtraction::coins_batch(args, budget, io)?;
            return Ok(None);
        }
        Command::Coins(args) => subtraction::coins(args, budget)?,
        Command::Subtraction(args) if args.options.batch => {
            subtraction::batch(args, budget, io)?;
            return Ok(None);
        }
        Command::Subtraction(args) => subtraction::run(args, budget)?,
        Command::Stones(args) if args.batch => {
            stones::batch(args, budget, io)?;
            return Ok(None);
        }
        Command::Stones(args) => stones::run(args, budget, quiet, io)?,
        Command::Octal(args) => octal::run(args, budget, quiet)?,
        Command::CanIWin(args) if args.batch => {
            can_i_win::batch(args, budget, io)?;
            return Ok(None);
        }
        Command::CanIWin(args) => can_i_win::run(args, budget, quiet)?,
        Command::Values(args) => {
            impartial::values(args, budget, quiet, cli.json, io)?;
            return Ok(None);
        }
        Command::Sum(args) => impartial::sum(args, budget, quiet)?,
        Command::Cgt(args) => cgt::run(args, budget)?,
        Command::Graph(args) => graph::run(args, budget, quiet, io)?,
        // Interactive and served output have no one JSON document: --json would be ignored.
        Command::Serve(_) if cli.json => {
            return Err("--json does not apply to serve: its API answers in JSON already (/api/v1/GAME?position=...)".into());
        }
        Command::Play(_) if cli.json => {
            return Err("--json does not apply to play: it is a conversation in the terminal (the game's own command answers in JSON)".into());
        }
        Command::Serve(args) => {
            serve::run(args, io)?;
            return Ok(None);
        }
        Command::Play(args) => {
            play::run(args, io)?;
            return Ok(None);
        }
        Command::Schema(args) => {
            let schema = crate::schema::bundled(&args.command)
                .ok_or_else(|| format!("no schema for {:?}", args.command))?;
            emit(io, &schema)?;
            return Ok(None);
        }
    };
    Ok(Some(output))
}

/// Write one line to stdout; a failure is a [`WriteFailed`].
pub fn emit(io: &mut Io<'_>, line: &str) -> Result<(), CommandError> {
    writeln!(io.stdout, "{line}").map_err(|e| WriteFailed(e).into())
}

/// `--batch`: answer each non-blank stdin line with one JSON object on its own line, carrying
/// `line` (1-based). Lines are read as bytes, so a line that is not UTF-8 gets an error object
/// like any other bad line; a leading byte-order mark is skipped. A bad line prints
/// `{"line", "input", "error"}` (the input shortened when long) and the error on stderr; the
/// command then exits with status 2 after the last line.
pub fn batch_lines(
    io: &mut Io<'_>,
    answer: impl Fn(&str) -> Result<serde_json::Value, CommandError>,
) -> Result<(), CommandError> {
    let mut lines = BatchLines::default();
    while let Some((number, raw)) = lines.next(io)? {
        let result = match batch_text(&raw) {
            Ok(line) => match answer(line) {
                Ok(value) => Ok(value),
                // A failed write ends the batch; any other error is the line's.
                Err(e) if e.downcast_ref::<WriteFailed>().is_some() => return Err(e),
                Err(e) => Err(e.to_string()),
            },
            Err(message) => Err(message),
        };
        lines.write(io, number, &raw, result)?;
    }
    lines.finish()
}

/// [`batch_lines`] with the lines answered side by side on a pool of `threads` threads (0:
/// one per core; each answer may split its own work further when a thread is free), written
/// in the input's order. A few lines per thread are read ahead: for batches of independent
/// questions (Connect Four's positions by search: both cores busy on separate lines instead
/// of sharing one line's tree).
pub fn batch_lines_side_by_side(
    io: &mut Io<'_>,
    threads: usize,
    answer: impl Fn(&str) -> Result<serde_json::Value, CommandError> + Sync,
) -> Result<(), CommandError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("could not start {threads} threads: {e}"))?;
    // Lines read and not yet written: the ones answered wait for the earliest.
    let ahead = 4 * pool.current_num_threads();
    let answer = &answer;
    let mut lines = BatchLines::default();
    let (done, finished) = std::sync::mpsc::channel::<(usize, LineAnswer)>();
    let mut waiting: std::collections::VecDeque<Waiting> = std::collections::VecDeque::new();
    let mut read_all = false;
    pool.in_place_scope(|scope| {
        loop {
            while !read_all && waiting.len() < ahead {
                let Some((number, raw)) = lines.next(io)? else {
                    read_all = true;
                    break;
                };
                match batch_text(&raw) {
                    Ok(line) => {
                        let line = line.to_string();
                        let done = done.clone();
                        scope.spawn(move |_| {
                            let result = answer(&line).map_err(|e| e.to_string());
                            // The receiver is gone only when writing failed: nothing to say.
                            let _ = done.send((number, result));
                        });
                        waiting.push_back((number, raw, None));
                    }
                    Err(message) => waiting.push_back((number, raw, Some(Err(message)))),
                }
            }
            while waiting
                .front()
                .is_some_and(|(_, _, result)| result.is_some())
            {
                let Some((number, raw, Some(result))) = waiting.pop_front() else {
                    break;
                };
                lines.write(io, number, &raw, result)?;
            }
            if waiting.is_empty() {
                if read_all {
                    return lines.finish();
                }
                continue;
            }
            // The earliest line is still being answered, and as many lines as may be are
            // read (or all): wait for an answer.
            let (number, result) = finished
                .recv()
                .map_err(|_| "a batch line's answer was lost (a bug: please report it)")?;
            if let Some(slot) = waiting.iter_mut().find(|(n, _, _)| *n == number) {
                slot.2 = Some(result);
            }
        }
    })
}

/// A line read and not yet written: its number, its bytes, its answer once there.
type Waiting = (usize, Vec<u8>, Option<LineAnswer>);

/// A batch line's answer, or the error to write.
type LineAnswer = Result<serde_json::Value, String>;

/// A batch's lines as read, and its failures so far.
#[derive(Default)]
struct BatchLines {
    number: usize,
    failures: usize,
}

impl BatchLines {
    /// The next non-blank line's number and bytes (a leading byte-order mark skipped), or
    /// None at the end of the input.
    fn next(&mut self, io: &mut Io<'_>) -> Result<Option<(usize, Vec<u8>)>, CommandError> {
        loop {
            let mut bytes = Vec::new();
            if io.stdin.read_until(b'\n', &mut bytes)? == 0 {
                return Ok(None);
            }
            self.number += 1;
            if self.number == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes.drain(..3);
            }
            if std::str::from_utf8(&bytes).is_ok_and(|line| line.trim().is_empty()) {
                continue;
            }
            return Ok(Some((self.number, bytes)));
        }
    }

    /// Write a line's answer, or its error object (and the error on stderr).
    fn write(
        &mut self,
        io: &mut Io<'_>,
        number: usize,
        raw: &[u8],
        result: Result<serde_json::Value, String>,
    ) -> Result<(), CommandError> {
        let value = match result {
            Ok(mut value) => {
                value["line"] = serde_json::json!(number);
                value
            }
            Err(e) => {
                self.failures += 1;
                let _ = writeln!(
                    io.stderr,
                    "perfect-play: line {number}: {}",
                    perfect_play::parse::one_line(&e)
                );
                let input = String::from_utf8_lossy(raw);
                serde_json::json!({
                    "line": number,
                    "input": perfect_play::parse::shorten(input.trim_end_matches(['\n', '\r'])),
                    "error": e,
                })
            }
        };
        emit(io, &value.to_string())
    }

    /// The batch's end: an error when a line could not be answered.
    fn finish(self) -> Result<(), CommandError> {
        if self.failures > 0 {
            return Err(format!("{} batch line(s) could not be answered", self.failures).into());
        }
        Ok(())
    }
}

/// A batch line's text without its line ending, or why it is not text.
fn batch_text(raw: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(raw)
        .map(|line| line.trim_end_matches(['\n', '\r']))
        .map_err(|e| {
            format!(
                "the line is not UTF-8 text (a bad byte at column {})",
                e.valid_up_to() + 1
            )
        })
}
