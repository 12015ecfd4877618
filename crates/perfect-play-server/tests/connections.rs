//! Connections the server bounds: slow headers and idle keep-alive are closed after the
//! header timeout, a client that half-closes after its request gets its answer, and past the
//! most connections a new one is closed at once.

use perfect_play::budget::{Admission, Cancel};
use perfect_play_server::{ConnectionLimits, Oracle, Refusal};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Answers every position at once.
struct Quick;

impl Oracle for Quick {
    fn games(&self) -> Value {
        json!({ "games": [] })
    }

    fn answer(
        &self,
        _: &str,
        params: &[(String, String)],
        _: &Cancel,
        _: Arc<dyn Admission>,
    ) -> Result<Value, Refusal> {
        // `bytes=N`: an answer of N bytes, for the client that never reads it.
        if let Some((_, n)) = params.iter().find(|(k, _)| k == "bytes") {
            return Ok(json!({ "filler": "x".repeat(n.parse().unwrap_or(0)) }));
        }
        Ok(json!({ "params": params.len() }))
    }
}

async fn serve(limits: ConnectionLimits) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(perfect_play_server::serve_with(
        listener,
        Arc::new(Quick),
        limits,
    ));
    address
}

const LIMITS: ConnectionLimits = ConnectionLimits {
    most_connections: 4,
    header_timeout: Duration::from_millis(500),
    write_timeout: Duration::from_millis(500),
};

const REQUEST: &[u8] = b"GET /api/v1/nim?position=1 HTTP/1.1\r\nHost: x\r\n\r\n";

/// Read until the server closes; what it sent.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut bytes)).await;
    String::from_utf8_lossy(&bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_and_idle_connections_are_closed_after_the_timeout() {
    let address = serve(LIMITS).await;
    // Half a header, then nothing.
    let mut slow = TcpStream::connect(address).await.unwrap();
    slow.write_all(b"GET /api/v1/nim?posi").await.unwrap();
    let start = Instant::now();
    let sent = until_closed(&mut slow).await;
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "closed after {took:?}");
    assert!(!sent.contains("200 OK"), "{sent}");
    // Connected, never a byte.
    let mut silent = TcpStream::connect(address).await.unwrap();
    let start = Instant::now();
    until_closed(&mut silent).await;
    assert!(start.elapsed() < Duration::from_secs(2));
    // One request answered on a kept-alive connection, then idle: closed too.
    let mut idle = TcpStream::connect(address).await.unwrap();
    idle.write_all(REQUEST).await.unwrap();
    let start = Instant::now();
    let sent = until_closed(&mut idle).await;
    assert!(sent.starts_with("HTTP/1.1 200"), "{sent}");
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_half_closes_after_its_request_gets_the_answer() {
    let address = serve(LIMITS).await;
    for _ in 0..20 {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream.write_all(REQUEST).await.unwrap();
        stream.shutdown().await.unwrap();
        let sent = until_closed(&mut stream).await;
        assert!(sent.starts_with("HTTP/1.1 200"), "{sent:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_most_connections_a_new_one_is_closed_at_once() {
    let address = serve(ConnectionLimits {
        header_timeout: Duration::from_secs(30),
        ..LIMITS
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..LIMITS.most_connections {
        held.push(TcpStream::connect(address).await.unwrap());
    }
    // Let the server take them all.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut extra = TcpStream::connect(address).await.unwrap();
    let _ = extra.write_all(REQUEST).await;
    let start = Instant::now();
    let sent = until_closed(&mut extra).await;
    assert!(sent.is_empty(), "{sent}");
    assert!(start.elapsed() < Duration::from_secs(1));
    // One of them closed, a new connection is served again.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = TcpStream::connect(address).await.unwrap();
    again.write_all(REQUEST).await.unwrap();
    let mut answer = [0u8; 12];
    again.read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
}

/// Audit item 6: a client that never read its answer held its connection 45 s and more. A
/// write that waits past the write timeout closes the connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_its_answer_is_let_go_of() {
    let address = serve(LIMITS).await;
    let body_bytes = 64 << 20;
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream
        .write_all(
            format!("GET /api/v1/nim?bytes={body_bytes} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    // Not read for well past the write timeout: the socket's buffers fill and the server's
    // write waits.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let start = Instant::now();
    let mut received = Vec::new();
    let read =
        tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut received)).await;
    assert!(read.is_ok(), "the connection was still open after 20 s");
    assert!(
        received.len() < body_bytes,
        "the whole answer came: {} bytes in {:?}",
        received.len(),
        start.elapsed()
    );
    assert!(String::from_utf8_lossy(&received[..12]).starts_with("HTTP/1.1 200"));
}
