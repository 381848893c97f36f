//! Failing providers under the real server: the production adapters (OpenAI's correction,
//! examiner, transcription and speech; Stripe's checkout) pointed at an upstream that answers
//! 500 every time, or nothing at all. Every route that calls one answers the spec's own text
//! within API Gateway's 30 s, leaks nothing of the provider's answer, gives back what it took
//! (the writing credit and its hourly slot), and stores nothing: no result, no cached audio,
//! no subscription. (`shared/tests/provider_faults.rs` covers each adapter's retries alone.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use reqwest::StatusCode;
use serde_json::{Value, json};
use shared::adapters::{
    OpenAiCorrector, OpenAiExaminer, OpenAiSpeech, OpenAiTranscriber, StripeCheckout,
};
use shared::domain::UserId;
use testkit::upstream::{self, Fault, Upstream};

use crate::common::{TestServer, start_with_app};

const KEY: &str = "sk-test-provider-faults";
const BUDGET: Duration = Duration::from_millis(2_000);
const ATTEMPT: Duration = Duration::from_millis(500);
const BACKOFF: Duration = Duration::from_millis(20);

const TEXT_A: &str = "Le lendemain, Julie est retournée au marché pour chercher le propriétaire du \
    portefeuille. Elle a demandé à chaque marchand s'il connaissait un homme âgé avec un chapeau \
    gris. Une vendeuse de fleurs lui a dit qu'il venait tous les samedis acheter des tulipes. Julie \
    a donc attendu près du stand pendant toute la matinée. Vers midi, le monsieur est arrivé, très \
    inquiet, et il a reconnu tout de suite son portefeuille. Il voulait lui donner une récompense, \
    mais Julie a refusé poliment. Depuis ce jour, ils prennent un café ensemble chaque semaine.";

async fn server(fault: Fault) -> (TestServer, Upstream) {
    let up = upstream::start(fault).await;
    let v1 = format!("{}/v1", up.origin);
    let stripe = format!("{}/", up.origin);
    let s = start_with_app(|app| {
        app.corrector = Arc::new(
            OpenAiCorrector::new(&v1, Some(KEY), "m").with_limits(BUDGET, ATTEMPT, BACKOFF),
        );
        app.examiner = Arc::new(
            OpenAiExaminer::new(&v1, Some(KEY), "m").with_limits(BUDGET, ATTEMPT, BACKOFF),
        );
        app.transcriber = Arc::new(
            OpenAiTranscriber::new(&v1, Some(KEY), "m").with_limits(BUDGET, ATTEMPT, BACKOFF),
        );
        app.speech =
            Arc::new(OpenAiSpeech::new(&v1, Some(KEY), "m").with_limits(BUDGET, ATTEMPT, BACKOFF));
        app.checkout = Some(Arc::new(
            StripeCheckout::with_limits(KEY, Some(&stripe), ATTEMPT, BUDGET).unwrap(),
        ));
    })
    .await;
    (s, up)
}

/// What a learner has: profile, credits, subscription and progress.
async fn learner(s: &TestServer, token: &str) -> Value {
    let (_, me) = s.get("/api/me", Some(token)).await;
    let (_, progress) = s.get("/api/progress", Some(token)).await;
    json!({ "me": me, "progress": progress })
}

/// Posts, and checks the answer: `status`, exactly `shown`, in time, with nothing of the provider.
async fn refused(s: &TestServer, token: &str, path: &str, body: Value, shown: &str) {
    let started = Instant::now();
    let (status, answer) = s.post(path, Some(token), &body.to_string()).await;
    let took = started.elapsed();
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{path}: {answer}");
    assert_eq!(answer, json!({ "error": shown }), "{path}");
    assert!(
        took < Duration::from_secs(10),
        "{path} took {took:?}: API Gateway gives up at 30 s"
    );
}

async fn every_provider_route(fault: Fault) {
    let (s, up) = server(fault).await;
    let token = s.signed_in("provider-faults@example.com").await;
    let before = learner(&s, &token).await;
    let uid = before["me"]["uid"].as_str().unwrap().to_owned();

    refused(
        &s,
        &token,
        "/api/openai/tef-correction",
        json!({ "studentText": TEXT_A, "section": "A", "topicId": "1" }),
        shared::api::writing::CORRECTION_FAILED,
    )
    .await;
    let messages = json!([{ "role": "user", "content": "Bonjour, combien coûte le cours ?" }]);
    refused(
        &s,
        &token,
        "/api/openai/speaking-chat",
        json!({ "topicId": "serviceCoursLangue", "section": "A", "sessionId": "faults-session-1", "messages": messages }),
        shared::api::speaking::CHAT_FAILED,
    )
    .await;
    refused(
        &s,
        &token,
        "/api/openai/speaking-report",
        json!({ "topicId": "serviceCoursLangue", "section": "A", "sessionId": "faults-session-1", "conversationHistory": messages }),
        shared::api::speaking::REPORT_FAILED,
    )
    .await;
    let speech = json!({ "text": "Bonjour, que puis-je faire pour vous ?", "section": "A" });
    refused(
        &s,
        &token,
        "/api/openai/text-to-speech",
        speech.clone(),
        shared::api::speaking::SPEECH_FAILED,
    )
    .await;
    let audio = base64::engine::general_purpose::STANDARD.encode(b"\x1aE\xdf\xa3 webm bytes");
    refused(
        &s,
        &token,
        "/api/transcription",
        json!({ "audio": audio }),
        shared::api::speaking::TRANSCRIPTION_FAILED,
    )
    .await;
    refused(
        &s,
        &token,
        "/api/stripe/create-checkout-session",
        json!({ "priceId": "price_local_monthly", "userId": uid }),
        shared::api::payments::CHECKOUT_FAILED,
    )
    .await;
    let started = Instant::now();
    let (status, answer) = s
        .get(
            "/api/stripe/checkout-session?sessionId=cs_test_faults",
            Some(&token),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert_eq!(answer, json!({ "error": "Failed to fetch session data" }));
    assert!(started.elapsed() < Duration::from_secs(10));

    // Nothing was taken or stored: the same credits, subscription and (empty) progress …
    assert_eq!(learner(&s, &token).await, before, "{fault:?}");
    // … the writing slot was given back with the credit …
    let doc = s
        .state
        .app
        .users
        .get_user(&UserId::parse(&uid).unwrap())
        .await
        .unwrap()
        .unwrap()
        .value;
    assert!(doc.writing_correction_timestamps.is_empty(), "{fault:?}");
    // … and no failed render was cached: the same text goes to the provider again.
    let asked = up.requests();
    refused(
        &s,
        &token,
        "/api/openai/text-to-speech",
        speech,
        shared::api::speaking::SPEECH_FAILED,
    )
    .await;
    assert!(
        up.requests() > asked,
        "{fault:?}: a failed render was cached"
    );
}

#[tokio::test]
async fn a_provider_answering_500_gets_the_specs_texts_and_changes_nothing() {
    every_provider_route(Fault::ServerError).await;
}

#[tokio::test]
async fn a_silent_provider_gets_the_specs_texts_in_time_and_changes_nothing() {
    every_provider_route(Fault::Hang).await;
}
