//! Tic-tac-toe boards: parse, and a parsed board prints back to one that parses the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::tic_tac_toe::Board;

fuzz_target!(|text: &str| {
    if let Ok(board) = text.parse::<Board>() {
        let again: Board = board.to_string().parse().expect("a printed board parses");
        assert_eq!(again, board);
    }
});
