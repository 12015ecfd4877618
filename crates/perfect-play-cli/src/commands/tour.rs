//! `perfect-play tour`: one example of every game the tool knows, solved in one run.

use super::CommandError;
use crate::output::Output;
use perfect_play::tic_tac_toe::Board;
use serde_json::{Map, json};

pub fn run() -> Result<Output, CommandError> {
    let examples: Vec<(&str, String, Output)> = vec![
        (
            "nim",
            "perfect-play nim 3 4 5".into(),
            super::nim::solve(&[3, 4, 5], false, super::Budget::default()),
        ),
        (
            "tic-tac-toe",
            "perfect-play tic-tac-toe".into(),
            super::tic_tac_toe::solve(Board::empty()),
        ),
        (
            "coins",
            "perfect-play coins 10 3 4".into(),
            super::subtraction::solve_coins("10", "3", "4", false, true, Default::default())?,
        ),
        (
            "stones",
            "perfect-play stones 5 3 4 5".into(),
            super::stones::solve(&[5, 3, 4, 5])?,
        ),
        (
            "octal",
            "perfect-play octal 0.77 3 4 5".into(),
            super::octal::tour_example()?,
        ),
        (
            "can-i-win",
            "perfect-play can-i-win 10 11".into(),
            super::can_i_win::solve(10, 11)?,
        ),
        (
            "sum",
            "perfect-play sum 0.77:10 grundy:12 squares:100 nim:5".into(),
            super::impartial::tour_example()?,
        ),
        (
            "dodgem",
            "perfect-play query dodgem".into(),
            super::engine::tour_example()?,
        ),
    ];
    let mut text = String::new();
    let mut json = Map::new();
    for (name, command, output) in examples {
        text.push_str(&format!("== {name}: {command}\n{}\n", output.text));
        json.insert(
            name.to_string(),
            json!({"command": command, "result": output.json}),
        );
    }
    Ok(Output {
        text,
        json: serde_json::Value::Object(json),
    })
}
