//! Pile and heap sizes, bounded counts and big integers: never a panic, and an accepted
//! number prints back to itself. The third audit's classes: a refusal quotes the value
//! shortened, never whole (a 100 KB value once made a 100 KB line), and `-0` is refused as a
//! count by every reader alike.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::parse;
use perfect_play::registry::answers::stones::parse_row;

/// The longest refusal: the value shortened to 40 characters (up to 10 bytes each once
/// escaped), the range accepted, a sentence; far less than the inputs the fuzzer writes.
const MESSAGE_BYTES: usize = 1024;

fn short(error: impl std::fmt::Display) {
    let message = error.to_string();
    assert!(
        message.len() <= MESSAGE_BYTES,
        "{} bytes: {message}",
        message.len()
    );
}

fn unsigned(text: &str) {
    assert!(
        !text.trim().starts_with('-'),
        "a count accepted with a minus sign: {text:?}"
    );
}

fuzz_target!(|text: &str| {
    match parse::natural(text) {
        Ok(n) => {
            unsigned(text);
            assert_eq!(parse::natural(&n.to_string()), Ok(n));
        }
        Err(e) => short(e),
    }
    match parse::count_in(text, 1, 64) {
        Ok(v) => assert!((1..=64).contains(&v)),
        Err(e) => short(e),
    }
    match parse::integer_in(text, i128::from(i64::MIN), i128::from(i64::MAX)) {
        Ok(v) => assert_eq!(
            parse::integer_in(&v.to_string(), i128::from(i64::MIN), i128::from(i64::MAX)),
            Ok(v)
        ),
        Err(e) => short(e),
    }
    match parse::count(text) {
        Ok(v) => {
            unsigned(text);
            assert_eq!(parse::count(&v.to_string()), Ok(v));
        }
        Err(e) => short(e),
    }
    // A row of Stone Game piles, as `stones` reads it.
    if let Err(e) = parse_row(text) {
        short(e);
    }
});
