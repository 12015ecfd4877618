//! The registry's answer timed in Rust, the baseline of the Python bindings' `query`
//! (`examples/python/query_bench.py` runs the same calls): microseconds a call, past the first (the best of five rounds),
//! for the answer alone and for the answer as the JSON text the command line prints.
//!
//! cargo run --release -p perfect-play --features examples --example query_timing

use perfect_play::budget::{Budget, Cancel};
use perfect_play::registry;
use std::time::Instant;

fn main() {
    for (game, position) in [
        ("nim", "3 4 5"),
        ("coins", "10 3 4"),
        ("can-i-win", "20 158"),
        ("octal", "0.77 30 40"),
    ] {
        let info = registry::find(game).expect("a registry game");
        let params = info.params_from(&[]).expect("defaults");
        let budget = Budget {
            memory_limit: Some(2 << 30),
            small: false,
            seconds: None,
            cancel: Cancel::new(),
            admission: None,
            progress: None,
        };
        let answer = || info.answer(&params, position, &budget).expect("an answer");
        let as_text = || answer().to_json().to_string();
        // The best of five rounds of 1,000 calls: this machine's other work only slows.
        let each = |call: &dyn Fn()| {
            call();
            let calls = 1000;
            (0..5)
                .map(|_| {
                    let start = Instant::now();
                    for _ in 0..calls {
                        call();
                    }
                    start.elapsed().as_secs_f64() / f64::from(calls) * 1e6
                })
                .fold(f64::INFINITY, f64::min)
        };
        let alone = each(&|| {
            std::hint::black_box(answer());
        });
        let text = each(&|| {
            std::hint::black_box(as_text());
        });
        println!("{game} {position}: {alone:.1} us a call, {text:.1} us with the JSON text");
    }
}
