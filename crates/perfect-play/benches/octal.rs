//! Octal Grundy values: the rare/common method against the definition (mex over every split),
//! every value computed.

use criterion::{Criterion, criterion_group, criterion_main};
use perfect_play::octal::{GrundySequence, Method, OctalCode, Options};
use std::hint::black_box;

fn grundy_values(c: &mut Criterion) {
    for (text, upto) in [
        ("0.77", 20_000u64),
        ("0.07", 20_000),
        ("0.6", 20_000),
        ("0.16", 20_000),
    ] {
        let code: OctalCode = text.parse().unwrap();
        let mut group = c.benchmark_group(format!("octal_{text}_full_{upto}"));
        group.sample_size(10);
        for (name, method) in [
            ("perfect-play", Method::RareCommon),
            ("baseline", Method::Naive),
        ] {
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
}

criterion_group!(benches, grundy_values);
criterion_main!(benches);
