//! `perfect-play stones`: margins, ties, lines, input sources and bad input.

mod common;
use common::{assert_bad_input, json, run_with_input};
use serde_json::json;

#[test]
fn seed_examples() {
    for row in [["5", "3", "4", "5"], ["3", "7", "2", "3"]] {
        let v = json(&["stones", row[0], row[1], row[2], row[3]]);
        assert_eq!(v["first_player_wins"], true);
        assert_eq!(v["outcome"], "win");
    }
    let v = json(&["stones", "5", "3", "4", "5"]);
    assert_eq!(
        (
            v["margin"].as_i64(),
            v["first_total"].as_i64(),
            v["second_total"].as_i64()
        ),
        (Some(1), Some(9), Some(8))
    );
    assert_eq!(v["winning_moves"], json!(["left", "right"]));
}

#[test]
fn ties_and_the_ties_win_rule() {
    let v = json(&["stones", "2", "2"]);
    assert_eq!(
        (v["outcome"].as_str(), v["first_player_wins"].as_bool()),
        (Some("tie"), Some(false))
    );
    // Under --ties-win a tie is the first player's win: outcome and answer agree, the margin
    // says it was level.
    let v = json(&["stones", "2", "2", "--ties-win"]);
    assert_eq!(
        (
            v["outcome"].as_str(),
            v["first_player_wins"].as_bool(),
            v["margin"].as_i64()
        ),
        (Some("win"), Some(true), Some(0))
    );
}

#[test]
fn the_line_is_optional() {
    assert!(json(&["stones", "1", "5", "2"])["best_line"].is_null());
    let v = json(&["stones", "1", "5", "2", "--line"]);
    assert_eq!(v["best_line"].as_array().unwrap().len(), 3);
    assert_eq!(v["margin"], -2);
}

#[test]
fn huge_values_are_exact() {
    let max = i64::MAX.to_string();
    let v = json(&["stones", &max, &max, &max]);
    // 2 * (2^63 - 1) does not fit in 64 bits: a decimal string.
    assert_eq!(
        v["first_total"],
        json!((2 * i128::from(i64::MAX)).to_string())
    );
    assert_eq!(v["margin"], json!(i64::MAX));
}

#[test]
fn piles_from_stdin_and_file() {
    let out = run_with_input(&["stones", "-", "--json"], Some("5 3\n4,5\n"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["margin"], 1);
    let path = std::env::temp_dir().join(format!("perfect-play-row-{}.txt", std::process::id()));
    std::fs::write(&path, "3 7 2 3").unwrap();
    let v = json(&["stones", "--file", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(v["first_player_wins"], true);
}

#[test]
fn batch_rows() {
    let out = run_with_input(&["stones", "--batch"], Some("5 3 4 5\n2 2\n1 5 2\n"));
    assert!(out.status.success());
    let answers: Vec<bool> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["first_player_wins"]
                .as_bool()
                .unwrap()
        })
        .collect();
    assert_eq!(answers, [true, false, false]);
}

#[test]
fn bad_input_exits_2() {
    assert_bad_input(&["stones", "5", "x", "4"]);
    assert_bad_input(&["stones", "99999999999999999999"]);
    assert_bad_input(&["stones", "--file", "/no/such/file"]);
    assert_bad_input(&["stones", "1", "2", "3", "--line", "--memory-limit", "0"]);
}
