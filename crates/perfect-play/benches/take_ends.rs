//! Stone Game margins: our O(N)-memory diagonal pass against the seed's (N+2)^2 table DP.

use criterion::{Criterion, criterion_group, criterion_main};
use perfect_play::baseline::stone_game_dp;
use perfect_play::take_ends::{Options, analyse};
use std::hint::black_box;

/// A fixed pseudo-random row (a linear congruential sequence, so every run sees the same row).
fn row(n: usize) -> Vec<i64> {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as i64 % 1_000_000
        })
        .collect()
}

fn margins(c: &mut Criterion) {
    for n in [2_000, 5_000] {
        let piles = row(n);
        let mut group = c.benchmark_group(format!("stones_margin_n{n}"));
        group.sample_size(10);
        group.bench_function("perfect-play", |b| {
            b.iter(|| {
                analyse(black_box(&piles), &Options::default())
                    .unwrap()
                    .margin
            });
        });
        group.bench_function("perfect-play-with-line", |b| {
            let opts = Options {
                line: true,
                ..Options::default()
            };
            b.iter(|| analyse(black_box(&piles), &opts).unwrap().margin);
        });
        group.bench_function("baseline", |b| b.iter(|| stone_game_dp(black_box(&piles))));
        group.finish();
    }
}

criterion_group!(benches, margins);
criterion_main!(benches);
