//! Which method the adaptive octal engine uses, window by window: `CODE N`.
use perfect_play::octal::OctalCode;
use perfect_play::octal::grundy::{GrundyMethod, RareCommon};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code: OctalCode = args[0].parse().expect("a code");
    let n: usize = args[1].parse().expect("a count");
    let mut m = RareCommon::adaptive(&code);
    let start = std::time::Instant::now();
    let mut line = String::new();
    for i in 0..=n {
        m.step();
        if i % 4096 == 0 {
            line.push(if m.in_naive_mode() { 'N' } else { 'R' });
        }
    }
    println!("{line} ({:.2} s)", start.elapsed().as_secs_f64());
}
