//! [`Exchange`] over MPI (the `mpi` feature): each collective is the MPI call made for it
//! (`MPI_Alltoallv`, `MPI_Allreduce`, `MPI_Allgatherv`, `MPI_Gatherv`). A rank that dies
//! takes the job down with it (mpirun ends the others), which is what the checkpoints are
//! for.

use super::exchange::{Exchange, Reduce};
use crate::engine::EngineError;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives, Root};
use mpi::{Count, Threading};

/// The MPI library, started once for the process; dropping it finalizes MPI.
pub struct Mpi {
    universe: mpi::environment::Universe,
}

impl std::fmt::Debug for Mpi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mpi").finish_non_exhaustive()
    }
}

/// Whether this process was started by an MPI launcher (OpenMPI's `mpirun`, MPICH's or
/// Slurm's `srun` through PMI or PMIx): only then is MPI started, so that a plain run of a
/// binary built with the feature pays nothing for it (a singleton start took 0.3 s here).
#[must_use]
pub fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"]
        .iter()
        .any(|name| std::env::var_os(name).is_some())
}

impl Mpi {
    /// Start MPI (the worker threads never call it: `MPI_THREAD_FUNNELED`). `None` when it
    /// was started already or cannot start.
    #[must_use]
    pub fn start() -> Option<Mpi> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)?;
        Some(Mpi { universe })
    }

    /// Every process of the job.
    #[must_use]
    pub fn world(&self) -> MpiExchange {
        MpiExchange {
            world: self.universe.world(),
        }
    }
}

/// The ranks of an MPI job as an [`Exchange`].
pub struct MpiExchange {
    world: SimpleCommunicator,
}

impl std::fmt::Debug for MpiExchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MpiExchange")
            .field("rank", &self.world.rank())
            .field("size", &self.world.size())
            .finish()
    }
}

/// MPI counts and displacements are C ints: a message past them is refused, not truncated.
fn count(n: usize) -> Result<Count, EngineError> {
    Count::try_from(n).map_err(|_| {
        EngineError::Exchange(format!(
            "a message of {n} items, past the {} an MPI count holds",
            Count::MAX
        ))
    })
}

/// Displacements of consecutive parts of these sizes.
fn displacements(counts: &[Count]) -> Result<Vec<Count>, EngineError> {
    let mut at: usize = 0;
    counts
        .iter()
        .map(|&c| {
            let here = count(at)?;
            at += usize::try_from(c).unwrap_or(0);
            Ok(here)
        })
        .collect()
}

fn total(counts: &[Count]) -> usize {
    counts
        .iter()
        .map(|&c| usize::try_from(c).unwrap_or(0))
        .sum()
}

impl Exchange for MpiExchange {
    fn rank(&self) -> usize {
        usize::try_from(self.world.rank()).unwrap_or(0)
    }

    fn size(&self) -> usize {
        usize::try_from(self.world.size()).unwrap_or(1)
    }

    fn all_to_all(&mut self, outboxes: &[Vec<u64>]) -> Result<Vec<u64>, EngineError> {
        let send_counts: Vec<Count> = outboxes
            .iter()
            .map(|b| count(b.len()))
            .collect::<Result<_, _>>()?;
        let mut receive_counts = vec![0 as Count; send_counts.len()];
        self.world
            .all_to_all_into(&send_counts[..], &mut receive_counts[..]);
        let send: Vec<u64> = outboxes.concat();
        let send_displs = displacements(&send_counts)?;
        let receive_displs = displacements(&receive_counts)?;
        let mut inbox = vec![0u64; total(&receive_counts)];
        {
            let mut receive =
                PartitionMut::new(&mut inbox[..], &receive_counts[..], &receive_displs[..]);
            let send = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            self.world.all_to_all_varcount_into(&send, &mut receive);
        }
        Ok(inbox)
    }

    fn all_reduce(&mut self, value: u64, op: Reduce) -> Result<u64, EngineError> {
        use mpi::collective::SystemOperation;
        let op = match op {
            Reduce::Sum => SystemOperation::sum(),
            Reduce::Max => SystemOperation::max(),
            Reduce::Min => SystemOperation::min(),
        };
        let mut out = 0u64;
        self.world.all_reduce_into(&value, &mut out, op);
        Ok(out)
    }

    fn all_gather(&mut self, mine: &[u16]) -> Result<Vec<u16>, EngineError> {
        let n = count(mine.len())?;
        let mut counts = vec![0 as Count; self.size()];
        self.world.all_gather_into(&n, &mut counts[..]);
        let displs = displacements(&counts)?;
        let mut all = vec![0u16; total(&counts)];
        {
            let mut receive = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            self.world.all_gather_varcount_into(mine, &mut receive);
        }
        Ok(all)
    }

    fn gather(&mut self, mine: &[u16]) -> Result<Vec<u16>, EngineError> {
        let root = self.world.process_at_rank(0);
        let n = count(mine.len())?;
        if self.rank() != 0 {
            root.gather_into(&n);
            root.gather_varcount_into(mine);
            return Ok(Vec::new());
        }
        let mut counts = vec![0 as Count; self.size()];
        root.gather_into_root(&n, &mut counts[..]);
        let displs = displacements(&counts)?;
        let mut all = vec![0u16; total(&counts)];
        {
            let mut receive = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            root.gather_varcount_into_root(mine, &mut receive);
        }
        Ok(all)
    }
}
