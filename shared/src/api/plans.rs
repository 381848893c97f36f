//! `GET /api/plans`: the plans and prices, public.

use super::{ApiRequest, ApiResponse, HandlerFuture};
use crate::App;
use crate::domain::plans::PLANS;

/// Each plan with the provider's price id for it (`null` when none is configured;
/// the pricing buttons then show the spec's alert).
pub fn list(app: &App, _req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let plans: Vec<_> = PLANS
            .iter()
            .map(|p| {
                let mut v = serde_json::to_value(p).unwrap_or_default();
                v["priceId"] = serde_json::json!(app.config.payments.price_id(p.id));
                v
            })
            .collect();
        ApiResponse::ok(plans)
    })
}

/// `GET /api/health`: the process is up and answering.
pub fn health(_app: &App, _req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async { ApiResponse::ok(serde_json::json!({ "status": "ok" })) })
}
