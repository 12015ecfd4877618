//! The proof search's node counts and times with and without the history heuristic and
//! killer moves: Quixo 5 x 5 positions searched to a fixed horizon (every iteration up to
//! it), one line each.
//!
//! `cargo run --release -p perfect-play --features examples --example proof_search -- PLIES
//! [--history] [--killers] < positions` (one Quixo 5 x 5 position a line, `xx.../...:x`).

use perfect_play::games::quixo::Quixo;
use perfect_play::registry::BoardGame;
use perfect_play::search::proof::{ProofLimits, ProofSearch};
use std::io::BufRead;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let plies: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(6);
    let history = args.iter().any(|a| a == "--history");
    let killers = args.iter().any(|a| a == "--killers");
    let game = Quixo::new(5).expect("5 x 5");
    let key = |m: &<Quixo as perfect_play::Game>::Move| game.move_key(m);
    let (mut nodes, mut seconds) = (0, 0.0);
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let Ok(position) = game.parse_position(line.trim()) else {
            eprintln!("skipped: {line}");
            continue;
        };
        let limits = ProofLimits {
            max_plies: plies,
            history,
            killers,
            ..ProofLimits::default()
        };
        let mut search = ProofSearch::new(&game, &key, limits).expect("table");
        let started = Instant::now();
        let result = search.prove(&position);
        let took = started.elapsed().as_secs_f64();
        println!("{line}\t{result:?}\t{} nodes\t{took:.3} s", search.nodes());
        nodes += search.nodes();
        seconds += took;
    }
    println!("total: {nodes} nodes, {seconds:.3} s (history {history}, killers {killers})");
}
