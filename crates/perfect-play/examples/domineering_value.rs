//! The canonical form of an empty Domineering board, timed: the classic benchmark of partizan
//! game software (BENCHMARKS.md compares it with cgt-py).
//!
//! `cargo run --release -p perfect-play --features examples --example domineering_value --
//! ROWS COLUMNS [VALUE]`: with VALUE (in
//! CGSuite's notation, as a peer printed it), also whether the board's value equals it.

use perfect_play::partizan::{GameTable, Valuer, domineering, notation};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size = |i: usize| -> usize {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .expect("ROWS COLUMNS [VALUE]")
    };
    let (rows, columns) = (size(0), size(1));
    let start = Instant::now();
    let mut games = GameTable::new();
    let mut valuer = Valuer::new(domineering::Domineering);
    let value = valuer
        .value(
            &mut games,
            &domineering::empty(rows, columns).expect("from 1 to 128 cells"),
        )
        .expect("within the table");
    let seconds = start.elapsed().as_secs_f64();
    let shown = notation::show(&mut games, value);
    println!("{rows} x {columns}: {shown}");
    println!(
        "{seconds:.3} s, {} regions valued, {} canonical forms",
        valuer.regions_known(),
        games.len()
    );
    if let Some(other) = args.get(2) {
        let other = notation::parse(&mut games, other).expect("a value in CGSuite's notation");
        println!("equal: {}", other == value);
    }
}
