//! The engine's games as every front end sees them: a [`BoardGame`] is an
//! [`IndexedGame`] that also has a name, a notation for positions and moves, and a picture;
//! [`EngineGame`] is the same without its types, so that the registry can hand any of them
//! out as one `Box<dyn EngineGame>` and a front end never names a game's types.

use crate::engine::{
    self, Checkpoint, Counts, EngineError, IndexedGame, Options, Progress, Record, Solution,
};
use crate::game::{Ending, Transition};
pub use crate::games::board::{BoardGame, MoveName};
use crate::games::notation::NotationError;
use crate::player::Outcome;
use crate::search::proof::{ProofLimits, ProofSearch, Proven};
use serde::Serialize;

/// A position answered by the proof search (see [`crate::search::proof`]): its value and the
/// moves the search decided, or how far it looked when it decided nothing.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The answer, when a forced win or loss was found.
    pub answer: Option<PositionAnswer>,
    /// Whether every legal move's value is in the answer (a move the limits left undecided is
    /// left out).
    pub moves_complete: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// Plies searched to, whole, at the position (the value's remoteness when decided).
    pub horizon: u32,
    /// Why the search stopped without an answer (`None`: it reached its longest horizon).
    pub stopped: Option<crate::search::StopReason>,
}

/// One move of a position read from a solved table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnswer {
    /// The move's name.
    #[serde(rename = "move")]
    pub name: MoveName,
    /// Its value for the player who makes it.
    pub outcome: Outcome,
    /// Moves to the end after it is made, counted from before it (null for a draw).
    pub remoteness: Option<u32>,
    /// Whether it ends the game.
    pub ends_game: bool,
    /// The position it leads to, in the game's notation (none when it ends the game or the
    /// notation cannot show a bare position).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

/// One position of an engine game, read from a solved table: the value for the player to move,
/// every move's value best first, and a best line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionAnswer {
    /// The game's name.
    pub game: &'static str,
    /// The variant.
    pub variant: String,
    /// Whether the first player is to move.
    pub first_to_move: bool,
    /// The outcome for the player to move.
    pub outcome: Outcome,
    /// Moves to the end with perfect play (none for a draw).
    pub remoteness: Option<u32>,
    /// Every legal move, best first.
    pub moves: Vec<MoveAnswer>,
    /// One line of perfect play (a drawn line stops after
    /// [`DRAW_LINE_MOVES`](engine::DRAW_LINE_MOVES) moves).
    pub best_line: Vec<MoveName>,
    /// The position in the game's notation, when it has one.
    pub position: Option<String>,
    /// The position drawn as text.
    pub picture: String,
}

impl PositionAnswer {
    /// The moves that win for the player to move.
    #[must_use]
    pub fn winning_moves(&self) -> Vec<MoveName> {
        self.moves
            .iter()
            .filter(|m| m.outcome == Outcome::Win)
            .map(|m| m.name.clone())
            .collect()
    }
}

/// Why a position cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// The text is not a position of the game.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The table has no record for it (a position no game reaches, or a database of another
    /// game).
    #[error("the position is not in the table (a position no game reaches)")]
    NotInTable,
    /// Reading the table failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// An engine game with its types hidden: what the registry hands the front ends.
pub trait EngineGame: Send + Sync {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// The variant (`4x4`), empty for a game of one form.
    fn variant(&self) -> String;
    /// The name and the variant as text says them: `quixo 4x4`, `dobutsu`.
    fn title(&self) -> String {
        let variant = self.variant();
        if variant.is_empty() {
            self.name().to_string()
        } else {
            format!("{} {variant}", self.name())
        }
    }
    /// The registry's parameters that build this variant (`size` = `4`).
    fn params(&self) -> Vec<(&'static str, String)>;
    /// Indices in the table (positions and holes).
    fn index_count(&self) -> u64;
    /// Tiers the index is cut into.
    fn tier_count(&self) -> u64;
    /// See [`BoardGame::indices_per_second`].
    fn indices_per_second(&self) -> f64;
    /// Whether the table keeps one position per symmetry class.
    fn has_symmetries(&self) -> bool;
    /// Bytes a solve takes (see [`engine::solve_bytes`]).
    fn solve_bytes(&self, options: &Options) -> u64;
    /// Solve the whole game (see [`engine::solve_resumable`]).
    ///
    /// # Errors
    /// As the engine's solve.
    fn solve(
        &self,
        options: &Options,
        checkpoint: Option<&mut Checkpoint>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<Solution, EngineError>;
    /// This rank's part of a solve over the ranks of `exchange`, into the database at `path`
    /// (see [`engine::distributed::solve_distributed`]).
    ///
    /// # Errors
    /// As the distributed solve.
    fn solve_distributed(
        &self,
        options: &Options,
        exchange: &mut dyn engine::distributed::Exchange,
        path: &std::path::Path,
        header: &engine::database::Header,
        checkpoint: Option<&mut Checkpoint>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<engine::distributed::DistributedSolve, EngineError>;
    /// Bytes one of `ranks` ranks takes (see [`engine::distributed::rank_bytes`]).
    fn rank_bytes(&self, options: &Options, ranks: usize) -> u64;
    /// How the positions reachable from the start divide by value.
    ///
    /// # Errors
    /// As [`engine::reachable_counts`].
    fn reachable_counts(
        &self,
        solution: &Solution,
        options: &Options,
    ) -> Result<Counts, EngineError>;
    /// The start's record in a solved table.
    fn start_record(&self, solution: &Solution) -> Option<Record>;
    /// Whether the first player moves at the start.
    fn first_to_move_at_start(&self) -> bool;
    /// Whether `position` is a position of this game, read before any solve.
    ///
    /// # Errors
    /// Text that is not a position of this variant.
    fn check_position(&self, position: Option<&str>) -> Result<(), NotationError>;
    /// The position `text` names, written back in the game's notation (its canonical form:
    /// rows joined by `/`, the side to move given); `None` when the notation cannot show a
    /// bare position (Connect Four's moves played).
    ///
    /// # Errors
    /// Text that is not a position of this variant.
    fn notation_of(&self, text: &str) -> Result<Option<String>, NotationError>;
    /// The position named by `position` (the start when `None`) read through `lookup`, which
    /// gives the record of a table index (an in-memory [`Solution`] or a database).
    ///
    /// # Errors
    /// A position that does not parse or is not in the table.
    fn answer(
        &self,
        position: Option<&str>,
        lookup: &mut dyn FnMut(u64) -> Option<Record>,
    ) -> Result<PositionAnswer, AnswerError>;
    /// The position named by `position` (the start when `None`) answered by the proof
    /// search within `limits`, without the table.
    ///
    /// # Errors
    /// A position that does not parse, or a table that cannot be had.
    fn prove(&self, position: Option<&str>, limits: ProofLimits) -> Result<Proof, AnswerError>;
}

impl<G: BoardGame> EngineGame for G {
    fn name(&self) -> &'static str {
        BoardGame::name(self)
    }
    fn variant(&self) -> String {
        BoardGame::variant(self)
    }
    fn params(&self) -> Vec<(&'static str, String)> {
        BoardGame::params(self)
    }
    fn index_count(&self) -> u64 {
        IndexedGame::index_count(self)
    }
    fn tier_count(&self) -> u64 {
        IndexedGame::tier_count(self)
    }
    fn indices_per_second(&self) -> f64 {
        BoardGame::indices_per_second(self)
    }
    fn has_symmetries(&self) -> bool {
        IndexedGame::has_symmetries(self)
    }
    fn solve_bytes(&self, options: &Options) -> u64 {
        engine::solve_bytes(self, options)
    }
    fn solve(
        &self,
        options: &Options,
        checkpoint: Option<&mut Checkpoint>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<Solution, EngineError> {
        engine::solve_resumable(self, options, checkpoint, on_pass)
    }
    fn solve_distributed(
        &self,
        options: &Options,
        exchange: &mut dyn engine::distributed::Exchange,
        path: &std::path::Path,
        header: &engine::database::Header,
        checkpoint: Option<&mut Checkpoint>,
        on_pass: &(dyn Fn(&Progress) + Sync),
    ) -> Result<engine::distributed::DistributedSolve, EngineError> {
        engine::distributed::solve_distributed(
            self, options, exchange, path, header, checkpoint, on_pass,
        )
    }
    fn rank_bytes(&self, options: &Options, ranks: usize) -> u64 {
        engine::distributed::rank_bytes(self, options, ranks)
    }
    fn reachable_counts(
        &self,
        solution: &Solution,
        options: &Options,
    ) -> Result<Counts, EngineError> {
        engine::reachable_counts(self, &self.start(), solution, options)
    }
    fn start_record(&self, solution: &Solution) -> Option<Record> {
        solution
            .record(engine::table_index(self, &self.start()))
            .filter(|r| r.outcome().is_some())
    }
    fn first_to_move_at_start(&self) -> bool {
        BoardGame::first_to_move(self, &self.start())
    }
    fn check_position(&self, position: Option<&str>) -> Result<(), NotationError> {
        position.map_or(Ok(()), |text| self.parse_position(text).map(|_| ()))
    }
    fn notation_of(&self, text: &str) -> Result<Option<String>, NotationError> {
        self.parse_position(text).map(|p| self.notation(&p))
    }
    fn answer(
        &self,
        position: Option<&str>,
        lookup: &mut dyn FnMut(u64) -> Option<Record>,
    ) -> Result<PositionAnswer, AnswerError> {
        let text = position.unwrap_or("");
        let position = match position {
            Some(text) => self.parse_position(text)?,
            None => self.start(),
        };
        let Some(read) = engine::analyse_by(self, lookup, &position) else {
            // A finished position may have no record (Connect Four keeps none for a board
            // with four in a row): its value is the game's ending, with no move left.
            if !self.moves(&position).is_empty() {
                return Err(AnswerError::NotInTable);
            }
            let outcome = match self.no_moves(&position) {
                Ending::Win => Outcome::Win,
                Ending::Loss => Outcome::Loss,
                Ending::Draw => Outcome::Tie,
                Ending::Score(margin) => Outcome::from_margin(margin),
            };
            return Ok(PositionAnswer {
                game: BoardGame::name(self),
                variant: BoardGame::variant(self),
                first_to_move: BoardGame::first_to_move(self, &position),
                outcome,
                remoteness: Some(0),
                moves: Vec::new(),
                best_line: Vec::new(),
                position: self.notation_given(text, &position),
                picture: self.picture(&position),
            });
        };
        let moves = read
            .moves
            .iter()
            .map(|m| {
                let (after, ends_game) = match self.play(&position, &m.mv) {
                    Transition::Continue { position, .. } => {
                        (self.notation_after(text, &position, &m.mv), false)
                    }
                    Transition::End(_) => (None, true),
                };
                MoveAnswer {
                    name: self.move_name(&m.mv),
                    outcome: m.record.outcome().unwrap_or(Outcome::Draw),
                    remoteness: m.record.remoteness(),
                    ends_game,
                    position: after,
                }
            })
            .collect();
        Ok(PositionAnswer {
            game: BoardGame::name(self),
            variant: BoardGame::variant(self),
            first_to_move: BoardGame::first_to_move(self, &position),
            outcome: read.record.outcome().unwrap_or(Outcome::Draw),
            remoteness: read.record.remoteness(),
            moves,
            best_line: read.best_line.iter().map(|m| self.move_name(m)).collect(),
            position: self.notation_given(text, &position),
            picture: self.picture(&position),
        })
    }

    fn prove(&self, position: Option<&str>, limits: ProofLimits) -> Result<Proof, AnswerError> {
        let text = position.unwrap_or("");
        let position = match position {
            Some(text) => self.parse_position(text)?,
            None => self.start(),
        };
        let key = |m: &G::Move| self.move_key(m);
        let bytes = limits.max_entries as u64 * crate::search::proof::BYTES_PER_ENTRY;
        let mut search = ProofSearch::new(self, &key, limits)
            .map_err(|_| AnswerError::Engine(EngineError::OutOfMemory { bytes }))?;
        let proven = match search.prove(&position) {
            Ok(proven) => proven,
            Err(unproven) => {
                return Ok(Proof {
                    answer: None,
                    moves_complete: false,
                    nodes: search.nodes(),
                    horizon: unproven.horizon,
                    stopped: unproven.reason,
                });
            }
        };
        let value = |p: Proven| match p {
            Proven::Win(k) => (Outcome::Win, k),
            Proven::Loss(k) => (Outcome::Loss, k),
        };
        let legal = self.moves(&position);
        let mut moves = Vec::with_capacity(legal.len());
        for mv in &legal {
            let Ok(proven) = search.prove_move(&position, mv) else {
                continue;
            };
            let (outcome, remoteness) = value(proven);
            let (after, ends_game) = match self.play(&position, mv) {
                Transition::Continue { position: next, .. } => {
                    (self.notation_after(text, &next, mv), false)
                }
                Transition::End(_) => (None, true),
            };
            moves.push(MoveAnswer {
                name: self.move_name(mv),
                outcome,
                remoteness: Some(remoteness),
                ends_game,
                position: after,
            });
        }
        let moves_complete = moves.len() == legal.len();
        moves.sort_by_key(|m| match m.outcome {
            Outcome::Win => (0, m.remoteness.unwrap_or(0)),
            _ => (1, u32::MAX - m.remoteness.unwrap_or(0)),
        });
        // A best line: at each position a move that keeps its value, to the end.
        let mut best_line = Vec::new();
        let mut here = position.clone();
        let mut wanted = proven;
        'line: loop {
            for mv in self.moves(&here) {
                if search.prove_move(&here, &mv) != Ok(wanted) {
                    continue;
                }
                best_line.push(self.move_name(&mv));
                match self.play(&here, &mv) {
                    Transition::Continue { position: next, .. } => {
                        here = next;
                        wanted = match wanted {
                            Proven::Win(k) => Proven::Loss(k - 1),
                            Proven::Loss(k) => Proven::Win(k - 1),
                        };
                        continue 'line;
                    }
                    Transition::End(_) => break 'line,
                }
            }
            // No move keeps it: the end (no moves), or the limits ran out.
            break;
        }
        let (outcome, remoteness) = value(proven);
        Ok(Proof {
            answer: Some(PositionAnswer {
                game: BoardGame::name(self),
                variant: BoardGame::variant(self),
                first_to_move: BoardGame::first_to_move(self, &position),
                outcome,
                remoteness: Some(remoteness),
                moves,
                best_line,
                position: self.notation_given(text, &position),
                picture: self.picture(&position),
            }),
            moves_complete,
            nodes: search.nodes(),
            horizon: remoteness,
            stopped: None,
        })
    }
}
