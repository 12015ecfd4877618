//! Nim: any number of heaps, take any positive number of tokens from one heap.
//!
//! Written only through the [`Game`] trait as the first proof of the model, plus the closed-form
//! rules (Bouton's XOR rule for normal play, and the misère rule) that other families reuse.

use crate::game::{Ending, Game, Transition};
use serde::Serialize;
use std::fmt;

/// Nim with the given starting heaps. Positions are the heap sizes in their given order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    /// The starting heap sizes.
    pub heaps: Vec<u64>,
    /// Misère play: whoever takes the last token loses.
    pub misere: bool,
}

impl Nim {
    /// Normal play: taking the last token wins.
    #[must_use]
    pub fn normal(heaps: Vec<u64>) -> Nim {
        Nim {
            heaps,
            misere: false,
        }
    }

    /// Misère play: taking the last token loses.
    #[must_use]
    pub fn misere(heaps: Vec<u64>) -> Nim {
        Nim {
            heaps,
            misere: true,
        }
    }
}

/// Take `take` tokens from heap `heap` (0-based; shown 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimMove {
    /// Index of the heap, 0-based.
    pub heap: usize,
    /// How many tokens to take (at least 1).
    pub take: u64,
}

impl fmt::Display for NimMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {} from heap {}", self.take, self.heap + 1)
    }
}

impl Serialize for NimMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("NimMove", 2)?;
        st.serialize_field("heap", &(self.heap + 1))?;
        st.serialize_field("take", &self.take)?;
        st.end()
    }
}

impl Game for Nim {
    type Position = Vec<u64>;
    type Move = NimMove;

    fn start(&self) -> Vec<u64> {
        self.heaps.clone()
    }

    fn moves(&self, heaps: &Vec<u64>) -> Vec<NimMove> {
        heaps
            .iter()
            .enumerate()
            .flat_map(|(heap, &size)| (1..=size).map(move |take| NimMove { heap, take }))
            .collect()
    }

    fn play(&self, heaps: &Vec<u64>, mv: &NimMove) -> Transition<Vec<u64>> {
        let mut next = heaps.clone();
        next[mv.heap] -= mv.take;
        Transition::to(next)
    }

    /// With no token left the previous player took the last one: a loss in normal play, a win
    /// in misère play.
    fn no_moves(&self, _: &Vec<u64>) -> Ending {
        if self.misere {
            Ending::Win
        } else {
            Ending::Loss
        }
    }

    fn position_bytes(&self, heaps: &Vec<u64>) -> usize {
        heaps.len() * std::mem::size_of::<u64>()
    }
}

/// How a Nim answer was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NimMethod {
    /// Exact search over every position: remoteness, every move, best line.
    Search,
    /// Bouton's rule (normal or misère) for the outcome and the winning moves; remoteness from
    /// a closed form where one is known (one heap, or two heaps in normal play).
    BoutonRule,
}

/// Bounds on the exact search; past them the answer comes from Bouton's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimLimits {
    /// Most move evaluations the search may make (positions times moves per position).
    pub max_work: u128,
    /// Bytes the search's table may take.
    pub memory_limit: u64,
}

impl Default for NimLimits {
    fn default() -> NimLimits {
        NimLimits {
            max_work: 20_000_000,
            memory_limit: 1 << 30,
        }
    }
}

/// A move with its value for the mover; remoteness when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimMoveValue {
    /// The move.
    pub mv: NimMove,
    /// Win or loss for the mover.
    pub outcome: crate::Outcome,
    /// Moves to the end after it (counting it), when known.
    pub remoteness: Option<u64>,
}

/// The answer for one Nim position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimAnswer {
    /// Win or loss for the player to move.
    pub outcome: crate::Outcome,
    /// Moves to the end under perfect play, when known.
    pub remoteness: Option<u64>,
    /// The moves valued: every legal move after a search, the winning moves alone under
    /// Bouton's rule (see `moves_complete`).
    pub moves: Vec<NimMoveValue>,
    /// Whether `moves` holds every legal move.
    pub moves_complete: bool,
    /// Every winning move.
    pub winning_moves: Vec<NimMove>,
    /// The moves that achieve the exact value (fastest win, slowest loss), when known.
    pub optimal_moves: Option<Vec<NimMove>>,
    /// One line of perfect play to the end, when searched.
    pub best_line: Option<Vec<NimMove>>,
    /// Positions the search solved (0 under Bouton's rule).
    pub states: usize,
    /// How the answer was found.
    pub method: NimMethod,
}

/// Move evaluations a full search from `heaps` makes: every sub-position, times its moves.
#[must_use]
pub fn search_work(heaps: &[u64]) -> u128 {
    let positions = heaps
        .iter()
        .map(|&h| u128::from(h) + 1)
        .try_fold(1u128, u128::checked_mul);
    let moves_each = heaps.iter().map(|&h| u128::from(h)).sum::<u128>() / 2 + 1;
    positions
        .and_then(|p| p.checked_mul(moves_each))
        .unwrap_or(u128::MAX)
}

/// Solve Nim on `heaps`: by exact search when it fits `limits`, else by Bouton's rule.
#[must_use]
pub fn analyse(heaps: &[u64], misere: bool, limits: &NimLimits) -> NimAnswer {
    use crate::Outcome;
    if search_work(heaps) <= limits.max_work {
        let game = Nim {
            heaps: heaps.to_vec(),
            misere,
        };
        let mut solver = crate::Solver::with_memory_limit(game, limits.memory_limit);
        if let Ok(a) = solver.try_analyse(&heaps.to_vec()) {
            return NimAnswer {
                outcome: a.value.outcome(),
                remoteness: Some(u64::from(a.value.remoteness)),
                moves: a
                    .moves
                    .iter()
                    .map(|m| NimMoveValue {
                        mv: m.mv,
                        outcome: m.value.outcome(),
                        remoteness: Some(u64::from(m.value.remoteness)),
                    })
                    .collect(),
                moves_complete: true,
                winning_moves: a.winning_moves(),
                optimal_moves: Some(a.optimal_moves()),
                best_line: Some(a.best_line.clone()),
                states: solver.states(),
                method: NimMethod::Search,
            };
        }
    }
    let winning = if misere {
        misere_winning_moves(heaps)
    } else {
        winning_moves(heaps)
    };
    let wins = if misere {
        misere_wins(heaps)
    } else {
        nim_sum(heaps) != 0
    };
    let closed = if misere {
        None
    } else {
        normal_remoteness(heaps)
    };
    let optimal_moves = closed.and_then(|_| normal_optimal_moves(heaps));
    NimAnswer {
        outcome: if wins { Outcome::Win } else { Outcome::Loss },
        remoteness: closed,
        moves: winning
            .iter()
            .map(|&mv| NimMoveValue {
                mv,
                outcome: Outcome::Win,
                remoteness: closed,
            })
            .collect(),
        moves_complete: winning.len() as u128 == heaps.iter().map(|&h| u128::from(h)).sum::<u128>(),
        winning_moves: winning,
        optimal_moves,
        best_line: None,
        states: 0,
        method: NimMethod::BoutonRule,
    }
}

/// Remoteness in normal play where a closed form is known: no heap (0), one heap (1: take it
/// all), two heaps (equal heaps of `a` lose in `2a`: the loser takes one token, the winner
/// mirrors; unequal ones win in `2 min + 1` by equalising first).
fn normal_remoteness(heaps: &[u64]) -> Option<u64> {
    let nonzero: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    match nonzero[..] {
        [] => Some(0),
        [_] => Some(1),
        [a, b] if a == b => a.checked_mul(2),
        [a, b] => a.min(b).checked_mul(2).and_then(|r| r.checked_add(1)),
        _ => None,
    }
}

/// The optimal moves where [`normal_remoteness`] is known: the winning moves when the
/// position wins (each equalises, and the equalising move is unique), else taking one token
/// from either heap (the slowest loss).
fn normal_optimal_moves(heaps: &[u64]) -> Option<Vec<NimMove>> {
    let won = nim_sum(heaps) != 0;
    if won {
        return Some(winning_moves(heaps));
    }
    Some(
        heaps
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h > 0)
            .map(|(heap, _)| NimMove { heap, take: 1 })
            .collect(),
    )
}

/// The XOR of all heap sizes (Grundy values). Zero exactly when the player to move loses.
#[must_use]
pub fn nim_sum(values: &[u64]) -> u64 {
    values.iter().fold(0, |acc, v| acc ^ v)
}

/// Every winning move in normal-play Nim by Bouton's rule: reduce a heap `h` to `h ^ nim_sum`
/// wherever that is smaller. Empty when the position is lost.
#[must_use]
pub fn winning_moves(heaps: &[u64]) -> Vec<NimMove> {
    let sum = nim_sum(heaps);
    heaps
        .iter()
        .enumerate()
        .filter(|&(_, &h)| h ^ sum < h)
        .map(|(heap, &h)| NimMove {
            heap,
            take: h - (h ^ sum),
        })
        .collect()
}

/// Whether the player to move wins misère Nim (whoever takes the last token loses).
///
/// Bouton's rule: play as in normal Nim while some heap exceeds 1; when every heap is 0 or 1,
/// the player to move wins exactly when the number of 1-heaps is even.
#[must_use]
pub fn misere_wins(heaps: &[u64]) -> bool {
    if heaps.iter().all(|&h| h <= 1) {
        heaps.iter().filter(|&&h| h == 1).count() % 2 == 0
    } else {
        nim_sum(heaps) != 0
    }
}

/// Every winning move in misère Nim, by testing each candidate against [`misere_wins`].
///
/// Only three targets can win: the normal-play target `h ^ nim_sum`, and 0 or 1 (the endgame
/// where one heap above 1 is reduced to leave an odd number of 1-heaps).
#[must_use]
pub fn misere_winning_moves(heaps: &[u64]) -> Vec<NimMove> {
    let sum = nim_sum(heaps);
    let mut after = heaps.to_vec();
    let mut found = Vec::new();
    for (heap, &size) in heaps.iter().enumerate() {
        let mut targets = vec![0, 1, size ^ sum];
        targets.sort_unstable_by(|a, b| b.cmp(a)); // largest target first: takes ascending
        targets.dedup();
        for target in targets.into_iter().filter(|&t| t < size) {
            after[heap] = target;
            if !misere_wins(&after) {
                found.push(NimMove {
                    heap,
                    take: size - target,
                });
            }
        }
        after[heap] = size;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms_agree_with_search() {
        let tiny = NimLimits {
            max_work: 0,
            ..NimLimits::default()
        };
        for a in 0..12u64 {
            for b in 0..12u64 {
                for heaps in [vec![a], vec![a, b], vec![a, 0, b]] {
                    let searched = analyse(&heaps, false, &NimLimits::default());
                    assert_eq!(searched.method, NimMethod::Search);
                    let rule = analyse(&heaps, false, &tiny);
                    assert_eq!(rule.method, NimMethod::BoutonRule);
                    assert_eq!(rule.outcome, searched.outcome, "{heaps:?}");
                    assert_eq!(rule.remoteness, searched.remoteness, "{heaps:?}");
                    assert_eq!(rule.winning_moves, searched.winning_moves, "{heaps:?}");
                    assert_eq!(rule.optimal_moves, searched.optimal_moves, "{heaps:?}");
                    let misere = analyse(&heaps, true, &tiny);
                    let misere_searched = analyse(&heaps, true, &NimLimits::default());
                    assert_eq!(misere.outcome, misere_searched.outcome, "{heaps:?}");
                    assert_eq!(
                        misere.winning_moves, misere_searched.winning_moves,
                        "{heaps:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn huge_heaps_are_answered_by_the_rule_at_once() {
        let a = analyse(&[100_000], false, &NimLimits::default());
        assert_eq!((a.method, a.remoteness), (NimMethod::BoutonRule, Some(1)));
        let a = analyse(&[1000, 1000], false, &NimLimits::default());
        assert_eq!(
            (a.outcome, a.remoteness),
            (crate::Outcome::Loss, Some(2000))
        );
        let heaps = [u64::MAX, u64::MAX - 1, 5];
        let a = analyse(&heaps, true, &NimLimits::default());
        assert_eq!(a.remoteness, None);
        // Each heap can be brought to heap ^ 4, the nim-sum: three moves, each to nim-sum 0.
        assert_eq!(a.winning_moves.len(), 3);
        for m in &a.winning_moves {
            let mut after = heaps;
            after[m.heap] -= m.take;
            assert_eq!(nim_sum(&after), 0);
        }
    }
    use crate::player::Outcome;
    use crate::solver::Solver;

    /// Every position with up to `heaps` heaps of up to `max` tokens.
    fn all_positions(heaps: usize, max: u64) -> Vec<Vec<u64>> {
        let mut all = vec![vec![]];
        let mut layer: Vec<Vec<u64>> = vec![vec![]];
        for _ in 0..heaps {
            layer = layer
                .iter()
                .flat_map(|p| (0..=max).map(move |h| [p.as_slice(), &[h]].concat()))
                .collect();
            all.extend(layer.iter().cloned());
        }
        all
    }

    #[test]
    fn solver_agrees_with_xor_rule_up_to_four_heaps_of_seven() {
        let positions = all_positions(4, 7);
        assert_eq!(positions.len(), 1 + 8 + 64 + 512 + 4096);
        let mut solver = Solver::new(Nim::normal(vec![]));
        for heaps in positions {
            let analysis = solver.analyse(&heaps);
            let expected = if nim_sum(&heaps) != 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            assert_eq!(analysis.value.outcome(), expected, "{heaps:?}");
            assert_eq!(analysis.winning_moves(), winning_moves(&heaps), "{heaps:?}");
        }
    }

    #[test]
    fn misere_rule_agrees_with_search() {
        let mut solver = Solver::new(Nim::misere(vec![]));
        for heaps in all_positions(3, 6) {
            let analysis = solver.analyse(&heaps);
            assert_eq!(
                analysis.value.outcome() == Outcome::Win,
                misere_wins(&heaps),
                "{heaps:?}"
            );
            assert_eq!(
                analysis.winning_moves(),
                misere_winning_moves(&heaps),
                "{heaps:?}"
            );
        }
    }
}
