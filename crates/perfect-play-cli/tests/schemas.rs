//! The JSON contract: every command's `--json` output, batch lines included, validates against
//! the schema the repository publishes (and `perfect-play schema COMMAND` prints).

mod common;

use common::run_with_input;
use perfect_play_cli::schema::{COMMANDS, schema};
use serde_json::Value;

fn validator(command: &str) -> jsonschema::Validator {
    let mut options = jsonschema::options();
    for other in COMMANDS {
        let text = schema(other).expect("a schema for every command");
        let json: Value = serde_json::from_str(text).expect("schemas are JSON");
        let id = json["$id"]
            .as_str()
            .expect("every schema has an $id")
            .to_string();
        options = options.with_resource(
            id,
            jsonschema::Resource::from_contents(json).expect("a resource"),
        );
    }
    let own: Value = serde_json::from_str(schema(command).expect("schema")).expect("JSON");
    options.build(&own).expect("the schema compiles")
}

fn assert_valid(command: &str, instance: &Value, context: &str) {
    let v = validator(command);
    let errors: Vec<String> = v
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{context}: {errors:?}\n{instance}");
}

/// Run `args` with --json (and stdin); validate every output line against `command`'s schema
/// (or the batch-error schema for a line with an `error`).
fn check(command: &str, args: &[&str], input: Option<&str>) {
    // --json right after the command: a position after `--` takes every word that follows.
    let mut all = args.to_vec();
    all.insert(1.min(all.len()), "--json");
    let out = run_with_input(&all, input);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        !stdout.trim().is_empty(),
        "{args:?}: no output; {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in stdout.lines() {
        let json: Value = serde_json::from_str(line).expect("each line is JSON");
        let which = if json.get("error").is_some() {
            "batch-error"
        } else {
            command
        };
        assert_valid(which, &json, &format!("{args:?}"));
    }
}

#[test]
fn every_command_validates_against_its_schema() {
    let schema_db = std::env::temp_dir()
        .join(format!("perfect-play-schema-{}.ppdb", std::process::id()))
        .display()
        .to_string();
    let _ = std::fs::remove_file(&schema_db);
    let engine_db = format!("{schema_db}-engine");
    let _ = std::fs::remove_file(&engine_db);
    let book_db = format!("{schema_db}-book");
    let _ = std::fs::remove_file(&book_db);
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        ("nim", &["nim", "3", "4", "5"], None),
        ("nim", &["nim", "1", "2", "3", "--misere"], None),
        ("nim", &["nim", "1000", "1000"], None),
        ("nim", &["nim", "100000", "7", "--misere"], None),
        ("nim", &["nim", ""], None),
        ("tic-tac-toe", &["tic-tac-toe"], None),
        ("cgt", &["cgt", "{1|-1} + ^ + *"], None),
        ("cgt", &["cgt", "-1/2", "--to-move", "right"], None),
        (
            "cgt",
            &["cgt", "{3|{2|1}}", "--cool", "1/2", "--compare", "2"],
            None,
        ),
        ("cgt", &["cgt", "^", "--heat", "1"], None),
        (
            "domineering",
            &["domineering", "..|..", "--to-move", "right"],
            None,
        ),
        ("domineering", &["domineering", "...|...|..#"], None),
        ("clobber", &["clobber", "xox|ox."], None),
        ("konane", &["konane", "xo.ox.|.x.o.."], None),
        ("amazons", &["amazons", "x...|o..."], None),
        ("toads-and-frogs", &["toads-and-frogs", "tft.tff"], None),
        ("hackenbush", &["hackenbush", "lrr,rl,e"], None),
        (
            "cutcake",
            &["cutcake", "4x3+1x1", "--to-move", "right"],
            None,
        ),
        (
            "graph",
            &["graph", "-", "--all"],
            Some("A B\nB A\nA C\nC =tie\nB D\n"),
        ),
        (
            "graph",
            &["graph", "-"],
            Some("{\"moves\": {\"A\": [\"B\"], \"B\": [\"A\"]}}"),
        ),
        ("tic-tac-toe", &["tic-tac-toe", "xxxoo...."], None),
        ("solve", &["solve", "tic-tac-toe"], None),
        (
            "solve",
            &[
                "solve",
                "connect-four",
                "--width",
                "3",
                "--height",
                "3",
                "--db",
                &engine_db,
            ],
            None,
        ),
        (
            "solve",
            &[
                "solve",
                "connect-four",
                "--width",
                "3",
                "--height",
                "3",
                "--db",
                &engine_db,
            ],
            None,
        ),
        ("query", &["query", "tic-tac-toe", "xxxoo...."], None),
        ("solve", &["solve", "dodgem"], None),
        ("solve", &["solve", "mu-torere"], None),
        ("solve", &["solve", "quixo"], None),
        ("solve", &["solve", "quixo", "--no-counts"], None),
        (
            "query",
            &["query", "quixo", "x../o../...:x", "--size", "3"],
            None,
        ),
        ("query", &["query", "mu-torere", "xxxxoooo.:x"], None),
        ("query", &["query", "dodgem", "x../.x./.oo:o"], None),
        (
            "query",
            &[
                "query",
                "connect-four",
                "--width",
                "3",
                "--height",
                "3",
                "12",
                "--db",
                &engine_db,
            ],
            None,
        ),
        (
            "connect-four",
            &["connect-four", "752276321466322433217754651351"],
            None,
        ),
        (
            "connect-four",
            &[
                "connect-four",
                "--method",
                "search",
                "--width",
                "4",
                "--height",
                "4",
            ],
            None,
        ),
        (
            "connect-four",
            &["connect-four", "--batch"],
            Some("7522763214663224332177546513\n1755544276367766243177433654312\n12x\n"),
        ),
        (
            "connect-four",
            &["connect-four", "2233", "--width", "5", "--height", "4"],
            None,
        ),
        (
            "connect-four",
            &[
                "connect-four",
                "1,2,1,2,1,2",
                "--width",
                "2",
                "--height",
                "3",
            ],
            None,
        ),
        (
            "book",
            &[
                "book",
                "connect-four",
                "--depth",
                "3",
                "--width",
                "4",
                "--height",
                "4",
                "--db",
                &book_db,
            ],
            None,
        ),
        (
            "connect-four",
            &[
                "connect-four",
                "2",
                "--width",
                "4",
                "--height",
                "4",
                "--db",
                &book_db,
            ],
            None,
        ),
        (
            "connect-four",
            &[
                "connect-four",
                "--batch",
                "--width",
                "4",
                "--height",
                "4",
                "--db",
                &book_db,
            ],
            Some("22\n2233\n"),
        ),
        ("coins", &["coins", "10", "3", "4"], None),
        (
            "coins",
            &[
                "coins",
                "1000000000000000000000000",
                "7",
                "11",
                "--misere",
                "--pattern",
            ],
            None,
        ),
        (
            "coins",
            &["coins", "--batch"],
            Some("5 3 4\n\u{feff}x\n\n7 3 4\n"),
        ),
        (
            "subtraction",
            &["subtraction", "--moves", "1,3,4", "10", "11", "12"],
            None,
        ),
        (
            "subtraction",
            &["subtraction", "--moves", "2,3", "4", "5", "--misere"],
            None,
        ),
        (
            "subtraction",
            &["subtraction", "--moves", "1,3,4", "--grundy"],
            None,
        ),
        (
            "subtraction",
            &["subtraction", "--moves", "1,3,4", "--batch"],
            Some("1 2\n-3\n5\n"),
        ),
        ("stones", &["stones", "5", "3", "4", "5", "--line"], None),
        ("stones", &["stones", "2", "2", "--ties-win"], None),
        ("stones", &["stones", ""], None),
        ("stones", &["stones", "--batch"], Some("5 3 4 5\n1 x\n")),
        ("octal", &["octal", "0.77", "241"], None),
        ("octal", &["octal", "0.3F", "9"], None),
        ("octal", &["octal", "0.77", "1000000000000000000000"], None),
        ("octal", &["octal", "0.07", "5", "7", "--misere"], None),
        (
            "octal",
            &["octal", "0.137", "--upto", "100", "--values"],
            None,
        ),
        ("can-i-win", &["can-i-win", "10", "11"], None),
        ("can-i-win", &["can-i-win", "10", "100"], None),
        ("can-i-win", &["can-i-win", "20", "158"], None),
        (
            "can-i-win",
            &["can-i-win", "--pool", "2,3,5,7,11", "20", "--misere"],
            None,
        ),
        ("can-i-win", &["can-i-win", "10", "--all-targets"], None),
        (
            "can-i-win",
            &["can-i-win", "--batch"],
            Some("10 11\n20 158\n0 5\n"),
        ),
        ("values", &["values", "grundy", "--upto", "50"], None),
        ("values", &["values", "powers-of-two", "--upto", "30"], None),
        ("values", &["values", "half", "--upto", "30"], None),
        (
            "values",
            &["values", "subtract=1,3,4", "--upto", "30"],
            None,
        ),
        (
            "sum",
            &[
                "sum",
                "0.77:10",
                "grundy:12",
                "squares:100",
                "subtract=1,3,4:7",
                "nim:5",
            ],
            None,
        ),
        ("sum", &["sum", "nim:3", "nim:3"], None),
        (
            "sum",
            &["sum", "powers-of-two:100000000000000000000000", "nim:7"],
            None,
        ),
        ("sum", &["sum", "0.3F:9", "grundy:9", "--misere"], None),
        (
            "sum",
            &["sum", "domineering:..|..", "clobber:xo", "0.77:5"],
            None,
        ),
        (
            "sum",
            &["sum", "hackenbush:lr", "cutcake:3x1", "--to-move", "right"],
            None,
        ),
        ("tour", &["tour"], None),
        // The board games' own commands answer as query does.
        ("dodgem", &["dodgem", "x../x../.oo:o"], None),
        ("mu-torere", &["mu-torere"], None),
        ("quixo", &["quixo", "--size", "3", "x../..o/...:x"], None),
        ("teeko", &["teeko", "--size", "4", "--pieces", "3"], None),
        (
            "dobutsu",
            &["dobutsu", "--animals", "c", ".l./.c./LC./...:o"],
            None,
        ),
        (
            "hexapawn",
            &["hexapawn", "--width", "4", "--height", "3"],
            None,
        ),
        (
            "quixo",
            &["quixo", "--size", "5", "xxxx./oooo./oooo./...../.....:x"],
            None,
        ),
        (
            "query",
            &["query", "dodgem", "x../x../.oo:o", "--memory-limit", "1K"],
            None,
        ),
    ];
    for (command, args, input) in cases {
        check(command, args, *input);
    }
    let _ = std::fs::remove_file(&schema_db);
    let _ = std::fs::remove_file(&engine_db);
    let _ = std::fs::remove_file(&book_db);
}

/// Every game whose command is built from the registry answers its examples, edge cases and
/// a batch within its schema.
#[test]
fn every_registry_command_validates_against_its_schema() {
    let extra: &[(&str, &[&str])] = &[
        ("stone-game-2", &["stone-game-2", "5"]),
        ("stone-game-2", &["stone-game-2", "--m", "3", "1", "2", "3"]),
        ("stone-game-3", &["stone-game-3", "--", "-5"]),
        ("stone-game-6", &["stone-game-6", "7", "/", "1"]),
        ("stone-game-7", &["stone-game-7", "4"]),
        ("stone-game-8", &["stone-game-8", "4"]),
        (
            "stone-game-9",
            &["stone-game-9", "--removed", "2", "--second", "1", "1", "3"],
        ),
        ("stone-game-9", &["stone-game-9", "3"]),
        ("nim-game", &["nim-game", "0"]),
        ("nim-game", &["nim-game", "123456789012345678901234567890"]),
        ("divisor-game", &["divisor-game", "1"]),
        (
            "divisor-game",
            &["divisor-game", "1000000000000000000000000000000"],
        ),
        ("divisor-game", &["divisor-game", "999999999989"]),
        ("flip-game", &["flip-game", "--", "--"]),
        ("chalkboard-xor", &["chalkboard-xor", "5", "5"]),
        ("guess-number", &["guess-number", "1"]),
        ("guess-number", &["guess-number", "5", "9"]),
        (
            "cat-and-mouse",
            &[
                "cat-and-mouse",
                "--graph",
                "2,5/3/0,4,5/1,4,5/2,3/0,2,3",
                "3",
                "4",
                "cat",
            ],
        ),
        (
            "cat-and-mouse",
            &["cat-and-mouse", "--graph", "1,3/0/3/0,2", "0", "2", "cat"],
        ),
    ];
    for info in perfect_play::registry::GAMES {
        let Some(_) = extra.iter().find(|(g, _)| *g == info.name) else {
            continue;
        };
        for example in info.examples {
            let mut args = vec![info.name.to_string()];
            args.extend(example.words());
            let words: Vec<&str> = args.iter().map(String::as_str).collect();
            check(info.name, &words, None);
        }
        let lines: Vec<&str> = info.examples.iter().map(|e| e.position).collect();
        let input = format!("{}\nnot a position\n", lines.join("\n"));
        let mut args = vec![info.name.to_string(), "--batch".to_string()];
        args.extend(
            info.examples[0]
                .words()
                .into_iter()
                .take(info.examples[0].params.len() * 2),
        );
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        check(info.name, &words, Some(&input));
    }
    for (game, args) in extra {
        check(game, args, None);
    }
}

#[test]
fn the_schema_command_prints_the_published_schemas() {
    for command in COMMANDS {
        let out = run_with_input(&["schema", command], None);
        assert!(out.status.success());
        let printed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let mut published: Value =
            serde_json::from_str(schema(command).expect("schema")).expect("JSON");
        let file = std::fs::read_to_string(format!(
            "{}/schemas/{command}.schema.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("the schema is a file in the repository");
        assert_eq!(
            serde_json::from_str::<Value>(&file).expect("JSON"),
            published
        );
        if command == "tour" {
            // Printed bundled: the published schema with the ones it refers to embedded.
            for game in ["nim", "query", "connect-four"] {
                published["$defs"][game] = serde_json::from_str(schema(game).unwrap()).unwrap();
            }
            for (name, embedded) in printed["$defs"].as_object().unwrap() {
                published["$defs"][name] = embedded.clone();
            }
        }
        assert_eq!(printed, published, "{command}");
    }
}

/// `perfect-play schema tour` is self-contained: it validates the tour's output with no other
/// schema registered, and fails a wrong result inside it.
#[test]
fn the_printed_tour_schema_needs_no_other_file() {
    let out = run_with_input(&["schema", "tour"], None);
    let printed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let validator = jsonschema::options()
        .build(&printed)
        .expect("compiles alone");
    let tour = run_with_input(&["tour", "--json"], None);
    let mut instance: Value = serde_json::from_slice(&tour.stdout).expect("JSON");
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    instance["quixo"]["result"]["outcome"] = serde_json::json!("victory");
    assert!(!validator.is_valid(&instance));
}

#[test]
fn a_schema_rejects_the_old_vocabulary() {
    // The schemas are strict: a field outside the contract fails validation.
    let old = serde_json::json!({"game": "coins", "moves": [1, 3, 4], "misere": false});
    assert!(!validator("coins").is_valid(&old));
}
