//! Time the Can I Win outcome (no remoteness walk) for `MAX TARGET [search|table]`, or the
//! full analysis (remoteness, every first pick, best line) with `full`.
//! `cargo run --release -p perfect-play --example can_i_win_timing -- 28 268`
use perfect_play::can_i_win::{CanIWin, Method, Options, analyse, outcome};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let max: i64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(20);
    let target: i64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(158);
    let method = match args.get(2).map(String::as_str) {
        Some("search") => Method::Search,
        Some("table") => Method::BitTable,
        _ => Method::Auto,
    };
    let query = CanIWin::seed(max, target).expect("valid query");
    let options = Options {
        method,
        memory_limit: 16 << 30,
        ..Options::default()
    };
    if args.get(2).map(String::as_str) == Some("full") {
        // The first run pays what a one-shot process pays: page faults on fresh tables and the
        // CPU-feature probe behind the SIMD dispatch.
        let cold = Instant::now();
        let mut remoteness = analyse(&query, &options).expect("solvable").remoteness;
        let cold = cold.elapsed();
        let runs = 200;
        let start = Instant::now();
        for _ in 0..runs {
            remoteness = analyse(&query, &options).expect("solvable").remoteness;
        }
        println!(
            "max {max} target {target}: full analysis, remoteness {remoteness:?}, first run {:.3} ms, then {:.3} ms a run",
            cold.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64() * 1e3 / f64::from(runs)
        );
        return;
    }
    let start = Instant::now();
    let (result, states) = outcome(&query, &options).expect("solvable");
    println!(
        "max {max} target {target}: {result} ({states} states) in {:.3} s",
        start.elapsed().as_secs_f64()
    );
}
