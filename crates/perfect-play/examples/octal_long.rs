//! A long octal run, reported for BENCHMARKS.md: `CODE N [wide|packed]`. Computes every value
//! to heap `N` with the default (adaptive) method on every core, watching for a proven period
//! as the CLI does, and prints the time, the rare heaps, the largest values and what the table
//! takes. The table is kept as the library's default for `N` would keep it, or as asked.
//! `cargo run --release -p perfect-play --example octal_long -- 0.6 1073741824`
use perfect_play::octal::grundy::{GrundyMethod, RareCommon};
use perfect_play::octal::periodicity::PeriodTracker;
use perfect_play::octal::{OctalCode, Packing, Storage, ValueTable};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code: OctalCode = args[0].parse().expect("a code");
    let n: usize = args[1].parse().expect("a heap");
    let storage = match args.get(2).map(String::as_str) {
        None => Storage::Auto,
        Some("wide") => Storage::Wide,
        Some("packed") => Storage::Packed(Packing::default()),
        Some(other) => panic!("{other}: wide or packed"),
    };
    let table = match storage.resolve(n as u64) {
        Storage::Packed(packing) => ValueTable::packed(packing),
        _ => ValueTable::wide(),
    };
    let mut method = RareCommon::adaptive(&code).with_table(table);
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
        .max_by_key(|&(i, v)| (v, std::cmp::Reverse(i)))
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
        values.get(n).expect("computed")
    );
    println!(
        "rare heaps: {} (class: mask {mask:#x}, common parity {}), the last at heap {:?}; the rare values: {:?}",
        rare.len(),
        if odd { "odd" } else { "even" },
        rare.last(),
        {
            let mut v: Vec<u16> = rare.iter().filter_map(|&h| values.get(h)).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
    );
    let wide = values.iter().filter(|&v| v >= 255).count();
    println!(
        "values of 255 or more: {wide} ({:.4}% of heaps)",
        wide as f64 * 100.0 / values.len() as f64
    );
    println!(
        "table: {} ({}), {} bytes ({:.3} a value), {} heaps escaped",
        if values.is_packed() { "packed" } else { "wide" },
        storage_name(storage),
        values.bytes_used(),
        values.bytes_used() as f64 / values.len() as f64,
        values.escaped()
    );
    println!(
        "work: {} search steps, {} rare steps",
        method.search_steps, method.rare_steps
    );
}

fn storage_name(storage: Storage) -> &'static str {
    match storage {
        Storage::Auto => "the default for this size",
        _ => "as asked",
    }
}
