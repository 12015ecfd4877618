//! `connect-four`: small boards solved whole by the engine, any board by the search, end to
//! end.

mod common;

use common::{assert_bad_input, json, run};
use serde_json::json;

#[test]
fn four_by_four_is_a_tie_as_in_tromps_table() {
    // ../shared/reference/solved_games.md: 4 x 4 is a draw (the board fills, a tie here).
    let v = json(&["connect-four", "--width", "4", "--height", "4"]);
    assert_eq!(v["method"], "engine");
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
    assert!(assert_bad_input(&["connect-four", "--method", "table"]).contains("129 TiB"));
    assert!(start.elapsed().as_secs() < 5, "refused before any work");
    assert!(assert_bad_input(&["connect-four", "5555555"]).contains("not a game on a 7 x 6 board"));
    assert!(
        assert_bad_input(&["connect-four", "--method", "search", "--db", "x.ppdb"])
            .contains("--db holds the engine's table")
    );
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

/// Issue 32: 7 x 6 by default, answered by the search; the published positions agree with
/// Pascal Pons' solver (tests/reference in the library checks all 200: here two through
/// the command, in his notation of columns played).
#[test]
fn seven_by_six_positions_are_answered_by_search() {
    // connect_four_7x6_dev.txt: "752276321466322433217754651351 -6 loss 2".
    let v = json(&["connect-four", "752276321466322433217754651351"]);
    assert_eq!(v["method"], "search");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(7), Some(6))
    );
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("loss"), &json!(2))
    );
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    // "1755544276367766243177433654312 0 tie 11": column 2 keeps the tie, every other
    // column loses in 2.
    let v = json(&["connect-four", "1755544276367766243177433654312"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("tie"), &json!(11))
    );
    assert_eq!(v["moves"][0]["move"], 2);
    assert_eq!(v["best_line"].as_array().unwrap().len(), 11);
    for m in &v["moves"].as_array().unwrap()[1..] {
        assert_eq!(
            (&m["outcome"], &m["remoteness"]),
            (&json!("loss"), &json!(2)),
            "{m}"
        );
    }
}

#[test]
fn search_and_table_give_the_same_answers_on_small_boards() {
    for moves in ["", "2233", "3", "1122", "3333"] {
        let by = |method| {
            json(&[
                "connect-four",
                moves,
                "--width",
                "5",
                "--height",
                "4",
                "--method",
                method,
            ])
        };
        let (table, search) = (by("table"), by("search"));
        assert_eq!(
            (table["method"].as_str(), search["method"].as_str()),
            (Some("engine"), Some("search"))
        );
        for field in [
            "outcome",
            "remoteness",
            "moves",
            "winning_moves",
            "to_move",
            "position",
        ] {
            assert_eq!(table[field], search[field], "{moves}: {field}");
        }
        // Both lines are perfect play (they may differ among equal moves): same length.
        assert_eq!(
            table["best_line"].as_array().map(Vec::len),
            search["best_line"].as_array().map(Vec::len),
            "{moves}"
        );
    }
}

#[test]
fn a_node_budget_ends_with_what_was_proven() {
    let message = assert_bad_input(&["connect-four", "44", "--max-nodes", "50000"]);
    assert!(
        message.contains("node budget") && message.contains("proven so far"),
        "{message}"
    );
    assert!(
        assert_bad_input(&[
            "connect-four",
            "--width",
            "4",
            "--height",
            "4",
            "--max-nodes",
            "5"
        ])
        .contains("--method search")
    );
}

#[test]
fn a_batch_answers_each_line_with_one_table() {
    let out = common::run_with_input(
        &["connect-four", "--batch"],
        Some("752276321466322433217754651351\n1755544276367766243177433654312\n9\n"),
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "a bad line makes the batch's status 2"
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        (&lines[0]["line"], &lines[0]["outcome"]),
        (&json!(1), &json!("loss"))
    );
    assert_eq!(
        (&lines[1]["line"], &lines[1]["outcome"]),
        (&json!(2), &json!("tie"))
    );
    assert!(lines[2]["error"].as_str().unwrap().contains("not a game"));
    assert_eq!(lines[0]["table_bytes"], lines[1]["table_bytes"]);
}

/// The second audit (issue 30): one column of 63 rows was refused (1.85e18 table indices);
/// the search answers it at once: the discs alternate, no four, a tie when it fills.
#[test]
fn one_tall_column_is_answered_by_search() {
    let v = json(&["connect-four", "--width", "1", "--height", "63"]);
    assert_eq!(
        (&v["method"], &v["outcome"], &v["remoteness"]),
        (&json!("search"), &json!("tie"), &json!(63))
    );
    assert_eq!(v["best_line"].as_array().unwrap().len(), 63);
    // Two columns of 31: four in a row up a column again.
    let v = json(&["connect-four", "1212121", "--width", "2", "--height", "31"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("loss"), &json!(0))
    );
}
