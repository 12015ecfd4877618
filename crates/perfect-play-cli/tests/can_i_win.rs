//! `perfect-play can-i-win`: the JSON contract, generalisations, batch and bad input.

mod common;
use common::{assert_bad_input, json, run, run_with_input};

#[test]
fn seed_examples() {
    assert_eq!(json(&["can-i-win", "10", "11"])["first_player_wins"], false);
    assert_eq!(json(&["can-i-win", "10", "0"])["first_player_wins"], true);
    assert_eq!(json(&["can-i-win", "10", "1"])["first_player_wins"], true);
}

#[test]
fn json_has_the_contract_fields() {
    let v = json(&["can-i-win", "6", "10"]);
    for field in [
        "first_player_wins",
        "outcome",
        "remoteness",
        "winning_moves",
        "moves",
        "best_line",
        "positions_searched",
    ] {
        assert!(!v[field].is_null(), "missing {field}: {v}");
    }
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["winning_moves"], serde_json::json!([3]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 6);
    // Best first: the one winning pick, then the losing ones.
    assert_eq!(
        v["moves"][0],
        serde_json::json!({"move": 3, "outcome": "win", "remoteness": 3, "ends_game": false,
            "position": "7", "pool": [1, 2, 4, 5, 6]})
    );
}

#[test]
fn unreachable_target_is_a_tie_and_false() {
    let v = json(&["can-i-win", "4", "11"]);
    assert_eq!(v["outcome"], "tie");
    assert_eq!(v["first_player_wins"], false);
}

#[test]
fn pool_and_misere() {
    let v = json(&["can-i-win", "--pool", "2,3,5,7,11", "20"]);
    assert_eq!(v["pool"], serde_json::json!([2, 3, 5, 7, 11]));
    assert_eq!(v["winning_moves"], serde_json::json!([7, 11]));
    // The synopsis form `MAX TOTAL --pool LIST`, MAX being the pool's largest number.
    let same = json(&["can-i-win", "11", "20", "--pool", "2,3,5,7,11"]);
    assert_eq!(same["winning_moves"], v["winning_moves"]);
    // Misère with target 1: every first pick reaches it and loses.
    assert_eq!(
        json(&["can-i-win", "5", "1", "--misere"])["outcome"],
        "loss"
    );
}

#[test]
fn all_targets_prints_ranges() {
    let v = json(&["can-i-win", "10", "--all-targets"]);
    assert_eq!(v["outcomes"].as_array().unwrap().len(), 55);
    assert_eq!(v["winning_targets"][0], "1-10"); // a target up to 10 is reached by one pick
    let text = String::from_utf8(run(&["can-i-win", "10", "--all-targets"]).stdout).unwrap();
    assert!(
        text.contains("the first player wins targets 1-10,"),
        "{text}"
    );
}

#[test]
fn batch_answers_one_line_per_query() {
    let out = run_with_input(&["can-i-win", "--batch"], Some("10 11\n10 0\n\n6 10\n"));
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let answers: Vec<bool> = lines
        .iter()
        .map(|v| v["first_player_wins"].as_bool().unwrap())
        .collect();
    assert_eq!(answers, [false, true, true]);
}

#[test]
fn batch_with_a_bad_line_exits_2() {
    let out = run_with_input(&["can-i-win", "--batch"], Some("10 11\nten 11\n"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
}

#[test]
fn text_explains_the_winning_pick() {
    let text = String::from_utf8(run(&["can-i-win", "6", "10"]).stdout).unwrap();
    assert!(
        text.contains("The first player to move wins in 3 moves.\nPicking 3 leaves 7 to reach"),
        "{text}"
    );
}

#[test]
fn over_memory_is_refused_with_the_flag_to_raise_it() {
    let msg = assert_bad_input(&["can-i-win", "40", "600", "--memory-limit", "64M"]);
    assert!(msg.contains("--memory-limit"), "{msg}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert_bad_input(&["can-i-win", "0", "5"]);
    assert_bad_input(&["can-i-win", "65", "5"]);
    assert_bad_input(&["can-i-win", "ten", "5"]);
    assert_bad_input(&["can-i-win", "10"]);
    assert_bad_input(&["can-i-win", "--pool", "2,2,3", "5"]);
    assert_bad_input(&["can-i-win", "--pool", "0,3", "5"]);
    assert_bad_input(&["can-i-win", "--pool", "1,x", "5"]);
    assert_bad_input(&["can-i-win", "10", "20", "--pool", "2,3,5,7,11"]);
    assert_bad_input(&["can-i-win", "10", "11", "--memory-limit", "lots"]);
    assert!(
        assert_bad_input(&["can-i-win", "--pool", "1000000000,2", "--all-targets"])
            .contains("targets")
    );
}
