//! The local test checkout, the embedded default of the checkout port: sessions live in
//! this process, the checkout page is served by the local server (`/checkout/{id}`), and
//! paying delivers a signed `checkout.session.completed` event, shaped like Stripe's, to
//! the real webhook route. It collects no card data and charges nothing.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use rand::RngCore;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::domain::payments::{CheckoutSession, SessionId, sign};
use crate::ports::checkout::{Checkout, CheckoutError, NewCheckout, OpenedCheckout};

/// What the checkout page shows and what paying sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalSession {
    pub id: SessionId,
    pub request: NewCheckout,
    pub paid: bool,
    pub created: OffsetDateTime,
}

impl LocalSession {
    /// The session object as Stripe's API writes it.
    pub fn to_stripe_json(&self) -> Value {
        json!({
            "id": self.id.as_str(),
            "object": "checkout.session",
            "mode": "payment",
            "livemode": false,
            "client_reference_id": self.request.uid.as_str(),
            "customer_email": self.request.email.as_ref().map(|e| e.as_str()),
            "metadata": {"userId": self.request.uid.as_str(), "planId": self.request.plan_id},
            "amount_total": self.request.amount_cents,
            "amount_subtotal": self.request.amount_cents,
            "currency": self.request.currency.to_lowercase(),
            "payment_status": if self.paid { "paid" } else { "unpaid" },
            "status": if self.paid { "complete" } else { "open" },
            "created": self.created.unix_timestamp(),
            "success_url": self.request.success_url,
            "cancel_url": self.request.cancel_url,
        })
    }

    /// Where the buyer goes after paying: the success link with the session id filled in.
    pub fn success_url(&self) -> String {
        self.request
            .success_url
            .replace("{CHECKOUT_SESSION_ID}", self.id.as_str())
    }
}

/// The signed delivery of a completed session to the webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedEvent {
    pub body: Vec<u8>,
    /// The `Stripe-Signature` header.
    pub signature: String,
}

/// Sessions of the local test checkout, keyed by id.
pub struct LocalCheckout {
    base_url: String,
    sessions: Mutex<HashMap<SessionId, LocalSession>>,
    /// Idempotency keys seen, and the session each opened.
    opened: Mutex<HashMap<String, SessionId>>,
}

fn random_hex(bytes: usize) -> String {
    let mut r = vec![0u8; bytes];
    rand::thread_rng().fill_bytes(&mut r);
    r.iter().map(|b| format!("{b:02x}")).collect()
}

impl LocalCheckout {
    /// `base_url`: the local server's address; the checkout page is `{base_url}/checkout/{id}`.
    pub fn new(base_url: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            sessions: Mutex::new(HashMap::new()),
            opened: Mutex::new(HashMap::new()),
        }
    }

    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn session(&self, id: &SessionId) -> Option<LocalSession> {
        Self::lock(&self.sessions).get(id).cloned()
    }

    /// Completes a session (the page's Pay button) and returns the signed event to deliver.
    /// Paying twice delivers the same completion again, as Stripe's retries would.
    pub fn pay(
        &self,
        id: &SessionId,
        webhook_secret: &str,
        now: OffsetDateTime,
    ) -> Option<(LocalSession, SignedEvent)> {
        let mut sessions = Self::lock(&self.sessions);
        let session = sessions.get_mut(id)?;
        session.paid = true;
        let session = session.clone();
        drop(sessions);
        let body = json!({
            "id": format!("evt_local_{}", random_hex(12)),
            "object": "event",
            "api_version": "2025-09-30.clover",
            "created": now.unix_timestamp(),
            "livemode": false,
            "pending_webhooks": 1,
            "type": "checkout.session.completed",
            "data": {"object": session.to_stripe_json()},
        })
        .to_string()
        .into_bytes();
        let signature = sign(&body, webhook_secret, now.unix_timestamp());
        Some((session, SignedEvent { body, signature }))
    }
}

#[async_trait]
impl Checkout for LocalCheckout {
    async fn create_session(&self, req: &NewCheckout) -> Result<OpenedCheckout, CheckoutError> {
        if !req.price_id.starts_with("price_") {
            return Err(CheckoutError::Refused(format!(
                "No such price: '{}'",
                req.price_id
            )));
        }
        let mut opened = Self::lock(&self.opened);
        let id = match opened.get(&req.idempotency_key) {
            Some(id) => id.clone(),
            None => {
                let id = SessionId::parse(&format!("cs_local_{}", random_hex(16)))
                    .ok_or_else(|| CheckoutError::Unavailable("session id".into()))?;
                Self::lock(&self.sessions).insert(
                    id.clone(),
                    LocalSession {
                        id: id.clone(),
                        request: req.clone(),
                        paid: false,
                        created: OffsetDateTime::now_utc(),
                    },
                );
                opened.insert(req.idempotency_key.clone(), id.clone());
                id
            }
        };
        Ok(OpenedCheckout {
            url: format!("{}/checkout/{}", self.base_url, id.as_str()),
            id,
        })
    }

    async fn get_session(&self, id: &SessionId) -> Result<Option<CheckoutSession>, CheckoutError> {
        self.session(id)
            .map(|s| {
                CheckoutSession::from_stripe_json(s.to_stripe_json())
                    .map_err(|e| CheckoutError::Unavailable(e.to_string()))
            })
            .transpose()
    }
}
