//! Batch input of any bytes, to each batch command: every non-blank line gets exactly one
//! JSON object on stdout, carrying its line number.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, input)) = data.split_first() else {
        return;
    };
    let args: &[&str] = match which % 4 {
        0 => &["perfect-play", "coins", "--batch"],
        1 => &["perfect-play", "subtraction", "--moves", "1,3,4", "--batch"],
        2 => &["perfect-play", "stones", "--batch"],
        _ => &["perfect-play", "can-i-win", "--batch"],
    };
    let out = perfect_play_cli::run_in_memory(args.iter().copied(), input, true);
    assert!(out.status == 0 || out.status == 2, "status {}", out.status);
    // A line is blank when it is UTF-8 and only white space (as `str::trim` sees it); every
    // other line, bad bytes included, gets one answer.
    let answered = input
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(i, l)| {
            let l = if *i == 0 {
                l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l)
            } else {
                l
            };
            std::str::from_utf8(l).map_or(true, |t| !t.trim().is_empty())
        })
        .count();
    let lines: Vec<&[u8]> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len(), answered, "one answer per non-blank line");
    for line in lines {
        let text = std::str::from_utf8(line).expect("JSON output is UTF-8");
        assert!(text.contains("\"line\":"), "{text}");
        // A refused line's message quotes the line shortened (audit 3, item 16).
        let answer: serde_json::Value = serde_json::from_str(text).expect("one JSON object");
        if let Some(error) = answer.get("error").and_then(|e| e.as_str()) {
            assert!(error.len() <= 1024, "{} bytes: {error}", error.len());
        }
    }
});
