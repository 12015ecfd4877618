use super::*;
use crate::baseline::stone_game_dp;
use crate::solver::Solver;
use proptest::prelude::*;

/// Plain minimax without memo: the margin for the player to move on `piles`.
fn minimax(piles: &[i64]) -> i64 {
    match piles {
        [] => 0,
        [only] => *only,
        [first, .., last] => {
            let n = piles.len();
            (first - minimax(&piles[1..])).max(last - minimax(&piles[..n - 1]))
        }
    }
}

fn all_rows(len: usize, values: i64) -> Vec<Vec<i64>> {
    let mut rows = vec![vec![]];
    for _ in 0..len {
        rows = rows
            .into_iter()
            .flat_map(|r| (0..values).map(move |v| [r.as_slice(), &[v]].concat()))
            .collect();
    }
    rows
}

fn line_margin(piles: &[i64], line: &[End]) -> i128 {
    assert_eq!(line.len(), piles.len(), "the line takes every pile");
    let taken = taken_along(piles, line);
    taken
        .iter()
        .enumerate()
        .map(|(ply, &v)| {
            if ply % 2 == 0 {
                i128::from(v)
            } else {
                -i128::from(v)
            }
        })
        .sum()
}

fn with_line() -> Options {
    Options {
        line: true,
        ..Options::default()
    }
}

/// Every row of up to `longest` piles of 0 to 4 against minimax, the seed's DP and the generic
/// solver: margin, optimal moves, the line, the totals and each first move's margin.
fn rows_agree_with_three_oracles(longest: usize) {
    for len in 0..=longest {
        all_rows(len, 5).par_iter().for_each(|row| {
            let a = analyse(row, &with_line()).unwrap();
            let expected = minimax(row);
            assert_eq!(a.margin, i128::from(expected), "{row:?}");
            assert_eq!(a.margin, i128::from(stone_game_dp(row)), "{row:?}");
            let mut generic = Solver::new(TakeEnds { piles: row.clone() });
            let g = generic.analyse(&(0, row.len()));
            assert_eq!(i128::from(g.value.score), a.margin, "{row:?}");
            assert_eq!(g.value.remoteness as usize, row.len());
            let mut optimal: Vec<End> = g.optimal_moves();
            // The generic game offers one move on a single pile.
            optimal.dedup();
            assert_eq!(a.optimal_moves, optimal, "{row:?}");
            assert_eq!(
                line_margin(row, a.best_line.as_ref().unwrap()),
                a.margin,
                "{row:?}"
            );
            assert_eq!(
                a.first_total + a.second_total,
                row.iter().map(|&v| i128::from(v)).sum::<i128>()
            );
            assert_eq!(a.first_total - a.second_total, a.margin);
            // Each first move: the pile taken minus what the rest is worth to the opponent.
            let n = row.len();
            for &(end, margin) in &a.moves {
                let (pile, rest) = match end {
                    End::Left => (row[0], &row[1..]),
                    End::Right => (row[n - 1], &row[..n - 1]),
                };
                assert_eq!(
                    margin,
                    i128::from(pile) - i128::from(minimax(rest)),
                    "{row:?}"
                );
            }
        });
    }
}

#[test]
fn every_row_up_to_8_piles_of_0_to_4_agrees_with_three_oracles() {
    rows_agree_with_three_oracles(8);
}

#[test]
#[ignore = "every row of up to 9 piles: about 16 s of CPU; cargo test --workspace --lib -- --ignored rows_of_9"]
fn every_row_up_to_9_piles_of_0_to_4_agrees_with_three_oracles_rows_of_9() {
    rows_agree_with_three_oracles(9);
}

#[test]
fn seed_examples_and_ties() {
    assert_eq!(stone_game(&[5, 3, 4, 5]), Ok(true));
    assert_eq!(stone_game(&[3, 7, 2, 3]), Ok(true));
    assert_eq!(stone_game(&[2, 2]), Ok(false));
    let tie = Options {
        ties_win: true,
        ..Options::default()
    };
    assert!(analyse(&[2, 2], &tie).unwrap().first_player_wins);
    // Under the ties-win rule a tie is the first player's win, and the margin still says 0.
    assert_eq!(analyse(&[2, 2], &tie).unwrap().outcome, Outcome::Win);
    assert_eq!(analyse(&[2, 2], &tie).unwrap().margin, 0);
    // "Predict the Winner": [1, 5, 2] loses, [1, 5, 233, 7] wins.
    assert!(!analyse(&[1, 5, 2], &tie).unwrap().first_player_wins);
    assert!(analyse(&[1, 5, 233, 7], &tie).unwrap().first_player_wins);
    assert_eq!(
        analyse(&[], &Options::default()).unwrap().outcome,
        Outcome::Tie
    );
}

#[test]
fn extreme_values_do_not_overflow() {
    let row = vec![i64::MAX; 6];
    let a = analyse(&row, &with_line()).unwrap();
    assert_eq!(a.margin, 0);
    assert_eq!(a.first_total, 3 * i128::from(i64::MAX));
    let row = vec![i64::MIN, i64::MAX, i64::MIN, 5, i64::MAX];
    let a = analyse(&row, &Options::default()).unwrap();
    assert_eq!(
        a.first_total + a.second_total,
        row.iter().map(|&v| i128::from(v)).sum::<i128>()
    );
    let small: Vec<i64> = row.iter().map(|v| v.signum() * 1000).collect();
    let scaled = analyse(&small, &Options::default()).unwrap();
    assert_eq!(a.margin.signum(), scaled.margin.signum());
}

#[test]
fn rows_past_the_limit_are_refused_up_front() {
    let opts = Options {
        max_piles: 10,
        ..Options::default()
    };
    let err = analyse(&[1; 11], &opts).unwrap_err();
    assert!(matches!(
        err,
        TakeEndsError::TooLong {
            piles: 11,
            limit: 10,
            ..
        }
    ));
    assert!(err.to_string().contains("--max-piles"));
    assert!(analyse(&[1; 10], &opts).is_ok());
}

#[test]
fn the_line_is_refused_past_the_memory_limit() {
    let opts = Options {
        line: true,
        memory_limit: 1000,
        ..Options::default()
    };
    let err = analyse(&vec![1; 200], &opts).unwrap_err();
    assert!(err.to_string().contains("--memory-limit"), "{err}");
}

/// The margin by the textbook in-place update (one array, ascending starts), serially.
fn serial_margin(piles: &[i64]) -> i128 {
    let n = piles.len();
    let mut d: Vec<i128> = vec![0; n + 1];
    for len in 1..=n {
        for i in 0..=n - len {
            d[i] = (i128::from(piles[i]) - d[i + 1]).max(i128::from(piles[i + len - 1]) - d[i]);
        }
    }
    d[0]
}

#[test]
fn long_rows_take_the_parallel_path() {
    // Longer than PARALLEL_MIN, so the diagonals are split across threads.
    let row: Vec<i64> = (0..10_000i64)
        .map(|i| (i * 7919 + 13) % 1000 - 300)
        .collect();
    assert!(row.len() > PARALLEL_MIN);
    assert_eq!(
        analyse(&row, &Options::default()).unwrap().margin,
        serial_margin(&row)
    );
    let mut wide = row.clone();
    wide[17] = i64::MAX / 3; // forces the i128 lanes
    wide[9_000] = i64::MIN / 3;
    assert_eq!(
        analyse(&wide, &Options::default()).unwrap().margin,
        serial_margin(&wide)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn even_length_never_loses(row in proptest::collection::vec(-1000i64..1000, 0..40).prop_filter("even", |r| r.len() % 2 == 0)) {
        prop_assert!(analyse(&row, &Options::default()).unwrap().margin >= 0);
    }

    #[test]
    fn reversing_keeps_the_margin(row in proptest::collection::vec(-1000i64..1000, 0..40)) {
        let mut reversed = row.clone();
        reversed.reverse();
        prop_assert_eq!(
            analyse(&row, &Options::default()).unwrap().margin,
            analyse(&reversed, &Options::default()).unwrap().margin
        );
    }

    #[test]
    fn margin_has_the_parity_of_the_sum(row in proptest::collection::vec(-1000i64..1000, 0..40)) {
        let sum: i128 = row.iter().map(|&v| i128::from(v)).sum();
        prop_assert_eq!(analyse(&row, &Options::default()).unwrap().margin.rem_euclid(2), sum.rem_euclid(2));
    }

    #[test]
    fn agrees_with_the_seed_dp(row in proptest::collection::vec(-1_000_000i64..1_000_000, 0..120)) {
        let a = analyse(&row, &with_line()).unwrap();
        prop_assert_eq!(a.margin, i128::from(stone_game_dp(&row)));
        prop_assert_eq!(line_margin(&row, a.best_line.as_ref().unwrap()), a.margin);
    }
}

/// Every interval's entry in the margin table is the margin `analyse` finds for that
/// sub-row, on every row of up to 7 piles from -2..=3.
#[test]
fn margin_table_agrees_with_the_analysis_of_every_sub_row() {
    for n in 0..=7usize {
        let mut row = vec![-2i64; n];
        loop {
            let table = margin_table(&row).unwrap();
            for i in 0..n {
                for j in 0..n {
                    let expected =
                        (i <= j).then(|| analyse(&row[i..=j], &Options::default()).unwrap().margin);
                    assert_eq!(table[i][j], expected, "{row:?} [{i}, {j}]");
                }
            }
            let Some(k) = row.iter().position(|&p| p < 3) else {
                break;
            };
            row[k] += 1;
            for p in &mut row[..k] {
                *p = -2;
            }
        }
    }
    assert!(matches!(
        margin_table(&[1; MAX_TABLE_PILES + 1]),
        Err(TakeEndsError::TableTooLarge { .. })
    ));
}
