//! Count the rare/common method's work: `CODE N [step]` (`step`: heap by heap on one thread,
//! rather than `extend`, which uses a second core when there is one).
use perfect_play::octal::OctalCode;
use perfect_play::octal::grundy::{GrundyMethod, RareCommon};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code: OctalCode = args[0].parse().expect("a code");
    let n: usize = args[1].parse().expect("a count");
    let one_thread = args.get(2).is_some_and(|a| a == "step");
    let mut m = RareCommon::new(&code);
    let start = std::time::Instant::now();
    if one_thread {
        for _ in 0..=n {
            m.step();
        }
    } else {
        m.extend(n, &mut |_| true);
    }
    let sum: u64 = m.values().iter().map(u64::from).sum();
    println!(
        "{}: {} values (sum {sum}), search steps {}, rare steps {}, {:.2} s",
        args[0],
        m.values().len(),
        m.search_steps,
        m.rare_steps,
        start.elapsed().as_secs_f64()
    );
}
