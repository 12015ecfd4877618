//! Thermographs: how a game's stops move as it is cooled, and the temperature and mean
//! they lead to (Winning Ways ch. 6; Siegel, *Combinatorial Game Theory*, II.5).
//!
//! Cooling a game by `t` taxes every move by `t`. The left wall of its thermograph is the
//! left stop of the game cooled by `t`, the right wall the right stop, drawn for every
//! `t >= -1`; above the game's *temperature* both walls are one vertical mast at its *mean*.
//! The walls are found from the options' walls, as CGSuite does it: Left's scaffold is the
//! highest of Left's options' right walls tilted by `-t`, Right's the lowest of Right's
//! options' left walls tilted by `+t`; the mast rises where they meet.

use super::PartizanError;
use super::dyadic::Dyadic;
use super::table::{GameId, GameTable, Side};
use std::sync::Arc;

/// One straight piece of a [`Trajectory`]: from the temperature `from` on (until the next
/// piece), the value is `value + slope * (t - from)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The temperature the piece starts at.
    pub from: Dyadic,
    /// The value at `from`.
    pub value: Dyadic,
    /// How the value changes per degree: -1, 0 or 1 on a wall.
    pub slope: i8,
}

impl Piece {
    /// The value at `t` (on this piece's line).
    fn at(&self, t: Dyadic) -> Result<Dyadic, PartizanError> {
        let run = t.checked_sub(self.from).ok_or(PartizanError::TooLarge)?;
        let mut value = self.value;
        for _ in 0..self.slope.unsigned_abs() {
            value = if self.slope > 0 {
                value.checked_add(run)
            } else {
                value.checked_sub(run)
            }
            .ok_or(PartizanError::TooLarge)?;
        }
        Ok(value)
    }
}

/// A continuous piecewise-linear function of the temperature `t >= -1`, kept as its pieces
/// in the order of temperature (the first from -1, the last going on for ever).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trajectory {
    pieces: Vec<Piece>,
}

impl Trajectory {
    /// The same value at every temperature.
    #[must_use]
    pub fn constant(value: Dyadic) -> Trajectory {
        Trajectory {
            pieces: vec![Piece {
                from: Dyadic::MINUS_ONE,
                value,
                slope: 0,
            }],
        }
    }

    /// The pieces, from -1 upwards; the last one goes on for ever.
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The piece in force at `t`.
    fn piece_at(&self, t: Dyadic) -> &Piece {
        let after = self.pieces.partition_point(|p| p.from <= t);
        &self.pieces[after.saturating_sub(1)]
    }

    /// The value at `t`.
    ///
    /// # Errors
    /// [`PartizanError::TooLarge`] past the numbers kept exactly.
    pub fn at(&self, t: Dyadic) -> Result<Dyadic, PartizanError> {
        self.piece_at(t).at(t)
    }

    /// This trajectory plus `slope * t`.
    fn tilt(&self, slope: i8) -> Result<Trajectory, PartizanError> {
        let tilted = Piece {
            from: Dyadic::ZERO,
            value: Dyadic::ZERO,
            slope,
        };
        let pieces = self
            .pieces
            .iter()
            .map(|p| {
                Ok(Piece {
                    from: p.from,
                    value: p
                        .value
                        .checked_add(tilted.at(p.from)?)
                        .ok_or(PartizanError::TooLarge)?,
                    slope: p.slope + slope,
                })
            })
            .collect::<Result<_, PartizanError>>()?;
        Ok(Trajectory { pieces })
    }

    /// The higher (`Side::Left`) or lower (`Side::Right`) of the two at each temperature.
    fn envelope(&self, other: &Trajectory, side: Side) -> Result<Trajectory, PartizanError> {
        let better = |a: Dyadic, b: Dyadic| match side {
            Side::Left => a > b,
            Side::Right => a < b,
        };
        let mut cuts: Vec<Dyadic> = self
            .pieces
            .iter()
            .chain(&other.pieces)
            .map(|p| p.from)
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut pieces = Vec::with_capacity(cuts.len() + 2);
        for (i, &start) in cuts.iter().enumerate() {
            let end = cuts.get(i + 1).copied();
            let (f, g) = (self.piece_at(start), other.piece_at(start));
            let (fa, ga) = (f.at(start)?, g.at(start)?);
            // Which is ahead just after `start`: the better value, or on a tie the steeper
            // in the wanted direction.
            let slope_better = match side {
                Side::Left => f.slope >= g.slope,
                Side::Right => f.slope <= g.slope,
            };
            let (ahead, behind) = if better(fa, ga) || (fa == ga && slope_better) {
                (f, g)
            } else {
                (g, f)
            };
            let lead = fa.checked_sub(ga).ok_or(PartizanError::TooLarge)?.abs();
            pieces.push(Piece {
                from: start,
                value: ahead.at(start)?,
                slope: ahead.slope,
            });
            // The one behind catches up when it moves faster in the wanted direction.
            let closing = match side {
                Side::Left => behind.slope - ahead.slope,
                Side::Right => ahead.slope - behind.slope,
            };
            if closing > 0 && lead > Dyadic::ZERO {
                let meet = start
                    .checked_add(divide(lead, closing)?)
                    .ok_or(PartizanError::TooLarge)?;
                if end.is_none_or(|e| meet < e) {
                    pieces.push(Piece {
                        from: meet,
                        value: behind.at(meet)?,
                        slope: behind.slope,
                    });
                }
            }
        }
        Ok(Trajectory {
            pieces: merged(pieces)?,
        })
    }
}

/// `x / n` for `n` a small power of two (the slopes' differences, 1 or 2, on walls).
fn divide(x: Dyadic, n: i8) -> Result<Dyadic, PartizanError> {
    let mut q = x;
    let mut n = n;
    while n > 1 {
        if n % 2 != 0 {
            return Err(PartizanError::TooLarge);
        }
        q = q.half().ok_or(PartizanError::TooLarge)?;
        n /= 2;
    }
    Ok(q)
}

/// Pieces that continue the line before them folded into it.
fn merged(pieces: Vec<Piece>) -> Result<Vec<Piece>, PartizanError> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    for p in pieces {
        if let Some(last) = out.last()
            && last.slope == p.slope
            && last.at(p.from)? == p.value
        {
            continue;
        }
        out.push(p);
    }
    Ok(out)
}

/// A game's thermograph: its two walls, the mast's foot (the temperature) and place (the
/// mean).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    /// Left's stop of the game cooled by `t`, for `t >= -1`.
    pub left_wall: Trajectory,
    /// Right's stop of the game cooled by `t`.
    pub right_wall: Trajectory,
    /// Where the walls meet and the mast rises: how much a move is worth here.
    pub temperature: Dyadic,
    /// The mast's place: the value the game counts as in a sum of many hot games.
    pub mean: Dyadic,
}

impl Thermograph {
    /// The thermograph of an integer: a mast from -1.
    fn mast(value: Dyadic) -> Thermograph {
        Thermograph {
            left_wall: Trajectory::constant(value),
            right_wall: Trajectory::constant(value),
            temperature: Dyadic::MINUS_ONE,
            mean: value,
        }
    }

    /// Walls from the two scaffolds, up to the lowest temperature at which Left's is no
    /// longer right of Right's, and the mast above it.
    fn from_scaffolds(left: &Trajectory, right: &Trajectory) -> Result<Thermograph, PartizanError> {
        let (l0, r0) = (left.at(Dyadic::MINUS_ONE)?, right.at(Dyadic::MINUS_ONE)?);
        if l0 < r0 {
            // Apart from the start: a mast from -1, at the scaffold nearer to 0 (or at 0
            // between them), as CGSuite draws it.
            let at = if l0 > Dyadic::ZERO {
                l0
            } else if r0 < Dyadic::ZERO {
                r0
            } else {
                Dyadic::ZERO
            };
            return Ok(Thermograph::mast(at));
        }
        let mut cuts: Vec<Dyadic> = left
            .pieces
            .iter()
            .chain(&right.pieces)
            .map(|p| p.from)
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut temperature = None;
        for (i, &start) in cuts.iter().enumerate() {
            let (l, r) = (left.piece_at(start), right.piece_at(start));
            let gap = l
                .at(start)?
                .checked_sub(r.at(start)?)
                .ok_or(PartizanError::TooLarge)?;
            if gap <= Dyadic::ZERO {
                temperature = Some(start);
                break;
            }
            let closing = r.slope - l.slope;
            if closing > 0 {
                let meet = start
                    .checked_add(divide(gap, closing)?)
                    .ok_or(PartizanError::TooLarge)?;
                if cuts.get(i + 1).is_none_or(|&e| meet < e) {
                    temperature = Some(meet);
                    break;
                }
            }
        }
        // Left's scaffold falls at slope -1 and Right's rises at +1 above every option's
        // temperature, so they always meet.
        let temperature = temperature.ok_or(PartizanError::TooLarge)?;
        let mean = left.at(temperature)?;
        let wall = |scaffold: &Trajectory| -> Result<Trajectory, PartizanError> {
            let mut pieces: Vec<Piece> = scaffold
                .pieces
                .iter()
                .copied()
                .filter(|p| p.from < temperature)
                .collect();
            pieces.push(Piece {
                from: temperature,
                value: mean,
                slope: 0,
            });
            Ok(Trajectory {
                pieces: merged(pieces)?,
            })
        };
        Ok(Thermograph {
            left_wall: wall(left)?,
            right_wall: wall(right)?,
            temperature,
            mean,
        })
    }
}

impl GameTable {
    /// The thermograph of `g`.
    ///
    /// # Errors
    /// [`PartizanError::TooLarge`] past the numbers kept exactly, or a full table (a
    /// number's options are entered when first asked for).
    pub fn thermograph(&mut self, g: GameId) -> Result<Arc<Thermograph>, PartizanError> {
        if let Some(t) = self.derived.thermographs.get(&g) {
            return Ok(Arc::clone(t));
        }
        let thermograph = match self.as_number(g) {
            Some(x) if x.is_integer() => Thermograph::mast(x),
            _ => {
                let mut scaffolds: [Option<Trajectory>; 2] = [None, None];
                for side in [Side::Left, Side::Right] {
                    for option in self.options(g, side) {
                        let t = self.thermograph(option)?;
                        // Left moves to an option where Right moves next: its right wall.
                        let wall = match side {
                            Side::Left => &t.right_wall,
                            Side::Right => &t.left_wall,
                        };
                        let slot = &mut scaffolds[usize::from(side == Side::Right)];
                        *slot = Some(match slot.take() {
                            None => wall.clone(),
                            Some(so_far) => so_far.envelope(wall, side)?,
                        });
                    }
                }
                let [left, right] = scaffolds;
                // A canonical form that is not an integer has options on both sides; should
                // one be missing, the other scaffold stands for it (as the stops do).
                let (left, right) = match (left, right) {
                    (Some(l), Some(r)) => (l.tilt(-1)?, r.tilt(1)?),
                    (Some(l), None) => (l.tilt(-1)?, l.tilt(-1)?),
                    (None, Some(r)) => (r.tilt(1)?, r.tilt(1)?),
                    (None, None) => (
                        Trajectory::constant(Dyadic::ZERO),
                        Trajectory::constant(Dyadic::ZERO),
                    ),
                };
                Thermograph::from_scaffolds(&left, &right)?
            }
        };
        let thermograph = Arc::new(thermograph);
        self.derived
            .thermographs
            .insert(g, Arc::clone(&thermograph));
        Ok(thermograph)
    }

    /// The temperature of `g`: how much moving in it is worth (-1 for an integer, `-1/2^k`
    /// for a number with denominator `2^k`, 0 for a nonzero infinitesimal).
    ///
    /// # Errors
    /// As [`GameTable::thermograph`].
    pub fn temperature(&mut self, g: GameId) -> Result<Dyadic, PartizanError> {
        Ok(self.thermograph(g)?.temperature)
    }

    /// The mean of `g`: `n.G` is close to `n` times it (the mean value theorem); means add up
    /// over sums.
    ///
    /// # Errors
    /// As [`GameTable::thermograph`].
    pub fn mean(&mut self, g: GameId) -> Result<Dyadic, PartizanError> {
        Ok(self.thermograph(g)?.mean)
    }
}
