//! The coin game at a pile of 10^9: our proven-period answer against the seed's O(n) DP.

use criterion::{Criterion, criterion_group, criterion_main};
use num_bigint::BigUint;
use perfect_play::baseline::coin_dp_winner;
use perfect_play::subtraction::{Limits, Rule, SubtractionSet, analyse, coin_game_winner};
use std::hint::black_box;

const PILE: u64 = 1_000_000_000;

fn pile_of_a_billion(c: &mut Criterion) {
    for (x, y) in [(3, 4), (7, 11), (1000, 1001)] {
        let mut group = c.benchmark_group(format!("coins_1e9_moves_1_{x}_{y}"));
        group.sample_size(10);
        group.bench_function("perfect-play", |b| {
            b.iter(|| coin_game_winner(black_box(PILE), x, y).unwrap());
        });
        group.bench_function("baseline", |b| {
            b.iter(|| coin_dp_winner(black_box(PILE as usize), x as usize, y as usize));
        });
        group.finish();
    }
}

fn large_moves(c: &mut Criterion) {
    // The seed's DP cannot reach a pile of 10^18; the comparison in the same run is the
    // general method (one byte a pile, a fingerprint a pile, every value kept), for the sets
    // with a long preperiod.
    let mut group = c.benchmark_group("coins_1e18_large_moves");
    group.sample_size(10);
    let pile = [BigUint::from(1_000_000_000_000_000_000u64)];
    let general = Limits {
        word_parallel: false,
        ..Limits::default()
    };
    for (x, y, compare) in [
        (999_983, 1_000_000, false), // period 1,999,983, odd
        (500_000, 1_000_000, false),
        (60_818, 953_895, true), // preperiod 15,159,907
        (4_818, 524_052, false), // preperiod 57,113,358
        (1_228, 999_213, false), // preperiod 595,262,357
        (46, 646_438, true),     // x < 64, preperiod 14,222,646
        (22, 993_972, false),    // x < 64, preperiod 7,951,946
        (3, 987_512, false),     // x < 64, period 987,515, odd
    ] {
        let set = SubtractionSet::coin_game(x, y).unwrap();
        group.bench_function(format!("perfect-play-1_{x}_{y}"), |b| {
            b.iter(|| analyse(&set, Rule::Normal, black_box(&pile), &Limits::default()).unwrap());
        });
        if compare {
            group.bench_function(format!("general-1_{x}_{y}"), |b| {
                b.iter(|| analyse(&set, Rule::Normal, black_box(&pile), &general).unwrap());
            });
        }
    }
    group.finish();
}

criterion_group!(benches, pile_of_a_billion, large_moves);
criterion_main!(benches);
