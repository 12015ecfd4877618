//! Dobutsu shogi with the engine: `count [THREADS]` walks the positions reachable from the
//! start; `solve [THREADS] [MEMORY_GIB]` solves the whole game and counts them by value.
use perfect_play::engine::{
    IndexedGame, Options, count_reachable, count_reachable_classes, reachable_counts, solve,
};
use perfect_play::games::dobutsu::Dobutsu;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |at: usize, default: u64| {
        args.get(at)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let game = Dobutsu::standard();
    let options = Options {
        memory_limit: number(2, 20) << 30,
        threads: number(1, 0) as usize,
        ..Options::default()
    };
    let first = game.start_position();
    let start = Instant::now();
    match args.first().map(String::as_str) {
        Some("count") => {
            let reachable = count_reachable(&game, &first, &options).expect("counted");
            let seconds = start.elapsed().as_secs_f64();
            let classes = count_reachable_classes(&game, &first, &options).expect("counted");
            println!(
                "{reachable} positions reachable ({seconds:.1} s), {classes} up to the mirror ({:.1} s)",
                start.elapsed().as_secs_f64() - seconds
            );
        }
        Some("solve") => {
            let solution = solve(&game, &options, &|_| {}).expect("solved");
            let seconds = start.elapsed().as_secs_f64();
            let root = solution
                .record(perfect_play::engine::table_index(&game, &first))
                .expect("the start");
            let counts = reachable_counts(&game, &first, &solution, &options).expect("counted");
            println!(
                "{:?} in {:?}; {} indices, {} positions solved, {:.1} s solve, {:.1} s in all; reachable {counts:?}",
                root.outcome(),
                root.remoteness(),
                game.index_count(),
                solution.positions,
                seconds,
                start.elapsed().as_secs_f64(),
            );
        }
        _ => eprintln!("usage: dobutsu count|solve [THREADS] [MEMORY_GIB]"),
    }
}
