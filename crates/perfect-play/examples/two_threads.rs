//! How far the two-thread rare/common method gets and how fast: `CODE N [PATIENCE_MS]`.
use perfect_play::octal::OctalCode;
use perfect_play::octal::grundy::{GrundyMethod, RareCommon};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code: OctalCode = args[0].parse().expect("a code");
    let n: usize = args[1].parse().expect("a count");
    let patience = args
        .get(2)
        .map(|ms| Duration::from_millis(ms.parse().expect("ms")));
    let mut m = RareCommon::new(&code);
    for _ in 0..65536 {
        m.step();
    }
    let start = Instant::now();
    let ok = m.extend_on_two_threads(n, patience, &|_, _| {});
    println!(
        "{}: two threads {ok}, reached heap {} of {n} in {:.2} s",
        args[0],
        m.values().len() - 1,
        start.elapsed().as_secs_f64()
    );
}
