//! Quick answers on the calling thread, watched: a call that runs past its limit has its flag
//! raised by one watchdog thread, so that it can start again where Ctrl-C is looked for.
//!
//! Python runs signal handlers only on its main thread, with the GIL; work running on that
//! thread cannot look for Ctrl-C, so only quick work may run there. Estimates say which work
//! is quick before it starts; the watchdog covers work without one, and estimates gone wrong.

use perfect_play::budget::{Admission, Busy, Cancel};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// Work estimated at least this long (seconds) is not started on the calling thread.
pub const QUICK_SECONDS: f64 = 0.05;

/// How long work may run on the calling thread before the watchdog stops it.
pub const INLINE_SECONDS: f64 = 0.25;

/// How often the watchdog looks while calls are under way.
const TICK: Duration = Duration::from_millis(50);

/// The admission of an attempt on the calling thread: turns away work estimated long.
#[derive(Debug)]
pub struct QuickOnly;

impl Admission for QuickOnly {
    fn admit(&self, seconds: f64) -> Result<(), Busy> {
        if seconds < QUICK_SECONDS {
            Ok(())
        } else {
            Err(Busy {
                running: 0,
                waiting: 0,
                estimate: seconds,
                retry_after: 0,
            })
        }
    }
}

/// The calls under way on calling threads.
#[derive(Default)]
struct Calls {
    next: u64,
    under_way: Vec<(u64, Instant, Cancel)>,
    /// The watchdog waits for a call (not on its tick): a new call must wake it.
    idle: bool,
}

struct Watchdog {
    calls: Mutex<Calls>,
    woken: Condvar,
}

impl Watchdog {
    fn run(&self) {
        let limit = Duration::from_secs_f64(INLINE_SECONDS);
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if calls.under_way.is_empty() {
                calls.idle = true;
                calls = self
                    .woken
                    .wait(calls)
                    .unwrap_or_else(PoisonError::into_inner);
                calls.idle = false;
                continue;
            }
            calls = self
                .woken
                .wait_timeout(calls, TICK)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            let now = Instant::now();
            for (_, started, cancel) in &calls.under_way {
                if now.duration_since(*started) >= limit {
                    cancel.cancel();
                }
            }
        }
    }
}

/// The watchdog, started on first use; None when no thread could be started.
fn watchdog() -> Option<&'static Watchdog> {
    static WATCHDOG: OnceLock<Option<&'static Watchdog>> = OnceLock::new();
    *WATCHDOG.get_or_init(|| {
        let dog: &'static Watchdog = Box::leak(Box::new(Watchdog {
            calls: Mutex::new(Calls::default()),
            woken: Condvar::new(),
        }));
        std::thread::Builder::new()
            .name("perfect-play-watchdog".into())
            .spawn(move || dog.run())
            .ok()
            .map(|_| dog)
    })
}

/// One call watched: its flag, raised once it runs past [`INLINE_SECONDS`]. Dropping it ends
/// the watch.
pub struct Watch {
    dog: &'static Watchdog,
    id: u64,
    cancel: Cancel,
}

impl Watch {
    /// Watch a call starting now; None when there is no watchdog (the call must not run on
    /// the calling thread then).
    pub fn start() -> Option<Watch> {
        let dog = watchdog()?;
        let cancel = Cancel::new();
        let mut calls = dog.calls.lock().unwrap_or_else(PoisonError::into_inner);
        let id = calls.next;
        calls.next += 1;
        calls.under_way.push((id, Instant::now(), cancel.clone()));
        if calls.idle {
            dog.woken.notify_one();
        }
        Some(Watch { dog, id, cancel })
    }

    /// The call's flag.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut calls = self
            .dog
            .calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        calls.under_way.retain(|(id, _, _)| *id != self.id);
    }
}
