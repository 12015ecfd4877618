//! `perfect-play`: solve two-player games exactly from the command line.
//!
//! All of the work is in the `perfect_play_cli` library; this only connects it to the process's
//! streams and exit status.

use std::io::{BufWriter, IsTerminal};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    let mut stdout = BufWriter::new(std::io::stdout().lock());
    let mut stderr = std::io::stderr();
    let progress = stderr.is_terminal();
    let mut io = perfect_play_cli::Io {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        progress,
        small_limits: false,
    };
    ExitCode::from(perfect_play_cli::run(std::env::args_os(), &mut io))
}
