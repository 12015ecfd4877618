//! The perfect-play web explorer: a JSON API over the games and a page to see and play them.
//!
//! This crate is the HTTP layer only: routes, errors as JSON, the answer cache, the OpenAPI
//! document and the page's assets (embedded, so the binary serves them with nothing else on
//! disk). What a position is worth comes from an [`Oracle`] the caller hands over; the
//! `perfect-play` binary hands over its own commands' answers, so the API's JSON is the CLI's.
//!
//! Every request gets an answer: bad input is 400, an unknown game or path 404, a query whose
//! estimated cost is above the per-request budget 422 (refused before any work, never queued),
//! each with `{"error": "..."}`. Work under way is cancelled when the budget runs out (then
//! 422 too, "stopped at the budget"), and when hyper drops the request (a connection reset).
//! Long work (by its estimate) waits for a place in the [`lane`], or is turned away (503).

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use lru::LruCache;
use perfect_play::budget::{Admission, Cancel};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod lane;
use tokio::sync::Semaphore;

/// Why an oracle does not answer.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// No such game (404).
    #[error("{0}")]
    NotFound(String),
    /// The position or a parameter is not accepted (400).
    #[error("{0}")]
    BadRequest(String),
    /// The estimated cost is above the budget (422).
    #[error("{message}")]
    OverBudget {
        /// The sentence with the figure.
        message: String,
        /// The estimate, in seconds.
        estimate_seconds: f64,
        /// The budget, in seconds.
        budget_seconds: f64,
    },
    /// The work was cancelled through the [`Cancel`] it was given.
    #[error("the answer was cancelled before it was ready")]
    Cancelled,
    /// Long work turned away by the lane (503 with `Retry-After`).
    #[error("{message}")]
    Busy {
        /// The sentence with the figures.
        message: String,
        /// Seconds after which to ask again.
        retry_after: u64,
    },
    /// A fault on the server's side, such as a served file that cannot be read (500, never
    /// cached: the next request may be answered).
    #[error("{0}")]
    Internal(String),
}

/// What the server asks about games.
pub trait Oracle: Send + Sync + 'static {
    /// Every game with its parameters and example positions (`GET /api/v1/games`).
    fn games(&self) -> Value;
    /// The answer for `game` with these query parameters (`position` among them); long work
    /// stops with [`Refusal::Cancelled`] once `cancel` is raised, and asks `admission` before
    /// it starts with its estimate.
    fn answer(
        &self,
        game: &str,
        params: &[(String, String)],
        cancel: &Cancel,
        admission: Arc<dyn Admission>,
    ) -> Result<Value, Refusal>;
    /// Seconds one answer may take, counted from the request's arrival: past them the work
    /// is cancelled and the request answered 422. None: no deadline.
    fn budget_seconds(&self) -> Option<f64> {
        None
    }
}

/// Raises its flag when dropped: a handler dropped because its client left cancels the work
/// it started.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The longest query string accepted (bytes): far past any real position.
pub const MAX_QUERY_BYTES: usize = 8 << 10;

/// Answers computed at once. Quick ones take a millisecond or so; long ones are few at a time
/// in the lane; this bounds the threads.
const ANSWERS_AT_ONCE: usize = 64;

/// Answers kept in memory, most recently used first.
const CACHE_ENTRIES: usize = 4_096;

/// The bytes the kept answers may take in all (`serve --help` says so).
pub const CACHE_BYTES: usize = 256 << 20;

/// An answer larger than this is sent but not kept: a few such would crowd out thousands of
/// ordinary ones, and it is rarely asked twice.
pub const MAX_CACHED_ANSWER_BYTES: usize = 1 << 20;

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The page and its assets, embedded: (path, content type, body). uPlot is the chart
/// library (MIT; see assets/vendor/README.md).
const ASSETS: [(&str, &str, &str); 5] = [
    ("/", HTML, include_str!("../assets/index.html")),
    ("/app.js", JS, include_str!("../assets/app.js")),
    ("/style.css", CSS, include_str!("../assets/style.css")),
    (
        "/vendor/uplot.iife.min.js",
        JS,
        include_str!("../assets/vendor/uplot.iife.min.js"),
    ),
    (
        "/vendor/uplot.min.css",
        CSS,
        include_str!("../assets/vendor/uplot.min.css"),
    ),
];

/// The OpenAPI document's fixed part: the game list's path and the components. The games'
/// paths are added from the oracle's list ([`openapi_document`]).
pub const OPENAPI_BASE: &str = include_str!("../assets/openapi.json");

/// The OpenAPI document of the API: [`OPENAPI_BASE`] with one path per game of `games` (the
/// oracle's `/api/v1/games` object), its parameters typed as the game's parameters are.
#[must_use]
pub fn openapi_document(games: &Value) -> Value {
    let mut document: Value = serde_json::from_str(OPENAPI_BASE).unwrap_or_else(|_| json!({}));
    let reply = |description: &str, schema: &str| {
        json!({
            "description": description,
            "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}},
        })
    };
    for game in games["games"].as_array().into_iter().flatten() {
        let name = game["name"].as_str().unwrap_or_default();
        let examples: serde_json::Map<String, Value> = game["examples"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, e)| (format!("example{}", i + 1), json!({"value": e["position"]})))
            .collect();
        let mut parameters = vec![json!({
            "name": "position",
            "in": "query",
            "required": false,
            "schema": {"type": "string"},
            "description": format!("the position: {}", game["notation"].as_str().unwrap_or_default()),
            "examples": examples,
        })];
        for param in game["params"].as_array().into_iter().flatten() {
            let schema = match param["type"].as_str() {
                Some("boolean") => json!({"type": "boolean"}),
                Some("integer") => {
                    let mut schema = json!({"type": "integer", "minimum": param["minimum"].as_u64().unwrap_or(0)});
                    if let Some(max) = param["maximum"].as_u64() {
                        schema["maximum"] = json!(max);
                    }
                    schema
                }
                Some("list") => json!({"type": "string", "pattern": "^[0-9]+(,[0-9]+)*$"}),
                _ => json!({"type": "string"}),
            };
            let default = param["default"]
                .as_str()
                .filter(|d| !d.is_empty())
                .unwrap_or("none");
            parameters.push(json!({
                "name": param["name"],
                "in": "query",
                "required": param["required"].as_bool().unwrap_or(false),
                "schema": schema,
                "description": format!(
                    "{} (the CLI flag --{}; default {default})",
                    param["help"].as_str().unwrap_or_default(),
                    param["name"].as_str().unwrap_or_default().replace('_', "-")
                ),
            }));
        }
        document["paths"][format!("/api/v1/{name}")] = json!({
            "get": {
                "operationId": name,
                "summary": format!("{}: one position's value, every move best first, and where each leads", game["title"].as_str().unwrap_or(name)),
                "description": format!("Answers as `{} --json` does.", game["command"].as_str().unwrap_or_default()),
                "parameters": parameters,
                "responses": {
                    "200": reply("the answer", "Answer"),
                    "400": reply("a position or parameter that is not accepted", "Error"),
                    "404": reply("no such game", "Error"),
                    "422": reply("the estimated time is above the per-request budget (refused before any work), or the work ran past the budget and was stopped", "OverBudget"),
                    "500": reply("a fault on the server's side, such as a served database that cannot be read; never kept, so a later request may be answered", "Error"),
                    "503": reply("long answers are turned away for now (too many waiting), or every worker stayed busy for the whole budget; try again after Retry-After seconds", "Error"),
                },
            }
        });
    }
    document
}

type CacheKey = (String, Vec<(String, String)>);

/// The answers kept, least recently used let go of first, bounded in entries and in bytes
/// (keys and bodies counted), so that large answers cannot fill the server's memory.
struct AnswerCache {
    entries: LruCache<CacheKey, (StatusCode, Arc<str>)>,
    bytes: usize,
    max_bytes: usize,
}

impl AnswerCache {
    fn new(max_entries: usize, max_bytes: usize) -> AnswerCache {
        AnswerCache {
            entries: LruCache::new(NonZeroUsize::new(max_entries).unwrap_or(NonZeroUsize::MIN)),
            bytes: 0,
            max_bytes,
        }
    }

    /// The bytes an entry holds: its key's strings, its body and the bookkeeping.
    fn size(key: &CacheKey, body: &str) -> usize {
        let params: usize = key.1.iter().map(|(k, v)| k.len() + v.len() + 48).sum();
        key.0.len() + params + body.len() + 96
    }

    fn get(&mut self, key: &CacheKey) -> Option<(StatusCode, Arc<str>)> {
        self.entries.get(key).cloned()
    }

    fn put(&mut self, key: CacheKey, status: StatusCode, body: Arc<str>) {
        let size = AnswerCache::size(&key, &body);
        if size > self.max_bytes {
            return;
        }
        if let Some((_, old)) = self.entries.pop(&key) {
            self.bytes -= AnswerCache::size(&key, &old);
        }
        while self.bytes + size > self.max_bytes || self.entries.len() == self.entries.cap().get() {
            match self.entries.pop_lru() {
                Some((k, (_, b))) => self.bytes -= AnswerCache::size(&k, &b),
                None => break,
            }
        }
        self.bytes += size;
        self.entries.put(key, (status, body));
    }
}

struct Shared {
    oracle: Arc<dyn Oracle>,
    /// The OpenAPI document, made once from the oracle's games.
    openapi: String,
    cache: Mutex<AnswerCache>,
    /// Answers computed at once, quick and long: past them a request waits (its budget
    /// counting).
    workers: Semaphore,
    /// The places of long answers (see [`lane`]).
    lane: Arc<lane::Lane>,
}

/// The routes, ready to serve.
pub fn router(oracle: Arc<dyn Oracle>) -> Router {
    let openapi = openapi_document(&oracle.games()).to_string();
    let shared = Arc::new(Shared {
        oracle,
        openapi,
        cache: Mutex::new(AnswerCache::new(CACHE_ENTRIES, CACHE_BYTES)),
        workers: Semaphore::new(ANSWERS_AT_ONCE),
        lane: Arc::new(lane::Lane::for_this_machine()),
    });
    let mut router = Router::new();
    for (path, content_type, body) in ASSETS {
        router = router.route(path, get(move || async move { asset(content_type, body) }));
    }
    router
        .route("/api/openapi.json", get(openapi_json))
        .route("/api/v1/games", get(games))
        .route("/api/v1/{game}", get(position))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(shared)
}

/// What the server allows its connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once; past them a new connection is closed at once.
    pub most_connections: usize,
    /// How long a connection may take to send a request's headers, and stay idle between
    /// requests: slow or silent clients are closed after it.
    pub header_timeout: Duration,
    /// How long a write to a client may wait for it to read: a client that stops reading
    /// its answer is closed after it, its memory and worker let go of.
    pub write_timeout: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            most_connections: 1024,
            header_timeout: Duration::from_secs(5),
            write_timeout: Duration::from_secs(10),
        }
    }
}

/// Serve on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    oracle: Arc<dyn Oracle>,
) -> std::io::Result<()> {
    serve_with(listener, oracle, ConnectionLimits::default()).await
}

/// [`serve`] with these connection limits.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    oracle: Arc<dyn Oracle>,
    limits: ConnectionLimits,
) -> std::io::Result<()> {
    serve_until(listener, oracle, limits, std::future::pending()).await
}

/// Serve on `listener` until `shutdown` completes. Each connection is HTTP/1.1 with a
/// deadline for its headers (idle keep-alive included), answers a client that half-closed
/// after its request, and counts against the most connections.
async fn serve_until(
    listener: tokio::net::TcpListener,
    oracle: Arc<dyn Oracle>,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let service = hyper_util::service::TowerToHyperService::new(router(oracle));
    let connections = Arc::new(Semaphore::new(limits.most_connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .half_close(true);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => return Ok(()),
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of file descriptors, a connection reset before it was taken: the listener
            // goes on after a breath.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            continue; // over the bound: dropped, so closed
        };
        let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
        stream.set_write_timeout(Some(limits.write_timeout));
        let connection = http.serve_connection(
            hyper_util::rt::TokioIo::new(Box::pin(stream)),
            service.clone(),
        );
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
}

/// Bind `host:port`, call `ready` with the address bound (port 0 picks a free one), and serve
/// until Ctrl-C. Builds its own runtime: the caller need not be async.
pub fn run(
    host: &str,
    port: u16,
    oracle: Arc<dyn Oracle>,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((host, port)).await?;
        ready(listener.local_addr()?);
        serve_until(listener, oracle, ConnectionLimits::default(), async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// A JSON response with CORS open, so that other pages may call the API.
fn json_response(status: StatusCode, body: String) -> Response<String> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

fn error(status: StatusCode, message: &str) -> Response<String> {
    json_response(status, json!({ "error": message }).to_string())
}

async fn not_found() -> Response<String> {
    error(
        StatusCode::NOT_FOUND,
        "no such page: the API is under /api/v1/ (see /api/openapi.json)",
    )
}

async fn method_not_allowed(method: Method) -> Response<String> {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!("{method} is not served here: every route answers GET"),
    )
}

async fn openapi_json(State(shared): State<Arc<Shared>>) -> Response<String> {
    json_response(StatusCode::OK, shared.openapi.clone())
}

async fn games(State(shared): State<Arc<Shared>>) -> Response<String> {
    json_response(StatusCode::OK, shared.oracle.games().to_string())
}

/// The query string as name/value pairs; bad percent-encoding or bytes that are not UTF-8
/// become U+FFFD, which no game accepts, so they are refused with the game's own message.
pub fn parse_query(raw: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(raw.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

async fn position(
    State(shared): State<Arc<Shared>>,
    Path(game): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response<String> {
    let raw = raw.unwrap_or_default();
    if raw.len() > MAX_QUERY_BYTES {
        return error(
            StatusCode::BAD_REQUEST,
            &format!(
                "the query is {} bytes, over the limit of {MAX_QUERY_BYTES}",
                raw.len()
            ),
        );
    }
    let mut params = parse_query(&raw);
    params.sort();
    let key = (game, params);
    if let Some((status, body)) = shared.cache.lock().ok().and_then(|mut c| c.get(&key)) {
        return json_response(status, body.to_string());
    }
    // The budget counts from the arrival: the wait for a worker is part of it.
    let budget = shared.oracle.budget_seconds();
    let deadline = budget.map(|b| tokio::time::Instant::now() + Duration::from_secs_f64(b));
    let Ok(permit) = until(deadline, shared.workers.acquire()).await else {
        return over_budget_waiting(budget);
    };
    let Ok(_permit) = permit else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is shutting down",
        );
    };
    let cancel = Cancel::new();
    let _cancel_when_dropped = CancelOnDrop(cancel.clone());
    let oracle = Arc::clone(&shared.oracle);
    let (game, params) = key.clone();
    let worker_cancel = cancel.clone();
    let ticket = Arc::new(lane::Ticket::new(
        Arc::clone(&shared.lane),
        deadline.map(tokio::time::Instant::into_std),
        cancel.clone(),
    ));
    let mut work =
        tokio::task::spawn_blocking(move || oracle.answer(&game, &params, &worker_cancel, ticket));
    let answered = match until(deadline, &mut work).await {
        Ok(answered) => answered,
        Err(_) => {
            // Past the budget: the work stops at its next look at the flag (well under a
            // second) and its worker comes free; the refusal is not cached (a quieter moment
            // may answer it).
            cancel.cancel();
            let _ = work.await;
            return over_budget_stopped(budget);
        }
    };
    let (status, body) = match answered {
        Ok(Ok(value)) => (StatusCode::OK, value),
        Ok(Err(Refusal::NotFound(message))) => (StatusCode::NOT_FOUND, json!({ "error": message })),
        Ok(Err(Refusal::BadRequest(message))) => {
            (StatusCode::BAD_REQUEST, json!({ "error": message }))
        }
        Ok(Err(Refusal::OverBudget {
            message,
            estimate_seconds,
            budget_seconds,
        })) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({
                "error": message,
                "estimate_seconds": estimate_seconds,
                "budget_seconds": budget_seconds,
            }),
        ),
        // Raised only here, past the deadline, or by a client gone (nobody reads this).
        Ok(Err(Refusal::Cancelled)) => return over_budget_stopped(budget),
        // Turned away at once (too many waiting), or waited for a place until the deadline:
        // then it is over its budget like any work stopped there.
        Ok(Err(Refusal::Busy { .. }))
            if deadline.is_some_and(|d| tokio::time::Instant::now() >= d) =>
        {
            return over_budget_stopped(budget);
        }
        Ok(Err(Refusal::Busy {
            message,
            retry_after,
        })) => return busy(&message, retry_after),
        Ok(Err(Refusal::Internal(message))) => {
            return error(StatusCode::INTERNAL_SERVER_ERROR, &message);
        }
        Err(_) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the answer failed unexpectedly; please report the query",
            );
        }
    };
    let body = body.to_string();
    // Answers and refusals are functions of the query alone: both are kept, within the
    // cache's bytes, except an answer too large to be worth a place.
    if body.len() <= MAX_CACHED_ANSWER_BYTES
        && let Ok(mut cache) = shared.cache.lock()
    {
        cache.put(key, status, body.as_str().into());
    }
    json_response(status, body)
}

/// `future`, or `Err` once `deadline` passes (never without one).
async fn until<F: std::future::IntoFuture>(
    deadline: Option<tokio::time::Instant>,
    future: F,
) -> Result<F::Output, tokio::time::error::Elapsed> {
    match deadline {
        Some(deadline) => tokio::time::timeout_at(deadline, future).await,
        None => Ok(future.await),
    }
}

/// 422 for work stopped at the budget.
fn over_budget_stopped(budget: Option<f64>) -> Response<String> {
    let budget = budget.unwrap_or(0.0);
    json_response(
        StatusCode::UNPROCESSABLE_ENTITY,
        json!({
            "error": format!("the answer needs more than the budget of {budget:.1} s; ask the perfect-play command instead"),
            "estimate_seconds": budget,
            "budget_seconds": budget,
        })
        .to_string(),
    )
}

/// 503 for long work turned away by the lane: not cached, it may be answered later.
fn busy(message: &str, retry_after: u64) -> Response<String> {
    let mut response = error(StatusCode::SERVICE_UNAVAILABLE, message);
    if let Ok(value) = HeaderValue::from_str(&retry_after.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// 503 for a request whose budget ran out while it waited for a worker.
fn over_budget_waiting(budget: Option<f64>) -> Response<String> {
    let mut response = error(
        StatusCode::SERVICE_UNAVAILABLE,
        &format!(
            "every worker stayed busy for the whole budget of {:.1} s; try again shortly",
            budget.unwrap_or(0.0)
        ),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: usize) -> CacheKey {
        (
            "stone-game-6".into(),
            vec![("position".into(), n.to_string())],
        )
    }

    /// Audit item 6: 4,096 answers with no bound in bytes; 280 distinct 32 MB answers ended
    /// the server. The cache now holds its bytes, least recently used let go of first.
    #[test]
    fn the_answer_cache_holds_its_bytes() {
        let mut cache = AnswerCache::new(4_096, 10_000);
        let body: Arc<str> = "x".repeat(1_000).into();
        for n in 0..100 {
            cache.put(key(n), StatusCode::OK, Arc::clone(&body));
            assert!(cache.bytes <= 10_000, "{} bytes", cache.bytes);
        }
        assert!(cache.entries.len() < 10, "{} entries", cache.entries.len());
        // The most recent are kept, the oldest let go of.
        assert!(cache.get(&key(99)).is_some());
        assert!(cache.get(&key(0)).is_none());
        // One answer larger than the whole cache is not kept and evicts nothing.
        let kept = cache.entries.len();
        cache.put(key(1_000), StatusCode::OK, "y".repeat(20_000).into());
        assert!(cache.get(&key(1_000)).is_none());
        assert_eq!(cache.entries.len(), kept);
        // The same key again replaces its bytes, not adds them.
        let before = cache.bytes;
        cache.put(key(99), StatusCode::OK, Arc::clone(&body));
        assert_eq!(cache.bytes, before);
        // The count bound still holds.
        let mut small = AnswerCache::new(3, usize::MAX);
        for n in 0..10 {
            small.put(key(n), StatusCode::OK, Arc::clone(&body));
        }
        assert_eq!(small.entries.len(), 3);
    }
}
