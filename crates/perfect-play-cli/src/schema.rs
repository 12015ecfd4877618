//! The JSON Schemas of every command's `--json` output: the contract other tools read. They
//! live in `crates/perfect-play-cli/schemas/` and are printed by `perfect-play schema COMMAND`.

/// The commands that have a schema, as `perfect-play schema` accepts them.
pub const COMMANDS: [&str; 36] = [
    "nim",
    "tic-tac-toe",
    "connect-four",
    "book",
    "solve",
    "query",
    "coins",
    "subtraction",
    "stones",
    "octal",
    "can-i-win",
    "values",
    "sum",
    "tour",
    "graph",
    "batch-error",
    "stone-game-2",
    "stone-game-3",
    "stone-game-6",
    "stone-game-7",
    "stone-game-8",
    "stone-game-9",
    "nim-game",
    "divisor-game",
    "flip-game",
    "chalkboard-xor",
    "guess-number",
    "cat-and-mouse",
    "cgt",
    "domineering",
    "clobber",
    "konane",
    "amazons",
    "toads-and-frogs",
    "hackenbush",
    "cutcake",
];

/// Every name `perfect-play schema` accepts: [`COMMANDS`] and each board game's command.
#[must_use]
pub fn commands() -> Vec<&'static str> {
    let mut all = COMMANDS.to_vec();
    all.extend(
        perfect_play::registry::engine_games()
            .map(|g| g.name)
            .filter(|name| !COMMANDS.contains(name)),
    );
    all
}

/// The schema of `command`'s output (`batch-error`: the object a bad `--batch` line gets; a
/// board game's command, `quixo`, has `query`'s).
#[must_use]
pub fn schema(command: &str) -> Option<&'static str> {
    Some(match command {
        "nim" => include_str!("../schemas/nim.schema.json"),
        "tic-tac-toe" => include_str!("../schemas/tic-tac-toe.schema.json"),
        "connect-four" => include_str!("../schemas/connect-four.schema.json"),
        "book" => include_str!("../schemas/book.schema.json"),
        "solve" => include_str!("../schemas/solve.schema.json"),
        "query" => include_str!("../schemas/query.schema.json"),
        "coins" => include_str!("../schemas/coins.schema.json"),
        "subtraction" => include_str!("../schemas/subtraction.schema.json"),
        "stones" => include_str!("../schemas/stones.schema.json"),
        "octal" => include_str!("../schemas/octal.schema.json"),
        "can-i-win" => include_str!("../schemas/can-i-win.schema.json"),
        "values" => include_str!("../schemas/values.schema.json"),
        "sum" => include_str!("../schemas/sum.schema.json"),
        "tour" => include_str!("../schemas/tour.schema.json"),
        "graph" => include_str!("../schemas/graph.schema.json"),
        "batch-error" => include_str!("../schemas/batch-error.schema.json"),
        "stone-game-2" => include_str!("../schemas/stone-game-2.schema.json"),
        "stone-game-3" => include_str!("../schemas/stone-game-3.schema.json"),
        "stone-game-6" => include_str!("../schemas/stone-game-6.schema.json"),
        "stone-game-7" => include_str!("../schemas/stone-game-7.schema.json"),
        "stone-game-8" => include_str!("../schemas/stone-game-8.schema.json"),
        "stone-game-9" => include_str!("../schemas/stone-game-9.schema.json"),
        "nim-game" => include_str!("../schemas/nim-game.schema.json"),
        "divisor-game" => include_str!("../schemas/divisor-game.schema.json"),
        "flip-game" => include_str!("../schemas/flip-game.schema.json"),
        "chalkboard-xor" => include_str!("../schemas/chalkboard-xor.schema.json"),
        "guess-number" => include_str!("../schemas/guess-number.schema.json"),
        "cat-and-mouse" => include_str!("../schemas/cat-and-mouse.schema.json"),
        "cgt" => include_str!("../schemas/cgt.schema.json"),
        "domineering" => include_str!("../schemas/domineering.schema.json"),
        "clobber" => include_str!("../schemas/clobber.schema.json"),
        "konane" => include_str!("../schemas/konane.schema.json"),
        "amazons" => include_str!("../schemas/amazons.schema.json"),
        "toads-and-frogs" => include_str!("../schemas/toads-and-frogs.schema.json"),
        "hackenbush" => include_str!("../schemas/hackenbush.schema.json"),
        "cutcake" => include_str!("../schemas/cutcake.schema.json"),
        // The board games' own commands answer as `query` does.
        game if perfect_play::registry::find(game).is_some_and(|g| g.engine.is_some()) => {
            include_str!("../schemas/query.schema.json")
        }
        _ => return None,
    })
}

/// The schema of `command` as one self-contained document: the published schema with every
/// schema it refers to by file name (the tour's per-game results) embedded under `$defs`,
/// each keeping its `$id`, so that a `$ref` by file name resolves inside the document (JSON
/// Schema 2020-12 bundling). What `perfect-play schema COMMAND` prints.
#[must_use]
pub fn bundled(command: &str) -> Option<String> {
    let text = schema(command)?;
    let mut root: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut referenced = Vec::new();
    collect_file_refs(&root, &mut referenced);
    if referenced.is_empty() {
        return Some(text.trim_end().to_string());
    }
    referenced.sort();
    referenced.dedup();
    for file in referenced {
        let name = file.trim_end_matches(".schema.json");
        let embedded: serde_json::Value = serde_json::from_str(schema(name)?).ok()?;
        root["$defs"][name] = embedded;
    }
    serde_json::to_string_pretty(&root).ok()
}

/// Every `$ref` to another file (`nim.schema.json`) in `value`.
fn collect_file_refs(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner.as_str()) {
                    ("$ref", Some(target)) if target.ends_with(".schema.json") => {
                        out.push(target.to_string());
                    }
                    _ => collect_file_refs(inner, out),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for inner in items {
                collect_file_refs(inner, out);
            }
        }
        _ => {}
    }
}
