//! The foundation's contract: Nim, tic-tac-toe, the tour, help and bad input.

mod common;
use common::{assert_bad_input, json, run};

#[test]
fn tic_tac_toe_empty_board_is_a_draw_in_nine() {
    let v = json(&["tic-tac-toe"]);
    assert_eq!(v["outcome"], "tie");
    assert_eq!(v["first_player_wins"], false);
    assert_eq!(v["remoteness"], 9);
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    assert_eq!(v["best_line"].as_array().unwrap().len(), 9);
}

#[test]
fn tic_tac_toe_position_with_a_win() {
    let v = json(&["tic-tac-toe", "xx.oo...."]);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["remoteness"], 1);
    assert_eq!(v["winning_moves"], serde_json::json!([3]));
}

#[test]
fn nim_1_2_3_is_lost() {
    let v = json(&["nim", "1", "2", "3"]);
    assert_eq!(v["outcome"], "loss");
    assert_eq!(v["first_player_wins"], false);
    assert_eq!(v["winning_moves"], serde_json::json!([]));
}

#[test]
fn nim_3_4_5_is_won_by_taking_two_from_the_first_heap() {
    let v = json(&["nim", "3", "4", "5"]);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{"heap": 1, "take": 2, "leaves": [1]}])
    );
    assert_eq!(v["nim_sum"], 2);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 12);
    assert!(
        moves
            .iter()
            .all(|m| m["outcome"].is_string() && m["remoteness"].is_u64())
    );
}

#[test]
fn nim_misere_uses_the_misere_rule() {
    // Misère Nim with heaps 1 1: the player to move takes one, the opponent must take the last.
    assert_eq!(json(&["nim", "1", "1", "--misere"])["outcome"], "win");
    assert_eq!(json(&["nim", "1", "1", "1", "--misere"])["outcome"], "loss");
}

#[test]
fn huge_nim_answers_by_rule() {
    let v = json(&["nim", "1000000000000", "3", "999"]);
    assert_eq!(v["outcome"], "win");
    assert!(v["remoteness"].is_null());
}

#[test]
fn text_output_explains_the_answer() {
    let out = run(&["nim", "3", "4", "5"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("wins in 11 moves"), "{text}");
    assert!(text.contains("take 2 from heap 1"), "{text}");
}

#[test]
fn tour_solves_every_game() {
    let v = json(&["tour"]);
    assert_eq!(v["nim"]["result"]["outcome"], "win");
    assert_eq!(v["tic-tac-toe"]["result"]["outcome"], "tie");
}

#[test]
fn help_lists_the_games() {
    let out = run(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for game in ["tour", "nim", "tic-tac-toe"] {
        assert!(text.contains(game), "{game} missing from --help");
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert_bad_input(&["nim", "x"]);
    assert!(assert_bad_input(&["nim", "-3"]).contains("negative"));
    assert_bad_input(&["nim"]);
    assert_bad_input(&["tic-tac-toe", "xxx"]);
    assert_bad_input(&["tic-tac-toe", "xxxooo..."]);
    assert_bad_input(&["tic-tac-toe", "xxxxo...."]);
    assert_bad_input(&["no-such-game"]);
}
