//! `perfect-play play` driven by scripted stdin: whole games against the perfect player.

use perfect_play_cli::run_in_memory;

fn play(args: &[&str], stdin: &str) -> (u8, String, String) {
    let mut argv = vec!["perfect-play", "play"];
    argv.extend(args);
    let run = run_in_memory(&argv, stdin.as_bytes(), false);
    (
        run.status,
        String::from_utf8(run.stdout).unwrap(),
        String::from_utf8(run.stderr).unwrap(),
    )
}

#[test]
fn a_whole_game_of_nim_against_the_perfect_player() {
    // Four heaps of one: every move takes the first heap's token, whatever the computer did.
    let (status, out, err) = play(&["nim", "1", "1", "1", "1"], &"1 1\n".repeat(4));
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out.matches("You play take 1 from heap 1").count(),
        2,
        "{out}"
    );
    assert_eq!(out.matches("I play take 1 from heap 1").count(), 2, "{out}");
    assert!(out.trim_end().ends_with("Game over: I win."), "{out}");
}

#[test]
fn the_perfect_player_wins_nim_from_a_winning_start_whatever_the_person_does() {
    // The computer moves first from 3 4 5 (a first-player win); the person always takes one
    // token from the first heap.
    let (status, out, err) = play(
        &["nim", "3", "4", "5", "--as", "second"],
        &"1 1\n".repeat(12),
    );
    assert_eq!(status, 0, "{err}");
    assert!(out.starts_with("Nim: you play second."), "{out}");
    assert!(
        out.contains("I play take 2 from heap 1: it wins in 11 moves."),
        "{out}"
    );
    assert!(out.trim_end().ends_with("Game over: I win."), "{out}");
}

#[test]
fn commands_moves_hint_undo_and_bad_moves() {
    let script = "moves\nhint\nfrom heap 9\ntake 2 from heap 1\nundo\nquit\n";
    let (status, out, err) = play(&["nim", "3", "4", "5"], script);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("Moves, best first (value for you):"), "{out}");
    assert!(
        out.contains("  take 2 from heap 1           it wins in 11 moves"),
        "{out}"
    );
    assert!(
        out.contains("Hint: take 2 from heap 1: it wins in 11 moves."),
        "{out}"
    );
    assert!(
        out.contains("\"from heap 9\" is not a legal move here"),
        "{out}"
    );
    assert!(
        out.contains("You play take 2 from heap 1: it wins in 11 moves."),
        "{out}"
    );
    // After the undo the start is shown again, then quit.
    assert_eq!(out.matches("Position: 3 4 5").count(), 2, "{out}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");
}

#[test]
fn a_whole_game_of_tic_tac_toe_never_lost_by_the_perfect_player() {
    // The person (second) tries squares 1 to 9 in order each turn; illegal ones are refused.
    let script: String = (1..=9)
        .map(|s| format!("{s}\n"))
        .collect::<String>()
        .repeat(5);
    let (status, out, err) = play(&["tic-tac-toe", "--as", "second"], &script);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("I play 1: it ties in 9 moves."), "{out}");
    assert!(out.contains("Game over"), "{out}");
    assert!(!out.contains("you win"), "{out}");
    assert!(out.contains("is not a legal move here"), "{out}");
}

#[test]
fn other_games_play_through_the_same_loop() {
    let (status, out, err) = play(&["stones", "5", "3", "4", "5"], "l\nl\n");
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("You play left"), "{out}");
    assert!(out.contains("Game over"), "{out}");
    let (status, out, err) = play(&["can-i-win", "10", "11"], "10\n");
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("You play 10: it loses in 2 moves."), "{out}");
    assert!(out.trim_end().ends_with("Game over: I win."), "{out}");
    let (status, out, _) = play(&["dodgem"], "quit\n");
    assert_eq!(status, 0);
    assert!(
        out.contains("  3 x..\n  2 x..\n  1 .oo\n    abc\n(x to move)"),
        "{out}"
    );
}

#[test]
fn bad_games_and_options_are_one_line_and_status_2() {
    for args in [
        vec!["chess"],
        vec!["nim", "3", "x"],
        vec!["nim", "3", "--moves", "1,2"],
    ] {
        let (status, out, err) = play(&args, "");
        assert_eq!(status, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn serve_refuses_a_bad_address_or_budget_in_one_line() {
    for args in [
        vec![
            "perfect-play",
            "serve",
            "--host",
            "256.0.0.1",
            "--port",
            "1",
        ],
        vec!["perfect-play", "serve", "--budget", "nan"],
        vec!["perfect-play", "serve", "--budget", "0"],
        vec!["perfect-play", "serve", "--port", "70000"],
    ] {
        let run = run_in_memory(&args, b"", false);
        let err = String::from_utf8(run.stderr).unwrap();
        assert_eq!(run.status, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("perfect-play: "), "{err}");
    }
    // Under the fuzz targets' small budget serve never starts (it would not return).
    let run = run_in_memory(["perfect-play", "serve", "--port", "0"], b"", true);
    assert_eq!(run.status, 2);
}

/// Issue 48: a board past 64 bits is played too (c4's verified 10 x 6 position, a win in 5
/// for the player to move: the perfect player finds it).
#[test]
fn play_takes_a_board_past_64_bits() {
    let moves =
        "1,10,2,10,5,1,2,1,1,5,9,2,9,1,9,7,5,9,2,10,5,9,10,5,8,3,5,9,8,2,8,1,10,3,6,2,10,8,4,7,7";
    let (status, out, err) = play(
        &[
            "connect-four",
            moves,
            "--width",
            "10",
            "--height",
            "6",
            "--as",
            "second",
        ],
        "quit\n",
    );
    assert_eq!(status, 0, "{err}");
    assert!(out.contains(": it wins in 5 moves."), "{out}");
}

/// Audit item 13: `play connect-four` began at a 30-move example, not the empty board, and
/// with `--width 4 --height 4` exited 2 blaming moves the user never typed.
#[test]
fn play_begins_at_the_start_of_a_game_that_has_one() {
    let (status, out, err) = play(&["connect-four", "--width", "4", "--height", "4"], "quit\n");
    assert_eq!(status, 0, "{err}");
    assert!(!out.contains("Columns played: 7"), "{out}");
    assert!(out.contains("Connect Four: you play first."), "{out}");
    let (status, out, err) = play(&["dodgem"], "quit\n");
    assert_eq!(status, 0, "{err}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");
    // A game without a start (Nim) still begins at its example.
    let (status, out, err) = play(&["nim"], "quit\n");
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("Position: "), "{out}");
}
