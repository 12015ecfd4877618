//! `connect-four`: small boards solved whole by the engine, end to end.

mod common;

use common::{assert_bad_input, json, run};
use serde_json::json;

#[test]
fn four_by_four_is_a_tie_as_in_tromps_table() {
    // ../shared/reference/solved_games.md: 4 x 4 is a draw (the board fills, a tie here).
    let v = json(&["connect-four"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("tie"), &json!(16))
    );
    assert_eq!(v["first_player_wins"], false);
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    assert_eq!(v["best_line"].as_array().unwrap().len(), 16);
    assert_eq!(v["positions"], 147_319);
}

#[test]
fn a_position_after_some_moves_lists_every_column_best_first() {
    // 5 x 4 after 2 2 3 3: x plays 4 (threatening 1 and 5 at once) and wins in 3.
    let v = json(&["connect-four", "2233", "--width", "5", "--height", "4"]);
    assert_eq!(v["to_move"], "first");
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("win"), &json!(3))
    );
    assert_eq!(v["winning_moves"], json!([4]));
    assert_eq!(
        v["moves"][0],
        json!({"move": 4, "outcome": "win", "remoteness": 3})
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 5);
    assert_eq!(v["best_line"].as_array().unwrap().len(), 3);
    let text =
        String::from_utf8(run(&["connect-four", "2233", "--width", "5", "--height", "4"]).stdout)
            .unwrap();
    assert!(text.contains("column 4: wins in 3 moves"), "{text}");
    assert!(text.contains(".xx.."), "{text}");
}

#[test]
fn boards_too_large_and_bad_moves_are_refused_at_once() {
    let start = std::time::Instant::now();
    assert!(
        assert_bad_input(&["connect-four", "--width", "7", "--height", "6"]).contains("129 TiB")
    );
    assert!(start.elapsed().as_secs() < 5, "refused before any work");
    assert!(assert_bad_input(&["connect-four", "55555"]).contains("not a game on a 4 x 4 board"));
    assert!(assert_bad_input(&["connect-four", "1a"]).contains("not a column"));
    assert!(assert_bad_input(&["connect-four", "0"]).contains("not a column"));
    assert!(assert_bad_input(&["connect-four", "--width", "0"]).contains("width"));
    assert!(
        assert_bad_input(&["connect-four", "--width", "9", "--height", "7"])
            .contains("not supported")
    );
}
