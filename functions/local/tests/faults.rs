//! Faults in the store (issue 16): a store that fails one named operation on demand, under the
//! real server. A failure answers a 5xx with a generic message (internals stay in the log), and
//! leaves no half-written record and no credit taken; once the store is back, the same request
//! works, and a payment is fulfilled exactly once.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use reqwest::StatusCode;
use serde_json::{Value, json};
use shared::adapters::SqliteStore;
use shared::domain::exam::Skill;
use shared::domain::payments::{PaymentRecord, SessionId, sign};
use shared::domain::{UserDoc, UserId};
use shared::ports::limits::RateLimiter;
use shared::ports::payments::{PaymentStore, PaymentWrite};
use shared::ports::results::{Added, ResultId, ResultRecord, ResultStore};
use shared::ports::speaking::{SessionWrite, SpeakingResult, SpeakingStore};
use shared::ports::store::{StoreError, UserStore, Versioned};
use shared::ports::writing::{WritingResult, WritingStore};

use crate::common::{self, TestServer};

/// The embedded store, with operations that fail while they are named in `failing`.
struct FaultyStore {
    inner: SqliteStore,
    failing: Mutex<HashSet<&'static str>>,
}

impl FaultyStore {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            inner: SqliteStore::in_memory().unwrap(),
            failing: Mutex::new(HashSet::new()),
        })
    }
    fn fail(&self, op: &'static str) {
        self.failing.lock().unwrap().insert(op);
    }
    fn heal(&self) {
        self.failing.lock().unwrap().clear();
    }
    fn check(&self, op: &'static str) -> Result<(), StoreError> {
        if self.failing.lock().unwrap().contains(op) {
            Err(StoreError::Backend(format!("injected fault in {op}")))
        } else {
            Ok(())
        }
    }
}

#[async_trait]
impl UserStore for FaultyStore {
    async fn get_user(&self, uid: &UserId) -> Result<Option<Versioned<UserDoc>>, StoreError> {
        self.check("get_user")?;
        self.inner.get_user(uid).await
    }
    async fn put_user(
        &self,
        uid: &UserId,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<u64, StoreError> {
        self.check("put_user")?;
        self.inner.put_user(uid, doc, expected).await
    }
}

#[async_trait]
impl ResultStore for FaultyStore {
    async fn add_result(&self, record: &ResultRecord) -> Result<Added, StoreError> {
        self.check("add_result")?;
        self.inner.add_result(record).await
    }
    async fn get_result(
        &self,
        uid: &UserId,
        id: &ResultId,
    ) -> Result<Option<ResultRecord>, StoreError> {
        self.check("get_result")?;
        self.inner.get_result(uid, id).await
    }
    async fn recent_results(
        &self,
        uid: &UserId,
        skill: Skill,
        limit: usize,
    ) -> Result<Vec<ResultRecord>, StoreError> {
        self.check("recent_results")?;
        self.inner.recent_results(uid, skill, limit).await
    }
    async fn count_first_attempt(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
        score: u32,
    ) -> Result<u32, StoreError> {
        self.check("count_first_attempt")?;
        self.inner
            .count_first_attempt(uid, skill, test_id, score)
            .await
    }
    async fn first_attempt_score(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
    ) -> Result<Option<u32>, StoreError> {
        self.check("first_attempt_score")?;
        self.inner.first_attempt_score(uid, skill, test_id).await
    }
    async fn score_distribution(&self, skill: Skill, test_id: u32) -> Result<Vec<u64>, StoreError> {
        self.check("score_distribution")?;
        self.inner.score_distribution(skill, test_id).await
    }
}

#[async_trait]
impl PaymentStore for FaultyStore {
    async fn record_payment(
        &self,
        payment: &PaymentRecord,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<PaymentWrite, StoreError> {
        self.check("record_payment")?;
        self.inner.record_payment(payment, doc, expected).await
    }
    async fn get_payment(&self, session: &SessionId) -> Result<Option<PaymentRecord>, StoreError> {
        self.check("get_payment")?;
        self.inner.get_payment(session).await
    }
}

#[async_trait]
impl WritingStore for FaultyStore {
    async fn add_writing_result(&self, record: &WritingResult) -> Result<(), StoreError> {
        self.check("add_writing_result")?;
        self.inner.add_writing_result(record).await
    }
    async fn recent_writing_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<WritingResult>, StoreError> {
        self.check("recent_writing_results")?;
        self.inner.recent_writing_results(uid, limit).await
    }
}

#[async_trait]
impl SpeakingStore for FaultyStore {
    async fn record_session(
        &self,
        record: &SpeakingResult,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<SessionWrite, StoreError> {
        self.check("record_session")?;
        self.inner.record_session(record, doc, expected).await
    }
    async fn get_session(
        &self,
        uid: &UserId,
        session_id: &str,
    ) -> Result<Option<SpeakingResult>, StoreError> {
        self.check("get_session")?;
        self.inner.get_session(uid, session_id).await
    }
    async fn recent_speaking_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<SpeakingResult>, StoreError> {
        self.check("recent_speaking_results")?;
        self.inner.recent_speaking_results(uid, limit).await
    }
}

#[async_trait]
impl RateLimiter for FaultyStore {
    async fn hit(&self, key: &str, expires_at: i64) -> Result<u64, StoreError> {
        self.check("hit")?;
        self.inner.hit(key, expires_at).await
    }
}

async fn start() -> (TestServer, Arc<FaultyStore>) {
    let store = FaultyStore::new();
    let s = store.clone();
    let server = common::start_with_app(move |app| {
        app.users = s.clone();
        app.results = s.clone();
        app.payments = s.clone();
        app.writing = s.clone();
        app.speaking_results = s.clone();
        app.limits = s;
    })
    .await;
    (server, store)
}

/// A failure is a 5xx whose message says nothing of the cause.
fn assert_failed_cleanly(what: &str, (status, body): &(StatusCode, Value)) {
    assert!(status.is_server_error(), "{what}: {status} {body}");
    let text = body.to_string();
    assert!(body["error"].is_string(), "{what}: a message: {text}");
    assert!(
        !text.contains("injected") && !text.contains("fault"),
        "{what}: internals leaked: {text}"
    );
}

#[tokio::test]
async fn a_store_failure_writes_nothing_and_takes_no_credit() {
    let (s, store) = start().await;
    let ana = s.signed_in("ana@example.com").await;
    let me = || s.get("/api/me", Some(&ana));
    let progress = || s.get("/api/progress", Some(&ana));
    let (_, before_me) = me().await;
    assert_eq!(before_me["speakingCredits"], 3);
    let (_, before_progress) = progress().await;

    // An attempt whose result cannot be stored: nothing is stored, and a retry works once.
    let attempt = json!({"answers": vec![json!(1); 40], "durationSeconds": 600, "attemptId": "retry-after-fault-1"}).to_string();
    store.fail("add_result");
    let failed = s
        .post("/api/tests/reading/1/attempts", Some(&ana), &attempt)
        .await;
    assert_failed_cleanly("attempt", &failed);
    assert_eq!(
        progress().await.1,
        before_progress,
        "no half-written result"
    );
    store.heal();
    let (status, first) = s
        .post("/api/tests/reading/1/attempts", Some(&ana), &attempt)
        .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (_, again) = s
        .post("/api/tests/reading/1/attempts", Some(&ana), &attempt)
        .await;
    assert_eq!(
        again["resultId"], first["resultId"],
        "the resend is the same attempt"
    );
    let (_, after_attempt) = progress().await;

    // A speaking report whose record cannot be written: no credit is taken, nothing stored.
    let conversation: Vec<Value> = (0..6)
        .flat_map(|i| {
            [
                json!({"role": "user", "content": format!("Bonjour, j'ai une question numéro {i} sur les cours du soir.")}),
                json!({"role": "assistant", "content": "Bien sûr."}),
            ]
        })
        .collect();
    let report = json!({
        "topicId": "serviceCoursLangue", "section": "A",
        "sessionId": "0f3c9a2e-1b4d-4c8e-9f00-fau1t0000001",
        "conversationHistory": conversation,
    })
    .to_string();
    store.fail("record_session");
    let failed = s
        .post("/api/openai/speaking-report", Some(&ana), &report)
        .await;
    assert_failed_cleanly("speaking report", &failed);
    assert_eq!(
        me().await.1["speakingCredits"],
        before_me["speakingCredits"],
        "no credit taken"
    );
    assert_eq!(progress().await.1, after_attempt, "no speaking record");
    store.heal();
    let (status, done) = s
        .post("/api/openai/speaking-report", Some(&ana), &report)
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(
        me().await.1["speakingCredits"],
        2,
        "one credit, once the session is recorded"
    );

    // The profile itself unreadable: a clean 5xx, for reads too.
    store.fail("get_user");
    assert_failed_cleanly("profile", &me().await);
    store.heal();
}

#[tokio::test]
async fn a_payment_the_store_cannot_record_is_retried_by_the_provider_and_fulfilled_once() {
    let (s, store) = start().await;
    let ana = s.signed_in("pay@example.com").await;
    let (_, me) = s.get("/api/me", Some(&ana)).await;
    let uid = me["uid"].as_str().unwrap().to_owned();
    let body = json!({
        "id": "evt_fault_1", "object": "event", "type": "checkout.session.completed",
        "data": {"object": {
            "id": "cs_test_fault_1", "object": "checkout.session", "client_reference_id": uid,
            "metadata": {"userId": uid, "planId": "monthly"},
            "payment_status": "paid", "amount_total": 3400, "currency": "cad"
        }}
    })
    .to_string();
    let secret = shared::config::PaymentsConfig::LOCAL_WEBHOOK_SECRET;
    let deliver = || async {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        s.http
            .post(s.url("/api/stripe/webhook"))
            .header("content-type", "application/json")
            .header("stripe-signature", sign(body.as_bytes(), secret, now))
            .body(body.clone())
            .send()
            .await
            .unwrap()
            .status()
    };
    let subscription = || async { s.get("/api/me", Some(&ana)).await.1["subscription"].clone() };

    // The store fails: the webhook answers 5xx, so the provider delivers the event again.
    store.fail("record_payment");
    assert!(deliver().await.is_server_error());
    assert_eq!(subscription().await["status"], "none", "nothing half-done");
    store.heal();
    // The provider's retries (twice, even): thirty days, once.
    assert_eq!(deliver().await, StatusCode::OK);
    assert_eq!(deliver().await, StatusCode::OK);
    let sub = subscription().await;
    assert_eq!(
        (&sub["status"], &sub["daysLeft"]),
        (&json!("active"), &json!(30))
    );
}
