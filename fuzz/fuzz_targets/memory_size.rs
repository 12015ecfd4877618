//! Memory sizes such as 512M or 8GiB; a refusal never quotes the text whole (audit 3).
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::parse;

fuzz_target!(|text: &str| {
    if let Ok(bytes) = parse::size(text) {
        assert_eq!(parse::size(&bytes.to_string()), Ok(bytes));
        let _ = parse::human_size(bytes);
    }
    if let Err(e) = parse::size(text) {
        let message = e.to_string();
        assert!(message.len() <= 1024, "{} bytes: {message}", message.len());
    }
});
