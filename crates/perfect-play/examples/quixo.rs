//! Solve Quixo with the engine, timing the solve and the reachable count apart:
//! `N [THREADS] [retrograde|passes] [symmetries|all]`.
use perfect_play::engine::{IndexedGame, Options, reachable_counts, solve, table_index};
use perfect_play::games::quixo::Quixo;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u32| -> u32 {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let game = Quixo::new(number(0, 3)).expect("a supported size");
    let options = Options {
        memory_limit: 20 << 30,
        threads: number(1, 0) as usize,
        retrograde: args.get(2).is_none_or(|m| m != "passes"),
        symmetries: args.get(3).is_none_or(|m| m != "all"),
        ..Options::default()
    };
    let start = Instant::now();
    let solution = solve(&game, &options, &|_| {}).expect("solved");
    let solve_seconds = start.elapsed().as_secs_f64();
    let first = game.start_position();
    let root = solution
        .record(table_index(&game, &first))
        .expect("the start");
    let counting = Instant::now();
    let counts = reachable_counts(&game, &first, &solution, &options).expect("counted");
    println!(
        "{n} x {n}: {:?} in {:?}; {} indices, {} positions, {} passes or levels; solve {:.2} s, count {:.2} s; reachable {:?}",
        root.outcome(),
        root.remoteness(),
        game.index_count(),
        solution.positions,
        solution.passes,
        solve_seconds,
        counting.elapsed().as_secs_f64(),
        counts,
        n = game.size(),
    );
}
