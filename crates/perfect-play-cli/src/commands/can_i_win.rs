//! `perfect-play can-i-win`: one query, every target of a pool, or a batch from stdin.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::{CanIWinArgs, MethodArg};
use crate::output::{self, Output, int_json};
use crate::progress;
use perfect_play::Outcome;
use perfect_play::can_i_win::{self, Analysis, CanIWin, Method, Options, Pool};
use serde_json::json;

/// Time a set of picks costs in the full analysis, measured at 32 numbers (31 s for 2^32).
const SECONDS_PER_SET: f64 = 7.5e-9;

fn options(args: &CanIWinArgs, budget: Budget) -> Options {
    let defaults = Options::default();
    Options {
        method: match args.method {
            MethodArg::Auto => Method::Auto,
            MethodArg::BitTable => Method::BitTable,
            MethodArg::Search => Method::Search,
        },
        memory_limit: budget.memory(defaults.memory_limit),
        remoteness_limit: budget.cap(
            args.remoteness_limit
                .map_or(defaults.remoteness_limit, |l| {
                    usize::try_from(l).unwrap_or(usize::MAX)
                }),
            1_000,
        ),
    }
}

/// MAX: from 1 to 64.
fn parse_max(text: &str) -> Result<i64, CommandError> {
    perfect_play::parse::count_in(text, 1, can_i_win::MAX_POOL as u64)
        .map(|m| m as i64)
        .map_err(|e| format!("MAX: {e}").into())
}

/// TOTAL: any whole number that fits in 64 bits.
fn parse_total(text: &str) -> Result<i64, CommandError> {
    perfect_play::parse::integer_in(text, i128::from(i64::MIN), i128::from(i64::MAX))
        .map(|t| t as i64)
        .map_err(|e| format!("TOTAL: {e}").into())
}

/// The pool and the optional target from the positional arguments and `--pool`.
fn pool_and_target(args: &CanIWinArgs) -> Result<(Pool, Option<i64>), CommandError> {
    let given = &args.numbers;
    let n: Vec<i64> = match (given.len(), args.pool.is_some(), args.all_targets) {
        (1, true, false) => vec![parse_total(&given[0])?],
        (1, false, true) => vec![parse_max(&given[0])?],
        (2, true, false) => vec![
            perfect_play::parse::integer_in(&given[0], 0, i128::from(i64::MAX))
                .map(|m| m as i64)
                .map_err(|e| format!("MAX: {e}"))?,
            parse_total(&given[1])?,
        ],
        (2, false, false) => vec![parse_max(&given[0])?, parse_total(&given[1])?],
        _ => vec![0; given.len()],
    };
    match (&args.pool, n.len(), args.all_targets) {
        (Some(list), 0, true) => Ok((Pool::new(list.0.clone())?, None)),
        (Some(list), 1, false) => Ok((Pool::new(list.0.clone())?, Some(n[0]))),
        (Some(list), 2, false) => {
            // `MAX TOTAL --pool LIST`: MAX must name the pool's largest number.
            let pool = Pool::new(list.0.clone())?;
            let largest = pool.values().last().copied().unwrap_or(0);
            if u64::try_from(n[0]).ok() != Some(largest) {
                return Err(format!(
                    "with --pool, MAX ({}) must be the pool's largest number ({largest}), or be left out",
                    n[0]
                )
                .into());
            }
            Ok((pool, Some(n[1])))
        }
        (Some(_), _, true) => Err("with --pool and --all-targets give no MAX or TOTAL".into()),
        (Some(_), _, false) => Err("with --pool give TOTAL (or MAX TOTAL)".into()),
        (None, 1, true) => Ok((CanIWin::seed(n[0], 0)?.pool, None)),
        (None, 2, false) => Ok((CanIWin::seed(n[0], n[1])?.pool, Some(n[1]))),
        (None, _, true) => Err("--all-targets takes MAX alone (or --pool LIST)".into()),
        (None, _, false) => Err("give MAX and TOTAL, e.g. `perfect-play can-i-win 10 11`".into()),
    }
}

pub fn run(args: &CanIWinArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
    let (pool, target) = pool_and_target(args)?;
    let states = 2f64.powi(pool.values().len() as i32);
    budget.check_time(
        || {
            format!(
                "Can I Win with {} numbers ({states} sets of picks)",
                pool.values().len()
            )
        },
        states * SECONDS_PER_SET * if target.is_none() { 4.0 } else { 1.0 },
    )?;
    let options = options(args, budget);
    match target {
        None => all_targets(&pool, args.misere, &options, quiet),
        Some(target) => {
            let query = CanIWin {
                pool,
                target: i128::from(target),
                misere: args.misere,
            };
            let bar = progress::bar("solving", quiet);
            let analysis =
                can_i_win::analyse_with_progress(&query, &options, &progress::updater(&bar))?;
            bar.finish_and_clear();
            Ok(render(&query, &analysis))
        }
    }
}

/// `--batch`: one `MAX TOTAL` query per line, one JSON object per line.
pub fn batch(args: &CanIWinArgs, budget: Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
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
    let max = parse_max(max)?;
    let query = CanIWin {
        misere,
        ..CanIWin::seed(max, parse_total(total)?)?
    };
    let mut value = render(&query, &can_i_win::analyse(&query, options)?).json;
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

fn render(query: &CanIWin, a: &Analysis) -> Output {
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
    let length = a.remoteness.map_or_else(
        || " (remoteness not computed at this size)".to_string(),
        |r| format!(", the game lasting {}", output::moves_word(r)),
    );
    text.push_str(&match a.outcome {
        Outcome::Win => {
            let pick = a.winning_moves[0];
            let reason = if i128::from(pick) >= query.target {
                "which reaches the target at once".to_string()
            } else {
                format!(
                    "leaving {} to reach: every reply leaves a position the first player wins",
                    query.target - i128::from(pick)
                )
            };
            format!("The first player wins by picking {pick}, {reason}{length}.\n")
        }
        Outcome::Loss if query.target <= 0 => {
            "The first player loses: the first pick reaches the target (misère).\n".to_string()
        }
        Outcome::Loss => format!(
            "The second player wins: every first pick leaves a position the second player wins{length}.\n"
        ),
        Outcome::Tie | Outcome::Draw => format!(
            "Nobody can win: all the numbers add up to {}, below the target; the game ends in a tie{length}.\n",
            query.pool.sum()
        ),
    });
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
        "Solved {} positions ({}).\n",
        a.states,
        method_name(a.method)
    ));
    // The picks that achieve the exact value: with remoteness, fastest win or slowest loss;
    // without it, every pick with the position's outcome.
    let best = a
        .moves
        .iter()
        .filter(|m| m.outcome == a.outcome)
        .map(|m| m.remoteness)
        .reduce(|x, y| match (x, y, a.outcome) {
            (Some(x), Some(y), Outcome::Win) => Some(x.min(y)),
            (Some(x), Some(y), _) => Some(x.max(y)),
            _ => None,
        })
        .flatten();
    let optimal: Option<Vec<u64>> = a.remoteness.map(|_| {
        a.moves
            .iter()
            .filter(|m| m.outcome == a.outcome && m.remoteness == best)
            .map(|m| m.pick)
            .collect()
    });
    let json = json!({
        "game": "can-i-win",
        "pool": query.pool.values(),
        "target": int_json(query.target),
        "misere": query.misere,
        "outcome": a.outcome,
        "first_player_wins": a.outcome == Outcome::Win,
        "remoteness": a.remoteness,
        "moves": a.moves,
        "moves_complete": true,
        "winning_moves_total": a.winning_moves.len(),
        "winning_moves": a.winning_moves,
        "optimal_moves": optimal,
        "best_line": a.best_line,
        "states": a.states,
        "method": a.method,
    });
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
        "Can I Win with {}{}: the first player wins targets {} (of 1-{sum}); targets of 0 or less are {} by the first pick, targets above {sum} are ties (nobody reaches them).\nSolved {} positions over {} targets.\n",
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
        "states": table.states,
    });
    Ok(Output { text, json })
}
