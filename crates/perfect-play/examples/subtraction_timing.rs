//! Time the proven-period search and a pile query: `MOVES PILE`, e.g. `1,999983,1000000 1e18`.
//! `cargo run --release -p perfect-play --example subtraction_timing -- 1,999983,1000000 1000000000000000000`
use num_bigint::BigUint;
use perfect_play::subtraction::{Limits, Rule, SubtractionSet, analyse};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let moves: Vec<u64> = args[0]
        .split(',')
        .map(|m| m.parse().expect("a move"))
        .collect();
    let pile: BigUint = args[1].parse().expect("a pile");
    let misere = args.get(2).is_some_and(|a| a == "misere");
    let set = SubtractionSet::new(&moves).expect("valid moves");
    let rule = if misere { Rule::Misere } else { Rule::Normal };
    let start = Instant::now();
    let a = analyse(&set, rule, &[pile], &Limits::default()).expect("period found");
    let elapsed = start.elapsed().as_secs_f64() * 1000.0;
    let (Some(p), Some(w)) = (a.period, a.outcome_period) else {
        println!(
            "{moves:?}: {} wins; no period proven; {elapsed:.1} ms",
            a.winner().letter()
        );
        return;
    };
    println!(
        "{:?}: {} wins; period {} from {}; W/L period {} from {}; {} values; {elapsed:.1} ms",
        moves,
        a.winner().letter(),
        p.period,
        p.preperiod,
        w.period,
        w.preperiod,
        a.values_computed,
    );
}
