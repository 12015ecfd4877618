//! What a partizan game gives ([`PartizanRules`]: its positions, each side's moves, its
//! independent regions) and the value of a position ([`Valuer`]): the canonical form of its
//! options' values, region by region, each region's value cached across positions.

use super::PartizanError;
use super::table::{GameId, GameTable, Side};
use crate::budget::Cancel;
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
        }
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
        if self.known.len().is_multiple_of(CANCEL_EVERY)
            && let Some(cancel) = &self.cancel
        {
            cancel.check()?;
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (i, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            for option in self.rules.options(&region, side) {
                sides[i].push(self.value(games, &option)?);
            }
        }
        let [left, right] = sides;
        let v = games.make(left, right)?;
        self.known.insert(region, v);
        Ok(v)
    }
}
