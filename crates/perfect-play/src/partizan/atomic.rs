//! Incentives and atomic weights: the measures of small games (Siegel, *Combinatorial Game
//! Theory*, II.7; Winning Ways ch. 7 and 8).
//!
//! An *incentive* is what a move gains its mover: `G^L - G` for Left, `G - G^R` for Right.
//! The *atomic weight* of an infinitesimal game counts it in ups: `^` weighs 1, `*` 0, and
//! by the two-ahead rule an all-small game of weight 2 or more is a win for Left, whoever
//! starts. It is found as Conway and Norton defined it (`{G^L.aw - 2 | G^R.aw + 2}`, with
//! the eccentric case settled against the far star), and checked as CGSuite checks it: a
//! game is atomic when it lies within `^* + red kite` of its weight times `^`.

use super::PartizanError;
use super::table::{GameId, GameTable, Side};

impl GameTable {
    /// What each move of `side` gains it: `G^L - G` for Left, `G - G^R` for Right, the
    /// dominated ones (smaller) left out.
    ///
    /// # Errors
    /// A full table or a number too large.
    pub fn incentives(&mut self, g: GameId, side: Side) -> Result<Vec<GameId>, PartizanError> {
        let mut gains = Vec::new();
        for option in self.options(g, side) {
            gains.push(match side {
                Side::Left => self.difference(option, g)?,
                Side::Right => self.difference(g, option)?,
            });
        }
        Ok(self.largest(gains))
    }

    /// Both players' incentives together, the largest kept.
    ///
    /// # Errors
    /// As [`GameTable::incentives`].
    pub fn all_incentives(&mut self, g: GameId) -> Result<Vec<GameId>, PartizanError> {
        let mut gains = self.incentives(g, Side::Left)?;
        gains.extend(self.incentives(g, Side::Right)?);
        Ok(self.largest(gains))
    }

    /// The games of `games` not below another one, sorted, each once.
    fn largest(&mut self, mut games: Vec<GameId>) -> Vec<GameId> {
        games.sort_unstable();
        games.dedup();
        let mut kept = Vec::with_capacity(games.len());
        for &a in &games {
            if !games.iter().any(|&b| b != a && self.leq(a, b)) {
                kept.push(a);
            }
        }
        kept
    }

    /// Whether `g` is all-small: every follower in which one player can move lets the other
    /// move too (its only number follower is 0).
    pub fn is_all_small(&mut self, g: GameId) -> bool {
        if let Some(x) = self.as_number(g) {
            return x == super::Dyadic::ZERO;
        }
        if let Some(&known) = self.derived.all_small.get(&g) {
            return known;
        }
        let options: Vec<GameId> = [Side::Left, Side::Right]
            .into_iter()
            .flat_map(|side| self.options(g, side))
            .collect();
        let all_small = options.into_iter().all(|o| self.is_all_small(o));
        self.derived.all_small.insert(g, all_small);
        all_small
    }

    /// Whether `g` is infinitesimal: both stops 0.
    pub fn is_infinitesimal(&mut self, g: GameId) -> bool {
        self.stops(g) == (super::Dyadic::ZERO, super::Dyadic::ZERO)
    }

    /// The far star's index: one more than the largest nimber among `g`'s followers (1 when
    /// there is none but 0), so that `*far` is confused with none of them.
    fn far_star(&mut self, g: GameId) -> u32 {
        if let Some(n) = self.as_nimber(g) {
            return n + 1;
        }
        if self.as_number(g).is_some() {
            return 1;
        }
        if let Some(&known) = self.derived.far_stars.get(&g) {
            return known;
        }
        let options: Vec<GameId> = [Side::Left, Side::Right]
            .into_iter()
            .flat_map(|side| self.options(g, side))
            .collect();
        let far = options
            .into_iter()
            .map(|o| self.far_star(o))
            .max()
            .unwrap_or(1)
            .max(1);
        self.derived.far_stars.insert(g, far);
        far
    }

    /// The atomic weight of `g`, when `g` is atomic (infinitesimal, and close enough to its
    /// weight times `^`); `None` otherwise.
    ///
    /// # Errors
    /// A full table or a number too large.
    pub fn atomic_weight(&mut self, g: GameId) -> Result<Option<GameId>, PartizanError> {
        if !self.is_infinitesimal(g) {
            return Ok(None);
        }
        let weight = self.naive_atomic_weight(g)?;
        if self.is_all_small(g) {
            return Ok(Some(weight));
        }
        // Atomic when -(^* + red kite) <= G - weight.^ <= ^* + red kite, the red kite
        // `*N : -1` built on a power of two N at least the far star.
        let up = self.ups(1)?;
        let weight_in_ups = self.norton_product(weight, up)?;
        let difference = self.difference(g, weight_in_ups)?;
        let far = self.far_star(g);
        let power = far.max(2).checked_next_power_of_two().unwrap_or(far);
        let star_n = self.nimber(power)?;
        let minus_one = self.integer(-1)?;
        let red_kite = self.ordinal_sum(star_n, minus_one)?;
        let star = self.nimber(1)?;
        let up_star = self.sum(up, star)?;
        let epsilon = self.sum(up_star, red_kite)?;
        let minus_epsilon = self.neg(epsilon);
        let atomic = self.leq(difference, epsilon) && self.leq(minus_epsilon, difference);
        Ok(atomic.then_some(weight))
    }

    /// `{G^L.aw - 2 | G^R.aw + 2}`, the eccentric case (an integer) settled against the far
    /// star: the weight a game has when it has one.
    fn naive_atomic_weight(&mut self, g: GameId) -> Result<GameId, PartizanError> {
        if self.as_number(g).is_some() || self.as_nimber(g).is_some() {
            return Ok(GameId::ZERO);
        }
        if let Some(&known) = self.derived.naive_atomic_weights.get(&g) {
            return Ok(known);
        }
        let (two, minus_two) = (self.integer(2)?, self.integer(-2)?);
        let mut sides = [Vec::new(), Vec::new()];
        for (slot, side, shift) in [(0, Side::Left, minus_two), (1, Side::Right, two)] {
            for option in self.options(g, side) {
                let weight = self.naive_atomic_weight(option)?;
                sides[slot].push(self.sum(weight, shift)?);
            }
        }
        let [left, right] = sides;
        let g0 = self.make(left.clone(), right.clone())?;
        let weight = if self.as_number(g0).is_some_and(super::Dyadic::is_integer) {
            let far = self.far_star(g);
            let far_star = self.nimber(far)?;
            let (below, above) = (self.leq(g, far_star), self.leq(far_star, g));
            if below && !above {
                // The least integer n with n |> every G^L.aw - 2.
                let mut least: Option<i64> = None;
                for &x in &left {
                    let mut n = self.stops(x).1.ceil();
                    let as_game = self.integer(n)?;
                    if self.leq(as_game, x) {
                        n += 1;
                    }
                    least = Some(least.map_or(n, |m| m.max(n)));
                }
                self.integer(least.unwrap_or(0))?
            } else if above && !below {
                // The greatest integer n with n <| every G^R.aw + 2.
                let mut greatest: Option<i64> = None;
                for &x in &right {
                    let mut n = self.stops(x).0.floor();
                    let as_game = self.integer(n)?;
                    if self.leq(x, as_game) {
                        n -= 1;
                    }
                    greatest = Some(greatest.map_or(n, |m| m.min(n)));
                }
                self.integer(greatest.unwrap_or(0))?
            } else {
                g0
            }
        } else {
            g0
        };
        self.derived.naive_atomic_weights.insert(g, weight);
        Ok(weight)
    }

    /// Norton's product `g.u`: `g` copies of `u` for an integer `g`, else
    /// `{g^L.u + u + I | g^R.u - u - I}` over `u`'s incentives `I`.
    ///
    /// # Errors
    /// A full table or a number too large.
    pub fn norton_product(&mut self, g: GameId, u: GameId) -> Result<GameId, PartizanError> {
        if let Some(x) = self.as_number(g)
            && x.is_integer()
        {
            let n = x.numerator();
            let mut doubling = if n < 0 { self.neg(u) } else { u };
            let mut total = GameId::ZERO;
            let mut rest = n.unsigned_abs();
            while rest > 0 {
                if rest & 1 == 1 {
                    total = self.sum(total, doubling)?;
                }
                rest >>= 1;
                if rest > 0 {
                    doubling = self.sum(doubling, doubling)?;
                }
            }
            return Ok(total);
        }
        if let Some(&known) = self.derived.norton_products.get(&(g, u)) {
            return Ok(known);
        }
        let mut steps = Vec::new();
        for incentive in self.all_incentives(u)? {
            steps.push(self.sum(u, incentive)?);
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (slot, side) in [(0, Side::Left), (1, Side::Right)] {
            for option in self.options(g, side) {
                let product = self.norton_product(option, u)?;
                for &step in &steps {
                    sides[slot].push(match side {
                        Side::Left => self.sum(product, step)?,
                        Side::Right => self.difference(product, step)?,
                    });
                }
            }
        }
        let [left, right] = sides;
        let product = self.make(left, right)?;
        self.derived.norton_products.insert((g, u), product);
        Ok(product)
    }

    /// The ordinal sum `g : h`: `g`, where a move in `g` ends `h` for good.
    ///
    /// # Errors
    /// A full table or a number too large.
    pub fn ordinal_sum(&mut self, g: GameId, h: GameId) -> Result<GameId, PartizanError> {
        if h == GameId::ZERO {
            return Ok(g);
        }
        if let Some(&known) = self.derived.ordinal_sums.get(&(g, h)) {
            return Ok(known);
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (slot, side) in [(0, Side::Left), (1, Side::Right)] {
            sides[slot] = self.options(g, side);
            for option in self.options(h, side) {
                sides[slot].push(self.ordinal_sum(g, option)?);
            }
        }
        let [left, right] = sides;
        let sum = self.make(left, right)?;
        self.derived.ordinal_sums.insert((g, h), sum);
        Ok(sum)
    }
}
