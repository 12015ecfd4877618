//! `perfect-play`: solve two-player games exactly from the command line.
//!
//! Thin by design: parse arguments, call the library, render text or JSON, set the exit code.

mod args;
mod commands;
mod output;
mod progress;

use clap::Parser;
use clap::error::ErrorKind;
use std::io::Write;
use std::process::ExitCode;

/// Exit status for bad input or a refused query.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    ExitCode::SUCCESS
                }
                _ => report_error(&first_line(&e.render().to_string())),
            };
        }
    };
    match commands::run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => report_error(&e.to_string()),
    }
}

/// Clap's message folded into the one line a person needs (it adds usage and tips below it).
fn first_line(message: &str) -> String {
    let body: Vec<&str> = message
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
        .collect();
    format!(
        "{} (see perfect-play --help)",
        body.join(" ").trim_start_matches("error: ")
    )
}

fn report_error(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "perfect-play: {message}");
    ExitCode::from(EXIT_USAGE)
}
