//! `perfect-play cgt`: the canonical form of a value written in CGSuite's notation (sums and
//! differences included), who wins it and why. The library reads, values and tells
//! (`perfect_play::partizan::answer`); this prints.

use super::{Budget, CommandError};
use crate::args::CgtArgs;
use crate::output::Output;
use perfect_play::partizan::Side;
use perfect_play::partizan::answer;

/// Memory for the table of canonical forms when --memory-limit is not given.
const DEFAULT_MEMORY: u64 = 1 << 30;

pub fn run(args: &CgtArgs, budget: &Budget) -> Result<Output, CommandError> {
    let text = &args.expression;
    let to_move = if args.to_move == "right" {
        Side::Right
    } else {
        Side::Left
    };
    let forms = answer::forms_within(budget.memory(DEFAULT_MEMORY));
    let report = answer::evaluate(text, to_move, forms)?;
    let mover = if to_move == Side::Left {
        "Left"
    } else {
        "Right"
    };
    let text = format!(
        "{value}\n{sentence}\nOutcome class {class}: {mover} to move {verdict}.\nStops: left {ls}, right {rs}. Born on day {day}.\n",
        value = report.value,
        sentence = report.sentence(),
        class = report.outcome_class.letter(),
        verdict = if report.first_player_wins() {
            "wins"
        } else {
            "loses"
        },
        ls = report.left_stop,
        rs = report.right_stop,
        day = report.birthday,
    );
    Ok(Output {
        text,
        json: report.to_json(),
    })
}
