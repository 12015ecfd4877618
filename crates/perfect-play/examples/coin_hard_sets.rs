//! Search random seed sets {1, x, y} (x < y <= 10^6) for the slowest proven periods and the
//! longest preperiods: `COUNT SEED [MIN_X MAX_X]`, e.g. `2000 1` or `2000 1 2 63`.
//! `cargo run --release -p perfect-play --example coin_hard_sets -- 2000 1`
use perfect_play::subtraction::{Limits, Rule, Sequence, SubtractionSet};
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let (count, mut state) = (args[0], args[1].max(1));
    let (min_x, max_x) = (
        args.get(2).copied().unwrap_or(2),
        args.get(3).copied().unwrap_or(999_999),
    );
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut slowest, mut longest) = ((0.0, String::new()), (0, String::new()));
    for i in 0..count {
        let x = min_x + next() % (max_x - min_x + 1);
        let y = (x + 1).max(64) + next() % (1_000_000 - (x + 1).max(64) + 1);
        for rule in [Rule::Normal, Rule::Misere] {
            let set = SubtractionSet::coin_game(x, y).expect("valid moves");
            let start = Instant::now();
            let limits = Limits {
                max_values: 10_000_000_000,
                ..Limits::default()
            };
            let s = match Sequence::compute(&set, rule, &limits) {
                Ok(s) => s,
                Err(e) => {
                    println!("{i}: {{1, {x}, {y}}} {rule:?}: {e}");
                    continue;
                }
            };
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let line = format!(
                "{{1, {x}, {y}}} {rule:?}: period {} from {}, {ms:.1} ms",
                s.period.period, s.period.preperiod
            );
            if ms > slowest.0 {
                slowest = (ms, line.clone());
                println!("{i}: slowest so far: {line}");
            }
            if s.period.preperiod > longest.0 {
                longest = (s.period.preperiod, line.clone());
                println!("{i}: longest preperiod so far: {line}");
            }
        }
    }
    println!("slowest: {}\nlongest preperiod: {}", slowest.1, longest.1);
}
