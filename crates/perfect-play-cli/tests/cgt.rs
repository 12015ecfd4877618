//! `cgt`: partizan values in CGSuite's notation, end to end.

mod common;

use common::{assert_bad_input, json, run};

#[test]
fn a_sum_is_valued_and_explained() {
    let v = json(&["cgt", "{1|-1} + ^ + *"]);
    assert_eq!(v["value"], "{1^*|-1^*}");
    assert_eq!(v["outcome_class"], "N");
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(
        (v["left_stop"].as_str(), v["right_stop"].as_str()),
        (Some("1"), Some("-1"))
    );
    // Domineering's 2 x 2 board and its negative cancel.
    let zero = json(&["cgt", "{1|-1} - +-1"]);
    assert_eq!(zero["value"], "0");
    assert_eq!(zero["outcome_class"], "P");
    let right = json(&["cgt", "{2|0||0}", "--to-move", "right"]);
    assert_eq!(right["value"], "Miny(2)");
    assert_eq!(right["to_move"], "right");
    assert_eq!(right["first_player_wins"], true);
    let text = String::from_utf8(run(&["cgt", "-1/2"]).stdout).unwrap();
    assert!(
        text.contains("Right wins moving first or second: the value -1/2 is negative."),
        "{text}"
    );
}

#[test]
fn bad_values_are_refused_in_one_line() {
    assert!(assert_bad_input(&["cgt", "{1|2|3}"]).contains("which splits first"));
    assert!(assert_bad_input(&["cgt", "1/3"]).contains("not a power of two"));
    assert!(assert_bad_input(&["cgt", "{"]).contains("never closed"));
    assert!(assert_bad_input(&["--memory-limit", "1K", "cgt", "*30"]).contains("--memory-limit"));
    let long = "x".repeat(100_000);
    assert!(assert_bad_input(&["cgt", &long]).len() < 300);
}

#[test]
fn temperature_thermograph_and_the_operations_are_told() {
    // Winning Ways' {3||2|1}: temperature 3/4, mean 9/4.
    let v = json(&["cgt", "{3|{2|1}}"]);
    assert_eq!(v["temperature"], "3/4");
    assert_eq!(v["mean"], "9/4");
    assert_eq!(v["thermograph"]["left_wall"][0]["value"], "4");
    assert_eq!(v["left_options"][0], "3");
    assert_eq!(v["atomic_weight"], serde_json::Value::Null);
    let up = json(&["cgt", "^", "--compare", "*"]);
    assert_eq!(up["atomic_weight"], "1");
    assert_eq!(up["comparison"]["relation"], "<>");
    assert_eq!(up["left_incentives"][0], "v");
    let cooled = json(&["cgt", "{1|-1}", "--cool", "1"]);
    assert_eq!(cooled["value"], "*");
    assert_eq!(cooled["operation"]["of"], "+-1");
    let heated = json(&["cgt", "*", "--heat", "1"]);
    assert_eq!(heated["value"], "+-1");
    assert_eq!(
        json(&["cgt", "1/2", "--compare", "{0|1}"])["comparison"]["relation"],
        "="
    );
    let text = String::from_utf8(run(&["cgt", "{3||2*|1*}"]).stdout).unwrap();
    assert!(text.contains("Temperature 3/4, mean 9/4."), "{text}");
    assert!(text.contains("Reduced canonical form {3||2|1}."), "{text}");
}

#[test]
fn operations_out_of_their_domain_are_refused() {
    assert!(assert_bad_input(&["cgt", "^", "--cool", "*"]).contains("not a number"));
    assert!(assert_bad_input(&["cgt", "^", "--cool", "-1"]).contains("above -1"));
    assert!(assert_bad_input(&["cgt", "^", "--compare", "{"]).contains("never closed"));
}

/// The partizan games' own commands: the value and every move, a graph read from a file,
/// bad input refused in one line.
#[test]
fn partizan_games_answer_from_their_commands() {
    let v = json(&["domineering", "..|..", "--to-move", "right"]);
    assert_eq!(v["value"], "+-1");
    assert_eq!(v["player"], "right");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 2);
    let v = json(&["toads-and-frogs", "tft.tff"]);
    assert_eq!(v["value"], "^");
    assert_eq!(v["outcome_class"], "L");
    // A blue triangle on the ground is 3: every cut leaves two blue edges standing.
    let dir = std::env::temp_dir().join(format!("pp-hackenbush-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("triangle.txt");
    std::fs::write(&file, "# a blue triangle\ng a l\na b l\nb g l\n").unwrap();
    let at = format!("@{}", file.display());
    let v = json(&["hackenbush", &at]);
    assert_eq!(v["value"], "3");
    assert_eq!(v["position"], "g 1 l; g 2 l; 1 2 l");
    let text = String::from_utf8(run(&["cutcake", "4x3"]).stdout).unwrap();
    assert!(
        text.contains("The first player (Left) to move wins."),
        "{text}"
    );
    assert!(text.contains("4x3@2"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(assert_bad_input(&["domineering", "..|."]).contains("Domineering"));
    assert!(assert_bad_input(&["clobber", "xz"]).contains("'z'"));
    assert!(assert_bad_input(&["hackenbush", "g a q"]).contains("colour"));
    assert!(assert_bad_input(&["cutcake", "4x3", "--to-move", "up"]).contains("left or right"));
    assert!(assert_bad_input(&["hackenbush", "@/nonexistent/edges"]).contains("POSITION"));
}
