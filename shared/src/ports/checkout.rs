//! The checkout port: the card payment provider's hosted checkout (Stripe in production,
//! the local test checkout on a laptop). The product never sees card data.

use async_trait::async_trait;
use thiserror::Error;

use crate::domain::payments::{CheckoutSession, SessionId};
use crate::domain::{Email, UserId};

/// What a new checkout session is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCheckout {
    pub uid: UserId,
    pub email: Option<Email>,
    pub plan_id: &'static str,
    /// The plan's name and price, for a provider that shows them itself (the local checkout);
    /// Stripe takes them from the price.
    pub plan_name: &'static str,
    pub amount_cents: u32,
    pub currency: &'static str,
    /// The provider's price id for the plan.
    pub price_id: String,
    /// Where the provider sends the buyer back; `{CHECKOUT_SESSION_ID}` is filled in by it.
    pub success_url: String,
    pub cancel_url: String,
    /// The same key within a short window gives the same session (a double click opens one).
    pub idempotency_key: String,
}

/// A session the buyer can be sent to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenedCheckout {
    pub id: SessionId,
    pub url: String,
}

#[derive(Debug, Error)]
pub enum CheckoutError {
    /// The provider refused the request (bad price id, bad key…).
    #[error("the payment provider refused the request: {0}")]
    Refused(String),
    /// The provider could not be reached or failed.
    #[error("the payment provider is unavailable: {0}")]
    Unavailable(String),
}

#[async_trait]
pub trait Checkout: Send + Sync {
    /// Opens a one-time payment session for one plan.
    async fn create_session(&self, req: &NewCheckout) -> Result<OpenedCheckout, CheckoutError>;

    /// The session as the provider knows it now; `None` if there is no such session.
    async fn get_session(&self, id: &SessionId) -> Result<Option<CheckoutSession>, CheckoutError>;
}
