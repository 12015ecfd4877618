//! Cat and Mouse (LeetCode 913): an undirected graph; the mouse starts at node 1 and moves
//! first, the cat at node 2; each in turn must move along an edge, the cat never into the
//! hole, node 0. The mouse wins on reaching the hole, the cat on reaching the mouse; play that
//! repeats forever is a draw.
//!
//! Cat and Mouse II (LeetCode 1728) is the same game on a grid: each jumps up to its reach
//! in a straight line (walls `#` stop a jump) or stays; the mouse wins on reaching the food
//! `F`, the cat on reaching the mouse or the food first. (LeetCode's 1000-turn limit makes
//! endless play the cat's; here it is a draw, and `winner` says so.)
//!
//! A loopy game: its positions (mouse node, cat node, side to move), two per pair of nodes,
//! go to the engine as a graph ([`GameGraph`]) and are solved by retrograde analysis on every
//! core, draws and remoteness exact. About 19 bytes a position and 8 a move: 2n² positions,
//! so 1,000 nodes of degree 3 take about 150 MB and 10,000 nodes about 16 GB.

use super::{Limits, PuzzleError, Scored, Solution};
use crate::engine::Options;
use crate::graph::{BYTES_PER_MOVE, BYTES_PER_POSITION, Finished, GameGraph, GraphSolution};
use crate::{Game, Outcome, Transition};

/// The most nodes a board may have: its 2n² positions are numbered in 32 bits.
pub const MAX_NODES: usize = 46_000;

/// The side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Animal {
    /// The mouse (who moves first).
    Mouse,
    /// The cat.
    Cat,
}

/// A position: where each animal is and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The mouse's node.
    pub mouse: u32,
    /// The cat's node.
    pub cat: u32,
    /// Who is to move.
    pub to_move: Animal,
}

/// The board: where each animal may go from each node, the hole (or food), and where they
/// start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    adjacency: Vec<Vec<u32>>,
    mouse_moves: Vec<Vec<u32>>,
    cat_moves: Vec<Vec<u32>>,
    hole: u32,
    /// The cat wins by reaching the hole (the grid's food) first.
    cat_takes_hole: bool,
    start: (u32, u32),
    /// The grid's width, for a grid board.
    width: Option<usize>,
}

impl Board {
    /// A board from adjacency lists (`adjacency[v]` the neighbours of node `v`).
    ///
    /// # Errors
    /// Fewer than 3 nodes, a neighbour that is not a node, or a node its own neighbour.
    pub fn new(adjacency: Vec<Vec<u32>>) -> Result<Board, PuzzleError> {
        let n = adjacency.len();
        if n < 3 {
            return Err(PuzzleError::BadInput(format!(
                "the graph has {n} node(s): give at least 3 (the hole 0, the mouse's 1, the cat's 2)"
            )));
        }
        for (v, list) in adjacency.iter().enumerate() {
            if let Some(&w) = list.iter().find(|&&w| w as usize >= n || w as usize == v) {
                return Err(PuzzleError::BadInput(format!(
                    "node {v}'s neighbour {w} is not another node of the graph (0 to {})",
                    n - 1
                )));
            }
        }
        let cat_moves = adjacency
            .iter()
            .map(|l| l.iter().copied().filter(|&w| w != 0).collect())
            .collect();
        Ok(Board {
            mouse_moves: adjacency.clone(),
            cat_moves,
            adjacency,
            hole: 0,
            cat_takes_hole: false,
            start: (1, 2),
            width: None,
        })
    }

    /// A grid board (LeetCode 1728): rows separated by `/` of `.` floor, `#` wall, `F` food,
    /// `C` cat and `M` mouse; the cat jumps up to `cat_jump` cells in a line, the mouse up to
    /// `mouse_jump`, or stays. Cells are numbered in reading order from 0.
    ///
    /// # Errors
    /// Rows of different lengths, another character, or not exactly one `C`, `M` and `F`.
    pub fn grid(text: &str, cat_jump: u32, mouse_jump: u32) -> Result<Board, PuzzleError> {
        let rows: Vec<&[u8]> = text
            .trim()
            .split('/')
            .map(|r| r.trim().as_bytes())
            .collect();
        let width = rows[0].len();
        if width == 0 || rows.iter().any(|r| r.len() != width) {
            return Err(PuzzleError::BadInput(
                "the grid's rows, separated by /, must be equally long and not empty".into(),
            ));
        }
        let cells = rows.len() * width;
        if cells > MAX_NODES {
            return Err(PuzzleError::BadInput(format!(
                "a grid of {cells} cells is past the engine's boards (at most {MAX_NODES})"
            )));
        }
        let find = |mark: u8| -> Result<u32, PuzzleError> {
            let at: Vec<usize> = (0..cells)
                .filter(|&i| rows[i / width][i % width] == mark)
                .collect();
            match at[..] {
                [one] => Ok(one as u32),
                _ => Err(PuzzleError::BadInput(format!(
                    "the grid needs exactly one {}, not {}",
                    mark as char,
                    at.len()
                ))),
            }
        };
        let (cat, mouse, food) = (find(b'C')?, find(b'M')?, find(b'F')?);
        if let Some(&bad) = rows
            .iter()
            .flat_map(|r| r.iter())
            .find(|&&c| !b".#FCM".contains(&c))
        {
            return Err(PuzzleError::BadInput(format!(
                "{:?} is not a cell: use . (floor), # (wall), F (food), C (cat), M (mouse)",
                bad as char
            )));
        }
        let wall = |i: usize| rows[i / width][i % width] == b'#';
        let reach = |jump: u32| -> Vec<Vec<u32>> {
            (0..cells)
                .map(|i| {
                    if wall(i) {
                        return Vec::new();
                    }
                    let mut to = vec![i as u32];
                    let (r, c) = ((i / width) as i64, (i % width) as i64);
                    for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                        for step in 1..=i64::from(jump) {
                            let (nr, nc) = (r + dr * step, c + dc * step);
                            if nr < 0 || nc < 0 || nr >= rows.len() as i64 || nc >= width as i64 {
                                break;
                            }
                            let j = nr as usize * width + nc as usize;
                            if wall(j) {
                                break;
                            }
                            to.push(j as u32);
                        }
                    }
                    to
                })
                .collect()
        };
        let mouse_moves = reach(mouse_jump);
        Ok(Board {
            adjacency: mouse_moves.clone(),
            mouse_moves,
            cat_moves: reach(cat_jump),
            hole: food,
            cat_takes_hole: true,
            start: (mouse, cat),
            width: Some(width),
        })
    }

    /// Where the mouse and the cat start.
    #[must_use]
    pub fn start_nodes(&self) -> (u32, u32) {
        self.start
    }

    /// The grid's width, for a grid board.
    #[must_use]
    pub fn width(&self) -> Option<usize> {
        self.width
    }

    /// Parse adjacency lists: each node's neighbours comma-separated, nodes separated by `/`
    /// (LeetCode's `[[2,5],[3],...]` is accepted too).
    ///
    /// # Errors
    /// Not numbers, or as [`Board::new`].
    pub fn parse(text: &str) -> Result<Board, PuzzleError> {
        let trimmed = text.trim();
        if trimmed.starts_with('[') {
            // LeetCode's form is JSON: read as JSON, so that what JSON refuses (a trailing
            // comma, a missing bracket) is refused here too, with where it is.
            let adjacency: Vec<Vec<u32>> = serde_json::from_str(trimmed).map_err(|e| {
                PuzzleError::BadInput(format!(
                    "not LeetCode's adjacency lists [[2,5],[3],...]: {e}"
                ))
            })?;
            return Board::new(adjacency);
        }
        let lists: Vec<&str> = trimmed.split('/').collect();
        let adjacency = lists
            .iter()
            .map(|list| {
                list.split(',')
                    .map(str::trim)
                    .filter(|w| !w.is_empty())
                    .map(|w| {
                        w.parse::<u32>().map_err(|_| {
                            PuzzleError::BadInput(format!(
                                "{:?} is not a node number: write each node's neighbours as 2,5 and separate the nodes with /",
                                crate::parse::shorten(w)
                            ))
                        })
                    })
                    .collect::<Result<Vec<u32>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Board::new(adjacency)
    }

    /// The nodes.
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.adjacency.len()
    }

    /// The graph in the notation [`Board::parse`] reads.
    #[must_use]
    pub fn notation(&self) -> String {
        self.adjacency
            .iter()
            .map(|l| l.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("/")
    }

    fn index(&self, p: Position) -> u32 {
        let n = self.nodes() as u32;
        (p.mouse * n + p.cat) * 2 + u32::from(p.to_move == Animal::Cat)
    }

    /// The moves of `p`: the nodes the animal to move may go to (none once the game is over).
    #[must_use]
    pub fn moves(&self, p: Position) -> Vec<u32> {
        if self.winner(p).is_some() {
            return Vec::new();
        }
        match p.to_move {
            Animal::Mouse => self.mouse_moves[p.mouse as usize].clone(),
            Animal::Cat => self.cat_moves[p.cat as usize].clone(),
        }
    }

    /// Who has won at `p`, if the game is over: the cat on the mouse, the mouse in the hole,
    /// or (on a grid) the cat at the food.
    #[must_use]
    pub fn winner(&self, p: Position) -> Option<Animal> {
        if p.mouse == p.cat {
            Some(Animal::Cat)
        } else if p.mouse == self.hole {
            Some(Animal::Mouse)
        } else if self.cat_takes_hole && p.cat == self.hole {
            Some(Animal::Cat)
        } else {
            None
        }
    }

    /// The position after moving to `node`.
    #[must_use]
    pub fn after(&self, p: Position, node: u32) -> Position {
        match p.to_move {
            Animal::Mouse => Position {
                mouse: node,
                cat: p.cat,
                to_move: Animal::Cat,
            },
            Animal::Cat => Position {
                mouse: p.mouse,
                cat: node,
                to_move: Animal::Mouse,
            },
        }
    }

    /// The result of a position without moves for the animal to move there: the winner's,
    /// or a loss for an animal with nowhere to go.
    fn finished(&self, p: Position) -> Finished {
        match self.winner(p) {
            Some(w) if w == p.to_move => Finished::Win,
            _ => Finished::Loss,
        }
    }

    /// Bytes the game's graph takes.
    #[must_use]
    pub fn graph_bytes(&self) -> u64 {
        let n = self.nodes() as u64;
        let degrees: u64 = self.mouse_moves.iter().map(|l| l.len() as u64).sum::<u64>()
            + self.cat_moves.iter().map(|l| l.len() as u64).sum::<u64>();
        // Each (mouse, cat) pair: the mouse's moves and the cat's.
        2 * n * n * BYTES_PER_POSITION + n * degrees * BYTES_PER_MOVE
    }

    /// Every position solved by the engine.
    ///
    /// # Errors
    /// Over the memory limit, or cancelled.
    pub fn solve(&self, limits: &Limits) -> Result<Solved<'_>, PuzzleError> {
        let n = self.nodes();
        limits.check_memory(
            &format!(
                "Cat and Mouse on {n} nodes ({} positions)",
                2 * n as u64 * n as u64
            ),
            self.graph_bytes() + 2 * (n as u64 * n as u64) * 2,
            "give a smaller graph or a larger --memory-limit",
        )?;
        if n > MAX_NODES {
            return Err(PuzzleError::BadInput(format!(
                "a graph of {n} nodes has {} positions, past the engine's graphs (at most {MAX_NODES} nodes)",
                2 * n as u64 * n as u64
            )));
        }
        let positions = 2 * n * n;
        let mut move_starts = super::filled(positions + 1, 0u64, "the graph")?;
        let mut targets = Vec::new();
        let mut results = super::filled(positions, Finished::Loss, "the graph")?;
        for mouse in 0..n as u32 {
            limits.cancel.check()?;
            for cat in 0..n as u32 {
                for to_move in [Animal::Mouse, Animal::Cat] {
                    let p = Position {
                        mouse,
                        cat,
                        to_move,
                    };
                    let i = self.index(p) as usize;
                    let moves = self.moves(p);
                    if moves.is_empty() {
                        results[i] = self.finished(p);
                    }
                    for node in moves {
                        targets.push(self.index(self.after(p, node)));
                    }
                    move_starts[i + 1] = targets.len() as u64;
                }
            }
        }
        let graph = GameGraph::from_moves(
            self.index(Position {
                mouse: 1,
                cat: 2,
                to_move: Animal::Mouse,
            }),
            move_starts,
            targets,
            results,
            limits.memory,
        )
        .map_err(|e| PuzzleError::BadInput(e.to_string()))?;
        let options = Options {
            memory_limit: limits.memory,
            cancel: limits.cancel.clone(),
            ..Options::default()
        };
        let solution = graph.solve(&options).map_err(|e| match e {
            crate::graph::GraphError::Engine(crate::engine::EngineError::Cancelled(c)) => {
                PuzzleError::Cancelled(c)
            }
            e => PuzzleError::BadInput(e.to_string()),
        })?;
        Ok(Solved {
            board: self,
            solution,
        })
    }
}

/// Every position of a board, solved.
pub struct Solved<'a> {
    board: &'a Board,
    solution: GraphSolution,
}

/// A value as (margin, remoteness): a draw is margin 0 with no remoteness.
fn value_of(record: Option<crate::engine::Record>) -> (i64, Option<u64>) {
    let Some(record) = record else {
        return (0, None);
    };
    match record.outcome() {
        Some(Outcome::Win) => (1, record.remoteness().map(u64::from)),
        Some(Outcome::Loss) => (-1, record.remoteness().map(u64::from)),
        _ => (0, None),
    }
}

impl Solved<'_> {
    /// The value of `p` for the animal to move: margin `+1`/`-1` (0 a draw) and remoteness.
    #[must_use]
    pub fn value(&self, p: Position) -> (i64, Option<u64>) {
        value_of(self.solution.record(self.board.index(p)))
    }

    /// The answer at `p`: its value, every move's, a best line (while short).
    #[must_use]
    pub fn analyse(&self, p: Position, limits: &Limits) -> Solution<u32> {
        let (margin, remoteness) = self.value(p);
        let mut moves = self.analyse_moves(p);
        let total = moves.len() as u64;
        let winning = super::best_first(&mut moves, limits.max_listed);
        let line = remoteness
            .filter(|&r| limits.wants_line(r as usize))
            .map(|_| {
                let mut line = Vec::new();
                let mut now = p;
                loop {
                    let mut options = self.analyse_moves(now);
                    if options.is_empty() {
                        break;
                    }
                    super::best_first(&mut options, 1);
                    line.push(options[0].mv);
                    now = self.board.after(now, options[0].mv);
                }
                line
            });
        Solution {
            margin,
            remoteness,
            moves,
            moves_total: Some(total),
            winning_total: Some(winning),
            line,
        }
    }

    /// Every move of `p` valued for the animal that makes it.
    fn analyse_moves(&self, p: Position) -> Vec<Scored<u32>> {
        self.board
            .moves(p)
            .into_iter()
            .map(|node| {
                let (m, r) = self.value(self.board.after(p, node));
                Scored {
                    mv: node,
                    margin: -m,
                    remoteness: r.map(|r| r + 1),
                }
            })
            .collect()
    }
}

/// Cat and Mouse as a [`Game`] (for play without a table; the reference solver cannot value
/// its loops, the tests check the engine against a textbook retrograde analysis instead).
impl Game for Board {
    type Position = Position;
    type Move = u32;
    fn start(&self) -> Position {
        Position {
            mouse: self.start.0,
            cat: self.start.1,
            to_move: Animal::Mouse,
        }
    }
    fn moves(&self, p: &Position) -> Vec<u32> {
        Board::moves(self, *p)
    }
    fn play(&self, p: &Position, node: &u32) -> Transition<Position> {
        Transition::to(self.after(*p, *node))
    }
    fn no_moves(&self, p: &Position) -> crate::Ending {
        match self.finished(*p) {
            Finished::Win => crate::Ending::Win,
            _ => crate::Ending::Loss,
        }
    }
}
