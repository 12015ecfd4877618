//! What the front ends say about a value: its canonical form, who wins, the stops and why,
//! built once here for the CLI's `cgt` command (and, later, the page and Python).

use super::notation;
use super::table::{BYTES_PER_GAME, GameId, GameTable, OutcomeClass, Side};
use super::{Dyadic, PartizanError};
use serde_json::{Value, json};

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
    /// Canonical forms the table held when the report was made.
    pub canonical_forms: usize,
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
    let mut games = GameTable::with_limit(max_forms);
    let g = notation::parse(&mut games, text)?;
    Ok(report(&mut games, g, to_move))
}

/// The report of `g`.
pub fn report(games: &mut GameTable, g: GameId, to_move: Side) -> ValueReport {
    let (left_stop, right_stop) = games.stops(g);
    // Counted before printing, which may enter forms of its own (the parts it tries).
    let canonical_forms = games.len();
    ValueReport {
        value: notation::show(games, g),
        outcome_class: games.outcome(g),
        to_move,
        left_stop,
        right_stop,
        birthday: games.birthday(g),
        is_number: games.as_number(g).is_some(),
        canonical_forms,
    }
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
        json!({
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
        })
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
