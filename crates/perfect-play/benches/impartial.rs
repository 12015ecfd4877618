//! Impartial games (issue 14): each fast path against the naive mex in the same run.
//! - Grundy's game: the rare/common method (`auto`) against the mex over every split.
//! - Subtract a prime: one bitset a value against the mex over every prime.
//! - Subtract a square: the mex over the squares, which is the definition and the fast way.

use criterion::{Criterion, criterion_group, criterion_main};
use perfect_play::budget::Cancel;
use perfect_play::impartial::rule::{self, SetRule};
use perfect_play::octal::{GrundySequence, Method, OctalCode, Options};
use std::hint::black_box;

fn grundys_game(c: &mut Criterion) {
    let code = OctalCode::grundys_game();
    let upto = 1u64 << 15;
    let mut group = c.benchmark_group(format!("grundys_game_{upto}"));
    group.sample_size(10);
    for (name, method) in [("perfect-play", Method::Auto), ("baseline", Method::Naive)] {
        let options = Options {
            upto,
            full: true,
            method,
            ..Options::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                GrundySequence::compute(black_box(&code), &options, &|_, _| {})
                    .unwrap()
                    .values
                    .len()
            });
        });
    }
    group.finish();
}

fn rule_sets(c: &mut Criterion) {
    let never = Cancel::new();
    let upto = 1u64 << 16;
    let primes = SetRule::Primes.members_up_to(upto);
    let mut group = c.benchmark_group(format!("primes_{upto}"));
    group.sample_size(10);
    group.bench_function("perfect-play", |b| {
        b.iter(|| {
            rule::by_option_bitsets(black_box(&primes), upto, &never, &|_, _| {})
                .map_or(0, |v| v.len())
        });
    });
    group.bench_function("baseline", |b| {
        b.iter(|| {
            rule::by_mex(black_box(&primes), upto, &never, &|_, _| {}).map_or(0, |v| v.len())
        });
    });
    group.finish();
    let upto = 1_000_000u64;
    let squares = SetRule::Squares.members_up_to(upto);
    let mut group = c.benchmark_group(format!("squares_{upto}"));
    group.sample_size(10);
    group.bench_function("perfect-play", |b| {
        b.iter(|| {
            rule::by_mex(black_box(&squares), upto, &never, &|_, _| {}).map_or(0, |v| v.len())
        });
    });
    group.finish();
}

criterion_group!(benches, grundys_game, rule_sets);
criterion_main!(benches);
