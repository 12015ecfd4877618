//! Count the rare/common method's work: `CODE N`.
use perfect_play::octal::OctalCode;
use perfect_play::octal::grundy::{GrundyMethod, RareCommon};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code: OctalCode = args[0].parse().expect("a code");
    let n: usize = args[1].parse().expect("a count");
    let mut m = RareCommon::new(&code);
    let start = std::time::Instant::now();
    for _ in 0..=n {
        m.step();
    }
    println!(
        "{}: {} values, search steps {}, rare steps {}, {:.2} s",
        args[0],
        n + 1,
        m.search_steps,
        m.rare_steps,
        start.elapsed().as_secs_f64()
    );
}
