//! Command-line arguments (clap derive). Each subcommand is one game family.

use clap::{Args, Parser, Subcommand};

/// Solve two-player games exactly: who wins under perfect play, with which move, and why.
///
/// Every subcommand prints a short explanation for a person, or one JSON object with --json
/// (fields documented in README.md). Bad input exits with status 2 and one line on stderr.
#[derive(Debug, Parser)]
#[command(name = "perfect-play", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  perfect-play tour\n  perfect-play nim 3 4 5\n  perfect-play tic-tac-toe x...o....\n  perfect-play nim 1 2 3 --json"
)]
pub struct Cli {
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

/// The games the tool knows.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one example of every game the tool knows.
    Tour,
    /// Nim: take any number of tokens from one heap; taking the last token wins.
    Nim(NimArgs),
    /// Tic-tac-toe from the empty board or any legal position.
    #[command(name = "tic-tac-toe", alias = "ttt")]
    TicTacToe(TicTacToeArgs),
}

/// Arguments of `perfect-play nim`.
#[derive(Debug, Args)]
pub struct NimArgs {
    /// Heap sizes, e.g. `3 4 5`.
    #[arg(required = true, allow_negative_numbers = true, value_name = "HEAP", value_parser = parse_count)]
    pub heaps: Vec<u64>,

    /// Misère play: whoever takes the last token loses.
    #[arg(long)]
    pub misere: bool,
}

/// Arguments of `perfect-play tic-tac-toe`.
#[derive(Debug, Args)]
pub struct TicTacToeArgs {
    /// The board as 9 characters in reading order: x, o, or . for empty (default: empty board).
    #[arg(default_value = ".........", value_name = "BOARD")]
    pub board: String,
}

/// A size or count: a whole number from 0 to 2^64 - 1, with a message that says so.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if text.starts_with('-') && text[1..].chars().all(|c| c.is_ascii_digit()) && text.len() > 1 {
        return Err(format!(
            "{text} is negative; sizes are whole numbers 0 or more"
        ));
    }
    text.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!(
                "{text} is larger than the largest supported size {}",
                u64::MAX
            )
        }
        _ => format!("{text:?} is not a whole number"),
    })
}
