//! Memory sizes such as 512M or 8GiB.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::parse;

fuzz_target!(|text: &str| {
    if let Ok(bytes) = parse::size(text) {
        assert_eq!(parse::size(&bytes.to_string()), Ok(bytes));
        let _ = parse::human_size(bytes);
    }
});
