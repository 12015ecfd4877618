//! `perfect-play stones`: the take-from-either-end game with exact margins.

use super::{Budget, CommandError};
use crate::Io;
use crate::args::StonesArgs;
use crate::output::{self, Output};
use crate::progress;
use perfect_play::Outcome;
use perfect_play::registry::Side;
use perfect_play::registry::answers::stones::{self, Asked, parse_row};
use perfect_play::take_ends::{self, Analysis, End};

fn asked(args: &StonesArgs) -> Asked {
    Asked {
        ties_win: args.ties_win,
        line: args.line,
        table: args.table,
        max_piles: args
            .max_piles
            .map(|m| usize::try_from(m).unwrap_or(usize::MAX)),
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
    Ok(parse_row(text.trim_start_matches('\u{feff}'))?)
}

/// The text of a row, read through its limit: `--max-piles` piles of at most 32 bytes each
/// (a 64-bit number and its separator fit in 21), so that a huge file or stream is refused
/// as soon as it passes the limit, not after it is held whole.
fn read_row_text(
    input: &mut dyn std::io::Read,
    what: &str,
    args: &StonesArgs,
) -> Result<Vec<u8>, CommandError> {
    let piles = args
        .max_piles
        .unwrap_or(perfect_play::take_ends::Options::default().max_piles as u64);
    let limit = piles
        .saturating_mul(BYTES_PER_PILE_OF_TEXT)
        .saturating_add(4096);
    Ok(perfect_play::parse::read_limited(
        input,
        limit,
        what,
        &format!(
            "a row of --max-piles {piles} piles takes ({BYTES_PER_PILE_OF_TEXT} bytes a pile)"
        ),
        "raise --max-piles for a longer row",
    )?)
}

/// The most text a pile may take in a file or on standard input.
const BYTES_PER_PILE_OF_TEXT: u64 = 32;

/// A row read from a file or standard input must hold a pile: empty input is a mistake,
/// not the empty row (a tie).
fn nonempty(row: Vec<i64>, what: &str) -> Result<Vec<i64>, CommandError> {
    if row.is_empty() {
        return Err(
            format!("{what} holds no piles: give the row as numbers, such as 5 3 4 5").into(),
        );
    }
    Ok(row)
}

pub fn run(
    args: &StonesArgs,
    budget: &Budget,
    quiet: bool,
    io: &mut Io<'_>,
) -> Result<Output, CommandError> {
    let row = if let Some(path) = &args.file {
        let shown = path.display().to_string();
        let mut file = perfect_play::durable::open_to_read(path)?;
        let bytes = read_row_text(&mut file, &shown, args)?;
        nonempty(parse_text(&bytes, &shown)?, &shown)?
    } else if args.piles == ["-"] {
        let bytes = read_row_text(io.stdin, "standard input", args)?;
        nonempty(parse_text(&bytes, "standard input")?, "standard input")?
    } else {
        parse_row(&args.piles.join(" "))?
    };
    let bar = progress::bar("solving", quiet || row.len() < 20_000);
    bar.set_length(1);
    let report = stones::report(&row, asked(args), budget)?;
    bar.finish_and_clear();
    let mut output = render(&row, &report.analysis, report.answer.to_json());
    if args.table {
        let table = take_ends::margin_table(&row)?;
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

pub fn batch(args: &StonesArgs, budget: &Budget, io: &mut Io<'_>) -> Result<(), CommandError> {
    let asked = Asked {
        table: false,
        ..asked(args)
    };
    super::batch_lines(io, |line| {
        let row = parse_row(line)?;
        Ok(stones::report(&row, asked, budget)?.answer.to_json())
    })
}

fn render(row: &[i64], a: &Analysis, json: serde_json::Value) -> Output {
    let shown = if row.len() <= 20 {
        output::list(row)
    } else {
        format!("{} piles", row.len())
    };
    let totals = format!("{} to {}", a.first_total, a.second_total);
    let margin = (a.margin != 0).then(|| format!("{} ({totals})", a.margin.abs()));
    let mut sentence = output::result_sentence(
        Side::First,
        None,
        a.outcome,
        Some(row.len() as u64),
        margin.as_deref(),
    );
    if a.margin == 0 && !row.is_empty() {
        sentence.pop();
        sentence.push_str(&format!(", level at {totals}"));
        if a.outcome == Outcome::Win {
            sentence.push_str(" (a tie counts as a win: --ties-win)");
        }
        sentence.push('.');
    }
    let mut text = format!("Row {shown}.\n{sentence}\n");
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
