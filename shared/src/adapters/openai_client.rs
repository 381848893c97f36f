//! The one HTTP client of the OpenAI-compatible adapters (correction, examiner,
//! transcription, speech): explicit time-outs well under API Gateway's 30 s, a bounded number of
//! retries with backoff and jitter on 429, 5xx and time-outs (or the server's Retry-After),
//! and a key that is never logged.

use std::time::{Duration, Instant};

use rand::Rng;
use serde_json::Value;

/// The whole call, retries included, ends before this: API Gateway gives up at 30 s.
pub const TOTAL_BUDGET: Duration = Duration::from_secs(24);
/// One attempt's limit.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(15);
/// Attempts in all (the first and two retries).
pub const MAX_ATTEMPTS: u32 = 3;

/// Why a call failed, after any retries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No answer in time (ms waited).
    Timeout(u64),
    /// The server could not be reached or kept failing; the status and the start of its body.
    Failed(String),
    /// A 2xx whose body is not JSON.
    NotJson(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Timeout(ms) => write!(f, "timed out after {ms} ms"),
            Self::Failed(d) => write!(f, "failed: {d}"),
            Self::NotJson(d) => write!(f, "answer is not JSON: {d}"),
        }
    }
}

/// What to send; built again for each attempt (a multipart form cannot be reused).
pub enum Payload {
    Json(Value),
    /// One file field plus text fields.
    Form {
        file_field: &'static str,
        file_name: &'static str,
        mime: &'static str,
        bytes: Vec<u8>,
        fields: Vec<(&'static str, String)>,
    },
}

pub struct OpenAiClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    budget: Duration,
    attempt_timeout: Duration,
    base_backoff: Duration,
}

impl std::fmt::Debug for OpenAiClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiClient")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .finish()
    }
}

impl OpenAiClient {
    pub fn new(base_url: &str, api_key: Option<&str>) -> Self {
        Self {
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(3))
                .build()
                .unwrap_or_default(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: api_key.map(str::to_owned),
            budget: TOTAL_BUDGET,
            attempt_timeout: ATTEMPT_TIMEOUT,
            base_backoff: Duration::from_millis(400),
        }
    }

    /// Shorter limits, for tests against a stand-in server.
    pub fn with_limits(mut self, budget: Duration, attempt: Duration, backoff: Duration) -> Self {
        self.budget = budget;
        self.attempt_timeout = attempt;
        self.base_backoff = backoff;
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// POSTs to `{base}/{path}` and reads a JSON answer, retrying what is worth retrying.
    pub async fn post(&self, path: &str, payload: &Payload) -> Result<Value, CallError> {
        let body = self.post_for_bytes(path, payload).await?;
        serde_json::from_slice(&body).map_err(|e| CallError::NotJson(e.to_string()))
    }

    /// POSTs to `{base}/{path}` and reads the answer's bytes (audio), retrying what is worth
    /// retrying: 429, 5xx, time-outs and connections dropped before the whole answer came.
    pub async fn post_for_bytes(
        &self,
        path: &str,
        payload: &Payload,
    ) -> Result<bytes::Bytes, CallError> {
        let started = Instant::now();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let left = self.budget.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(CallError::Timeout(millis(self.budget)));
            }
            match self
                .attempt(path, payload, left.min(self.attempt_timeout))
                .await
            {
                Ok(v) => return Ok(v),
                Err(Failure::Final(e)) => return Err(e),
                Err(Failure::Retry(e, retry_after)) => {
                    if attempt >= MAX_ATTEMPTS {
                        return Err(e);
                    }
                    // Exponential backoff with jitter, or the server's Retry-After.
                    let cap = millis(self.base_backoff * 2u32.pow(attempt - 1)).max(1);
                    let wait = retry_after.unwrap_or_else(|| {
                        Duration::from_millis(rand::thread_rng().gen_range(cap / 2..=cap))
                    });
                    let left = self.budget.saturating_sub(started.elapsed());
                    if wait + Duration::from_millis(500) >= left {
                        return Err(e);
                    }
                    tracing::warn!(path, attempt, error = %e, wait_ms = millis(wait), "call failed, retrying");
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    async fn attempt(
        &self,
        path: &str,
        payload: &Payload,
        timeout: Duration,
    ) -> Result<bytes::Bytes, Failure> {
        let mut call = self
            .http
            .post(format!("{}/{path}", self.base_url))
            .timeout(timeout);
        call = match payload {
            Payload::Json(v) => call.json(v),
            Payload::Form {
                file_field,
                file_name,
                mime,
                bytes,
                fields,
            } => {
                let part = reqwest::multipart::Part::bytes(bytes.clone())
                    .file_name(*file_name)
                    .mime_str(mime)
                    .map_err(|e| Failure::Final(CallError::Failed(format!("form: {e}"))))?;
                let mut form = reqwest::multipart::Form::new().part(*file_field, part);
                for (k, v) in fields {
                    form = form.text(*k, v.clone());
                }
                call.multipart(form)
            }
        };
        if let Some(key) = &self.api_key {
            call = call.bearer_auth(key);
        }
        let res = call.send().await.map_err(|e| {
            let err = if e.is_timeout() {
                CallError::Timeout(millis(timeout))
            } else {
                CallError::Failed(format!("request failed: {}", e.without_url()))
            };
            Failure::Retry(err, None)
        })?;
        let status = res.status();
        if status.is_success() {
            return res.bytes().await.map_err(|e| {
                let err = if e.is_timeout() {
                    CallError::Timeout(millis(timeout))
                } else {
                    CallError::Failed(format!("answer cut off: {}", e.without_url()))
                };
                Failure::Retry(err, None)
            });
        }
        let retry_after = res
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text: String = res
            .text()
            .await
            .unwrap_or_default()
            .chars()
            .take(300)
            .collect();
        let err = CallError::Failed(format!("status {status}: {text}"));
        if status.as_u16() == 429 || status.is_server_error() {
            Err(Failure::Retry(err, retry_after))
        } else {
            Err(Failure::Final(err))
        }
    }
}

enum Failure {
    Retry(CallError, Option<Duration>),
    Final(CallError),
}

pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The text of a chat completion's first choice; a refusal or a missing content is an error.
pub fn message_content(answer: &Value) -> Result<&str, String> {
    let choice = answer
        .pointer("/choices/0/message")
        .ok_or_else(|| "no choices[0].message".to_owned())?;
    if let Some(refusal) = choice.get("refusal").and_then(Value::as_str)
        && !refusal.is_empty()
    {
        return Err(format!("refused: {refusal}"));
    }
    choice
        .get("content")
        .and_then(Value::as_str)
        .ok_or_else(|| "no message content".to_owned())
}
