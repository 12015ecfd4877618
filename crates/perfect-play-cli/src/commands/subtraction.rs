//! `perfect-play coins` and `perfect-play subtraction`: one engine, two ways to ask.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::{CoinsArgs, SubtractionArgs};
use crate::output::{self, Output};
use num_bigint::BigUint;
use perfect_play::registry::answers::subtraction::{self as answers, Game};
use perfect_play::registry::{QueryError, Side};
use perfect_play::subtraction::{self, Analysis, Limits, Method, Rule, Sequence, SubtractionSet};
use serde_json::json;

/// A heap (pile) size in decimal, any length; `what` names it in the message ("pile", "heap").
pub fn parse_heap(what: &str, text: &str) -> Result<BigUint, CommandError> {
    Ok(answers::parse_heap(what, text)?)
}

fn limits(limit: Option<u64>, budget: &Budget) -> Limits {
    answers::limits(limit, budget)
}

fn rule(misere: bool) -> Rule {
    if misere { Rule::Misere } else { Rule::Normal }
}

/// `coins N X Y`: the seed's question.
pub fn coins(args: &CoinsArgs, budget: &Budget) -> Result<Output, CommandError> {
    let [n, x, y] = &args.numbers[..] else {
        return Err(format!(
            "give N X Y (the pile and the two moves besides 1), e.g. `perfect-play coins 10 3 4`; got {} number(s)",
            args.numbers.len()
        )
        .into());
    };
    solve_coins(
        n,
        x,
        y,
        args.options.misere,
        args.options.pattern,
        limits(args.options.limit, budget),
        budget,
    )
}

/// Solve the coin game; used by the tour too.
pub fn solve_coins(
    n: &str,
    x: &str,
    y: &str,
    misere: bool,
    pattern: bool,
    limits: Limits,
    budget: &Budget,
) -> Result<Output, CommandError> {
    let (pile, set) = answers::parse_coins(&format!("{n} {x} {y}"))?;
    render(
        &Game::coins(set, rule(misere)),
        &[pile],
        pattern,
        false,
        &limits,
        budget,
    )
}

/// `coins --batch`.
pub fn coins_batch(args: &CoinsArgs, budget: &Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let limits = limits(args.options.limit, budget);
    super::batch_lines(io, |line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [n, x, y] = f[..] else {
            return Err(
                format!("expected `N X Y` (three numbers), got {} field(s)", f.len()).into(),
            );
        };
        Ok(solve_coins(n, x, y, args.options.misere, false, limits.clone(), budget)?.json)
    })
}

/// `subtraction --moves LIST PILE...`.
pub fn run(args: &SubtractionArgs, budget: &Budget) -> Result<Output, CommandError> {
    let set = SubtractionSet::new(&args.moves.0)?;
    let piles = args
        .piles
        .iter()
        .flat_map(|p| p.split_whitespace())
        .map(|p| parse_heap("pile", p))
        .collect::<Result<Vec<_>, _>>()?;
    render(
        &Game::subtraction(set, rule(args.options.misere)),
        &piles,
        args.options.pattern || args.grundy || args.piles.is_empty(),
        args.grundy,
        &limits(args.options.limit, budget),
        budget,
    )
}

/// `subtraction --batch`: each line is one position's piles.
pub fn batch(args: &SubtractionArgs, budget: &Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let set = SubtractionSet::new(&args.moves.0)?;
    let limits = limits(args.options.limit, budget);
    super::batch_lines(io, |line| {
        let piles = line
            .split_whitespace()
            .map(|p| parse_heap("pile", p))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(render(
            &Game::subtraction(set.clone(), rule(args.options.misere)),
            &piles,
            false,
            false,
            &limits,
            budget,
        )?
        .json)
    })
}

fn render(
    game: &Game,
    piles: &[BigUint],
    pattern: bool,
    grundy: bool,
    limits: &Limits,
    budget: &Budget,
) -> Result<Output, CommandError> {
    let rule_text = match game.rule {
        Rule::Normal => "normal play: taking the last coin wins",
        Rule::Misere => "misère play: taking the last coin loses",
    };
    let mut text = format!(
        "Moves {{{}}} ({rule_text}).\n",
        output::list(game.set.moves())
    );
    let computed;
    let computed_report;
    let (mut json, sequence) = if piles.is_empty() {
        // No position: the sequence alone (its period and pattern).
        computed = Sequence::compute(&game.set, game.rule, limits)
            .map_err(|e| with_limit_advice(answers::query_error(e, budget, &game.set)))?;
        let json = json!({
            "game": game.name,
            "move_set": game.set.moves(),
            "misere": game.rule == Rule::Misere,
            "period": computed.period,
            "outcome_period": computed.outcome_period,
            "proof": computed.proof,
            "values_computed": computed.values_computed,
        });
        (json, Some(&computed))
    } else {
        let report =
            answers::report(game, piles, pattern, limits, budget).map_err(with_limit_advice)?;
        text.push_str(&explain(&game.set, &report.analysis, piles));
        computed_report = report;
        (
            computed_report.answer.to_json(),
            computed_report.analysis.sequence.as_ref(),
        )
    };
    match sequence {
        Some(sequence) => {
            text.push_str(&describe_period(sequence));
            if pattern {
                text.push_str(&picture(sequence, grundy));
                json["pattern"] = json!(sequence.prefix(200));
            }
        }
        None => text.push_str(&format!(
            "No period proven within the first {} pile sizes (raise --limit to search further); the piles were answered from the values of every smaller pile.\n",
            limits.search_limit(&game.set)
        )),
    }
    Ok(Output { text, json })
}

fn explain(set: &SubtractionSet, a: &Analysis, piles: &[BigUint]) -> String {
    let single = piles.len() == 1;
    let mut text = if single {
        format!("A pile of {}.\n", piles[0])
    } else {
        format!(
            "Piles {} (Grundy values {}, nim-sum {}).\n",
            output::list(piles),
            output::list(&a.grundy),
            a.nim_sum
        )
    };
    text.push_str(&output::result_sentence(
        Side::First,
        Some("A"),
        a.outcome,
        None,
        None,
    ));
    text.push('\n');
    let describe = |m: &subtraction::PileMove| {
        let from = if single {
            String::new()
        } else {
            format!(" from pile {}", m.pile + 1)
        };
        format!("take {}{from}, leaving {}", m.take, m.leaves)
    };
    if let Some(first) = a.winning_moves.first() {
        let why = match (single, a.method) {
            (true, _) => "a losing pile".to_string(),
            (false, Method::GrundySum) => "so the nim-sum becomes 0".to_string(),
            (false, _) => "a losing position".to_string(),
        };
        text.push_str(&format!("Winning move: {}, {why}", describe(first)));
        if a.winning_moves.len() > 1 {
            let rest: Vec<String> = a.winning_moves[1..].iter().map(describe).collect();
            text.push_str(&format!(" (also: {})", rest.join("; ")));
        }
        text.push_str(".\n");
    } else if single && BigUint::from(set.moves()[0]) > piles[0] {
        text.push_str(&format!(
            "A cannot move (the smallest move takes {}){}.\n",
            set.moves()[0],
            if a.rule == Rule::Normal {
                ""
            } else {
                ": in misère play the player who cannot move has won"
            }
        ));
    } else if single && a.grundy.first() == Some(&0) && a.rule == Rule::Normal {
        text.push_str("A faces a losing pile: every move leaves B a winning pile.\n");
    } else {
        text.push_str("Every move A can make leaves B a winning position.\n");
    }
    text
}

fn describe_period(s: &Sequence) -> String {
    let what = match s.rule() {
        Rule::Normal => "Grundy values",
        Rule::Misere => "misère Grundy values",
    };
    let p = s.proof;
    format!(
        "The {what} repeat with period {} from pile {} (proven: piles {}-{} and {}-{} agree, and each value depends only on the {} before it); the win/loss pattern has period {} from pile {}. {} values computed.\n",
        s.period.period,
        s.period.preperiod,
        p.first,
        p.first + p.length - 1,
        p.second,
        p.second + p.length - 1,
        p.length,
        s.outcome_period.period,
        s.outcome_period.preperiod,
        s.values_computed,
    )
}

/// The seed's "Picture it": the first pile sizes' marks with each period start marked.
fn picture(s: &Sequence, grundy: bool) -> String {
    let (pre, per) = (s.period.preperiod, s.period.period);
    let shown = (pre + 3 * per).clamp(40, 80);
    let marks: String = (0..shown)
        .map(|n| {
            let v = s.value(n);
            if grundy {
                output::value_char(v)
            } else if v == 0 {
                'L'
            } else {
                'W'
            }
        })
        .collect();
    let ruler: String = (0..shown)
        .map(|n| if n % 10 == 0 { '|' } else { ' ' })
        .collect();
    let numbers: String = (0..shown).step_by(10).map(|n| format!("{n:<10}")).collect();
    let periods: String = (0..shown)
        .map(|n| {
            if n >= pre && (n - pre) % per == 0 {
                '^'
            } else {
                ' '
            }
        })
        .collect();
    let legend = if grundy {
        "Grundy values (0-9, then A=10, B=11, ...)"
    } else {
        "W = the player to move wins, L = loses"
    };
    format!(
        "Piles 0-{}: {legend}; ^ marks the start of each period.\n  pile {}\n       {}\n       {}\n       {}\n",
        shown - 1,
        numbers.trim_end(),
        ruler,
        marks,
        periods.trim_end()
    )
}

/// The period search's limit is this command's `--limit`: say so where the search stopped at
/// it (the library's message names no flag, other front ends having none).
fn with_limit_advice(e: QueryError) -> QueryError {
    match e {
        QueryError::BadInput(message)
            if message.starts_with("no period prov") && !message.contains("--memory-limit") =>
        {
            QueryError::BadInput(format!("{message}; raise it with --limit"))
        }
        e => e,
    }
}
