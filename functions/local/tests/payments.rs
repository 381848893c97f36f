//! Payments through the real local server: the checkout route, the local test checkout's
//! page, its signed webhook delivery, the success page's lookup, and the webhook's refusals.

use crate::common;

use common::{TestServer, start};
use reqwest::StatusCode;
use serde_json::{Value, json};
use shared::domain::payments::{SessionId, sign};
use shared::domain::{UserDoc, UserId};
use shared::ports::store::update_user;

const SECRET: &str = shared::config::PaymentsConfig::LOCAL_WEBHOOK_SECRET;

async fn uid(s: &TestServer, token: &str) -> String {
    let (_, me) = s.get("/api/me", Some(token)).await;
    me["uid"].as_str().unwrap().to_owned()
}

async fn open_checkout(s: &TestServer, token: &str, price: &str) -> (StatusCode, Value) {
    let body = json!({"priceId": price, "userId": uid(s, token).await, "email": "x@example.com"});
    s.post(
        "/api/stripe/create-checkout-session",
        Some(token),
        &body.to_string(),
    )
    .await
}

fn session_id(url: &str) -> String {
    url.rsplit('/').next().unwrap().to_owned()
}

async fn subscription(s: &TestServer, token: &str) -> Value {
    s.get("/api/me", Some(token)).await.1["subscription"].clone()
}

async fn post_webhook(s: &TestServer, body: &[u8], signature: &str) -> StatusCode {
    s.http
        .post(s.url("/api/stripe/webhook"))
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
        .status()
}

fn completed_event(session: &str, uid: &str, plan: &str, amount: i64) -> Vec<u8> {
    json!({
        "id": "evt_test_1", "object": "event", "type": "checkout.session.completed",
        "data": {"object": {
            "id": session, "object": "checkout.session", "client_reference_id": uid,
            "metadata": {"userId": uid, "planId": plan},
            "payment_status": "paid", "amount_total": amount, "currency": "cad"
        }}
    })
    .to_string()
    .into_bytes()
}

#[tokio::test]
async fn plans_carry_their_price_ids() {
    let s = start().await;
    let (status, plans) = s.get("/api/plans", None).await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<_> = plans
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].clone(), p["priceId"].clone()))
        .collect();
    assert_eq!(
        ids,
        [
            (json!("free"), Value::Null),
            (json!("monthly"), json!("price_local_monthly")),
            (json!("quarterly"), json!("price_local_quarterly")),
        ]
    );
}

#[tokio::test]
async fn a_learner_buys_a_month_through_the_local_checkout() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    assert_eq!(subscription(&s, &ana).await["status"], "none");

    let (status, opened) = open_checkout(&s, &ana, "price_local_monthly").await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    let url = opened["url"].as_str().unwrap();
    assert!(url.starts_with(&s.url("/checkout/cs_local_")), "{url}");
    // A double click opens the same session.
    let (_, again) = open_checkout(&s, &ana, "price_local_monthly").await;
    assert_eq!(again["url"], opened["url"]);

    // The page names the plan and the amount, and says it is a test.
    let page = s.http.get(url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    for text in [
        "1 Month",
        "34.00 CAD",
        "Test checkout",
        "no card is asked for",
    ] {
        assert!(html.contains(text), "{text}: {html}");
    }
    assert!(!html.to_lowercase().contains("card number"));

    // Before paying, the session is not paid and nothing is unlocked.
    let id = session_id(url);
    let lookup = format!("/api/stripe/checkout-session?sessionId={id}");
    let (status, before) = s.get(&lookup, Some(&ana)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(before["paid"], false);
    assert_eq!(subscription(&s, &ana).await["status"], "none");

    // Pay: the signed webhook arrives at the real route, then the buyer is sent to /success.
    let paid = s
        .http
        .post(s.url(&format!("/checkout/{id}/pay")))
        .send()
        .await
        .unwrap();
    assert!(paid.status().is_redirection());
    assert_eq!(
        paid.headers()["location"].to_str().unwrap(),
        s.url(&format!("/success?session_id={id}"))
    );
    // The page of a paid session offers no second payment.
    let html = s.http.get(url).send().await.unwrap().text().await.unwrap();
    assert!(
        html.contains("already paid") && !html.contains("Pay 34.00"),
        "{html}"
    );
    let sub = subscription(&s, &ana).await;
    assert_eq!(
        (&sub["status"], &sub["daysLeft"], &sub["plan"]),
        (&json!("active"), &json!(30), &json!("monthly")),
        "{sub}"
    );
    let payment = s
        .state
        .app
        .payments
        .get_payment(&SessionId::parse(&id).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (payment.amount_total, payment.currency.as_str()),
        (3400, "cad")
    );

    // The success page's lookup: the amount, and no second extension.
    let (status, session) = s.get(&lookup, Some(&ana)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        session,
        json!({"amount_total": 3400, "currency": "cad", "paid": true})
    );
    assert_eq!(subscription(&s, &ana).await, sub);
    // Reading test 2 opens now.
    assert_eq!(
        s.get("/api/tests/reading/2", Some(&ana)).await.0,
        StatusCode::OK
    );

    // Someone else's session is not found; neither is a made-up one.
    let bob = s.token("bob@example.com");
    assert_eq!(s.get(&lookup, Some(&bob)).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        s.get(
            "/api/stripe/checkout-session?sessionId=cs_local_nope",
            Some(&ana)
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(s.get(&lookup, None).await.0, StatusCode::UNAUTHORIZED);

    // An active subscriber cannot start another checkout.
    let (status, refused) = open_checkout(&s, &ana, "price_local_quarterly").await;
    assert_eq!(
        (status, refused),
        (
            StatusCode::CONFLICT,
            json!({"error": "You already have an active subscription."})
        )
    );
}

#[tokio::test]
async fn checkout_requests_are_checked() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    let ana_uid = uid(&s, &ana).await;
    let post = |body: Value, token: Option<String>| {
        let s = &s;
        async move {
            s.post(
                "/api/stripe/create-checkout-session",
                token.as_deref(),
                &body.to_string(),
            )
            .await
        }
    };
    let good =
        json!({"priceId": "price_local_monthly", "userId": ana_uid, "email": "ana@example.com"});
    assert_eq!(post(good.clone(), None).await.0, StatusCode::UNAUTHORIZED);
    let someone_else =
        json!({"priceId": "price_local_monthly", "userId": "local-0123456789abcdef01234567"});
    assert_eq!(
        post(someone_else, Some(ana.clone())).await.0,
        StatusCode::FORBIDDEN
    );
    for bad in [
        json!({"priceId": "price_unknown", "userId": ana_uid}),
        json!({"priceId": "price_your_monthly_id", "userId": ana_uid}),
        json!({"priceId": 5, "userId": ana_uid}),
        json!({"userId": ana_uid}),
        json!({"priceId": "price_local_monthly", "userId": ana_uid, "admin": true}),
    ] {
        let (status, body) = post(bad.clone(), Some(ana.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["error"].is_string());
    }
    assert_eq!(subscription(&s, &ana).await["status"], "none");
}

#[tokio::test]
async fn the_webhook_refuses_what_is_not_signed_and_fulfils_each_session_once() {
    webhook_refusals_and_once_only(start().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_webhook_on_dynamodb_refuses_what_is_not_signed_and_fulfils_each_session_once() {
    webhook_refusals_and_once_only(common::start_on_dynamodb().await).await;
}

async fn webhook_refusals_and_once_only(s: TestServer) {
    let ana = s.token("ana@example.com");
    let ana_uid = uid(&s, &ana).await;
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let body = completed_event("cs_test_webhook_1", &ana_uid, "monthly", 3400);

    // Bad signature, stale timestamp, altered body, no header: 400, nothing changes.
    let altered = completed_event("cs_test_webhook_1", &ana_uid, "quarterly", 3400);
    for (what, body, signature) in [
        (
            "bad signature",
            body.clone(),
            sign(&body, "whsec_wrong", now),
        ),
        ("stale", body.clone(), sign(&body, SECRET, now - 301)),
        (
            "from the future",
            body.clone(),
            sign(&body, SECRET, now + 301),
        ),
        ("altered body", altered, sign(&body, SECRET, now)),
        ("no signature", body.clone(), String::new()),
    ] {
        assert_eq!(
            post_webhook(&s, &body, &signature).await,
            StatusCode::BAD_REQUEST,
            "{what}"
        );
    }
    assert_eq!(subscription(&s, &ana).await["status"], "none");

    // An event of another type: acknowledged, nothing changes.
    let other =
        br#"{"id":"evt_2","object":"event","type":"invoice.paid","data":{"object":{"id":"in_1"}}}"#;
    assert_eq!(
        post_webhook(&s, other, &sign(other, SECRET, now)).await,
        StatusCode::OK
    );
    assert_eq!(subscription(&s, &ana).await["status"], "none");

    // The same event fifty times at once: one payment, thirty days.
    let signature = sign(&body, SECRET, now);
    let sent =
        futures_util::future::join_all((0..50).map(|_| post_webhook(&s, &body, &signature))).await;
    assert!(sent.iter().all(|st| *st == StatusCode::OK), "{sent:?}");
    let sub = subscription(&s, &ana).await;
    assert_eq!(
        (&sub["status"], &sub["daysLeft"]),
        (&json!("active"), &json!(30))
    );

    // A second paid session extends from the current end: 30 + 90 days.
    let quarterly = completed_event("cs_test_webhook_2", &ana_uid, "quarterly", 6900);
    assert_eq!(
        post_webhook(&s, &quarterly, &sign(&quarterly, SECRET, now)).await,
        StatusCode::OK
    );
    assert_eq!(subscription(&s, &ana).await["daysLeft"], 120);
}

#[tokio::test]
async fn an_expired_subscriber_may_buy_again() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    let id = UserId::parse(&uid(&s, &ana).await).unwrap();
    let ended = s.state.app.now() - time::Duration::days(1);
    update_user(s.state.app.users.as_ref(), &id, |d| {
        Ok::<_, ()>(UserDoc {
            subscription_type: Some("monthly".into()),
            subscription_end_date: Some(ended),
            ..d.unwrap_or_default()
        })
    })
    .await
    .unwrap();
    assert_eq!(subscription(&s, &ana).await["status"], "expired");
    let (status, opened) = open_checkout(&s, &ana, "price_local_quarterly").await;
    assert_eq!(status, StatusCode::OK, "{opened}");
}
