//! `perfect-play nim`: the XOR rule for the answer, the generic solver for remoteness and line.

use super::CommandError;
use crate::args::NimArgs;
use crate::output::{self, Output};
use perfect_play::nim::{self, Nim, NimMove};
use perfect_play::{Outcome, Solver};
use serde_json::json;

/// The most positions the exact search may visit (product of heap sizes + 1); beyond it the
/// answer comes from the closed-form rule alone, without remoteness.
const SEARCH_LIMIT: u128 = 2_000_000;

pub fn run(args: &NimArgs) -> Result<Output, CommandError> {
    Ok(solve(&args.heaps, args.misere))
}

/// Solve Nim on `heaps`; used by the tour too.
pub fn solve(heaps: &[u64], misere: bool) -> Output {
    let positions: u128 = heaps
        .iter()
        .map(|&h| u128::from(h) + 1)
        .try_fold(1u128, u128::checked_mul)
        .unwrap_or(u128::MAX);
    let rule = if misere { "misère" } else { "normal" };
    let sum = nim::nim_sum(heaps);
    let heading = format!(
        "Nim ({rule} play) with heaps {}: nim-sum {sum}.\n",
        output::list(heaps)
    );
    if positions <= SEARCH_LIMIT {
        let game = Nim {
            heaps: heaps.to_vec(),
            misere,
        };
        let mut solver = Solver::new(game);
        let analysis = solver.analyse(&heaps.to_vec());
        let states = solver.states();
        let mut json = output::analysis_json(&analysis, states);
        json["nim_sum"] = json!(sum);
        json["misere"] = json!(misere);
        let text = format!(
            "{heading}The player to move {}.\n{}{}",
            output::verdict(analysis.value),
            winning_sentence(&analysis.winning_moves()),
            output::analysis_text(&analysis)
        );
        Output { text, json }
    } else {
        let (wins, winning) = if misere {
            (nim::misere_wins(heaps), nim::misere_winning_moves(heaps))
        } else {
            (sum != 0, nim::winning_moves(heaps))
        };
        let outcome = if wins { Outcome::Win } else { Outcome::Loss };
        let json = json!({
            "outcome": outcome,
            "first_player_wins": wins,
            "remoteness": null,
            "moves": winning.iter().map(|m| json!({"move": m, "outcome": "win", "remoteness": null})).collect::<Vec<_>>(),
            "winning_moves": winning,
            "best_line": [],
            "nim_sum": sum,
            "misere": misere,
            "note": "too many positions to search: outcome and winning moves from Bouton's rule; remoteness not computed; moves lists the winning moves only",
        });
        let text = format!(
            "{heading}The player to move {} (Bouton's rule; the position is too large to search for remoteness).\n{}",
            if wins { "wins" } else { "loses" },
            winning_sentence(&winning)
        );
        Output { text, json }
    }
}

fn winning_sentence(winning: &[NimMove]) -> String {
    if winning.is_empty() {
        "Every move leaves the opponent a winning position.\n".to_string()
    } else {
        format!("Winning moves: {}.\n", output::list(winning))
    }
}
