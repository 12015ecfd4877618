//! `perfect-play graph`: games given as graphs, in both formats, good and bad files.

mod common;

use common::{assert_bad_input, json, run_with_input};

fn scratch(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("pp-graph-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// LeetCode 913, "Cat and Mouse", as an edge list: positions `m{mouse}c{cat}{turn}`; the
/// mouse wins on reaching hole 0, the cat on reaching the mouse; the cat may not enter the
/// hole; play that repeats forever is a draw. LeetCode's answer: 1 mouse wins, 2 cat wins,
/// 0 draw.
fn cat_and_mouse(graph: &[&[usize]]) -> String {
    let mut text = String::from("# Cat and Mouse\n");
    let name = |m: usize, c: usize, mouse_turn: bool| {
        format!("m{m}c{c}{}", if mouse_turn { "M" } else { "C" })
    };
    // The start first: the mouse at 1, the cat at 2, the mouse to move.
    let mut order = vec![(1, 2, true)];
    for m in 0..graph.len() {
        for c in 1..graph.len() {
            for turn in [true, false] {
                if (m, c, turn) != (1, 2, true) {
                    order.push((m, c, turn));
                }
            }
        }
    }
    for (m, c, mouse_turn) in order {
        let here = name(m, c, mouse_turn);
        if m == 0 {
            // The mouse is home: whoever is to move, the mouse has won.
            let result = if mouse_turn { "win" } else { "loss" };
            text.push_str(&format!("{here} ={result}\n"));
        } else if m == c {
            let result = if mouse_turn { "loss" } else { "win" };
            text.push_str(&format!("{here} ={result}\n"));
        } else if mouse_turn {
            for &next in graph[m] {
                text.push_str(&format!("{here} {}\n", name(next, c, false)));
            }
        } else {
            for &next in graph[c].iter().filter(|&&n| n != 0) {
                text.push_str(&format!("{here} {}\n", name(m, next, true)));
            }
        }
    }
    text
}

#[test]
fn cat_and_mouse_gives_leetcodes_answers() {
    for (graph, expected) in [
        (
            vec![
                &[2, 5][..],
                &[3],
                &[0, 4, 5],
                &[1, 4, 5],
                &[2, 3],
                &[0, 2, 3],
            ],
            "draw",
        ),
        (vec![&[1, 3][..], &[0], &[3], &[0, 2]], "win"),
        // The cat sits between the mouse and the hole.
        (vec![&[2][..], &[2], &[0, 1]], "loss"),
    ] {
        let text = cat_and_mouse(&graph);
        let out = run_with_input(&["graph", "-", "--json"], Some(&text));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(answer["start"], "m1c2M");
        assert_eq!(answer["outcome"], expected, "{graph:?}: {answer}");
    }
}

#[test]
fn both_formats_give_the_same_answer() {
    let json_file = scratch(
        "small.json",
        r#"{"start": "A", "moves": {"A": ["B", "C"], "B": ["A"], "C": []}, "results": {"C": "loss"}}"#,
    );
    let edges = scratch("small.txt", "A B\nA C\nB A\nC =loss\n");
    let a = json(&["graph", json_file.to_str().unwrap(), "--all"]);
    let b = json(&["graph", edges.to_str().unwrap(), "--all"]);
    assert_eq!(a, b);
    assert_eq!(a["outcome"], "win");
    assert_eq!(a["remoteness"], 1);
    assert_eq!(a["winning_moves"], serde_json::json!(["C", "B"]));
    assert_eq!(a["values"].as_array().unwrap().len(), 3);
    let b_position = json(&["graph", edges.to_str().unwrap(), "--position", "B"]);
    assert_eq!(b_position["outcome"], "loss");
    assert_eq!(b_position["remoteness"], 2);
    std::fs::remove_file(json_file).unwrap();
    std::fs::remove_file(edges).unwrap();
}

#[test]
fn bad_graph_files_are_one_line_with_the_line_number() {
    let bad = scratch("bad.txt", "A B\n# fine\nA B C\n");
    let stderr = assert_bad_input(&["graph", bad.to_str().unwrap()]);
    assert!(stderr.contains("line 3: expected FROM TO"), "{stderr}");
    let unknown = assert_bad_input(&["graph", bad.to_str().unwrap(), "--position", "Z"]);
    assert!(unknown.contains("line 3"), "{unknown}");
    let missing = assert_bad_input(&["graph", "/nonexistent/graph.txt"]);
    assert!(
        missing.contains("cannot read /nonexistent/graph.txt"),
        "{missing}"
    );
    let good = scratch("good.txt", "A B\n");
    let unknown = assert_bad_input(&["graph", good.to_str().unwrap(), "--position", "Z"]);
    assert!(unknown.contains("no position \"Z\""), "{unknown}");
    let bad_json = scratch("bad.json", "{\"moves\": {\"A\": 3}}");
    let stderr = assert_bad_input(&["graph", bad_json.to_str().unwrap()]);
    assert!(stderr.contains("list of positions"), "{stderr}");
    for path in [bad, good, bad_json] {
        std::fs::remove_file(path).unwrap();
    }
}
