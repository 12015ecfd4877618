use super::*;
use crate::baseline::coin_dp_table;
use crate::solver::Solver;
use proptest::prelude::*;

fn set(moves: &[u64]) -> SubtractionSet {
    SubtractionSet::new(moves).unwrap()
}

fn seq(moves: &[u64], rule: Rule) -> Sequence {
    Sequence::compute(&set(moves), rule, &Limits::default()).unwrap()
}

/// Grundy (or misère Grundy) values by the definition, with no period involved.
fn brute_values(moves: &[u64], rule: Rule, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n + 1);
    for i in 0..=n as u64 {
        let options: Vec<u8> = moves
            .iter()
            .filter(|&&s| s <= i)
            .map(|&s| v[(i - s) as usize])
            .collect();
        v.push(if options.is_empty() && rule == Rule::Misere {
            1
        } else {
            (0..).find(|g| !options.contains(g)).unwrap()
        });
    }
    v
}

#[test]
fn every_x_y_up_to_30_and_pile_up_to_2000_agrees_with_the_seed_dp_and_the_generic_solver() {
    const PILES: usize = 2000;
    for x in 1..=30u64 {
        for y in 1..=30u64 {
            for rule in [Rule::Normal, Rule::Misere] {
                let s = SubtractionSet::coin_game(x, y).unwrap();
                let sequence = Sequence::compute(&s, rule, &Limits::default()).unwrap();
                let dp = coin_dp_table(PILES, x as usize, y as usize, rule == Rule::Misere);
                let brute = brute_values(s.moves(), rule, PILES);
                let mut solver = Solver::new(SubtractionPile {
                    set: s.clone(),
                    rule,
                    pile: 0,
                });
                for n in 0..=PILES as u64 {
                    let by_solver = solver.value(&n).outcome() == Outcome::Win;
                    let ctx = format!("x {x} y {y} {rule:?} pile {n}");
                    assert_eq!(sequence.value(n), brute[n as usize], "{ctx}");
                    assert_eq!(sequence.wins(&BigUint::from(n)), dp[n as usize], "{ctx}");
                    assert_eq!(by_solver, dp[n as usize], "{ctx}");
                }
            }
        }
    }
}

/// The {1, x, y} word-parallel path against the general method and the seed's DP.
fn check_word_parallel(x: u64, y: u64, rule: Rule) {
    let s = SubtractionSet::coin_game(x, y).unwrap();
    assert!(three::applies(&s));
    let fast = Sequence::compute(&s, rule, &Limits::default()).unwrap();
    let general = Limits {
        word_parallel: false,
        ..Limits::default()
    };
    let slow = Sequence::compute(&s, rule, &general).unwrap();
    let ctx = format!("{{1, {x}, {y}}} {rule:?}");
    assert_eq!(fast.period, slow.period, "{ctx}");
    assert_eq!(fast.outcome_period, slow.outcome_period, "{ctx}");
    let upto = (slow.period.preperiod + 3 * slow.period.period + y).min(200_000) as usize;
    let dp = coin_dp_table(upto, x as usize, y as usize, rule == Rule::Misere);
    for n in 0..=upto as u64 {
        assert_eq!(fast.value(n), slow.value(n), "{ctx} pile {n}");
        assert_eq!(fast.value(n) != 0, dp[n as usize], "{ctx} pile {n}");
    }
    let far = BigUint::from(10u8).pow(30) + 7u8;
    assert_eq!(fast.value_big(&far), slow.value_big(&far), "{ctx}");
}

#[test]
fn word_parallel_three_move_sets_agree_with_the_general_method() {
    for (x, y) in [
        (64, 65),
        (64, 128),
        (65, 66),
        (70, 141),
        (100, 1000),
        (127, 128),
        (128, 129),
        (200, 333),
        (255, 4097),
        (333, 1000),
        (1000, 1001),
    ] {
        for rule in [Rule::Normal, Rule::Misere] {
            check_word_parallel(x, y, rule);
        }
    }
}

#[test]
fn seed_semantics() {
    assert_eq!(coin_game_winner(0, 3, 4), Ok(Player::Second));
    assert_eq!(coin_game_winner(1, 1, 1), Ok(Player::First)); // x and y may equal 1
    assert_eq!(coin_game_winner(2, 1, 1), Ok(Player::Second));
    assert_eq!(coin_game_winner(5, 0, 4), Err(SubtractionError::ZeroMove));
    assert_eq!(SubtractionSet::new(&[]), Err(SubtractionError::NoMoves));
}

#[test]
fn one_two_three_is_n_mod_4() {
    let s = seq(&[1, 2, 3], Rule::Normal);
    assert_eq!(
        s.period,
        Period {
            preperiod: 0,
            period: 4
        }
    );
    for n in (0..1000).chain([u64::MAX - 3, u64::MAX]) {
        assert_eq!(u64::from(s.value(n)), n % 4, "{n}");
    }
    let huge: BigUint = "1".repeat(100).parse().unwrap(); // 111...1 (100 digits)
    assert_eq!(BigUint::from(s.value_big(&huge)), &huge % 4u32);
}

#[test]
fn one_three_four_loses_at_0_and_2_mod_7() {
    let s = seq(&[1, 3, 4], Rule::Normal);
    assert_eq!(
        s.outcome_period,
        Period {
            preperiod: 0,
            period: 7
        }
    );
    for n in 0..700u64 {
        assert_eq!(s.value(n) == 0, n % 7 == 0 || n % 7 == 2, "{n}");
    }
    assert_eq!(s.value(100), 0); // Ferguson: 100 is a P-position
}

#[test]
fn published_tables() {
    // The reference files, as shipped: S = {2,3,7} values, period and misère values.
    let text = include_str!("../../tests/reference/subtraction_games.txt");
    let block = text.split("## S = {2,3,7}").nth(1).unwrap();
    let values: Vec<u8> = block
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("# STATED"))
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(values.len(), 21);
    let normal = seq(&[2, 3, 7], Rule::Normal);
    assert_eq!(
        (0..=20).map(|n| normal.value(n)).collect::<Vec<_>>(),
        values
    );
    assert_eq!(
        normal.period,
        Period {
            preperiod: 0,
            period: 5
        }
    );
    let misere_line = block
        .lines()
        .find(|l| l.contains("misère nim values"))
        .unwrap();
    let misere: Vec<u8> = misere_line
        .rsplit(':')
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.trim().parse().unwrap())
        .collect();
    let m = seq(&[2, 3, 7], Rule::Misere);
    assert_eq!((0..=20).map(|n| m.value(n)).collect::<Vec<_>>(), misere);
    // {1,2,3}, listed n g for n = 0..14.
    let block = text.split("## S = {1,2,3}").nth(1).unwrap();
    let s = seq(&[1, 2, 3], Rule::Normal);
    for line in block.lines().skip(1).take_while(|l| !l.starts_with('#')) {
        let nums: Vec<u64> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(u64::from(s.value(nums[0])), nums[1]);
    }
}

#[test]
fn the_proof_windows_really_match() {
    for moves in [&[1, 3, 4][..], &[2, 3, 7], &[1, 7, 11], &[4, 9, 10, 31]] {
        for rule in [Rule::Normal, Rule::Misere] {
            let s = seq(moves, rule);
            let brute = brute_values(moves, rule, (s.proof.second + s.proof.length) as usize);
            let (a, b, len) = (
                s.proof.first as usize,
                s.proof.second as usize,
                s.proof.length as usize,
            );
            assert_eq!(brute[a..a + len], brute[b..b + len]);
            assert_eq!(s.proof.second - s.proof.first, s.period.period);
            // Minimal: no shorter period from the same preperiod across a long stretch.
            let far = brute_values(moves, rule, 5000);
            for p in 1..s.period.period as usize {
                let holds =
                    (s.period.preperiod as usize..far.len() - p).all(|n| far[n] == far[n + p]);
                assert!(!holds, "{moves:?} {rule:?} period {p} also works");
            }
            if s.period.preperiod > 0 {
                let n0 = s.period.preperiod as usize - 1;
                let p = s.period.period as usize;
                assert_ne!(
                    far[n0],
                    far[n0 + p],
                    "{moves:?} {rule:?} preperiod not minimal"
                );
            }
        }
    }
}

#[test]
fn large_moves_are_answered_at_a_pile_of_10_18() {
    let set = SubtractionSet::coin_game(999_983, 1_000_000).unwrap();
    let fast = Sequence::compute(&set, Rule::Normal, &Limits::default()).unwrap();
    let general = Limits {
        word_parallel: false,
        ..Limits::default()
    };
    let slow = Sequence::compute(&set, Rule::Normal, &general).unwrap();
    assert!(slow.values_computed < 20_000_000);
    assert_eq!(fast.period, slow.period);
    for n in [
        1_000_000_000_000_000_000u64,
        u64::MAX,
        999_999_999_999_999_989,
    ] {
        assert_eq!(fast.value(n), slow.value(n), "pile {n}");
    }
}

#[test]
fn small_piles_are_answered_without_a_period() {
    let limits = Limits {
        max_values: 100,
        max_streamed_values: 100,
        ..Limits::default()
    };
    let s = set(&[1, 1000]);
    for rule in [Rule::Normal, Rule::Misere] {
        let brute = brute_values(s.moves(), rule, 60);
        for n in [0u64, 5, 60] {
            let a = analyse(&s, rule, &[BigUint::from(n)], &limits).unwrap();
            assert_eq!(a.period, None);
            assert_eq!(
                a.outcome == Outcome::Win,
                brute[n as usize] != 0,
                "{rule:?} pile {n}"
            );
        }
    }
    // Two piles, normal play: by the nim-sum of their values.
    let a = analyse(
        &s,
        Rule::Normal,
        &[BigUint::from(3u8), BigUint::from(6u8)],
        &limits,
    )
    .unwrap();
    // Below 1000 only the move of 1 fits: values alternate 0, 1, so piles 3 and 6 are worth
    // 1 and 0, and taking 1 from either makes the nim-sum 0.
    assert_eq!(a.grundy, vec![1, 0]);
    let takes: Vec<(usize, u64)> = a.winning_moves.iter().map(|m| (m.pile, m.take)).collect();
    assert_eq!(takes, vec![(0, 1), (1, 1)]);
    // A pile past the limit still needs the period.
    let err = analyse(&s, Rule::Normal, &[BigUint::from(500u32)], &limits).unwrap_err();
    assert_eq!(err, SubtractionError::NoPeriod(100));
}

#[test]
fn the_limit_stops_the_search_with_a_message() {
    // The {1, x, y} method keeps no history, so its own limit bounds time; the general
    // method's bounds memory.
    let streamed = Limits {
        max_streamed_values: 100,
        ..Limits::default()
    };
    let err = Sequence::compute(&set(&[1, 1000]), Rule::Normal, &streamed).unwrap_err();
    assert_eq!(err, SubtractionError::NoPeriod(100));
    assert!(err.to_string().contains("max_values"), "{err}");
    assert_eq!(streamed.search_limit(&set(&[1, 1000])), 100);
    assert!(Sequence::compute(&set(&[1, 3, 1000]), Rule::Normal, &streamed).is_err());
    let kept = Limits {
        max_values: 100,
        ..Limits::default()
    };
    assert!(Sequence::compute(&set(&[1, 1000]), Rule::Normal, &kept).is_ok());
    let err = Sequence::compute(&set(&[2, 3, 1000]), Rule::Normal, &kept).unwrap_err();
    assert_eq!(
        err,
        SubtractionError::PeriodPastLimit {
            needed: 1005,
            limit: 100
        }
    );
    assert_eq!(kept.search_limit(&set(&[2, 3, 1000])), 100);
}

#[test]
fn a_limit_below_any_proof_is_refused_before_the_search() {
    // 64 moves near 10^8: a proof needs 2 * 99,999,936 + 99,999,999 + 1 values, past the
    // default limit of 2 * 10^8; the search used to run 19 s to find that out.
    let moves: Vec<u64> = (99_999_936..=99_999_999).collect();
    let many = set(&moves);
    assert_eq!(least_values_for_a_proof(&many), 299_999_872);
    let start = std::time::Instant::now();
    let err = Sequence::compute(&many, Rule::Misere, &Limits::default()).unwrap_err();
    assert_eq!(
        err,
        SubtractionError::PeriodPastLimit {
            needed: 299_999_872,
            limit: 200_000_000
        }
    );
    assert!(start.elapsed().as_secs() < 1);
    // Piles under the limit are still answered, from their values one by one.
    let piles = [BigUint::from(100_000_000u64)];
    assert!(analyse(&many, Rule::Normal, &piles, &Limits::default()).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The least values a proof needs is a true lower bound: every proven period of a small
    /// set, in either rule, used at least that many.
    #[test]
    fn no_proof_needs_fewer_values_than_the_bound(
        moves in proptest::collection::vec(1u64..60, 1..6),
        misere in any::<bool>(),
    ) {
        let s = set(&moves);
        let rule = if misere { Rule::Misere } else { Rule::Normal };
        let limits = Limits { word_parallel: false, ..Limits::default() };
        let values = Sequence::compute(&s, rule, &limits).unwrap();
        let period = values.period;
        prop_assert!(
            period.preperiod + period.period + s.largest() + 1 >= least_values_for_a_proof(&s),
            "{moves:?} {rule:?}: {period:?}"
        );
    }
}

/// Who wins a sum of piles, by plain recursion with no memo: the independent oracle for sums.
fn brute_sum(moves: &[u64], piles: &[u64], misere: bool) -> bool {
    let mut any = false;
    for i in 0..piles.len() {
        for &s in moves.iter().filter(|&&s| s <= piles[i]) {
            any = true;
            let mut next = piles.to_vec();
            next[i] -= s;
            if !brute_sum(moves, &next, misere) {
                return true;
            }
        }
    }
    !any && misere
}

#[test]
fn sums_agree_with_plain_recursion() {
    for moves in [&[1, 2][..], &[1, 3, 4], &[2, 3], &[1, 2, 3, 4, 5, 6]] {
        let s = set(moves);
        for a in 0..7u64 {
            for b in 0..7u64 {
                for c in [0, 3, 5] {
                    let piles = [a, b, c];
                    let big: Vec<BigUint> = piles.iter().map(|&p| BigUint::from(p)).collect();
                    for rule in [Rule::Normal, Rule::Misere] {
                        let misere = rule == Rule::Misere;
                        let got = analyse(&s, rule, &big, &Limits::default()).unwrap();
                        let ctx = format!("{moves:?} {piles:?} {rule:?}");
                        assert_eq!(
                            got.outcome == Outcome::Win,
                            brute_sum(moves, &piles, misere),
                            "{ctx}"
                        );
                        for m in &got.winning_moves {
                            let mut after = piles;
                            after[m.pile] -= m.take;
                            assert!(
                                !brute_sum(moves, &after, misere),
                                "{ctx}: {m:?} does not win"
                            );
                        }
                        let expected = (0..3)
                            .flat_map(|i| moves.iter().map(move |&t| (i, t)))
                            .filter(|&(i, t)| {
                                let mut after = piles;
                                t <= after[i] && {
                                    after[i] -= t;
                                    !brute_sum(moves, &after, misere)
                                }
                            })
                            .count();
                        assert_eq!(got.winning_moves.len(), expected, "{ctx}");
                    }
                }
            }
        }
    }
}

#[test]
fn misere_nim_rule_is_used_when_every_size_is_a_move() {
    let s = set(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let piles: Vec<BigUint> = [3u64, 5, 7].iter().map(|&p| BigUint::from(p)).collect();
    let a = analyse(&s, Rule::Misere, &piles, &Limits::default()).unwrap();
    assert_eq!(a.method, Method::MisereNimRule);
    assert_eq!(a.outcome == Outcome::Win, nim::misere_wins(&[3, 5, 7]));
}

#[test]
fn misere_sum_out_of_reach_says_so() {
    let piles: Vec<BigUint> = [1_000_000u64, 1_000_000, 999]
        .iter()
        .map(|&p| BigUint::from(p))
        .collect();
    let err = analyse(&set(&[2, 3]), Rule::Misere, &piles, &Limits::default()).unwrap_err();
    assert!(matches!(err, SubtractionError::SearchTooLarge(_)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_word_parallel_sets_agree(x in 64u64..1500, extra in 1u64..1500, misere: bool) {
        check_word_parallel(x, x + extra, if misere { Rule::Misere } else { Rule::Normal });
    }

    #[test]
    fn random_small_x_word_sets_agree(x in 2u64..64, y in 64u64..3000, misere: bool) {
        check_word_parallel(x, y, if misere { Rule::Misere } else { Rule::Normal });
    }

    #[test]
    fn far_piles_answer_like_their_reduced_pile(
        moves in proptest::collection::vec(1u64..40, 1..5),
        n in 0u64..1_000_000_000_000,
        k in 1u64..1_000_000,
        misere: bool,
    ) {
        let s = SubtractionSet::new(&moves).unwrap();
        let rule = if misere { Rule::Misere } else { Rule::Normal };
        let sequence = Sequence::compute(&s, rule, &Limits::default()).unwrap();
        let Period { preperiod, period } = sequence.period;
        let far = BigUint::from(n) + BigUint::from(k) * period * 1_000_000_007u64;
        let reduced = if n < preperiod { n } else { preperiod + (n - preperiod) % period };
        let brute = brute_values(s.moves(), rule, reduced as usize);
        prop_assert_eq!(sequence.value_big(&far), brute[reduced as usize]);
        let far_answer = analyse(&s, rule, &[far], &Limits::default()).unwrap();
        let near_answer = analyse(&s, rule, &[BigUint::from(reduced)], &Limits::default()).unwrap();
        prop_assert_eq!(far_answer.outcome, near_answer.outcome);
        // The same moves win from any pile congruent to the far one whose every move lands
        // past the preperiod.
        if n >= preperiod {
            let periods = (preperiod + s.largest()).div_ceil(period);
            let congruent = reduced + periods * period;
            let takes = |a: &Analysis| a.winning_moves.iter().map(|m| m.take).collect::<Vec<_>>();
            let congruent_answer = analyse(&s, rule, &[BigUint::from(congruent)], &Limits::default()).unwrap();
            prop_assert_eq!(takes(&far_answer), takes(&congruent_answer));
        }
    }
}

#[test]
fn word_parallel_small_x_and_two_move_sets_agree_with_the_general_method() {
    // x < 64 builds each word x piles at a time; x == y is the two-move set {1, y}.
    for x in 2..=63 {
        for y in [64, 100, 129, 1000] {
            for rule in [Rule::Normal, Rule::Misere] {
                check_word_parallel(x, y, rule);
            }
        }
    }
    for y in [64, 65, 100, 1000, 4097] {
        for rule in [Rule::Normal, Rule::Misere] {
            check_word_parallel(y, y, rule);
        }
    }
}

/// A long preperiod, found by bisecting the detection's snapshots: the word path against
/// the general method, with the piles below the preperiod that are not kept generated again.
fn check_long_preperiod(x: u64, y: u64, rule: Rule, expected: Period) {
    let s = SubtractionSet::coin_game(x, y).unwrap();
    let small_prefix = Limits {
        kept_prefix: 1000,
        ..Limits::default()
    };
    let fast = Sequence::compute(&s, rule, &small_prefix).unwrap();
    assert_eq!(fast.period, expected, "{{1, {x}, {y}}} {rule:?}");
    // Two bits for the kept prefix and one period, not for the preperiod.
    assert!(fast.bytes() < 2 * 1024 * 1024, "{} bytes", fast.bytes());
    let general = Limits {
        word_parallel: false,
        ..Limits::default()
    };
    let slow = Sequence::compute(&s, rule, &general).unwrap();
    assert_eq!(fast.period, slow.period);
    assert_eq!(fast.outcome_period, slow.outcome_period);
    let pre = expected.preperiod;
    let piles: Vec<u64> = [
        0,
        999,
        1000,
        1001,
        pre / 3,
        pre / 2,
        pre - 2,
        pre - 1,
        pre,
        pre + 1,
    ]
    .into_iter()
    .chain((0..40).map(|i| pre - 1 - i * 997))
    .collect();
    let big: Vec<BigUint> = piles.iter().map(|&p| BigUint::from(p)).collect();
    let expected_values: Vec<u8> = piles.iter().map(|&p| slow.value(p)).collect();
    assert_eq!(fast.values_of(&big), expected_values);
    let caught = Sequence::compute_for(&s, rule, &small_prefix, &piles).unwrap();
    assert_eq!(caught.values_of(&big), expected_values);
    assert_eq!(fast.value(pre - 1), slow.value(pre - 1));
    // A pile inside the preperiod, past the kept prefix: the same answer and moves.
    let pile = [BigUint::from(pre - 5)];
    let a = analyse(&s, rule, &pile, &small_prefix).unwrap();
    let b = analyse(&s, rule, &pile, &general).unwrap();
    assert_eq!(
        (a.outcome, &a.winning_moves, &a.grundy),
        (b.outcome, &b.winning_moves, &b.grundy)
    );
}

#[test]
fn long_preperiods_are_found_in_memory_of_the_period() {
    check_long_preperiod(
        4818,
        524_052,
        Rule::Normal,
        Period {
            preperiod: 57_113_358,
            period: 528_870,
        },
    );
    check_long_preperiod(
        46,
        646_438,
        Rule::Misere,
        Period {
            preperiod: 14_222_646,
            period: 646_439,
        },
    );
}

#[test]
fn every_coin_game_below_64_proves_its_period_within_a_thousand_values() {
    // Sets with y >= 64 keep O(y + period) values (the ring path); the others take the
    // general method, which keeps every value it computes: this bounds them all (the most,
    // found when this was written, is 829).
    for y in 1..64 {
        for x in 1..=y {
            for rule in [Rule::Normal, Rule::Misere] {
                let s = SubtractionSet::coin_game(x, y).unwrap();
                assert!(!three::applies(&s));
                let sequence = Sequence::compute(&s, rule, &Limits::default()).unwrap();
                assert!(
                    sequence.values_computed <= 1000,
                    "{{1, {x}, {y}}} {rule:?}: {} values",
                    sequence.values_computed
                );
            }
        }
    }
}

/// Heaps far below the largest move are answered from every smaller heap at once: the
/// period search would first generate two windows of 5,000,000 values.
#[test]
fn heaps_far_below_the_largest_move_are_answered_directly() {
    let mut moves: Vec<u64> = (0..63).map(|k| 5_000_000 + k).collect();
    moves.push(1);
    let set = SubtractionSet::new(&moves).unwrap();
    let limits = Limits::default();
    let pile = |n: u64| [BigUint::from(n)];
    let nobody = analyse(&set, Rule::Normal, &pile(5), &limits).unwrap();
    assert_eq!(nobody.outcome, Outcome::Win); // only 1 fits: 5 is odd
    assert_eq!(nobody.period, None);
    let even = analyse(&set, Rule::Normal, &pile(1000), &limits).unwrap();
    assert_eq!(even.outcome, Outcome::Loss);
    let misere = analyse(&set, Rule::Misere, &pile(1000), &limits).unwrap();
    assert_eq!(misere.outcome, Outcome::Win);
    // Only moves of 5,000,000 and more: nobody can move from 5.
    let big = SubtractionSet::new(&moves[..63]).unwrap();
    assert_eq!(
        analyse(&big, Rule::Normal, &pile(5), &limits)
            .unwrap()
            .outcome,
        Outcome::Loss
    );
}

/// Every pile's outcome and remoteness from `pile_values` is the generic solver's, for sets
/// of one to three moves up to 7 and piles up to 80, under both rules.
#[test]
fn pile_values_agree_with_the_generic_solver() {
    let mut sets: Vec<Vec<u64>> = Vec::new();
    for a in 1..=7u64 {
        sets.push(vec![a]);
        for b in a + 1..=7 {
            sets.push(vec![a, b]);
            for c in b + 1..=7 {
                sets.push(vec![a, b, c]);
            }
        }
    }
    for moves in sets {
        let set = SubtractionSet::new(&moves).unwrap();
        for rule in [Rule::Normal, Rule::Misere] {
            let values = pile_values(&set, rule, 80);
            let mut solver = Solver::new(SubtractionPile {
                set: set.clone(),
                rule,
                pile: 0,
            });
            for n in 0..=80u64 {
                let value = solver.value(&n);
                let expected = (value.outcome() == Outcome::Win, value.remoteness);
                assert_eq!(values[n as usize], expected, "{moves:?} {rule:?} pile {n}");
            }
        }
    }
}

/// The values one by one are the values of the proven sequence, for every small set.
#[test]
fn values_one_by_one_are_the_sequences() {
    let never = crate::budget::Cancel::new();
    for mask in 1u32..256 {
        let moves: Vec<u64> = (1..=8).filter(|b| mask >> (b - 1) & 1 == 1).collect();
        let set = SubtractionSet::new(&moves).unwrap();
        for rule in [Rule::Normal, Rule::Misere] {
            let seq = Sequence::compute(&set, rule, &Limits::default()).unwrap();
            let direct = values_upto(&set, rule, 200, &never).unwrap();
            let expected: Vec<u8> = (0..=200).map(|n| seq.value(n)).collect();
            assert_eq!(direct, expected, "{moves:?} {rule:?}");
        }
    }
}
