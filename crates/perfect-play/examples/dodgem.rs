//! Solve Dodgem with the engine: `N [THREADS]`.
use perfect_play::engine::{IndexedGame, Options, reachable_counts, solve};
use perfect_play::games::dodgem::Dodgem;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let game = Dodgem::new(args[0]).expect("a supported size");
    let options = Options {
        memory_limit: 20 << 30,
        threads: args.get(1).copied().unwrap_or(0) as usize,
        ..Options::default()
    };
    let start = std::time::Instant::now();
    let solution = solve(&game, &options, &|_| {}).expect("solved");
    let seconds = start.elapsed().as_secs_f64();
    let first = game.start_position();
    let root = solution.record(game.index(&first)).expect("the start");
    let counts = reachable_counts(&game, &first, &solution, &options).expect("counted");
    println!(
        "{n} x {n}: {:?} in {:?}; {} indices, {} positions, {} passes, {:.2} s; reachable {:?}",
        root.outcome(),
        root.remoteness(),
        game.index_count(),
        solution.positions,
        solution.passes,
        seconds,
        counts,
        n = args[0],
    );
}
