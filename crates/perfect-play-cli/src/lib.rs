//! The `perfect-play` command line as a library: [`run`] parses arguments, calls the
//! perfect-play library and writes text or JSON to the given streams. The binary is a thin
//! `main` around it; the fuzz target drives it in-process.
//!
//! Every failure ends in an exit status, never a panic: bad input is one line on stderr and
//! status 2, a closed output pipe ends the run quietly (status 0, as Unix filters do), any other
//! write error is one line and status 1.

mod args;
mod commands;
mod database_view;
pub mod explorer;
mod output;
mod progress;
pub mod schema;

use clap::Parser;
use clap::error::ErrorKind;
use std::ffi::OsString;
use std::io::{BufRead, Write};

/// Exit status for bad input or a refused query.
pub const EXIT_USAGE: u8 = 2;
/// Exit status when the output cannot be written (a full disk, say).
pub const EXIT_WRITE: u8 = 1;

/// Where a run reads and writes, and how much it may spend.
pub struct Io<'a> {
    /// Standard input (batches, `stones -`).
    pub stdin: &'a mut dyn BufRead,
    /// Where answers go.
    pub stdout: &'a mut dyn Write,
    /// Where the one-line errors go.
    pub stderr: &'a mut dyn Write,
    /// Whether progress bars may be drawn (on stderr, only when it is a terminal).
    pub progress: bool,
    /// Clamp every size and work limit to a small budget (the fuzz target: each run stays
    /// well under a second and a few MiB, whatever it is asked).
    pub small_limits: bool,
}

/// A write to the output failed: the caller tells a closed pipe from a real failure.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the output: {0}")]
pub struct WriteFailed(#[from] pub std::io::Error);

/// Run the command line `args` (the program name first) and return the exit status.
pub fn run<I, T>(args: I, io: &mut Io<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match args::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                // `solve` or `query` without a game is bad input, as a game without its
                // position is: one line. `perfect-play` alone prints the help.
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                    if args.len() > 1 && !args[1].to_string_lossy().starts_with('-') =>
                {
                    let command = args[1].to_string_lossy();
                    let games: Vec<&str> = perfect_play::registry::engine_games()
                        .map(|g| g.name)
                        .collect();
                    report(
                        io,
                        &format!(
                            "{command} needs a game: {} (see perfect-play {command} --help)",
                            games.join(", ")
                        ),
                    )
                }
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => finish_write(
                    write!(io.stdout, "{}", e.render()).and_then(|()| io.stdout.flush()),
                    io,
                ),
                _ => report(io, &first_line(&e.render().to_string())),
            };
        }
    };
    match commands::run(&cli, io) {
        Ok(()) => finish_write(io.stdout.flush(), io),
        Err(e) => match e.downcast::<WriteFailed>() {
            Ok(failed) => finish_write(Err(failed.0), io),
            Err(e) => {
                // Whatever was answered before the error still reaches the reader.
                let _ = io.stdout.flush();
                let status = report(io, &e.to_string());
                if is_write_failure(e.as_ref()) {
                    EXIT_WRITE
                } else {
                    status
                }
            }
        },
    }
}

/// What a run in memory produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Captured {
    /// The exit status.
    pub status: u8,
    /// Everything written to stdout.
    pub stdout: Vec<u8>,
    /// Everything written to stderr.
    pub stderr: Vec<u8>,
}

/// [`run`] with `stdin` from memory and the output captured, no progress bars; with
/// `small_limits`, under the small budget of [`Io::small_limits`] (the fuzz targets).
pub fn run_in_memory<I, T>(args: I, stdin: &[u8], small_limits: bool) -> Captured
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut stdin = stdin;
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let mut io = Io {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        progress: false,
        small_limits,
    };
    let status = run(args, &mut io);
    Captured {
        status,
        stdout,
        stderr,
    }
}

/// The status after the last write: a closed pipe is a quiet, successful end.
fn finish_write(result: std::io::Result<()>, io: &mut Io<'_>) -> u8 {
    match result {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            let _ = writeln!(io.stderr, "perfect-play: cannot write the output: {e}");
            EXIT_WRITE
        }
    }
}

/// Clap's message folded into one line: its tips ("a similar subcommand exists") are kept, its
/// usage block is replaced by a pointer to `--help`.
pub(crate) fn first_line(message: &str) -> String {
    let mut body = Vec::new();
    let mut tips = Vec::new();
    for line in message.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if let Some(tip) = line.strip_prefix("tip:") {
            tips.push(tip.trim().to_string());
        } else if !line.is_empty() {
            body.push(line);
        }
    }
    // clap repeats the value it refused: a long one is shortened as the library's parsers do.
    let body: Vec<String> = body
        .iter()
        .map(|line| {
            line.split(' ')
                .map(perfect_play::parse::shorten)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let mut text = body.join(" ").trim_start_matches("error: ").to_string();
    tips.push("see perfect-play --help".to_string());
    text.push_str(&format!(" ({})", tips.join("; ")));
    text
}

/// Whether the system failed a file write somewhere in `e`'s chain (a full disk): status 1,
/// as a failed write of the output is, not the bad-input status.
fn is_write_failure(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        let file = e
            .downcast_ref::<perfect_play::durable::FileError>()
            .or_else(
                || match e.downcast_ref::<perfect_play::registry::QueryError>() {
                    Some(perfect_play::registry::QueryError::File(f)) => Some(f),
                    _ => None,
                },
            );
        if file.is_some_and(perfect_play::durable::FileError::is_write_failure) {
            return true;
        }
        next = e.source();
    }
    false
}

/// One refusal, one line: a control character that reached the message (a file name's
/// newline) is written as its escape.
fn report(io: &mut Io<'_>, message: &str) -> u8 {
    let _ = writeln!(
        io.stderr,
        "perfect-play: {}",
        perfect_play::parse::one_line(message)
    );
    EXIT_USAGE
}
