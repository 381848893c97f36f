//! `GET /api/me` and `POST /api/me/privacy-acceptance`.

use std::convert::Infallible;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{ApiError, ApiRequest, ApiResponse, HandlerFuture};
use crate::App;
use crate::domain::Identity;
use crate::domain::subscription::SubscriptionStatus;
use crate::domain::user::{self, UserDoc};
use crate::ports::store::{UpdateError, update_user};

/// The signed-in user's profile, as the browser receives it.
#[derive(Debug, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeView {
    pub uid: String,
    pub email: Option<String>,
    /// Whether the user document exists.
    pub registered: bool,
    pub accepted_privacy_policy: bool,
    pub ai_credits: i64,
    pub speaking_credits: i64,
    pub subscription: SubscriptionView,
}

#[derive(Debug, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionView {
    pub status: SubscriptionStatus,
    pub label: &'static str,
    pub plan: Option<String>,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schemars(with = "Option<super::openapi::DateTime>")]
    pub end_date: Option<OffsetDateTime>,
    pub days_left: Option<i64>,
}

impl MeView {
    pub fn new(identity: &Identity, doc: Option<&UserDoc>, now: OffsetDateTime) -> Self {
        let empty = UserDoc::default();
        let d = doc.unwrap_or(&empty);
        let sub = d.subscription(now);
        Self {
            uid: identity.uid.to_string(),
            email: d
                .email
                .clone()
                .or_else(|| identity.email.as_ref().map(ToString::to_string)),
            registered: doc.is_some(),
            accepted_privacy_policy: d.accepted_privacy_policy,
            ai_credits: d.ai_credits_shown(),
            speaking_credits: d.speaking_credits_shown(),
            subscription: SubscriptionView {
                status: sub.status,
                label: sub.status.label(),
                plan: sub.plan,
                end_date: sub.end_date,
                days_left: sub.days_left,
            },
        }
    }
}

pub fn get(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let doc = app.users.get_user(&identity.uid).await?;
        ApiResponse::ok(MeView::new(
            identity,
            doc.as_ref().map(|v| &v.value),
            app.now(),
        ))
    })
}

/// The acceptance takes no fields; an object is tolerated for forward compatibility.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptanceBody {}

pub fn accept_privacy(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let _: AcceptanceBody = req.json()?;
        let email = identity.email.clone();
        let saved = update_user(app.users.as_ref(), &identity.uid, |doc| {
            Ok::<_, Infallible>(user::accept_privacy(doc, email.as_ref()))
        })
        .await
        .map_err(|e| match e {
            UpdateError::Store(e) => ApiError::from(e),
            UpdateError::Rule(never) => match never {},
        })?;
        tracing::info!(uid = %identity.uid, "privacy policy accepted");
        ApiResponse::ok(MeView::new(identity, Some(&saved.value), app.now()))
    })
}
