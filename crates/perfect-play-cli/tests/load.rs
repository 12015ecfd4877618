//! The server under load, on the loopback: heavy requests (Can I Win on 27 numbers, about
//! 0.2 s each and estimated at 1 s, every one a different target so that none is cached)
//! from 20 clients at once, and quick ones (Nim on three heaps under 10, a millisecond each:
//! the first thousand positions each asked once) from 50 clients,
//! each asking every 50 ms. Every request is answered within its budget (2 s) and half a
//! second, none with a 5xx, and the quick ones' 99th percentile stays under 50 ms.
//!
//! The server is the optimised binary (a load test of the test profile's build measures the
//! build): `PERFECT_PLAY_SERVER`, by default `target/release/perfect-play`. Ignored in the
//! suite (it takes its full duration): `.ci/run` builds the binary and runs it with
//! `cargo test --workspace --test load -- --ignored --nocapture`; `LOAD_SECONDS` sets the
//! duration (default 20).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The server process, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `perfect-play serve --port 0` from the optimised binary, and the address it serves on.
fn start() -> (Server, SocketAddr) {
    let binary = std::env::var("PERFECT_PLAY_SERVER").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../target/release/perfect-play"
        )
        .to_string()
    });
    let mut child = Command::new(&binary)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{binary}: {e}; build it with cargo build --release"));
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if let Some(at) = line.find("http://") {
            let rest = &line[at + 7..];
            let address = rest[..rest.find('/').unwrap_or(rest.len())]
                .parse()
                .unwrap();
            return (server, address);
        }
    }
    panic!("the server printed no address");
}

/// One request on its own connection: the status (0 when the connection failed) and the
/// time to the whole answer.
fn get(address: SocketAddr, path: &str) -> (u16, Duration) {
    let start = Instant::now();
    let Ok(mut stream) = TcpStream::connect(address) else {
        return (0, start.elapsed());
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return (0, start.elapsed());
    }
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let took = start.elapsed();
    let status = String::from_utf8_lossy(&response)
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, took)
}

#[test]
#[ignore = "a load test of LOAD_SECONDS (20 s): run by .ci/run"]
fn quick_answers_stay_quick_while_heavy_ones_are_bounded() {
    let seconds: u64 = std::env::var("LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let (_server, address) = start();
    let end = Instant::now() + Duration::from_secs(seconds);
    let unique = Arc::new(AtomicU64::new(0));
    let run = |heavy: bool| {
        let unique = Arc::clone(&unique);
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            while Instant::now() < end {
                let n = unique.fetch_add(1, Ordering::Relaxed);
                let path = if heavy {
                    format!("/api/v1/can-i-win?position=27+{}", 100 + n % 270)
                } else {
                    format!(
                        "/api/v1/nim?position={}+{}+{}",
                        n % 10,
                        n / 10 % 10,
                        n / 100 % 10
                    )
                };
                seen.push(get(address, &path));
                if !heavy {
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
            seen
        })
    };
    let heavy: Vec<_> = (0..20).map(|_| run(true)).collect();
    let quick: Vec<_> = (0..50).map(|_| run(false)).collect();
    let heavy: Vec<(u16, Duration)> = heavy.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let mut quick: Vec<(u16, Duration)> =
        quick.into_iter().flat_map(|t| t.join().unwrap()).collect();
    quick.sort_by_key(|&(_, took)| took);
    let p99 = quick[quick.len() * 99 / 100].1;
    let slowest = heavy.iter().chain(&quick).map(|&(_, t)| t).max().unwrap();
    let count =
        |seen: &[(u16, Duration)], status: u16| seen.iter().filter(|r| r.0 == status).count();
    println!(
        "{seconds} s: {} quick answers (p50 {:?}, p99 {p99:?}), {} heavy (200: {}, 422: {}), slowest {slowest:?}",
        quick.len(),
        quick[quick.len() / 2].1,
        heavy.len(),
        count(&heavy, 200),
        count(&heavy, 422),
    );
    for (status, took) in heavy.iter().chain(&quick) {
        assert!(
            [200, 422].contains(status),
            "status {status} after {took:?}"
        );
    }
    assert!(
        count(&quick, 200) == quick.len(),
        "a quick query was refused"
    );
    assert!(count(&heavy, 200) > 0, "no heavy query was answered");
    assert!(
        slowest < Duration::from_millis(2500),
        "an answer took {slowest:?}"
    );
    assert!(p99 < Duration::from_millis(50), "quick p99 {p99:?}");
}
