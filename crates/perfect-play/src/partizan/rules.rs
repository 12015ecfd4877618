//! What a partizan game gives ([`PartizanRules`]: its positions, each side's moves, its
//! independent regions) and the value of a position ([`Valuer`]): the canonical form of its
//! options' values, region by region, each region's value cached across positions.

use super::PartizanError;
use super::table::{GameId, GameTable, Side};
use crate::budget::{Cancel, Progress};
use rustc_hash::FxHashMap as HashMap;
use std::hash::Hash;

/// A short partizan game: positions, and the moves each side has in them.
pub trait PartizanRules {
    /// A position.
    type Position: Clone + Eq + Hash;

    /// The positions `side` can move to from `position`.
    fn options(&self, position: &Self::Position, side: Side) -> Vec<Self::Position>;

    /// The independent parts of `position`, whose values add up to its value (a move in
    /// one leaves the others as they are). Parts worth 0 may be left out. The default: the
    /// position whole.
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        vec![position.clone()]
    }

    /// One region that stands for all those the game's symmetries make of `region`, and
    /// whether its value is the negative of `region`'s (a symmetry that swaps the players,
    /// as turning a Domineering board a quarter does). The default: `region` itself.
    fn symmetric(&self, region: &Self::Position) -> (Self::Position, bool) {
        (region.clone(), false)
    }
}

/// Values positions of one game, into a [`GameTable`], remembering every region valued.
pub struct Valuer<R: PartizanRules> {
    rules: R,
    known: HashMap<R::Position, GameId>,
    /// Looked at every [`CANCEL_EVERY`] regions valued: Ctrl-C, a client gone, a budget.
    cancel: Option<Cancel>,
    /// The deepest a line of play may go before the value is refused (each move is a
    /// level of recursion): a game from outside, whose lines are not known to end soon,
    /// is refused with [`PartizanError::TooDeep`] rather than overflowing the stack.
    max_depth: usize,
    depth: usize,
    /// Told the regions valued every [`CANCEL_EVERY`] of them.
    progress: Option<Progress>,
}

/// Regions valued between two looks at the cancel flag (each takes microseconds).
pub const CANCEL_EVERY: usize = 1 << 10;

impl<R: PartizanRules> Valuer<R> {
    /// A valuer for `rules`, nothing valued yet.
    pub fn new(rules: R) -> Valuer<R> {
        Valuer {
            rules,
            known: HashMap::default(),
            cancel: None,
            max_depth: usize::MAX,
            depth: 0,
            progress: None,
        }
    }

    /// The same valuer, telling `progress` (when there is one) how many regions it has
    /// valued every [`CANCEL_EVERY`] of them.
    #[must_use]
    pub fn with_progress(self, progress: Option<Progress>) -> Valuer<R> {
        Valuer { progress, ..self }
    }

    /// The same valuer, refusing lines of play deeper than `max_depth` moves.
    #[must_use]
    pub fn with_max_depth(self, max_depth: usize) -> Valuer<R> {
        Valuer { max_depth, ..self }
    }

    /// A valuer that stops with [`PartizanError::Cancelled`] soon after `cancel` is raised.
    pub fn with_cancel(rules: R, cancel: Cancel) -> Valuer<R> {
        Valuer {
            cancel: Some(cancel),
            ..Valuer::new(rules)
        }
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Regions valued so far.
    #[must_use]
    pub fn regions_known(&self) -> usize {
        self.known.len()
    }

    /// The value of `position`: the sum of its regions' values.
    ///
    /// # Errors
    /// When the table fills up or a number outgrows it.
    pub fn value(
        &mut self,
        games: &mut GameTable,
        position: &R::Position,
    ) -> Result<GameId, PartizanError> {
        let parts = self.rules.components(position);
        let mut total = GameId::ZERO;
        for part in parts {
            let v = self.region(games, part)?;
            total = games.sum(total, v)?;
        }
        Ok(total)
    }

    /// The value of one region, from its options' values.
    fn region(
        &mut self,
        games: &mut GameTable,
        region: R::Position,
    ) -> Result<GameId, PartizanError> {
        let (region, negated) = self.rules.symmetric(&region);
        let v = self.region_as_it_is(games, region)?;
        Ok(if negated { games.neg(v) } else { v })
    }

    fn region_as_it_is(
        &mut self,
        games: &mut GameTable,
        region: R::Position,
    ) -> Result<GameId, PartizanError> {
        if let Some(&v) = self.known.get(&region) {
            return Ok(v);
        }
        if self.known.len().is_multiple_of(CANCEL_EVERY) {
            if let Some(cancel) = &self.cancel {
                cancel.check()?;
            }
            if let Some(progress) = self.progress.as_ref().filter(|_| !self.known.is_empty()) {
                progress.report("regions valued", self.known.len() as u64);
            }
        }
        if self.depth >= self.max_depth {
            return Err(PartizanError::TooDeep {
                limit: self.max_depth,
            });
        }
        self.depth += 1;
        let sides = self.options_valued(games, &region);
        self.depth -= 1;
        let [left, right] = sides?;
        let v = games.make(left, right)?;
        self.known.insert(region, v);
        Ok(v)
    }

    fn options_valued(
        &mut self,
        games: &mut GameTable,
        region: &R::Position,
    ) -> Result<[Vec<GameId>; 2], PartizanError> {
        let mut sides = [Vec::new(), Vec::new()];
        for (i, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            for option in self.rules.options(region, side) {
                sides[i].push(self.value(games, &option)?);
            }
        }
        Ok(sides)
    }
}
