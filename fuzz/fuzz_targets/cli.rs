//! The whole command line, in-process: arbitrary arguments and stdin under small limits. No
//! panic, and the exit status is 0 (answered) or 2 (refused: one line on stderr, a
//! line per refused line in batches, each of a bounded length: the third audit found values printed whole in refusals).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Arguments are NUL-separated; what follows the first empty argument is stdin.
    let (argv, stdin) = match data.windows(2).position(|w| w == b"\0\0") {
        Some(i) => (&data[..i], &data[i + 2..]),
        None => (data, &b""[..]),
    };
    let args: Vec<std::ffi::OsString> = std::iter::once("perfect-play".into())
        .chain(
            argv.split(|&b| b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned().into()),
        )
        .collect();
    let out = perfect_play_cli::run_in_memory(args, stdin, true);
    assert!(out.status == 0 || out.status == 2, "status {}", out.status);
    if out.status == 2 {
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(text.starts_with("perfect-play: "), "{text}");
        assert!(!text.contains("panicked"));
        // Batch commands write a line per refused input line, each bounded alike.
        for line in text.lines() {
            assert!(line.starts_with("perfect-play: "), "{line}");
            assert!(line.len() <= 2048, "{} bytes: {line}", line.len());
        }
    }
});
