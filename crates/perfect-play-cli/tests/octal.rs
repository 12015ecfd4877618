//! `perfect-play octal`: periods, sums, values, misère and bad codes.

mod common;
use common::{assert_bad_input, json, run};
use serde_json::json;

#[test]
fn kayles_period_and_sum() {
    let v = json(&["octal", "0.77", "3", "4", "5"]);
    assert_eq!(v["code"], "0.77");
    assert_eq!(v["period"], json!({"preperiod": 71, "period": 12}));
    assert_eq!(v["grundy"], json!([3, 1, 4]));
    assert_eq!(v["nim_sum"], 6);
    assert_eq!(v["first_player_wins"], true);
    assert!(!v["winning_moves"].as_array().unwrap().is_empty());
    let m = &v["winning_moves"][0];
    assert!(m["heap"].is_u64() && m["take"].is_u64() && m["leaves"].is_array());
}

#[test]
fn dawsons_kayles_period() {
    let v = json(&["octal", ".07", "--upto", "1000"]);
    assert_eq!(v["period"], json!({"preperiod": 53, "period": 34}));
}

#[test]
fn values_on_request() {
    let v = json(&["octal", "0.333", "--upto", "12", "--values"]);
    assert_eq!(v["values"], json!([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]));
    let v = json(&["octal", "0.77", "--upto", "20", "--values", "--full"]);
    assert_eq!(
        v["values"],
        json!([
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1
        ])
    );
}

#[test]
fn no_period_is_null() {
    let v = json(&["octal", "0.6", "--upto", "3000"]);
    assert!(v["period"].is_null());
    assert_eq!(v["values_computed"], 3001);
}

#[test]
fn huge_heaps_use_the_period() {
    let googol = format!("1{}", "0".repeat(100));
    let v = json(&["octal", "0.77", &googol, "1"]);
    assert!(v["grundy"][0].is_u64());
}

#[test]
fn misere_by_search() {
    // CGSuite: misère Kayles heap 4 has misère nim value 0 (a loss); heap 5 has 1 (a win).
    assert_eq!(json(&["octal", "0.77", "4", "--misere"])["outcome"], "loss");
    assert_eq!(json(&["octal", "0.77", "5", "--misere"])["outcome"], "win");
}

#[test]
fn text_names_the_move() {
    let text = String::from_utf8(run(&["octal", "0.77", "3", "4", "5"]).stdout).unwrap();
    assert!(
        text.contains("periodic from heap 71 with period 12"),
        "{text}"
    );
    assert!(text.contains("Winning move: from heap"), "{text}");
}

#[test]
fn bad_codes_exit_2() {
    // 0.78 is a hexadecimal code now (digit 8: leave three heaps), not a bad one.
    assert!(run(&["octal", "0.78", "6"]).status.success());
    assert_bad_input(&["octal", "077"]);
    assert_bad_input(&["octal", "0.7G"]);
    assert_bad_input(&["octal", "0.3!"]);
    assert_bad_input(&["octal", "5.7"]);
    assert_bad_input(&["octal", "0.3F", "--upto", "100000"]);
    assert_bad_input(&["octal", "1.7"]);
    assert_bad_input(&["octal", "0.000"]);
    assert_bad_input(&["octal", "0.77", "-3"]);
    assert_bad_input(&["octal", "0.77", "x"]);
    assert_bad_input(&["octal", "0.6", "100000", "--upto", "1000"]);
    assert_bad_input(&["octal", "0.77", "60", "61", "62", "--misere"]);
}

#[test]
fn hexadecimal_codes_and_grundys_game() {
    let v = json(&["octal", "0.3F", "9"]);
    assert_eq!(v["grundy"], serde_json::json!([3])); // CGSuite: 0.3F has value 3 at heap 9
    let three = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["leaves"].as_array().unwrap().len() == 3);
    assert!(three, "{v}");
    let g = json(&["octal", "grundy", "13"]);
    assert_eq!(g["code"], "4!.0");
    assert_eq!(g["grundy"], serde_json::json!([3])); // A002188(13) = 3
    assert_eq!(g["period"], serde_json::Value::Null);
    // Grundy's game never splits into equal heaps: 4 = 2 + 2 is not a move.
    let four = json(&["octal", "grundy", "4"]);
    assert_eq!(four["outcome"], "loss");
}

#[test]
fn ctrl_c_saves_the_values_and_the_same_checkpoint_goes_on_to_the_same_values() {
    let path = std::env::temp_dir().join(format!("perfect-play-octal-{}.ck", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let ck = path.to_str().unwrap();
    // Officers to 3 million takes half a minute: stopped by Ctrl-C long before the end.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_perfect-play"))
        .args([
            "octal",
            "0.6",
            "--upto",
            "3000000",
            "--full",
            "--checkpoint",
            ck,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // The shell's own kill: a machine with only the Rust toolchain may have no kill binary.
    let killed = std::process::Command::new("sh")
        .args(["-c", "kill -INT \"$0\"", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped at heap"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    // Going on from the saved values (fewer heaps asked for: those past it are dropped).
    let resumed = json(&[
        "octal",
        "0.6",
        "--upto",
        "200000",
        "--full",
        "--values",
        "--checkpoint",
        ck,
    ]);
    assert!(resumed["resumed_from"].as_u64().unwrap() > 0, "{resumed}");
    let whole = json(&["octal", "0.6", "--upto", "200000", "--full", "--values"]);
    assert_eq!(resumed["values"], whole["values"]);
    // A checkpoint of another code is refused, not overwritten.
    let other = assert_bad_input(&["octal", "0.77", "--checkpoint", ck]);
    assert!(other.contains("not a checkpoint"), "{other}");
    std::fs::remove_file(&path).unwrap();
}

/// Past 2^30 heaps the values take a byte each: --upto is bounded by --memory-limit, not by a
/// fixed size. Kayles proves its period at once, so these runs end in milliseconds whatever
/// their --upto.
#[test]
fn upto_past_two_to_the_thirty_is_bounded_by_the_memory_limit() {
    // 2 x 10^9 heaps at a byte each fit the default 2 GiB.
    let v = json(&["octal", "0.77", "--upto", "2000000000", "1000000000000"]);
    assert_eq!(v["period"], json!({"preperiod": 71, "period": 12}));
    assert_eq!(v["grundy"], json!([1]));
    // 3 x 10^9 do not: refused with the figure and the way around.
    let err = assert_bad_input(&["octal", "0.77", "--upto", "3000000000"]);
    assert!(
        err.contains("a byte a heap") && err.contains("raise --memory-limit"),
        "{err}"
    );
    // Under a larger limit they are accepted.
    let v = json(&[
        "octal",
        "0.77",
        "--upto",
        "3000000000",
        "--memory-limit",
        "4G",
        "5",
    ]);
    assert_eq!(v["grundy"], json!([4]));
}
