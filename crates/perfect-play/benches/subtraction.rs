//! The coin game at a pile of 10^9: our proven-period answer against the seed's O(n) DP.

use criterion::{Criterion, criterion_group, criterion_main};
use perfect_play::baseline::coin_dp_winner;
use perfect_play::subtraction::coin_game_winner;
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
    // No baseline: the seed's DP cannot reach a pile of 10^18.
    let mut group = c.benchmark_group("coins_1e18_large_moves");
    group.sample_size(10);
    for (x, y) in [
        (999_983, 1_000_000),
        (500_000, 1_000_000),
        (60_818, 953_895),
        (4_818, 524_052), // preperiod 57,113,358
    ] {
        group.bench_function(format!("perfect-play-1_{x}_{y}"), |b| {
            b.iter(|| coin_game_winner(black_box(1_000_000_000_000_000_000), x, y).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, pile_of_a_billion, large_moves);
criterion_main!(benches);
