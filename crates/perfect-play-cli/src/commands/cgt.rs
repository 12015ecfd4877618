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
    let request = answer::Request {
        cool: args.cool.as_deref(),
        heat: args.heat.as_deref(),
        compare: args.compare.as_deref(),
    };
    let report = answer::evaluate_request(text, to_move, forms, request)?;
    let mover = if to_move == Side::Left {
        "Left"
    } else {
        "Right"
    };
    let mut text = String::new();
    if let Some(op) = &report.operation {
        let done = if op.name == "cool" {
            "cooled"
        } else {
            "heated"
        };
        text.push_str(&format!("{} {done} by {}:\n", op.of, op.by));
    }
    text.push_str(&format!(
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
    ));
    text.push_str(&format!(
        "Temperature {}, mean {}. Thermograph: {}.\nReduced canonical form {}.\n",
        report.temperature,
        report.mean,
        report.thermograph_text(),
        report.reduced
    ));
    let list = |items: &[String]| {
        if items.is_empty() {
            "none".to_string()
        } else {
            items.join(", ")
        }
    };
    text.push_str(&format!(
        "Left's options: {}. Right's options: {}.\nIncentives: Left's {}; Right's {}.\n",
        list(&report.left_options),
        list(&report.right_options),
        list(&report.left_incentives),
        list(&report.right_incentives)
    ));
    if let Some(weight) = &report.atomic_weight {
        text.push_str(&format!("Atomic weight {weight}.\n"));
    }
    if let Some(c) = &report.comparison {
        text.push_str(&format!("{} {} {}\n", report.value, c.relation, c.with));
    }
    Ok(Output {
        text,
        json: report.to_json(),
    })
}
