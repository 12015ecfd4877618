//! Sum components (`GAME:HEAP`) and game names: parse, print back to the same game, and
//! answer small sums without panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::impartial::{Component, HeapGame, Limits, analyse_sum};

fuzz_target!(|text: &str| {
    if let Ok(game) = text.parse::<HeapGame>() {
        let again: HeapGame = game.to_string().parse().expect("a printed game parses");
        assert_eq!(again, game);
    }
    let parsed: Result<Vec<Component>, _> = text.split_whitespace().map(str::parse).collect();
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
