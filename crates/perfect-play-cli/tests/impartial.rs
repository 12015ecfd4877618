//! `values` and `sum`: any impartial heap game and sums of them, end to end.

mod common;

use common::{assert_bad_input, json, run};
use serde_json::json;

#[test]
fn values_of_grundys_game_match_oeis_a002188() {
    let v = json(&["values", "grundy", "--upto", "20"]);
    assert_eq!(v["game"], "grundy");
    assert_eq!(
        v["values"],
        json!([
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0
        ])
    );
    assert_eq!(v["period"], serde_json::Value::Null);
    assert!(v["values_computed"].as_u64().unwrap() >= 21);
}

#[test]
fn values_report_a_proven_period_or_a_formula() {
    let v = json(&["values", "powers-of-two", "--upto", "12"]);
    assert_eq!(v["period"], json!({"preperiod": 0, "period": 3}));
    assert_eq!(v["values"], json!([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]));
    let k = json(&["values", "0.77", "--upto", "100"]);
    assert_eq!(k["period"], json!({"preperiod": 71, "period": 12}));
    let s = json(&["values", "subtract=1,3,4", "--upto", "13"]);
    assert_eq!(s["period"], json!({"preperiod": 0, "period": 7}));
    let h = json(&["values", "at-least-half", "--upto", "8"]);
    assert_eq!(h["values"], json!([0, 1, 2, 2, 3, 3, 3, 3, 4]));
    assert!(h["formula"].as_str().unwrap().contains("binary digits"));
    let text = String::from_utf8(run(&["values", "squares", "--upto", "100"]).stdout).unwrap();
    assert!(text.contains("No period found up to heap 16384"), "{text}");
}

#[test]
fn values_report_an_arithmetic_period_seen_but_not_proven() {
    // 0.8 (take one token, leave three heaps): g = 0 0 0 0 1 1 1 2 2 2 ..., g(n + 3) = g(n) + 1
    // from heap 1; 0.137F: g(n + 2) = g(n) + 1 from heap 0.
    let v = json(&["values", "0.8", "--upto", "10"]);
    assert_eq!(v["values"], json!([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3]));
    assert_eq!(v["period"], serde_json::Value::Null);
    let a = &v["arithmetic_period"];
    assert_eq!(
        (&a["preperiod"], &a["period"], &a["saltus"]),
        (&json!(1), &json!(3), &json!(1))
    );
    assert_eq!(
        a["checked_upto"].as_u64(),
        v["values_computed"].as_u64().map(|n| n - 1)
    );
    let f = json(&["values", "0.137F", "--upto", "3"]);
    assert_eq!(f["arithmetic_period"]["period"], 2);
    let text = String::from_utf8(run(&["values", "0.8", "--upto", "3"]).stdout).unwrap();
    assert!(
        text.contains("g(n + 3) = g(n) + 1") && text.contains("not proven"),
        "{text}"
    );
    // Neither a proven period nor a closed form is doubled by one, nor is noise taken for one.
    for game in ["powers-of-two", "0.77", "half", "squares", "grundy"] {
        let v = json(&["values", game, "--upto", "5"]);
        assert_eq!(v["arithmetic_period"], serde_json::Value::Null, "{game}");
    }
}

#[test]
fn subtraction_points_a_named_infinite_set_to_sum_and_values() {
    let out = run(&["subtraction", "--moves", "squares", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("perfect-play sum squares:PILE"), "{err}");
    // A bad list is still reported as one.
    let bad = run(&["subtraction", "--moves", "1,x", "10"]);
    assert!(
        String::from_utf8(bad.stderr)
            .unwrap()
            .contains("not a whole number")
    );
}

#[test]
fn the_issue_example_sum() {
    let v = json(&[
        "sum",
        "0.77:10",
        "grundy:12",
        "squares:100",
        "subtract=1,3,4:7",
        "nim:5",
    ]);
    assert_eq!(v["values"], json!([2, 1, 4, 0, 5]));
    assert_eq!(v["nim_sum"], 2);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["first_player_wins"], true);
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(
        moves.len() as u64,
        v["winning_moves_total"].as_u64().unwrap()
    );
    for m in moves {
        assert!(m["component"].as_u64().unwrap() >= 1);
        assert!(m["move"].is_string() && m["leaves"].is_array());
    }
    assert!(v["explanation"].as_str().unwrap().contains("component 1"));
}

#[test]
fn a_losing_sum_says_so() {
    let v = json(&["sum", "nim:3", "nim:3"]);
    assert_eq!(v["outcome"], "loss");
    assert_eq!(v["winning_moves"], json!([]));
    assert_eq!(v["winning_moves_total"], 0);
}

#[test]
fn misere_sums_by_search_and_refused_when_large() {
    let v = json(&["sum", "nim:1", "nim:1", "--misere"]);
    assert_eq!(v["outcome"], "win"); // two heaps of one: take one, the opponent takes the last
    let v = json(&["sum", "nim:1", "--misere"]);
    assert_eq!(v["outcome"], "loss");
    let err = assert_bad_input(&["sum", "0.77:300", "grundy:300", "--misere"]);
    assert!(err.contains("exact search"), "{err}");
}

#[test]
fn huge_heaps_through_periods_formulas_or_a_refusal() {
    let v = json(&["sum", "powers-of-two:1000000000000000000000000", "nim:1"]);
    assert_eq!(v["values"][0], 1); // 10^24 mod 3 = 1
    let v = json(&["sum", "at-least-half:1000000000000000000000000"]);
    assert_eq!(v["values"][0], 80); // 10^24 has 80 binary digits
    let err = assert_bad_input(&["sum", "squares:1000000000000000000000000"]);
    assert!(err.contains("no proven period"), "{err}");
}

#[test]
fn bad_components_exit_2_with_one_line() {
    for bad in [
        &["sum", "grundy:x"][..],
        &["sum", "nosuchgame:5"],
        &["sum", "0.7Z:5"],
        &["sum", "0.77"],
        &["sum", "subtract=:3"],
        &["sum", "nim:-1"],
        &["values", "nosuchgame", "--upto", "5"],
        &["values", "grundy", "--upto", "x"],
        &["values", "primes", "--upto", "1000000000000"],
    ] {
        let err = assert_bad_input(bad);
        assert_eq!(err.trim_end().lines().count(), 1, "{bad:?}: {err}");
    }
}
