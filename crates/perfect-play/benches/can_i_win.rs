//! Can I Win: our solver against the seed's HashMap-memoised DFS, in the same run.

use criterion::{Criterion, criterion_group, criterion_main};
use perfect_play::baseline::can_i_win_hashmap_dfs;
use perfect_play::can_i_win::{self, CanIWin, Options, Pool};
use std::hint::black_box;

fn hardest_target_max_20(c: &mut Criterion) {
    let mut group = c.benchmark_group("can_i_win_max20_target158");
    group.sample_size(10);
    let query = CanIWin::seed(20, 158).unwrap();
    group.bench_function("perfect-play", |b| {
        b.iter(|| can_i_win::outcome(black_box(&query), &Options::default()).unwrap());
    });
    group.bench_function("perfect-play-full-analysis", |b| {
        b.iter(|| can_i_win::analyse(black_box(&query), &Options::default()).unwrap());
    });
    group.bench_function("baseline", |b| {
        b.iter(|| can_i_win_hashmap_dfs(black_box(20), black_box(158)));
    });
    group.finish();
}

fn all_targets_max_20(c: &mut Criterion) {
    let mut group = c.benchmark_group("can_i_win_max20_all_targets");
    group.sample_size(10);
    let pool = Pool::up_to(20).unwrap();
    group.bench_function("perfect-play", |b| {
        b.iter(|| {
            can_i_win::all_targets(black_box(&pool), false, &Options::default(), &|_, _| {})
                .unwrap()
        });
    });
    group.bench_function("baseline", |b| {
        b.iter(|| {
            (0..=210)
                .filter(|&t| can_i_win_hashmap_dfs(20, black_box(t)))
                .count()
        });
    });
    group.finish();
}

fn larger_pools(c: &mut Criterion) {
    // No baseline: the seed's DFS needs minutes and gigabytes past max = 24.
    let mut group = c.benchmark_group("can_i_win_large");
    group.sample_size(10);
    for (max, target) in [(24, 198), (28, 268)] {
        let query = CanIWin::seed(max, target).unwrap();
        group.bench_function(format!("perfect-play-max{max}-target{target}"), |b| {
            b.iter(|| can_i_win::outcome(black_box(&query), &Options::default()).unwrap());
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    hardest_target_max_20,
    all_targets_max_20,
    larger_pools
);
criterion_main!(benches);
