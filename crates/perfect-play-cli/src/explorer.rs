//! The games as the web explorer and the play mode see them: one position at a time, named by
//! the command's positional arguments, with every legal move valued and the position it leads
//! to in the same notation, so that a client can follow a line without knowing the game.
//!
//! An answer is the registry's (the object the command prints with `--json`), under a time
//! budget, or read from a served database: every move best first with the position it leads
//! to. The explorer adds to each move its `query` (every parameter to ask for that position,
//! `position` included) and to the answer the `query` answered.

use crate::database_view;
use perfect_play::budget::Budget;
use perfect_play::budget::{Admission, Busy, Cancel};
use perfect_play::engine::Database;
use perfect_play::registry::answers::connect_four;
use perfect_play::registry::{
    self, Answer, EngineGame, GameInfo, ParamKind, Params, QueryError, answers,
};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
    /// The work was cancelled (the client left, or the budget's deadline passed).
    #[error("the answer was cancelled before it was ready")]
    Cancelled,
    /// Long work turned away for now by the budget's admission.
    #[error(transparent)]
    Busy(#[from] Busy),
    /// A fault on the server's side (a served database that cannot be read): not the
    /// query's, and not kept, since the next request may be answered.
    #[error("{0}")]
    Internal(String),
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
        let (engine, database) =
            answers::engine::open_any_database(path).map_err(|e| e.to_string())?;
        let shown = path.display();
        let game = registry::find(engine.name())
            .ok_or_else(|| format!("{shown} holds {}, not a game of this tool", engine.name()))?;
        if !crate::args::reads_databases(game.name) {
            return Err(format!(
                "{shown} holds {}, which is answered by solving at once, not from a database",
                game.name
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
    /// Opening books the search reads first.
    pub books: Arc<Vec<ServedBook>>,
}

/// An opening book served: Connect Four's, on its board.
#[derive(Debug)]
pub struct ServedBook {
    /// Where it is.
    pub path: PathBuf,
    /// The book.
    pub file: connect_four::BookFile,
}

/// The files `--db` names, each a database of a game's table or a Connect Four opening
/// book (one book per board).
///
/// # Errors
/// A file that cannot be read or is of no game here, or two books of one board.
pub fn open_served(paths: &[PathBuf]) -> Result<(Vec<ServedDatabase>, Vec<ServedBook>), String> {
    let mut databases = Vec::new();
    let mut books: Vec<ServedBook> = Vec::new();
    for path in paths {
        let header = Database::open(path, false)
            .map_err(|e| e.to_string())?
            .header;
        if header.book.is_none() {
            databases.push(ServedDatabase::open(path)?);
            continue;
        }
        let file = connect_four::open_book(path, BOOK_LISTING_BYTES).map_err(|e| e.to_string())?;
        let board = (file.board.width(), file.board.height());
        if books
            .iter()
            .any(|b| (b.file.board.width(), b.file.board.height()) == board)
        {
            return Err(format!(
                "{}: a second book of Connect Four {} x {}: give one per board",
                path.display(),
                board.0,
                board.1
            ));
        }
        books.push(ServedBook {
            path: path.clone(),
            file,
        });
    }
    Ok((databases, books))
}

/// The memory a book's positions may be listed in when it is opened.
const BOOK_LISTING_BYTES: u64 = 2 << 30;

impl ServedBook {
    /// Whether this book answers `game` with `params` (Connect Four on the book's board).
    fn serves(&self, game: &str, params: &Params) -> bool {
        game == "connect-four"
            && connect_four::board_of(params).is_ok_and(|b| {
                (b.width(), b.height()) == (self.file.board.width(), self.file.board.height())
            })
    }
}

impl Default for Explorer {
    fn default() -> Self {
        Explorer {
            budget_seconds: 2.0,
            small_limits: false,
            databases: Arc::new(Vec::new()),
            books: Arc::new(Vec::new()),
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
        self.answer_until(game, params, &Cancel::new(), None)
    }

    /// [`Explorer::answer`], stopped with [`ExploreError::Cancelled`] once `cancel` is raised,
    /// and long work admitted by `admission` (see [`Budget::admission`]).
    ///
    /// # Errors
    /// As [`Explorer::answer`], and [`ExploreError::Busy`] from the admission.
    pub fn answer_until(
        &self,
        game: &str,
        params: &[(String, String)],
        cancel: &Cancel,
        admission: Option<Arc<dyn Admission>>,
    ) -> Result<Value, ExploreError> {
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
        for (name, _) in &options {
            if let Some(param) = spec.param(name) {
                let value = checked.text(param.name).unwrap_or_default();
                given.insert(name.clone(), json!(value));
            }
        }
        let book = self
            .books
            .iter()
            .find(|b| b.serves(spec.name, &checked))
            .map(|b| &b.file);
        let answer = match self.database_for(spec, &checked) {
            Some(served) => read_served(served, &position)?,
            None if book.is_some() => connect_four::answer_with_book(
                &checked,
                &position,
                &self.budget(cancel, admission),
                book,
            )
            .map_err(refusal)?,
            None => spec
                .answer(&checked, &position, &self.budget(cancel, admission))
                .map_err(refusal)?,
        };
        let mut answer = answer.to_json();
        add_queries(spec, &mut answer, &given);
        answer["query"] = Value::Object(given);
        Ok(answer)
    }

    /// The served database of this game and variant, if any (the game built from `params`).
    fn database_for(&self, spec: &GameInfo, params: &Params) -> Option<&ServedDatabase> {
        // Built only when a database of the game is served: the answer builds it again.
        if self.databases.iter().all(|d| d.game.name != spec.name) {
            return None;
        }
        let built = spec.build(params)?.ok()?;
        let variant = built.variant();
        self.databases
            .iter()
            .find(|d| d.game.name == spec.name && d.engine.variant() == variant)
    }

    fn budget(&self, cancel: &Cancel, admission: Option<Arc<dyn Admission>>) -> Budget {
        Budget {
            seconds: Some(self.budget_seconds),
            small: self.small_limits,
            cancel: cancel.clone(),
            admission,
            ..Budget::default()
        }
    }
}

/// A position read from a served database: one block.
fn read_served(served: &ServedDatabase, position: &str) -> Result<Answer, ExploreError> {
    let game = served.engine.as_ref();
    let position = position.trim();
    let mut db = served
        .database
        .lock()
        .map_err(|_| ExploreError::Internal("the database is unavailable".into()))?;
    // The file's name only: the server does not show its directories.
    let name = served
        .path
        .file_name()
        .map(Path::new)
        .unwrap_or(&served.path);
    let database =
        database_view::database_json(name, db.bytes, db.header.positions, true, false, 0);
    let read =
        database_view::read_database(game, &mut db, Some(position).filter(|p| !p.is_empty()))
            .map_err(|e| {
                // The file failing is the server's fault; the position is the query's.
                if e.downcast_ref::<perfect_play::engine::EngineError>()
                    .is_some()
                {
                    ExploreError::Internal(format!(
                        "the served database {} cannot be read: {e}",
                        name.display()
                    ))
                } else {
                    ExploreError::BadInput(e.to_string())
                }
            })?;
    answers::from_table(&read, position, &served.params, Some(database)).map_err(refusal)
}

/// Each move's `query`: the parameters answered, with the position it leads to (null when
/// the move ends the game where the notation has no position for the end) and any parameter
/// the move changes (Can I Win's `pool`: the numbers left; Stone Game II's `m`; Stone Game
/// IX's `removed` and `second`).
fn add_queries(spec: &GameInfo, answer: &mut Value, given: &Map<String, Value>) {
    let Some(moves) = answer["moves"].as_array_mut() else {
        return;
    };
    for m in moves {
        let mut query = given.clone();
        query.insert("position".into(), m["position"].clone());
        for param in spec.params {
            let text = match m.get(param.name) {
                Some(Value::Array(changed)) => {
                    let list: Vec<String> = changed.iter().map(Value::to_string).collect();
                    list.join(",")
                }
                Some(Value::String(changed)) => changed.clone(),
                Some(changed @ (Value::Number(_) | Value::Bool(_))) => changed.to_string(),
                _ => continue,
            };
            query.insert(param.name.into(), json!(text));
        }
        m["query"] = Value::Object(query);
    }
}

/// A refusal of the registry as the explorer's: over the budget, or bad input.
fn refusal(e: QueryError) -> ExploreError {
    match e {
        QueryError::OverBudget(over) => ExploreError::OverBudget {
            message: over.to_string(),
            estimate_seconds: over.estimate,
            budget_seconds: over.budget,
        },
        QueryError::BadInput(message)
        | QueryError::OverMemory(message)
        | QueryError::Unfinished(message) => ExploreError::BadInput(message),
        QueryError::Cancelled(_) => ExploreError::Cancelled,
        QueryError::Busy(busy) => ExploreError::Busy(busy),
        // The explorer reads only the files it was started with: their faults are its own.
        QueryError::File(e) => ExploreError::Internal(e.to_string()),
    }
}

/// The explorer as the server's oracle: the API's answers are the commands' `--json`.
impl perfect_play_server::Oracle for Explorer {
    fn games(&self) -> Value {
        catalogue(&self.databases)
    }

    fn budget_seconds(&self) -> Option<f64> {
        Some(self.budget_seconds)
    }

    fn answer(
        &self,
        game: &str,
        params: &[(String, String)],
        cancel: &Cancel,
        admission: Arc<dyn Admission>,
    ) -> Result<Value, perfect_play_server::Refusal> {
        self.answer_until(game, params, cancel, Some(admission))
            .map_err(|e| match e {
                ExploreError::UnknownGame(_) => {
                    perfect_play_server::Refusal::NotFound(e.to_string())
                }
                ExploreError::BadInput(message) => {
                    perfect_play_server::Refusal::BadRequest(message)
                }
                ExploreError::OverBudget {
                    message,
                    estimate_seconds,
                    budget_seconds,
                } => perfect_play_server::Refusal::OverBudget {
                    message,
                    estimate_seconds,
                    budget_seconds,
                },
                ExploreError::Cancelled => perfect_play_server::Refusal::Cancelled,
                ExploreError::Busy(busy) => perfect_play_server::Refusal::Busy {
                    message: busy.to_string(),
                    retry_after: busy.retry_after,
                },
                ExploreError::Internal(message) => perfect_play_server::Refusal::Internal(message),
            })
    }
}
