//! `perfect-play nim`: exact search while it fits, Bouton's rule beyond (the library chooses).

use super::{Budget, CommandError};
use crate::args::NimArgs;
use crate::output::{self, Output};
use perfect_play::nim::{NimAnswer, NimMethod};
use perfect_play::registry::Side;
use perfect_play::registry::answers::nim::{self, line_as_played};

pub fn run(args: &NimArgs, budget: &Budget) -> Result<Output, CommandError> {
    // "" alone is the empty position; beside heaps it is a heap left out by mistake.
    if args.heaps.len() > 1 && args.heaps.iter().any(|h| h.trim().is_empty()) {
        return Err("an empty heap argument (\"\") beside other heaps: \"\" alone is the empty position; give whole numbers for the heaps".into());
    }
    let heaps = nim::parse_heaps(&args.heaps.join(" "))?;
    Ok(solve(&heaps, args.misere, budget))
}

/// Solve Nim on `heaps`; used by the tour too.
pub fn solve(heaps: &[u64], misere: bool, budget: &Budget) -> Output {
    let report = nim::report(heaps, misere, budget);
    let answer = &report.analysis;
    let rule = if misere { "misère" } else { "normal" };
    let mut text = format!(
        "Nim ({rule} play) with heaps {}: nim-sum {}.\n",
        if heaps.is_empty() {
            "none".to_string()
        } else {
            output::list(heaps)
        },
        perfect_play::nim::nim_sum(heaps)
    );
    text.push_str(&output::result_sentence(
        Side::First,
        None,
        answer.outcome,
        answer.remoteness,
        None,
    ));
    text.push('\n');
    if answer.method == NimMethod::BoutonRule {
        text.push_str("(Bouton's rule: too many positions to search every line.)\n");
    }
    text.push_str(&describe_moves(heaps, answer));
    Output {
        text,
        json: report.answer.to_json(),
    }
}

fn describe_moves(heaps: &[u64], a: &NimAnswer) -> String {
    let mut text = String::new();
    if heaps.iter().all(|&h| h == 0) {
        return text;
    }
    if a.winning_moves.is_empty() {
        text.push_str("Every move leaves the opponent a winning position.\n");
    } else {
        text.push_str(&format!(
            "Winning moves: {}.\n",
            output::list(&a.winning_moves)
        ));
    }
    if a.moves_complete {
        text.push_str("Every move (value for the player who makes it):\n");
        for m in &a.moves {
            text.push_str(&format!(
                "  {:<24} {}\n",
                m.mv.to_string(),
                output::verdict_of(m.outcome, m.remoteness)
            ));
        }
    }
    if let Some(line) = &a.best_line {
        text.push_str(&format!(
            "Best line: {}\n",
            output::list(&line_as_played(heaps, line))
        ));
    }
    text
}
