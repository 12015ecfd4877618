//! `perfect-play stones`: the take-from-either-end game with exact margins.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::StonesArgs;
use crate::output::{self, Output, int_json};
use crate::progress;
use perfect_play::Outcome;
use perfect_play::take_ends::{self, Analysis, End, Options};
use serde_json::json;

/// Piles from text: whitespace- or comma-separated integers.
fn parse_row(text: &str) -> Result<Vec<i64>, CommandError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>().map_err(|e| {
                match e.kind() {
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                        format!("pile {t} does not fit in a 64-bit integer")
                    }
                    _ => format!("pile {t:?} is not a whole number"),
                }
                .into()
            })
        })
        .collect()
}

/// Time an interval of the row costs, measured at 200,000 piles (14 s for 2 x 10^10 / 2).
const SECONDS_PER_INTERVAL: f64 = 3.5e-10;

fn options(args: &StonesArgs, budget: Budget) -> Options {
    let defaults = Options::default();
    Options {
        ties_win: args.ties_win,
        line: args.line,
        memory_limit: budget.memory(defaults.memory_limit),
        max_piles: budget.cap(
            args.max_piles.map_or(defaults.max_piles, |m| {
                usize::try_from(m).unwrap_or(usize::MAX)
            }),
            300,
        ),
    }
}

/// Piles from bytes read whole (a file or stdin): they must be UTF-8 text.
fn parse_text(bytes: &[u8], source: &str) -> Result<Vec<i64>, CommandError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "{source} is not UTF-8 text (a bad byte at offset {})",
            e.valid_up_to()
        )
    })?;
    parse_row(text.trim_start_matches('\u{feff}'))
}

pub fn run(
    args: &StonesArgs,
    budget: Budget,
    quiet: bool,
    io: &mut Io<'_>,
) -> Result<Output, CommandError> {
    let row = if let Some(path) = &args.file {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        parse_text(&bytes, &path.display().to_string())?
    } else if args.piles == ["-"] {
        let mut bytes = Vec::new();
        io.stdin.read_to_end(&mut bytes)?;
        parse_text(&bytes, "standard input")?
    } else {
        parse_row(&args.piles.join(" "))?
    };
    let n = row.len() as f64;
    budget.check_time(
        || format!("the Stone Game over {} piles", row.len()),
        n * n * SECONDS_PER_INTERVAL,
    )?;
    let bar = progress::bar("solving", quiet || row.len() < 20_000);
    bar.set_length(1);
    let analysis = take_ends::analyse(&row, &options(args, budget))?;
    bar.finish_and_clear();
    let mut output = render(&row, &analysis, args.ties_win);
    if args.table {
        let table = take_ends::margin_table(&row)?;
        output.json["table"] = json!(
            table
                .iter()
                .map(|r| r
                    .iter()
                    .map(|m| m.map_or(serde_json::Value::Null, int_json))
                    .collect::<Vec<_>>())
                .collect::<Vec<_>>()
        );
        output
            .text
            .push_str("Margin of every interval (row: first pile, column: last):\n");
        for r in &table {
            let cells: Vec<String> = r
                .iter()
                .map(|m| m.map_or_else(|| ".".to_string(), |m| m.to_string()))
                .map(|c| format!("{c:>5}"))
                .collect();
            output.text.push_str(&format!("{}\n", cells.join("")));
        }
    }
    Ok(output)
}

pub fn batch(args: &StonesArgs, budget: Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let options = options(args, budget);
    super::batch_lines(io, |line| {
        let row = parse_row(line)?;
        Ok(render(&row, &take_ends::analyse(&row, &options)?, args.ties_win).json)
    })
}

fn render(row: &[i64], a: &Analysis, ties_win: bool) -> Output {
    let shown = if row.len() <= 20 {
        output::list(row)
    } else {
        format!("{} piles", row.len())
    };
    let verdict = match a.outcome {
        _ if row.is_empty() => "No piles: the game is over, a tie at 0 to 0".to_string(),
        Outcome::Win if a.margin == 0 => {
            "A tie, which counts as a first-player win (--ties-win)".to_string()
        }
        Outcome::Win => format!("The first player wins by {}", a.margin),
        Outcome::Loss => format!("The second player wins by {}", -a.margin),
        Outcome::Tie | Outcome::Draw => "A tie: neither player can do better".to_string(),
    };
    let mut text = if row.is_empty() {
        format!("{verdict}.\n")
    } else {
        format!(
            "Row {shown}: {verdict} ({} to {}).\n",
            a.first_total, a.second_total
        )
    };
    let ends: Vec<String> = a.optimal_moves.iter().map(ToString::to_string).collect();
    if !ends.is_empty() {
        text.push_str(&format!(
            "Optimal first move{}: take the {} end.\n",
            if ends.len() > 1 { "s" } else { "" },
            ends.join(" or the ")
        ));
    }
    if row.len().is_multiple_of(2) && !row.is_empty() {
        text.push_str(
            "(An even number of piles: the first player can always take all the odd- or all the even-indexed piles, so never loses.)\n",
        );
    }
    if let Some(line) = &a.best_line {
        text.push_str(&format!("Best line: {}\n", describe_line(row, line)));
    }
    let winning: Vec<End> = if a.first_player_wins {
        a.optimal_moves.clone()
    } else {
        Vec::new()
    };
    let mut json = json!({
        "game": "stones",
        "piles": row,
        "pile_count": row.len(),
        "first_player_wins": a.first_player_wins,
        "outcome": a.outcome,
        "margin": int_json(a.margin),
        "first_total": int_json(a.first_total),
        "second_total": int_json(a.second_total),
        "winning_moves_total": winning.len(),
        "winning_moves": winning,
        "optimal_moves": a.optimal_moves,
        "method": "interval-dp",
        "remoteness": row.len(),
        "ties_win": ties_win,
    });
    json["best_line"] = json!(a.best_line);
    Output { text, json }
}

/// "first takes 5 (left), second takes 5 (right), ..." for short lines, else the ends alone.
fn describe_line(row: &[i64], line: &[End]) -> String {
    if line.len() > 40 {
        return line
            .iter()
            .map(|e| if *e == End::Left { 'L' } else { 'R' })
            .collect();
    }
    take_ends::taken_along(row, line)
        .iter()
        .zip(line)
        .enumerate()
        .map(|(ply, (taken, end))| {
            let who = if ply % 2 == 0 { "first" } else { "second" };
            format!("{who} takes {taken} ({end})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}
