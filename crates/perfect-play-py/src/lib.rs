//! The Python face of perfect-play (`perfect_play._native`; the package `perfect_play` wraps
//! it in typed functions). A thin front end: the registry answers queries, the graph module
//! numbers and solves games written in Python, the engine does the work with the GIL released.

use indicatif::{ProgressBar, ProgressStyle};
use perfect_play::budget::{Budget, Cancel};
use perfect_play::engine::{self, Options, Record};
use perfect_play::graph::hashed::{self, ExploreError, Numbered};
use perfect_play::graph::text::NamedGraph;
use perfect_play::graph::{Finished, GraphError, GraphSolution};
use perfect_play::impartial::{HeapGame, Values};
use perfect_play::registry::{self, EngineGame, MoveName, PositionAnswer, QueryError};
use perfect_play::{Ending, Outcome, Transition};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::hash::{Hash, Hasher};
use std::time::Duration;

mod partizan;
mod quick;

create_exception!(
    _native,
    OverBudget,
    PyRuntimeError,
    "Work refused because it would pass a limit: the message carries the figure."
);

/// Memory a query or solve may use when the caller gives no limit.
const DEFAULT_MEMORY: u64 = 2 << 30;

/// Bytes one move of a Python game holds while its position's moves are listed: the step,
/// the position object it leads to (a small tuple's 64 bytes) and its key.
const BYTES_PER_MOVE_FOUND: u64 = 128;

fn memory_limit(limit: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    Ok(given_memory_limit(limit)?.unwrap_or(DEFAULT_MEMORY))
}

/// The memory limit a call was given, if any (`query` then leaves each game its own
/// default, as the command line does).
fn given_memory_limit(limit: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(limit) = limit.filter(|l| !l.is_none()) else {
        return Ok(None);
    };
    if let Ok(bytes) = limit.extract::<u64>() {
        return Ok(Some(bytes));
    }
    let text: String = limit.extract().map_err(|_| {
        PyValueError::new_err("memory_limit: expected a number of bytes or a size such as \"2G\"")
    })?;
    perfect_play::parse::size(&text)
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("memory_limit: {e}")))
}

/// The budget of a call from Python: its memory limit, no time limit (Ctrl-C stops it).
fn budget(memory: Option<u64>, cancel: &Cancel) -> Budget {
    Budget {
        memory_limit: memory,
        small: false,
        seconds: None,
        cancel: cancel.clone(),
        admission: None,
        progress: None,
    }
}

/// Run `work` on the engine's thread pool with the GIL released, looking for Ctrl-C (or any
/// pending signal's exception) every 20 ms: a signal raises `cancel` and its exception once
/// the work has stopped. Python runs signal handlers only on its main thread and with the GIL,
/// so this thread waits (woken the moment the work ends) and looks; the pool's threads are
/// already running, so quick work costs no thread start.
fn run_cancellable<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    // The work's result, or its panic caught: a panic left uncaught would leave this thread
    // waiting for a result that never comes.
    type Slot<T> = (
        std::sync::Mutex<Option<std::thread::Result<T>>>,
        std::sync::Condvar,
    );
    let slot: Slot<T> = Default::default();
    let slot = &slot;
    rayon::in_place_scope(|scope| {
        scope.spawn(move |_| {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            *slot
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(result);
            slot.1.notify_all();
        });
        loop {
            let result = py.detach(|| {
                let guard = slot
                    .0
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let (mut guard, _) = slot
                    .1
                    .wait_timeout_while(guard, Duration::from_millis(20), |r| r.is_none())
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                guard.take()
            });
            match result {
                Some(Ok(result)) => return Ok(result),
                Some(Err(_)) => return Err(bug()),
                None => {}
            }
            if let Err(signal) = py.check_signals() {
                cancel.cancel();
                return Err(signal);
            }
        }
    })
}

fn query_error(e: QueryError) -> PyErr {
    match e {
        QueryError::BadInput(message) => PyValueError::new_err(message),
        QueryError::OverBudget(o) => OverBudget::new_err(o.to_string()),
        QueryError::OverMemory(message) | QueryError::Unfinished(message) => {
            OverBudget::new_err(message)
        }
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

fn graph_error(e: GraphError) -> PyErr {
    match e {
        e @ (GraphError::OverMemory { .. } | GraphError::TooManyPositions) => {
            OverBudget::new_err(e.to_string())
        }
        GraphError::Engine(e @ engine::EngineError::OverMemory { .. }) => {
            OverBudget::new_err(e.to_string())
        }
        e => PyValueError::new_err(e.to_string()),
    }
}

/// The registry's game of that name (one the engine solves whole when `engine_only`) and its
/// parameters checked; a `ValueError` naming the games accepted otherwise.
fn game_and_params(
    game: &str,
    params: &[(String, String)],
    engine_only: bool,
) -> PyResult<(&'static registry::GameInfo, registry::Params)> {
    let info = registry::find(game)
        .filter(|g| !engine_only || g.engine.is_some())
        .ok_or_else(|| {
            let known: Vec<&str> = registry::GAMES
                .iter()
                .filter(|g| !engine_only || g.engine.is_some())
                .map(|g| g.name)
                .collect();
            let shown = perfect_play::parse::shorten(game);
            let known = known.join(", ");
            PyValueError::new_err(if engine_only {
                format!("{shown:?} is not a game the engine solves whole: expected one of {known}")
            } else {
                format!("unknown game {shown:?}: expected one of {known}")
            })
        })?;
    let checked = info
        .params_from(params)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((info, checked))
}

/// The answer of `perfect-play GAME ... --json` and of the HTTP API, as the same object
/// (a dict; built from the answer directly, no JSON text between).
#[pyfunction]
#[pyo3(signature = (game, position = None, params = Vec::new(), memory_limit = None))]
fn query(
    py: Python<'_>,
    game: &str,
    position: Option<&str>,
    params: Vec<(String, String)>,
    memory_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let (info, checked) = game_and_params(game, &params, false)?;
    let memory = given_memory_limit(memory_limit)?;
    let position = position.unwrap_or("");
    let answer = quick_first(py, memory, |budget| info.answer(&checked, position, budget))?;
    Ok(pythonize::pythonize(py, &answer)
        .map_err(|e| PyRuntimeError::new_err(format!("perfect-play's answer as a dict: {e}")))?
        .unbind())
}

/// Run a registry answer on the calling thread when it is quick (the engine's thread pool
/// otherwise, through [`run_cancellable`]): handing quick work to another thread and waking
/// on its result costs more than the work (a 12 us answer took 34 us that way).
///
/// Quick means an estimate under [`quick::QUICK_SECONDS`] (the answer asks its budget's
/// admission before long work) or none, and finished within [`quick::INLINE_SECONDS`]: past
/// that the watchdog raises the attempt's flag, and the work starts again on the pool, where
/// Ctrl-C is looked for. So Ctrl-C is seen within a second either way, and an answer
/// estimated long never starts here.
fn quick_first<T: Send>(
    py: Python<'_>,
    memory: Option<u64>,
    work: impl Fn(&Budget) -> Result<T, QueryError> + Sync,
) -> PyResult<T> {
    if let Some(watch) = quick::Watch::start() {
        let attempt = Budget {
            admission: Some(std::sync::Arc::new(quick::QuickOnly)),
            progress: None,
            ..budget(memory, watch.cancel())
        };
        let first =
            py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&attempt))));
        let overran = watch.cancel().is_cancelled();
        drop(watch);
        py.check_signals()?;
        match first {
            Ok(Ok(answer)) => return Ok(answer),
            // Estimated long (the admission said so), or past the watchdog's limit.
            Ok(Err(QueryError::Busy(_))) => {}
            Ok(Err(_)) if overran => {}
            Ok(Err(e)) => return Err(query_error(e)),
            Err(_) => return Err(bug()),
        }
    }
    let cancel = Cancel::new();
    let budget = budget(memory, &cancel);
    run_cancellable(py, &cancel, || work(&budget))?.map_err(query_error)
}

/// For the tests of [`quick_first`]: work of `seconds` with no estimate, stopping within a
/// millisecond of its flag; whether it finished on the calling thread.
#[pyfunction]
fn _quick_first_probe(py: Python<'_>, seconds: f64) -> PyResult<bool> {
    let caller = std::thread::current().id();
    let length = Duration::try_from_secs_f64(seconds)
        .map_err(|e| PyValueError::new_err(format!("seconds: {e}")))?;
    quick_first(py, None, |budget| {
        let started = std::time::Instant::now();
        while started.elapsed() < length {
            budget.cancel.check()?;
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(std::thread::current().id() == caller)
    })
}

/// The error for a panic caught inside.
fn bug() -> PyErr {
    PyRuntimeError::new_err("perfect-play failed inside (a bug: please report the call)")
}

/// A partizan value in CGSuite's notation: what `perfect-play cgt VALUE --json` prints (the
/// canonical form, who wins, stops, temperature, mean, thermograph, reduced form, options,
/// incentives, atomic weight), cooled, heated or compared when asked.
#[pyfunction]
#[pyo3(signature = (value, to_move = "left", cool = None, heat = None, compare = None, memory_limit = None))]
fn cgt(
    py: Python<'_>,
    value: &str,
    to_move: &str,
    cool: Option<&str>,
    heat: Option<&str>,
    compare: Option<&str>,
    memory_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    use perfect_play::partizan::{Side as Player, answer};
    let player = match to_move {
        "left" => Player::Left,
        "right" => Player::Right,
        other => {
            return Err(PyValueError::new_err(format!(
                "to_move={}: use left or right",
                perfect_play::parse::shorten(other)
            )));
        }
    };
    if cool.is_some() && heat.is_some() {
        return Err(PyValueError::new_err("give cool or heat, not both"));
    }
    let memory = given_memory_limit(memory_limit)?.unwrap_or(1 << 30);
    let request = answer::Request {
        cool,
        heat,
        compare,
    };
    let report = py
        .detach(|| answer::evaluate_request(value, player, answer::forms_within(memory), request))
        .map_err(|e| query_error(QueryError::from(e)))?;
    Ok(pythonize::pythonize(py, &report.to_json())
        .map_err(|e| PyRuntimeError::new_err(format!("perfect-play's answer as a dict: {e}")))?
        .unbind())
}

/// The names of the registry's games.
#[pyfunction]
fn games() -> Vec<&'static str> {
    registry::GAMES.iter().map(|g| g.name).collect()
}

/// A position of a game written in Python: the object and its hash, compared by Python's
/// `==` (called with the GIL, which every caller holds).
struct PyPosition {
    object: Py<PyAny>,
    hash: isize,
}

impl Hash for PyPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash.hash(state);
    }
}

thread_local! {
    /// The first exception a position's `__eq__` raised while the engine's hash table
    /// compared positions (`PartialEq` cannot return it): raised once the look-up is over.
    static EQ_ERROR: std::cell::RefCell<Option<PyErr>> = const { std::cell::RefCell::new(None) };
}

/// The exception a position's `__eq__` raised since the last look, if any.
fn eq_error() -> PyResult<()> {
    match EQ_ERROR.with(|slot| slot.borrow_mut().take()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

impl PartialEq for PyPosition {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
            && (self.object.is(&other.object)
                || Python::attach(|py| {
                    self.object
                        .bind(py)
                        .eq(other.object.bind(py))
                        .unwrap_or_else(|e| {
                            EQ_ERROR.with(|slot| {
                                slot.borrow_mut().get_or_insert(e);
                            });
                            false
                        })
                }))
    }
}

impl Eq for PyPosition {}

/// The user's exception, with the position and method that raised it noted.
fn noted(py: Python<'_>, error: PyErr, method: &str, position: &Bound<'_, PyAny>) -> PyErr {
    let shown = position
        .repr()
        .map(|r| perfect_play::parse::shorten(&r.to_string_lossy()))
        .unwrap_or_else(|_| "?".into());
    let note = format!("raised by {method}() at position {shown}");
    let value = error.value(py);
    if value.hasattr(intern!(py, "add_note")).unwrap_or(false) {
        let _ = value.call_method1(intern!(py, "add_note"), (note,));
    } else {
        // Before CPython 3.11 (no add_note): the attribute PEP 678 names, which the
        // exceptiongroup backport prints and a caller can read.
        let notes = intern!(py, "__notes__");
        match value.getattr(notes) {
            Ok(list) => {
                let _ = list.call_method1(intern!(py, "append"), (note,));
            }
            Err(_) => {
                let _ = value.setattr(notes, vec![note]);
            }
        }
    }
    error
}

/// The game's methods, looked up once.
struct Methods<'py> {
    result: Bound<'py, PyAny>,
    moves: Bound<'py, PyAny>,
    play: Bound<'py, PyAny>,
    canonical: Option<Bound<'py, PyAny>>,
}

impl<'py> Methods<'py> {
    fn of(game: &Bound<'py, PyAny>) -> PyResult<Methods<'py>> {
        let py = game.py();
        let canonical = if game.hasattr(intern!(py, "canonical"))? {
            Some(game.getattr(intern!(py, "canonical"))?)
        } else {
            None
        };
        Ok(Methods {
            result: game.getattr(intern!(py, "result"))?,
            moves: game.getattr(intern!(py, "moves"))?,
            play: game.getattr(intern!(py, "play"))?,
            canonical,
        })
    }

    /// The position as it is kept: its class's representative when the game names one.
    fn key(&self, position: Bound<'py, PyAny>) -> PyResult<PyPosition> {
        let py = position.py();
        let position = match &self.canonical {
            Some(canonical) => canonical
                .call1((&position,))
                .map_err(|e| noted(py, e, "canonical", &position))?,
            None => position,
        };
        let hash = position
            .hash()
            .map_err(|e| noted(py, e, "hash", &position))?;
        Ok(PyPosition {
            object: position.unbind(),
            hash,
        })
    }

    /// The result of a finished position, `None` while the game goes on.
    fn result(&self, position: &Bound<'py, PyAny>) -> PyResult<Option<Finished>> {
        let py = position.py();
        let result = self
            .result
            .call1((position,))
            .map_err(|e| noted(py, e, "result", position))?;
        if result.is_none() {
            return Ok(None);
        }
        let word: Option<String> = result.extract().ok();
        word.as_deref()
            .and_then(Finished::from_word)
            .map(Some)
            .ok_or_else(|| {
                let shown = result.repr().map(|r| r.to_string()).unwrap_or_default();
                noted(
                    py,
                    PyValueError::new_err(format!(
                        "result() returned {}: expected None, \"win\", \"loss\" or \"tie\"",
                        perfect_play::parse::shorten(&shown)
                    )),
                    "result",
                    position,
                )
            })
    }
}

fn ending_of(finished: Finished) -> Ending {
    match finished {
        Finished::Win => Ending::Win,
        Finished::Loss => Ending::Loss,
        Finished::Tie => Ending::Draw,
    }
}

fn value_dict<'py>(py: Python<'py>, record: Record) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let outcome = record.outcome().unwrap_or(Outcome::Draw);
    dict.set_item("outcome", outcome_word(outcome))?;
    dict.set_item(
        "remoteness",
        match outcome {
            Outcome::Draw => None,
            _ => record.remoteness(),
        },
    )?;
    Ok(dict)
}

fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "win",
        Outcome::Loss => "loss",
        Outcome::Tie => "tie",
        Outcome::Draw => "draw",
    }
}

fn counts_dict<'py>(py: Python<'py>, counts: engine::Counts) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("positions", counts.positions)?;
    dict.set_item("wins", counts.wins)?;
    dict.set_item("losses", counts.losses)?;
    dict.set_item("ties", counts.ties)?;
    dict.set_item("draws", counts.draws)?;
    Ok(dict)
}

/// A solved game: every position's value, each move's, a best line.
#[pyclass(module = "perfect_play._native", frozen)]
struct Solution {
    kind: Kind,
    /// The values of a Python game's or a graph's positions (an engine game keeps its table
    /// in its kind).
    solution: Option<GraphSolution>,
}

enum Kind {
    /// A game written in Python, its positions numbered.
    Python {
        game: Py<PyAny>,
        numbered: Numbered<PyPosition>,
    },
    /// A graph of named positions.
    Graph(NamedGraph),
    /// A game of the registry solved whole by the engine; positions in its notation.
    Engine {
        game: Box<dyn EngineGame>,
        table: engine::Solution,
        counts: engine::Counts,
    },
}

/// One move of a position, read from the solution.
struct MoveValue {
    mv: Py<PyAny>,
    record: Record,
    position: Py<PyAny>,
}

impl Solution {
    /// The number of a position, or a `ValueError` saying the start does not reach it.
    fn index(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<u32> {
        let found = match &self.kind {
            Kind::Python { game, numbered } => {
                let methods = Methods::of(game.bind(py))?;
                let found = numbered.index_of(&methods.key(position.clone())?);
                eq_error()?;
                found
            }
            Kind::Graph(graph) => position
                .extract::<String>()
                .ok()
                .and_then(|name| graph.index_of(&name)),
            Kind::Engine { .. } => {
                return Err(PyValueError::new_err(
                    "an engine game's positions have no index",
                ));
            }
        };
        found.ok_or_else(|| {
            let shown = position.repr().map(|r| r.to_string()).unwrap_or_default();
            PyValueError::new_err(format!(
                "position {} is not reached from the start",
                perfect_play::parse::shorten(&shown)
            ))
        })
    }

    fn graph_solution(&self) -> &GraphSolution {
        self.solution
            .as_ref()
            .expect("games and graphs keep their values in a GraphSolution")
    }

    fn record(&self, index: u32) -> Record {
        self.graph_solution().record(index).unwrap_or(Record::OPEN)
    }

    /// Every move of `position` with its value for the mover, best first.
    fn move_values(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Vec<MoveValue>> {
        let mut values = Vec::new();
        match &self.kind {
            Kind::Python { game, numbered } => {
                let methods = Methods::of(game.bind(py))?;
                if methods.result(position)?.is_some() {
                    return Ok(values);
                }
                let moves = methods
                    .moves
                    .call1((position,))
                    .map_err(|e| noted(py, e, "moves", position))?;
                for mv in moves.try_iter()? {
                    let mv = mv?;
                    let next = methods
                        .play
                        .call1((position, &mv))
                        .map_err(|e| noted(py, e, "play", position))?;
                    let index = numbered.index_of(&methods.key(next.clone())?);
                    eq_error()?;
                    let record = index
                        .and_then(|i| engine::move_value(self.record(i)))
                        .unwrap_or(Record::OPEN);
                    values.push(MoveValue {
                        mv: mv.unbind(),
                        record,
                        position: next.unbind(),
                    });
                }
            }
            Kind::Graph(graph) => {
                let index = self.index(py, position)?;
                for &to in graph.graph().targets(index) {
                    let name = graph.name(to).unwrap_or("");
                    values.push(MoveValue {
                        mv: name.into_pyobject(py)?.into_any().unbind(),
                        record: engine::move_value(self.record(to)).unwrap_or(Record::OPEN),
                        position: name.into_pyobject(py)?.into_any().unbind(),
                    });
                }
            }
            Kind::Engine { .. } => {}
        }
        values.sort_by(|a, b| b.record.preference(a.record));
        Ok(values)
    }

    fn start(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match &self.kind {
            Kind::Python { numbered, .. } => numbered
                .position(0)
                .expect("the start is numbered first")
                .object
                .clone_ref(py),
            Kind::Graph(graph) => graph.start().into_pyobject(py)?.into_any().unbind(),
            Kind::Engine { .. } => py.None(),
        })
    }

    /// An engine game's position read from its table (`None`: the start).
    fn engine_answer(
        &self,
        position: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PositionAnswer>> {
        let Kind::Engine { game, table, .. } = &self.kind else {
            return Ok(None);
        };
        let text: Option<String> = match position {
            Some(p) if !p.is_none() => Some(p.extract().map_err(|_| {
                PyValueError::new_err("a position of an engine game is its notation, a string")
            })?),
            _ => None,
        };
        game.answer(text.as_deref(), &mut |i| table.record(i))
            .map(Some)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

fn move_name(py: Python<'_>, name: &MoveName) -> PyResult<Py<PyAny>> {
    Ok(match name {
        MoveName::Number(n) => n.into_pyobject(py)?.into_any().unbind(),
        MoveName::Text(t) => t.into_pyobject(py)?.into_any().unbind(),
    })
}

fn answer_value<'py>(
    py: Python<'py>,
    outcome: Outcome,
    remoteness: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("outcome", outcome_word(outcome))?;
    dict.set_item(
        "remoteness",
        if outcome == Outcome::Draw {
            None
        } else {
            remoteness
        },
    )?;
    Ok(dict)
}

#[pymethods]
impl Solution {
    /// The value of `position` for the player to move: `{"outcome", "remoteness"}`.
    fn value<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if let Some(read) = self.engine_answer(Some(position))? {
            return answer_value(py, read.outcome, read.remoteness);
        }
        let index = self.index(py, position)?;
        value_dict(py, self.record(index))
    }

    /// Every move of `position`, best first: `{"move", "outcome", "remoteness", "position"}`
    /// (the value for the player making the move, and the position it leads to).
    fn moves<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        if let Some(read) = self.engine_answer(Some(position))? {
            for m in &read.moves {
                let dict = answer_value(py, m.outcome, m.remoteness)?;
                dict.set_item("move", move_name(py, &m.name)?)?;
                dict.set_item("position", m.position.clone())?;
                list.append(dict)?;
            }
            return Ok(list);
        }
        self.index(py, position)?;
        for m in self.move_values(py, position)? {
            let dict = value_dict(py, m.record)?;
            dict.set_item("move", m.mv)?;
            dict.set_item("position", m.position)?;
            list.append(dict)?;
        }
        Ok(list)
    }

    /// The moves of one perfect line from `position` (the start when None): to the end of
    /// the game, or its first 40 moves when play never ends.
    #[pyo3(signature = (position = None))]
    fn best_line<'py>(
        &self,
        py: Python<'py>,
        position: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        if let Some(read) = self.engine_answer(position.as_ref())? {
            let line = PyList::empty(py);
            for name in &read.best_line {
                line.append(move_name(py, name)?)?;
            }
            return Ok(line);
        }
        let mut here = match position {
            Some(p) => p,
            None => self.start(py)?.into_bound(py),
        };
        let record = self.record(self.index(py, &here)?);
        let limit = match record.outcome() {
            Some(Outcome::Draw) | None => engine::DRAW_LINE_MOVES,
            _ => record.remoteness().unwrap_or(0) as usize,
        };
        let line = PyList::empty(py);
        while line.len() < limit {
            let Some(best) = self.move_values(py, &here)?.into_iter().next() else {
                break;
            };
            line.append(best.mv)?;
            here = best.position.into_bound(py);
        }
        Ok(line)
    }

    /// How the positions divide: `{"positions", "wins", "losses", "ties", "draws"}`, for
    /// the player to move at each.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let positions = match &self.kind {
            Kind::Python { numbered, .. } => numbered.len(),
            Kind::Graph(graph) => graph.graph().positions(),
            Kind::Engine { counts, .. } => return counts_dict(py, *counts),
        };
        counts_dict(py, self.graph_solution().counts(positions))
    }

    /// The start position.
    #[getter]
    fn start_position(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.start(py)
    }

    /// For a graph: the answer `perfect-play graph FILE --json` prints (`all`: every
    /// position's value too), as JSON text.
    #[pyo3(signature = (position = None, all = false))]
    fn report(&self, position: Option<&str>, all: bool) -> PyResult<String> {
        match &self.kind {
            Kind::Graph(graph) => graph
                .report(self.graph_solution(), position, all)
                .map(|json| json.to_string())
                .map_err(PyValueError::new_err),
            _ => Err(PyValueError::new_err(
                "report() is for graphs; use value(), moves() and best_line()",
            )),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let counts = self.counts(py)?;
        Ok(format!("<perfect_play.Solution {}>", counts.repr()?))
    }
}

fn progress_bar(show: bool, what: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {pos} positions, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(what.to_string());
    bar
}

fn engine_options(memory: u64, threads: usize, cancel: &Cancel) -> Options {
    Options {
        memory_limit: memory,
        threads,
        cancel: cancel.clone(),
        ..Options::default()
    }
}

/// Solve a game written in Python: find every position reachable from `game.start()`,
/// number them through a hash table (calling the game's methods with the GIL), then solve the
/// graph with the engine on every core (the GIL released).
#[pyfunction]
#[pyo3(signature = (game, memory_limit = None, threads = 0, progress = false))]
fn solve_game(
    py: Python<'_>,
    game: Bound<'_, PyAny>,
    memory_limit: Option<&Bound<'_, PyAny>>,
    threads: usize,
    progress: bool,
) -> PyResult<Solution> {
    let memory = self::memory_limit(memory_limit)?;
    let methods = Methods::of(&game)?;
    let start = game
        .call_method0(intern!(py, "start"))
        .map_err(|e| noted(py, e, "start", &game))?;
    let start = methods.key(start)?;
    let cancel = Cancel::new();
    let limits = hashed::Limits {
        memory_limit: memory,
        cancel: cancel.clone(),
    };
    let bar = progress_bar(progress, "exploring");
    let mut expanded = 0u64;
    let mut expand = |position: &PyPosition,
                      steps: &mut Vec<Transition<PyPosition>>|
     -> PyResult<Ending> {
        expanded += 1;
        if expanded.is_multiple_of(4096) {
            py.check_signals()?;
        }
        let position = position.object.bind(py);
        if let Some(finished) = methods.result(position)? {
            return Ok(ending_of(finished));
        }
        let moves = methods
            .moves
            .call1((position,))
            .map_err(|e| noted(py, e, "moves", position))?;
        for mv in moves
            .try_iter()
            .map_err(|e| noted(py, e, "moves", position))?
        {
            // A position's moves are counted against the limit as they come: a
            // generator that never ends stops here, not in the system's allocator.
            if steps.len().is_multiple_of(4096) {
                py.check_signals()?;
                let held = (steps.len() as u64 + 4096) * BYTES_PER_MOVE_FOUND;
                if held > memory {
                    return Err(OverBudget::new_err(format!(
                        "one position's moves pass the memory limit of {} at {} moves ({BYTES_PER_MOVE_FOUND} bytes each, with the position each leads to): does moves() end?",
                        perfect_play::parse::human_size(memory),
                        steps.len()
                    )));
                }
            }
            let next = methods
                .play
                .call1((position, mv?))
                .map_err(|e| noted(py, e, "play", position))?;
            steps.push(Transition::to(methods.key(next)?));
        }
        Ok(Ending::Loss)
    };
    // Position objects own memory Python keeps: counted as a small tuple's (64 bytes).
    let numbered = hashed::explore(start, &limits, &|_| 64, &mut expand, &|found, _| {
        bar.set_position(found);
    });
    bar.finish_and_clear();
    eq_error()?;
    let numbered = numbered.map_err(|e| match e {
        ExploreError::Graph(e) => graph_error(e),
        ExploreError::Game(e) => e,
    })?;
    let options = engine_options(
        memory.saturating_sub(numbered.graph().bytes() + numbered.len() * 96),
        threads,
        &cancel,
    );
    let graph = numbered.graph();
    // The engine's part, on every core: a bar of its positions decided.
    let bar = progress_bar(progress, "solving");
    let on_pass = |p: &engine::Progress| bar.set_position(p.decided);
    let solution = run_cancellable(py, &cancel, || {
        graph.solve_with_progress(&options, &on_pass)
    })?
    .map_err(graph_error)?;
    bar.finish_and_clear();
    Ok(Solution {
        kind: Kind::Python {
            game: game.unbind(),
            numbered,
        },
        solution: Some(solution),
    })
}

/// Solve a game given as a graph: `source` is JSON text or a path to a graph file (JSON or
/// an edge list).
#[pyfunction]
#[pyo3(signature = (source, is_text = false, memory_limit = None, threads = 0))]
fn solve_graph(
    py: Python<'_>,
    source: &str,
    is_text: bool,
    memory_limit: Option<&Bound<'_, PyAny>>,
    threads: usize,
) -> PyResult<Solution> {
    let memory = self::memory_limit(memory_limit)?;
    let graph = if is_text {
        NamedGraph::read(source.as_bytes(), memory)
    } else {
        let file = std::fs::File::open(source)
            .map_err(|e| PyValueError::new_err(format!("cannot read {source}: {e}")))?;
        NamedGraph::read(std::io::BufReader::new(file), memory)
    }
    .map_err(|e| match e {
        perfect_play::graph::text::GraphFileError::Graph(e) => graph_error(e),
        e => PyValueError::new_err(e.to_string()),
    })?;
    let cancel = Cancel::new();
    let options = engine_options(
        memory.saturating_sub(graph.graph().bytes()),
        threads,
        &cancel,
    );
    let solution = run_cancellable(py, &cancel, || graph.solve(&options))?.map_err(graph_error)?;
    Ok(Solution {
        kind: Kind::Graph(graph),
        solution: Some(solution),
    })
}

/// Solve a game of the registry whole with the engine (`params` as the API names them): its
/// table and how the positions reachable from the start divide. With `db`, an existing
/// database is read instead of solving, and a missing one is written there (finished tiers
/// kept in `db + ".partial"` meanwhile, so that a solve cut short resumes). `progress`: a bar
/// on stderr while the engine solves.
#[pyfunction]
#[pyo3(signature = (game, params = Vec::new(), memory_limit = None, threads = 0, db = None, progress = false))]
fn solve(
    py: Python<'_>,
    game: &str,
    params: Vec<(String, String)>,
    memory_limit: Option<&Bound<'_, PyAny>>,
    threads: usize,
    db: Option<std::path::PathBuf>,
    progress: bool,
) -> PyResult<Solution> {
    let (info, checked) = game_and_params(game, &params, true)?;
    let built = info
        .build(&checked)
        .expect("an engine game builds")
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let cancel = Cancel::new();
    let budget = budget(Some(self::memory_limit(memory_limit)?), &cancel);
    let options = registry::answers::engine::options(threads, &budget);
    if let Some(path) = db.as_ref().filter(|p| p.exists()) {
        let database =
            registry::answers::engine::open_database(built.as_ref(), path).map_err(query_error)?;
        return loaded(py, built, database, path, &options, &cancel);
    }
    registry::answers::engine::refuse_if_too_large(built.as_ref(), options.memory_limit, &budget)
        .map_err(query_error)?;
    let game_ref = built.as_ref();
    let bar = engine_bar(progress, game_ref);
    let on_pass = |p: &engine::Progress| bar.set_position(p.indices_solved);
    let (table, counts) = run_cancellable(py, &cancel, || {
        let table = match &db {
            Some(path) => {
                registry::answers::engine::solve_into_database(game_ref, path, &options, &on_pass)?
                    .0
            }
            None => game_ref.solve(&options, None, &on_pass)?,
        };
        let counts = game_ref.reachable_counts(&table, &options)?;
        Ok::<_, engine::EngineError>((table, counts))
    })?
    .map_err(engine_error)?;
    bar.finish_and_clear();
    Ok(Solution {
        kind: Kind::Engine {
            game: built,
            table,
            counts,
        },
        solution: None,
    })
}

/// Open a database written by `solve(..., db=...)` or `perfect-play solve GAME --db PATH`:
/// the game it holds is built from its header, its table read whole into memory (two bytes
/// a position; refused past `memory_limit`).
#[pyfunction]
#[pyo3(signature = (path, memory_limit = None, threads = 0))]
fn open_db(
    py: Python<'_>,
    path: std::path::PathBuf,
    memory_limit: Option<&Bound<'_, PyAny>>,
    threads: usize,
) -> PyResult<Solution> {
    let cancel = Cancel::new();
    let budget = budget(Some(self::memory_limit(memory_limit)?), &cancel);
    let options = registry::answers::engine::options(threads, &budget);
    let (game, database) =
        registry::answers::engine::open_any_database(&path).map_err(query_error)?;
    loaded(py, game, database, &path, &options, &cancel)
}

/// A database read whole into a [`Solution`], within the memory limit.
fn loaded(
    py: Python<'_>,
    game: Box<dyn registry::EngineGame>,
    mut database: engine::Database,
    path: &std::path::Path,
    options: &Options,
    cancel: &Cancel,
) -> PyResult<Solution> {
    let bytes = database.header.indices.saturating_mul(2);
    if bytes > options.memory_limit {
        return Err(OverBudget::new_err(format!(
            "{} holds {} records, {} in memory, above the memory limit of {}; raise memory_limit",
            path.display(),
            database.header.indices,
            perfect_play::parse::human_size(bytes),
            perfect_play::parse::human_size(options.memory_limit)
        )));
    }
    let game_ref = game.as_ref();
    let (table, counts) = run_cancellable(py, cancel, || {
        let table = engine::Solution::from_records(database.all_records()?);
        let counts = game_ref.reachable_counts(&table, options)?;
        Ok::<_, engine::EngineError>((table, counts))
    })?
    .map_err(engine_error)?;
    Ok(Solution {
        kind: Kind::Engine {
            game,
            table,
            counts,
        },
        solution: None,
    })
}

/// An engine's error as Python's: over memory is [`OverBudget`], a damaged file or bad
/// input `ValueError`, anything else `RuntimeError`.
fn engine_error(e: engine::EngineError) -> PyErr {
    match e {
        e @ (engine::EngineError::OverMemory { .. } | engine::EngineError::OverMachine { .. }) => {
            OverBudget::new_err(e.to_string())
        }
        e @ engine::EngineError::Database { .. } => PyValueError::new_err(e.to_string()),
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A bar of the engine's positions solved (hidden unless `show`).
fn engine_bar(show: bool, game: &dyn registry::EngineGame) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(game.index_count());
    bar.set_style(
        ProgressStyle::with_template(
            "solving [{bar:40}] {human_pos}/{human_len} positions ({per_sec}, {elapsed}, eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// The Grundy values of an impartial heap game for heaps `0..=upto`, as little-endian
/// unsigned 16-bit bytes (the package wraps them in an `array.array('H')`).
#[pyfunction]
fn values_bytes(py: Python<'_>, game: &str, upto: u64) -> PyResult<Vec<u8>> {
    let cancel = Cancel::new();
    let budget = budget(Some(DEFAULT_MEMORY), &cancel);
    let game: HeapGame = game
        .parse()
        .map_err(|e: perfect_play::impartial::ImpartialError| {
            PyValueError::new_err(e.to_string())
        })?;
    let limits = registry::answers::sum::limits(&budget);
    if upto >= limits.max_values {
        return Err(OverBudget::new_err(format!(
            "upto {upto} needs more memory than the limit of {} holds ({} bytes a heap)",
            perfect_play::parse::human_size(DEFAULT_MEMORY),
            registry::answers::sum::BYTES_PER_HEAP
        )));
    }
    let table = run_cancellable(py, &cancel, || {
        Values::compute_proving(&game, upto, &limits, &|_, _| {})
    })?
    .map_err(|e| query_error(e.into()))?;
    let values: Vec<u32> = (0..=upto).map_while(|n| table.get(n)).collect();
    let mut bytes = Vec::with_capacity(values.len() * 2);
    for v in values {
        let v = u16::try_from(v).map_err(|_| {
            PyValueError::new_err(format!("a Grundy value of {v} does not fit 16 bits"))
        })?;
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    Ok(bytes)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(query, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(cgt, m)?)?;
    m.add_function(wrap_pyfunction!(partizan::value_of, m)?)?;
    m.add_function(wrap_pyfunction!(_quick_first_probe, m)?)?;
    m.add_function(wrap_pyfunction!(solve_game, m)?)?;
    m.add_function(wrap_pyfunction!(solve_graph, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(open_db, m)?)?;
    m.add_function(wrap_pyfunction!(values_bytes, m)?)?;
    m.add_class::<Solution>()?;
    m.add("OverBudget", m.py().get_type::<OverBudget>())?;
    Ok(())
}
