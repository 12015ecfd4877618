//! The web explorer's questions: `GAME?QUERY` as the server receives them, parsed by the
//! server's query parser and answered by the explorer under small limits. No panic; an answer
//! lists its moves best first, each with the position it leads to or null.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play_cli::explorer::{ExploreError, Explorer};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (game, raw) = text.split_once('?').unwrap_or((&text, ""));
    let params = perfect_play_server::parse_query(raw);
    let explorer = Explorer {
        budget_seconds: 0.5,
        small_limits: true,
        ..Explorer::default()
    };
    match explorer.answer(game, &params) {
        Ok(answer) => {
            let moves = answer["moves"].as_array().expect("moves");
            let rank = |m: &serde_json::Value| match m["outcome"].as_str() {
                Some("win") => 0,
                Some("tie") => 1,
                Some("draw") => 2,
                Some("loss") => 3,
                other => panic!("outcome {other:?}"),
            };
            for pair in moves.windows(2) {
                assert!(rank(&pair[0]) <= rank(&pair[1]), "{answer}");
            }
            for m in moves {
                assert!(m["position"].is_string() || m["position"].is_null(), "{m}");
            }
        }
        Err(ExploreError::UnknownGame(_) | ExploreError::BadInput(_)) => {}
        Err(ExploreError::Cancelled) => panic!("cancelled with no one to cancel it"),
        Err(ExploreError::Busy(_)) => panic!("turned away with no lane"),
        // A fault on the server's side comes only from a served file, and none is served.
        Err(ExploreError::Internal(message)) => panic!("a server fault with no file: {message}"),
        Err(ExploreError::OverBudget {
            estimate_seconds,
            budget_seconds,
            ..
        }) => {
            assert!(estimate_seconds >= budget_seconds);
        }
    }
});
