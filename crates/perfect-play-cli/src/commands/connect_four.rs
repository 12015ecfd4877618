//! `perfect-play connect-four`: a small board solved whole by the engine, then read.

use super::engine::{
    database_json, no_files_under_small_budget, open_database, read_database, refuse_if_too_large,
    solve_into_database, solve_with_bar,
};
use super::{Budget, CommandError};
use crate::args::ConnectFourArgs;
use crate::output::{Output, result_sentence, verdict_of};
use perfect_play::engine::Options;
use perfect_play::games::connect_four::ConnectFour;
use perfect_play::registry::EngineGame;
use perfect_play::registry::answers::{connect_four, engine as answers};

pub fn run(args: &ConnectFourArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    let board = ConnectFour::new(args.width, args.height)?;
    let game: &dyn EngineGame = &board;
    game.check_position(Some(&args.moves))?;
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
    let position = Some(args.moves.as_str());
    let (read, positions, passes, database) = match (&args.db, existing) {
        (_, Some(path)) => {
            let mut db = open_database(game, path)?;
            let read = read_database(game, &mut db, position)?;
            let json = database_json(path, db.bytes, db.header.positions, true, false, 0);
            (read, db.header.positions, 0, Some(json))
        }
        (Some(path), None) => {
            let (solution, bytes) = solve_into_database(game, path, &options, quiet)?;
            let read = game.answer(position, &mut |i| solution.record(i))?;
            let json = database_json(
                path,
                bytes,
                solution.positions,
                false,
                solution.resumed,
                solution.already_solved,
            );
            (read, solution.positions, solution.passes, Some(json))
        }
        (None, _) => {
            let solution = solve_with_bar(game, &options, None, quiet)?;
            let read = game.answer(position, &mut |i| solution.record(i))?;
            (read, solution.positions, solution.passes, None)
        }
    };
    let outcome = read.outcome;
    let remoteness = read.remoteness;
    let mark = if read.first_to_move { "x" } else { "o" };
    let mut answer = answers::answer_of(&read, database);
    connect_four::add_board(&mut answer, &board, &args.moves)?;
    connect_four::add_solve(&mut answer, positions, passes);
    let json = answer.to_json();
    let mut text = format!(
        "Connect Four, {} x {} (columns 1-{}, x moves first):\n",
        args.width, args.height, args.width
    );
    text.push_str(&read.picture);
    text.push_str(&result_sentence(
        answer.to_move,
        Some(mark),
        outcome,
        remoteness.map(u64::from),
        None,
    ));
    text.push_str(&format!("\nPositions in the table: {positions}.\n"));
    for m in &read.moves {
        text.push_str(&format!(
            "  column {}: {}\n",
            m.name,
            verdict_of(m.outcome, m.remoteness.map(u64::from))
        ));
    }
    if !read.best_line.is_empty() {
        let line: Vec<String> = read.best_line.iter().map(ToString::to_string).collect();
        text.push_str(&format!("Best line: {}\n", line.join(" ")));
    }
    Ok(Output { text, json })
}
