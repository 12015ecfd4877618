//! The Stone Game series and the classic puzzles ([`crate::puzzles`]): each game's notation
//! parsed, its solver run under the budget, and the one answer every front end shows.

use super::{MAX_LISTED_MOVES, big_json, join};
use crate::Outcome;
use crate::budget::Budget;
use crate::puzzles::{
    self, Limits, PuzzleError, Solution, chalkboard, divisor, flip, guess, nim_game, stone_game_2,
    stone_game_3, stone_game_6, stone_game_7, stone_game_8, stone_game_9,
};
use crate::registry::{Answer, MoveValue, Params, QueryError, Side};
use crate::take_ends::End;
use serde_json::{Map, Value, json};

impl From<PuzzleError> for QueryError {
    fn from(e: PuzzleError) -> QueryError {
        match e {
            PuzzleError::Cancelled(c) => QueryError::Cancelled(c),
            e @ PuzzleError::OverMemory { .. } => QueryError::OverMemory(e.to_string()),
            PuzzleError::BadInput(message) => QueryError::BadInput(message),
        }
    }
}

/// Each move repeats the position it leads to while the position has at most this many
/// numbers (or characters); past it a move's `position` is null and its own fields say where
/// it leads, so that an answer stays about as long as its question.
pub const CHILD_POSITIONS_UPTO: usize = 10_000;

/// The largest number of stones (or numbers) a row may hold: the solvers' tables are
/// linear in it, and the input itself is several bytes a number.
pub const MAX_ROW: usize = 100_000_000;

fn limits(params: &Params, budget: &Budget) -> Limits {
    Limits {
        memory: budget.memory(2 << 30),
        cancel: budget.cancel.clone(),
        line: params.text("line") == Some("true"),
        max_listed: budget.cap(MAX_LISTED_MOVES, 50),
    }
}

/// Refuse work estimated above the time budget; then ask to start it.
fn start(budget: &Budget, what: impl FnOnce() -> String, seconds: f64) -> Result<(), QueryError> {
    budget.check_time(what, seconds)?;
    budget.admit(seconds)?;
    Ok(())
}

fn row(text: &str, what: &str, min: i64, max: i64) -> Result<Vec<i64>, QueryError> {
    let row = puzzles::parse_row(text, what, min, max)?;
    if row.len() > MAX_ROW {
        return Err(QueryError::BadInput(format!(
            "{} {what}s are more than this tool takes ({MAX_ROW})",
            row.len()
        )));
    }
    Ok(row)
}

/// Where a move leads, in the game's notation.
struct Child {
    ends: bool,
    position: Option<String>,
    details: Map<String, Value>,
}

impl Child {
    fn to(position: String, show: bool) -> Child {
        Child {
            ends: false,
            position: show.then_some(position),
            details: Map::new(),
        }
    }

    fn end() -> Child {
        Child {
            ends: true,
            position: None,
            details: Map::new(),
        }
    }
}

/// What a game's answer says besides its solution.
struct Shape {
    game: &'static str,
    position: String,
    to_move: Side,
    /// A scoring game: every move and the position carry their `margin`.
    scoring: bool,
    /// A loopy game: margin 0 is a draw (endless play), not a tie.
    draws: bool,
    method: &'static str,
    reason: String,
    details: Map<String, Value>,
}

fn outcome_of(margin: i64, draws: bool) -> Outcome {
    match margin.signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ if draws => Outcome::Draw,
        _ => Outcome::Tie,
    }
}

fn build<M>(
    shape: Shape,
    s: &Solution<M>,
    mv: impl Fn(&M) -> Value,
    child: impl Fn(&M) -> Child,
) -> Answer {
    let moves: Vec<MoveValue> = s
        .moves
        .iter()
        .map(|m| {
            let after = child(&m.mv);
            let mut details = after.details;
            if shape.scoring {
                details.insert("margin".into(), json!(m.margin));
            }
            MoveValue {
                mv: mv(&m.mv),
                outcome: outcome_of(m.margin, shape.draws),
                remoteness: m.remoteness,
                ends_game: after.ends,
                position: after.position,
                details,
            }
        })
        .collect();
    let winning: Vec<Value> = s
        .moves
        .iter()
        .filter(|m| m.margin > 0)
        .map(|m| mv(&m.mv))
        .collect();
    let mut details = shape.details;
    if shape.scoring {
        details.insert("margin".into(), json!(s.margin));
    }
    details.insert("reason".into(), json!(shape.reason));
    let outcome = outcome_of(s.margin, shape.draws);
    Answer {
        game: shape.game,
        position: shape.position,
        to_move: shape.to_move,
        outcome,
        first_player_wins: outcome == Outcome::Win,
        remoteness: s.remoteness,
        moves_complete: s.moves_total == Some(moves.len() as u64),
        moves,
        winning_moves_total: s.winning_total.map_or(Value::Null, |w| json!(w)),
        winning_moves: winning,
        best_line: s.line.as_ref().map(|line| line.iter().map(&mv).collect()),
        method: shape.method.into(),
        details,
    }
}

/// The row without its first `v`, in the notation.
fn without<T: PartialEq + Copy + std::fmt::Display>(row: &[T], v: T) -> String {
    let mut rest = row.to_vec();
    if let Some(at) = rest.iter().position(|&x| x == v) {
        rest.remove(at);
    }
    join(&rest)
}

/// The row itself as a field of the answer (for a page to draw), while it is short enough to
/// repeat: past [`CHILD_POSITIONS_UPTO`] numbers the position alone holds it.
fn insert_row<T: serde::Serialize>(details: &mut Map<String, Value>, name: &str, row: &[T]) {
    if row.len() <= CHILD_POSITIONS_UPTO {
        details.insert(name.into(), json!(row));
    }
}

fn scores(details: &mut Map<String, Value>, total: i64, margin: i64) {
    // The mover's total and the opponent's from here: their sum and difference. The solvers
    // take values whose absolute sum fits 64 bits, so each total does, but the sum and the
    // difference of two such need 65 bits: made in 128.
    let (total, margin) = (i128::from(total), i128::from(margin));
    details.insert("mover_total".into(), json!((total + margin) / 2));
    details.insert("opponent_total".into(), json!((total - margin) / 2));
}

/// Stone Game II: `position` the piles, `m` the current M.
///
/// # Errors
/// A pile not accepted, or a table over the memory limit or the budget.
pub fn stone_game_2(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let piles = row(position, "pile", 1, i64::MAX)?;
    let m = params.integer("m").unwrap_or(1) as usize;
    let n = piles.len();
    let states = stone_game_2::stored_states(n, m);
    start(
        budget,
        || format!("Stone Game II over {n} piles ({states} states)"),
        states as f64 * 2e-8,
    )?;
    let s = stone_game_2::solve(&piles, m, &limits(params, budget))?;
    let total: i64 = piles.iter().sum();
    let mut details = Map::new();
    insert_row(&mut details, "piles", &piles);
    details.insert("m".into(), json!(m));
    scores(&mut details, total, s.margin);
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "stone-game-2",
        position: join(&piles),
        to_move: Side::First,
        scoring: true,
        draws: false,
        method: "sliding-windows",
        reason: "each (pile, M) from two monotone windows of the moves: X <= M along its column, M < X <= 2M along its row; O(n²)".into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&x| json!(x),
        |&x| {
            if x == n {
                return Child::end();
            }
            let mut c = Child::to(join(&piles[x..]), show);
            c.details.insert("m".into(), json!(m.max(x)));
            c
        },
    ))
}

/// Stone Game III: `position` the values from the front.
///
/// # Errors
/// A value not accepted, or over the budget.
pub fn stone_game_3(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let values = row(position, "value", i64::MIN + 1, i64::MAX)?;
    let n = values.len();
    start(
        budget,
        || format!("Stone Game III over {n} stones"),
        n as f64 * 5e-9,
    )?;
    let s = stone_game_3::solve(&values, &limits(params, budget))?;
    let total: i64 = values.iter().sum();
    let mut details = Map::new();
    insert_row(&mut details, "values", &values);
    scores(&mut details, total, s.margin);
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "stone-game-3",
        position: join(&values),
        to_move: Side::First,
        scoring: true,
        draws: false,
        method: "suffix-recurrence",
        reason: "each suffix from the next three, one pass from the back; O(n)".into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&k| json!(k),
        |&k| {
            if k == n {
                Child::end()
            } else {
                Child::to(join(&values[k..]), show)
            }
        },
    ))
}

/// Stone Game VI: `position` the mover's values, `/`, the opponent's.
///
/// # Errors
/// Rows not accepted, or over the budget.
pub fn stone_game_6(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let Some((mine, theirs)) = position.split_once('/') else {
        return Err(QueryError::BadInput(
            "give the mover's values, a slash, then the opponent's: 1 3 / 2 1".into(),
        ));
    };
    let mine = row(mine, "value", -(1 << 60), 1 << 60)?;
    let theirs = row(theirs, "value", -(1 << 60), 1 << 60)?;
    let n = mine.len();
    start(
        budget,
        || format!("Stone Game VI over {n} stones"),
        n as f64 * 1e-7,
    )?;
    let s = stone_game_6::solve(&mine, &theirs, &limits(params, budget))?;
    let mut details = Map::new();
    insert_row(&mut details, "mover_values", &mine);
    insert_row(&mut details, "opponent_values", &theirs);
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "stone-game-6",
        position: format!("{} / {}", join(&mine), join(&theirs)),
        to_move: Side::First,
        scoring: true,
        draws: false,
        method: "greedy-by-sum",
        reason: "the margin is the mover's stones' combined values minus all the opponent's values, so both take the largest combined value first; O(n log n)".into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&i| json!(i),
        |&i| {
            if n == 1 {
                return Child::end();
            }
            let rest = |v: &[i64]| {
                let mut r = v.to_vec();
                r.remove(i - 1);
                join(&r)
            };
            let position = show.then(|| format!("{} / {}", rest(&theirs), rest(&mine)));
            Child {
                ends: false,
                position,
                details: Map::new(),
            }
        },
    ))
}

/// Stone Game VII: `position` the stones in the row.
///
/// # Errors
/// A stone not accepted, or over the budget.
pub fn stone_game_7(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let stones = row(position, "stone", i64::MIN + 1, i64::MAX)?;
    let n = stones.len();
    start(
        budget,
        || format!("Stone Game VII over {n} stones"),
        (n as f64).powi(2) * 1e-9,
    )?;
    let s = stone_game_7::solve(&stones, &limits(params, budget))?;
    let mut details = Map::new();
    insert_row(&mut details, "stones", &stones);
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "stone-game-7",
        position: join(&stones),
        to_move: Side::First,
        scoring: true,
        draws: false,
        method: "interval-dp",
        reason:
            "the interval recurrence by diagonals in one row of margins; O(n²) time, O(n) memory"
                .into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |e| json!(e),
        |e| {
            if n == 1 {
                return Child::end();
            }
            let rest = match e {
                End::Left => &stones[1..],
                End::Right => &stones[..n - 1],
            };
            Child::to(join(rest), show)
        },
    ))
}

/// Stone Game VIII: `position` the stones in the row.
///
/// # Errors
/// A stone not accepted, or over the budget.
pub fn stone_game_8(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let stones = row(position, "stone", i64::MIN + 1, i64::MAX)?;
    let n = stones.len();
    start(
        budget,
        || format!("Stone Game VIII over {n} stones"),
        n as f64 * 2e-8,
    )?;
    let s = stone_game_8::solve(&stones, &limits(params, budget))?;
    let mut details = Map::new();
    insert_row(&mut details, "stones", &stones);
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "stone-game-8",
        position: join(&stones),
        to_move: Side::First,
        scoring: true,
        draws: false,
        method: "prefix-sums",
        reason: "the leftmost stone is always a prefix sum, so a position is an index; one pass from the back keeps the best later index; O(n)".into(),
        details,
    };
    // The sums of the first x stones, for the listed moves' scores.
    let mut sum_to = Vec::with_capacity(n + 1);
    sum_to.push(0i64);
    for v in &stones {
        sum_to.push(sum_to[sum_to.len() - 1] + v);
    }
    Ok(build(
        shape,
        &s,
        |&x| json!(x),
        |&x| {
            let merged = sum_to[x];
            let mut c = if show {
                let mut after = vec![merged];
                after.extend_from_slice(&stones[x..]);
                Child::to(join(&after), true)
            } else {
                Child::to(String::new(), false)
            };
            c.details.insert("scores".into(), json!(merged));
            c
        },
    ))
}

/// Stone Game IX: `position` the stones left, `removed` their removed sum mod 3, `second`
/// the second player to move.
///
/// # Errors
/// A stone not accepted, or over the budget.
pub fn stone_game_9(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let stones = row(position, "stone", i64::MIN + 1, i64::MAX)?;
    let removed = params.integer("removed").unwrap_or(0) as u8;
    let second = params.text("second") == Some("true");
    let n = stones.len();
    start(
        budget,
        || format!("Stone Game IX over {n} stones"),
        n as f64 * 5e-8,
    )?;
    let s = stone_game_9::solve(&stones, removed, second, &limits(params, budget))?;
    let counts = stone_game_9::Counts::of(&stones, removed, second);
    let mut details = Map::new();
    insert_row(&mut details, "stones", &stones);
    details.insert("residues".into(), json!(counts.left));
    details.insert("removed".into(), json!(removed));
    details.insert("second".into(), json!(second));
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "stone-game-9",
        position: join(&stones),
        to_move: Side::of(!second),
        scoring: false,
        draws: false,
        method: "residue-count",
        reason: "only residues mod 3 count: after the first removal the safe moves are the zeros and one forced chain of alternating residues, so their number decides who is stuck; O(n)".into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&v| json!(v),
        |&v| {
            let after = (i64::from(removed) + v.rem_euclid(3)) % 3;
            if after == 0 {
                // Removing it makes the removed sum divisible by 3: the mover loses.
                return Child::end();
            }
            if n == 1 {
                return Child::end();
            }
            let mut c = Child::to(
                if show {
                    without(&stones, v)
                } else {
                    String::new()
                },
                show,
            );
            c.details.insert("removed".into(), json!(after));
            c.details.insert("second".into(), json!(!second));
            c
        },
    ))
}

/// Nim Game: `position` the heap (any size).
///
/// # Errors
/// Not a whole number.
pub fn nim_game(_: &Params, position: &str, _: &Budget) -> Result<Answer, QueryError> {
    let n = super::subtraction::parse_heap("heap", position.trim())?;
    let s = nim_game::solve(&n);
    let mut details = Map::new();
    details.insert("heap".into(), big_json(&n));
    details.insert(
        "remoteness_whole".into(),
        json!(nim_game::remoteness(&n).to_string()),
    );
    let shape = Shape {
        game: "nim-game",
        position: n.to_string(),
        to_move: Side::First,
        scoring: false,
        draws: false,
        method: "theorem",
        reason: "a multiple of 4 loses: whatever is taken, the other takes the rest of 4".into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&t| json!(t),
        |&t| {
            let after = &n - t;
            if after == num_bigint::BigUint::ZERO {
                Child::end()
            } else {
                Child::to(after.to_string(), true)
            }
        },
    ))
}

/// The Divisor Game: `position` the number (any size).
///
/// # Errors
/// Not a number of at least 1, or over the budget.
pub fn divisor_game(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let n = super::subtraction::parse_heap("number", position.trim())?;
    let small = u64::try_from(&n).unwrap_or(u64::MAX);
    let work = small.min(divisor::REMOTENESS_UPTO) as f64 * 1e-7
        + (small.min(divisor::DIVISORS_UPTO) as f64).sqrt() * 2e-9;
    start(budget, || format!("the Divisor Game from {n}"), work)?;
    let s = divisor::solve(&n, &limits(params, budget))?;
    let mut details = Map::new();
    details.insert("number".into(), big_json(&n));
    let shape = Shape {
        game: "divisor-game",
        position: n.to_string(),
        to_move: Side::First,
        scoring: false,
        draws: false,
        method: "theorem",
        reason: format!(
            "an even number wins: taking 1 leaves an odd one, and every divisor of an odd number is odd, so every move from it leaves an even one; the remoteness by every number below up to {}",
            divisor::REMOTENESS_UPTO
        ),
        details,
    };
    Ok(build(shape, &s, big_json, |x| {
        let after = &n - x;
        Child::to(after.to_string(), true)
    }))
}

/// Flip Game II: `position` the string of `+` and `-`.
///
/// # Errors
/// Another character, or over the budget.
pub fn flip_game(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    let coins = flip::parse(position)?;
    let n = coins.len();
    if n > MAX_ROW {
        return Err(QueryError::BadInput(format!(
            "a string of {n} is longer than this tool takes ({MAX_ROW})"
        )));
    }
    start(
        budget,
        || format!("Flip Game over {n} characters"),
        n as f64 * 2e-8,
    )?;
    let s = flip::solve(&coins, &limits(params, budget))?;
    let text: String = coins.iter().map(|&c| if c { '+' } else { '-' }).collect();
    let mut details = Map::new();
    details.insert("octal_code".into(), json!("0.07"));
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "flip-game",
        position: text.clone(),
        to_move: Side::First,
        scoring: false,
        draws: false,
        method: "grundy-sum",
        reason: "a run of k pluses is a heap of Dawson's Kayles (octal 0.07), whose values have period 34 after 52: the nim-sum of the runs decides".into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&i| json!(i),
        |&i| {
            if !show {
                return Child::to(String::new(), false);
            }
            let mut after = text.clone().into_bytes();
            after[i - 1] = b'-';
            after[i] = b'-';
            Child::to(String::from_utf8(after).unwrap_or_default(), show)
        },
    ))
}

/// The Chalkboard XOR Game: `position` the numbers on the board.
///
/// # Errors
/// A number not accepted, or over the budget.
pub fn chalkboard_xor(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let numbers: Vec<u64> = row(position, "number", 0, i64::MAX)?
        .into_iter()
        .map(|v| v as u64)
        .collect();
    let n = numbers.len();
    start(
        budget,
        || format!("the Chalkboard XOR Game over {n} numbers"),
        n as f64 * 5e-8,
    )?;
    let s = chalkboard::solve(&numbers, &limits(params, budget))?;
    let xor = numbers.iter().fold(0, |x, v| x ^ v);
    let mut details = Map::new();
    insert_row(&mut details, "numbers", &numbers);
    details.insert("xor".into(), json!(xor));
    let show = n <= CHILD_POSITIONS_UPTO;
    let shape = Shape {
        game: "chalkboard-xor",
        position: join(&numbers),
        to_move: Side::First,
        scoring: false,
        draws: false,
        method: "theorem",
        reason: format!(
            "the player to move wins when the XOR is 0 or the count is even (an even count with XOR X != 0 holds a number other than X to erase); the remoteness by search up to {} numbers",
            chalkboard::SEARCHED_UPTO
        ),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&v| json!(v),
        |&v| {
            if n == 1 {
                return Child::end();
            }
            Child::to(
                if show {
                    without(&numbers, v)
                } else {
                    String::new()
                },
                show,
            )
        },
    ))
}

/// Guess Number Higher or Lower II: `position` `N` (1 to N) or `LOW HIGH`.
///
/// # Errors
/// Not a range, or over the budget.
pub fn guess_number(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    let words: Vec<u64> = position
        .split_whitespace()
        .map(|w| {
            crate::parse::count_in(w, 1, guess::MAX_HIGH)
                .map_err(|e| QueryError::BadInput(format!("range: {e}")))
        })
        .collect::<Result<_, _>>()?;
    let (low, high) = match words[..] {
        [n] => (1, n),
        [low, high] => (low, high),
        _ => {
            return Err(QueryError::BadInput(
                "give N (numbers 1 to N) or LOW HIGH".into(),
            ));
        }
    };
    start(
        budget,
        || format!("the costs of the ranges within 1 to {high}"),
        (high as f64).powi(2) * 5e-9,
    )?;
    guess::check_range(low, high)?;
    let costs = guess::Costs::compute(high as usize, &limits(params, budget))?;
    let s = guess::solve_in(&costs, low, high, &limits(params, budget))?;
    let mut details = Map::new();
    details.insert("low".into(), json!(low));
    details.insert("high".into(), json!(high));
    details.insert("cost".into(), json!(-s.margin));
    let shape = Shape {
        game: "guess-number",
        position: format!("{low} {high}"),
        to_move: Side::First,
        scoring: true,
        draws: false,
        method: "monotone-queue",
        reason: "the least worst-case cost of every range, each from the first guess whose lower part is the dearer and a monotone queue of the guesses below it; O(n²)".into(),
        details,
    };
    Ok(build(
        shape,
        &s,
        |&k| json!(k),
        |&k| {
            let (i, j) = (low as usize, high as usize);
            let k = k as usize;
            let lower = costs.cost(i, k - 1);
            let upper = costs.cost(k + 1, j);
            // The adversary answers with the dearer part (the higher on a tie).
            let (reply, range) = if k < j && (upper >= lower || k == i) {
                ("higher", (k + 1, j))
            } else if k > i {
                ("lower", (i, k - 1))
            } else {
                ("correct", (k, k))
            };
            if reply == "correct" {
                return Child::end();
            }
            let mut c = Child::to(format!("{} {}", range.0, range.1), true);
            c.details.insert("reply".into(), json!(reply));
            c.details
                .insert("cost".into(), json!(k as u64 + lower.max(upper)));
            c
        },
    ))
}

/// Cat and Mouse: `graph` the adjacency lists, `position` `MOUSE CAT` and the animal to move
/// (`mouse` by default).
///
/// # Errors
/// A graph or position not accepted, or the solve over the memory limit or the budget.
pub fn cat_and_mouse(
    params: &Params,
    position: &str,
    budget: &Budget,
) -> Result<Answer, QueryError> {
    use puzzles::cat_and_mouse::{Animal, Board, Position};
    let board = match (params.text("graph"), params.text("grid")) {
        (Some(_), None)
            if params
                .integer("cat_jump")
                .or(params.integer("mouse_jump"))
                .is_some() =>
        {
            return Err(QueryError::BadInput(
                "--cat-jump and --mouse-jump apply to a --grid (LeetCode 1728), not to a --graph, where each moves to a neighbouring node".into(),
            ));
        }
        (Some(graph), None) => Board::parse(graph)?,
        (None, Some(grid)) => {
            let jump = |name| params.integer(name).unwrap_or(1) as u32;
            Board::grid(grid, jump("cat_jump"), jump("mouse_jump"))?
        }
        _ => {
            return Err(QueryError::BadInput(
                "give the board: --graph (LeetCode 913's adjacency lists) or --grid (1728's rows, with --cat-jump and --mouse-jump)".into(),
            ));
        }
    };
    let n = board.nodes() as u32;
    let (start_mouse, start_cat) = board.start_nodes();
    let start_words = format!("{start_mouse} {start_cat}");
    let position = if position.trim() == "start" {
        start_words.as_str()
    } else {
        position
    };
    let words: Vec<&str> = position.split_whitespace().collect();
    let node = |w: &str, who: &str| -> Result<u32, QueryError> {
        match w.parse::<u32>() {
            Ok(v) if v < n => Ok(v),
            _ => Err(QueryError::BadInput(format!(
                "the {who}'s node {:?} is not one of the graph's (0 to {})",
                crate::parse::shorten(w),
                n - 1
            ))),
        }
    };
    let (mouse, cat, to_move) = match words[..] {
        [m, c] => (node(m, "mouse")?, node(c, "cat")?, Animal::Mouse),
        [m, c, who] => (
            node(m, "mouse")?,
            node(c, "cat")?,
            match who {
                "mouse" | "m" => Animal::Mouse,
                "cat" | "c" => Animal::Cat,
                _ => {
                    return Err(QueryError::BadInput(format!(
                        "{:?} is not mouse or cat: say who is to move",
                        crate::parse::shorten(who)
                    )));
                }
            },
        ),
        _ => {
            return Err(QueryError::BadInput(
                "give MOUSE CAT (the nodes), then mouse or cat for who is to move: 1 2".into(),
            ));
        }
    };
    if cat == 0 && board.width().is_none() {
        return Err(QueryError::BadInput(
            "the cat is never in the hole, node 0".into(),
        ));
    }
    let positions = 2 * u64::from(n) * u64::from(n);
    start(
        budget,
        || format!("Cat and Mouse on {n} nodes ({positions} positions)"),
        positions as f64 * 3e-7,
    )?;
    let limits = limits(params, budget);
    let solved = board.solve(&limits)?;
    let here = Position {
        mouse,
        cat,
        to_move,
    };
    let s = solved.analyse(here, &limits);
    let name = |a: Animal| if a == Animal::Mouse { "mouse" } else { "cat" };
    let other = if to_move == Animal::Mouse {
        Animal::Cat
    } else {
        Animal::Mouse
    };
    let winner = match s.margin {
        1 => name(to_move),
        -1 => name(other),
        _ => "draw",
    };
    let mut details = Map::new();
    details.insert("mouse".into(), json!(mouse));
    details.insert("cat".into(), json!(cat));
    details.insert("animal_to_move".into(), json!(name(to_move)));
    details.insert("winner".into(), json!(winner));
    details.insert("nodes".into(), json!(n));
    details.insert("positions_in_table".into(), json!(positions));
    let shape = Shape {
        game: "cat-and-mouse",
        position: format!("{mouse} {cat} {}", name(to_move)),
        to_move: Side::of(to_move == Animal::Mouse),
        scoring: false,
        draws: true,
        method: "engine",
        reason: if board.width().is_some() {
            "every (mouse, cat, side) position of the grid solved by the engine's retrograde analysis: a win or loss at its exact remoteness, endless play a draw (LeetCode 1728's turn limit gives those to the cat); cells numbered in reading order from 0".into()
        } else {
            "every (mouse, cat, side) position solved by the engine's retrograde analysis: a win or loss at its exact remoteness, endless play a draw".into()
        },
        details,
    };
    Ok(build(
        shape,
        &s,
        |&v| json!(v),
        |&v| {
            let after = board.after(here, v);
            Child::to(
                format!("{} {} {}", after.mouse, after.cat, name(after.to_move)),
                true,
            )
        },
    ))
}
