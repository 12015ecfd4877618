//! Octal and hexadecimal-looking codes: parse, and a parsed code prints back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::octal::OctalCode;

fuzz_target!(|text: &str| {
    if let Ok(code) = text.parse::<OctalCode>() {
        let again: OctalCode = code.to_string().parse().expect("a printed code parses");
        assert_eq!(again, code);
        let _ = code.largest_removal();
    }
});
