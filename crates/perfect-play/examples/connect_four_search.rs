//! Times the search on 7 x 6 positions read from stdin (columns played, one a line), as
//! Pascal Pons' solver's main program does: `score nodes microseconds` a line, then the total.
//! `--width W --height H` (default 7 x 6; any board that fits 128 bits, on 64-bit words when
//! it fits them), `--threads N` (default every core), `--analyse` (every move's score, as his `-a`),
//! `--table-mib M` (default 1024), `--lines-in-parallel` (the lines shared out over the
//! threads, each line's search splitting further when a thread is free; the output in the
//! input's order), `--history` and `--killers` (the move-ordering heuristics, off by default).
//!
//! cargo run --release -p perfect-play --features examples --example connect_four_search -- --threads 1 < positions.txt

use perfect_play::games::connect_four::ConnectFour;
use perfect_play::games::connect_four::search::{Bitboards, Bits, fits_64_bits};
use perfect_play::search::{Heuristics, Limits, Search};
use std::io::BufRead;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let threads = flag("--threads").unwrap_or(0) as usize;
    let analyse = args.iter().any(|a| a == "--analyse");
    let in_parallel = args.iter().any(|a| a == "--lines-in-parallel");
    let width = flag("--width").unwrap_or(7) as u32;
    let height = flag("--height").unwrap_or(6) as u32;
    let game = ConnectFour::new(width, height).expect("a board that fits 128 bits");
    if fits_64_bits(&game) {
        run::<u64>(&args, &game, threads, analyse, in_parallel);
    } else {
        run::<u128>(&args, &game, threads, analyse, in_parallel);
    }
}

fn run<B: Bits>(
    args: &[String],
    game: &ConnectFour,
    threads: usize,
    analyse: bool,
    in_parallel: bool,
) {
    let table_mib = args
        .iter()
        .position(|a| a == "--table-mib")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(1024);
    let rules = Bitboards::<B>::new(game);
    let mut search = Search::new(rules.clone(), table_mib << 20).expect("table");
    search.set_heuristics(Heuristics {
        history: args.iter().any(|a| a == "--history"),
        killers: args.iter().any(|a| a == "--killers"),
    });
    let search = search;
    let limits = Limits {
        threads,
        ..Limits::default()
    };
    let started = Instant::now();
    let lines: Vec<String> = std::io::stdin()
        .lock()
        .lines()
        .map(|l| l.expect("stdin").trim().to_string())
        .collect();
    let answer = |line: &String| {
        let columns = perfect_play::games::connect_four::parse_columns(line).expect("columns");
        let discs = rules.discs(&game.play_columns(&columns).expect("a game"));
        let at = Instant::now();
        let (scores, nodes) = if analyse {
            let analysis = search.analyse(&discs, &limits).expect("no limits");
            let mut by_column = vec![String::from("-"); game.width() as usize];
            for m in &analysis.moves {
                by_column[m.mv as usize] = (m.score).to_string();
            }
            (by_column.join(" "), analysis.nodes)
        } else {
            let before = search.nodes();
            let score = search.score(&discs, &limits).expect("no limits");
            // Lines side by side share the node count: this one's is then approximate.
            (score.to_string(), search.nodes() - before)
        };
        format!("{line} {scores} {nodes} {}", at.elapsed().as_micros())
    };
    if in_parallel {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        let answers: Vec<String> = pool.install(|| lines.par_iter().map(answer).collect());
        for a in answers {
            println!("{a}");
        }
    } else {
        for line in &lines {
            println!("{}", answer(line));
        }
    }
    eprintln!(
        "total {:.3} s, {} nodes",
        started.elapsed().as_secs_f64(),
        search.nodes()
    );
}
