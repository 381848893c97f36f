//! The payments port: paid checkout sessions, each recorded once, together with the
//! subscription it bought (decisions §6).

use async_trait::async_trait;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::domain::payments::{PaymentRecord, SessionId, fulfil};
use crate::domain::plans::Plan;
use crate::domain::{UserDoc, UserId};
use crate::ports::store::{MAX_UPDATE_ATTEMPTS, StoreError, UserStore, backoff};

/// What [`PaymentStore::record_payment`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentWrite {
    /// The payment and the user's document are stored; the document's new version.
    Written(u64),
    /// A payment with this session id is already stored: nothing was written.
    AlreadyRecorded,
}

#[async_trait]
pub trait PaymentStore: Send + Sync {
    /// In one transaction: stores `payment` if no payment has its session id, and writes
    /// the buyer's document if its version is still `expected` (`None`: only if there is
    /// no document). Both are written or neither: a taken session id gives
    /// [`PaymentWrite::AlreadyRecorded`], a changed document [`StoreError::Conflict`].
    async fn record_payment(
        &self,
        payment: &PaymentRecord,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<PaymentWrite, StoreError>;

    async fn get_payment(&self, session: &SessionId) -> Result<Option<PaymentRecord>, StoreError>;
}

/// What [`fulfil_payment`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fulfilment {
    /// This call recorded the payment and extended the subscription.
    Fulfilled(UserDoc),
    /// The session was fulfilled before (a replayed or duplicated event): nothing changed.
    AlreadyFulfilled,
    /// The plan buys no days: nothing to fulfil.
    NothingToFulfil,
}

/// The one fulfilment path, for the webhook and the success page alike: records the paid
/// session and extends the buyer's subscription by the plan, atomically, once per session.
pub async fn fulfil_payment(
    users: &dyn UserStore,
    payments: &dyn PaymentStore,
    payment: &PaymentRecord,
    plan: &Plan,
    now: OffsetDateTime,
) -> Result<Fulfilment, StoreError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        if payments.get_payment(&payment.session_id).await?.is_some() {
            return Ok(Fulfilment::AlreadyFulfilled);
        }
        let current = users.get_user(&payment.uid).await?;
        let expected = current.as_ref().map(|v| v.version);
        let Some(next) = fulfil(current.map(|v| v.value), plan, now) else {
            return Ok(Fulfilment::NothingToFulfil);
        };
        match payments.record_payment(payment, &next, expected).await {
            Ok(PaymentWrite::Written(_)) => return Ok(Fulfilment::Fulfilled(next)),
            Ok(PaymentWrite::AlreadyRecorded) => return Ok(Fulfilment::AlreadyFulfilled),
            Err(StoreError::Conflict) if attempt < MAX_UPDATE_ATTEMPTS => {
                tracing::debug!(uid = %payment.uid, attempt, "fulfilment conflicted, retrying");
                backoff(attempt).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// The stored shape of a payment (DynamoDB attributes, SQLite JSON).
pub fn payment_to_json(p: &PaymentRecord) -> Value {
    json!({
        "sessionId": p.session_id.as_str(),
        "uid": p.uid.as_str(),
        "planId": p.plan_id,
        "amountTotal": p.amount_total,
        "currency": p.currency,
        "paidAt": i64::try_from(p.paid_at.unix_timestamp_nanos() / 1_000_000).unwrap_or(0),
    })
}

pub fn payment_from_json(v: &Value) -> Result<PaymentRecord, StoreError> {
    let bad = |what: &str| StoreError::Corrupt(format!("payment record: {what}"));
    let s = |k: &str| v.get(k).and_then(Value::as_str).ok_or_else(|| bad(k));
    let n = |k: &str| v.get(k).and_then(Value::as_i64).ok_or_else(|| bad(k));
    Ok(PaymentRecord {
        session_id: SessionId::parse(s("sessionId")?).ok_or_else(|| bad("sessionId"))?,
        uid: UserId::parse(s("uid")?).map_err(|_| bad("uid"))?,
        plan_id: s("planId")?.to_owned(),
        amount_total: n("amountTotal")?,
        currency: s("currency")?.to_owned(),
        paid_at: OffsetDateTime::from_unix_timestamp_nanos(i128::from(n("paidAt")?) * 1_000_000)
            .map_err(|_| bad("paidAt"))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn payments_round_trip() {
        let p = PaymentRecord {
            session_id: SessionId::parse("cs_test_a1b2c3").unwrap(),
            uid: UserId::parse("local:ana").unwrap(),
            plan_id: "monthly".into(),
            amount_total: 3400,
            currency: "cad".into(),
            paid_at: datetime!(2026-11-25 12:00:00.123 UTC),
        };
        assert_eq!(payment_from_json(&payment_to_json(&p)).unwrap(), p);
        assert!(payment_from_json(&json!({"sessionId": "nope"})).is_err());
    }
}
