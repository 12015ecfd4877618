//! The web explorer's API, against a server started in-process on a free port with the CLI's
//! own answers: every game, the sort order, each move's value against the position it leads
//! to, bad input, the budget refusal and garbage requests.

use perfect_play_cli::explorer::Explorer;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, OnceLock, mpsc};
use std::time::Duration;

/// A server with the default budget (2 s), shared by the tests.
fn server() -> SocketAddr {
    static ADDRESS: OnceLock<SocketAddr> = OnceLock::new();
    *ADDRESS.get_or_init(|| start(Explorer::default()))
}

fn start(explorer: Explorer) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        perfect_play_server::run("127.0.0.1", 0, Arc::new(explorer), |address| {
            tx.send(address).unwrap();
        })
        .unwrap();
    });
    rx.recv_timeout(Duration::from_secs(30)).unwrap()
}

/// Send raw bytes; the status and the body of the answer (status 0: the server closed the
/// connection without one). Reads one response, by its content-length.
fn raw(address: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request).unwrap();
    if !request.ends_with(b"\r\n\r\n") && !request.ends_with(b"xx") {
        // An incomplete request: say that no more is coming.
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 65536];
    loop {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse::<usize>().ok());
            if length.is_some_and(|n| body.len() >= n) {
                break;
            }
        }
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&buffer[..n]),
        }
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

fn get_at(address: SocketAddr, path: &str) -> (u16, Value) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    let (status, body) = raw(address, request.as_bytes());
    let json = serde_json::from_str(&body)
        .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {body:.200}"));
    (status, json)
}

fn get(path: &str) -> (u16, Value) {
    get_at(server(), path)
}

fn url(game: &str, query: &serde_json::Map<String, Value>) -> String {
    let mut q = form_urlencoded_pairs(query);
    q.sort();
    let encoded: Vec<String> = q
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect();
    format!("/api/v1/{game}?{}", encoded.join("&"))
}

fn form_urlencoded_pairs(query: &serde_json::Map<String, Value>) -> Vec<(String, String)> {
    query
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str().map_or_else(|| v.to_string(), str::to_string),
            )
        })
        .collect()
}

/// Percent-encoding of a query value (spaces as +).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b':' | b',' => {
                char::from(b).to_string()
            }
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The order: wins by increasing remoteness, then ties, draws, then losses by
/// decreasing remoteness (unknown remoteness last within its class); in a scoring game the
/// larger margin first within each class.
fn assert_sorted(moves: &[Value], context: &str) {
    let key = |m: &Value| {
        let r = m["remoteness"].as_i64();
        let margin = -m["margin"].as_i64().unwrap_or(0);
        match m["outcome"].as_str().unwrap() {
            "win" => (0, margin, r.unwrap_or(i64::MAX)),
            "tie" => (1, margin, r.unwrap_or(i64::MAX)),
            "draw" => (2, margin, 0),
            "loss" => (3, margin, r.map_or(i64::MAX, |r| -r)),
            other => panic!("{context}: outcome {other}"),
        }
    };
    for pair in moves.windows(2) {
        assert!(
            key(&pair[0]) <= key(&pair[1]),
            "{context}: {} before {}",
            pair[0],
            pair[1]
        );
    }
}

fn opposite(outcome: &str) -> &'static str {
    match outcome {
        "win" => "loss",
        "loss" => "win",
        "tie" => "tie",
        _ => "draw",
    }
}

#[test]
fn every_game_answers_its_examples_with_moves_best_first_that_lead_where_they_say() {
    let (status, games) = get("/api/v1/games");
    assert_eq!(status, 200);
    let games = games["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    for name in [
        "nim",
        "tic-tac-toe",
        "coins",
        "subtraction",
        "stones",
        "octal",
        "can-i-win",
        "sum",
        "connect-four",
        "dodgem",
        "mu-torere",
        "quixo",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    for game in games {
        let name = game["name"].as_str().unwrap();
        for example in game["examples"].as_array().unwrap() {
            let path = url(name, example.as_object().unwrap());
            let (status, answer) = get(&path);
            assert_eq!(status, 200, "{path}: {answer}");
            assert_eq!(answer["query"], *example, "{path}");
            let moves = answer["moves"].as_array().unwrap();
            assert!(!moves.is_empty(), "{path}: no moves");
            assert_sorted(moves, &path);
            for m in moves {
                assert!(m.get("position").is_some(), "{path}: {m}");
                assert!(m["ends_game"].is_boolean(), "{path}: {m}");
            }
            // Each move's value is the value of the position it leads to, seen from the other
            // side: opposite outcome, one move less to the end.
            for m in moves.iter().take(6) {
                if m["position"].is_null() {
                    assert!(m["ends_game"].as_bool().unwrap(), "{path}: {m}");
                    continue;
                }
                let child_path = url(name, m["query"].as_object().unwrap());
                let (status, child) = get(&child_path);
                assert_eq!(status, 200, "{child_path}: {child}");
                let outcome = m["outcome"].as_str().unwrap();
                if name == "stones" {
                    // A scoring game: the move's margin is the pile taken less the margin of
                    // the row it leaves.
                    let taken = if m["move"] == "left" {
                        &answer["piles"][0]
                    } else {
                        &answer["piles"][answer["pile_count"].as_u64().unwrap() as usize - 1]
                    };
                    assert_eq!(
                        m["margin"].as_i64().unwrap(),
                        taken.as_i64().unwrap() - child["margin"].as_i64().unwrap(),
                        "{path} -> {child_path}"
                    );
                    assert_eq!(
                        m["remoteness"].as_u64(),
                        child["remoteness"].as_u64().map(|r| r + 1)
                    );
                    continue;
                }
                if answer["margin"].is_i64() {
                    // The other scoring games (the Stone Game series, Guess Number, where the
                    // guesser moves again): their margins are checked move by move in the
                    // library's registry tests; here, that the move's query answers.
                    assert!(child["margin"].is_i64(), "{path} -> {child_path}");
                    continue;
                }
                assert_eq!(
                    child["outcome"].as_str().map(opposite),
                    Some(outcome),
                    "{path} -> {child_path}"
                );
                if let (Some(r), Some(c)) = (m["remoteness"].as_u64(), child["remoteness"].as_u64())
                {
                    assert_eq!(r, c + 1, "{path} -> {child_path}");
                }
            }
        }
    }
}

#[test]
fn the_answer_is_the_cli_json_with_the_moves_completed() {
    for (path, args) in [
        ("/api/v1/nim?position=3+4+5", vec!["nim", "3", "4", "5"]),
        (
            "/api/v1/coins?position=10+3+4&misere=true",
            vec!["coins", "10", "3", "4", "--misere"],
        ),
        (
            "/api/v1/can-i-win?position=20&pool=2,3,5,7,11",
            vec!["can-i-win", "20", "--pool", "2,3,5,7,11"],
        ),
        (
            "/api/v1/tic-tac-toe?position=x...o....",
            vec!["tic-tac-toe", "x...o...."],
        ),
        ("/api/v1/dodgem", vec!["query", "dodgem"]),
        (
            "/api/v1/stones?position=5+3+4+5&ties_win=true",
            vec!["stones", "5", "3", "4", "5", "--ties-win"],
        ),
    ] {
        let (status, api) = get(path);
        assert_eq!(status, 200, "{path}: {api}");
        let mut argv = vec!["perfect-play"];
        argv.extend(args);
        argv.push("--json");
        let run = perfect_play_cli::run_in_memory(&argv, b"", false);
        assert_eq!(run.status, 0, "{argv:?}");
        let cli: Value = serde_json::from_slice(&run.stdout).unwrap();
        for (field, value) in cli.as_object().unwrap() {
            if field == "moves" || field == "moves_complete" {
                continue;
            }
            assert_eq!(api[field], *value, "{path}: {field}");
        }
        // The same moves with the same values, reordered best first.
        if let Some(cli_moves) = cli["moves"].as_array() {
            let strip = |m: &Value| {
                serde_json::json!([m["move"], m["outcome"], m["remoteness"]]).to_string()
            };
            let mut a: Vec<String> = api["moves"].as_array().unwrap().iter().map(strip).collect();
            let mut b: Vec<String> = cli_moves.iter().map(strip).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{path}");
        }
    }
}

#[test]
fn heap_games_list_every_move_and_sums_their_winning_moves() {
    // Kayles 3 4: from 3, take 1 (leaving 2 or 1+1) or 2 (leaving 1 or 0+0...), from 4 more.
    let (_, kayles) = get("/api/v1/octal?position=0.77+3+4");
    let moves = kayles["moves"].as_array().unwrap();
    assert!(kayles["moves_complete"].as_bool().unwrap());
    let winning = kayles["winning_moves"].as_array().unwrap().len();
    assert_eq!(
        moves.iter().filter(|m| m["outcome"] == "win").count(),
        winning
    );
    assert!(moves.len() > winning);
    let (_, coins) = get("/api/v1/coins?position=10+3+4");
    let positions: Vec<&str> = coins["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["position"].as_str().unwrap())
        .collect();
    assert_eq!(positions.len(), 3);
    for p in ["9 3 4", "7 3 4", "6 3 4"] {
        assert!(positions.contains(&p), "{positions:?}");
    }
    // The coin game keeps X and Y as typed, even when X is 1 (the move set {1, 4}).
    let (_, ones) = get("/api/v1/coins?position=5+1+4");
    let mut after: Vec<&str> = ones["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["position"].as_str().unwrap())
        .collect();
    after.sort_unstable();
    assert_eq!(after, ["1 1 4", "4 1 4"]);
    // A sum lists every move of every component: 3 + 5 here, one of them winning.
    let (_, sum) = get("/api/v1/sum?position=nim:3+nim:5");
    assert_eq!(sum["moves_complete"], true);
    let moves = sum["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(moves.iter().filter(|m| m["outcome"] == "win").count(), 1);
    assert_eq!(moves[0]["position"], "nim:3 nim:3");
    assert_eq!(moves[0]["move"]["move"], "take 2");
    // Equal components are one: Kayles 4 + Kayles 4 lists the moves of the first only.
    let (_, twins) = get("/api/v1/sum?position=0.77:4+0.77:4");
    let listed = twins["moves"].as_array().unwrap();
    assert!(
        listed.iter().all(|m| m["move"]["component"] == 1),
        "{twins}"
    );
    assert!(listed.iter().all(|m| m["outcome"] == "loss"), "{twins}");
}

#[test]
fn bad_input_is_400_unknown_games_and_paths_404_with_a_json_error() {
    for (path, status) in [
        ("/api/v1/nim?position=3+x", 400),
        ("/api/v1/nim?position=--db+/tmp/x", 400),
        ("/api/v1/nim?position=-3", 400),
        ("/api/v1/nim?bogus=1", 400),
        ("/api/v1/nim?position=3&position=4", 400),
        ("/api/v1/nim?misere=maybe", 400),
        ("/api/v1/tic-tac-toe?position=xxxxxxxxx", 400),
        ("/api/v1/dodgem?size=99", 400),
        ("/api/v1/subtraction?moves=1,2", 400),
        ("/api/v1/octal?position=0.7z+3", 400),
        ("/api/v1/nim?position=%FF%FE", 400),
        ("/api/v1/nim?position=%zz", 400),
        ("/api/v1/chess?position=e4", 404),
        ("/api/v2/nim", 404),
        ("/nothing/here", 404),
    ] {
        let (got, body) = get(path);
        assert_eq!(got, status, "{path}: {body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path}: {body}"
        );
    }
    let (status, body) = raw(
        server(),
        b"POST /api/v1/nim HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 405, "{body}");
    assert!(body.contains("\"error\""));
}

#[test]
fn work_over_the_budget_is_refused_with_422_and_the_figure_at_once() {
    for path in [
        "/api/v1/can-i-win?position=30+300",
        "/api/v1/quixo?size=4",
        "/api/v1/connect-four?width=7&height=6&method=table",
        "/api/v1/stones?position=1&ties_win=false",
        // The values' own estimate (minutes), not the budget, is the figure (issue 30).
        "/api/v1/sum?position=grundy:100000000",
    ] {
        let clock = std::time::Instant::now();
        let (status, body) = get(path);
        if path.contains("stones") {
            assert_eq!(status, 200, "{path}: {body}");
            continue;
        }
        assert_eq!(status, 422, "{path}: {body}");
        assert!(body["estimate_seconds"].as_f64().unwrap() > 2.0, "{body}");
        assert_eq!(body["budget_seconds"], 2.0);
        assert!(body["error"].as_str().unwrap().contains("budget"), "{body}");
        assert!(
            clock.elapsed() < Duration::from_secs(1),
            "{path} was not refused at once"
        );
    }
    // A tiny budget refuses what the default budget answers.
    let tight = start(Explorer {
        budget_seconds: 1e-9,
        ..Explorer::default()
    });
    let (status, body) = get_at(tight, "/api/v1/stones?position=5+3+4+5+1+1+1+1+1+1");
    assert_eq!(status, 422, "{body}");
    let (status, body) = get_at(tight, "/api/v1/can-i-win?position=10+11");
    assert_eq!(status, 422, "{body}");
    // 64 moves near 10^8 and a pile past any table: any proof of a period needs at least
    // 3 * 10^8 pile values, about 29 s at 64 moves a pile; refused before any work (it took
    // 15.8 s to refuse).
    let moves: Vec<String> = (99_999_936..=99_999_999).map(|m| m.to_string()).collect();
    let path = format!(
        "/api/v1/subtraction?moves={}&position=1{}",
        moves.join(","),
        "0".repeat(1000)
    );
    let clock = std::time::Instant::now();
    let (status, body) = get(&path);
    assert_eq!(status, 422, "{body}");
    assert!(clock.elapsed() < Duration::from_secs(1), "{body}");
    assert!(body["estimate_seconds"].as_f64().unwrap() > 25.0, "{body}");
}

/// Issue 32: a 7 x 6 position by search. Late positions are answered at once; an early one
/// (without the shipped book) runs to the budget and is refused with what the search had
/// proven, never a guess.
#[test]
fn seven_by_six_is_searched_within_the_budget() {
    let (status, body) = get("/api/v1/connect-four?position=752276321466322433217754651351");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["method"], &body["outcome"]),
        (&json!("search"), &json!("loss"))
    );
    // Issue 48: the first plies come from the shipped opening book at once.
    let (status, body) = get("/api/v1/connect-four?position=4");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["method"], "book", "{body}");
    assert_eq!(body["book"]["shipped"], true, "{body}");
    let clock = std::time::Instant::now();
    let (status, body) = get("/api/v1/connect-four?position=4&book=none");
    assert_eq!(status, 422, "{body}");
    let message = body["error"].as_str().unwrap();
    assert!(message.contains("proven so far"), "{body}");
    assert!(body["estimate_seconds"].as_f64().unwrap() >= 2.0, "{body}");
    assert!(
        clock.elapsed() < Duration::from_secs(4),
        "stopped at the 2 s budget"
    );
}

/// Issue 48: a board past 64 bits through the API (c4's verified 10 x 6 position, its
/// columns 0-based there, one added here: a win in 5); over 128 bits refused with the figure.
#[test]
fn boards_past_64_bits_are_answered_and_past_128_refused() {
    let moves =
        "1,10,2,10,5,1,2,1,1,5,9,2,9,1,9,7,5,9,2,10,5,9,10,5,8,3,5,9,8,2,8,1,10,3,6,2,10,8,4,7,7";
    let (status, body) = get(&format!(
        "/api/v1/connect-four?width=10&height=6&position={moves}"
    ));
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["method"], &body["outcome"], &body["remoteness"]),
        (&json!("search"), &json!("win"), &json!(5))
    );
    let (status, body) = get("/api/v1/connect-four?width=16&height=8");
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("at most 128 (it is 144)"),
        "{body}"
    );
}

#[test]
fn garbage_requests_get_an_answer_and_the_server_keeps_serving() {
    let address = server();
    let long = format!("/api/v1/nim?position={}", "1+".repeat(10_000));
    let garbage: Vec<Vec<u8>> = vec![
        b"\x00\xff\xfe garbage\r\n\r\n".to_vec(),
        b"GET /api/v1/nim?position=\xff\xfe HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(),
        format!("GET {long} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").into_bytes(),
        format!(
            "GET /api/v1/nim HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
            "a".repeat(200_000)
        )
        .into_bytes(),
        b"GET /api/v1/nim HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999\r\nConnection: close\r\n\r\nxx".to_vec(),
        b"GET".to_vec(),
    ];
    for request in &garbage {
        let (status, body) = raw(address, request);
        assert!(
            status == 0 || (400..500).contains(&status),
            "{:?}: {status} {body:.200}",
            String::from_utf8_lossy(&request[..request.len().min(60)])
        );
    }
    let (status, body) = get_at(address, "/api/v1/nim?position=1+2+3");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "loss");
}

#[test]
fn the_openapi_document_describes_every_game_and_parameter() {
    let (status, doc) = get("/api/openapi.json");
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/api/v1/games"]["get"].is_object());
    for game in perfect_play::registry::GAMES {
        let operation = &doc["paths"][format!("/api/v1/{}", game.name)]["get"];
        assert!(
            operation.is_object(),
            "{} has no path in the document",
            game.name
        );
        let params: Vec<&str> = operation["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        let mut expected = vec!["position"];
        expected.extend(game.params.iter().map(|p| p.name));
        assert_eq!(params, expected, "{}", game.name);
        for (p, described) in game
            .params
            .iter()
            .zip(&operation["parameters"].as_array().unwrap()[1..])
        {
            assert_eq!(
                described["required"].as_bool().unwrap_or(false),
                p.required,
                "{} {}",
                game.name,
                p.name
            );
        }
        for code in ["200", "400", "404", "422"] {
            assert!(
                operation["responses"][code].is_object(),
                "{} {code}",
                game.name
            );
        }
    }
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    for (path, needle) in [
        ("/", "<title>perfect-play explorer</title>"),
        ("/app.js", "/api/v1/"),
        ("/style.css", "--win"),
        ("/vendor/uplot.iife.min.js", "uPlot"),
    ] {
        let request = format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        let (status, body) = raw(server(), request.as_bytes());
        assert_eq!(status, 200, "{path}");
        assert!(body.contains(needle), "{path}");
    }
}

/// The best line numbers moves as the API and `play` accept them: following `nim 3 4 5`'s
/// line move by move through the API's moves (an emptied heap leaves the position, so the
/// heaps after it move up) reaches the end.
#[test]
fn the_best_line_can_be_followed_move_by_move() {
    let explorer = Explorer::default();
    for start in ["3 4 5", "1 0 3 2", "2 2 5 1"] {
        let mut query = vec![("position".to_string(), start.to_string())];
        let first = explorer.answer("nim", &query).unwrap();
        let line = first["best_line"].as_array().unwrap().clone();
        for (i, step) in line.iter().enumerate() {
            let answer = explorer.answer("nim", &query).unwrap();
            let chosen = answer["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["move"]["heap"] == step["heap"] && m["move"]["take"] == step["take"])
                .unwrap_or_else(|| panic!("{start}: move {i} {step} is not a move of {answer}"));
            assert_eq!(
                chosen["move"]["leaves"], step["leaves"],
                "{start}: move {i}"
            );
            if i + 1 == line.len() {
                assert_eq!(chosen["ends_game"], true, "{start}: the line ends the game");
            } else {
                query = chosen["query"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                    .collect();
            }
        }
    }
}

/// The second audit (issue 30): the documented `values=true&upto=N` of an octal code was
/// refused without heaps ("give a position"); the code alone is the game with no heaps.
#[test]
fn an_octal_code_alone_gives_its_values() {
    let address = server();
    let (status, body) = get_at(address, "/api/v1/octal?position=0.77&values=true&upto=10");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["values"], json!([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2]));
    assert_eq!(
        (&body["outcome"], &body["moves"]),
        (&json!("loss"), &json!([]))
    );
    assert_eq!(body["position"], "0.77");
}
