//! Sum components (`GAME:HEAP`) and game names: parse, print back to the same game, and
//! answer small sums without panicking; a refusal never quotes a component whole (audit 3,
//! item 16: `sum` printed a bad value of 100 KB in its message).
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::impartial::{Component, HeapGame, Limits, analyse_sum};

fuzz_target!(|text: &str| {
    let short = |message: String| {
        assert!(message.len() <= 1024, "{} bytes: {message}", message.len());
    };
    match text.parse::<HeapGame>() {
        Ok(game) => {
            let again: HeapGame = game.to_string().parse().expect("a printed game parses");
            assert_eq!(again, game);
        }
        Err(e) => short(e.to_string()),
    }
    let parsed: Result<Vec<Component>, _> = text.split_whitespace().map(str::parse).collect();
    if let Err(e) = &parsed {
        short(e.to_string());
    }
    if let Ok(components) = parsed {
        let small = Limits {
            max_values: 4096,
            max_work: 1_000_000,
            max_misere_states: 1000,
            ..Limits::default()
        };
        let _ = analyse_sum(&components, &small);
    }
});
