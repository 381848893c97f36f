//! `GET /api/plans` and `GET /api/health`.

use serde::Serialize;

use super::{ApiRequest, ApiResponse, HandlerFuture};
use crate::App;
use crate::domain::plans::{PLANS, Plan};

/// A plan with the provider's price id for it (`null` when none is configured;
/// the pricing buttons then show the spec's alert).
#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanView {
    #[serde(flatten)]
    pub plan: Plan,
    pub price_id: Option<String>,
}

/// `GET /api/plans`: the plans and prices, public.
pub fn list(app: &App, _req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let plans: Vec<PlanView> = PLANS
            .iter()
            .map(|p| PlanView {
                plan: *p,
                price_id: app.config.payments.price_id(p.id).map(str::to_owned),
            })
            .collect();
        ApiResponse::ok(plans)
    })
}

/// `GET /api/health`.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Health {
    pub status: &'static str,
}

/// `GET /api/health`: the process is up and answering.
pub fn health(_app: &App, _req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async { ApiResponse::ok(Health { status: "ok" }) })
}
