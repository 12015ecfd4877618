//! The games as the web explorer and the play mode see them: one position at a time, named by
//! the command's positional arguments, with every legal move valued and the position it leads
//! to in the same notation, so that a client can follow a line without knowing the game.
//!
//! An answer is the command's own `--json` object (the same code path, under a time budget),
//! with `moves` completed and sorted best first: wins by increasing remoteness, ties, draws,
//! then losses by decreasing remoteness. Each move carries `position` (the position it leads
//! to, or null when the game's notation cannot show it), `ends_game`, and `query` (every
//! parameter to ask for that position, `position` included).

use crate::args::Cli;
use crate::commands::{self, Budget, CommandError, OverBudget};
use clap::Parser;
use num_bigint::BigUint;
use perfect_play::engine::Database;
use perfect_play::impartial::{ComponentMove, HeapGame, SumGame};
use perfect_play::octal::{self, OctalCode};
use perfect_play::registry::{self, EngineGame, GameInfo, ParamKind, Params};
use perfect_play::subtraction::{self, Rule, SubtractionSet};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The most moves an answer lists when the heap games would have more (the winning moves are
/// always listed; `moves_complete` says false).
pub const MAX_LISTED_MOVES: usize = 2_000;

/// Why a question is not answered.
#[derive(Debug, thiserror::Error)]
pub enum ExploreError {
    /// No game of that name.
    #[error("there is no game {0:?}; the games are listed at /api/v1/games")]
    UnknownGame(String),
    /// The position or a parameter is not accepted (the command's one-line message).
    #[error("{0}")]
    BadInput(String),
    /// The estimated time is above the budget: refused before any work.
    #[error("{message}")]
    OverBudget {
        /// The sentence with the figure.
        message: String,
        /// The estimate, in seconds (a lower bound when the work stopped at the budget).
        estimate_seconds: f64,
        /// The budget, in seconds.
        budget_seconds: f64,
    },
}

/// The game of that name (or alias) in the library's registry.
pub fn game(name: &str) -> Option<&'static GameInfo> {
    registry::find(name)
}

/// A database the explorer answers from: its game and variant, open for reading.
pub struct ServedDatabase {
    /// The game it holds.
    pub game: &'static GameInfo,
    /// The game built for the database's variant.
    pub engine: Box<dyn EngineGame>,
    /// The parameters that name the variant (`size=4`).
    pub params: Vec<(&'static str, String)>,
    /// Where it is.
    pub path: PathBuf,
    /// The open file (one reader at a time: a read seeks).
    pub database: Mutex<Database>,
}

impl ServedDatabase {
    /// Open the database at `path`: it must hold a game of the registry, whole.
    ///
    /// # Errors
    /// A file that cannot be read, or one of a game this tool does not know.
    pub fn open(path: &Path) -> Result<ServedDatabase, String> {
        let database = Database::open(path, false).map_err(|e| e.to_string())?;
        let header = database.header.clone();
        let shown = path.display();
        let game = registry::find(&header.game)
            .filter(|g| g.engine.is_some())
            .ok_or_else(|| {
                format!(
                    "{shown} holds {:?}, which is not a game of this tool",
                    header.game
                )
            })?;
        let engine = game
            .params_from(&header.params)
            .ok()
            .and_then(|params| game.build(&params)?.ok())
            .filter(|engine| engine.variant() == header.variant)
            .ok_or_else(|| {
                format!(
                    "{shown} holds {} {:?} without the parameters that build it (written by an older version): solve it again",
                    header.game, header.variant
                )
            })?;
        if !crate::args::reads_databases(game.name) {
            return Err(format!(
                "{shown} holds {}, which is answered by solving at once, not from a database",
                game.name
            ));
        }
        if engine.index_count() != header.indices {
            return Err(format!(
                "{shown} holds {} {} with {} indices, not the {} this build numbers: solve it again",
                header.game,
                header.variant,
                header.indices,
                engine.index_count()
            ));
        }
        let params = engine.params();
        Ok(ServedDatabase {
            game,
            engine,
            params,
            path: path.to_path_buf(),
            database: Mutex::new(database),
        })
    }
}

/// Every game with its parameters and examples, as JSON (`GET /api/v1/games`); a game with a
/// served database lists that database's variant first.
pub fn catalogue(databases: &[ServedDatabase]) -> Value {
    let games: Vec<Value> = registry::GAMES
        .iter()
        .map(|g| {
            let query = |position: &str, params: &mut dyn Iterator<Item = (&str, &str)>| {
                let mut query = Map::new();
                query.insert("position".into(), json!(position));
                for (k, v) in params {
                    query.insert(k.into(), json!(v));
                }
                Value::Object(query)
            };
            let mut examples: Vec<Value> = databases
                .iter()
                .filter(|d| d.game.name == g.name)
                .map(|d| query("", &mut d.params.iter().map(|(k, v)| (*k, v.as_str()))))
                .collect();
            examples.extend(
                g.examples
                    .iter()
                    .map(|e| query(e.position, &mut e.params.iter().copied())),
            );
            json!({
                "name": g.name,
                "title": g.title,
                "description": g.description,
                "view": g.view.name(),
                "notation": g.notation,
                "move_notation": g.move_notation,
                "command": format!("perfect-play {}", g.name),
                "params": g.params.iter().map(|p| {
                    let mut param = json!({
                        "name": p.name, "type": p.kind.name(), "required": p.required,
                        "default": if p.kind == ParamKind::Boolean && p.default.is_empty() { "false" } else { p.default },
                        "help": p.help,
                    });
                    if let ParamKind::Integer { min, max } = p.kind {
                        param["minimum"] = json!(min);
                        param["maximum"] = json!(max);
                    }
                    param
                }).collect::<Vec<_>>(),
                "examples": examples,
                "databases": databases.iter().filter(|d| d.game.name == g.name)
                    .map(|d| d.engine.variant()).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "games": games })
}

/// Answers questions about positions under a time budget per answer.
#[derive(Clone)]
pub struct Explorer {
    /// Seconds one answer may take; work estimated above it is refused.
    pub budget_seconds: f64,
    /// Clamp every size to the fuzz targets' small budget (see [`crate::Io::small_limits`]).
    pub small_limits: bool,
    /// Solved databases answered from (one block read per position).
    pub databases: Arc<Vec<ServedDatabase>>,
}

impl Default for Explorer {
    fn default() -> Self {
        Explorer {
            budget_seconds: 2.0,
            small_limits: false,
            databases: Arc::new(Vec::new()),
        }
    }
}

impl std::fmt::Debug for Explorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Explorer")
            .field("budget_seconds", &self.budget_seconds)
            .field("small_limits", &self.small_limits)
            .field("databases", &self.databases.len())
            .finish()
    }
}

impl Explorer {
    /// The answer for `game` at the position and options in `params` (query parameters).
    pub fn answer(&self, game: &str, params: &[(String, String)]) -> Result<Value, ExploreError> {
        let spec = self::game(game).ok_or_else(|| ExploreError::UnknownGame(game.into()))?;
        let mut position = String::new();
        let mut given = Map::new();
        let mut options: Vec<(String, String)> = Vec::new();
        for (name, value) in params {
            if given.contains_key(name.as_str()) {
                return Err(ExploreError::BadInput(format!("{name} is given twice")));
            }
            if name == "position" {
                position = value.clone();
                given.insert(name.clone(), json!(value));
                continue;
            }
            options.push((name.clone(), value.clone()));
        }
        // The parameters, checked by the registry (kinds, ranges, defaults).
        let checked = spec
            .params_from(&options)
            .map_err(|e| ExploreError::BadInput(e.to_string()))?;
        let mut flags: Vec<String> = Vec::new();
        for (name, _) in &options {
            let Some(param) = spec.param(name) else {
                continue;
            };
            let value = checked.text(param.name).unwrap_or_default().to_string();
            if param.kind == ParamKind::Boolean {
                if value == "true" {
                    flags.push(param.flag());
                }
            } else {
                flags.push(format!("{}={value}", param.flag()));
            }
            given.insert(name.clone(), json!(value));
        }
        let mut answer = if spec.engine.is_some() && !crate::args::has_own_command(spec.name) {
            self.engine_answer(spec, &checked, &position)?
        } else {
            let mut args: Vec<String> = vec!["perfect-play".into(), spec.name.into()];
            args.extend(flags);
            if let Some(db) = self.database_for(spec, &checked) {
                args.push(format!("--db={}", db.path.display()));
            }
            args.push("--json".into());
            args.push("--".into());
            args.extend(position.split_whitespace().map(str::to_string));
            self.run(&args)?
        };
        if answer.get("outcome").is_none() {
            // The command answered something other than a position (a code's period, a
            // set's sequence): the explorer answers positions only.
            return Err(ExploreError::BadInput(format!(
                "give a position for {}: {}",
                spec.name, spec.notation
            )));
        }
        complete_moves(self, spec, &mut answer, &given)?;
        answer["query"] = Value::Object(given);
        Ok(answer)
    }

    /// The served database of this game and variant, if any (the game built from `params`).
    fn database_for(&self, spec: &GameInfo, params: &Params) -> Option<&ServedDatabase> {
        let built = spec.build(params)?.ok()?;
        self.served(spec, built.as_ref())
    }

    /// The served database of an engine game already built.
    fn served(&self, spec: &GameInfo, game: &dyn EngineGame) -> Option<&ServedDatabase> {
        let variant = game.variant();
        self.databases
            .iter()
            .find(|d| d.game.name == spec.name && d.engine.variant() == variant)
    }

    /// An engine game's answer: from a served database when one holds the variant, else
    /// solved in memory under the budget.
    fn engine_answer(
        &self,
        spec: &GameInfo,
        params: &Params,
        position: &str,
    ) -> Result<Value, ExploreError> {
        let game = match spec.build(params) {
            Some(Ok(game)) => game,
            Some(Err(e)) => return Err(ExploreError::BadInput(e.to_string())),
            None => return Err(ExploreError::UnknownGame(spec.name.into())),
        };
        let position = Some(position.trim()).filter(|p| !p.is_empty());
        let output = match self.served(spec, game.as_ref()) {
            Some(served) => {
                let mut db = served
                    .database
                    .lock()
                    .map_err(|_| ExploreError::BadInput("the database is unavailable".into()))?;
                commands::engine::read_database(game.as_ref(), &mut db, position)
                    .map(|read| commands::engine::answer_output(&read, true))
            }
            None => {
                commands::engine::query_in_memory(game.as_ref(), position, 0, self.budget(), true)
            }
        };
        output.map(|o| o.json).map_err(refusal)
    }

    fn budget(&self) -> Budget {
        Budget {
            seconds: Some(self.budget_seconds),
            small: self.small_limits,
            ..Budget::default()
        }
    }

    /// The command's `--json` object for `args`, under the budget.
    fn run(&self, args: &[String]) -> Result<Value, ExploreError> {
        let cli = Cli::try_parse_from(args)
            .map_err(|e| ExploreError::BadInput(crate::first_line(&e.render().to_string())))?;
        commands::answer(&cli, self.budget()).map_err(refusal)
    }
}

/// A command's failure as the explorer's: over the budget, or bad input.
fn refusal(e: CommandError) -> ExploreError {
    match e.downcast::<OverBudget>() {
        Ok(over) => ExploreError::OverBudget {
            message: over.to_string(),
            estimate_seconds: over.estimate,
            budget_seconds: over.budget,
        },
        Err(e) => ExploreError::BadInput(e.to_string()),
    }
}

/// The explorer as the server's oracle: the API's answers are the commands' `--json`.
impl perfect_play_server::Oracle for Explorer {
    fn games(&self) -> Value {
        catalogue(&self.databases)
    }

    fn answer(
        &self,
        game: &str,
        params: &[(String, String)],
    ) -> Result<Value, perfect_play_server::Refusal> {
        Explorer::answer(self, game, params).map_err(|e| match e {
            ExploreError::UnknownGame(_) => perfect_play_server::Refusal::NotFound(e.to_string()),
            ExploreError::BadInput(message) => perfect_play_server::Refusal::BadRequest(message),
            ExploreError::OverBudget {
                message,
                estimate_seconds,
                budget_seconds,
            } => perfect_play_server::Refusal::OverBudget {
                message,
                estimate_seconds,
                budget_seconds,
            },
        })
    }
}

/// A heap size from JSON: a number or a decimal string.
fn heap(value: &Value) -> Option<BigUint> {
    match value {
        Value::Number(n) => n.as_u64().map(BigUint::from),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn heaps(answer: &Value, field: &str) -> Vec<BigUint> {
    answer[field]
        .as_array()
        .map(|a| a.iter().filter_map(heap).collect())
        .unwrap_or_default()
}

fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The heaps after a heap move: heap `index` (1-based) replaced by `leaves`.
fn after_heap_move(heaps: &[BigUint], index: usize, leaves: &[BigUint]) -> Vec<BigUint> {
    let mut after = Vec::with_capacity(heaps.len() + leaves.len());
    for (i, h) in heaps.iter().enumerate() {
        if i + 1 == index {
            after.extend(leaves.iter().cloned());
        } else {
            after.push(h.clone());
        }
    }
    after
}

/// Sort key of a move for its maker: wins by increasing remoteness, ties, draws, losses by
/// decreasing remoteness; unknown remoteness after the known ones of its class.
fn order(m: &Value) -> (u8, i64) {
    let r = m["remoteness"].as_i64();
    match m["outcome"].as_str() {
        Some("win") => (0, r.unwrap_or(i64::MAX)),
        Some("tie") => (1, r.unwrap_or(i64::MAX)),
        Some("draw") => (2, 0),
        _ => (3, r.map_or(i64::MAX, |r| -r)),
    }
}

/// A move of the heap games (`{"heap", "take", "leaves"}`) or of a sum (`{"component", ...}`,
/// `place` names the field) in a canonical form for lookups.
fn move_key(m: &Value, place: &str) -> Option<(u64, String, Vec<String>)> {
    let mut leaves: Vec<String> = m["leaves"]
        .as_array()?
        .iter()
        .map(|l| heap(l).map(|h| h.to_string()))
        .collect::<Option<_>>()?;
    leaves.sort();
    Some((m[place].as_u64()?, heap(&m["take"])?.to_string(), leaves))
}

/// Fill in and sort `moves` for the game, with the position each leads to.
fn complete_moves(
    explorer: &Explorer,
    spec: &GameInfo,
    answer: &mut Value,
    given: &Map<String, Value>,
) -> Result<(), ExploreError> {
    let child_query = |position: Option<String>| -> Value {
        let mut q = given.clone();
        q.insert("position".into(), json!(position));
        Value::Object(q)
    };
    let mut moves: Vec<Value> = answer["moves"].as_array().cloned().unwrap_or_default();
    let mut complete = answer["moves_complete"].as_bool().unwrap_or(true);
    match spec.name {
        "nim" => {
            let hs = heaps(answer, "heaps");
            for m in &mut moves {
                let leaves = heaps(&m["move"], "leaves");
                let index = m["move"]["heap"].as_u64().unwrap_or(0) as usize;
                let after: Vec<BigUint> = after_heap_move(&hs, index, &leaves)
                    .into_iter()
                    .filter(|h| *h != BigUint::ZERO)
                    .collect();
                m["ends_game"] = json!(after.is_empty());
                let position = if after.is_empty() {
                    "0".to_string()
                } else {
                    join(&after)
                };
                m["position"] = json!(position);
                m["query"] = child_query(Some(position));
            }
        }
        "tic-tac-toe" => {
            let board: Vec<char> = answer["board"].as_str().unwrap_or("").chars().collect();
            let mark = if answer["to_move"] == "o" { 'o' } else { 'x' };
            for m in &mut moves {
                let square = m["move"].as_u64().unwrap_or(0) as usize;
                let mut after = board.clone();
                if let Some(cell) = square.checked_sub(1).and_then(|i| after.get_mut(i)) {
                    *cell = mark;
                }
                let position: String = after.into_iter().collect();
                m["ends_game"] = json!(m["remoteness"] == 1);
                m["position"] = json!(position);
                m["query"] = child_query(Some(position));
            }
        }
        "connect-four" => {
            let played: Vec<u64> = answer["moves_played"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            let wide = answer["width"].as_u64().unwrap_or(0) > 9;
            for m in &mut moves {
                let mut after = played.clone();
                after.extend(m["move"].as_u64());
                let position = if wide {
                    after
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                } else {
                    after.iter().map(u64::to_string).collect::<String>()
                };
                m["ends_game"] = json!(m["remoteness"] == 1);
                m["position"] = json!(position);
                m["query"] = child_query(Some(position));
            }
        }
        _ if spec.engine.is_some() => {
            for m in &mut moves {
                let position = m["position"].as_str().map(str::to_string);
                m["position"] = json!(position);
                m["query"] = child_query(position);
            }
        }
        "can-i-win" => {
            let pool: Vec<i64> = answer["pool"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            let target = answer["target"].as_i64().unwrap_or(0);
            for m in &mut moves {
                let pick = m["move"].as_i64().unwrap_or(0);
                let rest: Vec<String> = pool
                    .iter()
                    .filter(|&&n| n != pick)
                    .map(i64::to_string)
                    .collect();
                let total = target - pick;
                let ends = total <= 0 || rest.is_empty();
                m["ends_game"] = json!(ends);
                let position = (!ends).then(|| total.to_string());
                m["position"] = json!(position);
                let mut q = given.clone();
                q.insert("position".into(), json!(position));
                q.insert("pool".into(), json!(rest.join(",")));
                m["query"] = Value::Object(q);
            }
        }
        "stones" => {
            moves = stones_moves(explorer, answer, given)?;
        }
        "coins" | "subtraction" | "octal" => {
            let (listed, all) = heap_game_moves(spec.name, answer);
            complete = all;
            let hs = heaps(answer, "heaps");
            // What stays in the notation besides the heaps: the code (octal), the two moves
            // besides 1 as they were typed (coins).
            let typed: Vec<&str> = given
                .get("position")
                .and_then(Value::as_str)
                .unwrap_or("")
                .split_whitespace()
                .collect();
            let (before, after_heaps) = match spec.name {
                "octal" => (typed.first().map(|c| format!("{c} ")), String::new()),
                "coins" => (
                    None,
                    format!(" {}", typed.get(1..).unwrap_or_default().join(" ")),
                ),
                _ => (None, String::new()),
            };
            moves = listed;
            let one_pile = one_pile_values(spec.name, answer, &hs);
            if let Some(values) = &one_pile
                && let Some(&(_, r)) = values.last()
            {
                answer["remoteness"] = json!(r);
            }
            for m in &mut moves {
                if let (Some(values), Some(take)) = (&one_pile, m["move"]["take"].as_u64()) {
                    // One pile: the move's remoteness from the pile it leaves.
                    let left = values.len() as u64 - 1 - take;
                    if let Some(&(_, r)) = values.get(left as usize) {
                        m["remoteness"] = json!(r + 1);
                    }
                }
                let index = m["move"]["heap"].as_u64().unwrap_or(0) as usize;
                let leaves = heaps(&m["move"], "leaves");
                let after: Vec<BigUint> = after_heap_move(&hs, index, &leaves);
                let ends = after.iter().all(|h| *h == BigUint::ZERO);
                let heaps_text = if after.is_empty() {
                    "0".to_string()
                } else {
                    join(&after)
                };
                let position = format!(
                    "{}{heaps_text}{after_heaps}",
                    before.as_deref().unwrap_or("")
                );
                m["ends_game"] = json!(ends);
                m["position"] = json!(position);
                m["query"] = child_query(Some(position));
            }
        }
        "sum" => {
            let components: Vec<(String, String)> = answer["components"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|c| {
                            let heap = heap(&c["heap"]).map(|h| h.to_string()).unwrap_or_default();
                            (c["game"].as_str().unwrap_or("").to_string(), heap)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let (listed, all) = sum_moves(answer, &components);
            complete = all;
            moves = listed
                .into_iter()
                .map(|(w, win)| {
                    let index = w["component"].as_u64().unwrap_or(0) as usize;
                    let mut after = Vec::new();
                    for (i, (game, heap_text)) in components.iter().enumerate() {
                        if i + 1 == index {
                            let leaves = heaps(&w, "leaves");
                            if leaves.is_empty() {
                                after.push(format!("{game}:0"));
                            }
                            after.extend(leaves.iter().map(|l| format!("{game}:{l}")));
                        } else {
                            after.push(format!("{game}:{heap_text}"));
                        }
                    }
                    let position = after.join(" ");
                    json!({
                        "move": w,
                        "outcome": if win { "win" } else { "loss" },
                        "remoteness": null,
                        "ends_game": false,
                        "position": position,
                        "query": child_query(Some(position.clone())),
                    })
                })
                .collect();
        }
        _ => {}
    }
    moves.sort_by_key(order);
    answer["moves"] = Value::Array(moves);
    answer["moves_complete"] = json!(complete);
    Ok(())
}

/// The largest single pile whose remoteness the explorer computes (8 bytes and one pass over
/// the moves a pile smaller than it).
const MAX_REMOTENESS_PILE: u64 = 1_000_000;

/// For a coin or subtraction position of one pile (up to [`MAX_REMOTENESS_PILE`]): every
/// smaller pile's value and remoteness, the last entry the position's own.
fn one_pile_values(game: &str, answer: &Value, heaps: &[BigUint]) -> Option<Vec<(bool, u32)>> {
    if !matches!(game, "coins" | "subtraction") {
        return None;
    }
    let [pile] = heaps else { return None };
    let pile = u64::try_from(pile)
        .ok()
        .filter(|&p| p <= MAX_REMOTENESS_PILE)?;
    let moves: Vec<u64> = answer["move_set"]
        .as_array()?
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let set = SubtractionSet::new(&moves).ok()?;
    let rule = if answer["misere"] == true {
        Rule::Misere
    } else {
        Rule::Normal
    };
    Some(subtraction::pile_values(&set, rule, pile))
}

/// Every move of a coin, subtraction or octal position, valued by the winning moves the
/// command listed (every other move loses); remoteness is not known from Grundy values.
/// Returns the moves and whether they are all of them.
fn heap_game_moves(game: &str, answer: &Value) -> (Vec<Value>, bool) {
    let winning: Vec<Value> = answer["winning_moves"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let total = heap(&answer["winning_moves_total"]).unwrap_or_default();
    let winning_keys: BTreeSet<_> = winning.iter().filter_map(|m| move_key(m, "heap")).collect();
    let valued = |mv: Value, win: bool| {
        json!({
            "move": mv,
            "outcome": if win { "win" } else { "loss" },
            "remoteness": null,
        })
    };
    let winners_only = |winning: &[Value]| -> (Vec<Value>, bool) {
        (
            winning.iter().cloned().map(|m| valued(m, true)).collect(),
            false,
        )
    };
    if total != BigUint::from(winning.len()) {
        return winners_only(&winning);
    }
    let hs = heaps(answer, "heaps");
    let mut seen = BTreeSet::new();
    let mut moves = Vec::new();
    let code: Option<OctalCode> = match game {
        "octal" => match answer["code"].as_str() {
            Some("4!.0") => Some(OctalCode::grundys_game()),
            Some(code) => code.parse().ok(),
            None => None,
        },
        _ => None,
    };
    let set: Vec<u64> = answer["move_set"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    for (i, h) in hs.iter().enumerate() {
        if !seen.insert(h.clone()) {
            continue;
        }
        let mut add = |take: u64, leaves: Vec<BigUint>| {
            let mv = json!({
                "heap": i + 1,
                "take": take,
                "leaves": leaves.iter().map(crate::output::big_json).collect::<Vec<_>>(),
            });
            let win = move_key(&mv, "heap").is_some_and(|k| winning_keys.contains(&k));
            moves.push(valued(mv, win));
        };
        match &code {
            Some(code) => {
                let Ok(small) = u32::try_from(h) else {
                    return winners_only(&winning);
                };
                if small > 4_096 {
                    return winners_only(&winning);
                }
                for (take, leaves) in octal::moves_of(code, small) {
                    add(take as u64, leaves.into_iter().map(BigUint::from).collect());
                }
            }
            None => {
                for &take in &set {
                    if BigUint::from(take) <= *h {
                        let left = h - BigUint::from(take);
                        let leaves = if left == BigUint::ZERO {
                            vec![]
                        } else {
                            vec![left]
                        };
                        add(take, leaves);
                    }
                }
            }
        }
        if moves.len() > MAX_LISTED_MOVES {
            return winners_only(&winning);
        }
    }
    (moves, true)
}

/// Every move of a sum, valued by the winning moves the command listed (every other move
/// loses), when that list is complete and every heap small; else the winning moves alone.
/// Equal components are listed once (the first), as the command counts them.
fn sum_moves(answer: &Value, components: &[(String, String)]) -> (Vec<(Value, bool)>, bool) {
    let winning: Vec<Value> = answer["winning_moves"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let winners_only = || (winning.iter().cloned().map(|w| (w, true)).collect(), false);
    let total = heap(&answer["winning_moves_total"]).unwrap_or_default();
    if total != BigUint::from(winning.len()) {
        return winners_only();
    }
    let key = |m: &Value| move_key(m, "component");
    let winning_keys: BTreeSet<_> = winning.iter().filter_map(key).collect();
    let mut seen = BTreeSet::new();
    let mut moves = Vec::new();
    for (i, (game, heap_text)) in components.iter().enumerate() {
        if !seen.insert((game.clone(), heap_text.clone())) {
            continue;
        }
        let (Ok(game), Ok(h)) = (game.parse::<HeapGame>(), heap_text.parse::<u32>()) else {
            return winners_only();
        };
        if h > 4_096 {
            return winners_only();
        }
        let sum = SumGame {
            games: vec![game],
            misere: false,
        };
        for (take, leaves) in sum.heap_moves(0, h) {
            let described = ComponentMove {
                component: i + 1,
                take: BigUint::from(take),
                leaves: leaves.iter().map(|&l| BigUint::from(l)).collect(),
            };
            let mv = json!({
                "component": i + 1,
                "move": described.describe(),
                "take": take,
                "leaves": leaves,
            });
            let win = key(&mv).is_some_and(|k| winning_keys.contains(&k));
            moves.push((mv, win));
        }
        if moves.len() > MAX_LISTED_MOVES {
            return winners_only();
        }
    }
    (moves, true)
}

/// The two moves of the Stone Game, valued by asking for the row each leaves.
fn stones_moves(
    explorer: &Explorer,
    answer: &Value,
    given: &Map<String, Value>,
) -> Result<Vec<Value>, ExploreError> {
    let piles: Vec<i128> = answer["piles"]
        .as_array()
        .map(|a| a.iter().filter_map(int).collect())
        .unwrap_or_default();
    let ties_win = answer["ties_win"].as_bool().unwrap_or(false);
    let n = piles.len();
    let mut moves = Vec::new();
    for (end, taken, rest) in [
        ("left", piles.first(), piles.get(1..)),
        ("right", piles.last(), piles.get(..n.saturating_sub(1))),
    ] {
        let (Some(&taken), Some(rest)) = (taken, rest) else {
            continue;
        };
        let position = join(rest);
        let rest_margin = if rest.is_empty() {
            0
        } else {
            let mut args: Vec<String> = vec!["perfect-play".into(), "stones".into()];
            if ties_win {
                args.push("--ties-win".into());
            }
            args.extend(["--json".to_string(), "--".to_string()]);
            args.extend(rest.iter().map(i128::to_string));
            int(&explorer.run(&args)?["margin"]).unwrap_or(0)
        };
        let margin = taken - rest_margin;
        let outcome = match margin.signum() {
            1 => "win",
            -1 => "loss",
            _ if ties_win => "win",
            _ => "tie",
        };
        let mut q = given.clone();
        q.insert(
            "position".into(),
            if rest.is_empty() {
                Value::Null
            } else {
                json!(position)
            },
        );
        moves.push(json!({
            "move": end,
            "outcome": outcome,
            "remoteness": n,
            "margin": crate::output::int_json(margin),
            "ends_game": rest.is_empty(),
            "position": if rest.is_empty() { Value::Null } else { json!(position) },
            "query": Value::Object(q),
        }));
    }
    Ok(moves)
}

/// A wide integer from JSON: a number or a decimal string.
fn int(value: &Value) -> Option<i128> {
    match value {
        Value::Number(n) => n.as_i64().map(i128::from),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}
