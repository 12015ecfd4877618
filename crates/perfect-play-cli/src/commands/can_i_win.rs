//! `perfect-play can-i-win`: one query, every target of a pool, or a batch from stdin.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::{CanIWinArgs, MethodArg};
use crate::output::{self, Output};
use crate::progress;
use perfect_play::Outcome;
use perfect_play::can_i_win::{self, Analysis, CanIWin, Method, Options, Pool};
use perfect_play::registry::Side;
use perfect_play::registry::answers::can_i_win as answers;
use serde_json::json;

fn options(args: &CanIWinArgs, budget: &Budget) -> Options {
    let defaults = Options::default();
    let asked = Options {
        method: match args.method {
            MethodArg::Auto => Method::Auto,
            MethodArg::BitTable => Method::BitTable,
            MethodArg::Search => Method::Search,
        },
        remoteness_limit: args
            .remoteness_limit
            .map_or(defaults.remoteness_limit, |l| {
                usize::try_from(l).unwrap_or(usize::MAX)
            }),
        ..defaults
    };
    answers::options(asked, budget)
}

/// The pool of `--all-targets`: MAX alone, or `--pool LIST`.
fn pool_of_all_targets(args: &CanIWinArgs) -> Result<Pool, CommandError> {
    match (&args.pool, &args.numbers[..]) {
        (Some(list), []) => Ok(Pool::new(list.0.clone())?),
        (None, [max]) => Ok(CanIWin::seed(answers::parse_max(max)?, 0)?.pool),
        (Some(_), _) => Err("with --pool and --all-targets give no MAX or TOTAL".into()),
        (None, _) => Err("--all-targets takes MAX alone (or --pool LIST)".into()),
    }
}

pub fn run(args: &CanIWinArgs, budget: &Budget, quiet: bool) -> Result<Output, CommandError> {
    let options = options(args, budget);
    if args.all_targets {
        let pool = pool_of_all_targets(args)?;
        answers::check_time(&pool, budget, 4.0)?;
        return all_targets(&pool, args.misere, &options, quiet);
    }
    let query = answers::parse_query(
        &args.numbers.join(" "),
        args.pool.as_ref().map(|list| list.0.clone()),
        args.misere,
    )?;
    answers::check_query_time(&query, &options, budget)?;
    let bar = progress::bar("solving", quiet);
    let report = answers::report(&query, &options, &progress::updater(&bar))?;
    bar.finish_and_clear();
    Ok(render(&query, &report.analysis, report.answer.to_json()))
}

/// `--batch`: one `MAX TOTAL` query per line, one JSON object per line.
pub fn batch(args: &CanIWinArgs, budget: &Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let options = options(args, budget);
    super::batch_lines(io, |line| batch_line(line, args.misere, &options))
}

fn batch_line(
    line: &str,
    misere: bool,
    options: &Options,
) -> Result<serde_json::Value, CommandError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [max, total] = fields[..] else {
        return Err(format!(
            "expected `MAX TOTAL` (two numbers), got {} field(s)",
            fields.len()
        )
        .into());
    };
    let max = answers::parse_max(max)?;
    let query = CanIWin {
        misere,
        ..CanIWin::seed(max, answers::parse_total(total)?)?
    };
    let mut value = answers::report(&query, options, &|_, _| {})?
        .answer
        .to_json();
    value["max"] = json!(max);
    Ok(value)
}

fn describe_pool(pool: &Pool) -> String {
    let v = pool.values();
    if v.iter().zip(1u64..).all(|(&a, b)| a == b) {
        format!("numbers 1 to {}", v.len())
    } else {
        format!("numbers {}", output::list(v))
    }
}

fn render(query: &CanIWin, a: &Analysis, json: serde_json::Value) -> Output {
    let rule = if query.misere {
        format!("misère: whoever reaches {} loses", query.target)
    } else {
        format!("whoever reaches {} wins", query.target)
    };
    let mut text = format!(
        "Can I Win with {}, target {} ({rule}).\n",
        describe_pool(&query.pool),
        query.target
    );
    text.push_str(&output::result_sentence(
        Side::First,
        None,
        a.outcome,
        a.remoteness.map(u64::from),
        None,
    ));
    text.push('\n');
    text.push_str(&match a.outcome {
        Outcome::Win => {
            let pick = a.winning_moves[0];
            if i128::from(pick) >= query.target {
                format!("Picking {pick} reaches the target at once.\n")
            } else {
                format!(
                    "Picking {pick} leaves {} to reach: every reply leaves a position the first player wins.\n",
                    query.target - i128::from(pick)
                )
            }
        }
        Outcome::Loss if query.target <= 0 => {
            "The first pick reaches the target, which loses (misère).\n".to_string()
        }
        Outcome::Loss => {
            "Every first pick leaves a position the second player wins.\n".to_string()
        }
        Outcome::Tie | Outcome::Draw => format!(
            "Nobody can win: all the numbers add up to {}, below the target.\n",
            query.pool.sum()
        ),
    });
    if a.remoteness.is_none() {
        text.push_str("(Remoteness not computed at this size.)\n");
    }
    if a.winning_moves.len() > 1 {
        text.push_str(&format!(
            "Winning first picks: {}.\n",
            output::list(&a.winning_moves)
        ));
    }
    let moves: Vec<String> = a
        .moves
        .iter()
        .map(|m| match m.remoteness {
            Some(r) => format!("{}:{}{r}", m.pick, short(m.outcome)),
            None => format!("{}:{}", m.pick, short(m.outcome)),
        })
        .collect();
    text.push_str(&format!(
        "Every first pick (W win, L loss, T tie, then moves to the end): {}\n",
        moves.join(" ")
    ));
    text.push_str(&format!("Best line: {}\n", output::list(&a.best_line)));
    text.push_str(&format!(
        "Positions searched: {} ({}).\n",
        a.states,
        method_name(a.method)
    ));
    Output { text, json }
}

fn short(outcome: Outcome) -> char {
    match outcome {
        Outcome::Win => 'W',
        Outcome::Loss => 'L',
        Outcome::Tie => 'T',
        Outcome::Draw => 'D',
    }
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::BitTable => "bit-parallel retrograde table",
        Method::Search => "memoised search",
        Method::Trivial => "no search needed",
        Method::Auto => "automatic",
    }
}

fn all_targets(
    pool: &Pool,
    misere: bool,
    options: &Options,
    quiet: bool,
) -> Result<Output, CommandError> {
    let bar = progress::bar("targets", quiet);
    let table = can_i_win::all_targets(pool, misere, options, &progress::updater(&bar))?;
    bar.finish_and_clear();
    let ranges: Vec<String> = table
        .winning_ranges()
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let sum = pool.sum();
    let text = format!(
        "Can I Win with {}{}: the first player wins targets {} (of 1-{sum}); targets of 0 or less are {} by the first pick, targets above {sum} are ties (nobody reaches them).\nPositions searched: {} over {} targets.\n",
        describe_pool(pool),
        if misere { " (misère)" } else { "" },
        if ranges.is_empty() {
            "none".to_string()
        } else {
            ranges.join(", ")
        },
        if misere { "lost" } else { "won" },
        table.states,
        table.outcomes.len(),
    );
    let json = json!({
        "game": "can-i-win",
        "pool": pool.values(),
        "misere": misere,
        "winning_targets": ranges,
        "outcomes": table.outcomes,
        "positions_searched": table.states,
    });
    Ok(Output { text, json })
}
