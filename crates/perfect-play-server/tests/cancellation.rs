//! Work under way stops when its budget runs out (the request gets 422 within the budget and
//! half a second), its client there or gone.

use perfect_play::budget::{Admission, Cancel};
use perfect_play_server::{Oracle, Refusal};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An oracle whose every answer is work that only its flag stops (or a minute).
struct Endless {
    budget: Option<f64>,
    /// Answers stopped by their flag.
    stopped: AtomicU32,
}

impl Oracle for Endless {
    fn games(&self) -> Value {
        json!({ "games": [] })
    }

    fn answer(
        &self,
        _: &str,
        _: &[(String, String)],
        cancel: &Cancel,
        _: Arc<dyn Admission>,
    ) -> Result<Value, Refusal> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if cancel.is_cancelled() {
                self.stopped.fetch_add(1, Ordering::SeqCst);
                return Err(Refusal::Cancelled);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(json!({ "ran": "a minute" }))
    }

    fn budget_seconds(&self) -> Option<f64> {
        self.budget
    }
}

/// Serve `oracle` on a free port of the loopback.
async fn serve(oracle: Arc<Endless>) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(perfect_play_server::serve(listener, oracle));
    address
}

const REQUEST: &[u8] =
    b"GET /api/v1/nim?position=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_past_the_budget_is_stopped_and_answered_422_in_time() {
    let oracle = Arc::new(Endless {
        budget: Some(0.5),
        stopped: AtomicU32::new(0),
    });
    let address = serve(Arc::clone(&oracle)).await;
    let start = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(REQUEST).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let took = start.elapsed();
    assert!(response.starts_with("HTTP/1.1 422"), "{response}");
    assert!(response.contains("budget of 0.5 s"), "{response}");
    assert!(took < Duration::from_secs(1), "answered after {took:?}");
    // The worker was stopped, not left running.
    assert_eq!(oracle.stopped.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_stops_at_its_deadline_when_its_client_leaves() {
    // A client gone and one that half-closed to wait for its answer look the same to the
    // server (a FIN), and the second is answered: the work left behind stops at the budget.
    let oracle = Arc::new(Endless {
        budget: Some(1.0),
        stopped: AtomicU32::new(0),
    });
    let address = serve(Arc::clone(&oracle)).await;
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(REQUEST).await.unwrap();
    let asked = Instant::now();
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(stream);
    while oracle.stopped.load(Ordering::SeqCst) == 0 {
        assert!(
            asked.elapsed() < Duration::from_millis(1500),
            "the work ran on past its budget after its client left"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// An oracle that fails on the server's side until told it is mended, counting its calls.
struct Faulty {
    mended: std::sync::atomic::AtomicBool,
    calls: AtomicU32,
}

impl Oracle for Faulty {
    fn games(&self) -> Value {
        json!({ "games": [] })
    }

    fn answer(
        &self,
        _: &str,
        _: &[(String, String)],
        _: &Cancel,
        _: Arc<dyn Admission>,
    ) -> Result<Value, Refusal> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self.mended.load(Ordering::SeqCst) {
            Ok(json!({ "answer": "mended" }))
        } else {
            Err(Refusal::Internal(
                "the served database cannot be read".into(),
            ))
        }
    }

    fn budget_seconds(&self) -> Option<f64> {
        Some(2.0)
    }
}

async fn ask(address: std::net::SocketAddr) -> String {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(REQUEST).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response
}

/// Audit item 12: a served database changed and restored byte for byte kept answering 400
/// from the cache. A fault on the server's side is 500 and never kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fault_on_the_servers_side_is_500_and_not_kept() {
    let oracle = Arc::new(Faulty {
        mended: std::sync::atomic::AtomicBool::new(false),
        calls: AtomicU32::new(0),
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(perfect_play_server::serve(
        listener,
        Arc::clone(&oracle) as Arc<dyn Oracle>,
    ));
    for _ in 0..2 {
        let response = ask(address).await;
        assert!(response.starts_with("HTTP/1.1 500"), "{response}");
        assert!(response.contains("cannot be read"), "{response}");
    }
    oracle.mended.store(true, Ordering::SeqCst);
    let response = ask(address).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    // The answer now is kept: asked again, the oracle is not called.
    let _ = ask(address).await;
    assert_eq!(oracle.calls.load(Ordering::SeqCst), 3);
}
