//! Stripe Checkout, through async-stripe: a one-time payment session for a plan's price.
//! Requests are built by async-stripe (its form encoding, idempotency and retries); the
//! answers are read into the few fields the product uses, so a Stripe API version that
//! adds fields never breaks a purchase.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use async_trait::async_trait;
use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, RetrieveCheckoutSession,
};
use stripe_shared::CheckoutSessionMode;

use crate::domain::payments::{CheckoutSession, SessionId};
use crate::ports::checkout::{Checkout, CheckoutError, NewCheckout, OpenedCheckout};

/// The fields of a Checkout Session the product reads.
#[derive(miniserde::Deserialize)]
struct SessionFields {
    id: String,
    url: Option<String>,
    client_reference_id: Option<String>,
    metadata: Option<HashMap<String, String>>,
    payment_status: Option<String>,
    amount_total: Option<i64>,
    currency: Option<String>,
}

impl SessionFields {
    fn into_session(self) -> Result<CheckoutSession, CheckoutError> {
        CheckoutSession::from_stripe_json(serde_json::json!({
            "id": self.id,
            "client_reference_id": self.client_reference_id,
            "metadata": self.metadata,
            "payment_status": self.payment_status,
            "amount_total": self.amount_total,
            "currency": self.currency,
        }))
        .map_err(|e| CheckoutError::Unavailable(e.to_string()))
    }
}

/// One request's limit.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(8);
/// A whole call, async-stripe's retries included, ends before this: API Gateway gives up at 30 s.
pub const TOTAL_BUDGET: Duration = Duration::from_secs(20);

pub struct StripeCheckout {
    client: Client,
    budget: Duration,
}

impl StripeCheckout {
    /// `api_base`: Stripe's API by default; a stand-in server in tests.
    pub fn new(secret_key: &str, api_base: Option<&str>) -> Result<Self, CheckoutError> {
        Self::with_limits(secret_key, api_base, ATTEMPT_TIMEOUT, TOTAL_BUDGET)
    }

    /// Shorter limits, for tests against a stand-in server.
    pub fn with_limits(
        secret_key: &str,
        api_base: Option<&str>,
        attempt: Duration,
        budget: Duration,
    ) -> Result<Self, CheckoutError> {
        let mut builder = ClientBuilder::new(secret_key)
            .timeout(attempt)
            .request_strategy(RequestStrategy::ExponentialBackoff(2));
        if let Some(base) = api_base {
            builder = builder.url(base);
        }
        let client = builder
            .build()
            .map_err(|e| CheckoutError::Unavailable(format!("Stripe client: {e}")))?;
        Ok(Self { client, budget })
    }

    /// A call, cut off when the budget is spent (a retried create is safe: it is idempotent).
    async fn within<T>(
        &self,
        call: impl Future<Output = Result<T, StripeError>>,
    ) -> Result<Result<T, StripeError>, CheckoutError> {
        tokio::time::timeout(self.budget, call).await.map_err(|_| {
            CheckoutError::Unavailable(format!(
                "no answer from Stripe within {} ms",
                self.budget.as_millis()
            ))
        })
    }
}

fn stripe_error(e: StripeError) -> CheckoutError {
    match e {
        // Stripe answered with an error: a bad price id or key, a refused parameter.
        StripeError::Stripe(err, status) => {
            CheckoutError::Refused(format!("{status}: {:?}", err.message))
        }
        other => CheckoutError::Unavailable(other.to_string()),
    }
}

#[async_trait]
impl Checkout for StripeCheckout {
    async fn create_session(&self, req: &NewCheckout) -> Result<OpenedCheckout, CheckoutError> {
        let metadata = HashMap::from([
            ("userId".to_owned(), req.uid.as_str().to_owned()),
            ("planId".to_owned(), req.plan_id.to_owned()),
        ]);
        let mut create = CreateCheckoutSession::new()
            .mode(CheckoutSessionMode::Payment)
            .line_items(vec![CreateCheckoutSessionLineItems {
                price: Some(req.price_id.clone()),
                quantity: Some(1),
                ..Default::default()
            }])
            .client_reference_id(req.uid.as_str())
            .metadata(metadata)
            .success_url(req.success_url.as_str())
            .cancel_url(req.cancel_url.as_str());
        if let Some(email) = &req.email {
            create = create.customer_email(email.as_str());
        }
        let key = IdempotencyKey::new(&req.idempotency_key)
            .map_err(|e| CheckoutError::Refused(format!("idempotency key: {e}")))?;
        let fields: SessionFields = self
            .within(
                create
                    .build()
                    .customize::<SessionFields>()
                    .request_strategy(RequestStrategy::Idempotent(key))
                    .send(&self.client),
            )
            .await?
            .map_err(stripe_error)?;
        let id = SessionId::parse(&fields.id)
            .ok_or_else(|| CheckoutError::Unavailable(format!("session id {:?}", fields.id)))?;
        let url = fields
            .url
            .ok_or_else(|| CheckoutError::Unavailable("the session has no url".into()))?;
        Ok(OpenedCheckout { id, url })
    }

    async fn get_session(&self, id: &SessionId) -> Result<Option<CheckoutSession>, CheckoutError> {
        let sent = self
            .within(
                RetrieveCheckoutSession::new(id.as_str())
                    .build()
                    .customize::<SessionFields>()
                    .send(&self.client),
            )
            .await?;
        match sent {
            Ok(fields) => fields.into_session().map(Some),
            Err(StripeError::Stripe(_, 404)) => Ok(None),
            Err(e) => Err(stripe_error(e)),
        }
    }
}
