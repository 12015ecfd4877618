//! The time estimates behind the refusals before work (issue 30) against measured runs of the
//! optimised binary, on a grid of sizes: each within 3x. The binary is `PERFECT_PLAY_SERVER`'s
//! (by default `target/release/perfect-play`, which `.ci/run` builds for the load test too).
//! Ignored in the suite (about 150 s, and meaningless on a debug build or a loaded machine):
//! `cargo test --workspace --test estimates -- --ignored --nocapture`.

use perfect_play::can_i_win::{self, CanIWin};
use perfect_play::games::{
    connect_four::ConnectFour, dodgem::Dodgem, hexapawn::Hexapawn, quixo::Quixo,
};
use perfect_play::octal::{self, OctalCode};
use perfect_play::registry::EngineGame;
use perfect_play::subtraction::{self, SubtractionSet};
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
    // Can I Win by its two methods: the bit table (targets near half the sum), the search
    // (a small target).
    for (numbers, target) in [(28u32, 203u32), (30, 232), (32, 264), (30, 100)] {
        let query = CanIWin::seed(numbers.into(), target.into()).unwrap();
        let estimate = can_i_win::estimated_seconds(&query, &can_i_win::Options::default());
        let took = timed(&["can-i-win", &numbers.to_string(), &target.to_string()]);
        within_three_times(
            format!("can-i-win {numbers} {target}"),
            estimate,
            took,
            &mut seen,
        );
    }
    // The period search on 64 moves near m: at least 2m + m values (the proof's floor, met
    // here: the period is 2m and starts at once).
    for m in [1_000_000u64, 3_000_000, 10_000_000] {
        let moves: Vec<u64> = (m - 64..m).collect();
        let set = SubtractionSet::new(&moves).unwrap();
        let estimate = subtraction::least_values_for_a_proof(&set) as f64
            * perfect_play::registry::answers::subtraction::seconds_per_value(&set);
        let list: Vec<String> = moves.iter().map(u64::to_string).collect();
        let took = timed(&["subtraction", "--moves", &list.join(","), &"9".repeat(100)]);
        within_three_times(
            format!("subtraction, 64 moves below {m}"),
            estimate,
            took,
            &mut seen,
        );
    }
    // The engine's tables, from scratch.
    let games: Vec<(Box<dyn EngineGame>, Vec<&str>)> = vec![
        (
            Box::new(ConnectFour::new(5, 4).unwrap()),
            vec![
                "connect-four",
                "--width",
                "5",
                "--height",
                "4",
                "--method",
                "table",
            ],
        ),
        (
            Box::new(ConnectFour::new(6, 4).unwrap()),
            vec![
                "connect-four",
                "--width",
                "6",
                "--height",
                "4",
                "--method",
                "table",
            ],
        ),
        (
            Box::new(Hexapawn::new(4, 4).unwrap()),
            vec!["hexapawn", "--width", "4", "--height", "4"],
        ),
        (
            Box::new(Dodgem::new(4).unwrap()),
            vec!["dodgem", "--size", "4"],
        ),
        (
            Box::new(Quixo::new(4).unwrap()),
            vec!["quixo", "--size", "4"],
        ),
    ];
    for (game, args) in games {
        let estimate = game.index_count() as f64 / game.indices_per_second();
        let took = timed(&args);
        within_three_times(game.title(), estimate, took, &mut seen);
    }
    println!("{}", seen.join("\n"));
}
