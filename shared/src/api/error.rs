//! The API layer's one error type, its status codes and the texts users see.

use http::StatusCode;
use serde_json::json;
use thiserror::Error;

use super::ApiResponse;
use crate::ports::{MediaError, StoreError};

#[derive(Debug, Error)]
pub enum ApiError {
    #[error("no valid sign-in token")]
    Unauthorized,
    #[error("forbidden: {0}")]
    Forbidden(&'static str),
    #[error("not found")]
    NotFound,
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("bad request: {0}")]
    BadRequest(String),
    #[error("payload too large")]
    PayloadTooLarge,
    /// A free user has no credit left for this (402).
    #[error("payment required: {0}")]
    PaymentRequired(&'static str),
    /// A rate limit (429).
    #[error("too many requests: {0}")]
    TooManyRequests(&'static str),
    /// The request conflicts with the current state (buying while subscribed).
    #[error("conflict: {0}")]
    Conflict(&'static str),
    /// An outside provider failed; the text is the one users see, the detail is logged.
    #[error("provider failed ({detail}); shown: {shown}")]
    Provider { shown: &'static str, detail: String },
    /// A service that cannot answer yet (503); the text is shown, the detail logged.
    #[error("unavailable ({detail}); shown: {shown}")]
    Unavailable { shown: &'static str, detail: String },
    /// A failure of ours or of a backend. Its text is logged, never sent.
    #[error("internal error in {context}: {detail}")]
    Internal {
        context: &'static str,
        detail: String,
    },
}

impl ApiError {
    pub fn internal(context: &'static str, err: impl std::fmt::Display) -> Self {
        Self::Internal {
            context,
            detail: err.to_string(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            Self::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Provider { .. } => StatusCode::BAD_GATEWAY,
            Self::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The message the browser receives.
    pub fn public_message(&self) -> String {
        match self {
            Self::Unauthorized => "You must be logged in.".into(),
            Self::Forbidden(msg) => (*msg).into(),
            Self::NotFound => "Not found.".into(),
            Self::MethodNotAllowed => "Method not allowed.".into(),
            Self::BadRequest(msg) => msg.clone(),
            Self::PayloadTooLarge => "The request is too large.".into(),
            Self::Conflict(msg) | Self::PaymentRequired(msg) | Self::TooManyRequests(msg) => {
                (*msg).into()
            }
            Self::Provider { shown, .. } | Self::Unavailable { shown, .. } => (*shown).into(),
            Self::Internal { .. } => "Something went wrong on our side. Please try again.".into(),
        }
    }

    pub fn to_response(&self) -> ApiResponse {
        ApiResponse {
            status: self.status(),
            body: json!({ "error": self.public_message() }).to_string().into(),
        }
    }

    /// Logs at a level that fits: our faults as errors, callers' as info.
    pub fn log(&self, route: &str) {
        match self {
            Self::Internal { .. } | Self::Provider { .. } | Self::Unavailable { .. } => {
                tracing::error!(route, error = %self, "request failed")
            }
            _ => {
                tracing::info!(route, status = self.status().as_u16(), error = %self, "request refused")
            }
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        Self::internal("store", e)
    }
}

impl From<MediaError> for ApiError {
    fn from(e: MediaError) -> Self {
        Self::internal("media", e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_details_never_reach_the_body() {
        let err = ApiError::from(StoreError::Backend(
            "table tef-users: AccessDenied arn:aws:…".into(),
        ));
        let res = err.to_response();
        assert_eq!(res.status, StatusCode::INTERNAL_SERVER_ERROR);
        let body = res.json().to_string();
        assert!(!body.contains("AccessDenied"), "{body}");
        assert!(!body.contains("tef-users"), "{body}");
    }

    #[test]
    fn each_error_has_its_status() {
        assert_eq!(ApiError::Unauthorized.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(ApiError::Forbidden("x").status(), StatusCode::FORBIDDEN);
        assert_eq!(ApiError::NotFound.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            ApiError::BadRequest("x".into()).status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            ApiError::PayloadTooLarge.status(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert_eq!(
            ApiError::MethodNotAllowed.status(),
            StatusCode::METHOD_NOT_ALLOWED
        );
    }
}
