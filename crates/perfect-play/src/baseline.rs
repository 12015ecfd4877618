//! The seeds' own algorithms, written plainly in Rust.
//!
//! They are the baselines every benchmark measures against and independent oracles in the tests.
//! None of them is used by the fast solvers.

use crate::tic_tac_toe::{Board, TicTacToe};
use crate::{Game, Outcome, Solver};

/// Plain minimax without memoisation: the textbook tic-tac-toe search, for benchmarks.
/// Returns the outcome for the player to move.
#[must_use]
pub fn tic_tac_toe_minimax(board: &Board) -> Outcome {
    let game = TicTacToe { board: *board };
    let moves = game.moves(board);
    if moves.is_empty() {
        return Outcome::from_margin(game.no_moves(board).score());
    }
    moves
        .iter()
        .map(|mv| match game.play(board, mv) {
            crate::Transition::Continue { position, .. } => tic_tac_toe_minimax(&position).flip(),
            crate::Transition::End(e) => Outcome::from_margin(e.score()),
        })
        .max()
        .expect("at least one move")
}

/// The memoised generic solver on the same board, for symmetry with the baseline above.
#[must_use]
pub fn tic_tac_toe_memoised(board: &Board) -> Outcome {
    Solver::new(TicTacToe { board: *board })
        .value(board)
        .outcome()
}

/// The Can I Win seed's algorithm: memoised DFS over the bitmask of used numbers with a
/// `HashMap`, trying numbers `1..=max` in order. Only for `max <= 63`.
#[must_use]
pub fn can_i_win_hashmap_dfs(max_choosable: u32, desired_total: i64) -> bool {
    fn dfs(
        state: u64,
        total: i64,
        max: u32,
        target: i64,
        memo: &mut std::collections::HashMap<u64, bool>,
    ) -> bool {
        if let Some(&known) = memo.get(&state) {
            return known;
        }
        let mut result = false;
        for i in 1..=max {
            if state >> i & 1 == 1 {
                continue;
            }
            if total + i64::from(i) >= target
                || !dfs(state | 1 << i, total + i64::from(i), max, target, memo)
            {
                result = true;
                break;
            }
        }
        memo.insert(state, result);
        result
    }
    let sum = i64::from(max_choosable) * (i64::from(max_choosable) + 1) / 2;
    if sum < desired_total {
        return false;
    }
    dfs(
        0,
        0,
        max_choosable,
        desired_total,
        &mut std::collections::HashMap::new(),
    )
}

/// The coin seed's O(n) DP ("Way 2"): `win[i]` for every pile up to `n`, moves 1, `x`, `y`.
/// In misère play `win[0]` is true (the other player took the last coin), as the seed says.
#[must_use]
pub fn coin_dp_table(n: usize, x: usize, y: usize, misere: bool) -> Vec<bool> {
    let mut win = vec![false; n + 1];
    win[0] = misere;
    for i in 1..=n {
        win[i] = !win[i - 1] || (i >= x && !win[i - x]) || (i >= y && !win[i - y]);
    }
    win
}

/// The coin seed's answer by its DP: `'A'` when the first player wins a pile of `n`.
#[must_use]
pub fn coin_dp_winner(n: usize, x: usize, y: usize) -> char {
    if coin_dp_table(n, x, y, false)[n] {
        'A'
    } else {
        'B'
    }
}

/// The Stone Game seed's DP: an `(N+2) x (N+2)` table, the first player maximising and the
/// second minimising by the parity of the interval. Returns the margin (first minus second).
#[must_use]
pub fn stone_game_dp(piles: &[i64]) -> i64 {
    let n = piles.len();
    let mut dp = vec![vec![0i64; n + 2]; n + 2];
    for size in 1..=n {
        for i in 0..=n - size {
            let j = i + size - 1;
            dp[i + 1][j + 1] = if (j + i + n) % 2 == 1 {
                (piles[i] + dp[i + 2][j + 1]).max(piles[j] + dp[i + 1][j])
            } else {
                (-piles[i] + dp[i + 2][j + 1]).min(-piles[j] + dp[i + 1][j])
            };
        }
    }
    if n == 0 { 0 } else { dp[1][n] }
}
