//! The Stone Game series and the classic puzzles at the sizes issue 33 asks for, each fast
//! solver timed against the published recurrence in the same run (BENCHMARKS.md).
//!
//! `cargo run --release --example puzzles` (about a minute).

use perfect_play::puzzles::{
    Limits, chalkboard, divisor, flip, guess, stone_game_2, stone_game_3, stone_game_6,
    stone_game_7, stone_game_8, stone_game_9,
};
use std::time::Instant;

/// A reproducible row: xorshift from a seed, values in `low..=high`.
fn row(n: usize, low: i64, high: i64, seed: u64) -> Vec<i64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            low + (x % (high - low + 1) as u64) as i64
        })
        .collect()
}

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64())
}

fn line(game: &str, size: &str, ours: f64, baseline: Option<(&str, f64)>) {
    let peer = baseline.map_or_else(|| "-".to_string(), |(what, s)| format!("{s:.3} s ({what})"));
    println!("| {game} | {size} | {ours:.3} s | {peer} |");
}

fn main() {
    let limits = Limits {
        memory: 8 << 30,
        ..Limits::default()
    };
    println!("| game | size | ours | published recurrence, same run |");
    println!("|---|---|---|---|");

    let piles = row(10_000, 1, 10_000, 1);
    let (_, ours) = time(|| stone_game_2::solve(&piles, 1, &limits).unwrap());
    let small = row(400, 1, 10_000, 1);
    let (a, fast) = time(|| stone_game_2::solve(&small, 1, &limits).unwrap().margin);
    let (b, slow) = time(|| stone_game_2::margin_by_recurrence(&small, 1));
    assert_eq!(a, b);
    line("Stone Game II", "n = 10,000", ours, None);
    line("Stone Game II", "n = 400", fast, Some(("O(n³) memo", slow)));

    let values = row(10_000_000, -1000, 1000, 2);
    let (_, ours) = time(|| stone_game_3::solve(&values, &limits).unwrap());
    line("Stone Game III", "n = 10^7", ours, None);

    let mine = row(10_000_000, 1, 100, 3);
    let theirs = row(10_000_000, 1, 100, 4);
    let (_, ours) = time(|| stone_game_6::solve(&mine, &theirs, &limits).unwrap());
    line("Stone Game VI", "n = 10^7", ours, None);

    let stones = row(20_000, 1, 1000, 5);
    let (a, ours) = time(|| stone_game_7::solve(&stones, &limits).unwrap().margin);
    let (b, slow) = time(|| stone_game_7::margin_by_recurrence(&stones[..5_000]));
    let (c, fast) = time(|| {
        stone_game_7::solve(&stones[..5_000], &limits)
            .unwrap()
            .margin
    });
    assert_eq!(b, c);
    let _ = a;
    line("Stone Game VII", "n = 20,000", ours, None);
    line(
        "Stone Game VII",
        "n = 5,000",
        fast,
        Some(("n x n table", slow)),
    );

    let stones = row(10_000_000, -10_000, 10_000, 6);
    let (_, ours) = time(|| stone_game_8::solve(&stones, &limits).unwrap());
    let (a, fast) = time(|| {
        stone_game_8::solve(&stones[..20_000], &limits)
            .unwrap()
            .margin
    });
    let (b, slow) = time(|| stone_game_8::margin_by_recurrence(&stones[..20_000]));
    assert_eq!(a, b);
    line("Stone Game VIII", "n = 10^7", ours, None);
    line("Stone Game VIII", "n = 20,000", fast, Some(("O(n²)", slow)));

    let stones = row(10_000_000, 1, 10_000, 7);
    let (_, ours) = time(|| stone_game_9::solve(&stones, 0, false, &limits).unwrap());
    line("Stone Game IX", "n = 10^7", ours, None);

    let numbers: Vec<u64> = row(10_000_000, 0, 65_535, 8)
        .iter()
        .map(|&v| v as u64)
        .collect();
    let (_, ours) = time(|| chalkboard::solve(&numbers, &limits).unwrap());
    line("Chalkboard XOR", "n = 10^7", ours, None);

    let coins: Vec<bool> = row(1_000_000, 0, 3, 9).iter().map(|&v| v != 0).collect();
    let (_, ours) = time(|| flip::solve(&coins, &limits).unwrap());
    line("Flip Game II", "length 10^6", ours, None);

    let (_, ours) = time(|| guess::solve(1, 5_000, &limits).unwrap());
    let (a, fast) = time(|| guess::solve(1, 300, &limits).unwrap().margin);
    let (b, slow) = time(|| guess::cost_by_recurrence(300));
    assert_eq!(-a as u64, b);
    line("Guess Number II", "n = 5,000", ours, None);
    line("Guess Number II", "n = 300", fast, Some(("O(n³)", slow)));

    let (_, ours) = time(|| divisor::solve(&1_000_000u32.into(), &limits).unwrap());
    line("Divisor Game", "n = 10^6 (remoteness)", ours, None);
    let big: num_bigint::BigUint = "1".repeat(200).parse().unwrap();
    let (_, ours) = time(|| divisor::solve(&big, &limits).unwrap());
    line("Divisor Game", "n of 200 digits", ours, None);
}
