//! The Lambda edge: API Gateway HTTP API events, with the JWT authorizer's
//! claims, go through the same handlers as the local server.

use crate::common;

use std::sync::Arc;

use lambda_http::{Body, Request};
use serde_json::{Value, json};
use shared::App;
use shared::adapters::SqliteStore;
use shared::api::routes::by_name;
use time::macros::datetime;

fn app() -> App {
    common::offline_app(
        Arc::new(shared::catalogue::Catalogue::embedded().unwrap()),
        Arc::new(SqliteStore::in_memory().unwrap()),
        datetime!(2026-11-22 12:00 UTC),
    )
}

/// An API Gateway v2 event as AWS sends it; `claims` is what the JWT authorizer verified.
fn event(method: &str, path: &str, claims: Option<Value>, body: &str) -> Request {
    let mut ctx = json!({
        "accountId": "123456789012", "apiId": "api", "domainName": "example.com",
        "domainPrefix": "api", "requestId": "r1", "routeKey": format!("{method} {path}"),
        "stage": "$default", "time": "22/Nov/2026:12:00:00 +0000", "timeEpoch": 1795348800000u64,
        "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "1.2.3.4", "userAgent": "test"}
    });
    if let Some(c) = claims {
        ctx["authorizer"] = json!({"jwt": {"claims": c, "scopes": null}});
    }
    let e = json!({
        "version": "2.0", "routeKey": format!("{method} {path}"), "rawPath": path, "rawQueryString": "",
        "headers": {"content-type": "application/json"}, "requestContext": ctx,
        "body": body, "isBase64Encoded": false
    });
    lambda_http::request::from_str(&e.to_string()).unwrap()
}

fn body_json(res: &lambda_http::Response<Body>) -> Value {
    serde_json::from_slice(res.body().as_ref()).unwrap()
}

#[tokio::test]
async fn authorizer_claims_become_the_identity() {
    let app = app();
    let ana = json!({"sub": "4f1c2a9e-1b7d-4c57-9a53-2f7c1e1d9b20", "email": "ana@example.com",
        "email_verified": "true", "token_use": "id"});
    let accept = by_name("accept-privacy").unwrap();
    let res = shared::lambda::handle(
        &app,
        accept,
        event(
            "POST",
            "/api/me/privacy-acceptance",
            Some(ana.clone()),
            "{}",
        ),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body_json(&res)["acceptedPrivacyPolicy"], true);

    let me = by_name("get-me").unwrap();
    let res = shared::lambda::handle(&app, me, event("GET", "/api/me", Some(ana), "")).await;
    assert_eq!(res.status(), 200);
    let body = body_json(&res);
    assert_eq!(body["email"], "ana@example.com");
    assert_eq!(body["aiCredits"], 3);
    assert_eq!(res.headers()["content-type"], "application/json");

    // Another user's claims read another document.
    let bob = json!({"sub": "0b0b0b0b-1b7d-4c57-9a53-2f7c1e1d9b20", "email": "bob@example.com",
        "email_verified": "true", "token_use": "id"});
    let body =
        body_json(&shared::lambda::handle(&app, me, event("GET", "/api/me", Some(bob), "")).await);
    assert_eq!(body["email"], "bob@example.com");
    assert_eq!(body["registered"], false);
}

#[tokio::test]
async fn no_claims_or_bad_claims_get_401() {
    let app = app();
    let me = by_name("get-me").unwrap();
    let res = shared::lambda::handle(&app, me, event("GET", "/api/me", None, "")).await;
    assert_eq!(res.status(), 401);
    assert_eq!(body_json(&res), json!({"error": "You must be logged in."}));
    let res = shared::lambda::handle(
        &app,
        me,
        event(
            "GET",
            "/api/me",
            Some(json!({"sub": "a/b", "token_use": "id"})),
            "",
        ),
    )
    .await;
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn only_id_tokens_are_accepted_and_only_a_verified_email_is_trusted() {
    let app = app();
    let me = by_name("get-me").unwrap();
    let sub = "7e7e7e7e-1b7d-4c57-9a53-2f7c1e1d9b20";
    let get =
        |claims: Value| shared::lambda::handle(&app, me, event("GET", "/api/me", Some(claims), ""));
    // Claims as API Gateway passes them: strings, and absent rather than null.
    let claims = |token_use: Option<&str>, verified: Option<&str>, email: &str| {
        let mut c = json!({"sub": sub, "email": email});
        if let Some(t) = token_use {
            c["token_use"] = json!(t);
        }
        if let Some(v) = verified {
            c["email_verified"] = json!(v);
        }
        c
    };
    // An access token, or a token that does not say what it is: 401.
    for token_use in [Some("access"), None] {
        let res = get(claims(token_use, Some("true"), "eve@example.com")).await;
        assert_eq!(res.status(), 401, "{token_use:?}");
    }
    // An unverified e-mail is not taken as the user's address.
    for verified in [Some("false"), None] {
        let res = get(claims(Some("id"), verified, "boss@example.com")).await;
        assert_eq!(res.status(), 200);
        assert_eq!(body_json(&res)["email"], Value::Null, "{verified:?}");
    }
    let claims = json!({"sub": sub, "email": "eve@example.com", "email_verified": "true", "token_use": "id"});
    assert_eq!(body_json(&get(claims).await)["email"], "eve@example.com");
}

/// The webhook through API Gateway: the signature covers the exact bytes Stripe sent,
/// whether the body arrives as text or base64-encoded.
#[tokio::test]
async fn the_webhook_verifies_the_exact_body_whether_or_not_it_arrives_base64_encoded() {
    use base64::Engine;
    use shared::domain::payments::sign;

    let app = app();
    let webhook = by_name("stripe-webhook").unwrap();
    let secret = shared::config::PaymentsConfig::LOCAL_WEBHOOK_SECRET;
    let now = datetime!(2026-11-22 12:00 UTC).unix_timestamp();
    let sub = "4f1c2a9e-1b7d-4c57-9a53-2f7c1e1d9b20";
    let body = |session: &str| {
        format!(
            r#"{{"id":"evt_1","object":"event","type":"checkout.session.completed","data":{{"object":{{"id":"{session}","object":"checkout.session","client_reference_id":"{sub}","metadata":{{"userId":"{sub}","planId":"monthly"}},"payment_status":"paid","amount_total":3400,"currency":"cad"}}}}}}"#
        )
    };
    let deliver = |raw: &str, signature: &str, base64: bool| {
        let e = json!({
            "version": "2.0", "routeKey": "POST /api/stripe/webhook", "rawPath": "/api/stripe/webhook",
            "rawQueryString": "",
            "headers": {"content-type": "application/json", "stripe-signature": signature},
            "requestContext": {
                "accountId": "123456789012", "apiId": "api", "domainName": "example.com",
                "domainPrefix": "api", "requestId": "r1", "routeKey": "POST /api/stripe/webhook",
                "stage": "$default", "time": "22/Nov/2026:12:00:00 +0000", "timeEpoch": 1795348800000u64,
                "http": {"method": "POST", "path": "/api/stripe/webhook", "protocol": "HTTP/1.1", "sourceIp": "1.2.3.4", "userAgent": "Stripe/1.0"}
            },
            "body": if base64 { base64::engine::general_purpose::STANDARD.encode(raw) } else { raw.to_owned() },
            "isBase64Encoded": base64
        });
        lambda_http::request::from_str(&e.to_string()).unwrap()
    };
    let end = |app: &App| {
        let app = app.clone();
        async move {
            app.users
                .get_user(&shared::domain::UserId::parse(sub).unwrap())
                .await
                .unwrap()
                .and_then(|d| d.value.subscription_end_date)
        }
    };

    // As text: the first session gives 30 days.
    let raw = body("cs_test_edge_1");
    let res = shared::lambda::handle(
        &app,
        webhook,
        deliver(&raw, &sign(raw.as_bytes(), secret, now), false),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(end(&app).await, Some(datetime!(2026-12-22 12:00 UTC)));

    // Base64-encoded: verified on the decoded bytes; the second session adds 30 more.
    let raw = body("cs_test_edge_2");
    let res = shared::lambda::handle(
        &app,
        webhook,
        deliver(&raw, &sign(raw.as_bytes(), secret, now), true),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(end(&app).await, Some(datetime!(2027-01-21 12:00 UTC)));

    // The same bytes re-serialised (spaces added) no longer match: 400, nothing changes.
    let raw = body("cs_test_edge_3");
    let signature = sign(raw.as_bytes(), secret, now);
    let reformatted = raw.replace(",\"", ", \"");
    let res = shared::lambda::handle(&app, webhook, deliver(&reformatted, &signature, true)).await;
    assert_eq!(res.status(), 400);
    assert_eq!(end(&app).await, Some(datetime!(2027-01-21 12:00 UTC)));
}
