//! Transport-free API: handlers take an [`ApiRequest`] and return an
//! [`ApiResponse`] or an [`ApiError`]. The Lambda edge (`crate::lambda`) and the
//! local server both build an `ApiRequest`, look the route up in [`routes`] and
//! call [`respond`]: the same code answers in production and on a laptop.

pub mod error;
pub mod exams;
pub mod me;
pub mod openapi;
pub mod payments;
pub mod plans;
pub mod routes;
pub mod speaking;
pub mod view_cache;
pub mod writing;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use bytes::Bytes;
use http::StatusCode;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use error::ApiError;
pub use routes::{ROUTES, Route, RouteMatch, find_route};

use crate::App;
use crate::domain::Identity;

/// The largest request body most routes accept.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The largest request body of the transcription route: a 60 s recording, base64-encoded.
pub const MAX_AUDIO_BODY_BYTES: usize = 1024 * 1024;

/// The largest body `route` accepts.
pub fn max_body(route: &Route) -> usize {
    if route.name == "transcription" {
        MAX_AUDIO_BODY_BYTES
    } else {
        MAX_BODY_BYTES
    }
}

/// A request as handlers see it, whatever carried it.
#[derive(Debug, Default, Clone)]
pub struct ApiRequest {
    /// The verified caller, or `None` when no valid token came with the request.
    pub identity: Option<Identity>,
    pub params: HashMap<String, String>,
    pub query: HashMap<String, String>,
    /// The request's headers (the webhook reads `Stripe-Signature`).
    pub headers: http::HeaderMap,
    /// The exact body bytes (the webhook's signature covers them).
    pub body: Bytes,
}

impl ApiRequest {
    /// The caller, or 401.
    pub fn identity(&self) -> Result<&Identity, ApiError> {
        self.identity.as_ref().ok_or(ApiError::Unauthorized)
    }

    /// A header's value, if present and readable.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body parsed as `T`; an empty body reads as `{}`.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let body: &[u8] = if self.body.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &self.body
        };
        serde_json::from_slice(body)
            .map_err(|e| ApiError::BadRequest(format!("The request body is not valid: {e}")))
    }
}

/// A status and its JSON body, serialized once, straight from the handler's types.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiResponse {
    pub status: StatusCode,
    /// The JSON text.
    pub body: Bytes,
}

impl ApiResponse {
    pub fn ok(body: impl Serialize) -> Result<Self, ApiError> {
        Self::with_status(StatusCode::OK, body)
    }

    pub fn with_status(status: StatusCode, body: impl Serialize) -> Result<Self, ApiError> {
        Ok(Self {
            status,
            body: serde_json::to_vec(&body)
                .map_err(|e| ApiError::internal("serialize", e))?
                .into(),
        })
    }

    /// The body as a JSON value (tests and logs).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

pub type HandlerFuture<'a> =
    Pin<Box<dyn Future<Output = Result<ApiResponse, ApiError>> + Send + 'a>>;

/// A handler: the function behind one route.
pub type Handler = for<'a> fn(&'a App, ApiRequest) -> HandlerFuture<'a>;

/// Runs a route's handler and turns the outcome into status and JSON body.
/// Internal errors are logged here and never reach the browser.
pub async fn respond(app: &App, route: &Route, req: ApiRequest) -> ApiResponse {
    let result = if req.body.len() > max_body(route) {
        Err(ApiError::PayloadTooLarge)
    } else {
        (route.handler)(app, req).await
    };
    match result {
        Ok(res) => res,
        Err(err) => {
            err.log(route.name);
            err.to_response()
        }
    }
}

/// A JSON response to a request that matched no route.
pub fn unmatched(m: &RouteMatch<'_>) -> ApiResponse {
    match m {
        RouteMatch::MethodNotAllowed => ApiError::MethodNotAllowed.to_response(),
        _ => ApiError::NotFound.to_response(),
    }
}

/// Counts one use of a limited route by `identity` and refuses it (429, the route's message)
/// over its limit. Called once the request is known to be well-formed, before any work.
pub async fn within_limit(
    app: &App,
    identity: &Identity,
    what: crate::domain::rate_limit::Limited,
) -> Result<(), ApiError> {
    use crate::domain::rate_limit;
    let window = rate_limit::window(&identity.uid, what, app.now());
    let count = app.limits.hit(&window.key, window.expires_at).await?;
    if rate_limit::allows(what, count) {
        Ok(())
    } else {
        tracing::warn!(uid = %identity.uid, route = what.name(), count, "rate limit reached");
        Err(ApiError::TooManyRequests(what.message()))
    }
}
