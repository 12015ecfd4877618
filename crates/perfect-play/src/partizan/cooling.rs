//! Cooling, heating and the reduced canonical form (Siegel, *Combinatorial Game Theory*,
//! II.5 and II.6; Grossman and Siegel, *Reductions of partizan games*).
//!
//! Cooling by `t` taxes each move by `t` (`G_t = {G^L_t - t | G^R_t + t}`, a mast at the mean
//! once `t` passes the temperature); heating by `t` is the inverse for hot enough games
//! (`∫^t G = {∫^t G^L + t | ∫^t G^R - t}`, numbers kept). The reduced canonical form is the
//! simplest game infinitesimally close to `G`: what is left of a position once its
//! infinitesimals (the last moves' fight) are set aside.

use super::PartizanError;
use super::dyadic::Dyadic;
use super::table::{GameId, GameTable, Side};

impl GameTable {
    /// `g` cooled by `t` (`t > -1`).
    ///
    /// # Errors
    /// [`PartizanError::CoolingTooCold`] for `t <= -1`; a full table or a number too large.
    pub fn cool(&mut self, g: GameId, t: Dyadic) -> Result<GameId, PartizanError> {
        if t <= Dyadic::MINUS_ONE {
            return Err(PartizanError::CoolingTooCold(t));
        }
        self.cool_by(g, t)
    }

    fn cool_by(&mut self, g: GameId, t: Dyadic) -> Result<GameId, PartizanError> {
        if self.as_number(g).is_some_and(Dyadic::is_integer) {
            return Ok(g);
        }
        if let Some(&cooled) = self.derived.cooled.get(&(g, t)) {
            return Ok(cooled);
        }
        let thermograph = self.thermograph(g)?;
        let cooled = if thermograph.temperature < t {
            self.number(thermograph.mean)?
        } else {
            let tax = self.number(t)?;
            let untax = self.neg(tax);
            let mut sides = [Vec::new(), Vec::new()];
            for (slot, side, shift) in [(0, Side::Left, untax), (1, Side::Right, tax)] {
                for option in self.options(g, side) {
                    let cooled = self.cool_by(option, t)?;
                    sides[slot].push(self.sum(cooled, shift)?);
                }
            }
            let [left, right] = sides;
            self.make(left, right)?
        };
        self.derived.cooled.insert((g, t), cooled);
        Ok(cooled)
    }

    /// `g` heated by the game `t`: numbers stay, every other move earns `t`.
    ///
    /// # Errors
    /// A full table or a number too large.
    pub fn heat(&mut self, g: GameId, t: GameId) -> Result<GameId, PartizanError> {
        if self.as_number(g).is_some() {
            return Ok(g);
        }
        if let Some(&heated) = self.derived.heated.get(&(g, t)) {
            return Ok(heated);
        }
        let minus_t = self.neg(t);
        let mut sides = [Vec::new(), Vec::new()];
        for (slot, side, shift) in [(0, Side::Left, t), (1, Side::Right, minus_t)] {
            for option in self.options(g, side) {
                let heated = self.heat(option, t)?;
                sides[slot].push(self.sum(heated, shift)?);
            }
        }
        let [left, right] = sides;
        let heated = self.make(left, right)?;
        self.derived.heated.insert((g, t), heated);
        Ok(heated)
    }

    /// The reduced canonical form: the simplest game that differs from `g` by an
    /// infinitesimal (a number when the stops agree).
    ///
    /// # Errors
    /// A full table or a number too large.
    pub fn reduced(&mut self, g: GameId) -> Result<GameId, PartizanError> {
        let (left, right) = self.stops(g);
        if left == right {
            return self.number(left);
        }
        // Heating by * then dropping the stars that heating left behind (CGSuite's way).
        let star = self.nimber(1)?;
        let heated = self.heat(g, star)?;
        self.star_projection(heated)
    }

    /// `g` with every follower of the form `x*` (x a number) replaced by `x`.
    fn star_projection(&mut self, g: GameId) -> Result<GameId, PartizanError> {
        if self.as_number(g).is_some() {
            return Ok(g);
        }
        if let Some(&projected) = self.derived.star_projections.get(&g) {
            return Ok(projected);
        }
        let (left, right) = (self.options(g, Side::Left), self.options(g, Side::Right));
        let projected = match (left.as_slice(), right.as_slice()) {
            ([x], [y]) if x == y && self.as_number(*x).is_some() => *x,
            _ => {
                let mut sides = [Vec::new(), Vec::new()];
                for (slot, options) in [(0, left), (1, right)] {
                    for option in options {
                        sides[slot].push(self.star_projection(option)?);
                    }
                }
                let [left, right] = sides;
                self.make(left, right)?
            }
        };
        self.derived.star_projections.insert(g, projected);
        Ok(projected)
    }
}
