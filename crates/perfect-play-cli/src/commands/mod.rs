//! One module per subcommand: each turns its arguments into an [`Output`].

mod book;
mod can_i_win;
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

/// Run the chosen subcommand and write its output.
pub fn run(cli: &Cli, io: &mut Io<'_>) -> Result<(), CommandError> {
    let budget = Budget {
        memory_limit: cli.memory_limit,
        small: io.small_limits,
        seconds: None,
        cancel: perfect_play::budget::Cancel::new(),
        admission: None,
    };
    let quiet = cli.json || !io.progress;
    let Some(output) = output_of(cli, &budget, quiet, io)? else {
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
        Command::Solve(args) => match engine::solve(args, budget, quiet)? {
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
        Command::Graph(args) => graph::run(args, budget, quiet, io)?,
        // Interactive and served output have no one JSON document: --json would be ignored.
        Command::Serve(_) | Command::Play(_) if cli.json => {
            return Err("--json does not apply here: play is a conversation in the terminal, and serve's API answers in JSON already".into());
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
    let mut failures = 0usize;
    let mut bytes = Vec::new();
    let mut number = 0usize;
    loop {
        bytes.clear();
        if io.stdin.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        number += 1;
        let mut raw: &[u8] = &bytes;
        if number == 1 {
            raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
        }
        let result = match std::str::from_utf8(raw) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => answer(line.trim_end_matches(['\n', '\r'])),
            Err(e) => Err(format!(
                "the line is not UTF-8 text (a bad byte at column {})",
                e.valid_up_to() + 1
            )
            .into()),
        };
        let value = match result {
            Ok(mut value) => {
                value["line"] = serde_json::json!(number);
                value
            }
            Err(e) => {
                if e.downcast_ref::<WriteFailed>().is_some() {
                    return Err(e);
                }
                failures += 1;
                let _ = writeln!(io.stderr, "perfect-play: line {number}: {e}");
                let input = String::from_utf8_lossy(raw);
                serde_json::json!({
                    "line": number,
                    "input": perfect_play::parse::shorten(input.trim_end_matches(['\n', '\r'])),
                    "error": e.to_string(),
                })
            }
        };
        emit(io, &value.to_string())?;
    }
    if failures > 0 {
        return Err(format!("{failures} batch line(s) could not be answered").into());
    }
    Ok(())
}
