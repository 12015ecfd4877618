//! Octal checkpoint files: any bytes opened as Officers' checkpoint are refused with a typed
//! error or read back whole, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use perfect_play::octal::{GrundyCheckpoint, OctalCode};

fuzz_target!(|bytes: &[u8]| {
    let path = std::env::temp_dir().join(format!("pp-fuzz-checkpoint-{}", std::process::id()));
    std::fs::write(&path, bytes).expect("a scratch file");
    let code: OctalCode = "0.6".parse().expect("Officers");
    if let Ok(checkpoint) = GrundyCheckpoint::open(&path, &code) {
        let values = checkpoint
            .values()
            .expect("a checkpoint that opened reads back");
        assert_eq!(values.len(), checkpoint.saved());
    }
});
