//! Which rank solves which tier, and when: tiers whose children are solved are handed out
//! together, in waves, the way GamesmanOne's scheduler hands ready tiers to its workers.
//!
//! A wave is the tiers whose children all lie in earlier waves (a tier's wave is one more than
//! its children's latest), so its tiers are independent of each other. In a wave, a tier
//! larger than the ranks' fair share of the wave (all of it, when it is alone) is cut into one
//! slice per rank and solved by all of them; the others are solved whole by one rank each, the
//! largest first to the rank with the least work so far. Every rank computes the same schedule
//! from the game alone, so no rank has to announce it.
//!
//! After a wave each tier goes to the ranks that read it whole: the ranks that solve one of
//! its parents whole, and, when the tiers fit the ranks' memory that way, every rank when a
//! parent is cut into slices. The others never write its records, so their pages of it are
//! never taken from the system. When they would not fit (`borrow`), a rank solving its slice
//! of a cut parent borrows only the records its slice reaches, from their owners, just
//! before it solves the slice: less memory and traffic, for one more reading of the slice's
//! moves.

use crate::engine::{EngineError, IndexedGame};
use std::ops::Range;

/// How a tier is solved over the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assignment {
    /// Cut into one slice per rank ([`super::split`]), solved by all of them together.
    Split,
    /// Solved whole by this rank alone.
    Whole(usize),
}

/// One tier's place in the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The tier.
    pub tier: u64,
    /// Who solves it.
    pub assignment: Assignment,
    /// Whether each rank reads it whole once it is solved (for a parent it solves whole).
    pub readers: Vec<bool>,
    /// Whether the ranks borrow from it (a parent is cut into slices, and the schedule
    /// borrows): its owners keep their parts until its last parent is solved.
    pub borrowed: bool,
    /// The wave of its last parent: once that wave is solved, the ranks keep only their
    /// own parts of it (for the database).
    pub last_read: Option<usize>,
}

/// The tiers of a game in waves, each tier placed on the ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The waves in the order they are solved; in each, the tiers cut into slices first
    /// (in the order the ranks solve them together), then the ones solved whole.
    pub waves: Vec<Vec<Placement>>,
    ranks: usize,
    /// Whether the slices of a cut tier borrow the records they reach of its children,
    /// rather than every rank reading the children whole.
    pub borrow: bool,
}

impl Schedule {
    /// The schedule of `game`'s tiers (`tiers`, their index ranges) over `ranks` ranks, the
    /// slices of a cut tier borrowing what they reach of its children when `borrow`.
    ///
    /// # Errors
    /// [`EngineError::BadTiers`] when the game names a child tier that is not later than its
    /// parent (the solve goes from the last tier).
    pub fn new<G: IndexedGame>(
        game: &G,
        tiers: &[Range<u64>],
        ranks: usize,
        borrow: bool,
    ) -> Result<Schedule, EngineError> {
        let ranks = ranks.max(1);
        let count = tiers.len();
        let children: Vec<Vec<u64>> = (0..count as u64).map(|t| game.tier_children(t)).collect();
        let mut wave_of = vec![0usize; count];
        for tier in (0..count).rev() {
            for &child in &children[tier] {
                let child = usize::try_from(child)
                    .ok()
                    .filter(|&c| c > tier && c < count)
                    .ok_or(EngineError::BadTiers(tiers[tier].start))?;
                wave_of[tier] = wave_of[tier].max(wave_of[child] + 1);
            }
        }
        let waves_count = wave_of.iter().max().map_or(0, |w| w + 1);
        let size = |t: usize| tiers[t].end - tiers[t].start;
        let mut waves: Vec<Vec<Placement>> = Vec::with_capacity(waves_count);
        for wave in 0..waves_count {
            // The largest first; among equals the later tier (the order one process takes).
            let mut members: Vec<usize> = (0..count).filter(|&t| wave_of[t] == wave).collect();
            members.sort_by_key(|&t| (std::cmp::Reverse(size(t)), std::cmp::Reverse(t)));
            let total: u64 = members.iter().map(|&t| size(t)).sum();
            let fair = total / ranks as u64;
            let mut load = vec![0u64; ranks];
            let mut split = Vec::new();
            let mut whole = Vec::new();
            for t in members {
                if ranks > 1 && size(t) > fair {
                    split.push((t, Assignment::Split));
                } else {
                    let rank = (0..ranks).min_by_key(|&r| (load[r], r)).unwrap_or(0);
                    load[rank] += size(t);
                    whole.push((t, Assignment::Whole(rank)));
                }
            }
            waves.push(
                split
                    .into_iter()
                    .chain(whole)
                    .map(|(t, assignment)| Placement {
                        tier: t as u64,
                        assignment,
                        readers: vec![false; ranks],
                        borrowed: false,
                        last_read: None,
                    })
                    .collect(),
            );
        }
        // Who reads each tier: the solvers of its parents.
        let assignment_of = |t: usize| {
            waves
                .iter()
                .flatten()
                .find(|p| p.tier == t as u64)
                .map(|p| p.assignment)
        };
        let mut readers = vec![vec![false; ranks]; count];
        let mut borrowed = vec![false; count];
        let mut last_read = vec![None; count];
        for (parent, kids) in children.iter().enumerate() {
            for &child in kids {
                let read = &mut last_read[child as usize];
                *read = (*read).max(Some(wave_of[parent]));
                match assignment_of(parent) {
                    Some(Assignment::Whole(r)) => readers[child as usize][r] = true,
                    Some(Assignment::Split) if borrow => borrowed[child as usize] = true,
                    Some(Assignment::Split) => readers[child as usize].fill(true),
                    None => {}
                }
            }
        }
        for placement in waves.iter_mut().flatten() {
            placement.readers = std::mem::take(&mut readers[placement.tier as usize]);
            placement.borrowed = borrowed[placement.tier as usize];
            placement.last_read = last_read[placement.tier as usize];
        }
        Ok(Schedule {
            waves,
            ranks,
            borrow,
        })
    }

    /// What each rank holds of tier `range` once it solved its part: its slice of a tier cut
    /// into slices, all of it for the rank that solved it whole, nothing for the others.
    #[must_use]
    pub fn parts(&self, assignment: Assignment, range: &Range<u64>) -> Vec<Range<u64>> {
        match assignment {
            Assignment::Split => super::split(range, self.ranks),
            Assignment::Whole(owner) => (0..self.ranks)
                .map(|r| {
                    if r == owner {
                        range.clone()
                    } else {
                        range.end..range.end
                    }
                })
                .collect(),
        }
    }

    /// The placement of every tier, by tier.
    #[must_use]
    pub fn by_tier(&self) -> Vec<Option<&Placement>> {
        let mut by_tier = vec![None; self.waves.iter().map(Vec::len).sum()];
        for placement in self.waves.iter().flatten() {
            if let Some(slot) = by_tier.get_mut(placement.tier as usize) {
                *slot = Some(placement);
            }
        }
        by_tier
    }

    /// The tiers cut into slices, in the order the ranks solve them together.
    #[must_use]
    pub fn split_tiers(&self) -> Vec<u64> {
        self.waves
            .iter()
            .flatten()
            .filter(|p| p.assignment == Assignment::Split)
            .map(|p| p.tier)
            .collect()
    }

    /// The most records rank `rank` holds at once: the tiers it still reads whole, its own
    /// parts of those it borrows from (with the bitmap of what it borrows, counted as
    /// records; the records borrowed come on top, known once its slice is read), its own
    /// parts of the other tiers solved so far (none when `saved`: its checkpoint holds
    /// them), and the tiers of the wave in progress (whole when they are gathered:
    /// `gathered(tier)`, a cut tier solved by passes whose moves may stay in it, or read by
    /// this rank once shared).
    #[must_use]
    pub fn rank_records(
        &self,
        tiers: &[Range<u64>],
        rank: usize,
        gathered: impl Fn(u64) -> bool,
        saved: bool,
    ) -> u64 {
        let rank = rank.min(self.ranks - 1);
        let len = |t: u64| tiers[t as usize].end - tiers[t as usize].start;
        let part = |p: &Placement| {
            let part = &self.parts(p.assignment, &tiers[p.tier as usize])[rank];
            part.end - part.start
        };
        (0..self.waves.len())
            .map(|now| {
                let earlier: u64 = self.waves[..now]
                    .iter()
                    .flatten()
                    .map(|p| {
                        let read = p.last_read.is_some_and(|w| w >= now);
                        if read && p.readers[rank] {
                            len(p.tier)
                        } else if read && p.borrowed {
                            part(p) + len(p.tier).div_ceil(16)
                        } else if saved {
                            0
                        } else {
                            part(p)
                        }
                    })
                    .sum();
                let current: u64 = self.waves[now]
                    .iter()
                    .map(|p| {
                        let whole = p.readers[rank]
                            || (gathered(p.tier) && p.assignment == Assignment::Split);
                        if whole { len(p.tier) } else { part(p) }
                    })
                    .sum();
                earlier + current
            })
            .max()
            .unwrap_or(0)
    }
}
