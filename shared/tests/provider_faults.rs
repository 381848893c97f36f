//! Every adapter that calls a provider over HTTP (OpenAI's correction, examiner, transcription
//! and speech; Stripe's checkout) against an upstream that fails in each way a network fails:
//! 500, 429, no answer, a dropped connection, a body that is not JSON, an answer cut short.
//! Each call ends in an error of the port (never a panic, never an empty success), after a
//! bounded number of requests and within the adapter's time budget.

use std::future::Future;
use std::time::{Duration, Instant};

use shared::adapters::{
    OpenAiCorrector, OpenAiExaminer, OpenAiSpeech, OpenAiTranscriber, StripeCheckout,
};
use shared::catalogue::Catalogue;
use shared::domain::payments::SessionId;
use shared::domain::speaking::{ChatMessage, Role};
use shared::domain::writing::Section;
use shared::ports::checkout::{Checkout, NewCheckout};
use shared::ports::corrector::{CorrectionRequest, Corrector};
use shared::ports::examiner::Examiner;
use shared::ports::speech::SpeechSynth;
use shared::ports::transcriber::Transcriber;
use testkit::upstream::{self, Fault};

const KEY: &str = "sk-test-faults";
/// The limits the adapters get here: a whole call, one attempt, the first backoff.
const BUDGET: Duration = Duration::from_millis(2_500);
const ATTEMPT: Duration = Duration::from_millis(600);
const BACKOFF: Duration = Duration::from_millis(20);
/// Attempts in all, the first included (the OpenAI client's and async-stripe's bound).
const MAX_ATTEMPTS: usize = 3;

/// Runs `call` against an upstream failing with `fault` and checks the bounds. `answer` is the
/// call's outcome, rendered: it must be an error.
async fn bounded<F, Fut>(adapter: &str, fault: Fault, call: F) -> usize
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = Result<String, String>>,
{
    let up = upstream::start(fault).await;
    let started = Instant::now();
    let outcome = call(up.origin.clone()).await;
    let took = started.elapsed();
    let requests = up.requests();
    assert!(
        outcome.is_err(),
        "{adapter} on {fault:?}: a failure must be an error, got {outcome:?}"
    );
    assert!(
        (1..=MAX_ATTEMPTS).contains(&requests),
        "{adapter} on {fault:?}: {requests} requests (at most {MAX_ATTEMPTS})"
    );
    assert!(
        took < BUDGET + Duration::from_millis(1_000),
        "{adapter} on {fault:?}: took {took:?} (budget {BUDGET:?})"
    );
    requests
}

fn describe<T: std::fmt::Debug, E: std::fmt::Display>(r: Result<T, E>) -> Result<String, String> {
    r.map(|v| format!("{v:?}")).map_err(|e| e.to_string())
}

fn turn(content: &str) -> ChatMessage {
    ChatMessage {
        role: Role::User,
        content: content.into(),
    }
}

fn checkout_request() -> NewCheckout {
    crate::checkout_contract::request("checkout-faults-1", "price_faults")
}

#[tokio::test]
async fn the_openai_corrector_fails_cleanly_and_boundedly() {
    for fault in Fault::ALL {
        let n = bounded("corrector", fault, |origin| async move {
            let c = OpenAiCorrector::new(&format!("{origin}/v1"), Some(KEY), "m")
                .with_limits(BUDGET, ATTEMPT, BACKOFF);
            let request = CorrectionRequest {
                section: Section::A,
                text: "Hier, je suis allé au marché.".into(),
                prompt: String::new(),
                document: String::new(),
            };
            describe(c.correct(&request).await)
        })
        .await;
        retried_as_expected("corrector", fault, n);
    }
}

#[tokio::test]
async fn the_openai_examiner_fails_cleanly_and_boundedly() {
    let catalogue = Catalogue::embedded().unwrap();
    let topic = catalogue.speaking_topic("serviceCoursLangue").unwrap();
    for fault in Fault::ALL {
        let n = bounded("examiner reply", fault, |origin| async move {
            let e = OpenAiExaminer::new(&format!("{origin}/v1"), Some(KEY), "m")
                .with_limits(BUDGET, ATTEMPT, BACKOFF);
            describe(e.reply(topic, Section::A, &[turn("Bonjour")]).await)
        })
        .await;
        retried_as_expected("examiner reply", fault, n);
        let n = bounded("examiner report", fault, |origin| async move {
            let e = OpenAiExaminer::new(&format!("{origin}/v1"), Some(KEY), "m")
                .with_limits(BUDGET, ATTEMPT, BACKOFF);
            describe(e.report(topic, Section::B, &[turn("Salut")]).await)
        })
        .await;
        retried_as_expected("examiner report", fault, n);
    }
}

#[tokio::test]
async fn the_openai_transcriber_fails_cleanly_and_boundedly() {
    for fault in Fault::ALL {
        let n = bounded("transcriber", fault, |origin| async move {
            let t = OpenAiTranscriber::new(&format!("{origin}/v1"), Some(KEY), "m")
                .with_limits(BUDGET, ATTEMPT, BACKOFF);
            describe(t.transcribe(b"\x1aE\xdf\xa3 webm bytes").await)
        })
        .await;
        retried_as_expected("transcriber", fault, n);
    }
}

#[tokio::test]
async fn openai_speech_fails_cleanly_and_boundedly() {
    let cast = Catalogue::embedded().unwrap().cast;
    let voice = &cast.voices["femme-1"];
    for fault in Fault::ALL {
        let n = bounded("speech", fault, |origin| async move {
            let s = OpenAiSpeech::new(&format!("{origin}/v1"), Some(KEY), "m")
                .with_limits(BUDGET, ATTEMPT, BACKOFF);
            describe(s.synthesize("Bonjour.", voice).await.map(|b| b.len()))
        })
        .await;
        // A 200 that is not WAV audio is refused like a body that is not JSON: never cached.
        retried_as_expected("speech", fault, n);
    }
}

#[tokio::test]
async fn stripe_fails_cleanly_and_boundedly() {
    for fault in Fault::ALL {
        bounded("stripe create", fault, |origin| async move {
            let s = StripeCheckout::with_limits(KEY, Some(&format!("{origin}/")), ATTEMPT, BUDGET)
                .unwrap();
            describe(s.create_session(&checkout_request()).await)
        })
        .await;
        bounded("stripe retrieve", fault, |origin| async move {
            let s = StripeCheckout::with_limits(KEY, Some(&format!("{origin}/")), ATTEMPT, BUDGET)
                .unwrap();
            let id = SessionId::parse("cs_test_faults").unwrap();
            describe(s.get_session(&id).await)
        })
        .await;
    }
}

/// What is worth retrying is retried, to the bound; what is not, is not.
fn retried_as_expected(adapter: &str, fault: Fault, requests: usize) {
    let expected = match fault {
        // A 200 that is not JSON will not become JSON by asking again.
        Fault::NotJson => 1,
        // Each attempt waits its whole time limit: the budget allows fewer than three.
        Fault::Hang => return,
        _ => MAX_ATTEMPTS,
    };
    assert_eq!(requests, expected, "{adapter} on {fault:?}");
}
