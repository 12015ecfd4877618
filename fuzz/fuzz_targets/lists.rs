//! Comma lists: Can I Win pools and subtraction move sets, through to the types that check
//! them (distinct, positive, at most 64); a refusal never quotes an entry whole (audit 3).
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::{can_i_win::Pool, parse, subtraction::SubtractionSet};

fuzz_target!(|text: &str| {
    if let Err(e) = parse::list_in(text, 0, 64) {
        let message = e.to_string();
        assert!(message.len() <= 1024, "{} bytes: {message}", message.len());
    }
    if let Ok(values) = parse::list_in(text, 1, u64::MAX) {
        if let Ok(pool) = Pool::new(values.clone()) {
            assert_eq!(pool.len(), values.len());
        }
    }
    if let Ok(moves) = parse::list_in(text, 1, perfect_play::subtraction::MAX_MOVE) {
        let _ = SubtractionSet::new(&moves);
    }
});
