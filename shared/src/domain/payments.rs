//! Payments (decisions §1 and §6): who may start a checkout, the one fulfilment rule,
//! checkout session ids, and the webhook's signature and event. Pure: the clock and
//! the secret are passed in.

use std::fmt;

use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;
use thiserror::Error;
use time::OffsetDateTime;

use super::plans::{Plan, access_end};
use super::{Subscription, UserDoc, UserId};

/// How old a webhook's signed timestamp may be, either way (Stripe's default).
pub const WEBHOOK_TOLERANCE_SECONDS: i64 = 300;

/// A checkout session id: `cs_` then letters, digits and underscores (Stripe's
/// `cs_test_…`/`cs_live_…`, and the local test checkout's `cs_local_…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(String);

impl SessionId {
    pub fn parse(raw: &str) -> Option<Self> {
        let ok = raw.starts_with("cs_")
            && (8..=255).contains(&raw.len())
            && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        ok.then(|| Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A paid checkout session, as stored once fulfilled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentRecord {
    pub session_id: SessionId,
    pub uid: UserId,
    pub plan_id: String,
    /// In minor units (cents).
    pub amount_total: i64,
    /// Lower case, as Stripe writes it (`cad`).
    pub currency: String,
    pub paid_at: OffsetDateTime,
}

/// Why a checkout may not start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckoutRefusal {
    #[error("You already have an active subscription.")]
    AlreadySubscribed,
    #[error("The free plan needs no checkout.")]
    FreePlan,
}

/// A checkout may start for a paid plan, and only while no subscription is active.
pub fn may_checkout(plan: &Plan, subscription: &Subscription) -> Result<(), CheckoutRefusal> {
    if plan.days.is_none() {
        return Err(CheckoutRefusal::FreePlan);
    }
    if subscription.is_active() {
        return Err(CheckoutRefusal::AlreadySubscribed);
    }
    Ok(())
}

/// The fulfilment rule: the plan's days are added from the later of now and the current
/// end date, and the plan becomes the subscription type. Everything else is kept.
/// `None` for a plan that buys no days (the free plan).
pub fn fulfil(current: Option<UserDoc>, plan: &Plan, now: OffsetDateTime) -> Option<UserDoc> {
    let doc = current.unwrap_or_default();
    let end = access_end(plan, doc.subscription_end_date, now)?;
    Some(UserDoc {
        subscription_type: Some(plan.id.to_owned()),
        subscription_end_date: Some(end),
        ..doc
    })
}

/// Why a webhook delivery was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SignatureError {
    #[error("the Stripe-Signature header is missing or malformed")]
    Malformed,
    #[error("the signed timestamp is outside the tolerance")]
    Stale,
    #[error("no signature matches the body")]
    Mismatch,
}

type HmacSha256 = Hmac<Sha256>;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
    // HMAC accepts keys of any length.
    let mut mac = HmacSha256::new_from_slice(secret.as_bytes()).unwrap_or_else(|_| unreachable!());
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The `Stripe-Signature` header for `body`, as Stripe (and the local test checkout) sends it.
pub fn sign(body: &[u8], secret: &str, timestamp: i64) -> String {
    let sig = super::hex::encode(&mac(secret, timestamp, body).finalize().into_bytes());
    format!("t={timestamp},v1={sig}")
}

/// Verifies Stripe's signature scheme on the exact body bytes: `t=<unix>,v1=<hex>[,v1=…]`,
/// HMAC-SHA256 of `<t>.<body>` with the endpoint's secret, `t` within `tolerance` seconds of `now`.
pub fn verify_signature(
    body: &[u8],
    header: &str,
    secret: &str,
    now: i64,
    tolerance: i64,
) -> Result<(), SignatureError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", s)) => {
                signatures.push(super::hex::decode(s).ok_or(SignatureError::Malformed)?)
            }
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if (now - timestamp).abs() > tolerance {
        return Err(SignatureError::Stale);
    }
    let ok = signatures
        .iter()
        .any(|s| mac(secret, timestamp, body).verify_slice(s).is_ok());
    if ok {
        Ok(())
    } else {
        Err(SignatureError::Mismatch)
    }
}

/// A checkout session as the webhook and the session lookup carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutSession {
    pub id: SessionId,
    /// The buyer: `client_reference_id`, checked against `metadata.userId`.
    pub uid: Option<UserId>,
    pub plan_id: Option<String>,
    pub paid: bool,
    pub amount_total: Option<i64>,
    pub currency: Option<String>,
}

/// The events the webhook acts on; every other type is acknowledged and ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookEvent {
    CheckoutCompleted(CheckoutSession),
    Other(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the event is not a Stripe event: {0}")]
pub struct EventError(String);

#[derive(Deserialize)]
struct RawEvent {
    #[serde(rename = "type")]
    kind: String,
    data: RawData,
}

#[derive(Deserialize)]
struct RawData {
    object: serde_json::Value,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct RawMetadata {
    user_id: Option<String>,
    plan_id: Option<String>,
}

#[derive(Deserialize)]
struct RawSession {
    id: String,
    client_reference_id: Option<String>,
    #[serde(default)]
    metadata: Option<RawMetadata>,
    payment_status: Option<String>,
    amount_total: Option<i64>,
    currency: Option<String>,
}

impl CheckoutSession {
    /// A session object as Stripe's API returns it (also inside events).
    pub fn from_stripe_json(v: serde_json::Value) -> Result<Self, EventError> {
        let raw: RawSession = serde_json::from_value(v).map_err(|e| EventError(e.to_string()))?;
        let id = SessionId::parse(&raw.id).ok_or_else(|| EventError("session id".into()))?;
        let metadata = raw.metadata.unwrap_or_default();
        let reference = raw
            .client_reference_id
            .as_deref()
            .and_then(|u| UserId::parse(u).ok());
        // Both places must name the same buyer; a session that disagrees with itself names nobody.
        let uid = match (reference, metadata.user_id.as_deref()) {
            (Some(r), Some(m)) if r.as_str() == m => Some(r),
            (Some(r), None) => Some(r),
            _ => None,
        };
        Ok(Self {
            id,
            uid,
            plan_id: metadata.plan_id,
            paid: raw.payment_status.as_deref() == Some("paid"),
            amount_total: raw.amount_total,
            currency: raw.currency,
        })
    }
}

/// Parses a verified webhook body.
pub fn parse_event(body: &[u8]) -> Result<WebhookEvent, EventError> {
    let raw: RawEvent = serde_json::from_slice(body).map_err(|e| EventError(e.to_string()))?;
    match raw.kind.as_str() {
        "checkout.session.completed" | "checkout.session.async_payment_succeeded" => Ok(
            WebhookEvent::CheckoutCompleted(CheckoutSession::from_stripe_json(raw.data.object)?),
        ),
        _ => Ok(WebhookEvent::Other(raw.kind)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::plans::plan;
    use time::macros::datetime;

    const SECRET: &str = "whsec_test_secret";

    #[test]
    fn session_ids_are_checked() {
        assert!(SessionId::parse("cs_test_a1B2c3D4").is_some());
        assert!(SessionId::parse("cs_local_0123456789abcdef").is_some());
        for bad in [
            "",
            "cs_",
            "pi_12345678",
            "cs_test_a/b",
            "cs_test_a.b",
            &"cs_x".repeat(80),
        ] {
            assert!(SessionId::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn fulfilment_extends_from_the_later_of_now_and_the_current_end() {
        let now = datetime!(2026-11-25 12:00 UTC);
        let monthly = plan("monthly").unwrap();
        let fresh = fulfil(None, monthly, now).unwrap();
        assert_eq!(
            fresh.subscription_end_date,
            Some(datetime!(2026-12-25 12:00 UTC))
        );
        assert_eq!(fresh.subscription_type.as_deref(), Some("monthly"));

        let active = UserDoc {
            email: Some("ana@example.com".into()),
            accepted_privacy_policy: true,
            ai_credits: Some(1),
            subscription_type: Some("monthly".into()),
            subscription_end_date: Some(datetime!(2026-12-01 0:00 UTC)),
            ..UserDoc::default()
        };
        let extended = fulfil(Some(active.clone()), plan("quarterly").unwrap(), now).unwrap();
        assert_eq!(
            extended.subscription_end_date,
            Some(datetime!(2027-03-01 0:00 UTC))
        );
        assert_eq!(extended.subscription_type.as_deref(), Some("quarterly"));
        assert_eq!(
            (extended.email, extended.ai_credits),
            (active.email, active.ai_credits)
        );

        let expired = UserDoc {
            subscription_end_date: Some(datetime!(2026-01-01 0:00 UTC)),
            ..UserDoc::default()
        };
        assert_eq!(
            fulfil(Some(expired), monthly, now)
                .unwrap()
                .subscription_end_date,
            Some(datetime!(2026-12-25 12:00 UTC))
        );
        assert_eq!(fulfil(None, plan("free").unwrap(), now), None);
    }

    #[test]
    fn a_subscriber_may_not_start_a_checkout() {
        let now = datetime!(2026-11-25 12:00 UTC);
        let monthly = plan("monthly").unwrap();
        let active =
            Subscription::evaluate(Some("monthly"), Some(datetime!(2026-11-26 0:00 UTC)), now);
        let expired =
            Subscription::evaluate(Some("monthly"), Some(datetime!(2026-11-25 12:00 UTC)), now);
        let none = Subscription::evaluate(None, None, now);
        assert_eq!(
            may_checkout(monthly, &active),
            Err(CheckoutRefusal::AlreadySubscribed)
        );
        assert_eq!(may_checkout(monthly, &expired), Ok(()));
        assert_eq!(may_checkout(monthly, &none), Ok(()));
        assert_eq!(
            may_checkout(plan("free").unwrap(), &none),
            Err(CheckoutRefusal::FreePlan)
        );
    }

    #[test]
    fn signatures_are_verified_on_the_exact_body_within_the_tolerance() {
        let body = br#"{"type":"checkout.session.completed"}"#;
        let t = 1_795_000_000;
        let header = sign(body, SECRET, t);
        assert_eq!(
            verify_signature(body, &header, SECRET, t + 299, 300),
            Ok(())
        );
        assert_eq!(
            verify_signature(body, &header, SECRET, t - 299, 300),
            Ok(())
        );
        assert_eq!(
            verify_signature(body, &header, SECRET, t + 301, 300),
            Err(SignatureError::Stale)
        );
        let altered = br#"{"type":"checkout.session.completed" }"#;
        assert_eq!(
            verify_signature(altered, &header, SECRET, t, 300),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature(body, &header, "whsec_other", t, 300),
            Err(SignatureError::Mismatch)
        );
        // A rolled secret: one of several v1 signatures may match.
        let other = sign(body, "whsec_old", t);
        let both = format!("{header},{}", other.split_once(',').unwrap().1);
        assert_eq!(verify_signature(body, &both, "whsec_old", t, 300), Ok(()));
        for bad in [
            "",
            "t=abc,v1=00",
            &format!("t={t}"),
            &format!("t={t},v1=zz"),
            "v1=00",
        ] {
            assert_eq!(
                verify_signature(body, bad, SECRET, t, 300),
                Err(SignatureError::Malformed),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_signature_matches_stripes_published_scheme() {
        // HMAC-SHA256("whsec_test_secret", "1795000000.{}"), computed independently (Python hmac).
        assert_eq!(
            sign(b"{}", SECRET, 1_795_000_000),
            "t=1795000000,v1=".to_owned() + EXPECTED_SIG
        );
    }

    const EXPECTED_SIG: &str = "75efa4fc275c5bc35e5909773e8be54d738edd7e1aa75226c9775d66159b2548";

    #[test]
    fn events_are_parsed_and_sessions_name_one_buyer() {
        let event = |session: serde_json::Value| {
            serde_json::json!({"id": "evt_1", "type": "checkout.session.completed", "data": {"object": session}})
                .to_string()
        };
        let paid = serde_json::json!({
            "id": "cs_test_a1", "object": "checkout.session", "client_reference_id": "local:ana",
            "metadata": {"userId": "local:ana", "planId": "monthly"},
            "payment_status": "paid", "amount_total": 3400, "currency": "cad"
        });
        let WebhookEvent::CheckoutCompleted(s) =
            parse_event(event(paid.clone()).as_bytes()).unwrap()
        else {
            panic!("a completed checkout");
        };
        assert_eq!(s.id.as_str(), "cs_test_a1");
        assert_eq!(s.uid.as_ref().map(UserId::as_str), Some("local:ana"));
        assert_eq!(
            (
                s.plan_id.as_deref(),
                s.paid,
                s.amount_total,
                s.currency.as_deref()
            ),
            (Some("monthly"), true, Some(3400), Some("cad"))
        );

        let mut unpaid = paid.clone();
        unpaid["payment_status"] = "unpaid".into();
        let WebhookEvent::CheckoutCompleted(s) = parse_event(event(unpaid).as_bytes()).unwrap()
        else {
            panic!("a completed checkout");
        };
        assert!(!s.paid);

        let mut disagreeing = paid;
        disagreeing["metadata"]["userId"] = "local:bob".into();
        let WebhookEvent::CheckoutCompleted(s) =
            parse_event(event(disagreeing).as_bytes()).unwrap()
        else {
            panic!("a completed checkout");
        };
        assert_eq!(s.uid, None);

        assert_eq!(
            parse_event(br#"{"type":"invoice.paid","data":{"object":{}}}"#).unwrap(),
            WebhookEvent::Other("invoice.paid".into())
        );
        assert!(parse_event(b"not json").is_err());
    }
}
