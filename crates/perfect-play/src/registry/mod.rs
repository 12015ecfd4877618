//! The game registry: every game the tool knows, described once, for every front end.
//!
//! A [`GameInfo`] names a game (and its aliases), says what it is in a line, lists its typed
//! parameters, its position and move notation, how a page draws it and example positions.
//! The command line builds its commands and `--help` list from [`GAMES`], the web explorer
//! its `/api/v1/games` and routes, `play` and `tour` their games; a test walks the registry
//! and fails when a front end misses one.
//!
//! Engine games (those solved whole into a table) carry a builder: from their parameters,
//! a `Box<dyn` [`EngineGame`]`>` that solves, reads a table or a database, and answers a
//! position in its notation ([`EngineGame::answer`]), so that front ends share one answer.
//!
//! Adding a game: its module under `games/` (the rules, [`IndexedGame`](crate::engine::IndexedGame)
//! and [`BoardGame`]), and one entry in [`GAMES`]. See ARCHITECTURE.md.

mod answer;
pub mod answers;
mod board;

pub use answer::{Answer, MoveValue, QueryError, Side};
pub use board::{AnswerError, BoardGame, EngineGame, MoveAnswer, MoveName, PositionAnswer};

use crate::budget::Budget;
use crate::games::{
    dobutsu::Dobutsu, dodgem::Dodgem, hexapawn::Hexapawn, mu_torere::MuTorere, quixo::Quixo,
    teeko::Teeko,
};
use crate::tic_tac_toe::{self, TicTacToe};
use thiserror::Error;

/// What a parameter holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// On or off (a flag on the command line, `true`/`false` in a query).
    Boolean,
    /// A whole number from `min` to `max`.
    Integer {
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
    },
    /// Comma-separated whole numbers (`1,3,4`).
    List,
    /// A word (its help says which).
    Text,
}

impl ParamKind {
    /// The kind's name in `/api/v1/games`: `boolean`, `integer`, `list` or `text`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ParamKind::Boolean => "boolean",
            ParamKind::Integer { .. } => "integer",
            ParamKind::List => "list",
            ParamKind::Text => "text",
        }
    }
}

/// A parameter a game takes besides its position: a flag of its command (`--ties-win`) and a
/// query parameter of the API (`ties_win`).
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its name with underscores (`ties_win`); the flag is the same with dashes.
    pub name: &'static str,
    /// What it holds.
    pub kind: ParamKind,
    /// Whether the game needs it (no default).
    pub required: bool,
    /// Its value when it is not given (empty: none).
    pub default: &'static str,
    /// What it means.
    pub help: &'static str,
}

impl Param {
    /// The command-line flag: `--ties-win`.
    #[must_use]
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }
}

/// How a page draws the game's positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Heaps of tokens in rows (Nim, subtraction games).
    Heaps,
    /// One pile of coins and the moves allowed.
    Coins,
    /// Heaps of an octal game and its code.
    Octal,
    /// The components of a sum.
    Sum,
    /// A row of piles taken from either end.
    Row,
    /// A pool of numbers to pick from.
    Pool,
    /// The tic-tac-toe board.
    TicTacToe,
    /// A Connect Four board drawn from the moves played.
    ConnectFour,
    /// A board of marks from the position's rows (`x../.o.:x`), with coordinates.
    Grid,
    /// Mu Torere's star.
    Star,
    /// The position as text (a string of coins, a number, a range).
    Plain,
    /// A partizan game's position drawn from its notation (a grid of rows joined by `|`, a
    /// row of toads and frogs, Hackenbush stalks, pieces of cake), with its thermograph.
    Partizan,
}

impl View {
    /// The view's name for the page: `heaps`, `grid`, ...
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            View::Heaps => "heaps",
            View::Coins => "coins",
            View::Octal => "octal",
            View::Sum => "sum",
            View::Row => "row",
            View::Pool => "pool",
            View::TicTacToe => "tic-tac-toe",
            View::ConnectFour => "connect-four",
            View::Grid => "grid",
            View::Star => "star",
            View::Plain => "plain",
            View::Partizan => "partizan",
        }
    }
}

/// An example position with its parameters (`name=value` pairs).
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The position in the game's notation (empty: the start).
    pub position: &'static str,
    /// Parameters besides the defaults.
    pub params: &'static [(&'static str, &'static str)],
}

impl Example {
    /// Its parameters as (name, text) pairs, as [`GameInfo::params_from`] takes them.
    #[must_use]
    pub fn given(&self) -> Vec<(String, String)> {
        self.params
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    /// Its command-line words after the game's command: the flags (`--size 4`, a boolean
    /// `--misere` alone), then the position's words (after `--` when one starts with a dash
    /// and is not a number, so that it is not read as a flag).
    #[must_use]
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        for (name, value) in self.params {
            let flag = format!("--{}", name.replace('_', "-"));
            if *value == "true" {
                words.push(flag);
            } else {
                words.extend([flag, (*value).to_string()]);
            }
        }
        // Negative numbers read as themselves; another word starting with a dash (a Flip
        // Game string) would read as a flag.
        let flag_like = |w: &str| w.starts_with('-') && w.parse::<i64>().is_err();
        if self.position.split_whitespace().any(flag_like) {
            words.push("--".into());
        }
        words.extend(self.position.split_whitespace().map(str::to_string));
        words
    }
}

/// Builds an engine game from its parameters.
pub type EngineBuilder = fn(&Params) -> Result<Box<dyn EngineGame>, RegistryError>;

/// Answers a position of a family (its notation, its parameters) under a budget.
pub type Answerer = fn(&Params, &str, &Budget) -> Result<Answer, QueryError>;

/// One game, described once for every front end.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// Its name: the command (`perfect-play quixo`), the API path (`/api/v1/quixo`), the
    /// database's game.
    pub name: &'static str,
    /// Other names the command line accepts (`ttt`).
    pub aliases: &'static [&'static str],
    /// Its name for a person.
    pub title: &'static str,
    /// What it is, in a line.
    pub description: &'static str,
    /// How a page draws it.
    pub view: View,
    /// The notation of a position.
    pub notation: &'static str,
    /// The notation of a move.
    pub move_notation: &'static str,
    /// The parameters besides the position.
    pub params: &'static [Param],
    /// Example positions; the first is the tour's and the page's first.
    pub examples: &'static [Example],
    /// For a game the engine solves whole: how to build it.
    pub engine: Option<EngineBuilder>,
    /// For a family with its own solver: its answer (engine games are answered through
    /// their table).
    pub answer: Option<Answerer>,
    /// How it is solved and at what cost, for its command's long help (empty: the
    /// family's command says it).
    pub solved_by: &'static str,
}

impl GameInfo {
    /// The parameter of that name.
    #[must_use]
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Whether the game has a start (its empty position: a board game's empty board), where
    /// play begins when no position is given; heap games and the like have none.
    #[must_use]
    pub fn has_start(&self) -> bool {
        self.engine.is_some() || self.examples.iter().any(|e| e.position.is_empty())
    }

    /// Whether `name` is this game's name or one of its aliases.
    #[must_use]
    pub fn is_called(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }

    /// The parameters' values from `given` (`name`, text) pairs, each checked against its
    /// kind and range, the defaults filled in.
    ///
    /// # Errors
    /// An unknown parameter, one given twice, a value not of its kind or out of range, or a
    /// required one missing.
    pub fn params_from(&self, given: &[(String, String)]) -> Result<Params, RegistryError> {
        let mut values: Vec<(&'static str, String)> = Vec::new();
        for (name, value) in given {
            let param = self
                .param(name)
                .ok_or_else(|| RegistryError::UnknownParam {
                    game: self.name,
                    name: crate::parse::shorten(name),
                    known: self
                        .params
                        .iter()
                        .map(|p| p.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
            if values.iter().any(|(n, _)| *n == param.name) {
                return Err(RegistryError::Twice(param.name));
            }
            values.push((param.name, check(param, value)?));
        }
        for param in self.params {
            if values.iter().all(|(n, _)| *n != param.name) {
                if param.required {
                    return Err(RegistryError::Missing {
                        game: self.name,
                        name: param.name,
                    });
                }
                if !param.default.is_empty() {
                    values.push((param.name, param.default.to_string()));
                }
            }
        }
        Ok(Params { values })
    }

    /// The answer for `position` (the game's notation; empty: the start, where the game has
    /// one) with these parameters, under `budget`: engine games solve their table in memory.
    ///
    /// # Errors
    /// A position or parameter not accepted, or work over the memory limit or the budget.
    pub fn answer(
        &self,
        params: &Params,
        position: &str,
        budget: &Budget,
    ) -> Result<Answer, QueryError> {
        // Only the games with a start (those the engine can solve whole) take no position.
        if self.engine.is_none() && position.trim().is_empty() {
            return Err(QueryError::BadInput(format!(
                "give a position for {}: {}",
                self.name, self.notation
            )));
        }
        if let Some(answer) = self.answer {
            return answer(params, position, budget);
        }
        let game = self
            .build(params)
            .ok_or_else(|| QueryError::BadInput(format!("{} has no answer", self.name)))?
            .map_err(QueryError::bad)?;
        let position = Some(position.trim()).filter(|p| !p.is_empty());
        answers::engine::table_or_search(game.as_ref(), position, 0, budget, &|_| {})
            .map(|answered| answered.answer())
    }

    /// The engine game these parameters describe; `None` for a game not solved by the engine.
    ///
    /// # Errors
    /// As the game's builder: a variant it is not played in.
    pub fn build(&self, params: &Params) -> Option<Result<Box<dyn EngineGame>, RegistryError>> {
        self.engine.map(|build| build(params))
    }
}

/// A value checked against its parameter's kind, in a canonical form.
fn check(param: &Param, value: &str) -> Result<String, RegistryError> {
    let bad = |why: String| RegistryError::BadValue {
        name: param.name,
        value: crate::parse::shorten(value),
        why,
    };
    match param.kind {
        ParamKind::Boolean => match value.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" | "" => Ok("true".into()),
            "false" | "0" | "no" | "off" => Ok("false".into()),
            _ => Err(bad("use true or false".into())),
        },
        ParamKind::Integer { min, max } => match value.trim().parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
            _ => Err(bad(format!("use a whole number from {min} to {max}"))),
        },
        ParamKind::List => {
            crate::parse::list_in(value, 0, u64::MAX).map_err(|e| bad(e.to_string()))?;
            Ok(value.trim().to_string())
        }
        ParamKind::Text => Ok(value.trim().to_string()),
    }
}

/// A game's parameters, checked, with the defaults filled in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    values: Vec<(&'static str, String)>,
}

impl Params {
    /// The text of a parameter, when it has a value.
    #[must_use]
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// A whole-number parameter (checked against its range when it was read).
    #[must_use]
    pub fn integer(&self, name: &str) -> Option<u64> {
        self.text(name).and_then(|v| v.parse().ok())
    }
}

/// Why a game or its parameters are not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RegistryError {
    /// No game of that name.
    #[error("there is no game {0:?}")]
    UnknownGame(String),
    /// The game takes no such parameter.
    #[error("{game} takes no parameter {name:?}; it takes position{}{known}", if known.is_empty() { "" } else { ", " })]
    UnknownParam {
        /// The game.
        game: &'static str,
        /// The parameter given.
        name: String,
        /// The parameters it takes.
        known: String,
    },
    /// A parameter given twice.
    #[error("{0} is given twice")]
    Twice(&'static str),
    /// A required parameter is missing.
    #[error("{game} needs {name}")]
    Missing {
        /// The game.
        game: &'static str,
        /// The parameter.
        name: &'static str,
    },
    /// A value is not of its parameter's kind or out of its range.
    #[error("{name}={value} is not accepted: {why}")]
    BadValue {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        why: String,
    },
    /// The parameters name a variant the game is not played in.
    #[error("{0}")]
    Variant(String),
}

/// The game called `name` (or one of its aliases).
#[must_use]
pub fn find(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.is_called(name))
}

/// Every game solved by the engine.
pub fn engine_games() -> impl Iterator<Item = &'static GameInfo> {
    GAMES.iter().filter(|g| g.engine.is_some())
}

fn size(params: &Params, default: u64) -> u32 {
    params.integer("size").unwrap_or(default) as u32
}

fn variant<E: std::fmt::Display>(e: E) -> RegistryError {
    RegistryError::Variant(e.to_string())
}

fn build_tic_tac_toe(_: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    Ok(Box::new(TicTacToe {
        board: tic_tac_toe::Board::empty(),
    }))
}

fn build_connect_four(params: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    if params.text("method") == Some("search") {
        return Err(RegistryError::Variant(
            "the engine's commands solve the whole table; for the search ask `perfect-play connect-four --method search`".into(),
        ));
    }
    let board = answers::connect_four::board_of(params).map_err(variant)?;
    Ok(Box::new(board))
}

fn build_dodgem(params: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    Ok(Box::new(Dodgem::new(size(params, 3)).map_err(variant)?))
}

fn build_mu_torere(_: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    Ok(Box::new(MuTorere))
}

fn build_quixo(params: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    Ok(Box::new(Quixo::new(size(params, 3)).map_err(variant)?))
}

fn build_teeko(params: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    let pieces = params.integer("pieces").unwrap_or(4) as u32;
    Ok(Box::new(
        Teeko::new(size(params, 5), pieces).map_err(variant)?,
    ))
}

fn build_dobutsu(params: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    let kinds = params.text("animals").unwrap_or("egc").to_ascii_lowercase();
    if let Some(bad) = kinds.chars().find(|c| !"egc".contains(*c)) {
        return Err(RegistryError::BadValue {
            name: "animals",
            value: crate::parse::shorten(&kinds),
            why: format!(
                "{bad:?} is not a kind: use the letters e (elephants), g (giraffes) and c (chicks)"
            ),
        });
    }
    let has = |k: char| kinds.contains(k);
    Ok(Box::new(Dobutsu::with_kinds(has('e'), has('g'), has('c'))))
}

fn build_hexapawn(params: &Params) -> Result<Box<dyn EngineGame>, RegistryError> {
    let width = params.integer("width").unwrap_or(3) as u32;
    let height = params.integer("height").unwrap_or(3) as u32;
    Ok(Box::new(Hexapawn::new(width, height).map_err(variant)?))
}

const MISERE: Param = Param {
    name: "misere",
    kind: ParamKind::Boolean,
    required: false,
    default: "",
    help: "misère play: whoever makes the last move loses",
};

const LINE: Param = Param {
    name: "line",
    kind: ParamKind::Boolean,
    required: false,
    default: "",
    help: "also give the whole best line, however long (else only lines of at most 1,000 moves)",
};

/// The player to move in a partizan game.
const TO_MOVE: Param = Param {
    name: "to_move",
    kind: ParamKind::Text,
    required: false,
    default: "left",
    help: "the player to move: left or right (the answer's first_player_wins and moves are theirs; the value is the same)",
};

/// The player to move in a sum with a partizan component.
const SUM_TO_MOVE: Param = Param {
    name: "to_move",
    kind: ParamKind::Text,
    required: false,
    default: "left",
    help: "with a partizan component, the player to move: left or right (the answer's first_player_wins and moves are theirs); impartial sums are the same for both",
};

/// How the partizan games are valued, for their commands' long help.
const PARTIZAN_SOLVED_BY: &str = "The canonical form in Conway's sense (Winning Ways; Siegel, Combinatorial Game Theory): the position split into its independent regions, each region's value built from its options' values with dominated options removed and reversible ones bypassed, every value kept once in a table and cached across regions and positions; symmetric regions looked up once. From the value: who wins with either player to move, the stops, temperature, mean and thermograph, the reduced canonical form and the atomic weight; every move of each side with the value it leads to. Empty Domineering 5 x 6 takes about 9 s here; a time budget refuses a position estimated past it.";

const PATTERN: Param = Param {
    name: "pattern",
    kind: ParamKind::Boolean,
    required: false,
    default: "",
    help: "also give the values of every pile size up to the piles (the W/L strip)",
};

const fn board_size(default: &'static str, min: u64, max: u64) -> Param {
    Param {
        name: "size",
        kind: ParamKind::Integer { min, max },
        required: false,
        default,
        help: "the board is size x size",
    }
}

/// Every game the tool knows, in the order `--help`, `tour` and the page list them.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "nim",
        aliases: &[],
        title: "Nim",
        description: "take any number of tokens from one heap; taking the last token wins",
        view: View::Heaps,
        notation: "the heaps, e.g. 3 4 5",
        move_notation: "heap and count: 1 2 takes 2 from heap 1",
        params: &[MISERE],
        examples: &[
            Example {
                position: "3 4 5",
                params: &[],
            },
            Example {
                position: "1 2 3",
                params: &[("misere", "true")],
            },
        ],
        engine: None,
        answer: Some(answers::nim::answer),
        solved_by: "",
    },
    GameInfo {
        name: "tic-tac-toe",
        aliases: &["ttt"],
        title: "Tic-tac-toe",
        description: "three in a row on a 3 x 3 board, from the empty board or any legal position",
        view: View::TicTacToe,
        notation: "9 squares in reading order, x o or . (empty: the start)",
        move_notation: "the square, 1-9 in reading order",
        params: &[],
        examples: &[
            Example {
                position: "",
                params: &[],
            },
            Example {
                position: "x...o....",
                params: &[],
            },
        ],
        engine: Some(build_tic_tac_toe),
        answer: Some(answers::tic_tac_toe::answer),
        solved_by: "",
    },
    GameInfo {
        name: "coins",
        aliases: &[],
        title: "The coin game",
        description: "a pile of N coins, take 1, X or Y; taking the last coin wins",
        view: View::Coins,
        notation: "N X Y: a pile of N coins, take 1, X or Y",
        move_notation: "the coins taken: 1 3 takes 3",
        params: &[MISERE, PATTERN],
        examples: &[
            Example {
                position: "10 3 4",
                params: &[],
            },
            Example {
                position: "30 2 5",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::subtraction::answer_coins),
        solved_by: "",
    },
    GameInfo {
        name: "subtraction",
        aliases: &[],
        title: "Subtraction game",
        description: "piles of coins; a move takes a number of coins in the set from one pile",
        view: View::Heaps,
        notation: "the piles, e.g. 7 9",
        move_notation: "pile and count: 1 3 takes 3 from pile 1",
        params: &[
            Param {
                name: "moves",
                kind: ParamKind::List,
                required: true,
                default: "",
                help: "the numbers a move may take",
            },
            MISERE,
            PATTERN,
        ],
        examples: &[
            Example {
                position: "7 9",
                params: &[("moves", "1,3,4")],
            },
            Example {
                position: "20",
                params: &[("moves", "2,5,6")],
            },
        ],
        engine: None,
        answer: Some(answers::subtraction::answer_subtraction),
        solved_by: "",
    },
    GameInfo {
        name: "stones",
        aliases: &[],
        title: "Stone Game (coins in a row)",
        description: "take the pile at either end of a row; the larger total wins",
        view: View::Row,
        notation: "the piles in a row; a move takes the pile at either end",
        move_notation: "left or right (l, r)",
        params: &[
            Param {
                name: "ties_win",
                kind: ParamKind::Boolean,
                required: false,
                default: "",
                help: "a tie counts as a win for the player to move",
            },
            Param {
                name: "line",
                kind: ParamKind::Boolean,
                required: false,
                default: "",
                help: "also give the whole optimal line",
            },
            Param {
                name: "table",
                kind: ParamKind::Boolean,
                required: false,
                default: "",
                help: "also give the margin of every interval (rows of up to 64 piles)",
            },
        ],
        examples: &[
            Example {
                position: "5 3 4 5",
                params: &[],
            },
            Example {
                position: "3 9 1 2",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::stones::answer),
        solved_by: "",
    },
    GameInfo {
        name: "octal",
        aliases: &[],
        title: "Octal game",
        description: "take-and-break games by their code: Grundy values, proven periods, sums",
        view: View::Octal,
        notation: "CODE HEAP...: 0.77 is Kayles, 0.07 Dawson's Kayles, grundy Grundy's game",
        move_notation: "heap and count: 1 2 takes 2 from heap 1 (the list names each split)",
        params: &[
            MISERE,
            Param {
                name: "values",
                kind: ParamKind::Boolean,
                required: false,
                default: "",
                help: "also give the Grundy values of heaps 0 to upto",
            },
            Param {
                name: "upto",
                kind: ParamKind::Integer {
                    min: 0,
                    max: u64::MAX,
                },
                required: false,
                default: "",
                help: "compute the values of heaps 0 to this (stopping at a proven period)",
            },
        ],
        examples: &[
            Example {
                position: "0.77 3 4 5",
                params: &[],
            },
            Example {
                position: "0.07 5 6",
                params: &[],
            },
            Example {
                position: "grundy 7 9",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::octal::answer),
        solved_by: "",
    },
    GameInfo {
        name: "can-i-win",
        aliases: &[],
        title: "Can I Win",
        description: "pick unused numbers from 1 to MAX in turn; whoever brings the total to TOTAL wins",
        view: View::Pool,
        notation: "MAX TOTAL (pick from 1 to MAX), or TOTAL with pool",
        move_notation: "the number picked",
        params: &[
            Param {
                name: "pool",
                kind: ParamKind::List,
                required: false,
                default: "",
                help: "the numbers to pick from (then the position is TOTAL alone)",
            },
            MISERE,
        ],
        examples: &[
            Example {
                position: "10 11",
                params: &[],
            },
            Example {
                position: "10 40",
                params: &[],
            },
            Example {
                position: "20",
                params: &[("pool", "2,3,5,7,11")],
            },
        ],
        engine: None,
        answer: Some(answers::can_i_win::answer),
        solved_by: "",
    },
    GameInfo {
        name: "sum",
        aliases: &[],
        title: "Sum of games",
        description: "a sum of games (GAME:HEAP or GAME:POSITION each): who wins, and where to play; impartial heaps by their Grundy values, partizan positions by their canonical forms",
        view: View::Sum,
        notation: "GAME:HEAP or GAME:POSITION components, e.g. 0.77:10 grundy:12 nim:5, or domineering:..|.. clobber:xo nim:3",
        move_notation: "component and count: 1 2 takes 2 from component 1; or component and move: component 1: a1-a2",
        params: &[MISERE, SUM_TO_MOVE],
        examples: &[
            Example {
                position: "0.77:10 grundy:12 squares:100 nim:5",
                params: &[],
            },
            Example {
                position: "domineering:...|... clobber:xox toads-and-frogs:tt.ff nim:2",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::sum::answer),
        solved_by: "",
    },
    GameInfo {
        name: "connect-four",
        aliases: &["c4"],
        title: "Connect Four",
        description: "four in a row, 7 x 6 by default: small boards solved whole by the engine, larger ones by exact search",
        view: View::ConnectFour,
        notation: "the columns played, 1-based (4453; 10,11 on wide boards)",
        move_notation: "the column, 1-based",
        params: &[
            Param {
                name: "width",
                kind: ParamKind::Integer { min: 1, max: 32 },
                required: false,
                default: "7",
                help: "columns, at most 32 (width x (height + 1) at most 128)",
            },
            Param {
                name: "height",
                kind: ParamKind::Integer { min: 1, max: 127 },
                required: false,
                default: "6",
                help: "rows (width x (height + 1) at most 128)",
            },
            Param {
                name: "method",
                kind: ParamKind::Text,
                required: false,
                default: "auto",
                help: "table (the engine solves the whole board), search (alpha-beta from the position) or auto (the table when it solves in about a second)",
            },
            Param {
                name: "book",
                kind: ParamKind::Text,
                required: false,
                default: "shipped",
                help: "shipped (7 x 6: the opening book that comes with perfect-play, read first) or none (search from scratch)",
            },
        ],
        examples: &[
            Example {
                // The empty 7 x 6 board (the page's start): read from the shipped opening
                // book at once, every column's value.
                position: "",
                params: &[],
            },
            Example {
                // A 7 x 6 position from the reference set (Pons' solver: -6): the player to
                // move loses in 2 plies; answered by the search at once.
                position: "752276321466322433217754651351",
                params: &[],
            },
            Example {
                position: "",
                params: &[("width", "5"), ("height", "4")],
            },
            Example {
                position: "12",
                params: &[("width", "4"), ("height", "4")],
            },
        ],
        engine: Some(build_connect_four),
        answer: Some(answers::connect_four::answer),
        solved_by: "",
    },
    GameInfo {
        name: "dodgem",
        aliases: &[],
        title: "Dodgem",
        description: "Colin Vout's race; drive all your cars off the far edge first (loops are draws)",
        view: View::Grid,
        notation: "rows from the top, x o or ., then :x or :o for the side to move (x../x../.oo:x); x drives right, o up",
        move_notation: "the car's square (column letter, row from the bottom) and its direction R U D L: b1U",
        params: &[board_size("3", 2, 8)],
        examples: &[Example {
            position: "",
            params: &[],
        }],
        engine: Some(build_dodgem),
        answer: None,
        solved_by: "",
    },
    GameInfo {
        name: "mu-torere",
        aliases: &[],
        title: "Mu Torere",
        description: "the Maori game on an eight-pointed star; a player left without a move loses",
        view: View::Star,
        notation: "points 1-8 then the centre, x o or ., then :x or :o (xxxxoooo.:x)",
        move_notation: "the two cells, points 1-8 and c for the centre: 4c, c5, 45",
        params: &[],
        examples: &[Example {
            position: "",
            params: &[],
        }],
        engine: Some(build_mu_torere),
        answer: None,
        solved_by: "",
    },
    GameInfo {
        name: "quixo",
        aliases: &[],
        title: "Quixo",
        description: "take a blank or own cube from the edge and push it back in at an end; a full line wins",
        view: View::Grid,
        notation: "rows from the top, x o or ., then :x or :o (xx./oo./...:x)",
        move_notation: "the square taken (column letter, row from the bottom) and the end it goes back in at (L R T B): a1R",
        params: &[board_size("3", 2, 5)],
        examples: &[Example {
            position: "",
            params: &[],
        }],
        engine: Some(build_quixo),
        answer: None,
        solved_by: "",
    },
    GameInfo {
        name: "teeko",
        aliases: &[],
        title: "Teeko",
        description: "John Scarne's game; place four pieces, then step them; four in a row or a square wins",
        view: View::Grid,
        notation: "rows from the top, x o or ., then :x or :o (default: the placing order's)",
        move_notation: "the square placed on (c3) or the squares stepped from and to (c3d4)",
        params: &[
            board_size("5", 3, 5),
            Param {
                name: "pieces",
                kind: ParamKind::Integer { min: 2, max: 4 },
                required: false,
                default: "4",
                help: "pieces each (fewer than half the squares; with fewer than four, the square does not win)",
            },
        ],
        examples: &[
            Example {
                position: "",
                params: &[("size", "4"), ("pieces", "3")],
            },
            Example {
                position: "x.../.o../..../....",
                params: &[("size", "4"), ("pieces", "3")],
            },
        ],
        engine: Some(build_teeko),
        answer: None,
        solved_by: "",
    },
    GameInfo {
        name: "dobutsu",
        aliases: &["dobutsu-shogi"],
        title: "Dobutsu shogi",
        description: "Madoka Kitao's 3 x 4 shogi; capture the lion, or bring yours to the far row safely",
        view: View::Grid,
        notation: "rows from the top (L lion, E elephant, G giraffe, C chick, H hen; capitals the first player's), then :HAND and :x or :o (gle/.c./.C./ELG)",
        move_notation: "the squares (column letter, row from the bottom): b2b3, or a drop: C*b3",
        params: &[Param {
            name: "animals",
            kind: ParamKind::Text,
            required: false,
            default: "egc",
            help: "the kinds in play besides the lions: e elephants, g giraffes, c chicks (the whole game, egc, takes about 11 GB to solve: solve it once into a database)",
        }],
        examples: &[
            Example {
                position: "",
                params: &[("animals", "c")],
            },
            Example {
                position: ".l./.c./LC./...:o",
                params: &[("animals", "c")],
            },
        ],
        engine: Some(build_dobutsu),
        answer: None,
        solved_by: "",
    },
    GameInfo {
        name: "hexapawn",
        aliases: &[],
        title: "Hexapawn",
        description: "Martin Gardner's pawns-only chess; reach the far row, or leave the opponent no move",
        view: View::Grid,
        notation: "rows from the top, x (the first player's pawns, moving up) o or ., then :x or :o (ooo/.../xxx:x)",
        move_notation: "the squares (column letter, row from the bottom): a1a2, a2b3",
        params: &[
            Param {
                name: "width",
                kind: ParamKind::Integer { min: 1, max: 8 },
                required: false,
                default: "3",
                help: "columns",
            },
            Param {
                name: "height",
                kind: ParamKind::Integer { min: 3, max: 8 },
                required: false,
                default: "3",
                help: "rows",
            },
        ],
        examples: &[
            Example {
                position: "",
                params: &[],
            },
            Example {
                position: "",
                params: &[("width", "4"), ("height", "3")],
            },
        ],
        engine: Some(build_hexapawn),
        answer: None,
        solved_by: "",
    },
    GameInfo {
        name: "stone-game-2",
        aliases: &[],
        title: "Stone Game II",
        description: "LeetCode 1140: take all piles of the first X, 1 <= X <= 2M, then M = max(M, X); the most stones wins",
        view: View::Row,
        notation: "the piles left in a row (each at least 1); --m gives M",
        move_notation: "X, the number of piles taken",
        params: &[
            Param {
                name: "m",
                kind: ParamKind::Integer {
                    min: 1,
                    max: 1_000_000_000,
                },
                required: false,
                default: "1",
                help: "M: a move takes the first X piles, 1 <= X <= 2M",
            },
            LINE,
        ],
        examples: &[
            Example {
                position: "2 7 9 4 4",
                params: &[],
            },
            Example {
                position: "1 2 3 4 5 100",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::stone_game_2),
        solved_by: "Each (pile, M) is the best of two sliding windows (the moves X <= M down its column, M < X <= 2M along its row) kept by monotone queues: O(n²) time against the published recurrence's O(n³), 12 bytes for each of the about n²/6 states where 2M does not reach the end (10,000 piles: about 3 s and 250 MB).",
    },
    GameInfo {
        name: "stone-game-3",
        aliases: &[],
        title: "Stone Game III",
        description: "LeetCode 1406: take the first 1, 2 or 3 stones of a row (values may be negative); the higher total wins",
        view: View::Row,
        notation: "the stones' values from the front",
        move_notation: "1, 2 or 3: the stones taken",
        params: &[LINE],
        examples: &[
            Example {
                position: "1 2 3 7",
                params: &[],
            },
            Example {
                position: "1 2 3 -9",
                params: &[],
            },
            Example {
                position: "1 2 3 6",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::stone_game_3),
        solved_by: "Each suffix from the next three in one pass from the back: O(n) time, one byte a stone for the best line (10 million stones: well under a second).",
    },
    GameInfo {
        name: "stone-game-6",
        aliases: &[],
        title: "Stone Game VI",
        description: "LeetCode 1686: each player values the stones their own way; take any stone; the higher total of one's own values wins",
        view: View::Plain,
        notation: "the mover's values, a slash, the opponent's values: 1 3 / 2 1",
        move_notation: "the stone's place in the row, 1-based",
        params: &[LINE],
        examples: &[
            Example {
                position: "1 3 / 2 1",
                params: &[],
            },
            Example {
                position: "2 4 3 / 1 6 7",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::stone_game_6),
        solved_by: "The margin is the mover's stones' combined values (both players') minus all the opponent's values, so taking the largest combined value first is perfect play: one sort, O(n log n), and every move's value from its rank (10 million stones: about 2 seconds, 40 bytes a stone).",
    },
    GameInfo {
        name: "stone-game-7",
        aliases: &[],
        title: "Stone Game VII",
        description: "LeetCode 1690: remove the stone at either end and score the sum of the rest; the larger score wins",
        view: View::Row,
        notation: "the stones in the row",
        move_notation: "left or right",
        params: &[LINE],
        examples: &[
            Example {
                position: "5 3 1 4 2",
                params: &[],
            },
            Example {
                position: "7 90 5 1 100 10 10 2",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::stone_game_7),
        solved_by: "The interval recurrence by diagonals in one row of margins: O(n²) time, O(n) memory, and one bit an interval when the whole line is asked for (20,000 stones: under a second; the line 25 MB).",
    },
    GameInfo {
        name: "stone-game-8",
        aliases: &[],
        title: "Stone Game VIII",
        description: "LeetCode 1872: merge the leftmost x >= 2 stones into one of their sum and score it; the larger score wins",
        view: View::Row,
        notation: "the stones in the row",
        move_notation: "x, the number of leftmost stones merged (2 or more)",
        params: &[LINE],
        examples: &[
            Example {
                position: "-1 2 -3 4 -5",
                params: &[],
            },
            Example {
                position: "7 -6 5 10 5 -2 -6",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::stone_game_8),
        solved_by: "The leftmost stone always holds a prefix sum, so a position is an index; one pass from the back keeps the best later index under the winner's and the loser's order: O(n) time, 16 bytes a stone (10 million stones: about a second).",
    },
    GameInfo {
        name: "stone-game-9",
        aliases: &[],
        title: "Stone Game IX",
        description: "LeetCode 2029: remove any stone; whoever makes the removed sum divisible by 3 loses; all gone, the second player wins",
        view: View::Plain,
        notation: "the stones left; --removed gives the removed sum mod 3 (0: none removed yet), --second the second player to move",
        move_notation: "the value of the stone removed",
        params: &[
            Param {
                name: "removed",
                kind: ParamKind::Integer { min: 0, max: 2 },
                required: false,
                default: "0",
                help: "the sum of the stones removed so far, mod 3 (0: none removed yet)",
            },
            Param {
                name: "second",
                kind: ParamKind::Boolean,
                required: false,
                default: "",
                help: "the second player (who wins when every stone is gone) is to move",
            },
            LINE,
        ],
        examples: &[
            Example {
                position: "5 1 2 4 3",
                params: &[],
            },
            Example {
                position: "2 1",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::stone_game_9),
        solved_by: "Only residues mod 3 count: after the first removal the safe moves are the zeros and one forced chain of alternating residues, so their count decides who is stuck, and how soon: O(n) counting, exact remoteness (10 million stones: well under a second).",
    },
    GameInfo {
        name: "nim-game",
        aliases: &[],
        title: "Nim Game",
        description: "LeetCode 292: one heap, take 1, 2 or 3; taking the last stone wins",
        view: View::Plain,
        notation: "the heap (any size)",
        move_notation: "1, 2 or 3: the stones taken",
        params: &[],
        examples: &[
            Example {
                position: "7",
                params: &[],
            },
            Example {
                position: "4",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::nim_game),
        solved_by: "The theorem: a multiple of 4 loses (whatever is taken, the other takes the rest of 4); from 4k the loser makes it last 2k moves. Any size, at once.",
    },
    GameInfo {
        name: "divisor-game",
        aliases: &[],
        title: "Divisor Game",
        description: "LeetCode 1025: replace n by n - x for a divisor x < n; a player without a move loses",
        view: View::Plain,
        notation: "the number on the board (any size)",
        move_notation: "x, the divisor subtracted",
        params: &[LINE],
        examples: &[
            Example {
                position: "12",
                params: &[],
            },
            Example {
                position: "3",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::divisor_game),
        solved_by: "The theorem: an even number wins (take 1; every divisor of an odd number is odd, so every move from it leaves an even one). Any size at once; every divisor listed up to 10^12 by trial division; the exact remoteness from a table of every number up to 10^6 (O(n log n), 8 bytes a number).",
    },
    GameInfo {
        name: "flip-game",
        aliases: &[],
        title: "Flip Game II",
        description: "LeetCode 294: turn two adjacent ++ into --; a player without a move loses",
        view: View::Plain,
        notation: "the string of + and -",
        move_notation: "the place (1-based) of the first + flipped",
        params: &[],
        examples: &[
            Example {
                position: "++++",
                params: &[],
            },
            Example {
                position: "+++++-++",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::flip_game),
        solved_by: "A run of k pluses is a heap of Dawson's Kayles, the octal game 0.07, whose Grundy values have period 34 after 52: the nim-sum of the runs decides, and every move by the nim-sum it leaves, O(length) (a million characters: well under a second). The remoteness, which Grundy values do not give, by search up to 16 pluses.",
    },
    GameInfo {
        name: "chalkboard-xor",
        aliases: &[],
        title: "Chalkboard XOR Game",
        description: "LeetCode 810: erase a number; whoever starts a turn with XOR 0 wins",
        view: View::Plain,
        notation: "the numbers on the board",
        move_notation: "the number erased",
        params: &[],
        examples: &[
            Example {
                position: "1 1 2",
                params: &[],
            },
            Example {
                position: "1 2 3 4",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::chalkboard_xor),
        solved_by: "The theorem: the player to move wins when the XOR is 0 or the count is even (an even count with XOR X != 0 holds a number other than X to erase). One pass, any size (10 million numbers: well under a second). The remoteness depends on the multiplicities: by search up to 14 numbers.",
    },
    GameInfo {
        name: "guess-number",
        aliases: &[],
        title: "Guess Number Higher or Lower II",
        description: "LeetCode 375: a wrong guess k costs k and is answered higher or lower; the guesser's least worst-case cost",
        view: View::Plain,
        notation: "N (the number is in 1..N) or LOW HIGH",
        move_notation: "the number guessed",
        params: &[],
        examples: &[
            Example {
                position: "10",
                params: &[],
            },
            Example {
                position: "1 20",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::guess_number),
        solved_by: "The least worst-case cost of every range: past the first guess whose lower part is the dearer the best is that guess, and below it a monotone queue keeps the least: O(n²) time against the published O(n³), 4 bytes a range (5,000: 50 MB, well under a second). Each guess leads to the dearer part, the adversary's answer; the margin is minus the cost.",
    },
    GameInfo {
        name: "cat-and-mouse",
        aliases: &[],
        title: "Cat and Mouse",
        description: "LeetCode 913 and 1728: on a graph (or a grid) the mouse, moving first, runs for the hole (the food), the cat hunts it; endless play is a draw",
        view: View::Plain,
        notation: "MOUSE CAT and who is to move (mouse or cat): 1 2, 3 4 cat, or start; --graph or --grid gives the board",
        move_notation: "the node (the grid's cell, in reading order from 0) moved to",
        params: &[
            Param {
                name: "graph",
                kind: ParamKind::Text,
                required: false,
                default: "",
                help: "the graph (LeetCode 913): each node's neighbours comma-separated, nodes separated by / (2,5/3/0,4,5/1,4,5/2,3/0,2,3), or LeetCode's [[2,5],[3],...]",
            },
            Param {
                name: "grid",
                kind: ParamKind::Text,
                required: false,
                default: "",
                help: "or a grid (LeetCode 1728): rows separated by / of . floor, # wall, F food, C cat, M mouse; cells numbered in reading order from 0",
            },
            Param {
                name: "cat_jump",
                kind: ParamKind::Integer { min: 1, max: 1000 },
                required: false,
                default: "",
                help: "on a grid: the most cells the cat jumps in a line (default 1)",
            },
            Param {
                name: "mouse_jump",
                kind: ParamKind::Integer { min: 1, max: 1000 },
                required: false,
                default: "",
                help: "on a grid: the most cells the mouse jumps in a line (default 1)",
            },
        ],
        examples: &[
            Example {
                position: "1 2",
                params: &[("graph", "1,3/0/3/0,2")],
            },
            Example {
                position: "1 2",
                params: &[("graph", "2,5/3/0,4,5/1,4,5/2,3/0,2,3")],
            },
            Example {
                position: "start",
                params: &[
                    ("grid", "####F/#C.../M...."),
                    ("cat_jump", "1"),
                    ("mouse_jump", "2"),
                ],
            },
        ],
        engine: None,
        answer: Some(answers::puzzles::cat_and_mouse),
        solved_by: "Every (mouse, cat, side) position, 2n² of them, goes to the engine as a graph and is solved by retrograde analysis on every core: wins and losses at their exact remoteness, endless play a draw. About 19 bytes a position and 8 a move: 1,000 nodes of degree 3 take about 150 MB; 10,000 nodes about 16 GB (refused under the default limit with the figure).",
    },
    GameInfo {
        name: "domineering",
        aliases: &[],
        title: "Domineering",
        description: "partizan: Left places vertical dominoes, Right horizontal ones; who cannot place one loses (the canonical form, temperature and every move)",
        view: View::Partizan,
        notation: "rows joined by | as CGSuite writes them: . empty, # covered (..|.. is the 2 x 2 board)",
        move_notation: "the domino's two cells, column letter and row number from a1 at the top left (a1-a2)",
        params: &[TO_MOVE],
        examples: &[
            Example {
                position: "...|...|...",
                params: &[],
            },
            Example {
                position: "..|..",
                params: &[("to_move", "right")],
            },
        ],
        engine: None,
        answer: Some(answers::partizan::domineering),
        solved_by: PARTIZAN_SOLVED_BY,
    },
    GameInfo {
        name: "clobber",
        aliases: &[],
        title: "Clobber",
        description: "partizan: a stone moves onto an adjacent enemy stone, which leaves the board; who cannot move loses",
        view: View::Partizan,
        notation: "rows joined by |: x Left's stones, o Right's, . empty (xox|ox.)",
        move_notation: "from-to, column letter and row number from a1 at the top left (b1-a1)",
        params: &[TO_MOVE],
        examples: &[
            Example {
                position: "xox|ox.",
                params: &[],
            },
            Example {
                position: "xoxo",
                params: &[("to_move", "right")],
            },
        ],
        engine: None,
        answer: Some(answers::partizan::clobber),
        solved_by: PARTIZAN_SOLVED_BY,
    },
    GameInfo {
        name: "konane",
        aliases: &[],
        title: "Konane",
        description: "partizan: a stone jumps an adjacent enemy stone into an empty cell, and may go on jumping the same way; who cannot move loses",
        view: View::Partizan,
        notation: "rows joined by |: x Left's stones, o Right's, . empty (xo.|.ox)",
        move_notation: "from-to, column letter and row number from a1 at the top left (a1-c1)",
        params: &[TO_MOVE],
        examples: &[
            Example {
                position: "xo.ox.|.x.o..",
                params: &[],
            },
            Example {
                position: "xo.",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::partizan::konane),
        solved_by: PARTIZAN_SOLVED_BY,
    },
    GameInfo {
        name: "amazons",
        aliases: &[],
        title: "Amazons",
        description: "partizan: an amazon moves like a queen, then shoots an arrow like one, burning the cell it lands on; who cannot move loses",
        view: View::Partizan,
        notation: "rows joined by |: x Left's amazons, o Right's, # burnt, . empty (x...|o...)",
        move_notation: "from-to-arrow, column letter and row number from a1 at the top left (a1-c1-d2)",
        params: &[TO_MOVE],
        examples: &[
            Example {
                position: "x...|o...",
                params: &[],
            },
            Example {
                position: "x.#|..o",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::partizan::amazons),
        solved_by: PARTIZAN_SOLVED_BY,
    },
    GameInfo {
        name: "toads-and-frogs",
        aliases: &[],
        title: "Toads and Frogs",
        description: "partizan: toads (Left) step or jump a frog rightwards, frogs (Right) leftwards, into an empty cell; who cannot move loses",
        view: View::Partizan,
        notation: "one row: t toads, f frogs, . empty (ttt..fff)",
        move_notation: "from-to, cells counted from 1 at the left (3-4)",
        params: &[TO_MOVE],
        examples: &[
            Example {
                position: "ttt..fff",
                params: &[],
            },
            Example {
                position: "tft.tff",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::partizan::toads_and_frogs),
        solved_by: PARTIZAN_SOLVED_BY,
    },
    GameInfo {
        name: "hackenbush",
        aliases: &[],
        title: "Hackenbush",
        description: "partizan: cut one of your edges (blue for Left, red for Right, green for either); every edge no longer connected to the ground falls; who cannot cut loses",
        view: View::Partizan,
        notation: "stalks from the ground up, joined by ,: l Left's (blue) edges, r Right's (red), e green (lrlrrllr,e); or any graph as an edge list, U V COLOUR an edge, edges apart by ; or new lines, g the ground (g a l; a b r; b g e); @PATH reads it from a file",
        move_notation: "stalk:edge for stalks, both counted from 1, edges from the ground (1:3); eN for a graph, its N-th edge as the answer writes the graph back (e2)",
        params: &[TO_MOVE],
        examples: &[
            Example {
                position: "lrr,rl",
                params: &[],
            },
            Example {
                position: "lrlrrllr,e",
                params: &[],
            },
            Example {
                position: "g a l; a b r; b g e",
                params: &[],
            },
        ],
        engine: None,
        answer: Some(answers::partizan::hackenbush),
        solved_by: PARTIZAN_SOLVED_BY,
    },
    GameInfo {
        name: "cutcake",
        aliases: &[],
        title: "Cutcake",
        description: "partizan: Left cuts a piece of cake along a vertical line, Right along a horizontal one; who cannot cut loses",
        view: View::Partizan,
        notation: "pieces WxH joined by + (4x3+2x2)",
        move_notation: "WxH@a: a W x H piece cut after its a-th column (Left) or row (Right)",
        params: &[TO_MOVE],
        examples: &[
            Example {
                position: "4x3",
                params: &[],
            },
            Example {
                position: "2x2+3x1",
                params: &[("to_move", "right")],
            },
        ],
        engine: None,
        answer: Some(answers::partizan::cutcake),
        solved_by: PARTIZAN_SOLVED_BY,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;

    /// The outcome a move has for its maker when it leads to a position of `child` for the
    /// player to move there.
    fn through(child: Outcome) -> Outcome {
        match child {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            other => other,
        }
    }

    /// A sum with a coin far down a Mock Turtles row lists its moves (or its winning moves,
    /// past the list's bound) without listing every coin's moves again for each move: the
    /// explorer's fuzz target found this input hanging for minutes.
    #[test]
    fn a_long_coin_row_in_a_sum_answers_without_relisting_its_moves() {
        let game = find("sum").unwrap();
        let params = game.params_from(&[]).unwrap();
        let budget = Budget::default();
        let position = "mock-turtles:400 ruler:0000000000400777700000000947426004737131010391772656000000400777700000000947426004737131010391772656";
        let answer = game.answer(&params, position, &budget).unwrap();
        assert!(!answer.moves.is_empty());
        let small = game
            .answer(&params, "mock-turtles:5 ruler:6", &budget)
            .unwrap();
        // Turning a head over alone is always a move: no move of a coin game ends the game
        // while another head is left.
        assert!(small.moves.iter().all(|m| !m.ends_game));
    }

    /// Every example of every game answers through the registry, and every move it lists
    /// that leaves a position is worth what that position is worth to the other player:
    /// the outcome turned round and the remoteness one more (the margin the pile taken minus
    /// the rest's, in the Stone Game). This checks each family's move list, move notation and
    /// position notation against its own answers.
    #[test]
    fn every_example_answers_and_its_moves_agree_with_the_positions_they_lead_to() {
        let budget = Budget::default();
        for game in GAMES {
            for example in game.examples {
                let given = example.given();
                let params = game.params_from(&given).unwrap();
                let answer = game.answer(&params, example.position, &budget).unwrap();
                assert_eq!(answer.game, game.name);
                assert!(
                    !answer.moves.is_empty(),
                    "{} {}",
                    game.name,
                    example.position
                );
                let again = game.answer(&params, &answer.position, &budget).unwrap();
                assert_eq!(
                    again.outcome, answer.outcome,
                    "{} {}",
                    game.name, answer.position
                );
                if game.answer.is_none() {
                    // One table answers every position of an engine game: the engine's own
                    // tests check its moves against its positions.
                    continue;
                }
                for m in answer.moves.iter().filter(|m| !m.ends_game) {
                    let position = m.position.as_deref().unwrap();
                    // A move that changes a parameter (the pool of Can I Win, M in Stone
                    // Game II) asks with it.
                    let mut child_given = given.clone();
                    for param in game.params {
                        let Some(changed) = m.details.get(param.name) else {
                            continue;
                        };
                        let text = match changed {
                            serde_json::Value::Array(items) => items
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(","),
                            serde_json::Value::String(t) => t.clone(),
                            other => other.to_string(),
                        };
                        child_given.retain(|(k, _)| k != param.name);
                        child_given.push((param.name.into(), text));
                    }
                    let child_params = game.params_from(&child_given).unwrap();
                    let child = game.answer(&child_params, position, &budget).unwrap();
                    let what = format!("{} {}: {} to {position}", game.name, answer.position, m.mv);
                    let number = |v: &serde_json::Value| v.as_i64().unwrap();
                    let row = |name: &str| -> Vec<i64> {
                        answer.details[name]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(number)
                            .collect()
                    };
                    // In a scoring game the move's margin is what it scores minus the margin
                    // the opponent then makes.
                    let scored = match game.name {
                        "stones" => Some(match m.mv.as_str() {
                            Some("left") => row("piles")[0],
                            _ => *row("piles").last().unwrap(),
                        }),
                        "stone-game-2" | "stone-game-3" => {
                            let name = if game.name == "stone-game-2" {
                                "piles"
                            } else {
                                "values"
                            };
                            Some(row(name)[..m.mv.as_u64().unwrap() as usize].iter().sum())
                        }
                        "stone-game-6" => {
                            Some(row("mover_values")[m.mv.as_u64().unwrap() as usize - 1])
                        }
                        "stone-game-7" => {
                            let stones = row("stones");
                            let end = if m.mv == "left" {
                                stones[0]
                            } else {
                                *stones.last().unwrap()
                            };
                            Some(stones.iter().sum::<i64>() - end)
                        }
                        "stone-game-8" => Some(number(&m.details["scores"])),
                        _ => None,
                    };
                    if let Some(scored) = scored {
                        assert_eq!(
                            number(&m.details["margin"]),
                            scored - number(&child.details["margin"]),
                            "{what}"
                        );
                        if let (Some(r), Some(c)) = (m.remoteness, child.remoteness) {
                            assert_eq!(r, c + 1, "{what}");
                        }
                        continue;
                    }
                    if game.name == "guess-number" {
                        // The guesser moves again: the guess's cost is k plus the dearer
                        // part's, where the adversary sends them.
                        let k = m.mv.as_i64().unwrap();
                        assert_eq!(
                            number(&m.details["margin"]),
                            -k + number(&child.details["margin"]),
                            "{what}"
                        );
                        continue;
                    }
                    assert_eq!(m.outcome, through(child.outcome), "{what}");
                    if let (Some(r), Some(c)) = (m.remoteness, child.remoteness) {
                        assert_eq!(r, c + 1, "{what}");
                    }
                }
            }
        }
    }

    /// An admission that turns everything away, noting the estimates it was asked about.
    #[derive(Debug, Default)]
    struct Refusing(std::sync::Mutex<Vec<f64>>);

    impl crate::budget::Admission for Refusing {
        fn admit(&self, seconds: f64) -> Result<(), crate::budget::Busy> {
            self.0.lock().unwrap().push(seconds);
            Err(crate::budget::Busy {
                running: 0,
                waiting: 0,
                estimate: seconds,
                retry_after: 0,
            })
        }
    }

    /// Work whose length is known before it starts asks the admission with its estimate, so
    /// that it never starts where only quick work may run (the server's quick lane, the
    /// calling thread of a Python call): the tables of a rule set without a formula, and of a
    /// take-and-break code without a known period, in a sum and alone. Work that ends early at
    /// a period, or reads a formula, starts at once.
    #[test]
    fn long_work_asks_the_admission_before_it_starts() {
        let asked = |game: &str, position: &str| {
            let admission = std::sync::Arc::new(Refusing::default());
            let budget = Budget {
                admission: Some(admission.clone()),
                ..Budget::default()
            };
            let info = find(game).unwrap();
            let params = info.params_from(&[]).unwrap();
            let result = info.answer(&params, position, &budget);
            let estimates = admission.0.lock().unwrap().clone();
            (result, estimates)
        };
        for (game, position, at_least) in [
            ("sum", "squares:5000000", 10.0),
            ("sum", "nim:3 squares:700000", 0.3),
            ("sum", "0.6:1000000", 0.3),
            ("octal", "0.6 1000000", 0.3),
        ] {
            let (result, estimates) = asked(game, position);
            assert!(
                matches!(result, Err(QueryError::Busy(_))),
                "{game} {position}: {result:?}"
            );
            assert!(estimates[0] >= at_least, "{game} {position}: {estimates:?}");
        }
        for (game, position) in [
            ("sum", "nim:3 powers-of-two:1000000000 0.77:100000"),
            ("octal", "0.77 100000"),
            ("sum", "squares:30"),
        ] {
            let (result, estimates) = asked(game, position);
            assert!(
                result.is_ok() || estimates.iter().all(|&e| e < 0.05),
                "{game} {position}: {result:?} {estimates:?}"
            );
        }
    }

    /// The fuzzer's find (fuzz/artifacts/explorer): the totals of a row whose absolute sum
    /// fills 64 bits (the solvers' limit) overflowed as they were split between the players.
    #[test]
    fn totals_of_a_row_at_the_solvers_limit_do_not_overflow() {
        let budget = Budget::default();
        let game = find("stone-game-3").unwrap();
        let params = game.params_from(&[]).unwrap();
        let answer = game
            .answer(&params, "8888888888888888812 1", &budget)
            .unwrap();
        assert_eq!(answer.details["mover_total"], 8888888888888888813i64);
        assert_eq!(answer.details["opponent_total"], 0);
        let answer = game
            .answer(&params, "-8888888888888888812 -1", &budget)
            .unwrap();
        // Taking the first alone loses least: the opponent must then take the last.
        assert_eq!(answer.details["mover_total"], -8888888888888888812i64);
        assert_eq!(answer.details["opponent_total"], -1);
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = GAMES
            .iter()
            .flat_map(|g| std::iter::once(g.name).chain(g.aliases.iter().copied()))
            .collect();
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }

    #[test]
    fn parameters_are_checked_and_defaulted() {
        let quixo = find("quixo").unwrap();
        let params = quixo.params_from(&[]).unwrap();
        assert_eq!(params.integer("size"), Some(3));
        let bad = quixo.params_from(&[("size".into(), "9".into())]);
        assert!(matches!(bad, Err(RegistryError::BadValue { .. })));
        let unknown = quixo.params_from(&[("width".into(), "3".into())]);
        assert!(matches!(unknown, Err(RegistryError::UnknownParam { .. })));
        let subtraction = find("subtraction").unwrap();
        assert!(matches!(
            subtraction.params_from(&[]),
            Err(RegistryError::Missing { .. })
        ));
        assert_eq!(find("ttt").unwrap().name, "tic-tac-toe");
    }

    /// Every engine game's examples build, parse and answer from a solved table; the moves'
    /// positions read back in the notation.
    #[test]
    fn every_engine_example_answers() {
        for info in engine_games() {
            for example in info.examples {
                let params = info.params_from(&example.given()).unwrap();
                let game = info.build(&params).unwrap().unwrap();
                assert_eq!(game.name(), info.name);
                if game.index_count() > 30_000_000 {
                    continue;
                }
                let solution = game
                    .solve(&crate::engine::Options::default(), None, &|_| {})
                    .unwrap();
                let position = (!example.position.is_empty()).then_some(example.position);
                let answer = game
                    .answer(position, &mut |i| solution.record(i))
                    .unwrap_or_else(|e| panic!("{} {:?}: {e}", info.name, example));
                assert!(!answer.picture.is_empty());
                for m in &answer.moves {
                    if let Some(after) = &m.position {
                        let again = game
                            .answer(Some(after), &mut |i| solution.record(i))
                            .unwrap();
                        assert_eq!(again.position.as_ref(), Some(after), "{}", info.name);
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// Text made of the notations' characters either is refused or names a position whose
        /// notation reads back as itself, in every engine game's example variants (what the
        /// `positions` fuzz target checks on any bytes).
        #[test]
        fn written_positions_read_back(text in "[xoXO.LlCcEeGgHh/:*1-9-]{0,40}") {
            for info in engine_games() {
                for example in info.examples {
                    let params = info.params_from(&example.given()).unwrap();
                    let game = info.build(&params).unwrap().unwrap();
                    if let Ok(Some(written)) = game.notation_of(&text) {
                        proptest::prop_assert_eq!(
                            game.notation_of(&written).unwrap(),
                            Some(written.clone()),
                            "{} {:?}", info.name, text
                        );
                    }
                }
            }
        }
    }
}
