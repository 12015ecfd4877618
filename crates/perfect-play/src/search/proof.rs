//! Forced wins by search in games whose table is too large, loops and all: iterative deepening
//! on the plies to the end, alpha-beta on scores that count them.
//!
//! A position's value within a horizon of `h` plies is a win in `k <= h` (the mover forces the
//! end within `k` plies, the opponent delaying), a loss in `k <= h`, or unknown (play may go
//! on past the horizon). The first horizon at which a win (or loss) appears gives its exact
//! remoteness, the loser delaying as everywhere in this project, so the answer is exact; a
//! position no horizon within the limits decides stays unknown (a draw, a tie, or a longer
//! fight: a search cannot tell, only a table can), and the answer says how far it looked.
//!
//! Endless play has no effect on a value within a horizon, so positions are values of their
//! own (no history enters), and the table of results is sound across transpositions. A result
//! for horizon `h` is reused at horizon `h` only, except a win or loss in `k`, which holds at
//! every horizon of `k` or more; so each iteration's values are exactly those of its horizon.
//!
//! Moves are ordered by the table's best move of the position (from any earlier horizon),
//! then (with [`ProofLimits::history`]) by the history heuristic (cut-offs per move,
//! weighted by the depth left, keyed by the game's [`move_key`](ProofSearch::new)), then in
//! the game's order.

use super::{StopReason, TableError};
use crate::budget::Cancel;
use crate::game::{Ending, Game, Transition};
use rustc_hash::FxHashMap;
use std::time::Instant;

/// A win at ply `p` from the root scores `WIN - p` for the player who wins it.
const WIN: i32 = 1 << 20;
/// Bytes the table keeps a position, besides the position itself: bounds, horizon, best move
/// and the hash map's spare room and control bytes.
pub const BYTES_PER_ENTRY: u64 = 32;
/// Slots of the history table (move keys are taken modulo it).
const HISTORY_SLOTS: usize = 1 << 12;

/// What the search proved about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The player to move forces a win in this many plies (the opponent delaying).
    Win(u32),
    /// The player to move loses in this many plies (delaying as long as they can).
    Loss(u32),
}

/// A position the limits left undecided: no forced win for either side within `horizon` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unproven {
    /// Plies searched to, whole.
    pub horizon: u32,
    /// Why the search stopped (`None`: it reached the most plies it was allowed).
    pub reason: Option<StopReason>,
}

/// How far a proof search may go.
#[derive(Clone, Debug)]
pub struct ProofLimits {
    /// Nodes in all (every call of this searcher), when bounded.
    pub nodes: Option<u64>,
    /// Raised to stop.
    pub cancel: Cancel,
    /// When to stop.
    pub deadline: Option<Instant>,
    /// The longest horizon tried.
    pub max_plies: u32,
    /// The most positions the table keeps (it stops growing there).
    pub max_entries: usize,
    /// Order moves by the history heuristic after the table's best move (off by default:
    /// on Quixo 5 x 5 it saved 2% of the nodes to 6 plies and cost 3% more to 7, and 10-20%
    /// more time for the sort: BENCHMARKS.md).
    pub history: bool,
    /// Try the last two moves that cut off at the same ply next after the table's best move
    /// (killer moves, matched by the game's move key; off by default: BENCHMARKS.md).
    pub killers: bool,
}

impl Default for ProofLimits {
    fn default() -> Self {
        ProofLimits {
            nodes: None,
            cancel: Cancel::new(),
            deadline: None,
            max_plies: 200,
            max_entries: 1 << 20,
            history: false,
            killers: false,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Bounds of the value relative to this position (a win in k scores WIN - k).
    lower: i32,
    upper: i32,
    /// The horizon they hold for.
    horizon: u32,
    /// The move that was best or cut, as an index in the game's order.
    best: u16,
}

/// A proof searcher over a game, its table kept from one position to the next.
pub struct ProofSearch<'g, G: Game> {
    game: &'g G,
    move_key: &'g (dyn Fn(&G::Move) -> u32 + Sync),
    table: FxHashMap<G::Position, Entry>,
    history: Vec<u32>,
    /// Per ply from the root: the keys of the last two moves that cut off there, newest first.
    killers: Vec<[Option<u32>; 2]>,
    nodes: u64,
    limits: ProofLimits,
}

impl<G: Game> std::fmt::Debug for ProofSearch<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProofSearch")
            .field("entries", &self.table.len())
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

/// The score of an ending for the player concerned, at `ply` plies from the root.
fn ending_score(ending: Ending, ply: u32) -> i32 {
    let at = WIN - ply as i32;
    match ending.score().signum() {
        1 => at,
        -1 => -at,
        _ => 0,
    }
}

/// A root-relative score made relative to a node at `ply`, and back.
fn to_node(score: i32, ply: u32) -> i32 {
    match score.signum() {
        1 => score + ply as i32,
        -1 => score - ply as i32,
        _ => 0,
    }
}

fn from_node(score: i32, ply: u32) -> i32 {
    match score.signum() {
        1 => score - ply as i32,
        -1 => score + ply as i32,
        _ => 0,
    }
}

/// Plies to the end of a decisive node-relative score.
fn distance(score: i32) -> u32 {
    (WIN - score.abs()) as u32
}

impl<'g, G: Game> ProofSearch<'g, G> {
    /// A searcher for `game`; `move_key` names a move for the history heuristic (moves that
    /// do the same thing anywhere should share a key; any key is correct, only slower).
    ///
    /// # Errors
    /// [`TableError::Allocation`] when the table's first room cannot be had.
    pub fn new(
        game: &'g G,
        move_key: &'g (dyn Fn(&G::Move) -> u32 + Sync),
        limits: ProofLimits,
    ) -> Result<ProofSearch<'g, G>, TableError> {
        let mut table = FxHashMap::default();
        table
            .try_reserve(limits.max_entries.min(1 << 16))
            .map_err(|_| TableError::Allocation {
                bytes: limits.max_entries.min(1 << 16) as u64 * BYTES_PER_ENTRY,
            })?;
        Ok(ProofSearch {
            game,
            move_key,
            table,
            history: vec![0; HISTORY_SLOTS],
            killers: Vec::new(),
            nodes: 0,
            limits,
        })
    }

    /// Nodes visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions in the table.
    #[must_use]
    pub fn entries(&self) -> usize {
        self.table.len()
    }

    /// The exact value of `position` when a horizon within the limits decides it.
    ///
    /// # Errors
    /// [`Unproven`] with the horizon searched whole.
    pub fn prove(&mut self, position: &G::Position) -> Result<Proven, Unproven> {
        let mut horizon = 0;
        loop {
            if horizon >= self.limits.max_plies {
                return Err(Unproven {
                    horizon,
                    reason: None,
                });
            }
            let score = self
                .negamax(position, 0, horizon + 1, -WIN - 1, WIN + 1)
                .map_err(|reason| Unproven {
                    horizon,
                    reason: Some(reason),
                })?;
            horizon += 1;
            if score > 0 {
                return Ok(Proven::Win(distance(score)));
            }
            if score < 0 {
                return Ok(Proven::Loss(distance(score)));
            }
        }
    }

    /// The value of what `mv` leads to, for the player who makes it.
    ///
    /// # Errors
    /// As [`ProofSearch::prove`], for the position after the move.
    pub fn prove_move(&mut self, position: &G::Position, mv: &G::Move) -> Result<Proven, Unproven> {
        match self.game.play(position, mv) {
            Transition::End(ending) => match ending.score().signum() {
                1 => Ok(Proven::Win(1)),
                -1 => Ok(Proven::Loss(1)),
                _ => Err(Unproven {
                    horizon: u32::MAX,
                    reason: None,
                }),
            },
            Transition::Continue { position, .. } => match self.prove(&position) {
                Ok(Proven::Win(k)) => Ok(Proven::Loss(k + 1)),
                Ok(Proven::Loss(k)) => Ok(Proven::Win(k + 1)),
                Err(unproven) => Err(unproven),
            },
        }
    }

    fn tick(&mut self) -> Result<(), StopReason> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 10) {
            if self.limits.cancel.is_cancelled() {
                return Err(StopReason::Cancelled);
            }
            if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
                return Err(StopReason::Nodes);
            }
            if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(StopReason::Deadline);
            }
        }
        Ok(())
    }

    /// The move keyed `key` cut off at `ply`.
    fn remember_killer(&mut self, ply: u32, key: u32) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(key) {
            killers[1] = killers[0];
            killers[0] = Some(key);
        }
    }

    /// The root-relative value of `position` (at `ply`) within `left` more plies, if within
    /// `(alpha, beta)`; else a bound on the side it fell.
    fn negamax(
        &mut self,
        position: &G::Position,
        ply: u32,
        left: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, StopReason> {
        self.tick()?;
        let moves = self.game.moves(position);
        if moves.is_empty() {
            return Ok(ending_score(self.game.no_moves(position), ply));
        }
        let after: Vec<Transition<G::Position>> =
            moves.iter().map(|m| self.game.play(position, m)).collect();
        // A move that wins at once is the best there is.
        if after
            .iter()
            .any(|t| matches!(t, Transition::End(e) if e.score() > 0))
        {
            return Ok(WIN - ply as i32 - 1);
        }
        if left == 0 {
            return Ok(0);
        }
        let mut best_first = None;
        if let Some(entry) = self.table.get(position) {
            best_first = Some(entry.best as usize);
            let usable = entry.horizon == left
                || (entry.lower == entry.upper
                    && entry.lower != 0
                    && distance(entry.lower) <= left);
            if usable {
                let (lower, upper) = (from_node(entry.lower, ply), from_node(entry.upper, ply));
                if lower >= upper || lower >= beta {
                    return Ok(lower);
                }
                if upper <= alpha {
                    return Ok(upper);
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        let heuristics = self.limits.history || self.limits.killers;
        let keys: Vec<u32> = if heuristics {
            moves.iter().map(|m| (self.move_key)(m)).collect()
        } else {
            vec![0; moves.len()]
        };
        if heuristics {
            let killers = if self.limits.killers {
                self.killers.get(ply as usize).copied().unwrap_or_default()
            } else {
                [None; 2]
            };
            let history = |i: usize| {
                if self.limits.history {
                    self.history[keys[i] as usize % HISTORY_SLOTS]
                } else {
                    0
                }
            };
            order.sort_by_key(|&i| {
                let killer = killers.iter().position(|&k| k == Some(keys[i]));
                (
                    Some(i) != best_first,
                    killer.unwrap_or(2),
                    std::cmp::Reverse(history(i)),
                )
            });
        } else if let Some(first) = best_first.filter(|&b| b < order.len()) {
            order[..=first].rotate_right(1);
        }
        let (start_alpha, start_beta) = (alpha, beta);
        let mut best = -WIN - 1;
        let mut best_move = order[0];
        for &i in &order {
            let score = match &after[i] {
                Transition::End(ending) => ending_score(*ending, ply + 1),
                Transition::Continue { position: next, .. } => {
                    -self.negamax(next, ply + 1, left - 1, -beta, -alpha)?
                }
            };
            if score > best {
                best = score;
                best_move = i;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    if self.limits.history {
                        let slot = &mut self.history[keys[i] as usize % HISTORY_SLOTS];
                        *slot = slot.saturating_add(left * left);
                    }
                    if self.limits.killers {
                        self.remember_killer(ply, keys[i]);
                    }
                    break;
                }
            }
        }
        let (lower, upper) = if best <= start_alpha {
            (-WIN - 1, best)
        } else if best >= start_beta {
            (best, WIN + 1)
        } else {
            (best, best)
        };
        if self.table.len() < self.limits.max_entries || self.table.contains_key(position) {
            self.table.insert(
                position.clone(),
                Entry {
                    lower: to_node(lower, ply).max(-WIN - 1),
                    upper: to_node(upper, ply).min(WIN + 1),
                    horizon: left,
                    best: best_move as u16,
                },
            );
        }
        Ok(best)
    }
}
