//! The second walk: remoteness and the best line, read off the solved win/loss values.
//!
//! The bit table stores one bit per position, not move counts; remoteness comes from a memoised
//! walk that only follows moves consistent with those bits (a winner's moves into lost
//! positions). It has its own position limit: beyond it remoteness is reported as not computed.

use super::dfs::OverBudget;
use super::pool::bits;
use super::{CanIWin, MoveEffect, Oracle};
use crate::player::Outcome;
use rustc_hash::FxHashMap;

/// Why the walk stopped early.
enum Stop {
    /// The oracle's search ran out of memory.
    Budget(OverBudget),
    /// The walk's own position limit was reached.
    Limit,
}

impl From<OverBudget> for Stop {
    fn from(e: OverBudget) -> Stop {
        Stop::Budget(e)
    }
}

/// Pools up to this size keep the walk's memo in a dense array (one byte per subset, 16 MiB).
const DENSE_MAX_POOL: usize = 24;

/// Bytes the walk's memo takes for a pool of `n` numbers walking at most `limit` positions:
/// the dense array, or the hash map at its peak (see [`super::dfs::map_peak_bytes`]).
#[must_use]
pub fn memo_bytes(n: usize, limit: usize) -> u64 {
    if limit == 0 {
        0
    } else if n <= DENSE_MAX_POOL {
        1u64 << n
    } else {
        super::dfs::map_peak_bytes(limit as u64)
    }
}

/// Remoteness already known, by set of available numbers.
enum Memo {
    /// `remoteness + 1` per subset, 0 for unknown: no hashing on small pools.
    Dense(Vec<u8>),
    /// A hash map for larger pools.
    Sparse(FxHashMap<u64, u8>),
}

impl Memo {
    fn get(&self, available: u64) -> Option<u8> {
        match self {
            Memo::Dense(v) => v[available as usize].checked_sub(1),
            Memo::Sparse(m) => m.get(&available).copied(),
        }
    }

    fn insert(&mut self, available: u64, remoteness: u8) {
        match self {
            Memo::Dense(v) => v[available as usize] = remoteness + 1,
            Memo::Sparse(m) => {
                m.insert(available, remoteness);
            }
        }
    }
}

/// Memoised remoteness of positions (sets of available numbers).
pub struct Walk<'q> {
    query: &'q CanIWin,
    memo: Memo,
    limit: usize,
}

impl<'q> Walk<'q> {
    pub fn new(query: &'q CanIWin, limit: usize) -> Walk<'q> {
        let n = query.pool.len();
        let memo = if n <= DENSE_MAX_POOL && limit > 0 {
            Memo::Dense(vec![0; 1 << n])
        } else {
            Memo::Sparse(FxHashMap::default())
        };
        Walk { query, memo, limit }
    }

    /// Remoteness of `available` for the player to move, or `None` past the walk's limit.
    pub fn remoteness(
        &mut self,
        oracle: &mut Oracle<'_>,
        available: u64,
    ) -> Result<Option<u32>, OverBudget> {
        finish(self.position(oracle, available, self.query.need(available)))
    }

    /// Remoteness of picking the `index`-th number in `available`, counting the pick.
    pub fn move_remoteness(
        &mut self,
        oracle: &mut Oracle<'_>,
        available: u64,
        index: usize,
    ) -> Result<Option<u32>, OverBudget> {
        finish(self.after_move(oracle, available, self.query.need(available), index))
    }

    /// The remoteness of picking number `index` when `need` is left, counting the pick.
    fn after_move(
        &mut self,
        oracle: &mut Oracle<'_>,
        available: u64,
        need: i128,
        index: usize,
    ) -> Result<u8, Stop> {
        let pick = i128::from(self.query.pool.value(index));
        if pick >= need {
            Ok(1)
        } else {
            Ok(self.position(oracle, available & !(1 << index), need - pick)? + 1)
        }
    }

    /// Whether picking number `index` wins for the mover when `need` is left.
    fn move_wins(
        &self,
        oracle: &mut Oracle<'_>,
        available: u64,
        need: i128,
        index: usize,
    ) -> Result<bool, OverBudget> {
        if i128::from(self.query.pool.value(index)) >= need {
            Ok(self.query.finishing_outcome() == Outcome::Win)
        } else {
            Ok(!oracle.wins(available & !(1 << index))?)
        }
    }

    fn position(
        &mut self,
        oracle: &mut Oracle<'_>,
        available: u64,
        need: i128,
    ) -> Result<u8, Stop> {
        if let Some(r) = self.memo.get(available) {
            return Ok(r);
        }
        // A dense memo cannot outgrow its array; only the hash map needs a cap. A limit of 0
        // turns the walk off whatever the memo.
        let full = match &self.memo {
            Memo::Sparse(m) => m.len() >= self.limit,
            Memo::Dense(_) => self.limit == 0,
        };
        if full {
            return Err(Stop::Limit);
        }
        let wins = oracle.wins(available)?;
        let mut best: Option<u8> = None;
        for i in bits(available) {
            if wins && !self.move_wins(oracle, available, need, i)? {
                continue; // a winner only considers winning moves
            }
            let r = self.after_move(oracle, available, need, i)?;
            best = Some(match best {
                None => r,
                Some(b) if wins => b.min(r),
                Some(b) => b.max(r),
            });
        }
        let r = best.unwrap_or(0);
        self.memo.insert(available, r);
        Ok(r)
    }

    /// One line of perfect play from `available`: fastest win or slowest loss when the walk fits
    /// its limit, otherwise a line that keeps each player's outcome.
    pub fn best_line(
        &mut self,
        oracle: &mut Oracle<'_>,
        mut available: u64,
    ) -> Result<Vec<u64>, OverBudget> {
        let mut line = Vec::new();
        while available != 0 {
            let wins = oracle.wins(available)?;
            let need = self.query.need(available);
            let mut chosen: Option<(usize, u8)> = None;
            for i in bits(available) {
                if wins != self.move_wins(oracle, available, need, i)? {
                    continue;
                }
                let r = match self.after_move(oracle, available, need, i) {
                    Ok(r) => r,
                    Err(Stop::Budget(e)) => return Err(e),
                    // Without remoteness: a winner takes the first winning move, a loser the
                    // first move that does not end the game at once.
                    Err(Stop::Limit) => u8::from(matches!(
                        self.query.pool_move(available, i),
                        MoveEffect::Continues
                    )),
                };
                let better = match chosen {
                    None => true,
                    Some((_, b)) if wins => r < b,
                    Some((_, b)) => r > b,
                };
                if better {
                    chosen = Some((i, r));
                }
            }
            let Some((i, _)) = chosen else { break };
            line.push(self.query.pool.value(i));
            if matches!(self.query.pool_move(available, i), MoveEffect::Finishes) {
                break;
            }
            available &= !(1 << i);
        }
        Ok(line)
    }
}

fn finish(result: Result<u8, Stop>) -> Result<Option<u32>, OverBudget> {
    match result {
        Ok(r) => Ok(Some(u32::from(r))),
        Err(Stop::Limit) => Ok(None),
        Err(Stop::Budget(e)) => Err(e),
    }
}
