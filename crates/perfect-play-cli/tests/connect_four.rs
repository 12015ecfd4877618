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
    // Past 128 bits: 16 x 8 takes 16 x 9 = 144.
    assert!(
        assert_bad_input(&["connect-four", "--width", "16", "--height", "8"])
            .contains("at most 128 (it is 144)")
    );
}

/// Issue 48: boards past 64 bits (10 x 6 takes 70) are searched on 128-bit words. c4's
/// verified test positions (github.com/ChristopheSteininger/c4, tst/data/10x6/endgame_L1.txt,
/// its first line "09194010048180864819489472487170925197366 8", columns 0-based there: one
/// added to each here) score as it says: 8, the mover winning with the disc after next of
/// theirs: a win in 5 plies.
#[test]
fn boards_past_64_bits_are_answered_by_search() {
    let moves =
        "1,10,2,10,5,1,2,1,1,5,9,2,9,1,9,7,5,9,2,10,5,9,10,5,8,3,5,9,8,2,8,1,10,3,6,2,10,8,4,7,7";
    let v = json(&["connect-four", moves, "--width", "10", "--height", "6"]);
    assert_eq!(
        (&v["method"], &v["outcome"], &v["remoteness"]),
        (&json!("search"), &json!("win"), &json!(5))
    );
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(10), Some(6))
    );
    assert_eq!(v["moves"][0]["outcome"], "win");
    // A batch of two: the same position, and one disc in column 10 (written "10,": "10"
    // would be two moves).
    let batch = common::run_with_input(
        &[
            "connect-four",
            "--batch",
            "--width",
            "10",
            "--height",
            "6",
            "--max-nodes",
            "1000000",
        ],
        Some(&format!("{moves}\n10,\n")),
    );
    let lines = json_lines(&batch.stdout);
    assert_eq!(lines.len(), 2, "{}", String::from_utf8_lossy(&batch.stdout));
    assert_eq!(lines[0]["remoteness"], 5);
    // One disc on 10 x 6 is far past a million nodes: the line says what was proven.
    assert!(
        lines[1]["error"].as_str().unwrap().contains("node budget"),
        "{}",
        lines[1]
    );
    // 8 x 8 (72 bits) is refused only by the node budget; a 127-row column (128 bits)
    // is answered.
    assert!(
        assert_bad_input(&[
            "connect-four",
            "45",
            "--width",
            "8",
            "--height",
            "8",
            "--max-nodes",
            "1000"
        ])
        .contains("node budget")
    );
    let v = json(&["connect-four", "--width", "1", "--height", "127"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("tie"), &json!(127))
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
    // Every move lets the opponent win at once: no node searched.
    assert_eq!(v["nodes"].as_u64(), Some(0));
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    // "1755544276367766243177433654312 0 tie 11": column 2 keeps the tie, every other
    // column loses in 2.
    let v = json(&["connect-four", "1755544276367766243177433654312"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("tie"), &json!(11))
    );
    assert!(v["nodes"].as_u64().unwrap() > 0);
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
    let small = ["--width", "5", "--height", "4"];
    // The empty board alone (a batch's empty line is no position), the others one batch a
    // method: the table is solved once a process, not once a position.
    let lines = ["2233", "3", "1122", "3333"];
    let by = |method: &str| -> Vec<serde_json::Value> {
        let mut single = vec!["connect-four", ""];
        single.extend(small);
        single.extend(["--method", method]);
        let mut answers = vec![json(&single)];
        let mut batch = vec!["connect-four", "--batch"];
        batch.extend(small);
        batch.extend(["--method", method]);
        let out = common::run_with_input(&batch, Some(&lines.join("\n")));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        answers.extend(
            String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()),
        );
        answers
    };
    let (tables, searches) = (by("table"), by("search"));
    assert_eq!((tables.len(), searches.len()), (5, 5));
    for ((moves, table), search) in std::iter::once(&"")
        .chain(&lines)
        .zip(&tables)
        .zip(&searches)
    {
        assert_eq!(
            (table["method"].as_str(), search["method"].as_str()),
            (Some("engine"), Some("search")),
            "{moves}"
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
    // 44 is in the shipped book (answered at once, whatever the budget): searched without it.
    let message = assert_bad_input(&["connect-four", "44", "--max-nodes", "50000", "--no-book"]);
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

/// A batch's output: one JSON object a line.
fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
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
    let lines = json_lines(&out.stdout);
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

/// Lines answered side by side are written in the input's order, each as the position asked
/// alone answers it (blank lines skipped, a bad line in the middle, the line numbers kept).
#[test]
fn a_batch_answered_side_by_side_keeps_the_order_and_the_answers() {
    let positions = [
        // A longer search first: the quick lines after it finish before it.
        "44444326523",
        "752276321466322433217754651351",
        "",
        "1755544276367766243177433654312",
        "8",
        "4517613253774654554161171274364573",
        "523172463225636774163335614517627",
        "6327162661776555436757723213231521",
        "564775531267166711477212261226554",
        "6212233661165436276151513372",
        "675321134124541622133527621377",
    ];
    let input = positions.join("\n") + "\n";
    let out = common::run_with_input(&["connect-four", "--batch", "--threads", "2"], Some(&input));
    assert_eq!(
        out.status.code(),
        Some(2),
        "the bad line makes the status 2"
    );
    let lines = json_lines(&out.stdout);
    let asked: Vec<(usize, &str)> = positions
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty())
        .map(|(i, p)| (i + 1, *p))
        .collect();
    assert_eq!(lines.len(), asked.len());
    for (answer, (number, position)) in lines.iter().zip(&asked) {
        assert_eq!(answer["line"], json!(number));
        if *position == "8" {
            assert!(
                answer["error"].as_str().unwrap().contains("column"),
                "{answer}"
            );
            continue;
        }
        let alone = json(&["connect-four", position]);
        for field in ["outcome", "remoteness", "moves", "best_line", "position"] {
            assert_eq!(answer[field], alone[field], "{position}: {field}");
        }
    }
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

/// A book of a board past 64 bits (its keys 128 bits: a column of 100 rows, 101 bits) is
/// written, read back and answers from itself.
#[test]
fn a_book_of_a_board_past_64_bits_is_written_and_read() {
    let db = scratch("c4-1x100-book.ppdb");
    let db_arg = db.to_str().unwrap();
    let _ = std::fs::remove_file(&db);
    let board = ["--width", "1", "--height", "100"];
    let built = json(
        &[
            &["book", "connect-four", "--depth", "3", "--db", db_arg][..],
            &board[..],
        ]
        .concat(),
    );
    assert_eq!(built["positions"], 4);
    assert_eq!(built["start"]["outcome"], "tie");
    let again = json(
        &[
            &["book", "connect-four", "--depth", "3", "--db", db_arg][..],
            &board[..],
        ]
        .concat(),
    );
    assert_eq!(again["nodes"], 0, "read back, nothing searched");
    let v = json(&[&["connect-four", "1", "--db", db_arg][..], &board[..]].concat());
    assert_eq!(
        (&v["method"], &v["outcome"], &v["remoteness"]),
        (&json!("book"), &json!("tie"), &json!(99))
    );
    let _ = std::fs::remove_file(&db);
}

/// `book connect-four` writes every position within the plies asked (one per mirror pair);
/// `connect-four --db BOOK` answers a position it covers with its moves from the book alone
/// (method `book`), others by search reading the book, all as the engine's table does; a
/// build cut short resumes from PATH.partial; a damaged or foreign book is refused.
#[test]
fn an_opening_book_answers_as_the_table_does() {
    let db = scratch("c4-5x4-book.ppdb");
    let db_arg = db.to_str().unwrap();
    let small = ["--width", "5", "--height", "4"];
    let build = |plies: &str| {
        let mut args = vec!["book", "connect-four", "--depth", plies, "--db", db_arg];
        args.extend(small);
        json(&args)
    };
    let built = build("4");
    // 1 + 3 + 13 + 50 + 176: positions after 0 to 4 plies, one of each mirror pair.
    assert_eq!(built["positions"], 243);
    assert_eq!(built["resumed"], 0);
    assert_eq!(built["start"], json!({"outcome": "tie", "remoteness": 20}));
    let bytes = std::fs::read(&db).unwrap();
    // One batch each: the table solved once, the book read once.
    let positions = ["3", "33", "1", "254", "2543", "25431", "254315"];
    let batch = |extra: &[&str]| -> Vec<serde_json::Value> {
        let mut args = vec!["connect-four", "--batch"];
        args.extend(small);
        args.extend(extra);
        let out = common::run_with_input(&args, Some(&positions.join("\n")));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let tables = batch(&["--method", "table"]);
    let reads = batch(&["--db", db_arg]);
    assert_eq!(reads.len(), positions.len());
    for ((moves, table), read) in positions.iter().zip(&tables).zip(&reads) {
        let method = if moves.len() < 4 { "book" } else { "search" };
        assert_eq!(read["method"], method, "{moves}");
        // From the book too, the search carried the line on past its edge: nodes counted.
        assert!(read["nodes"].as_u64().unwrap() > 0, "{moves}");
        for field in ["outcome", "remoteness", "winning_moves", "to_move"] {
            assert_eq!(read[field], table[field], "{moves} {field}");
        }
        let values = |v: &serde_json::Value| -> Vec<(String, String)> {
            let mut all: Vec<_> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["move"].to_string(),
                        format!("{} {}", m["outcome"], m["remoteness"]),
                    )
                })
                .collect();
            all.sort();
            all
        };
        assert_eq!(values(read), values(table), "{moves}");
        // The line read through the book is carried on by the search to the game's end.
        assert_eq!(read["best_line_complete"], true, "{moves}");
        assert_eq!(
            read["best_line"].as_array().unwrap().len() as u64,
            table["remoteness"].as_u64().unwrap(),
            "{moves}"
        );
        assert_eq!(read["database"]["book_plies"], 4);
    }
    // The empty board (no line of a batch).
    let start = json(&[
        "connect-four",
        "--db",
        db_arg,
        "--width",
        "5",
        "--height",
        "4",
    ]);
    assert_eq!(
        (&start["method"], &start["outcome"], &start["remoteness"]),
        (&json!("book"), &json!("tie"), &json!(20))
    );
    assert_eq!(start["best_line"].as_array().unwrap().len(), 20);
    let text = String::from_utf8(
        run(&[
            "connect-four",
            "33",
            "--db",
            db_arg,
            "--width",
            "5",
            "--height",
            "4",
        ])
        .stdout,
    )
    .unwrap();
    assert!(
        text.contains("Read from the opening book (243 positions)"),
        "{text}"
    );
    // A build of another board's book, killed once PATH.partial holds a few positions: the
    // rerun takes them from it and writes the same book as a build never stopped.
    let other = scratch("c4-5x5-book.ppdb");
    let other_arg = other.to_str().unwrap();
    let other_partial = format!("{other_arg}.partial");
    let args = [
        "book",
        "connect-four",
        "--depth",
        "6",
        "--db",
        other_arg,
        "--width",
        "5",
        "--height",
        "5",
        "--json",
    ];
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_perfect-play"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lines = || {
        std::fs::read_to_string(&other_partial)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let waited = std::time::Instant::now();
    while lines() < 6 && waited.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!other.exists(), "killed before the end");
    let kept = lines() - 1;
    assert!(kept >= 5, "{kept}");
    let resumed = json(&args[..args.len() - 1]);
    assert!(resumed["resumed"].as_u64().unwrap() >= 5, "{resumed}");
    assert!(!std::path::Path::new(&other_partial).exists());
    let resumed_bytes = std::fs::read(&other).unwrap();
    std::fs::remove_file(&other).unwrap();
    let fresh = json(&args[..args.len() - 1]);
    assert_eq!(fresh["resumed"], 0);
    assert_eq!(
        std::fs::read(&other).unwrap(),
        resumed_bytes,
        "the same book"
    );
    std::fs::remove_file(&other).unwrap();
    let partial = format!("{db_arg}.partial");
    // A partial build of another book is refused, not mixed in.
    std::fs::write(
        &partial,
        "perfect-play book connect-four 5x4 plies 3 keys 0\n",
    )
    .unwrap();
    std::fs::remove_file(&db).unwrap();
    assert!(
        assert_bad_input(&[
            "book",
            "connect-four",
            "--depth",
            "4",
            "--db",
            db_arg,
            "--width",
            "5",
            "--height",
            "4"
        ])
        .contains("partial build of another book")
    );
    std::fs::remove_file(&partial).unwrap();
    build("4");
    // The table method, another board, a damaged file: one line each.
    assert!(
        assert_bad_input(&[
            "connect-four",
            "--db",
            db_arg,
            "--width",
            "5",
            "--height",
            "4",
            "--method",
            "table"
        ])
        .contains("opening book")
    );
    assert!(
        assert_bad_input(&["connect-four", "--db", db_arg]).contains("a book of the 5 x 4 board")
    );
    assert!(
        assert_bad_input(&[
            "query",
            "connect-four",
            "--width",
            "5",
            "--height",
            "4",
            "--db",
            db_arg
        ])
        .contains("book of 4 plies")
    );
    let mut damaged = bytes.clone();
    let last = damaged.len() - 6;
    damaged[last] ^= 0x55;
    std::fs::write(&db, &damaged).unwrap();
    assert_bad_input(&[
        "connect-four",
        "--db",
        db_arg,
        "--width",
        "5",
        "--height",
        "4",
    ]);
    std::fs::remove_file(&db).unwrap();
}

#[test]
fn the_shipped_book_answers_the_first_moves_of_7_by_6_without_a_flag() {
    // The empty board: the first player wins with the 41st disc (Allen, Allis 1988;
    // ../shared/reference/solved_games.md), read from the book with every column's value.
    let v = json(&["connect-four"]);
    assert_eq!(v["method"], "book");
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("win"), &json!(41))
    );
    assert_eq!(v["winning_moves"], json!([4]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 7);
    assert_eq!(v["book"]["shipped"], true);
    assert_eq!(
        v["book"]["path"],
        "crates/perfect-play/data/connect-four-7x6.ppdb"
    );
    // The book covers seven plies, so every move of a 6-ply position is read from it:
    // after column 4 six times, the first player wins in 35 with column 3 or 5.
    let six = json(&["connect-four", "444444"]);
    assert_eq!(six["method"], "book");
    assert_eq!(six["remoteness"], 35);
    assert_eq!(six["winning_moves"], json!([3, 5]));
    assert_eq!(six["moves"].as_array().unwrap().len(), 6);
    // --no-book searches from scratch (a late position, so that it is quick).
    let late = "752276321466322433217754651351";
    let searched = json(&["connect-four", late, "--no-book"]);
    assert_eq!(searched["method"], "search");
    assert!(searched.get("book").is_none());
    assert_eq!(searched["remoteness"], 2);
    // Other boards have no shipped book.
    let other = json(&["connect-four", "44", "--width", "6", "--height", "5"]);
    assert!(other.get("book").is_none());
    // --no-book and --db together are refused.
    let out = run(&["connect-four", "--no-book", "--db", "x.ppdb"]);
    assert_eq!(out.status.code(), Some(2));
}
