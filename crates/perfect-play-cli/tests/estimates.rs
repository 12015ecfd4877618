//! The time estimates behind the refusals before work (issue 30) against measured runs of the
//! optimised binary, on a grid of sizes: each within 3x. The binary is `PERFECT_PLAY_SERVER`'s
//! (by default `target/release/perfect-play`, which `.ci/run` builds for the load test too).
//! Ignored in the suite (about 80 s, and meaningless on a debug build or a loaded machine):
//! `cargo test --workspace --test estimates -- --ignored --nocapture`.

use perfect_play::octal::{self, OctalCode};
use perfect_play::take_ends;
use std::process::Command;
use std::time::Instant;

fn binary() -> String {
    std::env::var("PERFECT_PLAY_SERVER").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../target/release/perfect-play"
        )
        .to_string()
    })
}

/// Seconds `perfect-play ARGS` takes, whole process; it must succeed.
fn timed(args: &[&str]) -> f64 {
    let start = Instant::now();
    let out = Command::new(binary())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}; build it with cargo build --release", binary()));
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    start.elapsed().as_secs_f64()
}

fn within_three_times(what: String, estimate: f64, took: f64, seen: &mut Vec<String>) {
    seen.push(format!(
        "{what}: estimated {estimate:.2} s, took {took:.2} s"
    ));
    assert!(
        estimate <= 3.0 * took && took <= 3.0 * estimate,
        "{}",
        seen.join("\n")
    );
}

#[test]
#[ignore = "measures the optimised binary for about 80 s: run by .ci/run"]
fn estimates_are_within_three_times_the_measured_runs() {
    let mut seen = Vec::new();
    for (name, sizes) in [
        ("grundy", &[1u64 << 18, 1 << 20, 1 << 22][..]),
        ("0.6", &[1 << 18, 1 << 20, 1 << 22]),
        ("0.3F", &[2000, 3000, 4000]),
    ] {
        let code: OctalCode = if name == "grundy" {
            OctalCode::grundys_game()
        } else {
            name.parse().unwrap()
        };
        for &upto in sizes {
            let n = upto.to_string();
            let took = timed(&["octal", name, "--upto", &n, "--full", "--no-time-limit"]);
            let estimate = octal::estimated_seconds(&code, upto);
            within_three_times(format!("octal {name} to {upto}"), estimate, took, &mut seen);
        }
    }
    let dir = std::env::temp_dir().join(format!("pp-estimates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for n in [50_000i64, 100_000, 200_000] {
        for large in [false, true] {
            let row: Vec<i64> = (0..n)
                .map(|i| {
                    let small = (i * 7919) % 1000 + 1;
                    if large {
                        small * 1_000_000_000_000
                    } else {
                        small
                    }
                })
                .collect();
            let file = dir.join("row.txt");
            let text: Vec<String> = row.iter().map(i64::to_string).collect();
            std::fs::write(&file, text.join(" ")).unwrap();
            let took = timed(&["stones", "--file", file.to_str().unwrap()]);
            let estimate = take_ends::margin_seconds(&row);
            within_three_times(
                format!("stones, {n} piles (large {large})"),
                estimate,
                took,
                &mut seen,
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    println!("{}", seen.join("\n"));
}
