//! Helpers for running the `perfect-play` binary in tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run the binary with `args` and optional standard input.
pub fn run_with_input(args: &[&str], input: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfect-play"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        if let Some(text) = input {
            stdin.write_all(text.as_bytes()).expect("write stdin");
        }
    }
    child.wait_with_output().expect("binary finishes")
}

/// Run the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    run_with_input(args, None)
}

/// Run with `--json` appended; assert success and parse stdout as one JSON object.
pub fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = run(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

/// Assert that `args` fails with status 2, one line on stderr, nothing on stdout, and no panic.
pub fn assert_bad_input(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr
}
