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
