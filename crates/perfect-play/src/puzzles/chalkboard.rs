//! Chalkboard XOR Game (LeetCode 810): numbers on a board; a move erases one; a player who
//! starts their turn with the XOR of the board equal to 0 wins (so erasing a number that
//! leaves XOR 0 loses).
//!
//! The theorem: the player to move wins exactly when the XOR is 0 or the count of numbers is
//! even. With an even count and XOR `X != 0`, not every number equals `X` (an even count of
//! equal numbers has XOR 0), so a number other than `X` can be erased, leaving an odd count
//! and XOR not 0; from an odd count and XOR not 0 every move leaves an even count. So any
//! board is answered in one pass, and every move by the count and the XOR after it. The
//! remoteness depends on the numbers' multiplicities: it is searched exactly while the board
//! has at most [`SEARCHED_UPTO`] numbers.

use super::{Limits, PuzzleError, Scored, Searched, Solution};
use crate::{Game, Transition};

/// Boards of at most this many numbers get their remoteness and a best line by search.
pub const SEARCHED_UPTO: usize = 14;

/// The position: the numbers on the board. Moves are named by the number erased (one move
/// per distinct number).
///
/// # Errors
/// Cancelled.
pub fn solve(numbers: &[u64], limits: &Limits) -> Result<Solution<u64>, PuzzleError> {
    let xor = numbers.iter().fold(0, |x, v| x ^ v);
    let n = numbers.len();
    limits.cancel.check()?;
    let margin = if xor == 0 || n.is_multiple_of(2) {
        1
    } else {
        -1
    };
    if xor == 0 {
        return Ok(Solution {
            margin,
            remoteness: Some(0),
            moves: Vec::new(),
            moves_total: Some(0),
            winning_total: Some(0),
            line: Some(Vec::new()),
        });
    }
    let mut distinct = numbers.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let total = distinct.len() as u64;
    let searched = (n <= SEARCHED_UPTO).then(|| {
        let mut board = numbers.to_vec();
        board.sort_unstable();
        Searched::new(Chalkboard, &board)
    });
    let mut moves: Vec<Scored<u64>> = distinct
        .iter()
        .map(|&v| {
            let after = xor ^ v;
            // The opponent then wins if the XOR is 0 or their count (n - 1) is even.
            let opponent_wins = after == 0 || (n - 1).is_multiple_of(2);
            let remoteness = searched.as_ref().and_then(|s| s.of_move(&v));
            Scored {
                mv: v,
                margin: if opponent_wins { -1 } else { 1 },
                remoteness,
            }
        })
        .collect();
    let winning = super::best_first(&mut moves, limits.max_listed);
    let (remoteness, line) = searched.map_or((None, None), Searched::remoteness_and_line);
    Ok(Solution {
        margin,
        remoteness,
        moves,
        moves_total: Some(total),
        winning_total: Some(winning),
        line,
    })
}

/// The Chalkboard XOR Game as a [`Game`] for the reference solver: the board, sorted; no
/// moves (a win) when its XOR is 0.
#[derive(Clone, Copy, Debug)]
pub struct Chalkboard;

impl Game for Chalkboard {
    type Position = Vec<u64>;
    type Move = u64;
    fn start(&self) -> Vec<u64> {
        Vec::new()
    }
    fn moves(&self, board: &Vec<u64>) -> Vec<u64> {
        if board.iter().fold(0, |x, v| x ^ v) == 0 {
            return Vec::new();
        }
        let mut distinct = board.clone();
        distinct.dedup();
        distinct
    }
    fn play(&self, board: &Vec<u64>, &v: &u64) -> Transition<Vec<u64>> {
        let mut rest = board.clone();
        if let Some(at) = rest.iter().position(|&x| x == v) {
            rest.remove(at);
        }
        Transition::to(rest)
    }
    fn no_moves(&self, _: &Vec<u64>) -> crate::Ending {
        crate::Ending::Win
    }
    fn position_bytes(&self, board: &Vec<u64>) -> usize {
        board.len() * 8
    }
}
