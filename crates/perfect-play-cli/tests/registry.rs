//! Every game of the library's registry reaches every front end: a command of its own (listed
//! in `--help`, with `--help` of its own), the tour, `play`, the API (`/api/v1/games`, its
//! first example answered, the OpenAPI path), the page's view, the schemas' game lists and
//! the README. A game added to the registry and missed by a front end fails here.

mod common;

use common::{json, run, run_with_input};
use perfect_play::registry::{self, GAMES, View};
use perfect_play_cli::explorer::{Explorer, catalogue};
use std::path::Path;

fn example_query(info: &registry::GameInfo) -> Vec<(String, String)> {
    let example = info.examples[0];
    let mut query = vec![("position".to_string(), example.position.to_string())];
    query.extend(example.given());
    query
}

#[test]
fn every_game_is_a_command_listed_in_help() {
    let help = String::from_utf8(run(&["--help"]).stdout).unwrap();
    for info in GAMES {
        let listed = help
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{} ", info.name)));
        assert!(listed, "{} is not listed in --help", info.name);
        let own = run(&[info.name, "--help"]);
        assert!(own.status.success(), "{} --help", info.name);
        for alias in info.aliases {
            assert!(run(&[alias, "--help"]).status.success(), "{alias} --help");
        }
    }
}

#[test]
fn the_tour_shows_every_game() {
    let tour = json(&["tour"]);
    for info in GAMES {
        let entry = &tour[info.name];
        assert!(
            entry["result"]["outcome"].is_string(),
            "{} in the tour",
            info.name
        );
        assert!(
            entry["command"]
                .as_str()
                .unwrap()
                .starts_with(&format!("perfect-play {}", info.name)),
            "{}",
            info.name
        );
    }
}

#[test]
fn every_game_answers_its_examples_in_the_api_and_is_in_the_catalogue() {
    let explorer = Explorer::default();
    let listed = catalogue(&[]);
    for info in GAMES {
        let entry = listed["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == info.name)
            .unwrap_or_else(|| panic!("{} is not in /api/v1/games", info.name));
        assert_eq!(entry["view"], info.view.name());
        let answer = explorer
            .answer(info.name, &example_query(info))
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
        assert!(answer["outcome"].is_string(), "{}", info.name);
        let moves = answer["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{}: no moves at its example", info.name);
        // Every move says where it leads, so that a client can follow a line.
        assert!(
            moves.iter().all(|m| m["query"].is_object()),
            "{}",
            info.name
        );
    }
    let document = perfect_play_server::openapi_document(&listed);
    for info in GAMES {
        assert!(
            document["paths"][format!("/api/v1/{}", info.name)]["get"].is_object(),
            "{} has no OpenAPI path",
            info.name
        );
    }
}

#[test]
fn every_game_can_be_played_in_the_terminal() {
    for info in GAMES {
        let mut args = vec!["play".to_string(), info.name.to_string()];
        args.extend(info.examples[0].words());
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_with_input(&words, Some("hint\nquit\n"));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "play {}: {}",
            info.name,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("Hint:"), "play {}: {text}", info.name);
    }
}

#[test]
fn every_view_is_drawn_by_the_page() {
    let app = include_str!("../../perfect-play-server/assets/app.js");
    for info in GAMES {
        let view = info.view.name();
        assert!(
            app.contains(&format!("case '{view}'")),
            "the page has no view {view} for {}",
            info.name
        );
    }
    // Every view the registry can name is drawn, not only those in use.
    for view in [View::Heaps, View::Grid, View::Star, View::ConnectFour] {
        assert!(app.contains(&format!("case '{}'", view.name())));
    }
}

#[test]
fn the_schemas_list_every_engine_game() {
    for schema in ["query", "solve"] {
        let text = perfect_play_cli::schema::schema(schema).unwrap();
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let listed: Vec<&str> = value["properties"]["game"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_str().unwrap())
            .collect();
        let engine: Vec<&str> = registry::engine_games().map(|g| g.name).collect();
        assert_eq!(listed, engine, "the {schema} schema's game list");
    }
    for info in registry::engine_games() {
        assert!(perfect_play_cli::schema::schema(info.name).is_some());
    }
}

#[test]
fn the_readme_names_every_game() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    for info in GAMES {
        assert!(
            readme.contains(&format!("perfect-play {}", info.name)),
            "README.md has no perfect-play {}",
            info.name
        );
    }
}

/// `serve --db BOOK` and `play --db BOOK`: a Connect Four opening book answers the positions
/// it covers on its board at once (method `book`) and the others by search reading it, as
/// the table does; other boards are not its.
#[test]
fn a_served_opening_book_answers_its_board() {
    use perfect_play_cli::explorer::open_served;
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("pp-registry-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c4-4x4-d3.ppdb");
    let built = run(&[
        "book",
        "connect-four",
        "--width",
        "4",
        "--height",
        "4",
        "--depth",
        "3",
        "--db",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert!(built.status.success(), "{built:?}");
    let (databases, books) = open_served(std::slice::from_ref(&path)).unwrap();
    assert!(databases.is_empty());
    assert_eq!(books.len(), 1);
    let with_book = Explorer {
        books: Arc::new(books),
        ..Explorer::default()
    };
    let unlimited = Explorer {
        budget_seconds: 600.0,
        ..Explorer::default()
    };
    let query = |position: &str, method: &str| {
        vec![
            ("position".to_string(), position.to_string()),
            ("width".to_string(), "4".to_string()),
            ("height".to_string(), "4".to_string()),
            ("method".to_string(), method.to_string()),
        ]
    };
    for (position, method) in [
        ("", "book"),
        ("2", "book"),
        ("23", "book"),
        ("232", "search"),
        ("2321", "search"),
    ] {
        let read = with_book
            .answer("connect-four", &query(position, "auto"))
            .unwrap();
        assert_eq!(read["method"], method, "{position}");
        let table = unlimited
            .answer("connect-four", &query(position, "table"))
            .unwrap();
        for field in ["outcome", "remoteness", "winning_moves"] {
            assert_eq!(read[field], table[field], "{position} {field}");
        }
        assert_eq!(
            read["moves"].as_array().unwrap().len(),
            table["moves"].as_array().unwrap().len()
        );
    }
    // The table method, or another board, is not the book's.
    let table = with_book
        .answer("connect-four", &query("23", "table"))
        .unwrap();
    assert_eq!(table["method"], "engine");
    let other = with_book
        .answer(
            "connect-four",
            &[("width".into(), "5".into()), ("height".into(), "4".into())],
        )
        .unwrap();
    assert_eq!(other["method"], "search");
    assert!(other.get("book_positions").is_none(), "{other}");
    // Two books of one board: refused.
    let twice = open_served(&[path.clone(), path.clone()]).err().unwrap();
    assert!(twice.contains("second book"), "{twice}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `serve --db`: a solved database answers its game and variant (from the file, the same
/// answer as a solve in memory), is listed first among the game's examples, and a file of
/// another kind is refused when the server starts.
#[test]
fn a_served_database_answers_its_variant() {
    use perfect_play_cli::explorer::ServedDatabase;
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("pp-registry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dodgem4.ppdb");
    let solved = run(&[
        "solve",
        "dodgem",
        "--size",
        "4",
        "--db",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert!(solved.status.success(), "{solved:?}");
    let served = ServedDatabase::open(&path).unwrap();
    assert_eq!(served.params, vec![("size", "4".to_string())]);
    let with_db = Explorer {
        databases: Arc::new(vec![served]),
        ..Explorer::default()
    };
    let query = vec![
        ("position".to_string(), "x.../x.../x.../.ooo:o".to_string()),
        ("size".to_string(), "4".to_string()),
    ];
    let from_file = with_db.answer("dodgem", &query).unwrap();
    assert_eq!(from_file["database"]["loaded"], true);
    let unlimited = Explorer {
        budget_seconds: 600.0,
        ..Explorer::default()
    };
    let in_memory = unlimited.answer("dodgem", &query).unwrap();
    assert_eq!(in_memory["database"], serde_json::Value::Null);
    for field in ["outcome", "remoteness", "moves", "best_line", "position"] {
        assert_eq!(from_file[field], in_memory[field], "{field}");
    }
    let listed = catalogue(&with_db.databases);
    let dodgem = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "dodgem")
        .unwrap();
    assert_eq!(dodgem["databases"], serde_json::json!(["4x4"]));
    assert_eq!(dodgem["examples"][0]["size"], "4");
    // Not a database: refused with the file's name.
    let bogus = dir.join("bogus.ppdb");
    std::fs::write(&bogus, b"not a database").unwrap();
    let refused = ServedDatabase::open(&bogus).err().unwrap();
    assert!(refused.contains("bogus.ppdb"), "{refused}");
    // Tic-tac-toe's own command solves at once and reads no database: refused up front
    // (it was accepted, and then every answer failed on --db).
    let ttt = dir.join("ttt.ppdb");
    let solved = run(&["solve", "tic-tac-toe", "--db", ttt.to_str().unwrap()]);
    assert!(solved.status.success(), "{solved:?}");
    let refused = ServedDatabase::open(&ttt).err().unwrap();
    assert!(refused.contains("tic-tac-toe"), "{refused}");
    let out = run(&["serve", "--port", "0", "--db", bogus.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // The same game and variant twice: which one answers would be a guess.
    let twice = run(&[
        "serve",
        "--port",
        "0",
        "--db",
        path.to_str().unwrap(),
        "--db",
        path.to_str().unwrap(),
    ]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("both hold dodgem 4x4"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The explorer on a game whose table no budget affords (Quixo 5 x 5): a forced win is
/// answered by the proof search within the budget; a position it cannot decide is refused
/// with the table's figure and how far the search looked, inside the budget.
#[test]
fn the_explorer_answers_quixo_5_by_5_by_search_within_its_budget() {
    let explorer = Explorer {
        budget_seconds: 0.5,
        ..Explorer::default()
    };
    let query = |position: &str| {
        vec![
            ("position".to_string(), position.to_string()),
            ("size".to_string(), "5".to_string()),
        ]
    };
    let won = explorer
        .answer("quixo", &query("xxxx./oooo./...../...../.....:x"))
        .unwrap();
    assert_eq!(won["method"], "search");
    assert_eq!(won["outcome"], "win");
    assert_eq!(won["remoteness"], 1);
    let started = std::time::Instant::now();
    let open = explorer
        .answer("quixo", &query("xx.../oo.../...../...../.....:x"))
        .unwrap_err()
        .to_string();
    assert!(started.elapsed().as_secs_f64() < 2.0, "within the budget");
    assert!(
        open.contains("solving quixo 5x5 (1694577218886 positions)"),
        "{open}"
    );
    assert!(
        open.contains("no forced win for either side within"),
        "{open}"
    );
}
