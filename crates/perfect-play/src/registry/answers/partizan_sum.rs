//! Sums with partizan components (`domineering:..|.. clobber:xo nim:3`): each component
//! valued on its own into one table of canonical forms, the sum's value their sum (an
//! impartial heap of Grundy value g is the nimber *g), and every move of each side in each
//! component valued by the sum it leaves.

use super::partizan::{DEFAULT_MEMORY, Played, player, player_name, report_details, valued_answer};
use super::sum::{self, BYTES_PER_HEAP};
use crate::Outcome;
use crate::budget::Budget;
use crate::impartial::{Component, ComponentMove, HeapGame, SumGame, Values};
use crate::partizan::answer as report;
use crate::partizan::{
    GameId, GameTable, Side as Player, Valuer, amazons, clobber, cutcake, domineering, hackenbush,
    konane, notation, toads_and_frogs,
};
use crate::registry::{Answer, MoveValue, Params, QueryError, find};
use serde_json::{Map, Value, json};

/// The largest heap of an impartial component in a sum with partizan ones: its moves are
/// listed one by one, each valued in the sum.
pub const MAX_HEAP: u32 = 4_096;

/// The longest best line followed.
const MAX_LINE: usize = 400;

/// One move in one component: its name, the component after it as words, its value, and
/// whether the other side has no move in the component after it.
struct PartMove {
    name: String,
    words: String,
    value: GameId,
    leaves_no_reply: bool,
}

/// One component of a sum, whatever its game.
trait Part {
    /// The component written back as the sum takes it (`GAME:POSITION`, `GAME:HEAP` words).
    fn words(&self) -> String;
    /// The game's name.
    fn game(&self) -> String;
    /// The position alone.
    fn position(&self) -> String;
    /// An impartial component's heaps (none for a partizan one).
    fn heaps(&self) -> Option<&[u32]> {
        None
    }
    /// Its value.
    fn value(&mut self, games: &mut GameTable) -> Result<GameId, QueryError>;
    /// Each move of `side` here, in a fixed order.
    fn moves(&mut self, games: &mut GameTable, side: Player) -> Result<Vec<PartMove>, QueryError>;
    /// Makes the `index`-th move of `side` (as [`Part::moves`] lists them).
    fn play(&mut self, side: Player, index: usize);
    /// Seconds its value is estimated to take.
    fn estimate(&self) -> f64;
}

/// A component of a partizan game of the registry, with its own valuer.
struct Partizan<R: Played> {
    valuer: Valuer<R>,
    position: R::Position,
}

impl<R: Played> Part for Partizan<R> {
    fn words(&self) -> String {
        format!("{}:{}", R::NAME, self.position())
    }
    fn game(&self) -> String {
        R::NAME.into()
    }
    fn position(&self) -> String {
        self.valuer.rules().show(&self.position)
    }
    fn value(&mut self, games: &mut GameTable) -> Result<GameId, QueryError> {
        Ok(self.valuer.value(games, &self.position)?)
    }
    fn moves(&mut self, games: &mut GameTable, side: Player) -> Result<Vec<PartMove>, QueryError> {
        let named = self.valuer.rules().named_options(&self.position, side);
        let mut moves = Vec::with_capacity(named.len());
        for (name, option) in named {
            let value = self.valuer.value(games, &option)?;
            let rules = self.valuer.rules();
            let words = format!("{}:{}", R::NAME, rules.show(&option));
            let leaves_no_reply = rules.options(&option, side.other()).is_empty();
            moves.push(PartMove {
                name,
                words,
                value,
                leaves_no_reply,
            });
        }
        Ok(moves)
    }
    fn play(&mut self, side: Player, index: usize) {
        let named = self.valuer.rules().named_options(&self.position, side);
        if let Some((_, option)) = named.into_iter().nth(index) {
            self.position = option;
        }
    }
    fn estimate(&self) -> f64 {
        self.valuer.rules().estimate(&self.position)
    }
}

/// An impartial heap game's component: the heaps it has become (one to start with; a move
/// may split a heap), worth the nimber of their Grundy values' nim-sum.
struct Heaps {
    game: HeapGame,
    values: Values,
    heaps: Vec<u32>,
}

impl Heaps {
    fn heap_moves(&self, h: u32) -> Vec<(u32, Vec<u32>)> {
        SumGame {
            games: vec![self.game.clone()],
            misere: false,
        }
        .heap_moves(0, h)
    }

    fn grundy(&self, heaps: &[u32]) -> u32 {
        heaps
            .iter()
            .map(|&h| self.values.get(u64::from(h)).unwrap_or(0))
            .fold(0, |a, b| a ^ b)
    }

    /// Every move: the heap it is made in, tokens taken, heaps left in its place.
    fn every_move(&self) -> Vec<(usize, u32, Vec<u32>)> {
        let mut moves = Vec::new();
        for (i, &h) in self.heaps.iter().enumerate() {
            // Equal heaps have equal moves: the first one's are listed.
            if self.heaps[..i].contains(&h) {
                continue;
            }
            for (take, leaves) in self.heap_moves(h) {
                moves.push((i, take, leaves));
            }
        }
        moves
    }

    fn after(&self, heap: usize, leaves: &[u32]) -> Vec<u32> {
        let mut after = self.heaps.clone();
        after.remove(heap);
        after.extend(leaves.iter().copied().filter(|&l| l > 0));
        after
    }

    fn words_of(&self, heaps: &[u32]) -> String {
        if heaps.is_empty() {
            return format!("{}:0", self.game);
        }
        heaps
            .iter()
            .map(|h| format!("{}:{h}", self.game))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Part for Heaps {
    fn words(&self) -> String {
        self.words_of(&self.heaps)
    }
    fn game(&self) -> String {
        self.game.to_string()
    }
    fn position(&self) -> String {
        super::join(&self.heaps)
    }
    fn heaps(&self) -> Option<&[u32]> {
        Some(&self.heaps)
    }
    fn value(&mut self, games: &mut GameTable) -> Result<GameId, QueryError> {
        Ok(games.nimber(self.grundy(&self.heaps))?)
    }
    fn moves(&mut self, games: &mut GameTable, _: Player) -> Result<Vec<PartMove>, QueryError> {
        let several = self.heaps.len() > 1;
        let mut moves = Vec::new();
        for (heap, take, leaves) in self.every_move() {
            let m = ComponentMove {
                component: heap + 1,
                take: take.into(),
                leaves: leaves.iter().map(|&l| l.into()).collect(),
                turns_coins: matches!(self.game, HeapGame::CoinTurning(_)),
            };
            let name = if several {
                format!("heap {}: {}", heap + 1, m.describe())
            } else {
                m.describe()
            };
            let after = self.after(heap, &leaves);
            moves.push(PartMove {
                name,
                words: self.words_of(&after),
                value: games.nimber(self.grundy(&after))?,
                leaves_no_reply: after.iter().all(|&h| self.heap_moves(h).is_empty()),
            });
        }
        Ok(moves)
    }
    fn play(&mut self, _: Player, index: usize) {
        if let Some((heap, _, leaves)) = self.every_move().into_iter().nth(index) {
            self.heaps = self.after(heap, &leaves);
        }
    }
    fn estimate(&self) -> f64 {
        0.0
    }
}

/// The partizan game a component's word names, if any (`domineering:..|..`).
fn partizan_name(word: &str) -> Option<&'static str> {
    let (game, _) = word.split_once(':')?;
    let info = find(game)?;
    matches!(
        info.name,
        "domineering"
            | "clobber"
            | "konane"
            | "amazons"
            | "toads-and-frogs"
            | "hackenbush"
            | "cutcake"
    )
    .then_some(info.name)
}

/// Whether a sum's position has a partizan component (then [`answer`] values it).
#[must_use]
pub fn has_partizan_component(position: &str) -> bool {
    position
        .split_whitespace()
        .any(|w| partizan_name(w).is_some())
}

fn partizan_part<R: Played + 'static>(
    rules: R,
    position: R::Position,
    budget: &Budget,
) -> Box<dyn Part> {
    Box::new(Partizan {
        valuer: Valuer::with_cancel(rules, budget.cancel.clone())
            .with_progress(budget.progress.clone()),
        position,
    })
}

/// One component from its word.
fn part(word: &str, budget: &Budget) -> Result<Box<dyn Part>, QueryError> {
    if let Some(game) = partizan_name(word) {
        let (_, position) = word.split_once(':').unwrap_or_default();
        return Ok(match game {
            "domineering" => partizan_part(
                domineering::Domineering,
                domineering::parse(position)?,
                budget,
            ),
            "clobber" => partizan_part(clobber::Clobber, clobber::parse(position)?, budget),
            "konane" => partizan_part(konane::Konane, konane::parse(position)?, budget),
            "amazons" => partizan_part(amazons::Amazons, amazons::parse(position)?, budget),
            "toads-and-frogs" => partizan_part(
                toads_and_frogs::ToadsAndFrogs,
                toads_and_frogs::parse(position)?,
                budget,
            ),
            "hackenbush" => partizan_part(
                hackenbush::HackenbushStalks,
                hackenbush::parse(position)?,
                budget,
            ),
            _ => partizan_part(cutcake::Cutcake, cutcake::parse(position)?, budget),
        });
    }
    let component: Component = word.parse().map_err(QueryError::bad)?;
    let heap = u32::try_from(&component.heap)
        .ok()
        .filter(|&h| h <= MAX_HEAP)
        .ok_or_else(|| {
            QueryError::BadInput(format!(
                "{}: a heap in a sum with partizan components is at most {MAX_HEAP} (each of its moves is valued in the sum); without partizan components, `sum` takes heaps of any size",
                crate::parse::shorten(word)
            ))
        })?;
    let limits = sum::limits(budget);
    let values = Values::compute(&component.game, u64::from(heap), &limits, &|_, _| {})
        .map_err(|e| sum::query_error(e, budget))?;
    Ok(Box::new(Heaps {
        game: component.game,
        values,
        heaps: if heap == 0 { Vec::new() } else { vec![heap] },
    }))
}

/// The sum's position: every component's words.
fn words_of(parts: &[Box<dyn Part>]) -> String {
    parts
        .iter()
        .map(|p| p.words())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A move of the sum as the answer names it: `{"component", "move"}`.
fn move_of(component: usize, name: &str) -> Value {
    json!({"component": component + 1, "move": name})
}

/// The value of the sum of `values`, the one `replaced` names swapped for another value.
fn total(
    games: &mut GameTable,
    values: &[GameId],
    replaced: Option<(usize, GameId)>,
) -> Result<GameId, QueryError> {
    let mut sum = GameId::ZERO;
    for (i, &v) in values.iter().enumerate() {
        let v = match replaced {
            Some((j, w)) if j == i => w,
            _ => v,
        };
        sum = games.sum(sum, v)?;
    }
    Ok(sum)
}

/// The answer for a sum with partizan components: `position` its `GAME:POSITION` words,
/// `to_move` Left or Right.
///
/// # Errors
/// A component that does not read, misère play asked for, a heap past [`MAX_HEAP`], or
/// work over the budget or the memory limit.
pub fn answer(params: &Params, position: &str, budget: &Budget) -> Result<Answer, QueryError> {
    if params.text("misere") == Some("true") {
        return Err(QueryError::BadInput(
            "misère play is for sums of impartial games: a partizan component is valued in normal play only".into(),
        ));
    }
    let to_move = player(params)?;
    let mut parts = position
        .split_whitespace()
        .map(|w| part(w, budget))
        .collect::<Result<Vec<_>, _>>()?;
    if parts.is_empty() {
        return Err(QueryError::BadInput("a sum needs a component".into()));
    }
    let shown = words_of(&parts);
    let estimate: f64 = parts.iter().map(|p| p.estimate()).sum();
    budget.check_time(|| format!("the value of the sum {shown}"), estimate)?;
    budget.admit(estimate)?;
    budget.cancel.check()?;
    let memory = budget.memory(DEFAULT_MEMORY);
    let heap_bytes: u64 = parts.len() as u64 * u64::from(MAX_HEAP) * BYTES_PER_HEAP;
    let mut games = GameTable::with_limit(report::forms_within(memory.saturating_sub(heap_bytes)));
    let values = parts
        .iter_mut()
        .map(|p| p.value(&mut games))
        .collect::<Result<Vec<_>, _>>()?;
    let whole = total(&mut games, &values, None)?;
    let told = report::report(&mut games, whole, to_move)?;
    let mut details = report_details(&told);
    let mut components = Vec::new();
    for (p, &v) in parts.iter().zip(&values) {
        let mut c = json!({
            "game": p.game(),
            "position": p.position(),
            "value": notation::show(&mut games, v),
        });
        if let Some(heaps) = p.heaps() {
            c["heaps"] = json!(heaps);
        }
        components.push(c);
    }
    details.insert("misere".into(), json!(false));
    details.insert("components".into(), json!(components));
    // Every move of each side, in each component, valued by the sum it leaves: each
    // component's words and moves found once.
    let words: Vec<String> = parts.iter().map(|p| p.words()).collect();
    let side_index = |side: Player| usize::from(side == Player::Right);
    let mut moves = [Vec::new(), Vec::new()];
    for side in [Player::Left, Player::Right] {
        for p in &mut parts {
            moves[side_index(side)].push(p.moves(&mut games, side)?);
        }
    }
    let other_has_move: Vec<bool> = moves[side_index(to_move.other())]
        .iter()
        .map(|m| !m.is_empty())
        .collect();
    let mut mover_moves = Vec::new();
    for side in [Player::Left, Player::Right] {
        let mut listed = Vec::new();
        for (i, part_moves) in std::mem::take(&mut moves[side_index(side)])
            .into_iter()
            .enumerate()
        {
            // Equal components have equal moves: the first one's are listed (as in a sum
            // of heaps).
            if words[..i].contains(&words[i]) {
                continue;
            }
            for m in part_moves {
                let after = total(&mut games, &values, Some((i, m.value)))?;
                let wins = !games.outcome(after).first_player_wins(side.other());
                let value = notation::show(&mut games, after);
                let mut after_words = words.clone();
                after_words[i] = m.words;
                let after_position = after_words.join(" ");
                listed.push(json!({
                    "component": i + 1,
                    "move": m.name,
                    "value": value,
                    "wins": wins,
                    "position": after_position,
                }));
                if side == to_move {
                    let mut d = Map::new();
                    d.insert("value".into(), json!(value));
                    d.insert("to_move".into(), json!(player_name(side.other())));
                    mover_moves.push(MoveValue {
                        mv: move_of(i, &m.name),
                        outcome: if wins { Outcome::Win } else { Outcome::Loss },
                        remoteness: None,
                        ends_game: m.leaves_no_reply
                            && other_has_move
                                .iter()
                                .enumerate()
                                .all(|(j, &has)| j == i || !has),
                        position: Some(after_position),
                        details: d,
                    });
                }
            }
        }
        listed.sort_by_key(|m| !m["wins"].as_bool().unwrap_or(false));
        details.insert(format!("{}_moves", player_name(side)), Value::Array(listed));
    }
    let line = best_line(&mut parts, &mut games, &values, to_move)?;
    Ok(valued_answer(
        "sum",
        shown,
        &told,
        mover_moves,
        line,
        details,
    ))
}

/// One line of perfect play: a winning move while the player to move has one, else the
/// first move, the players alternating, to the end (at most [`MAX_LINE`] moves). Each move
/// `component N: MOVE`, as `play` takes it.
fn best_line(
    parts: &mut [Box<dyn Part>],
    games: &mut GameTable,
    values: &[GameId],
    to_move: Player,
) -> Result<Vec<Value>, QueryError> {
    let mut values = values.to_vec();
    let mut side = to_move;
    let mut line = Vec::new();
    while line.len() < MAX_LINE {
        let mut chosen: Option<(usize, usize, String, GameId)> = None;
        'parts: for (i, part) in parts.iter_mut().enumerate() {
            for (index, m) in part.moves(games, side)?.into_iter().enumerate() {
                let after = total(games, &values, Some((i, m.value)))?;
                let wins = !games.outcome(after).first_player_wins(side.other());
                if chosen.is_none() || wins {
                    chosen = Some((i, index, m.name, m.value));
                    if wins {
                        break 'parts;
                    }
                }
            }
        }
        let Some((i, index, name, value)) = chosen else {
            break;
        };
        line.push(json!(format!("component {}: {name}", i + 1)));
        parts[i].play(side, index);
        values[i] = value;
        side = side.other();
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::registry::answers::partizan::tests::answer as ask;

    fn winning_count(a: &Answer, side: &str) -> usize {
        a.details[&format!("{side}_moves")]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["wins"] == true)
            .count()
    }

    /// A Domineering board of `width` columns from bits (1 an empty cell, 0 a covered one).
    fn board(width: usize, bits: &[bool]) -> String {
        bits.chunks(width)
            .map(|row| row.iter().map(|&b| if b { '.' } else { '#' }).collect())
            .collect::<Vec<String>>()
            .join("|")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Two boards summed are the board of both, a covered row between them: the same
        /// value, and as many winning moves for each side (the board valued whole, its
        /// regions found by the game; the sum valued part by part).
        #[test]
        fn a_sum_of_boards_is_the_board_of_both(
            a in proptest::collection::vec(any::<bool>(), 6..=9),
            b in proptest::collection::vec(any::<bool>(), 3..=9),
            right in any::<bool>(),
        ) {
            let to_move = if right { "right" } else { "left" };
            let (a, b) = (board(3, &a[..a.len() / 3 * 3]), board(3, &b[..b.len() / 3 * 3]));
            let sum = ask("sum", &format!("domineering:{a} domineering:{b}"), to_move);
            let whole = ask("domineering", &format!("{a}|###|{b}"), to_move);
            prop_assert_eq!(&sum.details["value"], &whole.details["value"]);
            prop_assert_eq!(sum.first_player_wins, whole.first_player_wins);
            // Equal components' moves are listed once in the sum, twice on the board.
            for side in ["left", "right"].into_iter().filter(|_| a != b) {
                prop_assert_eq!(winning_count(&sum, side), winning_count(&whole, side));
            }
        }

        /// Impartial heaps among partizan components are nimbers: with a component worth 0
        /// added, the sum is *n for the nim-sum n that Sprague-Grundy gives, and has the
        /// same winning moves.
        #[test]
        fn heaps_in_a_partizan_sum_are_their_nimbers(
            heaps in proptest::collection::vec((0usize..3, 0u32..14), 1..4),
        ) {
            let games = ["nim", "0.77", "grundy"];
            let words: Vec<String> =
                heaps.iter().map(|&(g, h)| format!("{}:{h}", games[g])).collect();
            let impartial = ask("sum", &words.join(" "), "left");
            let nim_sum = impartial.details["nim_sum"].as_u64().unwrap();
            let partizan = ask("sum", &format!("clobber:x. {}", words.join(" ")), "left");
            let expected = match nim_sum {
                0 => "0".to_string(),
                1 => "*".to_string(),
                n => format!("*{n}"),
            };
            prop_assert_eq!(partizan.details["value"].as_str().unwrap(), expected);
            prop_assert_eq!(partizan.first_player_wins, impartial.first_player_wins);
            prop_assert_eq!(
                partizan.winning_moves.len(),
                impartial.winning_moves_total.as_u64().unwrap() as usize
            );
        }
    }

    #[test]
    fn the_answer_tells_each_component_and_every_move() {
        // +-1 + * + *3 = +-1*2: the player to move wins only by the domino (Winning Ways).
        let a = ask("sum", "domineering:..|.. clobber:xo nim:3", "left");
        assert_eq!(a.details["value"], "+-1*2");
        let values: Vec<&str> = a.details["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["value"].as_str().unwrap())
            .collect();
        assert_eq!(values, ["+-1", "*", "*3"]);
        assert_eq!(a.details["components"][2]["heaps"], json!([3]));
        assert_eq!(a.moves.len(), 6);
        assert_eq!(a.winning_moves.len(), 2);
        assert!(a.winning_moves.iter().all(|m| m["component"] == 1));
        assert_eq!(a.moves[0].details["to_move"], "right");
        // A move's position is the whole sum after it, and answers again.
        let next = a.moves[0].position.clone().unwrap();
        let b = ask("sum", &next, "right");
        assert!(!b.first_player_wins);
        // The best line alternates and ends where the player to move has no move.
        let line = a.best_line.as_ref().unwrap();
        assert_eq!(line.len(), 3, "{line:?}");
        assert_eq!(line[0], "component 1: a1-a2");
    }

    #[test]
    fn a_move_that_leaves_no_reply_anywhere_ends_the_game() {
        // Left cuts the blue edge; Right has no move in Hackenbush and none in x. (Clobber).
        let a = ask("sum", "hackenbush:l clobber:x.", "left");
        assert_eq!(a.moves.len(), 1);
        assert!(a.moves[0].ends_game);
        // With a nim heap beside it, cutting leaves Right the heap; taking the heap leaves
        // Right nothing (Hackenbush's blue edge is Left's alone).
        let a = ask("sum", "hackenbush:l nim:1", "left");
        let ends: Vec<(Value, bool)> = a
            .moves
            .iter()
            .map(|m| (m.mv["component"].clone(), m.ends_game))
            .collect();
        assert_eq!(ends.len(), 2);
        assert!(ends.contains(&(json!(1), false)) && ends.contains(&(json!(2), true)));
    }

    #[test]
    fn what_a_partizan_sum_cannot_take_is_refused_with_the_reason() {
        let info = find("sum").unwrap();
        let misere = info
            .params_from(&[("misere".into(), "true".into())])
            .unwrap();
        let e = info
            .answer(&misere, "clobber:xo nim:2", &Budget::default())
            .unwrap_err();
        assert!(e.to_string().contains("misère"), "{e}");
        let params = info.params_from(&[]).unwrap();
        let e = info
            .answer(&params, "clobber:xo nim:5000", &Budget::default())
            .unwrap_err();
        assert!(e.to_string().contains("4096"), "{e}");
        let e = info
            .answer(&params, "clobber:xq", &Budget::default())
            .unwrap_err();
        assert!(matches!(e, QueryError::BadInput(_)), "{e}");
        let bad_side = info
            .params_from(&[("to_move".into(), "up".into())])
            .unwrap();
        let e = info
            .answer(&bad_side, "clobber:xo", &Budget::default())
            .unwrap_err();
        assert!(e.to_string().contains("left or right"), "{e}");
    }
}
