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
    // 147,319 boards without a line; the engine solves one of each mirror pair.
    assert_eq!(v["positions_in_table"], 73_693);
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
        json!({"move": 4, "outcome": "win", "remoteness": 3, "ends_game": false,
            "position": "22334"})
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

/// A fresh path in the system's temporary directory.
fn scratch(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("perfect-play-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_database_is_written_once_then_read_without_solving() {
    let db = scratch("c4-5x4.ppdb");
    let db_arg = db.to_str().unwrap();
    let args = [
        "connect-four",
        "2233",
        "--width",
        "5",
        "--height",
        "4",
        "--db",
        db_arg,
    ];
    let first = json(&args);
    assert_eq!(first["database"]["loaded"], false);
    assert!(first["passes"].as_u64().unwrap() > 0);
    let bits = first["database"]["bits_per_position"].as_f64().unwrap();
    assert!(bits > 0.0 && bits < 16.0, "{bits} bits a position on disk");
    let second = json(&args);
    assert_eq!(second["database"]["loaded"], true);
    assert_eq!(second["passes"], 0, "read, not solved");
    for field in [
        "outcome",
        "remoteness",
        "moves",
        "best_line",
        "positions_in_table",
    ] {
        assert_eq!(first[field], second[field], "{field}");
    }
    // The same file for another board is refused, not misread.
    let other = run(&[
        "connect-four",
        "--width",
        "4",
        "--height",
        "4",
        "--db",
        db_arg,
    ]);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("not connect-four 4x4"));
    std::fs::remove_file(&db).unwrap();
}

#[test]
fn a_killed_solve_resumes_and_writes_the_same_database() {
    let reference = scratch("c4-ref.ppdb");
    let reference_arg = reference.to_str().unwrap();
    json(&[
        "connect-four",
        "--width",
        "5",
        "--height",
        "4",
        "--db",
        reference_arg,
    ]);
    let expected = std::fs::read(&reference).unwrap();
    std::fs::remove_file(&reference).unwrap();
    for attempt in 0..5 {
        let db = scratch(&format!("c4-killed-{attempt}.ppdb"));
        let db_arg = db.to_str().unwrap().to_string();
        let partial = std::path::PathBuf::from(format!("{db_arg}.partial"));
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_perfect-play"))
            .args([
                "connect-four",
                "--width",
                "5",
                "--height",
                "4",
                "--threads",
                "1",
                "--json",
            ])
            .args(["--db", &db_arg])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill it once a few tiers are saved, before it finishes.
        let killed = loop {
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            if std::fs::metadata(&partial).is_ok_and(|m| m.len() > 20_000) {
                child.kill().unwrap();
                child.wait().unwrap();
                break true;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        };
        if !killed {
            let _ = std::fs::remove_file(&db);
            continue; // it finished first: try again
        }
        assert!(!db.exists(), "no database from a killed solve");
        let resumed = json(&[
            "connect-four",
            "--width",
            "5",
            "--height",
            "4",
            "--db",
            &db_arg,
        ]);
        assert_eq!(resumed["database"]["resumed"], true);
        let already = resumed["database"]["already_solved"].as_u64().unwrap();
        assert!(already > 0 && already < resumed["positions_in_table"].as_u64().unwrap());
        assert_eq!(std::fs::read(&db).unwrap(), expected, "the same database");
        assert!(
            !partial.exists(),
            "the checkpoint is removed once the database is written"
        );
        std::fs::remove_file(&db).unwrap();
        return;
    }
    panic!("the solve always finished before it could be killed");
}

/// The second audit (issue 30): a finished board (four in a row) was refused as "not in the
/// table"; it is answered as tic-tac-toe answers one: lost for the player to move, in 0.
#[test]
fn a_finished_board_is_answered() {
    for args in [
        &["connect-four", "1212121"][..],
        &[
            "query",
            "connect-four",
            "--width",
            "4",
            "--height",
            "4",
            "4322231124",
        ],
    ] {
        let v = json(args);
        assert_eq!(
            (&v["outcome"], &v["remoteness"], &v["moves"]),
            (&json!("loss"), &json!(0), &json!([])),
            "{args:?}"
        );
    }
}
