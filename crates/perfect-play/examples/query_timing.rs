//! The registry's answer timed in Rust, the baseline of the Python bindings' `query`
//! (`examples/python/query_bench.py` runs the same calls): microseconds a call, past the first.
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
        };
        let answer = |_: ()| {
            info.answer(&params, position, &budget)
                .expect("an answer")
                .to_json()
                .to_string()
        };
        answer(());
        let calls = 2000;
        let start = Instant::now();
        for _ in 0..calls {
            std::hint::black_box(answer(()));
        }
        let each = start.elapsed().as_secs_f64() / f64::from(calls);
        println!("{game} {position}: {:.1} us a call", each * 1e6);
    }
}
