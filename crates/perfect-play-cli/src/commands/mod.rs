//! One module per subcommand: each turns its arguments into an [`Output`].

mod can_i_win;
mod nim;
mod octal;
mod stones;
mod subtraction;
mod tic_tac_toe;
mod tour;

use crate::args::{Cli, Command};
use crate::output::Output;
use std::error::Error;

/// Any failure a command reports: printed as one line, exit status 2.
pub type CommandError = Box<dyn Error>;

/// Run the chosen subcommand and print its output.
pub fn run(cli: &Cli) -> Result<(), CommandError> {
    let output = match &cli.command {
        Command::Tour => tour::run()?,
        Command::Nim(args) => nim::run(args)?,
        Command::TicTacToe(args) => tic_tac_toe::run(args)?,
        Command::Coins(args) if args.options.batch => return subtraction::coins_batch(args),
        Command::Coins(args) => subtraction::coins(args)?,
        Command::Subtraction(args) if args.options.batch => return subtraction::batch(args),
        Command::Subtraction(args) => subtraction::run(args)?,
        Command::Stones(args) if args.batch => return stones::batch(args),
        Command::Stones(args) => stones::run(args, cli.json)?,
        Command::Octal(args) => octal::run(args, cli.json)?,
        Command::CanIWin(args) if args.batch => return can_i_win::batch(args),
        Command::CanIWin(args) => can_i_win::run(args, cli.json)?,
    };
    print(&output, cli.json);
    Ok(())
}

/// Print `output` as text or as one JSON object.
pub fn print(output: &Output, json: bool) {
    if json {
        println!("{}", output.json);
    } else {
        print!("{}", output.text);
    }
}

/// `--batch`: answer each non-empty stdin line with one JSON object on its own line. A line that
/// cannot be answered prints `{"line", "input", "error"}` (and the error on stderr); the command
/// then exits with status 2 after the last line.
pub fn batch_lines(
    answer: impl Fn(&str) -> Result<serde_json::Value, CommandError>,
) -> Result<(), CommandError> {
    use std::io::BufRead;
    let mut failures = 0usize;
    for (index, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match answer(&line) {
            Ok(value) => println!("{value}"),
            Err(e) => {
                failures += 1;
                eprintln!("perfect-play: line {}: {e}", index + 1);
                println!(
                    "{}",
                    serde_json::json!({"line": index + 1, "input": line, "error": e.to_string()})
                );
            }
        }
    }
    if failures > 0 {
        return Err(format!("{failures} batch line(s) could not be answered").into());
    }
    Ok(())
}
