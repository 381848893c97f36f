//! The checkout port's contract, run against every implementation: the local test
//! checkout, and Stripe (async-stripe) against a local stand-in of Stripe's API that
//! checks the form-encoded requests it receives, as Stripe would.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use shared::adapters::{LocalCheckout, StripeCheckout};
use shared::domain::payments::SessionId;
use shared::domain::{Email, UserId};
use shared::ports::checkout::{Checkout, CheckoutError, NewCheckout};

/// A checkout for Ana's monthly plan (also used by `provider_faults`).
pub(crate) fn request(key: &str, price: &str) -> NewCheckout {
    NewCheckout {
        uid: UserId::parse("local-ana").unwrap(),
        email: Some(Email::parse("ana@example.com").unwrap()),
        plan_id: "monthly",
        plan_name: "1 Month",
        amount_cents: 3400,
        currency: "CAD",
        price_id: price.into(),
        success_url: "https://tef.example/success?session_id={CHECKOUT_SESSION_ID}".into(),
        cancel_url: "https://tef.example/cancel".into(),
        idempotency_key: key.into(),
    }
}

/// Every implementation must pass every case.
async fn contract(checkout: &dyn Checkout, price: &str) {
    let opened = checkout
        .create_session(&request("key-contract-1", price))
        .await
        .unwrap();
    assert!(opened.id.as_str().starts_with("cs_"), "{opened:?}");
    assert!(opened.url.starts_with("http"), "{opened:?}");

    // The same idempotency key opens the same session; another key another one.
    let again = checkout
        .create_session(&request("key-contract-1", price))
        .await
        .unwrap();
    assert_eq!(again, opened);
    let other = checkout
        .create_session(&request("key-contract-2", price))
        .await
        .unwrap();
    assert_ne!(other.id, opened.id);

    // The session names its buyer and plan; it is not paid yet.
    let session = checkout.get_session(&opened.id).await.unwrap().unwrap();
    assert_eq!(session.id, opened.id);
    assert_eq!(session.uid.as_ref().map(UserId::as_str), Some("local-ana"));
    assert_eq!(session.plan_id.as_deref(), Some("monthly"));
    assert!(!session.paid);
    assert_eq!(
        (session.amount_total, session.currency.as_deref()),
        (Some(3400), Some("cad"))
    );

    let unknown = SessionId::parse("cs_test_does_not_exist").unwrap();
    assert_eq!(checkout.get_session(&unknown).await.unwrap(), None);

    // An unknown price is refused by the provider.
    let refused = checkout
        .create_session(&request("key-contract-3", "nonsense"))
        .await;
    assert!(
        matches!(refused, Err(CheckoutError::Refused(_))),
        "{refused:?}"
    );
}

#[tokio::test]
async fn the_local_test_checkout_meets_the_contract() {
    let local = LocalCheckout::new("http://127.0.0.1:8080");
    contract(&local, "price_local_monthly").await;
}

// ---- A stand-in for Stripe's API -------------------------------------------------------

const KEY: &str = "sk_test_contract_0123456789";
const PRICE: &str = "price_1TestMonthly";

#[derive(Default)]
struct Stub {
    by_id: HashMap<String, Value>,
    by_idempotency_key: HashMap<String, String>,
    /// Every create request's form, as received.
    forms: Vec<Vec<(String, String)>>,
}

type Shared = Arc<Mutex<Stub>>;

fn stripe_error(status: StatusCode, code: &str, message: &str) -> Response {
    (
        status,
        axum::Json(
            json!({"error": {"type": "invalid_request_error", "code": code, "message": message}}),
        ),
    )
        .into_response()
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {KEY}"))
}

async fn create(State(stub): State<Shared>, headers: HeaderMap, body: String) -> Response {
    if !authorised(&headers) {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "api_key_invalid",
            "Invalid API Key",
        );
    }
    assert_eq!(
        headers.get("content-type").and_then(|v| v.to_str().ok()),
        Some("application/x-www-form-urlencoded"),
        "Stripe takes form-encoded bodies"
    );
    let form: Vec<(String, String)> = url::form_urlencoded::parse(body.as_bytes())
        .into_owned()
        .collect();
    let field = |k: &str| {
        form.iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.clone())
    };
    let key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let mut stub = stub.lock().unwrap();
    stub.forms.push(form.clone());
    let Some(key) = key else {
        return stripe_error(
            StatusCode::BAD_REQUEST,
            "missing_idempotency_key",
            "expected an Idempotency-Key",
        );
    };
    if let Some(id) = stub.by_idempotency_key.get(&key) {
        return axum::Json(stub.by_id[id].clone()).into_response();
    }
    if field("line_items[0][price]").as_deref() != Some(PRICE) {
        return stripe_error(StatusCode::BAD_REQUEST, "resource_missing", "No such price");
    }
    let id = format!("cs_test_stub{}", stub.by_id.len() + 1);
    let session = json!({
        "id": id, "object": "checkout.session",
        "url": format!("https://checkout.stripe.com/c/pay/{id}"),
        "mode": field("mode"),
        "client_reference_id": field("client_reference_id"),
        "customer_email": field("customer_email"),
        "metadata": {"userId": field("metadata[userId]"), "planId": field("metadata[planId]")},
        "success_url": field("success_url"), "cancel_url": field("cancel_url"),
        "payment_status": "unpaid", "status": "open",
        "amount_total": 3400, "currency": "cad", "livemode": false,
    });
    stub.by_id.insert(id.clone(), session.clone());
    stub.by_idempotency_key.insert(key, id);
    axum::Json(session).into_response()
}

async fn retrieve(
    State(stub): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if !authorised(&headers) {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "api_key_invalid",
            "Invalid API Key",
        );
    }
    match stub.lock().unwrap().by_id.get(&id) {
        Some(s) => axum::Json(s.clone()).into_response(),
        None => stripe_error(
            StatusCode::NOT_FOUND,
            "resource_missing",
            "No such checkout.session",
        ),
    }
}

async fn stub_server() -> (String, Shared) {
    let stub: Shared = Arc::default();
    let app = Router::new()
        .route("/v1/checkout/sessions", post(create))
        .route("/v1/checkout/sessions/{id}", get(retrieve))
        .with_state(stub.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/"), stub)
}

#[tokio::test]
async fn stripe_meets_the_contract_and_sends_what_stripe_expects() {
    let (base, stub) = stub_server().await;
    let stripe = StripeCheckout::new(KEY, Some(&base)).unwrap();
    contract(&stripe, PRICE).await;

    // The first request, field by field, as Stripe's API documents them.
    let form = stub.lock().unwrap().forms[0].clone();
    let get = |k: &str| {
        form.iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(get("mode"), Some("payment"));
    assert_eq!(get("line_items[0][price]"), Some(PRICE));
    assert_eq!(get("line_items[0][quantity]"), Some("1"));
    assert_eq!(get("client_reference_id"), Some("local-ana"));
    assert_eq!(get("customer_email"), Some("ana@example.com"));
    assert_eq!(get("metadata[userId]"), Some("local-ana"));
    assert_eq!(get("metadata[planId]"), Some("monthly"));
    assert_eq!(
        get("success_url"),
        Some("https://tef.example/success?session_id={CHECKOUT_SESSION_ID}")
    );
    assert_eq!(get("cancel_url"), Some("https://tef.example/cancel"));

    // A wrong key is the provider refusing, not a crash.
    let wrong = StripeCheckout::new("sk_test_wrong", Some(&base)).unwrap();
    assert!(matches!(
        wrong.create_session(&request("key-wrong", PRICE)).await,
        Err(CheckoutError::Refused(_))
    ));
}

#[tokio::test]
async fn an_unreachable_stripe_is_unavailable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    drop(listener);
    let stripe = StripeCheckout::new(KEY, Some(&base)).unwrap();
    assert!(matches!(
        stripe.create_session(&request("key-down", PRICE)).await,
        Err(CheckoutError::Unavailable(_))
    ));
}
