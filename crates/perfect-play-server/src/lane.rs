//! The lane for long answers. Work whose estimate is long takes one of a few places in it
//! (one core's worth fewer than the machine has, so quick answers always find a core), waits
//! for one within its budget, or is turned away at once when too many already wait. Work
//! without an estimate, or a short one, runs at once: its deadline bounds it.

use perfect_play::budget::{Admission, Busy, Cancel};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Work estimated at least this long (seconds) goes through the lane.
pub const LONG_SECONDS: f64 = 0.05;

/// Long answers waiting for a place, past which more are turned away at once.
pub const MOST_WAITING: usize = 32;

/// How many long answers run and wait.
#[derive(Debug, Default)]
struct Places {
    running: usize,
    waiting: usize,
}

/// The places for long answers.
#[derive(Debug)]
pub struct Lane {
    places: Mutex<Places>,
    freed: Condvar,
    most_running: usize,
}

impl Lane {
    /// A lane of `most_running` places (at least one).
    #[must_use]
    pub fn new(most_running: usize) -> Lane {
        Lane {
            places: Mutex::new(Places::default()),
            freed: Condvar::new(),
            most_running: most_running.max(1),
        }
    }

    /// A place on this machine: one fewer than its cores, at least one.
    #[must_use]
    pub fn for_this_machine() -> Lane {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        Lane::new(cores.saturating_sub(1))
    }
}

/// One request's claim on the lane: it takes a place when its work's estimate is long and
/// gives it back when dropped (the work over).
#[derive(Debug)]
pub struct Ticket {
    lane: Arc<Lane>,
    /// The request's deadline: waiting past it is pointless.
    deadline: Option<Instant>,
    /// The request's flag: a client gone stops the wait.
    cancel: Cancel,
    held: AtomicBool,
}

impl Ticket {
    /// A claim on `lane` for a request with this deadline and flag.
    #[must_use]
    pub fn new(lane: Arc<Lane>, deadline: Option<Instant>, cancel: Cancel) -> Ticket {
        Ticket {
            lane,
            deadline,
            cancel,
            held: AtomicBool::new(false),
        }
    }
}

impl Admission for Ticket {
    fn admit(&self, seconds: f64) -> Result<(), Busy> {
        if seconds < LONG_SECONDS || self.held.load(Ordering::Relaxed) {
            return Ok(());
        }
        let lane = &self.lane;
        let mut places = lane.places.lock().unwrap_or_else(|e| e.into_inner());
        let busy = |places: &Places| Busy {
            running: places.running,
            waiting: places.waiting,
            estimate: seconds,
            retry_after: seconds.ceil().max(1.0) as u64,
        };
        if places.running >= lane.most_running && places.waiting >= MOST_WAITING {
            return Err(busy(&places));
        }
        places.waiting += 1;
        while places.running >= lane.most_running {
            let now = Instant::now();
            let left = self.deadline.map_or(Duration::from_millis(50), |d| d - now);
            if self.deadline.is_some_and(|d| now >= d) || self.cancel.is_cancelled() {
                places.waiting -= 1;
                return Err(busy(&places));
            }
            // A client gone stops the wait too: looked at every 50 ms.
            let wait = left.min(Duration::from_millis(50));
            places = lane
                .freed
                .wait_timeout(places, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        places.waiting -= 1;
        places.running += 1;
        self.held.store(true, Ordering::Relaxed);
        Ok(())
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.held.load(Ordering::Relaxed) {
            let mut places = self.lane.places.lock().unwrap_or_else(|e| e.into_inner());
            places.running -= 1;
            self.lane.freed.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_work_runs_at_once_and_long_work_takes_the_places_in_turn() {
        let lane = Arc::new(Lane::new(1));
        let ticket = |deadline| Ticket::new(Arc::clone(&lane), deadline, Cancel::new());
        let first = ticket(None);
        assert_eq!(first.admit(0.01), Ok(()));
        assert_eq!(first.admit(1.0), Ok(()));
        // The place is taken: a second long answer waits until its deadline, then is
        // turned away; a short one runs.
        let soon = Instant::now() + Duration::from_millis(100);
        let second = ticket(Some(soon));
        assert_eq!(second.admit(0.01), Ok(()));
        let refused = second.admit(1.0).unwrap_err();
        assert_eq!((refused.running, refused.waiting), (1, 0));
        assert!(Instant::now() >= soon);
        // The first done, the place is free again.
        drop(first);
        assert_eq!(ticket(None).admit(1.0), Ok(()));
    }

    #[test]
    fn a_waiting_answer_takes_the_place_freed() {
        let lane = Arc::new(Lane::new(1));
        let first = Ticket::new(Arc::clone(&lane), None, Cancel::new());
        first.admit(1.0).unwrap();
        let waiter = {
            let lane = Arc::clone(&lane);
            std::thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(10);
                let ticket = Ticket::new(lane, Some(deadline), Cancel::new());
                ticket.admit(1.0).map(|()| Instant::now())
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        let freed = Instant::now();
        drop(first);
        let admitted = waiter.join().unwrap().unwrap();
        assert!(admitted >= freed);
    }

    #[test]
    fn too_many_waiting_are_turned_away_at_once() {
        let lane = Arc::new(Lane::new(1));
        let running = Ticket::new(Arc::clone(&lane), None, Cancel::new());
        running.admit(1.0).unwrap();
        lane.places.lock().unwrap().waiting = MOST_WAITING;
        let start = Instant::now();
        let refused = Ticket::new(Arc::clone(&lane), None, Cancel::new())
            .admit(1.0)
            .unwrap_err();
        assert_eq!(refused.waiting, MOST_WAITING);
        assert!(start.elapsed() < Duration::from_millis(50));
    }
}
