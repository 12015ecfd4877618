//! What the front ends say about a value: its canonical form, who wins, the stops and why,
//! built once here for the CLI's `cgt` command (and, later, the page and Python).

use super::notation;
use super::table::{BYTES_PER_GAME, GameId, GameTable, OutcomeClass, Side};
use super::thermograph::{Thermograph, Trajectory};
use super::{Dyadic, PartizanError};
use serde_json::{Value, json};
use std::sync::Arc;

/// Everything told about one value.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueReport {
    /// The canonical form in CGSuite's notation.
    pub value: String,
    /// Who wins.
    pub outcome_class: OutcomeClass,
    /// The player named to move.
    pub to_move: Side,
    /// Left's stop (Left moving first, both playing to the stop).
    pub left_stop: Dyadic,
    /// Right's stop.
    pub right_stop: Dyadic,
    /// The day the canonical form is born.
    pub birthday: u64,
    /// Whether the value is a number.
    pub is_number: bool,
    /// How much a move is worth: where the thermograph's mast rises.
    pub temperature: Dyadic,
    /// The mast's place: what the game counts as among many hot games.
    pub mean: Dyadic,
    /// The walls and the mast.
    pub thermograph: Arc<Thermograph>,
    /// The simplest game infinitesimally close to the value.
    pub reduced: String,
    /// The atomic weight, for an atomic (infinitesimal) value.
    pub atomic_weight: Option<String>,
    /// Left's options in the canonical form.
    pub left_options: Vec<String>,
    /// Right's options in the canonical form.
    pub right_options: Vec<String>,
    /// What each of Left's moves gains Left (`G^L - G`), the best ones.
    pub left_incentives: Vec<String>,
    /// What each of Right's moves gains Right (`G - G^R`), the best ones.
    pub right_incentives: Vec<String>,
    /// The operation applied to the value read, if any.
    pub operation: Option<Operation>,
    /// The value compared with another, if asked.
    pub comparison: Option<Comparison>,
    /// Canonical forms the table held when the report was made.
    pub canonical_forms: usize,
}

/// An operation applied to the value read before it is reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// `cool` or `heat`.
    pub name: &'static str,
    /// By how much (a number for cooling, any value for heating), canonical.
    pub by: String,
    /// The value before the operation, canonical.
    pub of: String,
}

/// How the value compares with another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The other value, canonical.
    pub with: String,
    /// `<`, `=`, `>` or `<>` (confused).
    pub relation: &'static str,
}

/// What to do with a value besides reporting it (the `cgt` command's flags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request<'a> {
    /// Cool by this number (`t > -1`).
    pub cool: Option<&'a str>,
    /// Heat by this value.
    pub heat: Option<&'a str>,
    /// Compare with this value.
    pub compare: Option<&'a str>,
}

/// The most canonical forms a table may hold within `memory_limit` bytes.
#[must_use]
pub fn forms_within(memory_limit: u64) -> usize {
    usize::try_from(memory_limit / BYTES_PER_GAME).unwrap_or(usize::MAX)
}

/// Read `text` (CGSuite's notation, sums and differences included) into a fresh table of at
/// most `max_forms` canonical forms, and report its value for `to_move`.
///
/// # Errors
/// [`PartizanError`]: a value that does not read, or one too large for the table.
pub fn evaluate(text: &str, to_move: Side, max_forms: usize) -> Result<ValueReport, PartizanError> {
    evaluate_request(text, to_move, max_forms, Request::default())
}

/// As [`evaluate`], with the value cooled, heated or compared as `request` asks.
///
/// # Errors
/// As [`evaluate`]; [`PartizanError::NotANumber`] for cooling by a value that is not a
/// number, [`PartizanError::CoolingTooCold`] for cooling by -1 or less.
pub fn evaluate_request(
    text: &str,
    to_move: Side,
    max_forms: usize,
    request: Request<'_>,
) -> Result<ValueReport, PartizanError> {
    let mut games = GameTable::with_limit(max_forms);
    let read = notation::parse(&mut games, text)?;
    let mut g = read;
    let mut operation = None;
    if let Some(by) = request.heat {
        let t = notation::parse(&mut games, by)?;
        g = games.heat(g, t)?;
        operation = Some(("heat", t));
    }
    if let Some(by) = request.cool {
        let t = notation::parse(&mut games, by)?;
        let x = games
            .as_number(t)
            .ok_or_else(|| PartizanError::NotANumber(notation::show(&mut games, t)))?;
        g = games.cool(g, x)?;
        operation = Some(("cool", t));
    }
    let comparison = match request.compare {
        Some(other) => {
            let h = notation::parse(&mut games, other)?;
            let relation = match (games.leq(g, h), games.leq(h, g)) {
                (true, true) => "=",
                (true, false) => "<",
                (false, true) => ">",
                (false, false) => "<>",
            };
            Some(Comparison {
                with: notation::show(&mut games, h),
                relation,
            })
        }
        None => None,
    };
    let mut report = report(&mut games, g, to_move)?;
    report.operation = operation.map(|(name, t)| Operation {
        name,
        by: notation::show(&mut games, t),
        of: notation::show(&mut games, read),
    });
    report.comparison = comparison;
    Ok(report)
}

/// The report of `g`.
///
/// # Errors
/// A full table or a number too large while finding the thermograph, the reduced form, the
/// incentives or the atomic weight.
pub fn report(
    games: &mut GameTable,
    g: GameId,
    to_move: Side,
) -> Result<ValueReport, PartizanError> {
    let (left_stop, right_stop) = games.stops(g);
    let thermograph = games.thermograph(g)?;
    let reduced = games.reduced(g)?;
    let atomic_weight = games.atomic_weight(g)?;
    let incentives = [
        games.incentives(g, Side::Left)?,
        games.incentives(g, Side::Right)?,
    ];
    // Counted before printing and listing a number's options, which may enter forms.
    let canonical_forms = games.len();
    let options = [games.options(g, Side::Left), games.options(g, Side::Right)];
    let mut shown =
        |ids: &[GameId]| -> Vec<String> { ids.iter().map(|&o| notation::show(games, o)).collect() };
    let (left_incentives, right_incentives) = (shown(&incentives[0]), shown(&incentives[1]));
    let (left_options, right_options) = (shown(&options[0]), shown(&options[1]));
    Ok(ValueReport {
        value: notation::show(games, g),
        outcome_class: games.outcome(g),
        to_move,
        left_stop,
        right_stop,
        birthday: games.birthday(g),
        is_number: games.as_number(g).is_some(),
        temperature: thermograph.temperature,
        mean: thermograph.mean,
        thermograph,
        reduced: notation::show(games, reduced),
        atomic_weight: atomic_weight.map(|w| notation::show(games, w)),
        left_options,
        right_options,
        left_incentives,
        right_incentives,
        operation: None,
        comparison: None,
        canonical_forms,
    })
}

/// A wall as JSON: its pieces from -1 upwards.
fn wall_json(wall: &Trajectory) -> Value {
    wall.pieces()
        .iter()
        .map(
            |p| json!({"from": p.from.to_string(), "value": p.value.to_string(), "slope": p.slope}),
        )
        .collect()
}

/// A wall in words: its value at -1, at each corner, and where it turns into the mast.
fn wall_text(wall: &Trajectory) -> String {
    wall.pieces()
        .iter()
        .map(|p| format!("{} at t={}", p.value, p.from))
        .collect::<Vec<_>>()
        .join(", ")
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Left => "left",
        Side::Right => "right",
    }
}

impl ValueReport {
    /// Whether the player named to move wins.
    #[must_use]
    pub fn first_player_wins(&self) -> bool {
        self.outcome_class.first_player_wins(self.to_move)
    }

    /// Who wins and why, in one sentence.
    #[must_use]
    pub fn sentence(&self) -> String {
        let v = &self.value;
        match self.outcome_class {
            OutcomeClass::Left => {
                format!("Left wins moving first or second: the value {v} is positive.")
            }
            OutcomeClass::Right => {
                format!("Right wins moving first or second: the value {v} is negative.")
            }
            OutcomeClass::Previous => {
                format!("The player to move loses, Left or Right: the value {v} is zero.")
            }
            OutcomeClass::Next => format!(
                "The player to move wins, Left or Right: the value {v} is confused with zero (fuzzy)."
            ),
        }
    }

    /// The answer as `perfect-play cgt --json` prints it (`schemas/cgt.schema.json`).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut out = json!({
            "value": self.value,
            "outcome_class": self.outcome_class.letter().to_string(),
            "to_move": side_name(self.to_move),
            "first_player_wins": self.first_player_wins(),
            "left_stop": self.left_stop.to_string(),
            "right_stop": self.right_stop.to_string(),
            "birthday": self.birthday,
            "is_number": self.is_number,
            "explanation": self.sentence(),
            "canonical_forms": self.canonical_forms,
            "temperature": self.temperature.to_string(),
            "mean": self.mean.to_string(),
            "thermograph": {
                "temperature": self.temperature.to_string(),
                "mean": self.mean.to_string(),
                "left_wall": wall_json(&self.thermograph.left_wall),
                "right_wall": wall_json(&self.thermograph.right_wall),
            },
            "reduced_canonical_form": self.reduced,
            "atomic_weight": self.atomic_weight,
            "left_options": self.left_options,
            "right_options": self.right_options,
            "left_incentives": self.left_incentives,
            "right_incentives": self.right_incentives,
        });
        if let Some(op) = &self.operation {
            out["operation"] = json!({"name": op.name, "by": op.by, "of": op.of});
        }
        if let Some(c) = &self.comparison {
            out["comparison"] = json!({"with": c.with, "relation": c.relation});
        }
        out
    }

    /// The thermograph in words: each wall's corners, then the mast.
    #[must_use]
    pub fn thermograph_text(&self) -> String {
        format!(
            "left wall {}; right wall {}; mast at {} from t={}",
            wall_text(&self.thermograph.left_wall),
            wall_text(&self.thermograph.right_wall),
            self.mean,
            self.temperature
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_says_who_wins_and_why() {
        let r = evaluate("{1|-1} + ^ + *", Side::Left, 1 << 20).unwrap();
        assert_eq!(r.value, "{1^*|-1^*}");
        assert_eq!(r.outcome_class, OutcomeClass::Next);
        assert_eq!(
            (r.left_stop.to_string(), r.right_stop.to_string()),
            ("1".into(), "-1".into())
        );
        assert!(r.first_player_wins());
        let r = evaluate("1/2", Side::Right, 1 << 20).unwrap();
        assert!(!r.first_player_wins());
        assert_eq!(
            r.sentence(),
            "Left wins moving first or second: the value 1/2 is positive."
        );
        assert_eq!(r.to_json()["outcome_class"], "L");
    }

    #[test]
    fn a_value_past_the_limit_is_refused_with_it() {
        let e = evaluate("*40", Side::Left, 16).unwrap_err();
        assert_eq!(e, PartizanError::TooManyGames { limit: 16 });
        assert!(e.to_string().contains("--memory-limit"));
    }
}
