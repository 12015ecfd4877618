//! `perfect-play graph FILE`: a game given as its positions and moves, solved by the engine.

use super::{Budget, CommandError};
use crate::args::GraphArgs;
use crate::output::{Output, verdict_of};
use crate::{Io, progress};
use perfect_play::Outcome;
use perfect_play::engine::Options;
use perfect_play::graph::text::NamedGraph;
use std::io::BufReader;

/// Memory a graph and its solve may use unless --memory-limit says otherwise.
const DEFAULT_MEMORY: u64 = 2 << 30;

pub fn run(
    args: &GraphArgs,
    budget: &Budget,
    quiet: bool,
    io: &mut Io<'_>,
) -> Result<Output, CommandError> {
    let limit = budget.memory(DEFAULT_MEMORY);
    let (graph, source) = if args.file.as_os_str() == "-" {
        let graph = NamedGraph::read(&mut io.stdin, limit);
        (graph, "standard input".to_string())
    } else {
        let file = perfect_play::durable::open_to_read(&args.file)?;
        let graph = NamedGraph::read(BufReader::new(file), limit);
        (graph, args.file.display().to_string())
    };
    let graph = graph.map_err(|e| format!("{source}: {e}"))?;
    let bar = progress::bar("solving", quiet || graph.graph().positions() < 100_000);
    let options = Options {
        memory_limit: limit.saturating_sub(graph.graph().bytes()),
        threads: usize::from(args.threads),
        cancel: budget.cancel.clone(),
        ..Options::default()
    };
    let solution = graph.solve(&options)?;
    bar.finish_and_clear();
    // The answer's JSON and text are held in what the graph and its solution leave.
    let left = limit.saturating_sub(graph.graph().bytes() + graph.graph().positions() * 2);
    let json = graph.report_within(&solution, args.position.as_deref(), args.all, left)?;
    Ok(Output {
        text: render(&json),
        json,
    })
}

fn outcome_of(value: &serde_json::Value) -> Outcome {
    match value.as_str() {
        Some("win") => Outcome::Win,
        Some("loss") => Outcome::Loss,
        Some("tie") => Outcome::Tie,
        _ => Outcome::Draw,
    }
}

/// The names in a JSON list of position names (none when it is not a list).
fn names(list: &serde_json::Value) -> Vec<String> {
    list.as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|v| v.as_str().unwrap_or("").to_string())
        .collect()
}

/// The answer for a person: the position's value, its moves, a best line, the counts.
fn render(json: &serde_json::Value) -> String {
    let name = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    let value =
        |v: &serde_json::Value| verdict_of(outcome_of(&v["outcome"]), v["remoteness"].as_u64());
    let mut text = format!(
        "Position {} ({} positions, {} moves): the player to move {}.\n",
        name(&json["position"]),
        json["positions"],
        json["moves_total"],
        value(json)
    );
    let moves = json["moves"].as_array().map_or(&[][..], Vec::as_slice);
    if !moves.is_empty() {
        text.push_str("Moves, best first:\n");
        for m in moves {
            text.push_str(&format!(
                "  to {}: the mover {}\n",
                name(&m["move"]),
                value(m)
            ));
        }
    }
    let line = names(&json["best_line"]);
    if !line.is_empty() {
        text.push_str(&format!("A best line: {}\n", line.join(" ")));
    }
    let c = &json["counts"];
    text.push_str(&format!(
        "For the player to move: {} wins, {} losses, {} ties, {} draws.\n",
        c["wins"], c["losses"], c["ties"], c["draws"]
    ));
    if let Some(values) = json["values"].as_array() {
        text.push_str("Every position:\n");
        for v in values {
            let winning = names(&v["winning_moves"]);
            let moves = if winning.is_empty() {
                String::new()
            } else {
                format!(" (win by moving to {})", winning.join(", "))
            };
            text.push_str(&format!(
                "  {}: the player to move {}{moves}\n",
                name(&v["position"]),
                value(v)
            ));
        }
    }
    text
}
