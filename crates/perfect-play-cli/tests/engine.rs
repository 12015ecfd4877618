//! `solve` and `query`: whole games through the engine, end to end.

mod common;

use common::{assert_bad_input, json, run};
use serde_json::json;

#[test]
fn tic_tac_toe_is_a_tie_in_nine_over_5478_positions() {
    let v = json(&["solve", "tic-tac-toe"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("tie"), &json!(9))
    );
    assert_eq!(v["positions_reachable"], 5478);
    let sum: u64 = ["wins", "losses", "ties", "draws"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 5478);
    assert_eq!(v["draws"], 0);
    assert_eq!(v["database"], json!(null));
}

#[test]
fn no_counts_skips_the_walk_over_the_reachable_positions() {
    let counted = json(&["solve", "quixo", "--size", "3"]);
    let v = json(&["solve", "quixo", "--size", "3", "--no-counts"]);
    for field in ["positions_reachable", "wins", "losses", "ties", "draws"] {
        assert_eq!(v[field], json!(null), "{field}");
        assert!(counted[field].is_u64(), "{field}");
    }
    for field in ["outcome", "remoteness", "positions_in_table"] {
        assert_eq!(v[field], counted[field], "{field}");
    }
    let out = run(&["solve", "quixo", "--size", "3", "--no-counts"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not counted"), "{text}");
    let err = assert_bad_input(&["query", "quixo", "--size", "3", "--no-counts"]);
    assert!(err.contains("applies to solve"), "{err}");
}

#[test]
fn query_agrees_with_the_solver_behind_the_tic_tac_toe_command() {
    // The family command uses the reference Solver; query reads the engine's table.
    for board in [
        ".........",
        "x...o....",
        "xx.oo....",
        "xoxoxo...",
        "xo.......",
        "xxxoo....",
    ] {
        let solver = json(&["tic-tac-toe", board]);
        let engine = json(&["query", "tic-tac-toe", board]);
        for field in ["outcome", "remoteness", "first_player_wins"] {
            assert_eq!(solver[field], engine[field], "{board}: {field}");
        }
        // The same winning moves; query lists them best first, the command in board order.
        let sorted = |v: &serde_json::Value| {
            let mut moves: Vec<u64> = v["winning_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_u64().unwrap())
                .collect();
            moves.sort_unstable();
            moves
        };
        assert_eq!(sorted(&solver), sorted(&engine), "{board}: winning moves");
        let mut by_solver: Vec<_> = solver["moves"].as_array().unwrap().clone();
        let mut by_engine: Vec<_> = engine["moves"].as_array().unwrap().clone();
        let key = |m: &serde_json::Value| m["move"].as_u64().unwrap();
        by_solver.sort_by_key(key);
        by_engine.sort_by_key(key);
        let strip = |ms: Vec<serde_json::Value>| -> Vec<_> {
            ms.into_iter()
                .map(|m| {
                    (
                        m["move"].clone(),
                        m["outcome"].clone(),
                        m["remoteness"].clone(),
                    )
                })
                .collect()
        };
        assert_eq!(strip(by_solver), strip(by_engine), "{board}");
    }
}

#[test]
fn connect_four_solved_into_a_database_then_queried_from_it() {
    let db = std::env::temp_dir().join(format!("perfect-play-engine-{}.ppdb", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let db_arg = db.to_str().unwrap();
    let solved = json(&[
        "solve",
        "connect-four",
        "--width",
        "5",
        "--height",
        "4",
        "--db",
        db_arg,
    ]);
    // ../shared/reference/solved_games.md (Tromp): 5 x 4 is a draw, a tie here.
    assert_eq!(solved["outcome"], "tie");
    assert!(solved["database"]["bits_per_position"].as_f64().unwrap() < 16.0);
    assert!(solved["database"]["bytes"].as_u64().unwrap() > 0);
    assert_eq!(solved["database"]["loaded"], false);
    let again = json(&[
        "solve",
        "connect-four",
        "--width",
        "5",
        "--height",
        "4",
        "--db",
        db_arg,
    ]);
    assert_eq!(again["passes"], 0, "read from the database");
    assert_eq!(again["database"]["loaded"], true);
    for field in [
        "positions_reachable",
        "wins",
        "losses",
        "ties",
        "draws",
        "outcome",
    ] {
        assert_eq!(solved[field], again[field], "{field}");
    }
    let q = json(&[
        "query",
        "connect-four",
        "--width",
        "5",
        "--height",
        "4",
        "2233",
        "--db",
        db_arg,
    ]);
    assert_eq!(q["database"]["loaded"], true);
    assert_eq!(q["position"], "2233");
    assert_eq!(q["winning_moves"], json!([4]));
    let in_memory = json(&[
        "query",
        "connect-four",
        "--width",
        "5",
        "--height",
        "4",
        "2233",
    ]);
    assert_eq!(q["moves"], in_memory["moves"]);
    assert_eq!(in_memory["database"], json!(null));
    std::fs::remove_file(&db).unwrap();
}

#[test]
fn engine_commands_refuse_bad_input_in_one_line() {
    assert!(assert_bad_input(&["solve", "tic-tac-toe", "x........"]).contains("use query"));
    assert!(assert_bad_input(&["query", "tic-tac-toe", "xxxxooooo"]).contains("impossible"));
    // Past this machine's memory (or, where that cannot be read, past the default limit).
    let message = assert_bad_input(&["solve", "connect-four", "--width", "7", "--height", "6"]);
    assert!(
        message.contains("more than this machine's") || message.contains("memory limit"),
        "{message}"
    );
    assert!(
        assert_bad_input(&["query", "connect-four", "--db", "/nonexistent/x.ppdb"])
            .contains("does not exist")
    );
    let out = run(&["solve", "nosuchgame"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn dodgem_three_by_three_is_a_first_player_win() {
    // ../shared/reference/solved_games.md: Winning Ways gives 3 x 3 as a first-player win.
    let v = json(&["solve", "dodgem"]);
    assert_eq!(
        (&v["outcome"], &v["first_player_wins"]),
        (&json!("win"), &json!(true))
    );
    assert_eq!(v["remoteness"], 19);
    assert_eq!(v["positions_reachable"], 1873);
    let q = json(&["query", "dodgem", "x../x../.oo"]);
    assert_eq!(q["winning_moves"], json!(["a3R"]));
    assert_eq!(q["best_line"].as_array().unwrap().len(), 19);
    let text = String::from_utf8(run(&["query", "dodgem"]).stdout).unwrap();
    assert!(text.contains("move a3R: wins in 19 moves"), "{text}");
    assert!(assert_bad_input(&["query", "dodgem", "xxx/.../..."]).contains("1 to 2 cars"));
    assert!(assert_bad_input(&["query", "dodgem", "x../x../.oo:z"]).contains("not a side"));
    assert!(assert_bad_input(&["query", "dodgem", "x../x../.o"]).contains("9 squares"));
    assert!(assert_bad_input(&["solve", "dodgem", "--size", "9"]).contains("9"));
}

#[test]
fn mu_torere_is_a_draw() {
    // ../shared/reference/solved_games.md: a draw with perfect play.
    let v = json(&["solve", "mu-torere"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("draw"), &json!(null))
    );
    assert!(v["draws"].as_u64().unwrap() > 0);
    let q = json(&["query", "mu-torere"]);
    assert_eq!(q["moves"].as_array().unwrap().len(), 2); // 1c and 4c: only they touch an o
    assert!(assert_bad_input(&["query", "mu-torere", "xxxxxooo."]).contains("four pieces each"));
}

#[test]
fn quixo_three_by_three_is_a_first_player_win_in_seven() {
    // ../shared/reference/solved_games.md (GamesmanOne's rules): a first-player win in 7 over
    // 32,027 reachable positions, which count the 11,770 finished boards a move ends on too.
    let v = json(&["solve", "quixo"]);
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("win"), &json!(7))
    );
    assert_eq!(v["positions_reachable"], 20_257);
    let q = json(&["query", "quixo", "xx./oo./...:x"]);
    assert_eq!(q["remoteness"], 1);
    assert!(
        q["winning_moves"]
            .as_array()
            .unwrap()
            .contains(&json!("c1T"))
    );
    assert!(assert_bad_input(&["query", "quixo", "xxx/oo./...:o"]).contains("line already"));
}

#[test]
fn a_teeko_position_is_checked_before_any_solving() {
    // Four in a row on the bottom row: the game is over.
    let over = assert_bad_input(&["query", "teeko", "o.o../...../...../.o.../xxxx."]);
    assert!(over.contains("game is over"), "{over}");
    // Five x's: more pieces than a side has.
    let crowded = assert_bad_input(&["query", "teeko", "x.x.x/...../x.x../...../.....:o"]);
    assert!(crowded.contains("not a Teeko position"), "{crowded}");
    // While placing, x moves when the counts are level: o to move here is not a position.
    let turn = assert_bad_input(&["query", "teeko", "x..../...../...../...../....o:o"]);
    assert!(turn.contains("not a Teeko position"), "{turn}");
    assert!(assert_bad_input(&["query", "teeko", "x..:x"]).contains("25"));
}

#[test]
fn a_dobutsu_position_is_checked_before_any_solving() {
    let lions = assert_bad_input(&["query", "dobutsu", "g.e/.c./.C./ELG"]);
    assert!(lions.contains("one lion"), "{lions}");
    let chicks = assert_bad_input(&["query", "dobutsu", "gle/.c./.C./ELG:C"]);
    assert!(chicks.contains("2 chicks"), "{chicks}");
    let letter = assert_bad_input(&["query", "dobutsu", "gle/.c./.K./ELG"]);
    assert!(letter.contains("not a piece"), "{letter}");
    let held = assert_bad_input(&["query", "dobutsu", "gle/.../.../ELG:Lc"]);
    assert!(held.contains("cannot be held"), "{held}");
    assert!(assert_bad_input(&["query", "dobutsu", "gle/.c."]).contains("12 squares"));
}

#[test]
fn dobutsu_is_refused_under_the_default_memory_limit_with_its_size() {
    // The whole game takes about 11 GB; the default limit is 2 GiB.
    let refused = assert_bad_input(&["solve", "dobutsu"]);
    assert!(
        refused.contains("table has 1567925964 entries"),
        "{refused}"
    );
    assert!(refused.contains("--memory-limit"), "{refused}");
}

/// A table over the limits gives way to the proof search (issue 32): Quixo 5 x 5 (4.4 TiB of
/// table) answers a forced win at once; a small game whose table the memory limit refuses is
/// answered by the search with the table's values (the moves it decided, every one when all
/// are); and a position the search cannot decide keeps the table's refusal, with how far the
/// search looked.
#[test]
fn positions_of_games_too_large_to_tabulate_are_answered_by_search() {
    // A win in one where every other move lets O complete one of its two rows: every move
    // decided within a few dozen nodes. (With one row of O's, the moves that break it lead to
    // fights no horizon decides, and the search spends its whole 10 M-node budget on them.)
    let v = json(&["quixo", "--size", "5", "xxxx./oooo./oooo./...../.....:x"]);
    assert_eq!(v["method"], "search");
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&json!("win"), &json!(1))
    );
    assert_eq!(
        v["winning_moves"],
        json!(["e5L", "e4T", "e3T", "e2T", "e1T"])
    );
    assert_eq!(v["best_line"], json!(["e5L"]));
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["moves_complete"], true);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 38);
    for m in &moves[5..] {
        assert_eq!(
            (&m["outcome"], &m["remoteness"]),
            (&json!("loss"), &json!(2))
        );
    }
    // A small game whose table the memory limit refuses: the search's answer is the
    // table's (the moves it decided; every one when `moves_complete`).
    for (game, position, extra) in [
        ("quixo", "xo./ox./...:x", &["--size", "3"][..]),
        ("quixo", "x.o/.x./o..:o", &["--size", "3"]),
        ("dodgem", "x../.../.oo:x", &["--size", "3"]),
        ("dodgem", "x../x../.oo:o", &["--size", "3"]),
    ] {
        let mut args = vec![game, position];
        args.extend(extra);
        let table = json(&args);
        args.extend(["--memory-limit", "1K"]);
        let searched = json(&args);
        assert_eq!(table["method"], "engine");
        assert_eq!(searched["method"], "search", "{game} {position}");
        for field in ["outcome", "remoteness", "to_move", "winning_moves"] {
            assert_eq!(searched[field], table[field], "{game} {position} {field}");
        }
        let decided = searched["moves"].as_array().unwrap();
        for m in decided {
            let same = table["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["move"] == m["move"])
                .unwrap();
            assert_eq!(
                (&m["outcome"], &m["remoteness"]),
                (&same["outcome"], &same["remoteness"]),
                "{game} {position}"
            );
        }
        if searched["moves_complete"] == true {
            assert_eq!(decided.len(), table["moves"].as_array().unwrap().len());
        }
        assert_eq!(
            searched["best_line"].as_array().unwrap().len() as u64,
            table["remoteness"].as_u64().unwrap()
        );
    }
    // A draw: Mu Torere's start, its table refused by the memory limit; the search finds no
    // forced win (it cannot prove a draw) and says how far it looked.
    let refused = assert_bad_input(&["mu-torere", "--memory-limit", "1K"]);
    assert!(refused.contains("above the memory limit"), "{refused}");
    assert!(
        refused.contains("no forced win for either side within"),
        "{refused}"
    );
}
