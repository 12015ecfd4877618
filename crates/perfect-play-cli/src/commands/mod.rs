//! One module per subcommand: each turns its arguments into an [`Output`].

mod can_i_win;
mod nim;
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
