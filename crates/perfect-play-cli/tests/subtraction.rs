//! `perfect-play coins` and `perfect-play subtraction`: JSON contract, big piles, batch, errors.

mod common;
use common::{assert_bad_input, json, run, run_with_input};
use serde_json::json;

#[test]
fn coins_seed_semantics() {
    let v = json(&["coins", "10", "3", "4"]);
    assert_eq!(v["winner"], "A");
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["grundy"], json!([1]));
    assert_eq!(v["period"], json!({"preperiod": 0, "period": 7}));
    assert_eq!(
        v["winning_moves"],
        json!([{"heap": 1, "take": 1, "leaves": [9]}, {"heap": 1, "take": 3, "leaves": [7]}])
    );
    assert_eq!(json(&["coins", "0", "3", "4"])["winner"], "B");
    assert_eq!(json(&["coins", "7", "3", "4"])["winner"], "B");
    assert_eq!(json(&["coins", "2", "1", "1"])["winner"], "B");
}

#[test]
fn coins_misere() {
    // Misère with moves 1,3,4: a pile of 1 is lost (the only move takes the last coin).
    assert_eq!(json(&["coins", "1", "3", "4", "--misere"])["winner"], "B");
    assert_eq!(json(&["coins", "0", "3", "4", "--misere"])["winner"], "A");
}

#[test]
fn a_googol_coins() {
    let googol = format!("1{}", "0".repeat(100));
    let v = json(&["coins", &googol, "2", "3"]);
    // Moves 1, 2, 3: losing exactly at multiples of 4, and 10^100 is one.
    assert_eq!(v["winner"], "B");
    assert_eq!(v["heaps"], json!([googol]));
    let v = json(&["coins", &format!("{googol}1"), "2", "3"]);
    assert_eq!(v["winning_moves"][0]["take"], 1);
    assert_eq!(
        v["winning_moves"][0]["leaves"],
        json!([format!("{googol}0")])
    );
}

#[test]
fn subtraction_sums_and_fields() {
    let v = json(&["subtraction", "--moves", "1,3,4", "2", "5", "9"]);
    for field in [
        "winner",
        "first_player_wins",
        "outcome",
        "winning_moves",
        "grundy",
        "nim_sum",
        "period",
    ] {
        assert!(!v[field].is_null(), "missing {field}");
    }
    // Grundy values of {1,3,4}: 0 1 0 1 2 3 2 repeating; piles 2, 5, 9 -> 0, 3, 0.
    assert_eq!(v["grundy"], json!([0, 3, 0]));
    assert_eq!(v["nim_sum"], 3);
    assert_eq!(v["winner"], "A");
    // 5 -> 2 (value 0) or 9 -> 5 (value 3) makes the nim-sum 0.
    assert_eq!(
        v["winning_moves"],
        json!([{"heap": 2, "take": 3, "leaves": [2]}, {"heap": 3, "take": 4, "leaves": [5]}])
    );
}

#[test]
fn subtraction_misere_sum_by_search() {
    let v = json(&["subtraction", "--moves", "2,3", "4", "5", "6", "--misere"]);
    assert_eq!(v["method"], "search");
    assert!(v["outcome"] == "win" || v["outcome"] == "loss");
}

#[test]
fn pattern_picture_marks_periods() {
    let out = run(&["subtraction", "--moves", "1,3,4", "--pattern"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("LWLWWWWLWLWWWW"), "{text}");
    assert!(text.contains("^      ^"), "{text}");
    let out = run(&["subtraction", "--moves", "2,3,7", "--pattern", "--grundy"]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("0011200112")
    );
}

#[test]
fn batch_lines() {
    let out = run_with_input(&["coins", "--batch"], Some("10 3 4\n7 3 4\n"));
    assert!(out.status.success());
    let winners: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["winner"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(winners, ["A", "B"]);
    let out = run_with_input(
        &["subtraction", "--moves", "1,2,3", "--batch"],
        Some("4\n1 2\n"),
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
}

#[test]
fn small_piles_without_a_period_are_answered() {
    let v = json(&[
        "subtraction",
        "--moves",
        "1,1000",
        "7",
        "9",
        "--limit",
        "100",
    ]);
    assert!(v["period"].is_null());
    assert_eq!(v["grundy"], json!([1, 1]));
    assert_eq!(v["winner"], "B");
    let text =
        String::from_utf8(run(&["subtraction", "--moves", "20,30", "5", "--limit", "10"]).stdout)
            .unwrap();
    assert!(text.contains("A cannot move"), "{text}");
    let text = String::from_utf8(run(&["subtraction", "--moves", "20,30", "5", "--misere"]).stdout)
        .unwrap();
    assert!(
        text.contains("The first player (A) to move wins.\nA cannot move (the smallest move takes 20): in misère play the player who cannot move has won"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2() {
    assert_bad_input(&["coins", "5", "0", "3"]);
    assert_bad_input(&["coins", "-5", "3", "4"]);
    assert_bad_input(&["coins", "five", "3", "4"]);
    assert_bad_input(&["coins", "5", "3"]);
    assert_bad_input(&["subtraction", "--moves", "0,3", "5"]);
    assert_bad_input(&["subtraction", "--moves", "1,3", "-4"]);
    assert_bad_input(&["subtraction", "--moves", "1,x", "4"]);
    assert_bad_input(&["subtraction", "5"]);
    assert!(
        assert_bad_input(&["subtraction", "--moves", "1,1000", "500", "--limit", "100"])
            .contains("--limit")
    );
}
