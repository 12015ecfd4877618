//! `perfect-play solve` and `perfect-play query`: any game the engine solves, through one
//! adapter per game (its name, variant, position notation and move names).

use super::connect_four::{parse_moves, picture};
use super::{Budget, CommandError};
use crate::args::{EngineArgs, EngineGame};
use crate::output::{Output, verdict_of};
use crate::progress;
use perfect_play::Outcome;
use perfect_play::engine::{
    self, BYTES_PER_POSITION, Checkpoint, Database, IndexedGame, Options, Record, Solution,
    TableAnalysis, database,
};
use perfect_play::games::connect_four::{Board, ConnectFour};
use perfect_play::games::dobutsu::{self, Action, Animals, Dobutsu, Kind, Piece};
use perfect_play::games::dodgem::{Cars, Direction, Dodgem, Drive};
use perfect_play::games::mu_torere::{self, MuTorere, Star, Step};
use perfect_play::games::quixo::{self, Cubes, Push, Quixo};
use perfect_play::games::teeko::{Pieces, Placement, Teeko};
use perfect_play::tic_tac_toe::{self, Cell, TicTacToe};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// What the CLI needs to know of an engine game beyond the library's traits.
pub(super) trait Adapter: IndexedGame + Sync {
    /// The game's name in the CLI and the database.
    fn name(&self) -> &'static str;
    /// The variant (`5x4`), empty when the game has none.
    fn variant(&self) -> String;
    /// The starting position.
    fn start_position(&self) -> Self::Position;
    /// A position in the game's notation.
    fn parse_position(&self, text: &str) -> Result<Self::Position, CommandError>;
    /// Whether the first player is to move.
    fn first_to_move(&self, position: &Self::Position) -> bool;
    /// A move as JSON and as text.
    fn move_json(&self, mv: &Self::Move) -> serde_json::Value;
    /// The position drawn in text.
    fn picture(&self, position: &Self::Position) -> String;
    /// The position in the notation `parse_position` reads, when the game has one for a bare
    /// position (Connect Four's is the moves played, which a position does not keep).
    fn notation(&self, position: &Self::Position) -> Option<String>;
    /// The name and the variant, as text says them: `quixo 4x4`, `dobutsu`.
    fn title(&self) -> String {
        let variant = self.variant();
        if variant.is_empty() {
            self.name().to_string()
        } else {
            format!("{} {variant}", self.name())
        }
    }
}

/// Marks in reading order as notation: rows of `width` joined by `/`, then the side to move.
fn marks_notation(marks: impl Iterator<Item = char>, width: usize, x_to_move: bool) -> String {
    let marks: Vec<char> = marks.collect();
    let rows: Vec<String> = marks
        .chunks(width.max(1))
        .map(|row| row.iter().collect())
        .collect();
    format!("{}:{}", rows.join("/"), if x_to_move { 'x' } else { 'o' })
}

/// The mark of a square shared by the notation and the picture: `x`, `o` or `.`.
fn mark_of(first: bool, second: bool) -> char {
    match (first, second) {
        (true, _) => 'x',
        (_, true) => 'o',
        _ => '.',
    }
}

/// Dodgem's car bit for a square numbered in reading order from the top-left.
fn dodgem_bit(n: u32, square: u32) -> u64 {
    1u64 << (square % n + n * (n - 1 - square / n))
}

/// Mu Torere's mark of a cell (points 1-8 are cells 0-7, the centre is 8).
fn star_mark(star: &Star, cell: u8) -> char {
    mark_of(
        cell != star.empty && star.first >> cell & 1 == 1,
        cell != star.empty && star.first >> cell & 1 == 0,
    )
}

/// Quixo's mark of a square in reading order.
fn cube_mark(cubes: &Cubes, square: u32) -> char {
    mark_of(cubes.x >> square & 1 == 1, cubes.o >> square & 1 == 1)
}

/// Positions the engine solves a second on one core, measured on 5 x 4 (1.4 million): the
/// estimate shown before a long solve.
const POSITIONS_PER_SECOND: f64 = 1.4e6;

/// "40 s", "3 min", "5 h", "12 days", "80 years".
fn rough_duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "h"),
        (60.0, "min"),
        (1.0, "s"),
    ];
    let (size, name) = UNITS
        .into_iter()
        .find(|&(size, _)| seconds >= 2.0 * size)
        .unwrap_or((1.0, "s"));
    format!("{:.0} {name}", (seconds / size).max(1.0))
}

/// A square of a position written as text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    X,
    O,
    Empty,
}

/// A position written as marks (`x`, `o`, `.`; a `/` between rows is ignored) and an optional
/// `:x` or `:o` for the side to move (default x): the marks in order, and whether x moves.
fn parse_marks(text: &str, cells: usize, what: &str) -> Result<(Vec<Mark>, bool), CommandError> {
    let (marks, side) = match text.trim().split_once(':') {
        Some((marks, side)) => (marks, side.trim()),
        None => (text.trim(), "x"),
    };
    let x_to_move = match side {
        "x" | "X" => true,
        "o" | "O" => false,
        other => return Err(format!("{other:?} after ':' is not a side: use :x or :o").into()),
    };
    let marks = marks
        .chars()
        .filter(|&c| c != '/')
        .map(|c| match c {
            'x' | 'X' => Ok(Mark::X),
            'o' | 'O' => Ok(Mark::O),
            '.' | '-' | '_' => Ok(Mark::Empty),
            other => Err(format!("{other:?} is not a square: use x, o or .")),
        })
        .collect::<Result<Vec<Mark>, String>>()?;
    if marks.len() != cells {
        return Err(format!("{what} has {cells} squares, got {}", marks.len()).into());
    }
    Ok((marks, x_to_move))
}

impl Adapter for TicTacToe {
    fn name(&self) -> &'static str {
        "tic-tac-toe"
    }
    fn variant(&self) -> String {
        "3x3".into()
    }
    fn start_position(&self) -> tic_tac_toe::Board {
        tic_tac_toe::Board::empty()
    }
    fn parse_position(&self, text: &str) -> Result<tic_tac_toe::Board, CommandError> {
        Ok(text.parse()?)
    }
    fn first_to_move(&self, board: &tic_tac_toe::Board) -> bool {
        board.to_move() == Cell::X
    }
    fn move_json(&self, square: &tic_tac_toe::Square) -> serde_json::Value {
        json!(square.0 + 1)
    }
    fn notation(&self, board: &tic_tac_toe::Board) -> Option<String> {
        Some(board.to_string())
    }
    fn picture(&self, board: &tic_tac_toe::Board) -> String {
        let text = board.to_string();
        text.as_bytes()
            .chunks(3)
            .map(|row| format!("  {}\n", String::from_utf8_lossy(row)))
            .collect()
    }
}

impl Adapter for ConnectFour {
    fn name(&self) -> &'static str {
        "connect-four"
    }
    fn variant(&self) -> String {
        format!("{}x{}", self.width(), self.height())
    }
    fn start_position(&self) -> Board {
        self.empty()
    }
    fn parse_position(&self, text: &str) -> Result<Board, CommandError> {
        let moves = parse_moves(text)?;
        self.play_columns(&moves).ok_or_else(|| {
            format!(
                "the moves {text} are not a game on a {} x {} board: a column off the board or full, or a move after four in a row",
                self.width(),
                self.height()
            )
            .into()
        })
    }
    fn first_to_move(&self, board: &Board) -> bool {
        ConnectFour::first_to_move(self, board)
    }
    fn move_json(&self, column: &u32) -> serde_json::Value {
        json!(column + 1)
    }
    fn notation(&self, _board: &Board) -> Option<String> {
        None
    }
    fn picture(&self, board: &Board) -> String {
        picture(self, board)
    }
}

impl Adapter for Dodgem {
    fn name(&self) -> &'static str {
        "dodgem"
    }
    fn variant(&self) -> String {
        format!("{0}x{0}", self.size())
    }
    fn start_position(&self) -> Cars {
        Dodgem::start_position(self)
    }
    fn parse_position(&self, text: &str) -> Result<Cars, CommandError> {
        let n = self.size();
        let what = format!("a {n} x {n} Dodgem board (rows from the top)");
        let (marks, first_to_move) = parse_marks(text, (n * n) as usize, &what)?;
        let mut cars = Cars {
            first: 0,
            second: 0,
            first_to_move,
        };
        for (i, mark) in marks.into_iter().enumerate() {
            let bit = dodgem_bit(n, i as u32);
            match mark {
                Mark::X => cars.first |= bit,
                Mark::O => cars.second |= bit,
                Mark::Empty => {}
            }
        }
        let (a, b) = (cars.first.count_ones(), cars.second.count_ones());
        if a == 0 || b == 0 || a >= n || b >= n {
            return Err(format!(
                "each player has 1 to {} cars on a {n} x {n} board until one drives the last off; got {a} x and {b} o",
                n - 1
            )
            .into());
        }
        Ok(cars)
    }
    fn first_to_move(&self, cars: &Cars) -> bool {
        cars.first_to_move
    }
    fn move_json(&self, drive: &Drive) -> serde_json::Value {
        let n = self.size();
        let (x, y) = (drive.from % n, drive.from / n);
        let direction = match drive.to {
            Direction::Right => 'R',
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
        };
        json!(format!(
            "{}{}{direction}",
            char::from(b'a' + x as u8),
            y + 1
        ))
    }
    fn notation(&self, cars: &Cars) -> Option<String> {
        let n = self.size();
        let marks = (0..n * n).map(|i| {
            let bit = dodgem_bit(n, i);
            mark_of(cars.first & bit != 0, cars.second & bit != 0)
        });
        Some(marks_notation(marks, n as usize, cars.first_to_move))
    }
    fn picture(&self, cars: &Cars) -> String {
        let n = self.size();
        let mut text = String::new();
        for y in (0..n).rev() {
            text.push_str(&format!("  {} ", y + 1));
            for x in 0..n {
                let bit = 1u64 << (x + n * y);
                text.push(mark_of(cars.first & bit != 0, cars.second & bit != 0));
            }
            text.push('\n');
        }
        text.push_str("    ");
        text.extend((0..n).map(|x| char::from(b'a' + x as u8)));
        text.push('\n');
        text
    }
}

impl Adapter for MuTorere {
    fn name(&self) -> &'static str {
        "mu-torere"
    }
    fn variant(&self) -> String {
        "star".into()
    }
    fn start_position(&self) -> Star {
        MuTorere::start_position(self)
    }
    fn parse_position(&self, text: &str) -> Result<Star, CommandError> {
        let what = "a Mu Torere position (points 1-8, then the centre)";
        let (marks, first_to_move) = parse_marks(text, 9, what)?;
        let mut first = 0u16;
        let mut empty = Vec::new();
        let mut seconds = 0;
        for (cell, mark) in marks.into_iter().enumerate() {
            match mark {
                Mark::X => first |= 1 << cell,
                Mark::O => seconds += 1,
                Mark::Empty => empty.push(cell as u8),
            }
        }
        if first.count_ones() != 4 || seconds != 4 || empty.len() != 1 {
            return Err(format!(
                "Mu Torere has four pieces each and one empty cell; got {} x, {seconds} o and {} empty",
                first.count_ones(),
                empty.len()
            )
            .into());
        }
        Ok(Star {
            first,
            empty: empty[0],
            first_to_move,
        })
    }
    fn first_to_move(&self, star: &Star) -> bool {
        star.first_to_move
    }
    fn move_json(&self, step: &Step) -> serde_json::Value {
        json!(format!(
            "{}{}",
            mu_torere::cell_name(step.from),
            mu_torere::cell_name(step.to)
        ))
    }
    fn notation(&self, star: &Star) -> Option<String> {
        let marks = (0..9u8).map(|cell| star_mark(star, cell));
        Some(marks_notation(marks, 9, star.first_to_move))
    }
    fn picture(&self, star: &Star) -> String {
        let points: String = (0..8).map(|cell| star_mark(star, cell)).collect();
        format!(
            "  points 1-8: {points}  centre: {}\n",
            star_mark(star, mu_torere::CENTRE)
        )
    }
}

impl Adapter for Quixo {
    fn name(&self) -> &'static str {
        "quixo"
    }
    fn variant(&self) -> String {
        format!("{0}x{0}", self.size())
    }
    fn start_position(&self) -> Cubes {
        Quixo::start_position(self)
    }
    fn parse_position(&self, text: &str) -> Result<Cubes, CommandError> {
        let n = self.size();
        let what = format!("a {n} x {n} Quixo board (rows from the top)");
        let (marks, x_to_move) = parse_marks(text, (n * n) as usize, &what)?;
        let mut cubes = Cubes {
            x: 0,
            o: 0,
            x_to_move,
        };
        for (square, mark) in marks.into_iter().enumerate() {
            match mark {
                Mark::X => cubes.x |= 1 << square,
                Mark::O => cubes.o |= 1 << square,
                Mark::Empty => {}
            }
        }
        if self.has_line(cubes.x) || self.has_line(cubes.o) {
            return Err("the board has a line already: the game is over".into());
        }
        Ok(cubes)
    }
    fn first_to_move(&self, cubes: &Cubes) -> bool {
        cubes.x_to_move
    }
    fn move_json(&self, push: &Push) -> serde_json::Value {
        let n = self.size();
        let (row, col) = (push.from / n, push.from % n);
        let end = match push.end {
            quixo::End::Left => 'L',
            quixo::End::Right => 'R',
            quixo::End::Top => 'T',
            quixo::End::Bottom => 'B',
        };
        json!(format!("{}{}{end}", char::from(b'a' + col as u8), n - row))
    }
    fn notation(&self, cubes: &Cubes) -> Option<String> {
        let n = self.size();
        let marks = (0..n * n).map(|square| cube_mark(cubes, square));
        Some(marks_notation(marks, n as usize, cubes.x_to_move))
    }
    fn picture(&self, cubes: &Cubes) -> String {
        let n = self.size();
        let mut text = String::new();
        for row in 0..n {
            text.push_str(&format!("  {} ", n - row));
            for col in 0..n {
                text.push(cube_mark(cubes, col + n * row));
            }
            text.push('\n');
        }
        text.push_str("    ");
        text.extend((0..n).map(|c| char::from(b'a' + c as u8)));
        text.push('\n');
        text
    }
}

/// A board square in reading order (row 0 at the top) as a column letter and a row counted
/// from the bottom: `c3`.
fn square_name(n: u32, square: u32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % n) as u8),
        n - square / n
    )
}

impl Adapter for Teeko {
    fn name(&self) -> &'static str {
        "teeko"
    }
    fn variant(&self) -> String {
        format!("{0}x{0}", self.size())
    }
    fn start_position(&self) -> Pieces {
        Teeko::start_position(self)
    }
    fn parse_position(&self, text: &str) -> Result<Pieces, CommandError> {
        let n = self.size();
        let what = format!("a {n} x {n} Teeko board (rows from the top)");
        let (marks, x_to_move) = parse_marks(text, (n * n) as usize, &what)?;
        let mut pieces = Pieces {
            x: 0,
            o: 0,
            x_to_move,
        };
        for (square, mark) in marks.into_iter().enumerate() {
            match mark {
                Mark::X => pieces.x |= 1 << square,
                Mark::O => pieces.o |= 1 << square,
                Mark::Empty => {}
            }
        }
        let (xs, os) = (pieces.x.count_ones(), pieces.o.count_ones());
        let all = 2 * self.pieces();
        if xs + os < all && !text.contains(':') {
            // While placing, the counts say whose turn it is.
            pieces.x_to_move = xs == os;
        }
        if self.has_pattern(pieces.x) || self.has_pattern(pieces.o) {
            return Err("the board has four in a row or a square already: the game is over".into());
        }
        if !self.is_position(&pieces) {
            return Err(format!(
                "not a Teeko position: {xs} x and {os} o with {} to move (x places first, and each side has at most {} pieces)",
                if pieces.x_to_move { "x" } else { "o" },
                self.pieces()
            )
            .into());
        }
        Ok(pieces)
    }
    fn first_to_move(&self, pieces: &Pieces) -> bool {
        pieces.x_to_move
    }
    fn move_json(&self, placement: &Placement) -> serde_json::Value {
        let n = self.size();
        let from = placement
            .from
            .map(|s| square_name(n, s))
            .unwrap_or_default();
        json!(format!("{from}{}", square_name(n, placement.to)))
    }
    fn notation(&self, pieces: &Pieces) -> Option<String> {
        let n = self.size();
        let marks = (0..n * n).map(|s| mark_of(pieces.x >> s & 1 == 1, pieces.o >> s & 1 == 1));
        Some(marks_notation(marks, n as usize, pieces.x_to_move))
    }
    fn picture(&self, pieces: &Pieces) -> String {
        let n = self.size();
        let mut text = String::new();
        for row in 0..n {
            text.push_str(&format!("  {} ", n - row));
            for col in 0..n {
                let s = col + n * row;
                text.push(mark_of(pieces.x >> s & 1 == 1, pieces.o >> s & 1 == 1));
            }
            text.push('\n');
        }
        text.push_str("    ");
        text.extend((0..n).map(|c| char::from(b'a' + c as u8)));
        text.push('\n');
        text
    }
}

/// A Dobutsu shogi square (`col + 3 * row` from the top-left) as a column letter and a row
/// counted from the bottom: `b2`.
fn dobutsu_square(square: usize) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % 3) as u8),
        4 - square / 3
    )
}

/// A piece's letter: a capital for the first player's.
fn dobutsu_letter(piece: Option<Piece>) -> char {
    piece.map_or('.', |p| {
        let letter = p.kind.letter();
        if p.first_player {
            letter
        } else {
            letter.to_ascii_lowercase()
        }
    })
}

/// The hands as letters (the first player's capitals first), `-` for none.
fn dobutsu_hands(animals: &Animals) -> String {
    let mut held = String::new();
    for first in [true, false] {
        for kind in Kind::IN_HAND {
            for _ in 0..animals.in_hand(first, kind) {
                let letter = kind.letter();
                held.push(if first {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
    }
    if held.is_empty() { "-".into() } else { held }
}

impl Adapter for Dobutsu {
    fn name(&self) -> &'static str {
        "dobutsu"
    }
    fn variant(&self) -> String {
        String::new()
    }
    fn start_position(&self) -> Animals {
        Dobutsu::start_position(self)
    }
    fn parse_position(&self, text: &str) -> Result<Animals, CommandError> {
        let mut parts = text.trim().split(':');
        let rows = parts.next().unwrap_or_default();
        let (mut hand, mut side) = ("", "x");
        for part in parts {
            match part.trim() {
                "x" | "X" | "o" | "O" => side = part.trim(),
                held => hand = held,
            }
        }
        let mut board = [None; dobutsu::SQUARES];
        let cells: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
        if cells.len() != dobutsu::SQUARES {
            return Err(format!(
                "a Dobutsu shogi board has 12 squares (4 rows of 3 from the top), got {}",
                cells.len()
            )
            .into());
        }
        for (square, &c) in cells.iter().enumerate() {
            if matches!(c, '.' | '-' | '_') {
                continue;
            }
            let kind = Kind::from_letter(c).ok_or_else(|| {
                format!(
                    "{c:?} is not a piece: use L, E, G, C, H (capitals for the first player) or ."
                )
            })?;
            board[square] = Some(Piece {
                kind,
                first_player: c.is_ascii_uppercase(),
            });
        }
        let mut hands = [[0u8; 3]; 2];
        for c in hand.chars().filter(|&c| c != '-') {
            let slot = Kind::from_letter(c)
                .and_then(Kind::hand_slot)
                .ok_or_else(|| {
                    format!("{c:?} cannot be held: a hand holds E, G and C (capitals for the first player)")
                })?;
            let held = &mut hands[usize::from(!c.is_ascii_uppercase())][slot];
            *held = held.saturating_add(1);
        }
        let first_to_move = matches!(side, "x" | "X");
        Ok(self.position_of(&board, hands, first_to_move)?)
    }
    fn first_to_move(&self, animals: &Animals) -> bool {
        animals.first_to_move()
    }
    fn move_json(&self, action: &Action) -> serde_json::Value {
        json!(match *action {
            Action::Step { from, to } => format!("{}{}", dobutsu_square(from), dobutsu_square(to)),
            Action::Drop { kind, to } => format!("{}*{}", kind.letter(), dobutsu_square(to)),
        })
    }
    fn notation(&self, animals: &Animals) -> Option<String> {
        let rows: Vec<String> = (0..4)
            .map(|row| {
                (0..3)
                    .map(|col| dobutsu_letter(animals.piece_at(col + 3 * row)))
                    .collect()
            })
            .collect();
        let hands = dobutsu_hands(animals);
        let side = if animals.first_to_move() { 'x' } else { 'o' };
        Some(if hands == "-" {
            format!("{}:{side}", rows.join("/"))
        } else {
            format!("{}:{hands}:{side}", rows.join("/"))
        })
    }
    fn picture(&self, animals: &Animals) -> String {
        let mut text = String::new();
        for row in 0..4 {
            text.push_str(&format!("  {} ", 4 - row));
            text.extend((0..3).map(|col| dobutsu_letter(animals.piece_at(col + 3 * row))));
            text.push('\n');
        }
        text.push_str("    abc\n");
        text.push_str(&format!("  in hand: {}\n", dobutsu_hands(animals)));
        text
    }
}

pub fn solve(args: &EngineArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
    match &args.game {
        EngineGame::Dobutsu { position } => {
            no_position(position.as_deref())?;
            solve_game(&Dobutsu::standard(), args, budget, quiet)
        }
        EngineGame::Teeko { position } => {
            no_position(position.as_deref())?;
            solve_game(&Teeko::standard(), args, budget, quiet)
        }
        EngineGame::Quixo { position, size } => {
            no_position(position.as_deref())?;
            solve_game(&Quixo::new(*size)?, args, budget, quiet)
        }
        EngineGame::MuTorere { position } => {
            no_position(position.as_deref())?;
            solve_game(&MuTorere, args, budget, quiet)
        }
        EngineGame::Dodgem { position, size } => {
            no_position(position.as_deref())?;
            solve_game(&Dodgem::new(*size)?, args, budget, quiet)
        }
        EngineGame::TicTacToe { position } => {
            no_position(position.as_deref())?;
            solve_game(
                &TicTacToe {
                    board: tic_tac_toe::Board::empty(),
                },
                args,
                budget,
                quiet,
            )
        }
        EngineGame::ConnectFour {
            position,
            width,
            height,
        } => {
            no_position(position.as_deref())?;
            solve_game(&ConnectFour::new(*width, *height)?, args, budget, quiet)
        }
    }
}

pub fn query(args: &EngineArgs, budget: Budget, quiet: bool) -> Result<Output, CommandError> {
    match &args.game {
        EngineGame::Dobutsu { position } => query_game(
            &Dobutsu::standard(),
            position.as_deref(),
            args,
            budget,
            quiet,
        ),
        EngineGame::Teeko { position } => {
            query_game(&Teeko::standard(), position.as_deref(), args, budget, quiet)
        }
        EngineGame::Quixo { position, size } => query_game(
            &Quixo::new(*size)?,
            position.as_deref(),
            args,
            budget,
            quiet,
        ),
        EngineGame::MuTorere { position } => {
            query_game(&MuTorere, position.as_deref(), args, budget, quiet)
        }
        EngineGame::Dodgem { position, size } => query_game(
            &Dodgem::new(*size)?,
            position.as_deref(),
            args,
            budget,
            quiet,
        ),
        EngineGame::TicTacToe { position } => query_game(
            &TicTacToe {
                board: tic_tac_toe::Board::empty(),
            },
            position.as_deref(),
            args,
            budget,
            quiet,
        ),
        EngineGame::ConnectFour {
            position,
            width,
            height,
        } => query_game(
            &ConnectFour::new(*width, *height)?,
            position.as_deref(),
            args,
            budget,
            quiet,
        ),
    }
}

/// Dodgem 3 x 3 from the start, solved by the engine in memory: the tour's engine game.
pub fn tour_example() -> Result<Output, CommandError> {
    let args = EngineArgs {
        game: EngineGame::Dodgem {
            position: None,
            size: 3,
        },
        db: None,
        threads: 0,
    };
    query(&args, Budget::default(), true)
}

fn no_position(position: Option<&str>) -> Result<(), CommandError> {
    match position {
        Some(p) => Err(format!(
            "solve answers for the start of the game; for the position {p:?} use query"
        )
        .into()),
        None => Ok(()),
    }
}

fn options(args: &EngineArgs, budget: Budget) -> Options {
    Options {
        memory_limit: budget.memory(2 << 30),
        threads: usize::from(args.threads),
        ..Options::default()
    }
}

/// Refuse a table past the memory limit before any work, with its size and time.
pub(super) fn refuse_if_too_large<G: Adapter>(
    game: &G,
    limit: u64,
    budget: Budget,
) -> Result<(), CommandError> {
    budget.check_time(
        || {
            format!(
                "solving {} ({} positions)",
                game.title(),
                game.index_count()
            )
        },
        game.index_count() as f64 / POSITIONS_PER_SECOND,
    )?;
    let needed = engine::solve_bytes(game, &Options::default());
    if needed > limit {
        return Err(format!(
            "{} has {} positions to solve, {} at {BYTES_PER_POSITION} bytes each and the largest tier's working table (about {} on one core), above the memory limit of {}; raise --memory-limit or choose a smaller variant",
            game.title(),
            game.index_count(),
            perfect_play::parse::human_size(needed),
            rough_duration(game.index_count() as f64 / POSITIONS_PER_SECOND),
            perfect_play::parse::human_size(limit),
        )
        .into());
    }
    Ok(())
}

/// An existing database for this game and variant, opened; another game's is refused.
pub(super) fn open_database<G: Adapter>(game: &G, path: &Path) -> Result<Database, CommandError> {
    let db = Database::open(path, false)?;
    let h = &db.header;
    if h.game != game.name() || h.variant != game.variant() || h.indices != game.index_count() {
        return Err(format!(
            "{} holds {} {}, not {} {}",
            path.display(),
            h.game,
            h.variant,
            game.name(),
            game.variant()
        )
        .into());
    }
    Ok(db)
}

/// The fuzz targets run with the small budget: they must not write files.
pub(super) fn no_files_under_small_budget(
    budget: Budget,
    db: Option<&Path>,
) -> Result<(), CommandError> {
    if budget.small && db.is_some() {
        return Err("--db is not available under the small budget".into());
    }
    Ok(())
}

/// Solve the whole game and write it as a database at `path` (finished tiers going to
/// `path.partial` meanwhile, which a killed solve resumes from); returns the solution and
/// the database's size.
pub(super) fn solve_into_database<G: Adapter>(
    game: &G,
    path: &Path,
    options: &Options,
    quiet: bool,
) -> Result<(Solution, u64), CommandError> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let identity = format!("{} {}", game.name(), game.variant());
    let mut checkpoint = Checkpoint::open(Path::new(&partial), &identity)?;
    let solution = solve_with_bar(game, options, Some(&mut checkpoint), quiet)?;
    let header = database::Header {
        game: game.name().into(),
        variant: game.variant(),
        indices: game.index_count(),
        positions: solution.positions,
        block_records: database::BLOCK_RECORDS,
    };
    let bytes = database::write(path, &header, solution.records())?;
    checkpoint.remove()?;
    Ok((solution, bytes))
}

/// `position` read from an open database: one block per record needed.
pub(super) fn read_database<G: Adapter>(
    game: &G,
    db: &mut Database,
    position: &G::Position,
) -> Result<TableAnalysis<G::Move>, CommandError> {
    let mut failure = None;
    let read = engine::analyse_by(
        game,
        &mut |i| db.record(i).map_err(|e| failure = Some(e)).ok(),
        position,
    );
    if let Some(e) = failure {
        return Err(e.into());
    }
    Ok(read.ok_or("the position is not in the database (a position no game reaches)")?)
}

/// Solve with a bar on stderr (positions in finished tiers, their rate, the time left),
/// through a checkpoint when one is given.
pub(super) fn solve_with_bar<G: IndexedGame + Sync>(
    game: &G,
    options: &Options,
    checkpoint: Option<&mut Checkpoint>,
    quiet: bool,
) -> Result<Solution, CommandError> {
    let bar = progress::positions_bar(quiet);
    bar.set_length(game.index_count());
    let tiers = game.tier_count();
    let solution = engine::solve_resumable(game, options, checkpoint, &|p| {
        bar.set_position(p.indices_solved);
        // Within a tier (Dobutsu shogi is one) the bar stands still: say how far it is.
        bar.set_message(format!(
            "tier {} of {tiers} (solved from the last), round {}, step {}, {} positions decided",
            tiers - p.tier,
            p.round,
            p.pass,
            p.decided
        ));
    })?;
    bar.finish_and_clear();
    Ok(solution)
}

fn solve_game<G: Adapter>(
    game: &G,
    args: &EngineArgs,
    budget: Budget,
    quiet: bool,
) -> Result<Output, CommandError> {
    no_files_under_small_budget(budget, args.db.as_deref())?;
    let options = options(args, budget);
    refuse_if_too_large(game, options.memory_limit, budget)?;
    let clock = Instant::now();
    let existing = args.db.as_ref().filter(|p| p.exists());
    let (solution, db_bytes) = match (&args.db, existing) {
        (_, Some(path)) => {
            let mut db = open_database(game, path)?;
            let records = db.all_records()?;
            (Solution::from_records(records), Some(db.bytes))
        }
        (Some(path), None) => {
            let (solution, bytes) = solve_into_database(game, path, &options, quiet)?;
            (solution, Some(bytes))
        }
        (None, _) => (solve_with_bar(game, &options, None, quiet)?, None),
    };
    let seconds = clock.elapsed().as_secs_f64();
    let start = game.start_position();
    let root = solution
        .record(engine::table_index(game, &start))
        .filter(|r| r.outcome().is_some())
        .ok_or("the start is not in the solved table")?;
    let counts = engine::reachable_counts(game, &start, &solution, &options)?;
    let outcome = root.outcome().unwrap_or(Outcome::Draw);
    let first = game.first_to_move(&start);
    let mut json = json!({
        "game": game.name(),
        "variant": game.variant(),
        "outcome": outcome,
        "first_player_wins": first_player_wins(outcome),
        "remoteness": root.remoteness(),
        "positions": counts.positions,
        "wins": counts.wins,
        "losses": counts.losses,
        "draws": counts.draws,
        "ties": counts.ties,
        "seconds": seconds,
        "resumed": solution.resumed,
        "already_solved": solution.already_solved,
        "indices": game.index_count(),
        "positions_in_table": solution.positions,
        "passes": solution.passes,
        "bytes_per_position": BYTES_PER_POSITION,
        "symmetric": options.symmetries && game.has_symmetries(),
    });
    let mut text = format!(
        "{}: the {} player, to move at the start, {} with perfect play.\n{} reachable positions: {} wins, {} losses, {} ties, {} draws for the player to move ({} positions in the table, {:.2} s{}).\n",
        game.title(),
        if first { "first" } else { "second" },
        verdict_of(outcome, root.remoteness().map(u64::from)),
        counts.positions,
        counts.wins,
        counts.losses,
        counts.ties,
        counts.draws,
        solution.positions,
        seconds,
        if solution.resumed {
            ", resumed from the checkpoint"
        } else {
            ""
        },
    );
    if let (Some(bytes), Some(path)) = (db_bytes, &args.db) {
        let bits = bytes as f64 * 8.0 / solution.positions.max(1) as f64;
        json["db_bytes"] = json!(bytes);
        json["bits_per_position"] = json!(bits);
        json["bits_per_reachable_position"] =
            json!(bytes as f64 * 8.0 / counts.positions.max(1) as f64);
        text.push_str(&format!(
            "Database {}: {bytes} bytes, {bits:.2} bits a position.\n",
            path.display()
        ));
    }
    Ok(Output { text, json })
}

/// The vocabulary's `first_player_wins`: the player to move wins (`to_move` says which
/// player that is).
fn first_player_wins(outcome: Outcome) -> bool {
    outcome == Outcome::Win
}

fn query_game<G: Adapter>(
    game: &G,
    position: Option<&str>,
    args: &EngineArgs,
    budget: Budget,
    quiet: bool,
) -> Result<Output, CommandError> {
    let position = match position {
        Some(text) => game.parse_position(text)?,
        None => game.start_position(),
    };
    let existing = args.db.as_ref().filter(|p| p.exists());
    no_files_under_small_budget(budget, args.db.as_deref())?;
    let (read, from_database) = if let Some(path) = existing {
        let mut db = open_database(game, path)?;
        (Some(read_database(game, &mut db, &position)?), true)
    } else {
        if let Some(path) = &args.db {
            return Err(format!(
                "{} does not exist: make it with perfect-play solve {} ... --db {}",
                path.display(),
                game.name(),
                path.display()
            )
            .into());
        }
        let options = options(args, budget);
        refuse_if_too_large(game, options.memory_limit, budget)?;
        let solution = solve_with_bar(game, &options, None, quiet)?;
        (engine::analyse(game, &solution, &position), false)
    };
    let read = read.ok_or("the position is not in the table (a position no game reaches)")?;
    let outcome = read.record.outcome().unwrap_or(Outcome::Draw);
    let first = game.first_to_move(&position);
    let moves: Vec<_> = read
        .moves
        .iter()
        .map(|m| {
            let (after, ends_game) = match game.play(&position, &m.mv) {
                perfect_play::Transition::Continue { position, .. } => {
                    (game.notation(&position), false)
                }
                perfect_play::Transition::End(_) => (None, true),
            };
            let mut json = json!({
                "move": game.move_json(&m.mv),
                "outcome": m.record.outcome(),
                "remoteness": m.record.remoteness(),
                "ends_game": ends_game,
            });
            if let Some(after) = after {
                json["position"] = json!(after);
            }
            json
        })
        .collect();
    let winning: Vec<_> = read
        .moves
        .iter()
        .filter(|m| m.record.outcome() == Some(Outcome::Win))
        .map(|m| game.move_json(&m.mv))
        .collect();
    let best_line: Vec<_> = read.best_line.iter().map(|m| game.move_json(m)).collect();
    let json = json!({
        "game": game.name(),
        "variant": game.variant(),
        "to_move": if first { "first" } else { "second" },
        "outcome": outcome,
        "first_player_wins": first_player_wins(outcome),
        "remoteness": read.record.remoteness(),
        "moves": moves,
        "winning_moves": winning,
        "winning_moves_total": winning.len(),
        "best_line": best_line,
        "position": game.notation(&position),
        "from_database": from_database,
        "method": "engine",
    });
    let mut text = format!("{}:\n", game.title());
    text.push_str(&game.picture(&position));
    text.push_str(&format!(
        "The {} player to move {} with perfect play.\n",
        if first { "first" } else { "second" },
        describe(read.record)
    ));
    for m in &read.moves {
        text.push_str(&format!(
            "  move {}: {}\n",
            move_text(&game.move_json(&m.mv)),
            describe(m.record)
        ));
    }
    if !best_line.is_empty() {
        let line: Vec<String> = best_line.iter().map(move_text).collect();
        text.push_str(&format!("Best line: {}\n", line.join(" ")));
    }
    Ok(Output { text, json })
}

/// A move's JSON as text: a name without its quotes.
fn move_text(mv: &serde_json::Value) -> String {
    mv.as_str().map_or_else(|| mv.to_string(), str::to_string)
}

pub(super) fn describe(record: Record) -> String {
    verdict_of(
        record.outcome().unwrap_or(Outcome::Draw),
        record.remoteness().map(u64::from),
    )
}
