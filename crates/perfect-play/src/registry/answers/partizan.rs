//! The partizan games ([`crate::partizan`]): a position's canonical form, who wins it with
//! either player to move, its temperature, mean and thermograph, and every move of each
//! side with the value it leads to: the one answer every front end shows.
//!
//! Moves are named by what they change: grid cells by column letter and row number (`a1`
//! the top left), `from-to` for a piece that moves (Clobber `b1-a1`, Konane `a1-c1`,
//! Amazons `a1-c1-d2` with the arrow last), the two cells of a domino (`a1-a2`), a Toads
//! and Frogs piece's cells counted from 1 (`3-4`), a Hackenbush edge as `stalk:edge` from
//! the ground (`1:3`), a Cutcake cut as `WxH@a` (a piece cut after its `a`-th column for
//! Left, row for Right).

use crate::Outcome;
use crate::budget::Budget;
use crate::partizan::answer::{self as report, ValueReport};
use crate::partizan::{
    GameTable, PartizanError, PartizanRules, Side as Player, Valuer, amazons, clobber, cutcake,
    domineering, hackenbush, konane, notation, toads_and_frogs,
};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use serde_json::{Map, Value, json};

/// Memory for the table of canonical forms when no limit is given.
pub(super) const DEFAULT_MEMORY: u64 = 1 << 30;

/// The longest best line followed (every move fills a cell or cuts an edge, so lines end;
/// this bounds the answer's length on large boards).
const MAX_LINE: usize = 400;

impl From<PartizanError> for QueryError {
    fn from(e: PartizanError) -> QueryError {
        match e {
            e @ PartizanError::TooManyGames { .. } => QueryError::OverMemory(e.to_string()),
            PartizanError::Cancelled(c) => QueryError::Cancelled(c),
            e => QueryError::bad(e),
        }
    }
}

/// The player named by the `to_move` parameter.
pub(super) fn player(params: &Params) -> Result<Player, QueryError> {
    match params.text("to_move").unwrap_or("left") {
        "left" | "l" | "" => Ok(Player::Left),
        "right" | "r" => Ok(Player::Right),
        other => Err(QueryError::BadInput(format!(
            "to_move={}: use left or right",
            crate::parse::shorten(other)
        ))),
    }
}

pub(super) fn player_name(p: Player) -> &'static str {
    match p {
        Player::Left => "left",
        Player::Right => "right",
    }
}

/// What a game's answer needs beyond its rules: how a position is written and how a move
/// from one position to another is named.
pub(super) trait Played: PartizanRules {
    /// The registry's name.
    const NAME: &'static str;
    /// The position written back in the game's notation.
    fn show(&self, position: &Self::Position) -> String;
    /// Each move of `side` with its name.
    fn named_options(
        &self,
        position: &Self::Position,
        side: Player,
    ) -> Vec<(String, Self::Position)>;
    /// Seconds the value is estimated to take (for a time budget).
    fn estimate(&self, position: &Self::Position) -> f64;
}

/// A grid cell's name: column letter, row number from 1 at the top.
fn cell_name(row: usize, column: usize) -> String {
    let mut letters = String::new();
    let mut c = column;
    loop {
        letters.insert(0, (b'a' + (c % 26) as u8) as char);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    format!("{letters}{}", row + 1)
}

/// A move on a grid named by the cells it changed: the cell the mover's piece left, the
/// cell it reached, then the cells burnt (`#`, an Amazons arrow; a domino's two cells).
/// Stones captured by a jump are left out: the jump names them.
fn grid_move(before: &str, after: &str, mover: u8) -> String {
    let (mut from, mut to, mut burnt) = (Vec::new(), Vec::new(), Vec::new());
    for (r, (a, b)) in before.split('|').zip(after.split('|')).enumerate() {
        for (c, (x, y)) in a.bytes().zip(b.bytes()).enumerate() {
            if x == y {
                continue;
            }
            let name = cell_name(r, c);
            if y == b'#' {
                burnt.push(name.clone());
            }
            if mover == b'#' {
                continue;
            }
            if x == mover {
                from.push(name);
            } else if y == mover {
                to.push(name);
            }
        }
    }
    from.into_iter()
        .chain(to)
        .chain(burnt)
        .collect::<Vec<_>>()
        .join("-")
}

/// Named options of a grid game: each option's cells compared with the position's.
fn grid_options<R: PartizanRules>(
    rules: &R,
    position: &R::Position,
    side: Player,
    show: impl Fn(&R::Position) -> String,
    pieces: (u8, u8),
) -> Vec<(String, R::Position)> {
    let before = show(position);
    let mover = if side == Player::Left {
        pieces.0
    } else {
        pieces.1
    };
    rules
        .options(position, side)
        .into_iter()
        .map(|o| (grid_move(&before, &show(&o), mover), o))
        .collect()
}

/// Seconds for a board of `free` cells that matter: doubling with each (empty Domineering
/// 4 x 6, 24 cells, takes 0.15 s; 5 x 6 about 9 s).
fn exponential(free: usize) -> f64 {
    0.15 * 2f64.powi(free as i32 - 24)
}

impl Played for domineering::Domineering {
    const NAME: &'static str = "domineering";
    fn show(&self, p: &domineering::Board) -> String {
        p.to_string()
    }
    fn named_options(
        &self,
        p: &domineering::Board,
        side: Player,
    ) -> Vec<(String, domineering::Board)> {
        grid_options(self, p, side, ToString::to_string, (b'#', b'#'))
    }
    fn estimate(&self, p: &domineering::Board) -> f64 {
        exponential(p.to_string().bytes().filter(|&b| b == b'.').count())
    }
}

macro_rules! grid_game {
    ($rules:ty, $name:literal, $per_cell:expr) => {
        impl Played for $rules {
            const NAME: &'static str = $name;
            fn show(&self, p: &crate::partizan::grid::Grid) -> String {
                p.to_string()
            }
            fn named_options(
                &self,
                p: &crate::partizan::grid::Grid,
                side: Player,
            ) -> Vec<(String, crate::partizan::grid::Grid)> {
                grid_options(self, p, side, ToString::to_string, (b'x', b'o'))
            }
            fn estimate(&self, p: &crate::partizan::grid::Grid) -> f64 {
                let free = p.cells.iter().filter(|&&c| c != b'#').count();
                exponential(free * $per_cell / 4)
            }
        }
    };
}

// Clobber and Konane boards shrink by a stone a move; an Amazons move may reach far and
// burns a cell: cells weigh more there.
grid_game!(clobber::Clobber, "clobber", 4);
grid_game!(konane::Konane, "konane", 4);
grid_game!(amazons::Amazons, "amazons", 6);

impl Played for toads_and_frogs::ToadsAndFrogs {
    const NAME: &'static str = "toads-and-frogs";
    fn show(&self, p: &Vec<u8>) -> String {
        String::from_utf8_lossy(p).into_owned()
    }
    fn named_options(&self, p: &Vec<u8>, side: Player) -> Vec<(String, Vec<u8>)> {
        self.options(p, side)
            .into_iter()
            .map(|o| {
                let from = p.iter().zip(&o).position(|(a, b)| a != b && *b == b'.');
                let to = p.iter().zip(&o).position(|(a, b)| a != b && *b != b'.');
                let name = match (from, to) {
                    (Some(f), Some(t)) => format!("{}-{}", f + 1, t + 1),
                    _ => String::new(),
                };
                (name, o)
            })
            .collect()
    }
    fn estimate(&self, p: &Vec<u8>) -> f64 {
        exponential(p.len() * 3 / 4)
    }
}

impl Played for hackenbush::HackenbushStalks {
    const NAME: &'static str = "hackenbush";
    fn show(&self, p: &Vec<Vec<u8>>) -> String {
        p.iter()
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect::<Vec<_>>()
            .join(",")
    }
    fn named_options(&self, stalks: &Vec<Vec<u8>>, side: Player) -> Vec<(String, Vec<Vec<u8>>)> {
        hackenbush::cuts(stalks, side)
            .into_iter()
            .map(|(s, i)| {
                (
                    format!("{}:{}", s + 1, i + 1),
                    hackenbush::cut(stalks, s, i),
                )
            })
            .collect()
    }
    fn estimate(&self, stalks: &Vec<Vec<u8>>) -> f64 {
        // Each stalk's value is found edge by edge.
        stalks.iter().map(|s| s.len() as f64).sum::<f64>() * 1e-5
    }
}

impl Played for hackenbush::HackenbushGraph {
    const NAME: &'static str = "hackenbush";
    fn show(&self, edges: &hackenbush::Edges) -> String {
        hackenbush::show_graph(edges)
    }
    /// An edge named by its place in the graph as written back, from 1 (`e3`).
    fn named_options(
        &self,
        edges: &hackenbush::Edges,
        side: Player,
    ) -> Vec<(String, hackenbush::Edges)> {
        hackenbush::graph_cuts(edges, side)
            .into_iter()
            .map(|i| (format!("e{}", i + 1), hackenbush::cut_edge(edges, i)))
            .collect()
    }
    fn estimate(&self, edges: &hackenbush::Edges) -> f64 {
        exponential(edges.len())
    }
}

impl Played for cutcake::Cutcake {
    const NAME: &'static str = "cutcake";
    fn show(&self, p: &Vec<(u32, u32)>) -> String {
        p.iter()
            .map(|(w, h)| format!("{w}x{h}"))
            .collect::<Vec<_>>()
            .join("+")
    }
    fn named_options(
        &self,
        pieces: &Vec<(u32, u32)>,
        side: Player,
    ) -> Vec<(String, Vec<(u32, u32)>)> {
        cutcake::cuts(pieces, side)
            .into_iter()
            // Equal pieces give equal cuts: the first piece's are named.
            .filter(|&(i, _)| i == 0 || pieces[i - 1] != pieces[i])
            .map(|(i, at)| {
                let (w, h) = pieces[i];
                (format!("{w}x{h}@{at}"), cutcake::cut(pieces, i, at, side))
            })
            .collect()
    }
    fn estimate(&self, pieces: &Vec<(u32, u32)>) -> f64 {
        // Every sub-rectangle of the largest piece, each with its cuts.
        let (w, h) = pieces
            .iter()
            .fold((0u32, 0u32), |(a, b), &(w, h)| (a.max(w), b.max(h)));
        f64::from(w) * f64::from(h) * f64::from(w + h) * 2e-8
    }
}

/// One move of one side as the answer lists it.
fn move_json(name: &str, value: &str, wins: bool, position: &str) -> Value {
    json!({"move": name, "value": value, "wins": wins, "position": position})
}

/// The answer for `position` of the game `rules` under `budget`.
fn answer_of<R: Played + Copy>(
    rules: R,
    position: R::Position,
    params: &Params,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let to_move = player(params)?;
    let estimate = rules.estimate(&position);
    let shown = rules.show(&position);
    budget.check_time(|| format!("the value of {} {shown}", R::NAME), estimate)?;
    budget.admit(estimate)?;
    budget.cancel.check()?;
    let mut games = GameTable::with_limit(report::forms_within(budget.memory(DEFAULT_MEMORY)));
    let mut valuer =
        Valuer::with_cancel(rules, budget.cancel.clone()).with_progress(budget.progress.clone());
    let g = valuer.value(&mut games, &position)?;
    let told: ValueReport = report::report(&mut games, g, to_move)?;
    let rules = *valuer.rules();
    // Every move of each side, with the value it leads to and whether it wins.
    let mut sides = Map::new();
    let mut mover_moves = Vec::new();
    for side in [Player::Left, Player::Right] {
        let mut listed = Vec::new();
        for (name, option) in rules.named_options(&position, side) {
            let o = valuer.value(&mut games, &option)?;
            let wins = !games.outcome(o).first_player_wins(side.other());
            let value = notation::show(&mut games, o);
            let after = rules.show(&option);
            listed.push(move_json(&name, &value, wins, &after));
            if side == to_move {
                let ends = rules.options(&option, side.other()).is_empty();
                let mut details = Map::new();
                details.insert("value".into(), json!(value));
                details.insert("to_move".into(), json!(player_name(side.other())));
                mover_moves.push(MoveValue {
                    mv: json!(name),
                    outcome: if wins { Outcome::Win } else { Outcome::Loss },
                    remoteness: None,
                    ends_game: ends,
                    position: Some(after),
                    details,
                });
            }
        }
        // The winning moves first.
        listed.sort_by_key(|m| !m["wins"].as_bool().unwrap_or(false));
        sides.insert(format!("{}_moves", player_name(side)), Value::Array(listed));
    }
    // One line of perfect play: a winning move while there is one, else the first move.
    let mut line = Vec::new();
    let (mut at, mut side) = (position.clone(), to_move);
    while line.len() < MAX_LINE {
        let options = rules.named_options(&at, side);
        let mut chosen = None;
        for (name, option) in options {
            let o = valuer.value(&mut games, &option)?;
            let wins = !games.outcome(o).first_player_wins(side.other());
            if chosen.is_none() || wins {
                chosen = Some((name, option));
                if wins {
                    break;
                }
            }
        }
        let Some((name, option)) = chosen else { break };
        line.push(json!(name));
        at = option;
        side = side.other();
    }
    let mut details = report_details(&told);
    details.extend(sides);
    Ok(valued_answer(
        R::NAME,
        shown,
        &told,
        mover_moves,
        line,
        details,
    ))
}

/// The answer of a partizan position or sum from its value's report, the mover's moves
/// (winning ones first), a line of play and the details.
pub(super) fn valued_answer(
    game: &'static str,
    position: String,
    told: &ValueReport,
    mut mover_moves: Vec<MoveValue>,
    line: Vec<Value>,
    details: Map<String, Value>,
) -> Answer {
    mover_moves.sort_by_key(|m| m.outcome != Outcome::Win);
    let winning: Vec<Value> = mover_moves
        .iter()
        .filter(|m| m.outcome == Outcome::Win)
        .map(|m| m.mv.clone())
        .collect();
    Answer {
        game,
        position,
        to_move: Side::First,
        outcome: if told.first_player_wins() {
            Outcome::Win
        } else {
            Outcome::Loss
        },
        first_player_wins: told.first_player_wins(),
        remoteness: None,
        winning_moves_total: json!(winning.len()),
        winning_moves: winning,
        moves: mover_moves,
        moves_complete: true,
        best_line: Some(line),
        method: "canonical form".into(),
        details,
    }
}

/// The value's own fields, as `cgt --json` names them.
pub(super) fn report_details(told: &ValueReport) -> Map<String, Value> {
    let mut details = Map::new();
    let json = told.to_json();
    details.insert("player".into(), json!(player_name(told.to_move)));
    for key in [
        "value",
        "outcome_class",
        "left_stop",
        "right_stop",
        "temperature",
        "mean",
        "thermograph",
        "reduced_canonical_form",
        "atomic_weight",
        "birthday",
    ] {
        details.insert(key.into(), json[key].clone());
    }
    // The sentence without its full stop: front ends add their own.
    details.insert(
        "reason".into(),
        json!(format!(
            "{} Temperature {}, mean {}",
            told.sentence(),
            told.temperature,
            told.mean
        )),
    );
    details
}

/// Domineering: `position` rows joined by `|`, `.` empty, `#` covered.
///
/// # Errors
/// A position that does not read, or over the budget or the memory limit.
pub fn domineering(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let board = domineering::parse(position)?;
    answer_of(domineering::Domineering, board, params, budget)
}

/// Clobber: `x` Left's stones, `o` Right's, `.` empty.
///
/// # Errors
/// As [`domineering()`].
pub fn clobber(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    answer_of(clobber::Clobber, clobber::parse(position)?, params, budget)
}

/// Konane: `x`, `o` and `.`, as Clobber.
///
/// # Errors
/// As [`domineering()`].
pub fn konane(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    answer_of(konane::Konane, konane::parse(position)?, params, budget)
}

/// Amazons: `x`, `o` amazons, `#` burnt, `.` empty.
///
/// # Errors
/// As [`domineering()`].
pub fn amazons(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    answer_of(amazons::Amazons, amazons::parse(position)?, params, budget)
}

/// Toads and Frogs: one row of `t`, `f` and `.`.
///
/// # Errors
/// As [`domineering()`].
pub fn toads_and_frogs(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let row = toads_and_frogs::parse(position)?;
    answer_of(toads_and_frogs::ToadsAndFrogs, row, params, budget)
}

/// Hackenbush: stalks (`l`, `r`, `e` edges from the ground, stalks joined by `,`) or any
/// graph as an edge list (`g a l; a b r`).
///
/// # Errors
/// As [`domineering()`].
pub fn hackenbush(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    if hackenbush::is_graph(position) {
        let edges = hackenbush::parse_graph(position)?;
        return answer_of(hackenbush::HackenbushGraph, edges, params, budget);
    }
    let stalks = hackenbush::parse(position)?;
    answer_of(hackenbush::HackenbushStalks, stalks, params, budget)
}

/// Cutcake: pieces `WxH` joined by `+`.
///
/// # Errors
/// As [`domineering()`].
pub fn cutcake(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    answer_of(cutcake::Cutcake, cutcake::parse(position)?, params, budget)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::registry::find;

    /// The registry's answer for `position` of `game` with `to_move` to move.
    pub(in crate::registry::answers) fn answer(
        game: &str,
        position: &str,
        to_move: &str,
    ) -> Answer {
        let info = find(game).unwrap();
        let params = info
            .params_from(&[("to_move".into(), to_move.into())])
            .unwrap();
        info.answer(&params, position, &Budget::default())
            .unwrap_or_else(|e| panic!("{game} {position}: {e}"))
    }

    /// Each game's named moves are its options, the same positions in the same numbers.
    fn names_cover_the_options<R: Played>(rules: &R, position: &R::Position)
    where
        R::Position: Ord + std::fmt::Debug,
    {
        for side in [Player::Left, Player::Right] {
            let mut named: Vec<R::Position> = rules
                .named_options(position, side)
                .into_iter()
                .map(|(name, p)| {
                    assert!(!name.is_empty());
                    p
                })
                .collect();
            let mut options = rules.options(position, side);
            if R::NAME == "cutcake" {
                // Equal pieces give equal cuts: named once.
                options.sort();
                options.dedup();
                named.sort();
                named.dedup();
            }
            named.sort();
            options.sort();
            assert_eq!(named, options, "{} {side:?}", R::NAME);
        }
    }

    #[test]
    fn every_move_is_named_and_every_name_a_move() {
        names_cover_the_options(
            &domineering::Domineering,
            &domineering::parse("...|..#|...").unwrap(),
        );
        names_cover_the_options(&clobber::Clobber, &clobber::parse("xox|ox.|.xo").unwrap());
        names_cover_the_options(&konane::Konane, &konane::parse("xo.ox.|.x.o..").unwrap());
        names_cover_the_options(&amazons::Amazons, &amazons::parse("x..|.#o").unwrap());
        names_cover_the_options(
            &toads_and_frogs::ToadsAndFrogs,
            &toads_and_frogs::parse("tt.ft.f.f").unwrap(),
        );
        names_cover_the_options(
            &hackenbush::HackenbushStalks,
            &hackenbush::parse("lre,rrl,e").unwrap(),
        );
        names_cover_the_options(&cutcake::Cutcake, &cutcake::parse("3x2+3x2+1x4").unwrap());
    }

    /// Winning Ways' and CGSuite's values, told by the answers: who wins with each player to
    /// move, the value, and moves named as the notation says.
    #[test]
    fn answers_tell_the_value_who_wins_and_each_move() {
        // The 2 x 2 Domineering board is +-1: the player to move wins by either domino.
        let a = answer("domineering", "..|..", "right");
        assert_eq!(a.details["value"], "+-1");
        assert_eq!(a.details["player"], "right");
        assert!(a.first_player_wins);
        let moves: Vec<&str> = a.moves.iter().map(|m| m.mv.as_str().unwrap()).collect();
        assert_eq!(moves, ["a1-b1", "a2-b2"]);
        assert_eq!(a.moves[0].details["to_move"], "left");
        assert_eq!(a.details["left_moves"][0]["move"], "a1-a2");
        // tft.tff is ^ (Winning Ways): Left wins whoever starts; Right's moves all lose.
        for side in ["left", "right"] {
            let a = answer("toads-and-frogs", "tft.tff", side);
            assert_eq!(a.details["value"], "^");
            assert_eq!(a.first_player_wins, side == "left");
            assert_eq!(a.details["outcome_class"], "L");
            assert_eq!(a.details["atomic_weight"], "1");
        }
        // Hackenbush lrr is 1/4 (the stalk's sign-expansion value), rl is -1/2.
        let a = answer("hackenbush", "lrr,rl", "left");
        assert_eq!(a.details["value"], "-1/4");
        assert!(!a.first_player_wins);
        assert_eq!(a.details["temperature"], "-1/4");
        // A 4 x 3 cake is 1 (Winning Ways' Cutcake table): Left wins by halving it.
        let a = answer("cutcake", "4x3", "left");
        assert_eq!(a.details["value"], "1");
        assert_eq!(a.winning_moves, [json!("4x3@2")]);
        // An Amazons arrow shot back where the amazon stood is named in full.
        let a = answer("amazons", "x...|o...", "left");
        assert!(
            a.details["left_moves"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["move"] == "a1-b2-a1")
        );
        assert_eq!(a.details["temperature"], "3");
        // A Konane jump names where it starts and lands.
        let a = answer("konane", "xo.", "left");
        assert_eq!(a.moves[0].mv, json!("a1-c1"));
        assert_eq!(a.moves[0].position.as_deref(), Some("..x"));
    }

    #[test]
    fn bad_input_is_refused_with_the_reason() {
        let info = find("domineering").unwrap();
        let bad = info
            .params_from(&[("to_move".into(), "up".into())])
            .unwrap();
        let e = info.answer(&bad, "..", &Budget::default()).unwrap_err();
        assert!(e.to_string().contains("left or right"), "{e}");
        let params = info.params_from(&[]).unwrap();
        let e = info
            .answer(&params, "..|.", &Budget::default())
            .unwrap_err();
        assert!(matches!(e, QueryError::BadInput(_)), "{e}");
        // Over a small time budget, a large board is refused before any work.
        let budget = Budget {
            seconds: Some(0.5),
            ..Budget::default()
        };
        let big = ["......"; 6].join("|");
        let e = info.answer(&params, &big, &budget).unwrap_err();
        assert!(matches!(e, QueryError::OverBudget(_)), "{e}");
        // Over the memory limit: refused with the figure.
        let tiny = Budget {
            memory_limit: Some(16 << 10),
            ..Budget::default()
        };
        let e = info
            .answer(&params, &["....."; 4].join("|"), &tiny)
            .unwrap_err();
        assert!(matches!(e, QueryError::OverMemory(_)), "{e}");
        // Cancelled while valuing (Ctrl-C, a client gone): stops at the valuer's next look,
        // with no answer (the 5 x 6 board takes seconds even in a release build).
        let cancelled = Budget::default();
        let flag = cancelled.cancel.clone();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            flag.cancel();
        });
        let e = info
            .answer(&params, &["......"; 5].join("|"), &cancelled)
            .unwrap_err();
        raiser.join().unwrap();
        assert!(matches!(e, QueryError::Cancelled(_)), "{e}");
    }
}
