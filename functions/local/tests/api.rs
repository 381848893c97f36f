//! Black-box tests: start the real local server on a free port, then talk HTTP to it,
//! including the whole sign-in (authorization code + PKCE) as a browser does it.

use crate::common;

use std::time::Duration;

use common::{id_token, start};
use reqwest::StatusCode;
use serde_json::{Value, json};
use shared::ports::media::MediaKey;

#[tokio::test]
async fn health_and_plans_are_public() {
    let s = start().await;
    assert_eq!(
        s.get("/api/health", None).await,
        (StatusCode::OK, json!({"status": "ok"}))
    );
    let (status, plans) = s.get("/api/plans", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        plans[1],
        json!({"id": "monthly", "name": "1 Month", "priceCents": 3400, "currency": "CAD", "days": 30, "priceId": "price_local_monthly"})
    );
}

#[tokio::test]
async fn the_openapi_document_is_served() {
    let s = start().await;
    let (status, doc) = s.get("/api/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc, shared::api::openapi::document());
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/api/tests/{category}/{id}/attempts"]["post"].is_object());
}

#[tokio::test]
async fn a_missing_or_bad_token_gets_401() {
    let s = start().await;
    let expected = (
        StatusCode::UNAUTHORIZED,
        json!({"error": "You must be logged in."}),
    );
    assert_eq!(s.get("/api/me", None).await, expected);
    assert_eq!(s.get("/api/me", Some("garbage")).await, expected);
    let tokens = s.sign_in("ana@example.com").await;
    // The access token is not accepted where an ID token is expected.
    assert_eq!(
        s.get("/api/me", Some(tokens["access_token"].as_str().unwrap()))
            .await,
        expected
    );
    // A token whose signature was tampered with.
    // (ES256 signatures end in one of A, Q, g, w: swap for another of them.)
    let mut forged = id_token(&tokens);
    let last = forged.pop();
    forged.push(if last == Some('A') { 'Q' } else { 'A' });
    assert_eq!(s.get("/api/me", Some(&forged)).await, expected);
    assert_eq!(
        s.post("/api/me/privacy-acceptance", None, "{}").await,
        expected
    );
}

#[tokio::test]
async fn sign_in_accept_terms_and_read_only_your_own_profile() {
    let s = start().await;
    let ana = id_token(&s.sign_in("Ana@Example.com").await);
    let (status, me) = s.get("/api/me", Some(&ana)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["email"], "ana@example.com");
    assert_eq!(me["registered"], false);
    assert_eq!(me["acceptedPrivacyPolicy"], false);
    assert_eq!(me["aiCredits"], 3);
    assert_eq!(
        me["subscription"],
        json!({"status": "none", "label": "No Subscription", "plan": null, "endDate": null, "daysLeft": null})
    );

    let (status, me) = s.post("/api/me/privacy-acceptance", Some(&ana), "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            me["registered"].clone(),
            me["acceptedPrivacyPolicy"].clone()
        ),
        (json!(true), json!(true))
    );
    assert_eq!(
        (me["aiCredits"].clone(), me["speakingCredits"].clone()),
        (json!(3), json!(3))
    );

    // Another user sees their own, empty profile, never Ana's.
    let bob = id_token(&s.sign_in("bob@example.com").await);
    let (_, bob_me) = s.get("/api/me", Some(&bob)).await;
    assert_eq!(bob_me["email"], "bob@example.com");
    assert_eq!(bob_me["registered"], false);
    assert_ne!(bob_me["uid"], me["uid"]);

    // The same person signing in again is the same user.
    let ana_again = id_token(&s.sign_in("ana@example.com").await);
    let (_, again) = s.get("/api/me", Some(&ana_again)).await;
    assert_eq!(again["uid"], me["uid"]);
    assert_eq!(again["acceptedPrivacyPolicy"], true);
}

#[tokio::test]
async fn bad_input_gets_a_clear_4xx_and_changes_nothing() {
    let s = start().await;
    let ana = id_token(&s.sign_in("ana@example.com").await);
    let (status, body) = s
        .post("/api/me/privacy-acceptance", Some(&ana), "{not json")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("The request body is not valid")
    );
    let (status, _) = s
        .post(
            "/api/me/privacy-acceptance",
            Some(&ana),
            r#"{"aiCredits": 999}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let huge = format!(r#"{{"pad": "{}"}}"#, "x".repeat(70 * 1024));
    let (status, _) = s
        .post("/api/me/privacy-acceptance", Some(&ana), &huge)
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (_, me) = s.get("/api/me", Some(&ana)).await;
    assert_eq!(me["registered"], false, "nothing was written");

    assert_eq!(
        s.get("/api/nope", None).await,
        (StatusCode::NOT_FOUND, json!({"error": "Not found."}))
    );
    let res = s.http.delete(s.url("/api/me")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn refresh_tokens_renew_and_codes_are_single_use() {
    let s = start().await;
    let tokens = s.sign_in("ana@example.com").await;
    let renewed: Value = s
        .http
        .post(s.url("/auth/token"))
        .form(&[
            ("grant_type", "refresh_token"),
            ("client_id", "tef-local"),
            ("refresh_token", tokens["refresh_token"].as_str().unwrap()),
        ])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let (status, _) = s.get("/api/me", Some(&id_token(&renewed))).await;
    assert_eq!(status, StatusCode::OK);

    let res = s
        .http
        .post(s.url("/auth/token"))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", "made-up"),
            ("client_id", "tef-local"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(res.json::<Value>().await.unwrap()["error"], "invalid_grant");
}

#[tokio::test]
async fn the_frontend_is_served_with_client_side_routing() {
    let s = start().await;
    for path in ["/", "/dashboard", "/section/reading", "/no/such/page"] {
        let res = s.http.get(s.url(path)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert!(res.text().await.unwrap().contains("<title>app</title>"));
    }
    let res = s.http.get(s.url("/assets/app.js")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    let res = s
        .http
        .get(s.url("/assets/missing.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    let (status, cfg) = s.get("/config.json", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cfg["auth"]["authority"], s.url("/auth"));
    assert_eq!(cfg["supportEmail"], "support@example.com");
}

#[tokio::test]
async fn media_is_served_only_through_valid_signed_links() {
    let s = start().await;
    let key = MediaKey::parse("reading/1/q01.svg").unwrap();
    s.state
        .app
        .media
        .put(&key, bytes::Bytes::from_static(b"<svg/>"))
        .await
        .unwrap();
    let url = s
        .state
        .app
        .media
        .signed_url(&key, Duration::from_secs(60))
        .await
        .unwrap();
    let res = s.http.get(s.url(&url)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    assert_eq!(res.text().await.unwrap(), "<svg/>");

    let unsigned = s
        .http
        .get(s.url("/media/reading/1/q01.svg"))
        .send()
        .await
        .unwrap();
    assert_eq!(unsigned.status(), StatusCode::FORBIDDEN);
    let tampered = url.replace("expires=", "expires=1");
    assert_eq!(
        s.http.get(s.url(&tampered)).send().await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    let traversal = s
        .http
        .get(s.url("/media/reading/%2e%2e/secret?expires=1&sig=00"))
        .send()
        .await
        .unwrap();
    assert!(traversal.status().is_client_error());
}

/// The local server sends the security headers CloudFront sets in production
/// (`shared::security`), on the app, its files and the API; the stand-in provider pages get a
/// policy of their own that allows their inline style sheet and nothing else.
#[tokio::test]
async fn every_response_carries_the_production_security_headers() {
    let s = start().await;
    let app_csp = shared::security::content_security_policy(&[]);
    for path in [
        "/",
        "/dashboard",
        "/assets/app.js",
        "/api/health",
        "/api/me",
    ] {
        let res = s.http.get(s.url(path)).send().await.unwrap();
        let h = res.headers();
        for (name, value) in shared::security::security_headers(&app_csp) {
            assert_eq!(h[name].to_str().unwrap(), value, "{path}: {name}");
        }
    }
    let res = s.http.get(s.url("/auth/authorize")).send().await.unwrap();
    let csp = res.headers()["content-security-policy"].to_str().unwrap();
    assert!(
        csp.starts_with("default-src 'none'; style-src 'unsafe-inline';"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"));
}

/// DNS rebinding: a page that points its own name at this machine cannot use the local sign-in
/// (which signs anyone in) nor anything else; the server's own names all work.
#[tokio::test]
async fn requests_for_another_host_are_refused() {
    let s = start().await;
    let port = s.base.rsplit(':').next().unwrap().to_owned();
    for path in ["/auth/authorize", "/api/health", "/"] {
        let res = s
            .http
            .get(s.url(path))
            .header("host", format!("evil.example:{port}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::MISDIRECTED_REQUEST, "{path}");
    }
    for host in ["127.0.0.1", "localhost", "[::1]"] {
        let res = s
            .http
            .get(s.url("/api/health"))
            .header("host", format!("{host}:{port}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{host}");
    }
}
