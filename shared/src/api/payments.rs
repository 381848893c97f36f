//! Payments (decisions §1 and §6): opening a checkout, the success page's session
//! lookup, and the provider's webhook. The webhook and the lookup share one
//! fulfilment path, `ports::payments::fulfil_payment`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{ApiError, ApiRequest, ApiResponse, HandlerFuture};
use crate::App;
use crate::domain::payments::{
    CheckoutRefusal, CheckoutSession, PaymentRecord, SessionId, WEBHOOK_TOLERANCE_SECONDS,
    WebhookEvent, may_checkout, parse_event, verify_signature,
};
use crate::domain::plans::{self, Plan};
use crate::domain::{Email, UserId};
use crate::ports::checkout::{Checkout, CheckoutError, NewCheckout};
use crate::ports::payments::{Fulfilment, fulfil_payment};

/// The text the spec shows when a checkout cannot be opened.
pub const CHECKOUT_FAILED: &str = "Failed to create checkout session.";
pub const ALREADY_SUBSCRIBED: &str = "You already have an active subscription.";
/// How long a double click, or a quick second try, reopens the same session.
const IDEMPOTENCY_WINDOW_SECONDS: i64 = 600;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CheckoutBody {
    price_id: String,
    user_id: String,
    #[serde(default)]
    email: Option<String>,
}

/// `POST /api/stripe/create-checkout-session`'s answer: the provider's checkout page.
#[derive(Serialize, JsonSchema)]
pub struct CheckoutOpened {
    pub url: String,
}

/// `GET /api/stripe/checkout-session`'s answer, in the spec's field names.
#[derive(Serialize, JsonSchema)]
pub struct SessionView {
    pub amount_total: Option<i64>,
    pub currency: Option<String>,
    pub paid: bool,
}

/// The webhook's acknowledgement.
#[derive(Serialize, JsonSchema)]
pub struct Received {
    pub received: bool,
}

/// `POST /api/stripe/create-checkout-session`: `{priceId, userId, email}` → `{url}`.
pub fn create_checkout_session(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let body: CheckoutBody = req.json()?;
        if body.user_id != identity.uid.as_str() {
            return Err(ApiError::Forbidden(
                "You can only buy a plan for your own account.",
            ));
        }
        let plan = app
            .config
            .payments
            .plan_for_price(&body.price_id)
            .ok_or_else(|| ApiError::BadRequest("Unknown price.".into()))?;
        let doc = app.users.get_user(&identity.uid).await?.map(|v| v.value);
        let now = app.now();
        let subscription = doc.clone().unwrap_or_default().subscription(now);
        may_checkout(plan, &subscription).map_err(|r| match r {
            CheckoutRefusal::AlreadySubscribed => ApiError::Conflict(ALREADY_SUBSCRIBED),
            CheckoutRefusal::FreePlan => ApiError::BadRequest(r.to_string()),
        })?;
        let site = app.config.payments.site_url.as_deref().ok_or_else(|| {
            ApiError::internal("checkout", "no site URL for the success and cancel links")
        })?;
        // The token's e-mail is verified; the body's is only a hint.
        let email = identity
            .email
            .clone()
            .or_else(|| body.email.as_deref().and_then(|e| Email::parse(e).ok()));
        let request = NewCheckout {
            uid: identity.uid.clone(),
            email,
            plan_id: plan.id,
            plan_name: plan.name,
            amount_cents: plan.price_cents,
            currency: plan.currency,
            price_id: body.price_id,
            success_url: format!("{site}/success?session_id={{CHECKOUT_SESSION_ID}}"),
            cancel_url: format!("{site}/cancel"),
            idempotency_key: idempotency_key(&identity.uid, plan, now.unix_timestamp()),
        };
        let opened = checkout(app, CHECKOUT_FAILED)?
            .create_session(&request)
            .await
            .map_err(provider_error)?;
        tracing::info!(uid = %identity.uid, plan = plan.id, session = %opened.id, "checkout opened");
        ApiResponse::ok(CheckoutOpened { url: opened.url })
    })
}

/// One key per user, plan and ten-minute window.
fn idempotency_key(uid: &UserId, plan: &Plan, now: i64) -> String {
    let digest = Sha256::digest(uid.as_str().as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "checkout-{hex}-{}-{}",
        plan.id,
        now.div_euclid(IDEMPOTENCY_WINDOW_SECONDS)
    )
}

/// The configured checkout, or a provider error (logged) where this function has no key.
fn checkout<'a>(app: &'a App, shown: &'static str) -> Result<&'a dyn Checkout, ApiError> {
    app.checkout.as_deref().ok_or_else(|| ApiError::Provider {
        shown,
        detail: "no STRIPE_SECRET_KEY in this function's environment".into(),
    })
}

fn provider_error(e: CheckoutError) -> ApiError {
    ApiError::Provider {
        shown: CHECKOUT_FAILED,
        detail: e.to_string(),
    }
}

/// `GET /api/stripe/checkout-session?sessionId=`: the caller's own session,
/// `{amount_total, currency, paid}`. A paid session is fulfilled here too, through the
/// same function as the webhook, in case the webhook is late; it never counts twice.
pub fn checkout_session(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let id = req
            .query
            .get("sessionId")
            .and_then(|s| SessionId::parse(s))
            .ok_or(ApiError::NotFound)?;
        let session = checkout(app, "Failed to fetch session data")?
            .get_session(&id)
            .await
            .map_err(|e| ApiError::Provider {
                shown: "Failed to fetch session data",
                detail: e.to_string(),
            })?
            .filter(|s| s.uid.as_ref() == Some(&identity.uid))
            .ok_or(ApiError::NotFound)?;
        if session.paid {
            fulfil(app, &session).await?;
        }
        ApiResponse::ok(SessionView {
            amount_total: session.amount_total,
            currency: session.currency,
            paid: session.paid,
        })
    })
}

/// Records a paid session and extends its buyer's subscription, once.
async fn fulfil(app: &App, session: &CheckoutSession) -> Result<(), ApiError> {
    let (Some(uid), Some(plan)) = (
        session.uid.clone(),
        session.plan_id.as_deref().and_then(plans::plan),
    ) else {
        return Err(ApiError::internal(
            "fulfilment",
            format!("session {} names no buyer or no known plan", session.id),
        ));
    };
    let payment = PaymentRecord {
        session_id: session.id.clone(),
        uid,
        plan_id: plan.id.to_owned(),
        amount_total: session.amount_total.unwrap_or(0),
        currency: session.currency.clone().unwrap_or_default(),
        paid_at: app.now(),
    };
    match fulfil_payment(
        app.users.as_ref(),
        app.payments.as_ref(),
        &payment,
        plan,
        app.now(),
    )
    .await?
    {
        Fulfilment::Fulfilled(doc) => tracing::info!(
            uid = %payment.uid, plan = plan.id, session = %payment.session_id,
            end = ?doc.subscription_end_date, "payment fulfilled"
        ),
        Fulfilment::AlreadyFulfilled => {
            tracing::info!(session = %payment.session_id, "payment already fulfilled")
        }
        Fulfilment::NothingToFulfil => {
            tracing::warn!(session = %payment.session_id, "paid session for a plan without days")
        }
    }
    Ok(())
}

/// `POST /api/stripe/webhook`: no bearer token; Stripe's signature on the exact body
/// bytes instead. A completed, paid checkout is fulfilled once; other events are
/// acknowledged and change nothing.
pub fn webhook(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let signature = req.header("stripe-signature").unwrap_or_default();
        let secret = app.config.payments.webhook_secret.as_ref().ok_or_else(|| {
            ApiError::internal(
                "webhook",
                "no TEF_STRIPE_WEBHOOK_SECRET in this function's environment",
            )
        })?;
        verify_signature(
            &req.body,
            signature,
            &secret.0,
            app.now().unix_timestamp(),
            WEBHOOK_TOLERANCE_SECONDS,
        )
        .map_err(|e| {
            tracing::warn!(error = %e, "webhook signature refused");
            ApiError::BadRequest("The webhook signature is not valid.".into())
        })?;
        let event = parse_event(&req.body).map_err(|e| {
            tracing::warn!(error = %e, "signed webhook body is not an event");
            ApiError::BadRequest("The webhook body is not a valid event.".into())
        })?;
        match event {
            WebhookEvent::CheckoutCompleted(session) if session.paid => {
                fulfil(app, &session).await?;
            }
            WebhookEvent::CheckoutCompleted(session) => {
                tracing::info!(session = %session.id, "completed checkout not paid yet: waiting");
            }
            WebhookEvent::Other(kind) => tracing::debug!(kind, "webhook event ignored"),
        }
        ApiResponse::ok(Received { received: true })
    })
}
