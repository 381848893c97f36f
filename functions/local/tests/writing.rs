//! Writing through the real local server: the topics and their locks, and
//! `POST /api/openai/tef-correction` with its checks in the spec's order, its credits and
//! hourly limit under concurrency, the give-back on failure, and the tracker. The offline
//! corrector (Grammalecte) runs for real in one test; the others use a stand-in corrector
//! so that failures and timing are under the test's control.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use common::{TestServer, start, start_on_dynamodb_with_app, start_with_app};
use reqwest::StatusCode;
use serde_json::{Value, json};
use shared::domain::{UserDoc, UserId};
use shared::ports::corrector::{
    Correction, CorrectionItem, CorrectionRequest, Corrector, CorrectorError,
};
use shared::ports::store::update_user;

const ROUTE: &str = "/api/openai/tef-correction";

/// 95 words of a Section A answer, with two learner errors (« a la », « les enfant »).
const TEXT_A: &str = "Mercredi matin, une femme âgée s'est présentée a la bibliothèque avec sa fille. \
Elle a reconnu tout de suite l'écriture de son père sur les enveloppes.\n\n\
Madeleine, c'était elle. Son père avait écrit ces lettres pendant qu'il travaillait dans le Nord, \
loin de sa famille. Il n'avait jamais pu les envoyer. Les employés étaient très émus et les enfant \
du quartier sont venus écouter son histoire.\n\n\
Finalement, la bibliothèque a organisé une petite exposition. Madeleine a souri : grâce à ces \
ouvriers, elle a retrouvé une partie de son enfance. Tout le monde était heureux.";

fn words(n: usize) -> String {
    vec!["mot"; n].join(" ")
}

/// A stand-in corrector: flags « a la » when present, optionally slow or failing.
struct Stub {
    fail: bool,
    delay: Duration,
    calls: AtomicUsize,
}

impl Stub {
    fn ok() -> Arc<Self> {
        Arc::new(Self {
            fail: false,
            delay: Duration::from_millis(20),
            calls: AtomicUsize::new(0),
        })
    }
    fn failing() -> Arc<Self> {
        Arc::new(Self {
            fail: true,
            ..Arc::into_inner(Self::ok()).unwrap()
        })
    }
}

#[async_trait]
impl Corrector for Stub {
    async fn correct(&self, req: &CorrectionRequest) -> Result<Correction, CorrectorError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(self.delay).await;
        if self.fail {
            return Err(CorrectorError::Unavailable("stand-in failure".into()));
        }
        let mut corrections = Vec::new();
        if req.text.contains("a la") {
            corrections.push(CorrectionItem {
                original_phrase: "a la".into(),
                corrected_phrase: "à la".into(),
                explanation: "Préposition « à ».".into(),
            });
        }
        Ok(Correction {
            corrected_text: req.text.replace("a la", "à la"),
            corrections,
            general_feedback: "Texte bien organisé.".into(),
        })
    }
}

async fn uid(s: &TestServer, token: &str) -> UserId {
    let (_, me) = s.get("/api/me", Some(token)).await;
    UserId::parse(me["uid"].as_str().unwrap()).unwrap()
}

async fn set(s: &TestServer, token: &str, change: impl Fn(&mut UserDoc) + Send) {
    let uid = uid(s, token).await;
    update_user(s.state.app.users.as_ref(), &uid, |doc| {
        let mut d = doc.unwrap_or_default();
        change(&mut d);
        Ok::<_, std::convert::Infallible>(d)
    })
    .await
    .unwrap();
}

async fn subscribe(s: &TestServer, token: &str) {
    let end = s.state.app.now() + time::Duration::days(30);
    set(s, token, move |d| {
        d.subscription_type = Some("monthly".into());
        d.subscription_end_date = Some(end);
    })
    .await;
}

async fn doc(s: &TestServer, token: &str) -> UserDoc {
    let uid = uid(s, token).await;
    s.state
        .app
        .users
        .get_user(&uid)
        .await
        .unwrap()
        .unwrap()
        .value
}

async fn correct(
    s: &TestServer,
    token: &str,
    text: &str,
    section: &str,
    topic: &str,
) -> (StatusCode, Value) {
    let body = json!({ "studentText": text, "section": section, "topicId": topic });
    s.post(ROUTE, Some(token), &body.to_string()).await
}

async fn writing_points(s: &TestServer, token: &str) -> Vec<Value> {
    let (_, p) = s.get("/api/progress", Some(token)).await;
    p["skills"]["writing"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn the_catalogue_lists_ten_topics_by_slug_and_opens_the_first_to_free_users() {
    let s = start_with_app(|_| {}).await;
    let token = s.signed_in("cat@example.com").await;
    let (status, body) = s.get("/api/tests/writing", Some(&token)).await;
    assert_eq!(status, StatusCode::OK);
    let tests = body["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 10);
    assert_eq!(tests[0]["slug"], "luckyFind");
    assert_eq!(tests[0]["id"], 1);
    let locked: Vec<bool> = tests
        .iter()
        .map(|t| t["locked"].as_bool().unwrap())
        .collect();
    assert_eq!(
        locked,
        [false, true, true, true, true, true, true, true, true, true]
    );

    let (status, topic) = s.get("/api/tests/writing/luckyFind", Some(&token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(topic["id"], "writingTest1");
    assert!(topic["sectionA"]["narrativeStart"].as_str().unwrap().len() > 100);
    assert!(
        topic["sectionB"]["statement"]
            .as_str()
            .unwrap()
            .starts_with('«')
    );
    assert_eq!(
        s.get("/api/tests/writing/writingTest1", Some(&token))
            .await
            .0,
        StatusCode::OK
    );

    let second = tests[1]["slug"].as_str().unwrap();
    let (status, body) = s
        .get(&format!("/api/tests/writing/{second}"), Some(&token))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(body.get("sectionA").is_none());
    assert_eq!(
        s.get("/api/tests/writing/nothing", Some(&token)).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        s.get("/api/tests/writing/luckyFind", None).await.0,
        StatusCode::UNAUTHORIZED
    );

    subscribe(&s, &token).await;
    let (_, body) = s.get("/api/tests/writing", Some(&token)).await;
    assert!(
        body["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["locked"] == false)
    );
    assert_eq!(
        s.get(&format!("/api/tests/writing/{second}"), Some(&token))
            .await
            .0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_offline_corrector_corrects_for_real_and_the_result_is_kept() {
    let s = start().await;
    let token = s.signed_in("real@example.com").await;
    let (status, r) = correct(&s, &token, TEXT_A, "A", "luckyFind").await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let items = r["corrections"].as_array().unwrap();
    let originals: Vec<&str> = items
        .iter()
        .map(|i| i["original_phrase"].as_str().unwrap())
        .collect();
    assert!(
        originals
            .iter()
            .any(|o| o.split_whitespace().any(|w| w == "a")),
        "« a » for « à »: {originals:?}"
    );
    assert!(
        originals.iter().any(|o| o.contains("enfant")),
        "{originals:?}"
    );
    for i in items {
        assert!(TEXT_A.contains(i["original_phrase"].as_str().unwrap()));
        assert!(!i["explanation"].as_str().unwrap().is_empty());
    }
    let corrected = r["corrected_text"].as_str().unwrap();
    assert!(
        corrected.contains("à la bibliothèque") && corrected.contains("enfants"),
        "{corrected}"
    );
    assert!(!r["general_feedback"].as_str().unwrap().is_empty());
    // Score and CLB computed on the server from the corrections: 450 − 5n − 20 (under 200 words).
    let n = u64::try_from(items.len()).unwrap();
    assert_eq!(r["tef_score"], 450 - 5 * n - 20);
    assert_eq!(r["wordCount"], 95);
    assert!(r["clb_level"].as_u64().unwrap() >= 4);
    assert!(r["clbText"].as_str().unwrap().starts_with("CLB"));
    assert_eq!(r["aiCredits"], 2);
    assert_eq!(s.get("/api/me", Some(&token)).await.1["aiCredits"], 2);

    let points = writing_points(&s, &token).await;
    assert_eq!(points.len(), 1);
    assert_eq!(points[0]["clb"], r["clb_level"]);
    assert_eq!(points[0]["score"], r["tef_score"]);
    assert_eq!(points[0]["total"], 450);
}

#[tokio::test]
async fn checks_come_in_the_specs_order_with_its_messages_and_change_nothing() {
    let stub = Stub::ok();
    let corrector = stub.clone();
    let s = start_with_app(move |app| app.corrector = corrector).await;
    let token = s.signed_in("order@example.com").await;
    let before = doc(&s, &token).await;

    // Not signed in.
    let body = json!({ "studentText": TEXT_A, "section": "A", "topicId": "luckyFind" });
    assert_eq!(
        s.post(ROUTE, None, &body.to_string()).await.0,
        StatusCode::UNAUTHORIZED
    );
    // A locked topic, even with a text out of range.
    let (status, _) = correct(&s, &token, "trop court", "A", "writingTest2").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        correct(&s, &token, TEXT_A, "A", "nothing").await.0,
        StatusCode::NOT_FOUND
    );
    // The word ranges, with the spec's messages.
    for (text, section, message) in [
        (
            words(69),
            "A",
            "Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 69)",
        ),
        (
            words(121),
            "A",
            "Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 121)",
        ),
        (
            words(179),
            "B",
            "Section B: Votre texte doit contenir entre 180 et 220 mots. (Actuel: 179)",
        ),
        (
            words(221),
            "B",
            "Section B: Votre texte doit contenir entre 180 et 220 mots. (Actuel: 221)",
        ),
        ("  \n ".to_owned(), "A", "Le texte ne peut pas être vide."),
    ] {
        let (status, body) = correct(&s, &token, &text, section, "luckyFind").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{message}");
        assert_eq!(body["error"], message);
    }
    // Too big, malformed, wrong types, unknown section.
    let huge = format!("{} {}", words(100), "x".repeat(5_000));
    assert_eq!(
        correct(&s, &token, &huge, "A", "luckyFind").await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    for bad in [
        "not json".to_owned(),
        json!({ "studentText": 5, "section": "A", "topicId": "luckyFind" }).to_string(),
        json!({ "studentText": TEXT_A, "section": "C", "topicId": "luckyFind" }).to_string(),
        json!({ "section": "A", "topicId": "luckyFind" }).to_string(),
    ] {
        let (status, body) = s.post(ROUTE, Some(&token), &bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(
            body["error"],
            "Erreur lors de la récupération de la correction. Veuillez réessayer."
        );
    }
    assert_eq!(
        stub.calls.load(Ordering::SeqCst),
        0,
        "the corrector never ran"
    );
    assert_eq!(doc(&s, &token).await, before, "nothing changed");
    assert!(writing_points(&s, &token).await.is_empty());

    // Section B in range passes.
    let b = format!("Madame, Monsieur, a la {}", words(196));
    let (status, r) = correct(&s, &token, &b, "B", "luckyFind").await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(
        (r["section"].as_str(), r["tef_score"].as_u64()),
        (Some("B"), Some(445))
    );
}

#[tokio::test]
async fn a_failed_correction_gives_the_credit_and_the_slot_back_and_stores_nothing() {
    let s = start_with_app(|app| app.corrector = Stub::failing()).await;
    let token = s.signed_in("fail@example.com").await;
    let before = doc(&s, &token).await;
    let (status, body) = correct(&s, &token, TEXT_A, "A", "luckyFind").await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert_eq!(
        body["error"],
        "Erreur lors de la récupération de la correction. Veuillez réessayer."
    );
    assert!(
        !body.to_string().contains("stand-in"),
        "internals stay in the log"
    );
    let after = doc(&s, &token).await;
    assert_eq!(after.ai_credits, before.ai_credits);
    assert!(after.writing_correction_timestamps.is_empty());
    assert!(writing_points(&s, &token).await.is_empty());
}

async fn credits_race(s: &TestServer) {
    let token = s.signed_in("race@example.com").await;
    let requests = (0..10).map(|_| correct(s, &token, TEXT_A, "A", "luckyFind"));
    let answers = futures_util::future::join_all(requests).await;
    let ok = answers
        .iter()
        .filter(|(st, _)| *st == StatusCode::OK)
        .count();
    let refused: Vec<&Value> = answers
        .iter()
        .filter(|(st, _)| *st == StatusCode::PAYMENT_REQUIRED)
        .map(|(_, b)| b)
        .collect();
    assert_eq!((ok, refused.len()), (3, 7), "{answers:?}");
    assert!(refused.iter().all(|b| b["error"]
        == "You have used all your free AI analysis credits. Subscribe for unlimited corrections."));
    let d = doc(s, &token).await;
    assert_eq!(d.ai_credits, Some(0));
    assert_eq!(d.writing_correction_timestamps.len(), 3);
    assert_eq!(writing_points(s, &token).await.len(), 3);
}

#[tokio::test]
async fn ten_parallel_corrections_with_three_credits_give_exactly_three_on_sqlite() {
    let s = start_with_app(|app| app.corrector = Stub::ok()).await;
    credits_race(&s).await;
}

#[tokio::test]
async fn ten_parallel_corrections_with_three_credits_give_exactly_three_on_dynamodb() {
    let s = start_on_dynamodb_with_app(|app| app.corrector = Stub::ok()).await;
    credits_race(&s).await;
}

async fn hourly_race(s: &TestServer) {
    let token = s.signed_in("hourly@example.com").await;
    subscribe(s, &token).await;
    let requests = (0..14).map(|_| correct(s, &token, TEXT_A, "A", "luckyFind"));
    let answers = futures_util::future::join_all(requests).await;
    let ok = answers
        .iter()
        .filter(|(st, _)| *st == StatusCode::OK)
        .count();
    let limited: Vec<&Value> = answers
        .iter()
        .filter(|(st, _)| *st == StatusCode::TOO_MANY_REQUESTS)
        .map(|(_, b)| b)
        .collect();
    assert_eq!((ok, limited.len()), (10, 4), "{answers:?}");
    assert_eq!(
        limited[0]["error"],
        "You have reached the limit of 10 corrections per hour. Please try again later."
    );
    let first_ok = answers
        .iter()
        .find(|(st, _)| *st == StatusCode::OK)
        .unwrap();
    assert_eq!(
        first_ok.1["aiCredits"],
        Value::Null,
        "subscribers have no credit line"
    );
    assert_eq!(
        doc(s, &token).await.ai_credits,
        Some(3),
        "subscribers spend no credit"
    );
}

#[tokio::test]
async fn the_hourly_limit_holds_under_concurrency_for_subscribers_on_sqlite() {
    let s = start_with_app(|app| app.corrector = Stub::ok()).await;
    hourly_race(&s).await;
}

#[tokio::test]
async fn the_hourly_limit_holds_under_concurrency_for_subscribers_on_dynamodb() {
    let s = start_on_dynamodb_with_app(|app| app.corrector = Stub::ok()).await;
    hourly_race(&s).await;
}

#[tokio::test]
async fn slots_older_than_an_hour_no_longer_count() {
    let s = start_with_app(|app| app.corrector = Stub::ok()).await;
    let token = s.signed_in("window@example.com").await;
    let now = s.state.app.now();
    set(&s, &token, move |d| {
        d.ai_credits = Some(1);
        d.writing_correction_timestamps = (0..10)
            .map(|i| now - time::Duration::minutes(61 + i))
            .chain(std::iter::once(now - time::Duration::minutes(59)))
            .collect();
    })
    .await;
    let (status, r) = correct(&s, &token, TEXT_A, "A", "luckyFind").await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let d = doc(&s, &token).await;
    assert_eq!(
        d.writing_correction_timestamps.len(),
        2,
        "stale slots are dropped"
    );
    assert_eq!(d.ai_credits, Some(0));
}
