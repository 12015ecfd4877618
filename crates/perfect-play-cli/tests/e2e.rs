//! The explorer page end to end in headless Chromium: `e2e/explorer.mjs` (playwright-core)
//! against a server started here on a free port.
//!
//! It needs Node.js, `npm ci` in `e2e/` and Debian's `chromium`, which `.ci/run` installs, so
//! it is ignored by a plain `cargo test` (the summary counts it as ignored, never as passed)
//! and `.ci/run` runs it as a step of its own: `cargo test --workspace --test e2e --
//! --ignored`. There, with `PERFECT_PLAY_E2E=1`, anything missing is a failure.

use perfect_play_cli::explorer::Explorer;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, mpsc};
use std::time::Duration;

#[test]
#[ignore = "the browser test: needs Chromium, Node.js and npm ci in e2e/; run: cargo test --workspace --test e2e -- --ignored"]
fn the_page_plays_nim_colours_moves_like_the_api_and_draws_every_family() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let required = std::env::var("PERFECT_PLAY_E2E").is_ok_and(|v| v == "1");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let missing: Vec<&str> = [
        (!root.join("e2e/node_modules/playwright-core").exists()).then_some("npm ci in e2e/"),
        (!Path::new(&chromium).exists()).then_some("chromium"),
        Command::new("node")
            .arg("--version")
            .output()
            .is_err()
            .then_some("node"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !missing.is_empty() {
        assert!(!required, "PERFECT_PLAY_E2E=1 but missing: {missing:?}");
        eprintln!("skipping the browser test: missing {missing:?} (see .ci/run)");
        return;
    }
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        perfect_play_server::run("127.0.0.1", 0, Arc::new(Explorer::default()), |address| {
            tx.send(address).unwrap();
        })
        .unwrap();
    });
    let address = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let shots = root.join("e2e/screenshots");
    let output = Command::new("node")
        .arg(root.join("e2e/explorer.mjs"))
        .arg(format!("http://{address}"))
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "e2e failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    for shot in [
        "nim-played",
        "coins-strip",
        "stones-heat-map",
        "octal-grundy-plot",
        "quixo",
        "dobutsu",
        "hexapawn",
        "domineering",
        "hackenbush",
        "cutcake",
        "sum-partizan",
    ] {
        assert!(shots.join(format!("{shot}.png")).exists(), "{shot}.png");
    }
}
