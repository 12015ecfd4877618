use perfect_play::octal::OctalCode;
use perfect_play::octal::grundy::{GrundyMethod, RareCommon};
fn main() {
    let code = OctalCode::grundys_game();
    let mut m = RareCommon::new(&code);
    for _ in 0..=300_000 {
        m.step();
    }
    let g = m.values();
    let sparse = |v: u16| (v >> 1).count_ones() % 2 == 0;
    for n in [
        200_000usize,
        200_001,
        200_002,
        200_003,
        200_004,
        200_005,
        250_000,
        250_003,
    ] {
        let mut first = std::collections::BTreeMap::new();
        for a in 1..=(n - 1) / 2 {
            let o = g[a] ^ g[n - a];
            first.entry(o).or_insert(a);
        }
        let worst: Vec<(u16, usize)> = (0..g[n])
            .filter(|&v| sparse(v))
            .map(|v| (v, first[&v]))
            .collect();
        let mut w = worst.clone();
        w.sort_by_key(|x| std::cmp::Reverse(x.1));
        println!(
            "n={n} g={} sparse-below={} worst={:?}",
            g[n],
            worst.len(),
            &w[..5.min(w.len())]
        );
    }
}
