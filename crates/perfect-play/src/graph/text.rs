//! A game written down as a graph of named positions, and its solution read by name.
//!
//! Two formats:
//! - JSON, for small games: `{"start": "A", "moves": {"A": ["B", "C"], "B": ["A"], "C": []},
//!   "results": {"C": "loss"}}`. Names are strings (or whole numbers). `start` is optional (the
//!   first position of `moves`).
//! - An edge list, read as a stream for large ones: one `FROM TO` per line (a move), or
//!   `POSITION =win`, `=loss`, `=tie` (the result of a finished position, for the player to
//!   move there); `#` starts a comment; blank lines are skipped. The start is the first
//!   position named.
//!
//! In both, a position with no moves and no result is lost by the player to move (normal
//! play), a finished position has no moves, and play that never ends is a draw.

use super::{Finished, GameGraph, GraphError, GraphSolution, Meter};
use crate::engine::{self, Options, Record};
use crate::player::Outcome;
use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;
use std::io::BufRead;
use thiserror::Error;

/// Bytes a named position costs besides its name's letters: the boxed name and the hash
/// table's entry.
const BYTES_PER_NAME: u64 = 48;

/// Why a graph file was not read.
#[derive(Debug, Error)]
pub enum GraphFileError {
    /// A line of an edge list that is not a move, a result or a comment.
    #[error("line {line}: {message}")]
    Line {
        /// The line's number, from 1.
        line: u64,
        /// What was wrong and what was expected.
        message: String,
    },
    /// JSON that does not parse, or does not describe a graph.
    #[error("{0}")]
    Json(String),
    /// Reading failed.
    #[error("reading the graph: {0}")]
    Io(String),
    /// The graph's limits.
    #[error(transparent)]
    Graph(#[from] GraphError),
}

/// Bytes a move of the position asked about takes in a report: its JSON object (the map's
/// nodes, keys and values), its line of text and their copies on the way out. Measured: one
/// position of 2,000,000 moves peaked at 3.76 GB against 0.29 GB for the graph alone,
/// 1.7 KB a move.
const REPORT_BYTES_PER_MOVE: u64 = 2048;

/// Bytes a position takes in a report's `values` (`--all`: an object of four fields and its
/// list of winning moves). Measured: a tree of 2,000,000 positions peaked at 2.13 GB with
/// `--all`, 0.23 GB without, 950 bytes a position.
const REPORT_BYTES_PER_POSITION: u64 = 1024;

/// The longest line of an edge list, in bytes.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// Bytes the JSON form takes in memory for each byte of its text: the text, and
/// serde_json's tree of it.
const JSON_BYTES_PER_BYTE_OF_TEXT: u64 = 8;

/// A graph whose positions have names.
#[derive(Debug)]
pub struct NamedGraph {
    names: IndexSet<Box<str>, FxBuildHasher>,
    /// The names' bytes in all (counted as they were read), for a report's estimate.
    name_bytes: u64,
    graph: GameGraph,
}

struct Builder {
    names: IndexSet<Box<str>, FxBuildHasher>,
    name_bytes: u64,
    edges: Vec<(u32, u32)>,
    results: Vec<Option<Finished>>,
    meter: Meter,
}

impl Builder {
    fn new(memory_limit: u64) -> Builder {
        Builder {
            names: IndexSet::with_hasher(FxBuildHasher),
            name_bytes: 0,
            edges: Vec::new(),
            results: Vec::new(),
            meter: Meter::new(memory_limit),
        }
    }

    fn bytes(&self) -> u64 {
        let positions = self.names.len() as u64;
        positions * (BYTES_PER_NAME + super::BYTES_PER_POSITION)
            + self.name_bytes
            + self.edges.len() as u64 * (8 + super::BYTES_PER_MOVE)
    }

    fn name(&mut self, name: &str) -> Result<u32, GraphError> {
        if let Some(i) = self.names.get_index_of(name) {
            return Ok(i as u32);
        }
        if self.names.len() as u64 >= super::MAX_POSITIONS {
            return Err(GraphError::TooManyPositions);
        }
        if self.names.len().is_multiple_of(4096) {
            self.meter.check(
                self.bytes(),
                self.names.len() as u64,
                self.edges.len() as u64,
            )?;
        }
        self.name_bytes += name.len() as u64;
        let (i, _) = self.names.insert_full(name.into());
        self.results.push(None);
        Ok(i as u32)
    }

    fn edge(&mut self, from: u32, to: u32) -> Result<(), GraphError> {
        if self.edges.len() == self.edges.capacity() {
            self.meter.check(
                self.bytes() + self.edges.len() as u64 * 8,
                self.names.len() as u64,
                self.edges.len() as u64,
            )?;
            let (extra, positions, moves) = (
                self.edges.len().max(1024),
                self.names.len() as u64,
                self.edges.len() as u64,
            );
            super::reserve(&mut self.edges, extra, positions, moves)?;
        }
        self.edges.push((from, to));
        Ok(())
    }

    /// The graph, moves of each position in the order given.
    fn finish(self, start: u32, memory_limit: u64) -> Result<NamedGraph, GraphFileError> {
        let n = self.names.len();
        for &(from, _) in &self.edges {
            if let Some(result) = self.results[from as usize] {
                return Err(GraphFileError::Json(format!(
                    "position {:?} has the result {} and moves: a finished position has no moves",
                    self.names[from as usize],
                    result.word()
                )));
            }
        }
        let mut move_starts = Vec::new();
        super::reserve(&mut move_starts, n + 1, n as u64, self.edges.len() as u64)?;
        move_starts.resize(n + 1, 0u64);
        for &(from, _) in &self.edges {
            move_starts[from as usize + 1] += 1;
        }
        for i in 0..n {
            move_starts[i + 1] += move_starts[i];
        }
        let mut targets = Vec::new();
        super::reserve(
            &mut targets,
            self.edges.len(),
            n as u64,
            self.edges.len() as u64,
        )?;
        targets.resize(self.edges.len(), 0u32);
        let mut next = move_starts.clone();
        for &(from, to) in &self.edges {
            targets[next[from as usize] as usize] = to;
            next[from as usize] += 1;
        }
        drop(next);
        // A move is one distinct resulting position: a move given twice is kept once. Each
        // target remembers the last position that listed it.
        let mut listed_by = Vec::new();
        super::reserve(&mut listed_by, n, n as u64, self.edges.len() as u64)?;
        listed_by.resize(n, u32::MAX);
        let mut kept = 0usize;
        let mut from_start = 0usize;
        for from in 0..n {
            let end = move_starts[from + 1] as usize;
            for i in from_start..end {
                let to = targets[i];
                if listed_by[to as usize] != from as u32 {
                    listed_by[to as usize] = from as u32;
                    targets[kept] = to;
                    kept += 1;
                }
            }
            from_start = end;
            move_starts[from + 1] = kept as u64;
        }
        targets.truncate(kept);
        drop(listed_by);
        let edges = self.edges;
        let moves = edges.len() as u64;
        drop(edges);
        let results = self
            .results
            .iter()
            .map(|r| r.unwrap_or(Finished::Loss).code())
            .collect();
        let names_bytes = n as u64 * BYTES_PER_NAME + self.name_bytes;
        let graph = GameGraph::from_parts(
            start,
            move_starts,
            targets,
            results,
            memory_limit.saturating_sub(names_bytes),
        )
        .map_err(|e| match e {
            GraphError::OverMemory { needed, limit, .. } => {
                GraphFileError::Graph(GraphError::OverMemory {
                    positions: n as u64,
                    moves,
                    needed,
                    limit,
                })
            }
            e => e.into(),
        })?;
        Ok(NamedGraph {
            names: self.names,
            name_bytes: self.name_bytes,
            graph,
        })
    }
}

/// Shorten a piece of input for a message.
fn shown(text: &str) -> String {
    crate::parse::shorten(text)
}

impl NamedGraph {
    /// Read an edge list from `input`, a line at a time.
    ///
    /// # Errors
    /// A line that is not a move, result or comment (with its number), a finished position
    /// given moves, the memory limit, or reading.
    pub fn from_edge_list(
        input: impl BufRead,
        memory_limit: u64,
    ) -> Result<NamedGraph, GraphFileError> {
        let mut builder = Builder::new(memory_limit);
        let mut line_number = 0u64;
        let mut results_seen: Vec<(u64, u32)> = Vec::new();
        let mut input = input;
        let mut bytes = Vec::new();
        loop {
            line_number += 1;
            bytes.clear();
            // A line holds one move or result: one far longer is refused as it is read, not
            // after it is held whole.
            let read = std::io::Read::take(&mut input, MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut bytes)
                .map_err(|e| GraphFileError::Io(e.to_string()))?;
            if read == 0 {
                break;
            }
            if bytes.len() as u64 > MAX_LINE_BYTES {
                return Err(GraphFileError::Line {
                    line: line_number,
                    message: format!(
                        "longer than {MAX_LINE_BYTES} bytes: a line holds one move (FROM TO) or result (POSITION =win)"
                    ),
                });
            }
            let line = std::str::from_utf8(&bytes).map_err(|_| GraphFileError::Line {
                line: line_number,
                message: "not UTF-8 text".into(),
            })?;
            let text = line.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            let bad = |message: String| GraphFileError::Line {
                line: line_number,
                message,
            };
            let words: Vec<&str> = text.split_whitespace().collect();
            match words[..] {
                [position, result] if result.starts_with('=') => {
                    let finished = Finished::from_word(&result[1..]).ok_or_else(|| {
                        bad(format!(
                            "{} is not a result: expected =win, =loss or =tie",
                            shown(result)
                        ))
                    })?;
                    let p = builder.name(position)?;
                    if let Some(old) = builder.results[p as usize]
                        && old != finished
                    {
                        return Err(bad(format!(
                            "position {} was given the result {} before",
                            shown(position),
                            old.word()
                        )));
                    }
                    builder.results[p as usize] = Some(finished);
                    results_seen.push((line_number, p));
                }
                [from, to] => {
                    if to.starts_with('=') || from.starts_with('=') {
                        return Err(bad(format!(
                            "expected POSITION =win|loss|tie, found {}",
                            shown(text)
                        )));
                    }
                    let f = builder.name(from)?;
                    let t = builder.name(to)?;
                    builder.edge(f, t)?;
                }
                _ => {
                    return Err(bad(format!(
                        "expected FROM TO (a move) or POSITION =win|loss|tie, found {}",
                        shown(text)
                    )));
                }
            }
        }
        if builder.names.is_empty() {
            return Err(GraphFileError::Line {
                line: line_number,
                message: "no position in the file: expected FROM TO lines".into(),
            });
        }
        // A finished position with moves: name the line of its result.
        let mut has_moves = vec![false; builder.names.len()];
        for &(from, _) in &builder.edges {
            has_moves[from as usize] = true;
        }
        for &(line, p) in &results_seen {
            if has_moves[p as usize] {
                return Err(GraphFileError::Line {
                    line,
                    message: format!(
                        "position {} is finished (it has a result) but has moves",
                        shown(&builder.names[p as usize])
                    ),
                });
            }
        }
        builder.finish(0, memory_limit)
    }

    /// Read the JSON form.
    ///
    /// # Errors
    /// JSON that does not parse (with its line and column) or does not describe a graph,
    /// or the memory limit.
    pub fn from_json(text: &str, memory_limit: u64) -> Result<NamedGraph, GraphFileError> {
        use serde_json::Value;
        // A key given twice (a position's moves listed twice, say) would keep the last
        // silently: refused, with where it is.
        serde_json::from_str::<NoDuplicateKeys>(text)
            .map_err(|e| GraphFileError::Json(format!("not JSON: {e}")))?;
        let value: Value = serde_json::from_str(text)
            .map_err(|e| GraphFileError::Json(format!("not JSON: {e}")))?;
        let Value::Object(object) = value else {
            return Err(GraphFileError::Json(
                "expected an object {\"start\": ..., \"moves\": {...}, \"results\": {...}}".into(),
            ));
        };
        if let Some(key) = object
            .keys()
            .find(|k| !["start", "moves", "results"].contains(&k.as_str()))
        {
            return Err(GraphFileError::Json(format!(
                "unknown key {:?}: expected start, moves and results",
                shown(key)
            )));
        }
        let name_of = |value: &Value, what: &str| -> Result<String, GraphFileError> {
            match value {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) if n.is_u64() || n.is_i64() => Ok(n.to_string()),
                other => Err(GraphFileError::Json(format!(
                    "{what}: expected a position's name (a string), found {}",
                    shown(&other.to_string())
                ))),
            }
        };
        let mut builder = Builder::new(memory_limit);
        let start = match object.get("start") {
            Some(value) => Some(builder.name(&name_of(value, "start")?)?),
            None => None,
        };
        match object.get("moves") {
            Some(Value::Object(moves)) => {
                for (from, targets) in moves {
                    let f = builder.name(from)?;
                    let Value::Array(targets) = targets else {
                        return Err(GraphFileError::Json(format!(
                            "moves of {:?}: expected a list of positions",
                            shown(from)
                        )));
                    };
                    for target in targets {
                        let to = name_of(target, &format!("moves of {:?}", shown(from)))?;
                        let t = builder.name(&to)?;
                        builder.edge(f, t)?;
                    }
                }
            }
            None => {}
            Some(_) => {
                return Err(GraphFileError::Json(
                    "moves: expected an object of position: [positions]".into(),
                ));
            }
        }
        match object.get("results") {
            Some(Value::Object(results)) => {
                for (position, result) in results {
                    let p = builder.name(position)?;
                    let finished = result.as_str().and_then(Finished::from_word).ok_or_else(
                        || {
                            GraphFileError::Json(format!(
                                "result of {:?}: expected \"win\", \"loss\" or \"tie\", found {}",
                                shown(position),
                                shown(&result.to_string())
                            ))
                        },
                    )?;
                    builder.results[p as usize] = Some(finished);
                }
            }
            None => {}
            Some(_) => {
                return Err(GraphFileError::Json(
                    "results: expected an object of position: \"win\" | \"loss\" | \"tie\"".into(),
                ));
            }
        }
        if builder.names.is_empty() {
            return Err(GraphFileError::Json(
                "no position: give \"moves\" (and \"start\")".into(),
            ));
        }
        if let Some(given) = object.get("start")
            && !mentioned(&object, &name_of(given, "start")?)
        {
            let name = name_of(given, "start")?;
            return Err(GraphFileError::Json(format!(
                "start {:?} is not a position of the graph: no move and no result mentions it (add \"{}\": [] to moves for a position without moves)",
                shown(&name),
                shown(&name)
            )));
        }
        builder.finish(start.unwrap_or(0), memory_limit)
    }

    /// Read either form: JSON when the text starts with `{`, an edge list otherwise.
    ///
    /// # Errors
    /// As [`NamedGraph::from_json`] and [`NamedGraph::from_edge_list`].
    pub fn read(mut input: impl BufRead, memory_limit: u64) -> Result<NamedGraph, GraphFileError> {
        let first = loop {
            let buffer = input
                .fill_buf()
                .map_err(|e| GraphFileError::Io(e.to_string()))?;
            match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
                Some(i) => break Some(buffer[i]),
                None if buffer.is_empty() => break None,
                None => {
                    let len = buffer.len();
                    input.consume(len);
                }
            }
        };
        if first == Some(b'{') {
            // The text is held whole with its parse tree, several times its size: both are
            // counted against the memory limit.
            let limit = memory_limit / JSON_BYTES_PER_BYTE_OF_TEXT;
            let bytes = crate::parse::read_limited(
                &mut input,
                limit,
                "the graph's JSON",
                &format!(
                    "the memory limit of {} holds with its parse tree ({JSON_BYTES_PER_BYTE_OF_TEXT} bytes a byte of text)",
                    crate::parse::human_size(memory_limit)
                ),
                "raise --memory-limit, or write the graph as an edge list (FROM TO a line), read as it comes",
            )
            .map_err(|e| GraphFileError::Json(e.to_string()))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| GraphFileError::Json("not UTF-8 text".into()))?;
            NamedGraph::from_json(&text, memory_limit)
        } else {
            NamedGraph::from_edge_list(input, memory_limit)
        }
    }

    /// The graph.
    #[must_use]
    pub fn graph(&self) -> &GameGraph {
        &self.graph
    }

    /// The name of position `index`.
    #[must_use]
    pub fn name(&self, index: u32) -> Option<&str> {
        self.names.get_index(index as usize).map(AsRef::as_ref)
    }

    /// The position named `name`.
    #[must_use]
    pub fn index_of(&self, name: &str) -> Option<u32> {
        self.names.get_index_of(name).map(|i| i as u32)
    }

    /// The start's name.
    #[must_use]
    pub fn start(&self) -> &str {
        self.name(crate::Game::start(&self.graph)).unwrap_or("")
    }

    /// Solve it.
    ///
    /// # Errors
    /// As [`GameGraph::solve`].
    pub fn solve(&self, options: &Options) -> Result<GraphSolution, GraphError> {
        self.graph.solve(options)
    }

    /// A position's value, its moves best first and a best line, by names; `None` for a name
    /// not in the graph.
    #[must_use]
    pub fn analyse(&self, solution: &GraphSolution, name: &str) -> Option<NamedAnalysis> {
        let index = self.index_of(name)?;
        let analysis = engine::analyse(&self.graph, solution.table(), &index)?;
        let named = |i: &u32| self.name(*i).unwrap_or("").to_string();
        Some(NamedAnalysis {
            record: analysis.record,
            moves: analysis
                .moves
                .iter()
                .map(|m| (named(&m.mv), m.record))
                .collect(),
            best_line: analysis.best_line.iter().map(named).collect(),
        })
    }
}

/// A position of a named graph, read from its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedAnalysis {
    /// Its value for the player to move.
    pub record: Record,
    /// Each move (the position it leads to) and its value for the mover, best first.
    pub moves: Vec<(String, Record)>,
    /// A line of best moves: the positions it passes through.
    pub best_line: Vec<String>,
}

impl NamedAnalysis {
    /// The moves that win.
    #[must_use]
    pub fn winning_moves(&self) -> Vec<&str> {
        self.moves
            .iter()
            .filter(|(_, r)| r.outcome() == Some(Outcome::Win))
            .map(|(name, _)| name.as_str())
            .collect()
    }
}

/// A value as JSON fields: `outcome` and `remoteness` (null for a draw).
fn value_json(record: Record) -> (serde_json::Value, serde_json::Value) {
    (
        serde_json::json!(record.outcome()),
        match record.outcome() {
            Some(Outcome::Draw) | None => serde_json::Value::Null,
            _ => serde_json::json!(record.remoteness()),
        },
    )
}

impl NamedGraph {
    /// The answer front ends print: `position`'s value (the start when `None`), every move's
    /// value best first, the winning moves, a best line, how the positions divide, and with
    /// `all` every position's value and winning moves (`values`).
    ///
    /// # Errors
    /// A position name not in the graph.
    pub fn report(
        &self,
        solution: &GraphSolution,
        position: Option<&str>,
        all: bool,
    ) -> Result<serde_json::Value, String> {
        self.report_within(solution, position, all, u64::MAX)
    }

    /// [`NamedGraph::report`], refused up front when its JSON would take more than
    /// `memory_limit` bytes (a position of millions of moves, `all` on millions of
    /// positions), with the figure.
    ///
    /// # Errors
    /// A position name not in the graph, or the answer over the limit.
    pub fn report_within(
        &self,
        solution: &GraphSolution,
        position: Option<&str>,
        all: bool,
        memory_limit: u64,
    ) -> Result<serde_json::Value, String> {
        let name = position.unwrap_or_else(|| self.start());
        let missing = || {
            format!(
                "no position {:?} in the graph (it has {} positions)",
                shown(name),
                self.graph.positions()
            )
        };
        let index = self.index_of(name).ok_or_else(missing)?;
        let moves = self.graph.targets(index).len() as u64;
        let names = self
            .name_bytes
            .checked_div(self.graph.positions())
            .unwrap_or(0);
        let mut needed = moves * (REPORT_BYTES_PER_MOVE + names);
        if all {
            needed += self.graph.positions() * (REPORT_BYTES_PER_POSITION + names)
                + self.graph.move_count() * (REPORT_BYTES_PER_MOVE / 8);
        }
        if needed > memory_limit {
            return Err(format!(
                "the answer lists {moves} moves{}: about {} as JSON, over the {} the memory limit leaves after the graph; raise --memory-limit{}",
                if all {
                    format!(" and every one of {} positions", self.graph.positions())
                } else {
                    String::new()
                },
                crate::parse::human_size(needed),
                crate::parse::human_size(memory_limit),
                if all { ", or leave out --all" } else { "" }
            ));
        }
        let analysis = self.analyse(solution, name).ok_or_else(missing)?;
        let (outcome, remoteness) = value_json(analysis.record);
        let moves: Vec<serde_json::Value> = analysis
            .moves
            .iter()
            .map(|(to, record)| {
                let (outcome, remoteness) = value_json(*record);
                serde_json::json!({"move": to, "outcome": outcome, "remoteness": remoteness})
            })
            .collect();
        let counts = solution.counts(self.graph.positions());
        let mut answer = serde_json::json!({
            "game": "graph",
            "start": self.start(),
            "position": name,
            "outcome": outcome,
            "remoteness": remoteness,
            "moves": moves,
            "winning_moves": analysis.winning_moves(),
            "best_line": analysis.best_line,
            "positions": self.graph.positions(),
            "moves_total": self.graph.move_count(),
            "counts": {
                "positions": counts.positions,
                "wins": counts.wins,
                "losses": counts.losses,
                "ties": counts.ties,
                "draws": counts.draws,
            },
        });
        if all {
            let values: Vec<serde_json::Value> = (0..self.graph.positions() as u32)
                .map(|index| {
                    let record = solution.record(index).unwrap_or(Record::OPEN);
                    let (outcome, remoteness) = value_json(record);
                    let winning: Vec<&str> = self
                        .graph
                        .targets(index)
                        .iter()
                        .filter(|&&t| {
                            solution
                                .record(t)
                                .and_then(engine::move_value)
                                .and_then(Record::outcome)
                                == Some(Outcome::Win)
                        })
                        .map(|&t| self.name(t).unwrap_or(""))
                        .collect();
                    serde_json::json!({
                        "position": self.name(index),
                        "outcome": outcome,
                        "remoteness": remoteness,
                        "winning_moves": winning,
                    })
                })
                .collect();
            answer["values"] = serde_json::Value::Array(values);
        }
        Ok(answer)
    }
}

/// Whether `name` is a key of `moves` or `results`, or a move's target, in a graph's JSON.
fn mentioned(object: &serde_json::Map<String, serde_json::Value>, name: &str) -> bool {
    use serde_json::Value;
    let is_name = |v: &Value| match v {
        Value::String(s) => s == name,
        Value::Number(n) => n.to_string() == name,
        _ => false,
    };
    let in_moves = object
        .get("moves")
        .and_then(Value::as_object)
        .is_some_and(|moves| {
            moves.contains_key(name)
                || moves
                    .values()
                    .filter_map(Value::as_array)
                    .any(|targets| targets.iter().any(is_name))
        });
    let in_results = object
        .get("results")
        .and_then(Value::as_object)
        .is_some_and(|results| results.contains_key(name));
    in_moves || in_results
}

/// Any JSON, checked for an object with a key given twice (serde_json keeps the last).
struct NoDuplicateKeys;

impl<'de> serde::Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NoDuplicateKeysVisitor)
    }
}

struct NoDuplicateKeysVisitor;

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeysVisitor {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "the key {:?} is given twice",
                    shown(&key)
                )));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(NoDuplicateKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(NoDuplicateKeys)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
}
