//! A long octal run, reported for BENCHMARKS.md: `CODE N`. Computes every value to heap `N` with
//! the default (adaptive) method on every core, watching for a proven period as the CLI does,
//! and prints the time, the rare heaps and the largest values.
//! `cargo run --release -p perfect-play --example octal_long -- 0.6 1073741824`
use perfect_play::octal::OctalCode;
use perfect_play::octal::grundy::{GrundyMethod, RareCommon};
use perfect_play::octal::periodicity::PeriodTracker;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code: OctalCode = args[0].parse().expect("a code");
    let n: usize = args[1].parse().expect("a heap");
    let mut method = RareCommon::adaptive(&code);
    let mut tracker = PeriodTracker::new(code.largest_removal(), code.most_parts());
    let mut period = None;
    let start = Instant::now();
    method.extend(n, &mut |values| {
        if period.is_none() {
            period = tracker.push(values);
        }
        let heap = values.len() - 1;
        if heap.is_power_of_two() && heap >= 1 << 20 {
            eprintln!(
                "heap 2^{}: {:.1} s",
                heap.trailing_zeros(),
                start.elapsed().as_secs_f64()
            );
        }
        true
    });
    let seconds = start.elapsed().as_secs_f64();
    let values = method.values();
    let (largest_at, largest) = values
        .iter()
        .enumerate()
        .max_by_key(|&(i, &v)| (v, std::cmp::Reverse(i)))
        .map(|(i, &v)| (i, v))
        .expect("values");
    let rare = method.rare_heaps();
    let (mask, odd) = method.common_class();
    println!(
        "{}: {} values in {seconds:.1} s ({:.2} M values a second)",
        args[0],
        values.len(),
        values.len() as f64 / seconds / 1e6
    );
    println!("period: {period:?}");
    println!(
        "largest value {largest} at heap {largest_at}; value of heap {n}: {}",
        values[n]
    );
    println!(
        "rare heaps: {} (class: mask {mask:#x}, common parity {}), the last at heap {:?}; the rare values: {:?}",
        rare.len(),
        if odd { "odd" } else { "even" },
        rare.last(),
        {
            let mut v: Vec<u16> = rare.iter().map(|&h| values[h as usize]).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
    );
    println!(
        "work: {} search steps, {} rare steps",
        method.search_steps, method.rare_steps
    );
}
