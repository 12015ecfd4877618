//! What ranks say to each other: the few collective operations the distributed solve needs,
//! behind a trait so that the same solve runs over MPI ([`super::mpi`], the `mpi` feature)
//! or over threads of one process ([`LocalCluster`], for the tests and for trying a game's
//! distributed solve without MPI).

use crate::engine::EngineError;
use std::sync::{Arc, Condvar, Mutex};

/// How [`Exchange::all_reduce`] combines the ranks' numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// The sum.
    Sum,
    /// The largest.
    Max,
    /// The smallest.
    Min,
}

impl Reduce {
    fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Reduce::Sum => a.saturating_add(b),
            Reduce::Max => a.max(b),
            Reduce::Min => a.min(b),
        }
    }
}

/// The collective operations of a group of ranks. Every rank calls the same operations in
/// the same order (each is a meeting of all of them); one rank's failure ends the others'
/// with an error rather than leaving them waiting.
pub trait Exchange {
    /// This rank's number, `0..size()`.
    fn rank(&self) -> usize;

    /// How many ranks there are.
    fn size(&self) -> usize;

    /// Deliver `outboxes[r]` to rank `r` (one outbox for each rank, this one's own
    /// included); returns what every rank sent this one, concatenated in rank order.
    ///
    /// # Errors
    /// [`EngineError::Exchange`] when the group broke up.
    fn all_to_all(&mut self, outboxes: &[Vec<u64>]) -> Result<Vec<u64>, EngineError>;

    /// Every rank's `value` combined by `op`, on every rank.
    ///
    /// # Errors
    /// [`EngineError::Exchange`] when the group broke up.
    fn all_reduce(&mut self, value: u64, op: Reduce) -> Result<u64, EngineError>;

    /// Every rank's `mine`, concatenated in rank order, on every rank.
    ///
    /// # Errors
    /// [`EngineError::Exchange`] when the group broke up.
    fn all_gather(&mut self, mine: &[u16]) -> Result<Vec<u16>, EngineError>;

    /// Every rank's `mine`, concatenated in rank order, on rank 0 (empty elsewhere).
    ///
    /// # Errors
    /// [`EngineError::Exchange`] when the group broke up.
    fn gather(&mut self, mine: &[u16]) -> Result<Vec<u16>, EngineError>;
}

/// The place where a [`LocalCluster`]'s ranks meet: each collective, every rank leaves its
/// contribution, the last to arrive opens the round, and every rank takes its answer.
#[derive(Debug, Default)]
struct Meeting {
    /// Contributions of the round being gathered, by rank.
    posted: Vec<Option<Contribution>>,
    /// The contributions of the last round completed, by rank, which the ranks read.
    completed: Arc<Vec<Contribution>>,
    /// Rounds completed so far.
    round: u64,
    /// Ranks that have read the completed round (the next one waits for all of them).
    read: usize,
    /// Set when a rank left the group (it failed or finished early).
    broken: bool,
}

#[derive(Clone, Debug)]
enum Contribution {
    Words(Vec<Vec<u64>>),
    Number(u64),
    Records(Vec<u16>),
}

#[derive(Debug)]
struct Shared {
    size: usize,
    meeting: Mutex<Meeting>,
    changed: Condvar,
}

/// One rank of a group of ranks that are threads of this process: [`LocalCluster::ranks`]
/// makes them, one for each thread to run. The solve works as over MPI, records in slices
/// and parents across them in messages, so the tests check the distributed solve without an
/// MPI installation.
#[derive(Debug)]
pub struct LocalCluster {
    rank: usize,
    shared: Arc<Shared>,
}

impl LocalCluster {
    /// `size` ranks (at least 1), one to hand to each thread.
    #[must_use]
    pub fn ranks(size: usize) -> Vec<LocalCluster> {
        let size = size.max(1);
        let shared = Arc::new(Shared {
            size,
            meeting: Mutex::new(Meeting {
                posted: vec![None; size],
                ..Meeting::default()
            }),
            changed: Condvar::new(),
        });
        (0..size)
            .map(|rank| LocalCluster {
                rank,
                shared: Arc::clone(&shared),
            })
            .collect()
    }

    fn broken() -> EngineError {
        EngineError::Exchange(String::from(
            "another rank left the solve (it failed or was stopped)",
        ))
    }

    /// Post this rank's contribution and wait for everyone's.
    fn meet(&self, mine: Contribution) -> Result<Arc<Vec<Contribution>>, EngineError> {
        let shared = &self.shared;
        let mut meeting = shared.meeting.lock().map_err(|_| Self::broken())?;
        // The previous round must have been read by every rank before this one is posted.
        while meeting.read < shared.size && meeting.round > 0 && !meeting.broken {
            meeting = shared.changed.wait(meeting).map_err(|_| Self::broken())?;
        }
        if meeting.broken {
            return Err(Self::broken());
        }
        meeting.posted[self.rank] = Some(mine);
        let round = meeting.round;
        if meeting.posted.iter().all(Option::is_some) {
            let all: Vec<Contribution> =
                meeting.posted.iter_mut().filter_map(Option::take).collect();
            meeting.completed = Arc::new(all);
            meeting.round += 1;
            meeting.read = 0;
            shared.changed.notify_all();
        }
        while meeting.round == round && !meeting.broken {
            meeting = shared.changed.wait(meeting).map_err(|_| Self::broken())?;
        }
        if meeting.round == round {
            return Err(Self::broken());
        }
        let completed = Arc::clone(&meeting.completed);
        meeting.read += 1;
        if meeting.read == shared.size {
            shared.changed.notify_all();
        }
        Ok(completed)
    }
}

impl Drop for LocalCluster {
    /// A rank that leaves (its solve failed, or it panicked) releases the others.
    fn drop(&mut self) {
        if let Ok(mut meeting) = self.shared.meeting.lock() {
            meeting.broken = true;
            self.shared.changed.notify_all();
        }
    }
}

impl Exchange for LocalCluster {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn all_to_all(&mut self, outboxes: &[Vec<u64>]) -> Result<Vec<u64>, EngineError> {
        let all = self.meet(Contribution::Words(outboxes.to_vec()))?;
        let mut inbox = Vec::new();
        for contribution in all.iter() {
            if let Contribution::Words(boxes) = contribution {
                inbox.extend_from_slice(boxes.get(self.rank).map_or(&[][..], Vec::as_slice));
            }
        }
        Ok(inbox)
    }

    fn all_reduce(&mut self, value: u64, op: Reduce) -> Result<u64, EngineError> {
        let all = self.meet(Contribution::Number(value))?;
        Ok(all
            .iter()
            .filter_map(|c| match c {
                Contribution::Number(n) => Some(*n),
                _ => None,
            })
            .reduce(|a, b| op.apply(a, b))
            .unwrap_or(value))
    }

    fn all_gather(&mut self, mine: &[u16]) -> Result<Vec<u16>, EngineError> {
        let all = self.meet(Contribution::Records(mine.to_vec()))?;
        Ok(all
            .iter()
            .flat_map(|c| match c {
                Contribution::Records(r) => r.as_slice(),
                _ => &[],
            })
            .copied()
            .collect())
    }

    fn gather(&mut self, mine: &[u16]) -> Result<Vec<u16>, EngineError> {
        let gathered = self.all_gather(mine)?;
        Ok(if self.rank == 0 { gathered } else { Vec::new() })
    }
}
