//! Pile and heap sizes, bounded counts and big integers: never a panic, and an accepted
//! number prints back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::parse;

fuzz_target!(|text: &str| {
    if let Ok(n) = parse::natural(text) {
        assert_eq!(parse::natural(&n.to_string()), Ok(n));
    }
    if let Ok(v) = parse::count_in(text, 1, 64) {
        assert!((1..=64).contains(&v));
    }
    if let Ok(v) = parse::integer_in(text, i128::from(i64::MIN), i128::from(i64::MAX)) {
        assert_eq!(
            parse::integer_in(&v.to_string(), i128::from(i64::MIN), i128::from(i64::MAX)),
            Ok(v)
        );
    }
    let _ = parse::count(text).map(|v| assert_eq!(parse::count(&v.to_string()), Ok(v)));
});
