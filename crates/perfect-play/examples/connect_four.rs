//! Solve Connect Four on a small board with the engine: `WIDTH HEIGHT [THREADS] [MIRROR]`
//! (MIRROR 0 solves every board instead of one of each mirror pair).
use perfect_play::engine::{IndexedGame, Options, count_reachable, solve, table_index};
use perfect_play::games::connect_four::ConnectFour;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let game = ConnectFour::new(args[0], args[1]).expect("a supported size");
    let options = Options {
        memory_limit: 20 << 30,
        threads: args.get(2).copied().unwrap_or(0) as usize,
        symmetries: args.get(3).is_none_or(|&m| m != 0),
        ..Options::default()
    };
    let start = std::time::Instant::now();
    let solution = solve(&game, &options, &|_| {}).expect("solved");
    let seconds = start.elapsed().as_secs_f64();
    let root = solution
        .record(table_index(&game, &game.empty()))
        .expect("the start");
    let reachable = count_reachable(&game, &game.empty(), &options).expect("counted");
    println!(
        "{} x {}: {:?} in {:?}; {} indices, {} positions, {} reachable, {} passes, {:.2} s ({:.0} reachable positions a second)",
        args[0],
        args[1],
        root.outcome(),
        root.remoteness(),
        game.index_count(),
        solution.positions,
        reachable,
        solution.passes,
        seconds,
        reachable as f64 / seconds
    );
}
