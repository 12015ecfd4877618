use super::*;
use crate::baseline::can_i_win_hashmap_dfs;
use crate::budget::Cancel;
use crate::solver::Solver;
use proptest::prelude::*;

fn forced(method: Method) -> Options {
    Options {
        method,
        ..Options::default()
    }
}

/// Compare the fast analysis with the generic solver on one query, move by move.
fn check_against_generic(query: &CanIWin, method: Method) {
    let mut generic = Solver::new(query.clone());
    let start = query.start();
    let expected = generic.analyse(&start);
    let got = analyse(query, &forced(method)).unwrap();
    let ctx = format!(
        "{:?} target {} misère {} {method:?}",
        query.pool.values(),
        query.target,
        query.misere
    );
    assert_eq!(got.outcome, expected.value.outcome(), "{ctx}");
    assert_eq!(got.remoteness, Some(expected.value.remoteness), "{ctx}");
    for (m, e) in got.moves.iter().zip(&expected.moves) {
        assert_eq!(m.pick, e.mv, "{ctx}");
        assert_eq!(m.outcome, e.value.outcome(), "{ctx} pick {}", m.pick);
        assert_eq!(
            m.remoteness,
            Some(e.value.remoteness),
            "{ctx} pick {}",
            m.pick
        );
    }
    assert_eq!(got.winning_moves, expected.winning_moves(), "{ctx}");
    // The best line is optimal: replaying it lasts exactly the remoteness.
    assert_eq!(
        got.best_line.len() as u32,
        expected.value.remoteness,
        "{ctx}"
    );
    let mut pos = start;
    for (ply, pick) in got.best_line.iter().enumerate() {
        let want = generic.value(&pos);
        let have = generic.move_value(&pos, pick);
        assert_eq!(have, want, "{ctx}: ply {ply} pick {pick} is not optimal");
        if let Transition::Continue { position, .. } = query.play(&pos, pick) {
            pos = position;
        }
    }
}

#[test]
fn seed_examples() {
    assert_eq!(can_i_win(10, 11), Ok(false));
    assert_eq!(can_i_win(10, 0), Ok(true));
    assert_eq!(can_i_win(10, 1), Ok(true));
    // The seed's walkthrough: max 6, target 10 (the seed says the first player wins).
    assert_eq!(can_i_win(6, 10), Ok(true));
    assert!(can_i_win_hashmap_dfs(6, 10));
}

#[test]
fn errors_instead_of_panics() {
    assert_eq!(can_i_win(0, 5), Err(CanIWinError::MaxOutOfRange(0)));
    assert_eq!(can_i_win(-3, 5), Err(CanIWinError::MaxOutOfRange(-3)));
    assert_eq!(can_i_win(65, 5), Err(CanIWinError::MaxOutOfRange(65)));
    assert_eq!(
        can_i_win(i64::MAX, 5),
        Err(CanIWinError::MaxOutOfRange(i64::MAX))
    );
    assert!(
        CanIWinError::MaxOutOfRange(-1)
            .to_string()
            .contains("MAX -1 is out of range")
    );
    assert_eq!(Pool::new(vec![3, 0]), Err(CanIWinError::ZeroInPool));
    assert_eq!(Pool::new(vec![3, 3]), Err(CanIWinError::Repeated(3)));
    assert_eq!(Pool::new(vec![]), Err(CanIWinError::EmptyPool));
    // Extreme targets are fine: no overflow.
    assert_eq!(can_i_win(64, i64::MAX), Ok(false));
    assert_eq!(can_i_win(64, i64::MIN), Ok(true));
}

#[test]
fn the_search_does_not_panic_on_an_exhausted_pool() {
    let pool = Pool::up_to(4).unwrap();
    let mut search = dfs::Dfs::new(&pool, 11, false, 1000);
    assert_eq!(search.wins(0), Ok(false));
}

#[test]
fn unreachable_target_is_a_draw() {
    let query = CanIWin::seed(4, 11).unwrap();
    let a = analyse(&query, &Options::default()).unwrap();
    assert_eq!(a.outcome, Outcome::Tie);
    assert_eq!(a.remoteness, Some(4));
    assert_eq!(can_i_win(4, 11), Ok(false));
}

#[test]
fn every_small_max_and_target_agrees_with_the_generic_solver() {
    for max in 1..=12u32 {
        let sum = i64::from(max * (max + 1) / 2);
        for target in -1..=sum + 1 {
            for misere in [false, true] {
                let query = CanIWin {
                    pool: Pool::up_to(max).unwrap(),
                    target: i128::from(target),
                    misere,
                };
                check_against_generic(&query, Method::BitTable);
                if max <= 9 {
                    check_against_generic(&query, Method::Search);
                }
            }
            assert_eq!(
                can_i_win(i64::from(max), target).unwrap(),
                can_i_win_hashmap_dfs(max, target),
                "max {max} target {target}"
            );
        }
    }
}

#[test]
fn bit_table_and_search_agree_on_max_18() {
    // Past the generic solver's comfortable range: the two fast methods and the seed's DFS.
    for target in [1, 40, 100, 130, 150, 171] {
        let query = CanIWin::seed(18, target).unwrap();
        let table = outcome(&query, &forced(Method::BitTable)).unwrap().0;
        let search = outcome(&query, &forced(Method::Search)).unwrap().0;
        assert_eq!(table, search, "target {target}");
        assert_eq!(table == Outcome::Win, can_i_win_hashmap_dfs(18, target));
    }
}

#[test]
fn all_targets_matches_single_solves() {
    let pool = Pool::up_to(10).unwrap();
    for misere in [false, true] {
        let table = all_targets(&pool, misere, &Options::default(), &|_, _| {}).unwrap();
        assert_eq!(table.outcomes.len(), 55);
        for (t, o) in (1..).zip(&table.outcomes) {
            let q = CanIWin {
                pool: pool.clone(),
                target: t,
                misere,
            };
            assert_eq!(
                *o,
                outcome(&q, &Options::default()).unwrap().0,
                "target {t}"
            );
        }
    }
}

#[test]
fn memory_limit_refuses_up_front() {
    let query = CanIWin::seed(40, 500).unwrap();
    let small = Options {
        memory_limit: 1 << 20,
        ..Options::default()
    };
    let err = analyse(&query, &small).unwrap_err();
    assert!(matches!(err, CanIWinError::OverMemory { .. }));
    assert!(err.to_string().contains("--memory-limit"), "{err}");
    // 36 numbers at a hard target: the bit table's 8 GiB is the figure given; remoteness
    // takes no more (the start's layers work in the table's own memory).
    let err = analyse(&CanIWin::seed(36, 444).unwrap(), &Options::default()).unwrap_err();
    assert!(
        err.to_string().contains("needs 8 GiB (the bit table;"),
        "{err}"
    );
}

#[test]
fn large_pool_with_small_target_uses_search() {
    // 64 numbers: no table can hold it, but few positions are reachable.
    let query = CanIWin::seed(64, 40).unwrap();
    let a = analyse(&query, &Options::default()).unwrap();
    assert_eq!(a.method, Method::Search);
    assert_eq!(a.outcome, Outcome::Win); // 40 <= 64: picked at once
    assert_eq!(a.remoteness, Some(1));
    // 60 numbers, target 100: still a search, checked against the seed's own algorithm.
    let query = CanIWin::seed(60, 100).unwrap();
    let a = analyse(&query, &Options::default()).unwrap();
    assert_eq!(a.method, Method::Search);
    assert_eq!(a.outcome == Outcome::Win, can_i_win_hashmap_dfs(60, 100));
}

fn pool_strategy() -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::btree_set(1u64..40, 1..9).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_pools_agree_with_the_generic_solver(values in pool_strategy(), frac in 0.0f64..1.1, misere: bool) {
        let pool = Pool::new(values).unwrap();
        let target = (pool.sum() as f64 * frac).round() as i128;
        let query = CanIWin { pool, target, misere };
        check_against_generic(&query, Method::BitTable);
        check_against_generic(&query, Method::Search);
    }
}

/// The layered depth table against the memoised search and its walk, on pools past the
/// generic solver's range: the same outcome, remoteness and value of every first pick.
#[test]
fn depth_table_agrees_with_search_and_walk() {
    for (max, targets) in [(14u32, [40, 60, 80]), (16, [60, 90, 120])] {
        for target in targets {
            for misere in [false, true] {
                let query = CanIWin {
                    misere,
                    ..CanIWin::seed(i64::from(max), target).unwrap()
                };
                let by_depths = analyse(&query, &forced(Method::BitTable)).unwrap();
                let by_walk = analyse(&query, &forced(Method::Search)).unwrap();
                let ctx = format!("{max} {target} misère {misere}");
                assert_eq!(by_depths.outcome, by_walk.outcome, "{ctx}");
                assert_eq!(by_depths.remoteness, by_walk.remoteness, "{ctx}");
                assert!(by_depths.remoteness.is_some(), "{ctx}");
                assert_eq!(by_depths.moves, by_walk.moves, "{ctx}");
                assert_eq!(
                    by_depths.best_line.len() as u32,
                    by_depths.remoteness.unwrap(),
                    "{ctx}"
                );
            }
        }
    }
}

#[test]
fn no_remoteness_when_the_walk_is_turned_off() {
    let query = CanIWin::seed(16, 90).unwrap();
    let off = Options {
        remoteness_limit: 0,
        ..Options::default()
    };
    let a = analyse(&query, &off).unwrap();
    assert_eq!(a.remoteness, None);
    assert!(a.moves.iter().all(|m| m.remoteness.is_none()));
    assert_eq!(
        a.outcome,
        analyse(&query, &Options::default()).unwrap().outcome
    );
}

/// The depth passes give every position the same value and remoteness whatever the tile size
/// (one word a tile moves every high number across tiles; the largest moves most inside one),
/// decide every position when run to the end, and agree with that wherever they stop early.
#[test]
fn depth_passes_agree_across_tiles_and_stops() {
    for (max, target) in [(16u32, 70i128), (16, 101), (15, 88), (9, 30)] {
        for misere in [false, true] {
            let pool = Pool::up_to(max).unwrap();
            let solve = |tile_bits, stop| {
                let keep = bitpass::Keep::Planes;
                let never = Cancel::new();
                bitpass::solve_depths_with(
                    &pool,
                    target,
                    misere,
                    tile_bits,
                    stop,
                    keep,
                    &never,
                    &|_, _| {},
                )
                .unwrap()
                .0
            };
            let whole = solve(9, false);
            let early = solve(9, true);
            let tiles: Vec<_> = (0..4).map(|b| solve(b, false)).collect();
            for a in 0..1u64 << max {
                let value = whole.value(a);
                assert!(value.is_some(), "{max} {target} {misere}: {a:#x} undecided");
                for (b, t) in tiles.iter().enumerate() {
                    assert_eq!(
                        t.value(a),
                        value,
                        "{max} {target} {misere} tile {b}: {a:#x}"
                    );
                }
                if let Some(v) = early.value(a) {
                    assert_eq!(Some(v), value, "{max} {target} {misere}: {a:#x}");
                }
            }
            // The passes stop right after the slowest of the start and its children is
            // decided; what they leave out is slower still.
            let full = pool.full_mask();
            let settle = (0..max)
                .map(|i| {
                    early
                        .value(full & !(1 << i))
                        .expect("every first pick decided")
                        .1
                })
                .chain([early.value(full).expect("the start decided").1])
                .max()
                .unwrap();
            for a in 0..1u64 << max {
                if early.value(a).is_none() {
                    assert!(whole.value(a).unwrap().1 > settle, "{max} {target} {a:#x}");
                }
            }
            // Stopping there saves at least the two quiet passes that prove the end.
            let passes = |stop| {
                let count = std::sync::atomic::AtomicU64::new(0);
                let on_pass = |_, _| {
                    count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                };
                let keep = bitpass::Keep::Planes;
                bitpass::solve_depths_with(
                    &pool,
                    target,
                    misere,
                    9,
                    stop,
                    keep,
                    &Cancel::new(),
                    &on_pass,
                )
                .unwrap();
                count.into_inner()
            };
            assert!(passes(true) + 2 <= passes(false), "{max} {target} {misere}");
        }
    }
}

/// Pools and targets for the analyses that watch the positions near the start: every pool
/// 1..=n up to 12 at every target, larger pools, and odd pools.
fn watching_queries() -> Vec<(Pool, i128)> {
    let mut queries = Vec::new();
    for max in 1..=12u32 {
        let sum = i128::from(max * (max + 1) / 2);
        for target in 1..=sum {
            queries.push((Pool::up_to(max).unwrap(), target));
        }
    }
    for (max, target) in [(16u32, 70i128), (16, 101), (17, 120), (20, 158), (21, 170)] {
        queries.push((Pool::up_to(max).unwrap(), target));
    }
    queries.push((Pool::new(vec![2, 3, 5, 7, 11, 13, 17, 19, 23]).unwrap(), 50));
    queries.push((Pool::new(vec![1, 2, 3, 5, 8, 13, 21, 34, 55]).unwrap(), 90));
    queries
}

/// The start's layers in one bit a position (used past 24 numbers) give the same analysis as
/// the depth table: outcome, remoteness, every first pick, and the same best line.
#[test]
fn start_layers_agree_with_the_depth_table() {
    for (pool, target) in watching_queries() {
        for misere in [false, true] {
            let query = CanIWin {
                pool: pool.clone(),
                target,
                misere,
            };
            let ctx = format!("{:?} {target} misère {misere}", pool.values());
            let by_depths = analyse(&query, &forced(Method::BitTable)).unwrap();
            for depth in 1..=4 {
                let solve = bitpass::solve_start;
                let by_start =
                    analysis_watching(&query, &Options::default(), depth, solve, &|_, _| {})
                        .unwrap();
                assert_eq!(by_start, by_depths, "{ctx} depth {depth}");
            }
        }
    }
}

/// Small tiles and batches: many batches per pass, written back in descending order, give the
/// values of one tile and one batch (a batch written back in ascending order would not).
#[test]
fn start_layers_agree_across_tiles_and_batches() {
    for (max, target) in [(16u32, 70i128), (16, 101), (13, 60)] {
        for misere in [false, true] {
            let pool = Pool::up_to(max).unwrap();
            let full = pool.full_mask();
            let solve = |tile_bits, batch| {
                let v = bitpass::solve_start_with(
                    &pool,
                    target,
                    misere,
                    3,
                    tile_bits,
                    batch,
                    &Cancel::new(),
                    &|_, _| {},
                )
                .unwrap();
                assert!(v.value(full).is_some());
                // Every position up to two picks from the start (within the three watched).
                (0..max)
                    .flat_map(|i| (0..max).map(move |j| full & !(1 << i) & !(1 << j)))
                    .map(|a| v.value(a))
                    .collect::<Vec<_>>()
            };
            let reference = solve(9, 512);
            for tile_bits in 0..4 {
                for batch in [1, 2, 4] {
                    assert_eq!(
                        solve(tile_bits, batch),
                        reference,
                        "{max} {target} {misere} tile {tile_bits} batch {batch}"
                    );
                }
            }
        }
    }
}

/// The depth passes without planes, watching the positions near the start (used from 15
/// numbers), give the analysis of the planes: outcome, remoteness, every first pick, and the
/// same best line, completed from the position where the watched values run out.
#[test]
fn near_passes_agree_with_the_planes() {
    for (pool, target) in watching_queries() {
        for misere in [false, true] {
            let query = CanIWin {
                pool: pool.clone(),
                target,
                misere,
            };
            let ctx = format!("{:?} {target} misère {misere}", pool.values());
            let table =
                bitpass::solve_depths(&pool, target, misere, &Cancel::new(), &|_, _| {}).unwrap();
            let by_planes = analysis_from_depths(&query, &table);
            for depth in 1..=4 {
                let near =
                    bitpass::solve_near(&pool, target, misere, depth, &Cancel::new(), &|_, _| {})
                        .unwrap();
                // Every watched value the passes found is the planes' value.
                for a in bitpass::near(pool.full_mask(), depth) {
                    if let Some(v) = near.value(a) {
                        assert_eq!(Some(v), table.value(a), "{ctx} depth {depth} {a:#x}");
                    }
                }
                let solve = bitpass::solve_near;
                let by_near =
                    analysis_watching(&query, &Options::default(), depth, solve, &|_, _| {});
                assert_eq!(by_near.unwrap(), by_planes, "{ctx} depth {depth}");
            }
        }
    }
}
