//! A partizan game written in Python, valued by the library: `left_options(p)` and
//! `right_options(p)` give each side's moves as the positions they lead to, and an optional
//! `components(p)` splits a position into independent regions whose values add up.
//!
//! The valuer recurses once per move of a line of play, so it runs on a thread of its own
//! with a large stack and refuses lines deeper than [`MAX_DEPTH`]; it takes the GIL for each
//! call into the game only, so the calling thread can look for Ctrl-C between calls.

use super::{PyPosition, bug, noted};
use perfect_play::budget::Cancel;
use perfect_play::partizan::{
    GameTable, PartizanError, PartizanRules, Side as Player, Valuer, answer, notation,
};
use perfect_play::registry::QueryError;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The longest line of play followed (a level of recursion each).
pub const MAX_DEPTH: usize = 100_000;

/// The valuing thread's stack: room for [`MAX_DEPTH`] levels (reserved, not touched,
/// until the recursion goes that deep).
const STACK_BYTES: usize = 1 << 30;

/// Bytes an option listed by the game is counted at: the position object Python keeps (a
/// small tuple's 64 bytes), its key, and the valuer's entry when it is a region valued.
const BYTES_PER_OPTION: u64 = 160;

impl Clone for PyPosition {
    fn clone(&self) -> Self {
        Python::attach(|py| PyPosition {
            object: self.object.clone_ref(py),
            hash: self.hash,
        })
    }
}

/// The game's methods, and the first error any of them raised.
struct PyRules {
    left: Py<PyAny>,
    right: Py<PyAny>,
    components: Option<Py<PyAny>>,
    /// The first exception a method raised (the valuer's rules cannot return one): once
    /// set, every position has no options and the cancel flag stops the valuer.
    failure: Mutex<Option<PyErr>>,
    cancel: Cancel,
    listed: AtomicU64,
    max_listed: u64,
    memory: u64,
}

impl PyRules {
    fn fail(&self, error: PyErr) {
        let mut slot = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slot.get_or_insert(error);
        self.cancel.cancel();
    }

    fn failed(&self) -> bool {
        self.failure.lock().map_or(true, |slot| slot.is_some())
    }

    /// The positions `method` lists from `position`, keyed by their hash.
    fn list(&self, method: &Py<PyAny>, name: &str, position: &PyPosition) -> Vec<PyPosition> {
        // Once stopped (an error, Ctrl-C), the game is not called again: the valuer runs
        // out quickly to its next look at the cancel flag.
        if self.failed() || self.cancel.is_cancelled() {
            return Vec::new();
        }
        Python::attach(|py| {
            let listed = (|| -> PyResult<Vec<PyPosition>> {
                let at = position.object.bind(py);
                let options = method
                    .bind(py)
                    .call1((at,))
                    .map_err(|e| noted(py, e, name, at))?;
                let mut out = Vec::new();
                for option in options.try_iter().map_err(|e| noted(py, e, name, at))? {
                    let option = option.map_err(|e| noted(py, e, name, at))?;
                    let hash = option.hash().map_err(|e| noted(py, e, "hash", &option))?;
                    out.push(PyPosition {
                        object: option.unbind(),
                        hash,
                    });
                    let total = self.listed.fetch_add(1, Ordering::Relaxed) + 1;
                    if total > self.max_listed {
                        return Err(super::OverBudget::new_err(format!(
                            "the game lists more than {} options in all ({BYTES_PER_OPTION} bytes each), past the memory limit of {}: raise memory_limit, or value a smaller position",
                            self.max_listed,
                            perfect_play::parse::human_size(self.memory)
                        )));
                    }
                }
                Ok(out)
            })();
            listed.unwrap_or_else(|e| {
                self.fail(e);
                Vec::new()
            })
        })
    }
}

impl PartizanRules for PyRules {
    type Position = PyPosition;

    fn options(&self, position: &PyPosition, side: Player) -> Vec<PyPosition> {
        match side {
            Player::Left => self.list(&self.left, "left_options", position),
            Player::Right => self.list(&self.right, "right_options", position),
        }
    }

    fn components(&self, position: &PyPosition) -> Vec<PyPosition> {
        match &self.components {
            Some(method) => self.list(method, "components", position),
            None => vec![position.clone()],
        }
    }
}

/// One move of one side: the position it leads to, that position's value, whether it wins.
type Listed = Vec<(PyPosition, String, bool)>;

/// What the valuing thread found: the report as JSON, each side's moves.
struct Found {
    report: serde_json::Value,
    left: Listed,
    right: Listed,
    regions: usize,
}

fn value_error(e: PartizanError) -> PyErr {
    match e {
        e @ PartizanError::TooManyGames { .. } => super::OverBudget::new_err(e.to_string()),
        e => super::query_error(QueryError::from(e)),
    }
}

/// Runs `work` on a thread of its own with a large stack while this thread, the GIL
/// released, looks for Ctrl-C every 20 ms: a signal raises `cancel`, and its exception is
/// raised once the work has stopped. The work takes the GIL for each call into the game, so
/// this thread waits for it with the GIL released, on a signal too.
fn value_on_a_thread(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> PyResult<Found> + Send,
) -> PyResult<Found> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("perfect-play partizan".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, work)
            .map_err(|e| {
                super::OverBudget::new_err(format!("no thread to value the game on: {e}"))
            })?;
        let mut signal = None;
        loop {
            let done = py.detach(|| {
                let deadline = std::time::Instant::now() + Duration::from_millis(20);
                while !worker.is_finished() && std::time::Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(1));
                }
                worker.is_finished()
            });
            if done {
                break;
            }
            if signal.is_none()
                && let Err(e) = py.check_signals()
            {
                cancel.cancel();
                signal = Some(e);
            }
        }
        let found = worker.join().map_err(|_| bug())?;
        match signal {
            Some(e) => Err(e),
            None => found,
        }
    })
}

/// Values `position` and every move from it, on the calling thread (the valuing thread).
fn find(
    rules: PyRules,
    position: PyPosition,
    to_move: Player,
    memory: u64,
) -> Result<Found, PyErr> {
    let cancel = rules.cancel.clone();
    let mut games = GameTable::with_limit(answer::forms_within(memory / 2));
    let mut valuer = Valuer::with_cancel(rules, cancel).with_max_depth(MAX_DEPTH);
    let valued = (|| -> Result<Found, PartizanError> {
        let g = valuer.value(&mut games, &position)?;
        let report = answer::report(&mut games, g, to_move)?.to_json();
        let mut sides = [Vec::new(), Vec::new()];
        for (i, side) in [Player::Left, Player::Right].into_iter().enumerate() {
            let options = valuer.rules().options(&position, side);
            for option in options {
                let o = valuer.value(&mut games, &option)?;
                let wins = !games.outcome(o).first_player_wins(side.other());
                sides[i].push((option, notation::show(&mut games, o), wins));
            }
        }
        let [left, right] = sides;
        Ok(Found {
            report,
            left,
            right,
            regions: valuer.regions_known(),
        })
    })();
    // The game's own exception first: the valuer's error (cancelled, a value of positions
    // with no options) follows from it.
    let failure = valuer
        .rules()
        .failure
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(e) = failure {
        return Err(e);
    }
    super::eq_error()?;
    valued.map_err(value_error)
}

fn side_of(to_move: &str) -> PyResult<Player> {
    match to_move {
        "left" => Ok(Player::Left),
        "right" => Ok(Player::Right),
        other => Err(PyValueError::new_err(format!(
            "to_move={}: use left or right",
            perfect_play::parse::shorten(other)
        ))),
    }
}

fn moves_list<'py>(py: Python<'py>, listed: Listed) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for (position, value, wins) in listed {
        let d = PyDict::new(py);
        d.set_item("position", position.object.bind(py))?;
        d.set_item("value", value)?;
        d.set_item("wins", wins)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The value of a position of a partizan game written in Python: `game.left_options(p)`
/// and `game.right_options(p)` list the positions each side can move to (hashable, compared
/// by `==`); `game.components(p)`, if the game has it, splits a position into independent
/// regions. The answer is `cgt`'s, with `left_moves` and `right_moves`: each option's
/// position, value and whether it wins for the side that moves there.
#[pyfunction]
#[pyo3(signature = (game, position, to_move = "left", memory_limit = None))]
pub fn value_of(
    py: Python<'_>,
    game: Bound<'_, PyAny>,
    position: Bound<'_, PyAny>,
    to_move: &str,
    memory_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let to_move = side_of(to_move)?;
    let memory = super::memory_limit(memory_limit)?;
    let method = |name: &str| -> PyResult<Py<PyAny>> {
        game.getattr(name).map(Bound::unbind).map_err(|_| {
            PyValueError::new_err(format!(
                "the game has no {name}(position) method: a partizan game lists left_options(position) and right_options(position), the positions each side can move to"
            ))
        })
    };
    let components = if game.hasattr(intern!(py, "components"))? {
        Some(method("components")?)
    } else {
        None
    };
    let cancel = Cancel::new();
    let rules = PyRules {
        left: method("left_options")?,
        right: method("right_options")?,
        components,
        failure: Mutex::new(None),
        cancel: cancel.clone(),
        listed: AtomicU64::new(0),
        max_listed: (memory / 2) / BYTES_PER_OPTION,
        memory,
    };
    let hash = position.hash()?;
    let start = PyPosition {
        object: position.unbind(),
        hash,
    };
    let found = value_on_a_thread(py, &cancel, move || find(rules, start, to_move, memory))?;
    let report = pythonize::pythonize(py, &found.report).map_err(|e| {
        pyo3::exceptions::PyRuntimeError::new_err(format!("the answer as a dict: {e}"))
    })?;
    let report = report.cast_into::<PyDict>().map_err(|_| bug())?;
    report.set_item("left_moves", moves_list(py, found.left)?)?;
    report.set_item("right_moves", moves_list(py, found.right)?)?;
    report.set_item("regions_valued", found.regions)?;
    Ok(report.into_any().unbind())
}
