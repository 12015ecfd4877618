//! The rare/common method on two threads, for codes whose splits all remove the same number
//! of tokens `k` and leave two heaps (Grundy's game, 0.6, Kayles-like codes).
//!
//! Not on the default path: measured on a quiet machine it is slower than the one-thread
//! walk (Grundy's game, heaps 65,536 to 2^20: 4.76 s on two threads against 4.04 s for all of
//! 0 to 2^20 on one; `cargo run --release --example two_threads -- '4!.0' 1048576`), since its
//! reads are atomic and element by element. Kept, tested, for the work that could change that.
//!
//! The threads take alternate heaps. Heap `m` needs the values of smaller heaps, but only two
//! of its options can involve heap `m - 1`, which the other thread may still be computing:
//! taking one token (leaving `m - 1`) and, when `k = 0`, the split into `1` and `m - 1`. So
//! a thread computes everything else for heap `m` while its partner finishes `m - 1`, then
//! waits for that one value, adds the two options and, if they change the candidate, carries
//! on searching. The values and the rare list are exactly those of the one-thread method.

use super::{RareCommon, ValueSet, value_bits};
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a thread waits for its partner's heap before both go back to one thread: waits
/// are a few microseconds when each thread has a core, a scheduler's time slice when they
/// share one with other work, which makes two threads far slower than one.
pub const PATIENCE: Duration = Duration::from_millis(2);

/// Whether `method` can go on on two threads.
pub(super) fn applies(method: &RareCommon) -> bool {
    let h = &method.heaps;
    h.two_heaps.len() == 1 && h.three_heaps.is_empty() && !method.naive_mode
}

struct Shared<'a> {
    values: Vec<AtomicU16>,
    /// Heaps `0..finished` are final.
    finished: AtomicUsize,
    /// The largest value so far (to size the option sets).
    max: AtomicU16,
    rare: RwLock<Vec<u32>>,
    method: &'a RareCommon,
    upto: usize,
    /// Give up on two threads after a wait this long (`None`: never).
    patience: Option<Duration>,
    /// Set when a thread lost patience: both stop after their current heap.
    given_up: AtomicBool,
    /// Set by a thread when it has stopped for good.
    stopped: AtomicBool,
}

impl Shared<'_> {
    /// Wait until heaps `0..count` are final; false if the partner stopped first.
    fn wait_for(&self, count: usize) -> bool {
        let mut spins = 0u32;
        let mut since: Option<Instant> = None;
        while self.finished.load(Ordering::Acquire) < count {
            if self.given_up.load(Ordering::Relaxed) && self.partner_stopped(count) {
                return false;
            }
            spins += 1;
            if spins % 1024 != 0 {
                std::hint::spin_loop();
                continue;
            }
            match self.patience {
                None => std::thread::yield_now(),
                Some(limit) => {
                    let start = *since.get_or_insert_with(Instant::now);
                    if start.elapsed() > limit {
                        self.given_up.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        true
    }

    /// Whether the heap before `count` will never come (its thread has stopped).
    fn partner_stopped(&self, count: usize) -> bool {
        self.stopped.load(Ordering::Acquire) && self.finished.load(Ordering::Acquire) < count
    }

    fn g(&self, i: usize) -> u16 {
        self.values[i].load(Ordering::Relaxed)
    }

    /// Compute heap `m`, given heaps `0..m - 1` (waiting for `m - 1` only at the end).
    /// Compute heap `m`; `None` when the two threads are given up before it is done.
    fn heap(&self, m: usize, set: &mut ValueSet) -> Option<u64> {
        if !self.wait_for(m - 1) {
            return None;
        }
        let h = &self.method.heaps;
        let mask = self.method.mask;
        let k = h.two_heaps[0];
        let unequal = h.unequal[0];
        let mut bits = value_bits(self.max.load(Ordering::Relaxed));
        set.clear(bits);
        for &w in &h.whole {
            if w == m && w > 0 {
                set.insert(0);
            }
        }
        let mut take_one = false;
        for &t in &h.one_heap {
            if t == 1 && m > 1 {
                take_one = true; // leaves m - 1: added once it is known
            } else if t >= 1 && t < m {
                set.insert(self.g(m - t));
            }
        }
        let mut steps = 0u64;
        let splits = m >= k + 2;
        let rest = m.saturating_sub(k);
        let half = if !splits {
            0
        } else if unequal {
            (rest - 1) / 2
        } else {
            rest / 2
        };
        // With k = 0 the split (1, m - 1) waits for heap m - 1 too.
        let split_one_later = splits && k == 0 && half >= 1;
        if splits {
            let rare = self
                .rare
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let count = rare.partition_point(|&r| (r as usize) < rest);
            steps += count as u64;
            for &r in &rare[..count] {
                let r = r as usize;
                let other = rest - r;
                if (unequal && r == other) || (split_one_later && (r == 1 || other == 1)) {
                    continue;
                }
                set.insert(self.g(r) ^ self.g(other));
            }
        }
        let mut rests = [false; 2];
        if splits {
            rests[rest & 1] = true;
        }
        let mut candidate = set.mex();
        let mut walked = usize::from(split_one_later); // part 1 comes later
        // As the one-thread walk: eight splits at a time, the candidate checked per eight.
        let walk = |walked: &mut usize, candidate: &mut u16, set: &mut ValueSet| {
            let start = *walked;
            while *walked < half && RareCommon::needs_search(mask, rests, *candidate) {
                let end = (*walked + 8).min(half);
                let mut hit = false;
                for a in *walked + 1..=end {
                    let option = self.g(a) ^ self.g(rest - a);
                    set.insert(option);
                    hit |= option == *candidate;
                }
                *walked = end;
                if hit {
                    *candidate = set.mex_from(*candidate);
                }
            }
            (*walked - start) as u64
        };
        steps += walk(&mut walked, &mut candidate, set);
        // Now heap m - 1.
        if !self.wait_for(m) {
            return None;
        }
        let last = self.g(m - 1);
        let mut late = Vec::with_capacity(2);
        if take_one {
            late.push(last);
        }
        if split_one_later {
            late.push(self.g(1) ^ last);
        }
        for option in late {
            let needed = value_bits(option);
            if needed > bits {
                set.widen(needed);
                bits = needed;
            }
            set.insert(option);
        }
        candidate = set.mex_from(candidate); // every value below it is still in the set
        if split_one_later {
            // The split (1, m - 1) is inserted; walk on from part 2 as the one thread would.
            walked = walked.max(1);
        }
        steps += walk(&mut walked, &mut candidate, set);
        if m > 0 && !self.method.common(candidate, m) {
            self.rare
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(m as u32);
        }
        self.values[m].store(candidate, Ordering::Relaxed);
        self.max.fetch_max(candidate, Ordering::Relaxed);
        self.finished.store(m + 1, Ordering::Release);
        Some(steps)
    }

    /// Heaps `first, first + 2, ...` up to `upto`.
    fn run(&self, first: usize, on_progress: Option<&dyn Fn(u64, u64)>) -> u64 {
        let mut set = ValueSet::new();
        let mut steps = 0;
        for m in (first..=self.upto).step_by(2) {
            if self.given_up.load(Ordering::Relaxed) && self.finished.load(Ordering::Acquire) < m {
                break; // the partner's heap m - 1 may never come
            }
            let Some(done) = self.heap(m, &mut set) else {
                break;
            };
            steps += done;
            if let Some(report) = on_progress
                && m % 4096 < 2
            {
                report(m as u64, self.upto as u64);
            }
        }
        self.stopped.store(true, Ordering::Release);
        steps
    }
}

impl RareCommon {
    /// Compute heaps up to `upto` on two threads (see the module), or as far as they get
    /// before one waits longer than `patience` for the other (the machine is busy); the
    /// values computed are kept and the caller goes on on one thread. False when the code or
    /// the state does not allow two threads, and nothing is done.
    pub fn extend_on_two_threads(
        &mut self,
        upto: usize,
        patience: Option<Duration>,
        on_progress: &dyn Fn(u64, u64),
    ) -> bool {
        let start = self.heaps.values.len();
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        if cores < 2 || !applies(self) || start < 4 || upto < start {
            return false;
        }
        let values: Vec<AtomicU16> = (0..=upto)
            .map(|i| AtomicU16::new(self.heaps.values.get(i).copied().unwrap_or(0)))
            .collect();
        let shared = Shared {
            values,
            finished: AtomicUsize::new(start),
            max: AtomicU16::new(self.heaps.max),
            rare: RwLock::new(std::mem::take(&mut self.rare)),
            method: self,
            upto,
            patience,
            given_up: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
        };
        let steps = std::thread::scope(|scope| {
            let partner = scope.spawn(|| shared.run(start + 1, None));
            let own = shared.run(start, Some(on_progress));
            own + partner.join().unwrap_or(0)
        });
        let finished = shared.finished.into_inner();
        let mut values: Vec<u16> = shared
            .values
            .into_iter()
            .map(AtomicU16::into_inner)
            .collect();
        values.truncate(finished);
        let max = shared.max.into_inner();
        let rare = shared
            .rare
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.search_steps += steps;
        self.rare = rare;
        self.heaps.max = max;
        self.heaps.values = values;
        true
    }
}
