//! What one answer may spend: memory, time, a cancellation flag and a small mode for fuzzing,
//! and the refusal when the estimated time is above the budget.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What an answer may spend, from `--memory-limit` and the caller's time budget (the default:
/// each game's own limits, no time budget).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// The memory limit in bytes, when given.
    pub memory_limit: Option<u64>,
    /// Clamp every limit to a small budget (the fuzz targets' mode: any input answers fast).
    pub small: bool,
    /// Seconds one answer may take (the server's per-request budget): work estimated above it
    /// is refused with [`OverBudget`] before it starts. None: no time budget.
    pub seconds: Option<f64>,
    /// Raised by another thread to stop the work (a client gone, Ctrl-C, the budget's
    /// deadline): every long solver checks it and ends with [`Cancelled`] within a second.
    pub cancel: Cancel,
    /// Asked before work with an estimate starts (the server's lane for long answers).
    /// None: every estimate is admitted.
    pub admission: Option<Arc<dyn Admission>>,
    /// Told how far long work has gone, for a front end's progress display. None: nobody
    /// is shown.
    pub progress: Option<Progress>,
}

/// A front end's progress display: called now and then by long work with what it counts
/// and the count so far (`"regions valued", 4096`).
#[derive(Clone)]
pub struct Progress(pub Arc<ProgressFn>);

/// What a [`Progress`] calls: what is counted, and the count.
pub type ProgressFn = dyn Fn(&str, u64) + Send + Sync;

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

impl Progress {
    /// Tells the display `count` of `what`.
    pub fn report(&self, what: &str, count: u64) {
        (self.0)(what, count);
    }
}

/// Who decides whether work may start now, from its estimated time: a server keeps long
/// answers in a lane of their own, so that they wait their turn (or are turned away) instead
/// of taking every core from the quick ones.
pub trait Admission: Send + Sync + std::fmt::Debug {
    /// Called once the work's estimate (`seconds`) is known and every refusal is past, right
    /// before the work: returns when it may start (perhaps after waiting for room), or the
    /// refusal when there is none.
    ///
    /// # Errors
    /// [`Busy`] when the work cannot be admitted.
    fn admit(&self, seconds: f64) -> Result<(), Busy>;
}

/// Long work turned away for now: every place for it is taken.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "the server is busy with {running} long answer(s) and {waiting} waiting; this one (about {estimate:.1} s) would wait past its budget; try again in {retry_after} s"
)]
pub struct Busy {
    /// Long answers running.
    pub running: usize,
    /// Long answers waiting for room.
    pub waiting: usize,
    /// This one's estimate, in seconds.
    pub estimate: f64,
    /// Seconds after which room is likely.
    pub retry_after: u64,
}

/// A flag another thread raises to stop work that is under way. Clones share the flag.
///
/// Each long loop of the library (the engine's passes, octal values, Can I Win's bit passes,
/// a sum's values, the Stone Game's diagonals, the subtraction period search, the misère
/// searches) checks it often enough to stop within a second of it being raised, and returns
/// [`Cancelled`]. Deadlines are the caller's: a timer that raises the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not raised yet.
    #[must_use]
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Raise the flag: the work sharing it stops.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once the flag is raised: for `?` in a long loop.
    ///
    /// # Errors
    /// [`Cancelled`] when the flag is raised.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_cancelled() {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }
}

impl PartialEq for Cancel {
    /// Two handles are equal when they share one flag.
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// Work stopped because its [`Cancel`] flag was raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the work was cancelled before it finished")]
pub struct Cancelled;

/// A query refused before any work because its estimated time is above the time budget.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "{what} would take {} {}, above the budget of {budget:.1} s an answer; ask the perfect-play command instead",
    if *at_least { "more than" } else { "about" },
    crate::parse::human_seconds(*estimate)
)]
pub struct OverBudget {
    /// What would take the time.
    pub what: String,
    /// The estimate, in seconds.
    pub estimate: f64,
    /// Whether the estimate is only a lower bound (work stopped at the budget).
    pub at_least: bool,
    /// The budget, in seconds.
    pub budget: f64,
}

impl Budget {
    /// The memory limit for work whose default is `default`.
    #[must_use]
    pub fn memory(&self, default: u64) -> u64 {
        let limit = self.memory_limit.unwrap_or(default);
        if self.small {
            limit.min(64 << 10)
        } else {
            limit
        }
    }

    /// `value`, or `small` when the budget is small and `value` is larger.
    pub fn cap<T: Ord>(&self, value: T, small: T) -> T {
        if self.small { value.min(small) } else { value }
    }

    /// Refuse work estimated at `estimate` seconds when it is above the time budget.
    ///
    /// # Errors
    /// [`OverBudget`] with the estimate.
    pub fn check_time(
        &self,
        what: impl FnOnce() -> String,
        estimate: f64,
    ) -> Result<(), OverBudget> {
        match self.seconds {
            Some(budget) if estimate > budget => Err(OverBudget {
                what: what(),
                estimate,
                at_least: false,
                budget,
            }),
            _ => Ok(()),
        }
    }

    /// Ask the admission (if any) to start work estimated at `seconds`; call it after every
    /// refusal and right before the work.
    ///
    /// # Errors
    /// [`Busy`] from the admission.
    pub fn admit(&self, seconds: f64) -> Result<(), Busy> {
        match &self.admission {
            Some(admission) => admission.admit(seconds),
            None => Ok(()),
        }
    }

    /// How many items costing `seconds_each` fit in the time budget (None: no time budget).
    #[must_use]
    pub fn affordable(&self, seconds_each: f64) -> Option<u64> {
        self.seconds.map(|budget| (budget / seconds_each) as u64)
    }

    /// `limit`, lowered to what the time budget affords at `seconds_each` an item.
    #[must_use]
    pub fn limit_by_time(&self, limit: u64, seconds_each: f64) -> u64 {
        self.affordable(seconds_each)
            .map_or(limit, |a| limit.min(a.max(1)))
    }

    /// The refusal for work that stopped at the time budget's cap: `what` needs more than it.
    #[must_use]
    pub fn stopped_at_cap(&self, what: String) -> OverBudget {
        let budget = self.seconds.unwrap_or(0.0);
        OverBudget {
            what,
            estimate: budget,
            at_least: true,
            budget,
        }
    }
}

#[cfg(test)]
mod tests {
    //! Every long solver stops within a second of its flag being raised. Each runs on an input
    //! that takes far longer than the wait before the flag (seconds to minutes), so a solver
    //! that ignored the flag would finish or run on, and fail the test.

    use super::*;
    use std::time::{Duration, Instant};

    /// Run `work` on its own thread, raise its flag after `after`, and return what it
    /// returned, asserting it returned within a second of the flag.
    fn raised_after<T: Send>(after: Duration, work: impl FnOnce(&Cancel) -> T + Send) -> T {
        let cancel = Cancel::new();
        std::thread::scope(|scope| {
            let flag = cancel.clone();
            let worker = scope.spawn(move || {
                let result = work(&flag);
                (result, Instant::now())
            });
            std::thread::sleep(after);
            let raised = Instant::now();
            cancel.cancel();
            let (result, ended) = worker.join().expect("the solver does not panic");
            let late = ended.saturating_duration_since(raised);
            assert!(
                late < Duration::from_secs(1),
                "stopped {late:?} after the flag"
            );
            result
        })
    }

    const SOON: Duration = Duration::from_millis(200);

    #[test]
    fn the_engine_stops_inside_a_tier() {
        // Quixo 4x4: 12 s of solve on two cores.
        let game = crate::games::quixo::Quixo::new(4).unwrap();
        let result = raised_after(SOON, |cancel| {
            let options = crate::engine::Options {
                cancel: cancel.clone(),
                ..crate::engine::Options::default()
            };
            crate::engine::solve(&game, &options, &|_| {})
        });
        assert!(
            matches!(result, Err(crate::engine::EngineError::Cancelled(_))),
            "{:?}",
            result.map(|s| s.positions)
        );
    }

    #[test]
    fn octal_values_stop_at_the_next_heap() {
        use crate::octal::{GrundySequence, OctalError, Options};
        // Officers (0.6) has no known period: 10^8 heaps is minutes of work.
        let code = "0.6".parse().unwrap();
        let options = Options {
            upto: 100_000_000,
            full: true,
            ..Options::default()
        };
        let result = raised_after(SOON, |cancel| {
            GrundySequence::compute_resumable(&code, &options, None, cancel, &|_, _| {})
        });
        assert!(
            matches!(result, Err(OctalError::Cancelled(_))),
            "{:?}",
            result.map(|s| s.values.len())
        );
    }

    #[test]
    fn the_misere_searches_stop() {
        // Misère Kayles on 30 30 30: millions of positions, minutes of search.
        let code = "0.77".parse().unwrap();
        let result = raised_after(SOON, |cancel| {
            crate::octal::analyse_misere(&code, &[30, 30, 30], usize::MAX, cancel)
        });
        assert!(
            matches!(result, Err(crate::octal::OctalError::Cancelled(_))),
            "{result:?}"
        );
        // The same search over a sum of heap games.
        let components: Vec<crate::impartial::Component> = ["0.77:30", "0.77:30", "0.77:30"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let result = raised_after(SOON, |cancel| {
            let limits = crate::impartial::Limits {
                max_misere_states: usize::MAX,
                cancel: cancel.clone(),
                ..crate::impartial::Limits::default()
            };
            crate::impartial::analyse_misere(&components, &limits)
        });
        assert!(
            matches!(result, Err(crate::impartial::ImpartialError::Cancelled(_))),
            "{result:?}"
        );
    }

    #[test]
    fn can_i_win_stops_between_tiles() {
        use crate::can_i_win::{self, CanIWin, CanIWinError, Method, Options, Pool};
        // 34 numbers by the bit table: 2 GiB a set, many seconds of passes; and the search's
        // memo on 40 numbers (3.3 s here), far past any table.
        for (max, target, method) in [(34, 300, Method::BitTable), (40, 150, Method::Search)] {
            let pool = Pool::up_to(max).unwrap();
            let query = CanIWin {
                pool,
                target,
                misere: false,
            };
            let result = raised_after(SOON, |cancel| {
                let options = Options {
                    method,
                    memory_limit: 8 << 30,
                    cancel: cancel.clone(),
                    ..Options::default()
                };
                can_i_win::analyse(&query, &options)
            });
            assert!(
                matches!(result, Err(CanIWinError::Cancelled(_))),
                "{max} numbers by {method:?}: {:?}",
                result.map(|a| a.outcome)
            );
        }
    }

    #[test]
    fn rule_set_values_stop() {
        use crate::impartial::rule::{self, SetRule};
        // Subtract-a-square to 10^7 (by the mex) and subtract-a-prime to 10^6 (by bitsets):
        // each over ten seconds.
        for (rule, upto) in [(SetRule::Squares, 10_000_000), (SetRule::Primes, 1_000_000)] {
            let result = raised_after(SOON, |cancel| rule::values(rule, upto, cancel, &|_, _| {}));
            assert_eq!(result.map(|v| v.len()), Err(Cancelled), "{rule:?}");
        }
    }

    #[test]
    fn a_sums_values_stop() {
        use crate::impartial::{HeapGame, ImpartialError, Limits, Values};
        let squares = HeapGame::Rule(crate::impartial::rule::SetRule::Squares);
        let result = raised_after(SOON, |cancel| {
            let limits = Limits {
                cancel: cancel.clone(),
                ..Limits::default()
            };
            Values::compute(&squares, 10_000_000, &limits, &|_, _| {})
        });
        assert!(
            matches!(result, Err(ImpartialError::Cancelled(_))),
            "{:?}",
            result.map(|v| v.values.len())
        );
    }

    #[test]
    fn the_stone_games_diagonals_stop() {
        use crate::take_ends::{self, Options, TakeEndsError};
        // 200,000 piles: about 14 s of diagonals.
        let row: Vec<i64> = (0..200_000).map(|i| (i * 7919) % 1000).collect();
        let result = raised_after(SOON, |cancel| {
            let options = Options {
                cancel: cancel.clone(),
                ..Options::default()
            };
            take_ends::analyse(&row, &options)
        });
        assert!(
            matches!(result, Err(TakeEndsError::Cancelled(_))),
            "{:?}",
            result.map(|a| a.margin)
        );
    }

    #[test]
    fn the_subtraction_period_searches_stop() {
        use crate::subtraction::{Limits, Rule, Sequence, SubtractionError, SubtractionSet};
        // The general search on 64 moves near 3 * 10^7 (a proof needs at least 9 * 10^7
        // values: seconds), and the {1, x, y} stream with y near 10^8.
        let sixty_four: Vec<u64> = (29_999_936..=29_999_999).collect();
        for set in [
            SubtractionSet::new(&sixty_four).unwrap(),
            SubtractionSet::coin_game(99_999_971, 99_999_989).unwrap(),
        ] {
            let result = raised_after(SOON, |cancel| {
                let limits = Limits {
                    cancel: cancel.clone(),
                    ..Limits::default()
                };
                Sequence::compute(&set, Rule::Normal, &limits)
            });
            assert!(
                matches!(result, Err(SubtractionError::Cancelled(_))),
                "{set:?}: {:?}",
                result.map(|s| s.period)
            );
        }
    }

    #[test]
    fn a_flag_raised_before_the_start_stops_the_registrys_answer() {
        use crate::registry::{self, QueryError};
        let budget = Budget::default();
        budget.cancel.cancel();
        // Each family's work looks at the flag before its first result.
        for (game, position) in [
            ("octal", "0.6 100000"),
            ("stones", &"5 ".repeat(50_000)[..]),
            ("coins", "1000000000 99999971 99999989"),
            ("can-i-win", "30 200"),
            ("quixo", ""),
        ] {
            let info = registry::find(game).unwrap();
            let params = info.params_from(&[]).unwrap();
            let result = info.answer(&params, position, &budget);
            assert!(
                matches!(result, Err(QueryError::Cancelled(_))),
                "{game} {position:.20}: {:?}",
                result.map(|a| a.outcome)
            );
        }
    }
}
