//! `GET /api/plans`: the plans and prices, public.

use super::{ApiRequest, ApiResponse, HandlerFuture};
use crate::App;
use crate::domain::plans::PLANS;

pub fn list(_app: &App, _req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async { ApiResponse::ok(PLANS) })
}

/// `GET /api/health`: the process is up and answering.
pub fn health(_app: &App, _req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async { ApiResponse::ok(serde_json::json!({ "status": "ok" })) })
}
