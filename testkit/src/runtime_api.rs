//! A Lambda Runtime API on loopback: what AWS Lambda offers a `provided.al2023` function's
//! `bootstrap`. A test starts a function's real binary with `AWS_LAMBDA_RUNTIME_API` pointing
//! here, queues events, and reads the responses the binary posts back.
//! <https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html>

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;
use tokio::sync::{Notify, oneshot};

/// What the function answered to one invocation.
#[derive(Debug)]
pub enum Outcome {
    Response(Value),
    /// `/invocation/{id}/error` or `/init/error`: the function's error report.
    Error(Value),
}

#[derive(Default)]
struct Inner {
    queue: Mutex<VecDeque<(String, Value)>>,
    waiting: Mutex<HashMap<String, oneshot::Sender<Outcome>>>,
    init_error: Mutex<Option<Value>>,
    ready: Notify,
}

pub struct RuntimeApi {
    /// `host:port`, the value of `AWS_LAMBDA_RUNTIME_API`.
    pub address: String,
    inner: Arc<Inner>,
    next_id: std::sync::atomic::AtomicU64,
}

impl RuntimeApi {
    pub async fn start() -> Self {
        let inner = Arc::new(Inner::default());
        let app = Router::new()
            .route("/2018-06-01/runtime/invocation/next", get(next))
            .route(
                "/2018-06-01/runtime/invocation/{id}/response",
                post(respond),
            )
            .route("/2018-06-01/runtime/invocation/{id}/error", post(error))
            .route("/2018-06-01/runtime/init/error", post(init_error))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the runtime API");
        let address = listener.local_addr().expect("address").to_string();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            address,
            inner,
            next_id: std::sync::atomic::AtomicU64::new(1),
        }
    }

    /// Queues `event` for the function and waits for its answer.
    pub async fn invoke(&self, event: Value, timeout: Duration) -> Result<Outcome, String> {
        let id = format!(
            "req-{:08}",
            self.next_id
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let (tx, rx) = oneshot::channel();
        lock(&self.inner.waiting).insert(id.clone(), tx);
        lock(&self.inner.queue).push_back((id, event));
        self.inner.ready.notify_one();
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(outcome)) => Ok(outcome),
            Ok(Err(_)) => Err("the invocation was dropped".into()),
            Err(_) => Err(match lock(&self.inner.init_error).clone() {
                Some(e) => format!("the function failed to start: {e}"),
                None => format!("no answer within {timeout:?}"),
            }),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn next(State(inner): State<Arc<Inner>>) -> Response {
    loop {
        // Register interest before looking, so a notify between the two is not lost.
        let notified = inner.ready.notified();
        if let Some((id, event)) = lock(&inner.queue).pop_front() {
            let deadline = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() + 30_000)
                .unwrap_or(0);
            let mut headers = HeaderMap::new();
            let mut set = |k: &'static str, v: String| {
                if let Ok(v) = HeaderValue::from_str(&v) {
                    headers.insert(k, v);
                }
            };
            set("lambda-runtime-aws-request-id", id);
            set("lambda-runtime-deadline-ms", deadline.to_string());
            set(
                "lambda-runtime-invoked-function-arn",
                "arn:aws:lambda:us-east-1:123456789012:function:test".into(),
            );
            set(
                "lambda-runtime-trace-id",
                "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=0".into(),
            );
            set("content-type", "application/json".into());
            return (StatusCode::OK, headers, event.to_string()).into_response();
        }
        notified.await;
    }
}

fn deliver(inner: &Inner, id: &str, outcome: Outcome) -> StatusCode {
    match lock(&inner.waiting).remove(id) {
        Some(tx) => {
            let _ = tx.send(outcome);
            StatusCode::ACCEPTED
        }
        None => StatusCode::BAD_REQUEST,
    }
}

async fn respond(
    State(inner): State<Arc<Inner>>,
    Path(id): Path<String>,
    body: Bytes,
) -> StatusCode {
    let value = serde_json::from_slice(&body)
        .unwrap_or(Value::String(String::from_utf8_lossy(&body).into()));
    deliver(&inner, &id, Outcome::Response(value))
}

async fn error(State(inner): State<Arc<Inner>>, Path(id): Path<String>, body: Bytes) -> StatusCode {
    let value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    deliver(&inner, &id, Outcome::Error(value))
}

async fn init_error(State(inner): State<Arc<Inner>>, body: Bytes) -> StatusCode {
    *lock(&inner.init_error) = Some(serde_json::from_slice(&body).unwrap_or(Value::Null));
    StatusCode::ACCEPTED
}
