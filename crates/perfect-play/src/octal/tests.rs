use super::*;
use crate::solver::Solver;
use proptest::prelude::*;
use rayon::prelude::*;

fn code(text: &str) -> OctalCode {
    text.parse().unwrap()
}

fn full(upto: u64, method: Method) -> Options {
    Options {
        upto,
        full: true,
        method,
        storage: Storage::Auto,
    }
}

fn sequence(text: &str, options: &Options) -> GrundySequence {
    GrundySequence::compute(&code(text), options, &|_, _| {}).unwrap()
}

/// Every code with a leading 0 or 4 and one to three digits after the point.
fn small_codes() -> Vec<String> {
    let mut codes = Vec::new();
    for lead in ["0", "4"] {
        for len in 1..=3u32 {
            for digits in 0..8usize.pow(len) {
                let tail: String = (0..len)
                    .rev()
                    .map(|i| char::from(b'0' + ((digits / 8usize.pow(i)) % 8) as u8))
                    .collect();
                let text = format!("{lead}.{tail}");
                if text.parse::<OctalCode>().is_ok() {
                    codes.push(text);
                }
            }
        }
    }
    codes.sort();
    codes.dedup();
    codes
}

#[test]
fn naive_and_rare_common_agree_on_every_code_of_up_to_three_digits_to_2000() {
    let codes = small_codes();
    assert!(codes.len() > 1000);
    codes.par_iter().for_each(|text| {
        let naive = sequence(text, &full(2000, Method::Naive));
        let fast = sequence(text, &full(2000, Method::RareCommon));
        assert_eq!(naive.values, fast.values, "{text}");
        assert_eq!(naive.period, fast.period, "{text}");
        // The default method switches between the two: the same values again.
        let auto = sequence(text, &full(2000, Method::Auto));
        assert_eq!(naive.values, auto.values, "{text}");
        // A proven period must really hold over every value computed.
        if let Some(p) = fast.period {
            let (n0, p) = (p.preperiod as usize, p.period as usize);
            assert!(
                (n0..fast.values.len() - p).all(|n| fast.values.get(n) == fast.values.get(n + p)),
                "{text}"
            );
        }
    });
}

/// Parse "prefix period nimbers" rows: `0(01)` style strings, digits then A=10, ...
fn tczajka_rows() -> Vec<(String, u64, u64, Vec<u16>)> {
    include_str!("../../tests/reference/octal_periods_tczajka_trivial.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let game = if f[0].contains('.') {
                f[0].to_string()
            } else {
                format!("{}.", f[0])
            };
            let values = f[3]
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_digit(36).unwrap() as u16)
                .collect();
            (game, f[1].parse().unwrap(), f[2].parse().unwrap(), values)
        })
        .collect()
}

#[test]
fn every_trivial_game_of_the_octal_tables_gets_its_stated_period_and_values() {
    let rows = tczajka_rows();
    assert!(rows.len() >= 80, "{}", rows.len());
    rows.par_iter().for_each(|(game, prefix, period, values)| {
        let s = sequence(game, &Options::default());
        let p = s
            .period
            .unwrap_or_else(|| panic!("{game}: no period proven"));
        assert_eq!((p.preperiod, p.period), (*prefix, *period), "{game}");
        for (n, v) in values.iter().enumerate() {
            assert_eq!(s.value(n as u64), Some(*v), "{game} heap {n}");
        }
    });
}

#[test]
fn the_summary_table_periods() {
    for (game, preperiod, period) in [
        ("0.77", 71, 12),  // Kayles: OEIS A002186, CGSuite, Ferguson (last exception 70)
        ("0.137", 52, 34), // Dawson's Chess: last exception n = 51
        ("0.07", 53, 34),  // Dawson's Kayles: CGSuite Preperiod => 53
        ("0.4", 54, 34),   // tczajka: prefix 54
        ("0.51", 1, 1),
        ("0.75", 1, 2),         // what 4.7 reduces to in GameLookup
        ("0.0330003", 0, 5),    // subtraction {2,3,7}
        ("0.177", 497, 20),     // OEIS A071435: last exception 496
        ("0.1377", 141, 24),    // OEIS A071434: last exception 140
        ("0.7777", 142, 24),    // OEIS A071074: last exception 141
        ("0.11377", 187, 32),   // OEIS A071452: last exception 186
        ("0.117", 47, 48),      // OEIS A071453: exceptions up to 46
        ("0.127", 46_578, 4),   // Gangolli & Plambeck; tczajka prefix 46578
        ("0.56", 326_640, 144), // tczajka prefix 326640 (OEIS's last exception differs by 2)
        ("4.7", 1, 2),          // GameLookup: 4.7 is .75, prefix 1, period 2, values 0(12)
    ] {
        let s = sequence(game, &Options::default());
        let p = s.period.unwrap_or_else(|| panic!("{game}: no period"));
        assert_eq!((p.preperiod, p.period), (preperiod, period), "{game}");
    }
}

/// Rows of the solved-games table: (game, prefix, period).
fn solved_games() -> Vec<(String, u64, u64)> {
    include_str!("../../tests/reference/octal_periods_tczajka_solved_unsolved.txt")
        .lines()
        .take_while(|l| !l.starts_with("# Unsolved"))
        .filter(|l| l.starts_with('.'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                format!("0{}", f[0]),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn check_solved(limit: u64, long: bool) {
    let games = solved_games();
    assert_eq!(games.len(), 10);
    for (game, prefix, period) in games {
        let needed = 2 * prefix + 2 * period + 8;
        if (needed > limit) != long {
            continue;
        }
        let s = sequence(
            &game,
            &Options {
                upto: needed,
                ..Options::default()
            },
        );
        let p = s
            .period
            .unwrap_or_else(|| panic!("{game}: no period by {needed}"));
        assert_eq!((p.preperiod, p.period), (prefix, period), "{game}");
    }
}

#[test]
fn solved_games_with_short_proofs() {
    // .45, .156, .356, .644, .165, .16, .56, .127: proofs under a million values.
    check_solved(1_000_000, false);
}

#[test]
#[ignore = "a minute: .376 (4.5M values) and .354 (20M values), 54 s in all on 2 cores"]
fn solved_games_with_long_proofs() {
    check_solved(1_000_000, true);
}

#[test]
#[ignore = "two minutes and 2 GB: 443 million values"]
fn dot_1777_has_period_60620715_from_160949018() {
    // OEIS A071509: period 60620715, last exception n = 160949017.
    let s = sequence(
        "0.1777",
        &Options {
            upto: 450_000_000,
            ..Options::default()
        },
    );
    let p = s.period.expect("proven by 450,000,000");
    assert_eq!((p.preperiod, p.period), (160_949_018, 60_620_715));
}

#[test]
fn dot_16_has_preperiod_105351_and_period_149459() {
    let s = sequence(
        "0.16",
        &Options {
            upto: 700_000,
            ..Options::default()
        },
    );
    let p = s.period.expect("proven by 700,000");
    assert_eq!((p.preperiod, p.period), (105_351, 149_459));
    // Proven by the Guy-Smith bound: 2 * 105351 + 2 * 149459 + 2 - 1 values.
    assert_eq!(s.values.len(), 2 * 105_351 + 2 * 149_459 + 2);
}

#[test]
fn dawsons_kayles_values() {
    let s = sequence("0.07", &Options::default());
    for line in include_str!("../../tests/reference/dawsons_kayles_007.txt").lines() {
        if line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let (n, derived): (u64, u16) = (f[0].parse().unwrap(), f[2].parse().unwrap());
        assert_eq!(s.value(n), Some(derived), "heap {n}");
        if f[1] != "-" {
            assert_eq!(s.value(n), Some(f[1].parse().unwrap()), "heap {n}");
        }
    }
}

#[test]
fn take_one_two_or_three_is_n_mod_4() {
    let s = sequence("0.333", &Options::default());
    assert_eq!(
        s.period,
        Some(Period {
            preperiod: 0,
            period: 4
        })
    );
    let huge: BigUint = "123456789012345678901234567890123".parse().unwrap();
    assert_eq!(BigUint::from(s.value_of(&huge).unwrap()), &huge % 4u8);
}

#[test]
fn subtraction_codes_agree_with_the_subtraction_engine() {
    use crate::subtraction::{Limits, Rule, Sequence, SubtractionSet};
    for moves in [&[1usize, 3, 4][..], &[2, 3, 7], &[1, 7, 11], &[3, 5, 8, 13]] {
        let octal = GrundySequence::compute(
            &OctalCode::subtraction(moves),
            &full(500, Method::RareCommon),
            &|_, _| {},
        )
        .unwrap();
        let set =
            SubtractionSet::new(&moves.iter().map(|&m| m as u64).collect::<Vec<_>>()).unwrap();
        let sub = Sequence::compute(&set, Rule::Normal, &Limits::default()).unwrap();
        for n in 0..=500u64 {
            assert_eq!(
                octal.value(n),
                Some(u16::from(sub.value(n))),
                "{moves:?} heap {n}"
            );
        }
    }
}

#[test]
fn cgsuite_misere_values_give_the_misere_outcomes() {
    let text = include_str!("../../tests/reference/misere.txt");
    for (name, game) in [
        ("Kayles", "0.77"),
        ("DawsonsKayles", "0.07"),
        ("Subtraction{2,3,7}", "0.0330003"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        let values: Vec<u32> = line
            .split_whitespace()
            .last()
            .unwrap()
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect();
        for (n, v) in values.iter().enumerate() {
            let a = analyse_misere(&code(game), &[n as u32], 1_000_000, &Cancel::new()).unwrap();
            let expected = if *v == 0 { Outcome::Loss } else { Outcome::Win };
            assert_eq!(a.outcome, expected, "{game} heap {n}");
        }
    }
}

#[test]
fn sums_agree_with_the_generic_solver() {
    for game in ["0.77", "0.07", "0.137", "4.7", "0.16", "0.6", "4.", "0.333"] {
        let c = code(game);
        let s = sequence(game, &full(40, Method::RareCommon));
        let mut solver = Solver::new(OctalSum {
            code: c.clone(),
            misere: false,
        });
        for a in 0..9u32 {
            for b in 0..9u32 {
                for extra in [0u32, 5] {
                    let heaps = [a, b, extra];
                    let big: Vec<BigUint> = heaps.iter().map(|&h| BigUint::from(h)).collect();
                    let sum = analyse_sum(&s, &big).unwrap();
                    let by_search = solver.value(
                        &OctalSum {
                            code: c.clone(),
                            misere: false,
                        }
                        .canonical(heaps.to_vec()),
                    );
                    assert_eq!(
                        sum.first_player_wins,
                        by_search.outcome() == Outcome::Win,
                        "{game} {heaps:?}"
                    );
                    for m in &sum.winning_moves {
                        let mut after: Vec<u32> = heaps.to_vec();
                        after.remove(m.heap);
                        after.extend(m.leaves.iter().map(|l| l.to_u32().unwrap()));
                        let game_after = OctalSum {
                            code: c.clone(),
                            misere: false,
                        }
                        .canonical(after);
                        assert_eq!(
                            solver.value(&game_after).outcome(),
                            Outcome::Loss,
                            "{game} {heaps:?} {m:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn winning_moves_in_huge_heaps() {
    let s = sequence("0.77", &Options::default());
    let heaps: Vec<BigUint> = vec![
        "1000000000000000000000000000001".parse().unwrap(),
        BigUint::from(3u8),
    ];
    let a = analyse_sum(&s, &heaps).unwrap();
    for m in &a.winning_moves {
        let mut after: Vec<u16> = vec![s.value_of(&heaps[1 - m.heap]).unwrap()];
        after.extend(m.leaves.iter().map(|l| s.value_of(l).unwrap()));
        assert_eq!(after.iter().fold(0, |x, v| x ^ v), 0, "{m:?}");
    }
    assert_eq!(a.first_player_wins, !a.winning_moves.is_empty());
}

#[test]
fn partition_counts() {
    // p(0..=5) = 1, 1, 2, 3, 5, 7.
    assert_eq!(partitions_up_to(5), 19);
    assert_eq!(partitions_up_to(0), 1);
}

#[test]
fn misere_out_of_reach_says_so() {
    let err = analyse_misere(&code("0.77"), &[60, 61, 62], 10_000, &Cancel::new()).unwrap_err();
    assert_eq!(err, OctalError::MisereTooLarge(10_000));
}

#[test]
fn no_period_within_the_limit_is_reported() {
    // Grundy-like .6 has no known period: none is proven by 2,000.
    let s = sequence(
        "0.6",
        &Options {
            upto: 2000,
            ..Options::default()
        },
    );
    assert_eq!(s.period, None);
    assert_eq!(s.values.len(), 2001);
    let err = analyse_sum(&s, &[BigUint::from(5000u32)]).unwrap_err();
    assert!(matches!(err, OctalError::HeapBeyond { .. }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_four_digit_codes_agree(lead in prop::sample::select(vec![0u8, 4]), digits in proptest::collection::vec(0u8..8, 4)) {
        let text = format!("{lead}.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        prop_assume!(text.parse::<OctalCode>().is_ok());
        let naive = sequence(&text, &full(600, Method::Naive));
        let fast = sequence(&text, &full(600, Method::RareCommon));
        prop_assert_eq!(naive.values, fast.values);
    }
}

/// The adaptive engine switches between the split and the naive loop window by window; its
/// values must be the naive loop's exactly, whatever it switched to.
#[test]
fn adaptive_values_equal_naive_values() {
    use super::grundy::{GrundyMethod, Naive, RareCommon};
    let codes = [
        "0.77777777777777777777",
        "0.6",
        "0.77",
        "0.07",
        "0.137",
        "0.16",
        "4.7",
        "0.3777",
        "0.56",
        "0.4",
        "0.7777777777",
    ];
    for text in codes {
        let code: OctalCode = text.parse().unwrap();
        let mut adaptive = RareCommon::adaptive(&code);
        let mut naive = Naive::new(&code);
        for _ in 0..6000 {
            adaptive.step();
            naive.step();
        }
        assert_eq!(adaptive.values(), naive.values(), "{text}");
    }
}

/// Found by the `cli` fuzz target: the misère search's up-front bound counted partitions of a
/// 2,000,000 heap in quadratic time. It must refuse at once.
#[test]
fn misere_search_refuses_a_huge_heap_at_once() {
    let start = std::time::Instant::now();
    let result = analyse_misere(
        &code("0.75"),
        &[5, 0, 2_000_000, 8],
        5_000_000,
        &Cancel::new(),
    );
    assert_eq!(result, Err(OctalError::MisereTooLarge(5_000_000)));
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
}

/// The rows of CGSuite's take-and-break table: (code, options of heap 20, values 0..=20).
fn cgsuite_rows() -> Vec<(String, usize, Vec<u16>)> {
    let text = include_str!("../../tests/reference/cgsuite_heap_tests.txt");
    let table = text
        .split("[TakeAndBreak rulesets]")
        .nth(1)
        .and_then(|t| t.split("\n\n").next())
        .unwrap();
    table
        .lines()
        .skip(1)
        .filter(|l| !l.contains('[') || l.contains("4!.0") || l.contains("0.3F"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split(" | ").collect();
            let code = f.get(1)?.trim();
            code.parse::<OctalCode>().ok()?;
            let values = f[3].split(',').map(|v| v.parse().unwrap()).collect();
            Some((code.to_string(), f[2].trim().parse().unwrap(), values))
        })
        .collect()
}

/// The definition over [`each_move`], an oracle independent of the two methods' split loops.
fn values_by_definition(code: &OctalCode, upto: u32) -> Vec<u16> {
    let mut values: Vec<u16> = Vec::new();
    for n in 0..=upto {
        let mut options = std::collections::BTreeSet::new();
        each_move(code, &BigUint::from(n), u64::from(n), &mut |_, leaves| {
            options.insert(
                leaves
                    .iter()
                    .map(|h| values[h.to_usize().unwrap()])
                    .fold(0, |a, v| a ^ v),
            );
            true
        });
        values.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    values
}

#[test]
fn cgsuite_values_of_grundys_game_and_the_hexadecimal_code_0_3f() {
    let rows = cgsuite_rows();
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert!(
        names.contains(&"4!.0") && names.contains(&"0.3F"),
        "{names:?}"
    );
    for (text, options_of_20, values) in rows {
        let c = code(&text);
        for method in [Method::Naive, Method::RareCommon, Method::Auto] {
            let seq = GrundySequence::compute(&c, &full(20, method), &|_, _| {}).unwrap();
            assert_eq!(seq.values, values, "{text} {method:?}");
        }
        assert_eq!(values_by_definition(&c, 20), values, "{text}");
        let mut count = 0;
        each_move(&c, &BigUint::from(20u8), 20, &mut |_, _| {
            count += 1;
            true
        });
        assert_eq!(count, options_of_20, "{text}");
    }
}

#[test]
fn cgsuite_move_lists_of_hexadecimal_and_restricted_codes() {
    let text = include_str!("../../tests/reference/cgsuite_heap_tests.txt");
    let table = text.split("[Move generation").nth(1).unwrap();
    let mut checked = 0;
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split(" | ").collect();
        let Some(Ok(c)) = f.first().map(|t| t.trim().parse::<OctalCode>()) else {
            continue; // CGSuite's repeating and coin-turning notations are not codes here
        };
        let n: u64 = f[1].trim().parse().unwrap();
        let mut expected: Vec<Vec<u64>> = f[2]
            .split("  ")
            .map(|o| {
                if o.trim() == "-" {
                    Vec::new()
                } else {
                    o.split(',').map(|h| h.trim().parse().unwrap()).collect()
                }
            })
            .collect();
        let mut listed = Vec::new();
        each_move(&c, &BigUint::from(n), n, &mut |_, leaves| {
            listed.push(
                leaves
                    .iter()
                    .map(|h| h.to_u64().unwrap())
                    .collect::<Vec<_>>(),
            );
            true
        });
        expected.sort();
        listed.sort();
        listed.dedup();
        assert_eq!(listed, expected, "{}", f[0]);
        checked += 1;
    }
    assert!(checked >= 9, "{checked} move lists checked");
}

fn hexadecimal_codes() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["0", "4", "8", "C"]),
        prop::collection::vec(
            (0u8..16, prop::sample::select(vec!["", "", "!", "?"])),
            1..=3,
        ),
        prop::sample::select(vec!["", "!", "?"]),
    )
        .prop_map(|(lead, digits, lead_parts)| {
            let lead_parts = if lead == "0" { "" } else { lead_parts };
            let tail: String = digits
                .iter()
                .map(|&(d, m)| format!("{d:X}{}", if d & 12 == 0 { "" } else { m }))
                .collect();
            format!("{lead}{lead_parts}.{tail}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn both_methods_follow_the_definition_on_hexadecimal_and_restricted_codes(text in hexadecimal_codes()) {
        let Ok(c) = text.parse::<OctalCode>() else {
            return Ok(()); // no move at all
        };
        let expected = values_by_definition(&c, 70);
        for method in [Method::Naive, Method::RareCommon, Method::Auto] {
            let seq = GrundySequence::compute(&c, &full(70, method), &|_, _| {}).unwrap();
            prop_assert_eq!(&seq.values, &expected, "{} {:?}", text, method);
        }
    }
}

#[test]
fn hexadecimal_sums_agree_with_the_generic_solver() {
    for game in ["0.3F", "0.F", "4!.0", "0.3F!", "8.1", "0.7?", "C.0"] {
        let c = code(game);
        let s = sequence(game, &full(30, Method::Naive));
        let sum_game = OctalSum {
            code: c.clone(),
            misere: false,
        };
        let mut solver = Solver::new(sum_game.clone());
        for a in 0..10u32 {
            for b in 0..10u32 {
                let heaps = [a, b];
                let big: Vec<BigUint> = heaps.iter().map(|&h| BigUint::from(h)).collect();
                let sum = analyse_sum(&s, &big).unwrap();
                let by_search = solver.value(&sum_game.canonical(heaps.to_vec()));
                assert_eq!(
                    sum.first_player_wins,
                    by_search.outcome() == Outcome::Win,
                    "{game} {heaps:?}"
                );
                let mut losing_replies = 0;
                for m in &sum.winning_moves {
                    let mut after = heaps.to_vec();
                    after.remove(m.heap);
                    after.extend(m.leaves.iter().map(|l| l.to_u32().unwrap()));
                    let v = solver.value(&sum_game.canonical(after));
                    assert_eq!(v.outcome(), Outcome::Loss, "{game} {heaps:?} {m:?}");
                    losing_replies += 1;
                }
                assert_eq!(
                    BigUint::from(losing_replies as u32),
                    sum.winning_moves_total
                );
            }
        }
    }
}

#[test]
fn grundys_game_has_no_claimed_period_and_its_published_values() {
    // OEIS A002188 (Sprague-Grundy values for Grundy's game), heaps 0..=104.
    let published = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
        3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
        2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3,
        7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
    ];
    for method in [Method::Naive, Method::RareCommon, Method::Auto] {
        let seq =
            GrundySequence::compute(&OctalCode::grundys_game(), &full(104, method), &|_, _| {})
                .unwrap();
        assert_eq!(seq.values.to_vec(), published, "{method:?}");
    }
    // A restriction on the parts voids the periodicity theorem: nothing is claimed.
    let longer = sequence(
        "4!.0",
        &Options {
            upto: 5000,
            ..Options::default()
        },
    );
    assert_eq!(longer.period, None);
    assert_eq!(longer.values.len(), 5001);
}

#[test]
fn three_way_work_is_refused_up_front_with_the_largest_upto() {
    let c = code("0.3F");
    let largest = largest_upto(&c);
    assert!(three_way_splits(&c, largest) <= MAX_THREE_WAY_SPLITS);
    assert!(three_way_splits(&c, largest + 1) > MAX_THREE_WAY_SPLITS);
    let err = GrundySequence::compute(&c, &full(1 << 20, Method::Auto), &|_, _| {}).unwrap_err();
    assert!(
        matches!(err, OctalError::TooMuchWork { largest: l, .. } if l == largest),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains(&format!("--upto {largest} or less"))
    );
    // Octal codes have no three-way splits: no such limit.
    assert_eq!(largest_upto(&code("0.77")), MAX_UPTO);
}

/// Values and work counts of the rare/common method heap by heap, and pipelined on two threads
/// in blocks of `block` heaps (segments of at least `2 * block`). The work must be the same
/// unless the method is adaptive: it weighs a pipelined heap's work as done on two cores, so
/// its switches to the naive loop may fall elsewhere.
fn pipelined_against_steps(
    method: fn(&OctalCode) -> grundy::RareCommon,
    c: &OctalCode,
    upto: usize,
    block: usize,
) -> (Vec<u16>, Vec<u16>) {
    let mut one = method(c);
    while one.values().len() <= upto {
        one.step();
    }
    let mut two = method(c);
    two.extend_pipelined(upto, block, 2 * block, 0, &mut |_| true);
    if !one.is_adaptive() {
        assert_eq!(
            (one.search_steps, one.rare_steps),
            (two.search_steps, two.rare_steps),
            "{c}: the same work counted"
        );
    }
    (one.values().to_vec(), two.values().to_vec())
}

#[test]
fn the_pipeline_gives_the_one_thread_values() {
    // Every small code in blocks of 16, the named ones in blocks of 1 and 3 as well; the
    // sweep of every code in every block size is the ignored test below.
    pipeline_sweep(&[16], &[1, 3, 16]);
}

#[test]
#[ignore = "every code of up to three digits in blocks of 1, 3 and 16: about two minutes; cargo test --workspace --lib -- --ignored pipeline_sweeps"]
fn pipeline_sweeps_every_small_code_in_every_block_size() {
    pipeline_sweep(&[1, 3, 16], &[1, 3, 16]);
}

/// The rare/common loop pipelined against one thread: every code of up to three digits in
/// blocks of `small_blocks`, some restricted and hexadecimal codes in `named_blocks`, then
/// Grundy's game far and the adaptive method.
fn pipeline_sweep(small_blocks: &[usize], named_blocks: &[usize]) {
    let mut checked = 0;
    let named = [
        "4!.0", "0.6", "0.7?", "4?.3", "0.16", "0.77", "4.7", "0.37F", "0.4!4!",
    ];
    let small = small_codes();
    for (text, blocks) in small
        .iter()
        .map(|t| (t.as_str(), small_blocks))
        .chain(named.iter().map(|t| (*t, named_blocks)))
    {
        let c = code(text);
        let naive = sequence(text, &full(600, Method::Naive));
        for &block in blocks {
            let (one, two) = pipelined_against_steps(grundy::RareCommon::new, &c, 600, block);
            assert_eq!(naive.values, one, "{text}");
            assert_eq!(naive.values, two, "{text}, blocks of {block}");
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked} codes");
    // Grundy's game far enough for the rare list and the search to matter, and the adaptive
    // method, which leaves the pipeline when it switches to the naive loop.
    let (one, two) = pipelined_against_steps(
        grundy::RareCommon::new,
        &OctalCode::grundys_game(),
        20_000,
        64,
    );
    assert_eq!(one, two);
    for text in ["0.777777777777", "0.6", "4!.0"] {
        let (one, two) =
            pipelined_against_steps(grundy::RareCommon::adaptive, &code(text), 5000, 8);
        assert_eq!(one, two, "{text}, adaptive");
    }
}

#[test]
fn the_naive_loop_on_two_threads_gives_the_one_thread_values() {
    // Every small code in blocks of 16 (a hand-over every 16 heaps: the blocks of 3 took 32 s
    // of the suite), the named ones in blocks of 1, 3 and 16; every code in every block size
    // is the ignored test below.
    naive_pipeline_sweep(&[16], &[1, 3, 16]);
}

#[test]
#[ignore = "every code of up to three digits in blocks of 1, 3 and 16: about two minutes; cargo test --workspace --lib -- --ignored naive_pipeline_sweeps"]
fn naive_pipeline_sweeps_every_small_code_in_every_block_size() {
    naive_pipeline_sweep(&[1, 3, 16], &[1, 3, 16]);
}

/// The adaptive method's naive stretches run pipelined too: every code of up to three digits
/// in blocks of `small_blocks` (and some with restrictions and unequal parts in
/// `named_blocks`) against the definition, in blocks small enough for the stretches to start
/// early.
fn naive_pipeline_sweep(small_blocks: &[usize], named_blocks: &[usize]) {
    let (mut checked, mut pipelined, mut runs) = (0, 0, 0u64);
    let named = [
        "4!.0", "0.7?", "4?.3", "0.37F", "0.4!4!", "0.024", "0.114", "4.327",
    ];
    let small = small_codes();
    for (text, blocks) in small
        .iter()
        .map(|t| (t.as_str(), small_blocks))
        .chain(named.iter().map(|t| (*t, named_blocks)))
    {
        let c = code(text);
        let naive = sequence(text, &full(1000, Method::Naive));
        for &block in blocks {
            let mut two = grundy::RareCommon::adaptive(&c);
            two.extend_pipelined(1000, block, 2 * block, 0, &mut |_| true);
            assert_eq!(
                naive.values,
                two.values().to_vec(),
                "{text}, blocks of {block}"
            );
            pipelined += u64::from(two.naive_pipelined > 0);
            runs += 1;
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked} codes");
    // Most codes have naive stretches long enough to be pipelined (a third at least).
    assert!(
        pipelined * 3 > runs,
        "naive stretches on two threads in {pipelined} of {runs} runs"
    );
}

#[test]
fn the_pipeline_stops_where_it_is_told() {
    let mut m = grundy::RareCommon::new(&OctalCode::grundys_game());
    m.extend_pipelined(10_000, 16, 32, 0, &mut |values| values.len() < 1234);
    assert_eq!(m.values().len(), 1234);
    let naive = sequence("4!.0", &full(1233, Method::Naive));
    assert_eq!(m.values(), &naive.values);
}

#[test]
#[ignore = "about 10 s in release: cargo test --release -- --ignored grundys_game_to_2_21"]
fn grundys_game_to_2_21_matches_the_published_table() {
    // tczajka/octal-games, UnsolvedGames.md (../shared/reference/octal_periods_summary.txt):
    // computed to 2^21, largest value 231 at 763622, 1274 rare values, the last at 82860.
    // Rare (Flammenkamp's sparse set): the bits of g(n) above the lowest have even parity.
    let seq = GrundySequence::compute(
        &OctalCode::grundys_game(),
        &full(1 << 21, Method::Auto),
        &|_, _| {},
    )
    .unwrap();
    let v = seq.values.to_vec();
    let max = *v.iter().max().unwrap();
    assert_eq!(
        (max, v.iter().position(|&x| x == max)),
        (231, Some(763_622))
    );
    let rare: Vec<usize> = (0..v.len())
        .filter(|&n| (v[n] >> 1).count_ones().is_multiple_of(2))
        .collect();
    assert_eq!(rare.len(), 1274);
    assert_eq!(rare.last(), Some(&82_860));
}

/// A file name of this test run's own, free.
fn scratch(name: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("perfect-play-octal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// The values of `code` computed to the end through the checkpoint at `path`, going on from
/// what it holds.
fn resume(code: &OctalCode, options: &Options, path: &std::path::Path) -> GrundySequence {
    let mut checkpoint = GrundyCheckpoint::open(path, code).unwrap();
    let never = Cancel::new();
    GrundySequence::compute_resumable(code, options, Some(&mut checkpoint), &never, &|_, _| {})
        .unwrap()
}

#[test]
fn a_stopped_computation_goes_on_from_its_checkpoint_to_the_same_values() {
    // Officers (0.6) has no known period: every heap is computed.
    let code: OctalCode = "0.6".parse().unwrap();
    for method in [Method::Auto, Method::Naive, Method::RareCommon] {
        let options = full(60_000, method);
        let whole = GrundySequence::compute(&code, &options, &|_, _| {}).unwrap();
        let path = scratch(&format!("officers-{method:?}"));
        for stop_at in [4096u64, 20_480, 40_960] {
            let mut checkpoint = GrundyCheckpoint::open(&path, &code).unwrap();
            let stop = Cancel::new();
            let stopped = GrundySequence::compute_resumable(
                &code,
                &options,
                Some(&mut checkpoint),
                &stop,
                &|done, _| {
                    if done >= stop_at {
                        stop.cancel();
                    }
                },
            );
            assert!(
                matches!(stopped, Err(OctalError::Stopped { heaps, .. }) if heaps as u64 == stop_at + 1),
                "{stopped:?}"
            );
        }
        let saved = GrundyCheckpoint::open(&path, &code)
            .unwrap()
            .values()
            .unwrap();
        assert_eq!(saved.len(), 40_961);
        assert_eq!(saved[..], whole.values.to_vec()[..40_961]);
        assert_eq!(resume(&code, &options, &path), whole, "{method:?}");
        std::fs::remove_file(&path).unwrap();
    }
    // A period proven from saved values is proven again: Kayles stops where it did.
    let kayles: OctalCode = "0.77".parse().unwrap();
    let options = Options::default();
    let whole = GrundySequence::compute(&kayles, &options, &|_, _| {}).unwrap();
    let path = scratch("kayles");
    let first = resume(&kayles, &options, &path);
    let again = resume(&kayles, &options, &path);
    assert_eq!((&first, &again), (&whole, &whole));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_checkpoint_of_another_code_or_damaged_is_refused_and_left_alone() {
    let code: OctalCode = "0.6".parse().unwrap();
    let path = scratch("foreign");
    std::fs::write(&path, b"precious").unwrap();
    let err = GrundyCheckpoint::open(&path, &code).unwrap_err();
    assert!(err.to_string().contains("not a checkpoint"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"precious");
    let mut checkpoint = GrundyCheckpoint::open(&scratch("absent"), &code).unwrap();
    assert_eq!(checkpoint.saved(), 0);
    assert!(checkpoint.values().unwrap().is_empty());
    let mut other =
        GrundyCheckpoint::open(&path.with_extension("kayles"), &"0.77".parse().unwrap()).unwrap();
    other.save(&vec![0, 1, 2].into()).unwrap();
    // One computation at a time saves to a file: a second is refused while the first runs.
    let err = GrundyCheckpoint::open(&path.with_extension("kayles"), &code).unwrap_err();
    assert!(
        err.to_string().contains("another perfect-play process"),
        "{err}"
    );
    drop(other);
    let err = GrundyCheckpoint::open(&path.with_extension("kayles"), &code).unwrap_err();
    assert!(err.to_string().contains("not a checkpoint"), "{err}");
    checkpoint = GrundyCheckpoint::open(&path.with_extension("officers"), &code).unwrap();
    checkpoint.save(&vec![0, 0, 1, 1, 2].into()).unwrap();
    drop(checkpoint);
    let bytes = std::fs::read(path.with_extension("officers")).unwrap();
    std::fs::write(path.with_extension("officers"), &bytes[..bytes.len() - 2]).unwrap();
    let err = GrundyCheckpoint::open(&path.with_extension("officers"), &code).unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");
    for file in [
        path.clone(),
        path.with_extension("kayles"),
        path.with_extension("officers"),
    ] {
        std::fs::remove_file(file).unwrap();
    }
}

/// `extend` to any `upto`, stopped by its callback: the room reserved up front is only a hint,
/// never a capacity overflow.
#[test]
fn extend_to_no_bound_stops_where_it_is_told() {
    let mut m = grundy::RareCommon::adaptive(&code("0.6"));
    m.extend(usize::MAX, &mut |values| values.len() < 3000);
    assert_eq!(m.values().len(), 3000);
    let naive = sequence("0.6", &full(2999, Method::Naive));
    assert_eq!(m.values(), &naive.values);
}

fn packed(upto: u64, method: Method, from: usize, window: usize) -> Options {
    Options {
        storage: Storage::Packed(Packing { from, window }),
        ..full(upto, method)
    }
}

/// A packed table gives every code of up to three digits the wide table's values, by each
/// method, with two-byte runs so short that most splits have a part in the packed middle
/// (read one value at a time, and left by the pipeline's helper to the main thread).
#[test]
fn packed_tables_give_the_wide_values_on_every_small_code() {
    // The default method (which switches between the two loops) on every code; each loop
    // alone on every code is the ignored test below.
    packed_sweep(&[Method::Auto]);
}

#[test]
#[ignore = "every small code packed under each method: about 20 s of CPU; cargo test --workspace --lib -- --ignored packed_sweeps"]
fn packed_sweeps_every_small_code_under_every_method() {
    packed_sweep(&[Method::Naive, Method::RareCommon, Method::Auto]);
}

fn packed_sweep(methods: &[Method]) {
    small_codes()
        .par_iter()
        .chain(["4!.0".to_string(), "0.3F".to_string(), "0.4!4!".to_string()].par_iter())
        .for_each(|text| {
            let wide = sequence(text, &full(700, Method::Naive));
            for &method in methods {
                for (from, window) in [(1, 1), (5, 3), (64, 16), (300, 200)] {
                    let seq = sequence(text, &packed(700, method, from, window));
                    assert!(seq.values.is_packed());
                    assert_eq!(seq.values, wide.values, "{text} {method:?} {from} {window}");
                }
            }
        });
}

/// Long enough for the pipeline to run segments, whose helper copies only the two-byte runs:
/// Officers (one splitting removal) and Grundy's game and 0.167 (several), packed from heap
/// 1,000 with a window of 512 (the pipeline's blocks are 64 heaps).
#[test]
fn packed_tables_give_the_wide_values_through_the_pipeline() {
    packed_through_the_pipeline(20_000);
}

#[test]
#[ignore = "the same to heap 40,000: about 16 s of CPU; cargo test --workspace --lib -- --ignored packed_pipeline_to_40000"]
fn packed_pipeline_to_40000() {
    packed_through_the_pipeline(40_000);
}

fn packed_through_the_pipeline(upto: u64) {
    for text in ["0.6", "4!.0", "0.167"] {
        let wide = sequence(text, &full(upto, Method::Auto));
        for (from, window) in [(1_000, 512), (20, 100)] {
            let seq = sequence(text, &packed(upto, Method::Auto, from, window));
            assert_eq!(seq.values, wide.values, "{text} {from} {window}");
        }
    }
}

/// Every value of every heap parity, under every class of the masks a table may pack by:
/// a byte when the class allows, escaped otherwise, and read back as itself.
#[test]
fn a_packed_table_reads_back_every_value() {
    for mask in [0b1, 0b10, 0b11, 0b110, 0x3dc, 0x3ff, 0x201] {
        for common_odd in [false, true] {
            let mut table = ValueTable::packed(Packing { from: 1, window: 1 });
            table.prefer_class(mask, common_odd);
            let values: Vec<u16> = (0..4000u32).map(|n| (n * 7919 % 1031) as u16).collect();
            for &v in &values {
                table.push(v);
            }
            assert_eq!(table, values, "mask {mask:#x} {common_odd}");
            // Packed again under another class, and on.
            let mut again = table.clone();
            again.prefer_class(0x3dc, !common_odd);
            for &v in &values {
                again.push(v);
            }
            let twice: Vec<u16> = values.iter().chain(&values).copied().collect();
            assert_eq!(again, twice, "mask {mask:#x} {common_odd}, then 0x3dc");
            // Half the values are common under a class with a value bit, and those below 512
            // (half of them) take a byte: at most about three in four are escaped.
            if mask >> 1 != 0 {
                assert!(table.escaped() < 3100, "{}", table.escaped());
            }
        }
    }
}

/// Officers' values to 200,000 packed from heap 4,096 take about one byte each, none
/// escaped past the rare heaps (all below 20,627) and the few values of 255 or more that
/// lose their bit: the class fixes one bit of every common value.
#[test]
fn officers_packs_into_a_byte_a_value() {
    officers_packed(100_000);
}

#[test]
#[ignore = "the same to heap 200,000: about 10 s of CPU; cargo test --workspace --lib -- --ignored officers_packed_to_200000"]
fn officers_packed_to_200000() {
    officers_packed(200_000);
}

fn officers_packed(upto: u64) {
    let seq = sequence("0.6", &packed(upto, Method::Auto, 4096, 4096));
    assert_eq!(
        seq.values,
        sequence("0.6", &full(upto, Method::Auto)).values
    );
    let escaped = seq.values.escaped();
    assert!(escaped < 2_000, "{escaped} escaped");
    let bytes = seq.values.bytes_used() as u64;
    assert!(
        bytes < upto + 2 * (4096 + 2 * 4096) + 20 * 2_000,
        "{bytes} bytes"
    );
}

/// The checkpoint of a packed run is read back into a packed run that goes on to the same
/// values.
#[test]
fn a_packed_run_goes_on_from_its_checkpoint() {
    let code: OctalCode = "0.6".parse().unwrap();
    let options = packed(30_000, Method::Auto, 2_000, 1_000);
    let whole = GrundySequence::compute(&code, &full(30_000, Method::Auto), &|_, _| {}).unwrap();
    let path = scratch("officers-packed");
    let mut checkpoint = GrundyCheckpoint::open(&path, &code).unwrap();
    let stop = Cancel::new();
    let stopped = GrundySequence::compute_resumable(
        &code,
        &options,
        Some(&mut checkpoint),
        &stop,
        &|done, _| {
            if done >= 12_288 {
                stop.cancel();
            }
        },
    );
    assert!(
        matches!(stopped, Err(OctalError::Stopped { heaps: 12_289, .. })),
        "{stopped:?}"
    );
    // The run let go of its file (and its lock): the next goes on from it.
    drop(checkpoint);
    let seq = resume(&code, &options, &path);
    assert!(seq.values.is_packed());
    assert_eq!(seq, whole);
    std::fs::remove_file(&path).unwrap();
}

/// Past 2^30 values a default computation packs, and the bytes it needs say so.
#[test]
fn storage_packs_past_two_to_the_thirty() {
    assert_eq!(Storage::Auto.resolve(MAX_WIDE_UPTO), Storage::Wide);
    assert_eq!(
        Storage::Auto.resolve(MAX_WIDE_UPTO + 1),
        Storage::Packed(Packing::default())
    );
    let heaps = 1u64 << 32;
    let packed = table_bytes(heaps, Storage::Auto);
    assert!(packed > heaps && packed < heaps + heaps / 16, "{packed}");
    assert!(table_bytes(heaps, Storage::Wide) >= 4 * heaps);
}

/// The games with no known period are those of the reference list (Grundy's game and .6 with
/// data there), and a solved one is not among them.
#[test]
fn games_with_no_known_period_are_the_reference_lists() {
    for unsolved in ["grundy", "4!.0", ".6", "0.6", ".04", ".776", "4.406"] {
        let c: OctalCode = if unsolved == "grundy" {
            OctalCode::grundys_game()
        } else {
            code(unsolved)
        };
        assert!(period_unknown(&c), "{unsolved}");
    }
    for solved in ["0.77", ".16", ".354", "0.3F", ".07"] {
        assert!(!period_unknown(&code(solved)), "{solved}");
    }
}

/// A look for a period of a hexadecimal code stays within its splits, and finds the period of
/// a game whose period is short.
#[test]
fn a_look_for_a_period_is_short() {
    let hex = code("0.3F");
    let probe = probe_upto(&hex);
    assert!(three_way_splits(&hex, probe) <= PROBE_SPLITS);
    assert!(three_way_splits(&hex, probe + 1) > PROBE_SPLITS);
    assert!(estimated_seconds(&hex, probe) < 1.0);
    assert_eq!(probe_upto(&code("0.77")), 1 << 20);
}

/// The misère search's up-front bound is within 10x of the positions it visits, on Kayles with
/// up to three heaps of up to 12 (the 11 11 11 was refused at 5 million positions
/// by the product of the heaps' partitions; it searches about 11,000).
#[test]
fn the_misere_bound_is_within_ten_times_the_search() {
    let kayles = code("0.77");
    for a in 1..=12u32 {
        for b in [a / 2, a] {
            for c in [0, a / 3, a] {
                let heaps: Vec<u32> = [a, b, c].into_iter().filter(|&h| h > 0).collect();
                let searched = analyse_misere(&kayles, &heaps, usize::MAX, &Cancel::new())
                    .unwrap()
                    .states as u128;
                let bound = misere_positions_bound(&heaps);
                assert!(bound >= searched, "{heaps:?}: {bound} < {searched}");
                assert!(
                    bound <= 10 * searched.max(1),
                    "{heaps:?}: {bound} vs {searched}"
                );
            }
        }
    }
}
