//! The store contract: one suite, run against every `UserStore` adapter.

use crate::common;

use std::sync::Arc;

use shared::adapters::{DynamoStore, SqliteStore};
use shared::domain::exam::Skill;
use shared::domain::payments::{PaymentRecord, SessionId};
use shared::domain::plans;
use shared::domain::scoring::TefScore;
use shared::domain::speaking::{ChatMessage, Role};
use shared::domain::user::accept_privacy;
use shared::domain::writing::{self, Refusal, Section};
use shared::domain::{Email, UserDoc, UserId};
use shared::ports::corrector::CorrectionItem;
use shared::ports::limits::RateLimiter;
use shared::ports::payments::{Fulfilment, PaymentStore, PaymentWrite, fulfil_payment};
use shared::ports::results::{Added, ResultId, ResultRecord, ResultStore};
use shared::ports::speaking::{Completion, SpeakingResult, SpeakingStore, complete_session};
use shared::ports::store::{StoreError, UpdateError, UserStore, update_user};
use shared::ports::writing::{WritingResult, WritingStore};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

fn uid(s: &str) -> UserId {
    UserId::parse(s).unwrap()
}

fn full_doc() -> UserDoc {
    UserDoc {
        email: Some("ana@example.com".into()),
        accepted_privacy_policy: true,
        ai_credits: Some(2),
        speaking_credits: Some(0),
        subscription_type: Some("quarterly".into()),
        subscription_end_date: Some(datetime!(2027-02-20 10:00:05 UTC)),
        writing_correction_timestamps: vec![
            datetime!(2026-11-22 9:00 UTC),
            datetime!(2026-11-22 9:30:15 UTC),
        ],
    }
}

/// A counter starts at 1, counts every use once, even 25 at the same time, and keys never
/// share a count.
async fn rate_limits_count_each_use_once<S: RateLimiter + 'static>(store: Arc<S>) {
    let key = format!("u-limits#attempt#{}", std::process::id());
    let other = format!("{key}-other");
    let until = 4_102_444_800; // 2100-01-01
    assert_eq!(store.hit(&key, until).await.unwrap(), 1);
    assert_eq!(store.hit(&key, until).await.unwrap(), 2);
    assert_eq!(
        store.hit(&other, until).await.unwrap(),
        1,
        "keys count apart"
    );
    let mut tasks = Vec::new();
    for _ in 0..25 {
        let (store, key) = (store.clone(), key.clone());
        tasks.push(tokio::spawn(async move { store.hit(&key, until).await }));
    }
    let mut counts = Vec::new();
    for t in tasks {
        counts.push(t.await.unwrap().unwrap());
    }
    counts.sort_unstable();
    assert_eq!(
        counts,
        (3..=27).collect::<Vec<u64>>(),
        "each parallel use gets its own count"
    );
    assert_eq!(store.hit(&key, until).await.unwrap(), 28);
}

/// Every adapter must pass every case of this suite.
async fn contract<
    S: UserStore + ResultStore + PaymentStore + WritingStore + SpeakingStore + RateLimiter + 'static,
>(
    store: Arc<S>,
) {
    rate_limits_count_each_use_once(store.clone()).await;
    results_contract(&*store).await;
    speaking_sessions_are_recorded_and_charged_once(store.clone()).await;
    writing_contract(&*store).await;
    parallel_corrections_take_exactly_the_credits(store.clone()).await;
    payments_contract(store.clone(), store.clone()).await;
    let store: Arc<dyn UserStore> = store;
    missing_user_reads_as_none(&*store).await;
    create_then_read_round_trips_every_field(&*store).await;
    create_refuses_an_existing_document(&*store).await;
    update_needs_the_current_version(&*store).await;
    update_of_a_missing_document_conflicts(&*store).await;
    users_are_isolated(&*store).await;
    privacy_acceptance_applies_the_rule(&*store).await;
    parallel_updates_are_atomic(store.clone()).await;
    parallel_consumption_never_overspends(store.clone()).await;
}

fn result(uid: &str, skill: Skill, at: OffsetDateTime, score: u32) -> ResultRecord {
    ResultRecord {
        id: ResultId::new(skill, at),
        uid: UserId::parse(uid).unwrap(),
        email: Some(format!("{uid}@example.com")),
        skill,
        quiz_id: format!("{}Test1", skill.as_str()),
        test_id: 1,
        score,
        total: 40,
        clb: 5,
        tef_old: TefScore::Score {
            value: 160,
            max: 300,
        },
        tef_new: TefScore::Below {
            below: 306,
            max: 699,
        },
        duration_seconds: 1800,
        answers: vec![Some(1), None, Some(3)],
        timestamp: at,
        attempt_id: None,
        // Every store keeps the paper's version with the result (round-tripped below).
        paper_version: Some("0123456789abcdef".into()),
    }
}

async fn results_contract(store: &dyn ResultStore) {
    let t0 = datetime!(2026-11-22 9:00 UTC);
    let ana = uid("results-ana");
    let bob = uid("results-bob");
    assert_eq!(
        store
            .recent_results(&ana, Skill::Reading, 10)
            .await
            .unwrap(),
        vec![]
    );

    let mut reading = Vec::new();
    for i in 0..7 {
        let r = result(
            "results-ana",
            Skill::Reading,
            t0 + Duration::minutes(i),
            20 + u32::try_from(i).unwrap(),
        );
        store.add_result(&r).await.unwrap();
        reading.push(r);
    }
    let listening = result("results-ana", Skill::Listening, t0 + Duration::hours(1), 33);
    store.add_result(&listening).await.unwrap();
    let bobs = result("results-bob", Skill::Reading, t0 + Duration::hours(2), 40);
    store.add_result(&bobs).await.unwrap();

    // Round trip, and only for its owner.
    assert_eq!(
        store.get_result(&ana, &reading[3].id).await.unwrap(),
        Some(reading[3].clone())
    );
    assert_eq!(store.get_result(&bob, &reading[3].id).await.unwrap(), None);
    assert_eq!(store.get_result(&ana, &bobs.id).await.unwrap(), None);

    // Latest first, limited, one skill, one user.
    let recent = store.recent_results(&ana, Skill::Reading, 5).await.unwrap();
    let scores: Vec<u32> = recent.iter().map(|r| r.score).collect();
    assert_eq!(scores, [26, 25, 24, 23, 22]);
    let recent = store
        .recent_results(&ana, Skill::Listening, 5)
        .await
        .unwrap();
    assert_eq!(recent, vec![listening]);
    assert_eq!(
        store.recent_results(&bob, Skill::Reading, 5).await.unwrap(),
        vec![bobs]
    );
    assert_eq!(
        store.recent_results(&bob, Skill::Writing, 5).await.unwrap(),
        vec![]
    );
    an_attempt_is_stored_once(store).await;
    first_attempts_make_the_distribution(store).await;
}

/// Only each learner's first attempt at a paper counts, once, even when sent twice at once.
async fn first_attempts_make_the_distribution(store: &dyn ResultStore) {
    let test = 7;
    assert_eq!(
        store
            .score_distribution(Skill::Listening, test)
            .await
            .unwrap(),
        vec![0; 41]
    );
    let gil = uid("first-gil");
    assert_eq!(
        store
            .first_attempt_score(&gil, Skill::Listening, test)
            .await
            .unwrap(),
        None
    );
    let (a, b) = tokio::join!(
        store.count_first_attempt(&gil, Skill::Listening, test, 25),
        store.count_first_attempt(&gil, Skill::Listening, test, 25)
    );
    assert_eq!((a.unwrap(), b.unwrap()), (25, 25));
    // A later, better attempt does not replace the first.
    assert_eq!(
        store
            .count_first_attempt(&gil, Skill::Listening, test, 39)
            .await
            .unwrap(),
        25
    );
    for (who, score) in [("first-hana", 10), ("first-ivo", 25), ("first-jun", 40)] {
        store
            .count_first_attempt(&uid(who), Skill::Listening, test, score)
            .await
            .unwrap();
    }
    // Another paper and another skill keep their own counts.
    store
        .count_first_attempt(&gil, Skill::Listening, test + 1, 1)
        .await
        .unwrap();
    store
        .count_first_attempt(&gil, Skill::Reading, test, 2)
        .await
        .unwrap();
    let dist = store
        .score_distribution(Skill::Listening, test)
        .await
        .unwrap();
    assert_eq!(dist.len(), 41);
    assert_eq!((dist[10], dist[25], dist[39], dist[40]), (1, 2, 0, 1));
    assert_eq!(dist.iter().sum::<u64>(), 4);
    assert_eq!(
        store
            .first_attempt_score(&gil, Skill::Listening, test)
            .await
            .unwrap(),
        Some(25)
    );
}

/// Two submissions of one attempt, at the same moment or later, store one result; the
/// same attempt id on another test, skill or user is another attempt.
async fn an_attempt_is_stored_once(store: &dyn ResultStore) {
    let t0 = datetime!(2026-11-23 9:00 UTC);
    let carl = uid("attempts-carl");
    let attempt = |at: OffsetDateTime, score: u32| ResultRecord {
        attempt_id: Some("reading-1-1795348800000".into()),
        ..result("attempts-carl", Skill::Reading, at, score)
    };
    let (first, second) = (attempt(t0, 30), attempt(t0 + Duration::milliseconds(1), 31));
    let (a, b) = tokio::join!(store.add_result(&first), store.add_result(&second));
    let mut outcomes = [a.unwrap(), b.unwrap()];
    outcomes.sort_by_key(|o| matches!(o, Added::AlreadyStored(_)));
    let stored = match &outcomes {
        [Added::Stored, Added::AlreadyStored(id)] => id.clone(),
        other => panic!("one submission must be stored and one refused: {other:?}"),
    };
    assert!(stored == first.id || stored == second.id);
    // A resend later finds the same result.
    assert_eq!(
        store
            .add_result(&attempt(t0 + Duration::minutes(5), 32))
            .await
            .unwrap(),
        Added::AlreadyStored(stored.clone())
    );
    let recent = store
        .recent_results(&carl, Skill::Reading, 10)
        .await
        .unwrap();
    assert_eq!(recent.len(), 1, "{recent:?}");
    assert_eq!(recent[0].id, stored);

    // Another test, another skill, another user: other attempts.
    let other_test = ResultRecord {
        test_id: 2,
        ..attempt(t0 + Duration::minutes(6), 33)
    };
    let other_skill = ResultRecord {
        attempt_id: first.attempt_id.clone(),
        ..result(
            "attempts-carl",
            Skill::Listening,
            t0 + Duration::minutes(7),
            34,
        )
    };
    let other_user = ResultRecord {
        attempt_id: first.attempt_id.clone(),
        ..result(
            "attempts-dana",
            Skill::Reading,
            t0 + Duration::minutes(8),
            35,
        )
    };
    for r in [&other_test, &other_skill, &other_user] {
        assert_eq!(store.add_result(r).await.unwrap(), Added::Stored);
    }
    assert_eq!(
        store
            .recent_results(&carl, Skill::Reading, 10)
            .await
            .unwrap()
            .len(),
        2
    );
}

fn writing_result(uid: &str, at: OffsetDateTime, score: u32) -> WritingResult {
    WritingResult {
        id: ResultId::new(Skill::Writing, at),
        uid: UserId::parse(uid).unwrap(),
        email: Some("w@example.com".into()),
        section: Section::A,
        topic_id: "writingTest1".into(),
        topic_number: 1,
        tef_score: score,
        clb_level: 9,
        tef_new: TefScore::Score {
            value: 530,
            max: 699,
        },
        word_count: 95,
        original_text: "Il fesait beau, l'été.".into(),
        corrected_text: "Il faisait beau, l'été.".into(),
        corrections: vec![CorrectionItem {
            original_phrase: "Il fesait".into(),
            corrected_phrase: "Il faisait".into(),
            explanation: "Imparfait de « faire ».".into(),
        }],
        general_feedback: "Deux paragraphes.\n\nBonne fin.".into(),
        timestamp: at,
    }
}

async fn writing_contract(store: &dyn WritingStore) {
    let a = uid("writer-a");
    assert!(
        store
            .recent_writing_results(&a, 10)
            .await
            .unwrap()
            .is_empty()
    );
    let t0 = datetime!(2026-11-26 10:00 UTC);
    let records: Vec<WritingResult> = (0..4)
        .map(|i| {
            writing_result(
                "writer-a",
                t0 + Duration::minutes(i),
                400 + u32::try_from(i).unwrap(),
            )
        })
        .collect();
    for r in &records {
        store.add_writing_result(r).await.unwrap();
    }
    store
        .add_writing_result(&writing_result("writer-b", t0, 300))
        .await
        .unwrap();
    let recent = store.recent_writing_results(&a, 3).await.unwrap();
    assert_eq!(recent.len(), 3);
    assert_eq!(
        recent[0], records[3],
        "newest first, every field round-trips"
    );
    assert_eq!(recent[2], records[1]);
    assert_eq!(
        store
            .recent_writing_results(&uid("writer-b"), 10)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(
        store
            .recent_writing_results(&uid("writer-c"), 10)
            .await
            .unwrap()
            .is_empty()
    );
}

/// The writing rule through `update_user`: 10 parallel reservations with 3 credits take
/// exactly 3, and giving back restores the credit and the slot.
async fn parallel_corrections_take_exactly_the_credits<S: UserStore + 'static>(store: Arc<S>) {
    let u = uid("corrections-race");
    let now = datetime!(2026-11-26 12:00 UTC);
    store
        .put_user(
            &u,
            &UserDoc {
                ai_credits: Some(3),
                ..UserDoc::default()
            },
            None,
        )
        .await
        .unwrap();
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let store = store.clone();
            let u = u.clone();
            tokio::spawn(async move {
                let mut taken = None;
                let r = update_user(&*store, &u, |doc| {
                    let (next, res) = writing::reserve(doc, now)?;
                    taken = Some(res);
                    Ok::<_, Refusal>(next)
                })
                .await;
                r.map(|_| taken)
            })
        })
        .collect();
    let mut ok = Vec::new();
    let mut refused = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(r) => ok.push(r.unwrap()),
            Err(UpdateError::Rule(Refusal::NoCredits)) => refused += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!((ok.len(), refused), (3, 7));
    let doc = store.get_user(&u).await.unwrap().unwrap().value;
    assert_eq!(doc.ai_credits, Some(0));
    assert_eq!(doc.writing_correction_timestamps.len(), 3);
    update_user(&*store, &u, |doc| {
        Ok::<_, std::convert::Infallible>(writing::release(doc, ok[0]))
    })
    .await
    .unwrap();
    let doc = store.get_user(&u).await.unwrap().unwrap().value;
    assert_eq!(doc.ai_credits, Some(1));
    assert_eq!(doc.writing_correction_timestamps.len(), 2);
}

fn speaking_result(uid: &str, session: &str, at: OffsetDateTime) -> SpeakingResult {
    SpeakingResult {
        id: ResultId::new(Skill::Speaking, at),
        uid: UserId::parse(uid).unwrap(),
        email: None,
        session_id: session.into(),
        topic_id: "serviceCoursLangue".into(),
        topic_number: 1,
        section: Section::A,
        conversation: vec![
            ChatMessage {
                role: Role::User,
                content: "Bonjour, quel est le prix ?".into(),
            },
            ChatMessage {
                role: Role::Assistant,
                content: "Le cours coûte 280 $.".into(),
            },
        ],
        feedback: "Points forts : …\nScore : 330/450".into(),
        clb_level: 7,
        tef_level: "B2".into(),
        score: 330,
        tef_new: TefScore::Score {
            value: 470,
            max: 699,
        },
        timestamp: at,
    }
}

/// Ten parallel reports of one session, and of ten sessions with 3 credits: a session is
/// recorded and charged once, and credits are never overspent.
async fn speaking_sessions_are_recorded_and_charged_once<S: UserStore + SpeakingStore + 'static>(
    store: Arc<S>,
) {
    let now = datetime!(2026-11-26 12:00 UTC);
    let u = "speaker-1";
    store
        .put_user(
            &uid(u),
            &UserDoc {
                speaking_credits: Some(3),
                ..UserDoc::default()
            },
            None,
        )
        .await
        .unwrap();
    assert!(
        store
            .get_session(&uid(u), "session-0001")
            .await
            .unwrap()
            .is_none()
    );
    let same: Vec<_> = (0..10)
        .map(|i| {
            let store = store.clone();
            let record = speaking_result(u, "session-0001", now + Duration::milliseconds(i));
            tokio::spawn(async move { complete_session(&*store, &*store, &record, now).await })
        })
        .collect();
    let mut recorded = 0;
    for t in same {
        match t.await.unwrap().unwrap() {
            Completion::Recorded { credits_left } => {
                recorded += 1;
                assert_eq!(credits_left, Some(2));
            }
            Completion::AlreadyRecorded(first) => assert_eq!(first.session_id, "session-0001"),
            Completion::NoCredits => panic!("a credit was left"),
        }
    }
    assert_eq!(recorded, 1, "one session, one record, one credit");
    let doc = store.get_user(&uid(u)).await.unwrap().unwrap().value;
    assert_eq!(doc.speaking_credits, Some(2));
    let stored = store
        .get_session(&uid(u), "session-0001")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.conversation.len(), 2);
    assert_eq!(stored.feedback, "Points forts : …\nScore : 330/450");

    let many: Vec<_> = (0..10)
        .map(|i| {
            let store = store.clone();
            let record =
                speaking_result(u, &format!("session-1{i:03}"), now + Duration::seconds(i));
            tokio::spawn(async move { complete_session(&*store, &*store, &record, now).await })
        })
        .collect();
    let mut outcomes = (0, 0);
    for t in many {
        match t.await.unwrap().unwrap() {
            Completion::Recorded { .. } => outcomes.0 += 1,
            Completion::NoCredits => outcomes.1 += 1,
            Completion::AlreadyRecorded(_) => panic!("distinct sessions"),
        }
    }
    assert_eq!(outcomes, (2, 8), "two credits were left");
    let doc = store.get_user(&uid(u)).await.unwrap().unwrap().value;
    assert_eq!(doc.speaking_credits, Some(0));
    let recent = store.recent_speaking_results(&uid(u), 10).await.unwrap();
    assert_eq!(recent.len(), 3);
    assert!(recent.windows(2).all(|w| w[0].id > w[1].id), "newest first");
    assert!(
        store
            .recent_speaking_results(&uid("speaker-2"), 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .get_session(&uid("speaker-2"), "session-0001")
            .await
            .unwrap()
            .is_none()
    );
}

fn payment(session: &str, uid: &str, plan: &str) -> PaymentRecord {
    PaymentRecord {
        session_id: SessionId::parse(session).unwrap(),
        uid: UserId::parse(uid).unwrap(),
        plan_id: plan.into(),
        amount_total: 3400,
        currency: "cad".into(),
        paid_at: datetime!(2026-11-25 12:00 UTC),
    }
}

/// A paid session is recorded once, with the subscription it bought, in one transaction.
async fn payments_contract(users: Arc<dyn UserStore>, payments: Arc<dyn PaymentStore>) {
    let now = datetime!(2026-11-25 12:00 UTC);
    let monthly = plans::plan("monthly").unwrap();
    let erin = uid("payments-erin");
    let session = SessionId::parse("cs_test_contract_erin_1").unwrap();
    assert_eq!(payments.get_payment(&session).await.unwrap(), None);

    // The same event, fifty times at once: one payment, one extension.
    let p = payment(session.as_str(), erin.as_str(), "monthly");
    let outcomes = futures_util::future::join_all((0..50).map(|_| {
        let (users, payments, p) = (users.clone(), payments.clone(), p.clone());
        tokio::spawn(async move { fulfil_payment(&*users, &*payments, &p, monthly, now).await })
    }))
    .await;
    let fulfilled = outcomes
        .into_iter()
        .map(|o| o.unwrap().unwrap())
        .filter(|o| matches!(o, Fulfilment::Fulfilled(_)))
        .count();
    assert_eq!(fulfilled, 1);
    assert_eq!(
        payments.get_payment(&session).await.unwrap(),
        Some(p.clone())
    );
    let doc = users.get_user(&erin).await.unwrap().unwrap();
    assert_eq!(
        doc.value.subscription_end_date,
        Some(datetime!(2026-12-25 12:00 UTC))
    );
    assert_eq!(doc.value.subscription_type.as_deref(), Some("monthly"));

    // A second session extends from the current end date.
    let second = payment("cs_test_contract_erin_2", erin.as_str(), "quarterly");
    let quarterly = plans::plan("quarterly").unwrap();
    assert!(matches!(
        fulfil_payment(&*users, &*payments, &second, quarterly, now)
            .await
            .unwrap(),
        Fulfilment::Fulfilled(_)
    ));
    let doc = users.get_user(&erin).await.unwrap().unwrap();
    assert_eq!(
        doc.value.subscription_end_date,
        Some(datetime!(2027-03-25 12:00 UTC))
    );

    // A write that fails leaves nothing half-written: a stale user version refuses the
    // whole transaction, and the payment is not stored either.
    let third = payment("cs_test_contract_erin_3", erin.as_str(), "monthly");
    let stale = Some(doc.version - 1);
    assert!(matches!(
        payments
            .record_payment(&third, &UserDoc::default(), stale)
            .await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(payments.get_payment(&third.session_id).await.unwrap(), None);
    assert_eq!(users.get_user(&erin).await.unwrap().unwrap(), doc);
    // And a taken session id writes nothing to the user.
    assert_eq!(
        payments
            .record_payment(&p, &UserDoc::default(), Some(doc.version))
            .await
            .unwrap(),
        PaymentWrite::AlreadyRecorded
    );
    assert_eq!(users.get_user(&erin).await.unwrap().unwrap(), doc);

    // A buyer without a document yet gets one.
    let fay = uid("payments-fay");
    let first = payment("cs_test_contract_fay_1", fay.as_str(), "monthly");
    assert!(matches!(
        fulfil_payment(&*users, &*payments, &first, monthly, now)
            .await
            .unwrap(),
        Fulfilment::Fulfilled(_)
    ));
    assert!(
        users
            .get_user(&fay)
            .await
            .unwrap()
            .unwrap()
            .value
            .subscription_end_date
            .is_some()
    );
}

async fn missing_user_reads_as_none(store: &dyn UserStore) {
    assert_eq!(store.get_user(&uid("nobody")).await.unwrap(), None);
}

async fn create_then_read_round_trips_every_field(store: &dyn UserStore) {
    let id = uid("roundtrip");
    let v = store.put_user(&id, &full_doc(), None).await.unwrap();
    assert_eq!(v, 1);
    let got = store.get_user(&id).await.unwrap().unwrap();
    assert_eq!(got.value, full_doc());
    assert_eq!(got.version, 1);

    let empty = uid("roundtrip-empty");
    store
        .put_user(&empty, &UserDoc::default(), None)
        .await
        .unwrap();
    assert_eq!(
        store.get_user(&empty).await.unwrap().unwrap().value,
        UserDoc::default()
    );
}

async fn create_refuses_an_existing_document(store: &dyn UserStore) {
    let id = uid("create-twice");
    store.put_user(&id, &full_doc(), None).await.unwrap();
    let other = UserDoc {
        email: Some("intruder@example.com".into()),
        ..UserDoc::default()
    };
    assert!(matches!(
        store.put_user(&id, &other, None).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        store.get_user(&id).await.unwrap().unwrap().value,
        full_doc()
    );
}

async fn update_needs_the_current_version(store: &dyn UserStore) {
    let id = uid("versions");
    store
        .put_user(&id, &UserDoc::default(), None)
        .await
        .unwrap();
    let v2 = store.put_user(&id, &full_doc(), Some(1)).await.unwrap();
    assert_eq!(v2, 2);
    let stale = UserDoc::default();
    assert!(matches!(
        store.put_user(&id, &stale, Some(1)).await,
        Err(StoreError::Conflict)
    ));
    let got = store.get_user(&id).await.unwrap().unwrap();
    assert_eq!((got.value, got.version), (full_doc(), 2));
}

async fn update_of_a_missing_document_conflicts(store: &dyn UserStore) {
    let id = uid("ghost");
    assert!(matches!(
        store.put_user(&id, &full_doc(), Some(1)).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.get_user(&id).await.unwrap(), None);
}

async fn users_are_isolated(store: &dyn UserStore) {
    let a = uid("iso-a");
    let b = uid("iso-b");
    store.put_user(&a, &full_doc(), None).await.unwrap();
    assert_eq!(store.get_user(&b).await.unwrap(), None);
    store.put_user(&b, &UserDoc::default(), None).await.unwrap();
    assert_eq!(store.get_user(&a).await.unwrap().unwrap().value, full_doc());
}

async fn privacy_acceptance_applies_the_rule(store: &dyn UserStore) {
    let email = Email::parse("new@example.com").unwrap();
    let fresh = uid("privacy-new");
    let saved = update_user(store, &fresh, |d| {
        Ok::<_, ()>(accept_privacy(d, Some(&email)))
    })
    .await
    .unwrap();
    assert_eq!(saved.version, 1);
    let got = store.get_user(&fresh).await.unwrap().unwrap().value;
    assert!(got.accepted_privacy_policy);
    assert_eq!((got.ai_credits, got.speaking_credits), (Some(3), Some(3)));
    assert_eq!(got.email.as_deref(), Some("new@example.com"));

    let existing = uid("privacy-existing");
    let before = UserDoc {
        ai_credits: Some(1),
        speaking_credits: None,
        ..full_doc()
    };
    store.put_user(&existing, &before, None).await.unwrap();
    update_user(store, &existing, |d| {
        Ok::<_, ()>(accept_privacy(d, Some(&email)))
    })
    .await
    .unwrap();
    let got = store.get_user(&existing).await.unwrap().unwrap().value;
    assert_eq!((got.ai_credits, got.speaking_credits), (Some(1), Some(3)));
    assert_eq!(got.email.as_deref(), Some("ana@example.com"));
    assert_eq!(got.subscription_end_date, full_doc().subscription_end_date);
}

async fn parallel_updates_are_atomic(store: Arc<dyn UserStore>) {
    let id = uid("parallel-add");
    store
        .put_user(
            &id,
            &UserDoc {
                ai_credits: Some(0),
                ..UserDoc::default()
            },
            None,
        )
        .await
        .unwrap();
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let store = store.clone();
            let id = id.clone();
            tokio::spawn(async move {
                update_user(&*store, &id, |d| {
                    let mut d = d.unwrap_or_default();
                    d.ai_credits = Some(d.ai_credits.unwrap_or(0) + 1);
                    Ok::<_, ()>(d)
                })
                .await
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let got = store.get_user(&id).await.unwrap().unwrap();
    assert_eq!(got.value.ai_credits, Some(10), "no increment may be lost");
    assert_eq!(got.version, 11);
}

async fn parallel_consumption_never_overspends(store: Arc<dyn UserStore>) {
    let id = uid("parallel-spend");
    store
        .put_user(
            &id,
            &UserDoc {
                ai_credits: Some(3),
                ..UserDoc::default()
            },
            None,
        )
        .await
        .unwrap();
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let store = store.clone();
            let id = id.clone();
            tokio::spawn(async move {
                update_user(&*store, &id, |d| {
                    let mut d = d.unwrap_or_default();
                    match d.ai_credits {
                        Some(n) if n > 0 => {
                            d.ai_credits = Some(n - 1);
                            Ok(d)
                        }
                        _ => Err("no credits"),
                    }
                })
                .await
            })
        })
        .collect();
    let mut ok = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => ok += 1,
            Err(UpdateError::Rule("no credits")) => {}
            Err(e) => panic!("unexpected: {e}"),
        }
    }
    assert_eq!(ok, 3, "3 credits give exactly 3 successes");
    let got = store.get_user(&id).await.unwrap().unwrap();
    assert_eq!(got.value.ai_credits, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_in_memory_meets_the_contract() {
    contract(Arc::new(SqliteStore::in_memory().unwrap())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_file_meets_the_contract_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/tef.sqlite3");
    contract(Arc::new(SqliteStore::open(&path).unwrap())).await;
    // A new process opening the same file sees the same data.
    let reopened = SqliteStore::open(&path).unwrap();
    let got = reopened.get_user(&uid("roundtrip")).await.unwrap().unwrap();
    assert_eq!(got.value, full_doc());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn dynamodb_meets_the_contract() {
    let sdk = common::aws_config().await;
    // The tables as template.yaml defines them: the keys and indexes production has.
    let store = DynamoStore::new(
        aws_sdk_dynamodb::Client::new(&sdk),
        common::template_tables().await,
    );
    contract(Arc::new(store)).await;
}

/// A user write merges the fields a user document owns into the item; an attribute it does not
/// know (written by a newer function, or by support) survives every kind of user write: a
/// plain one, and the ones inside the payment transaction.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamodb_user_writes_merge_and_keep_attributes_they_do_not_own() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let sdk = common::aws_config().await;
    let client = aws_sdk_dynamodb::Client::new(&sdk);
    let tables = common::template_tables().await;
    let store = DynamoStore::new(client.clone(), tables.clone());
    let who = uid("merge-user");
    let v1 = store.put_user(&who, &full_doc(), None).await.unwrap();
    client
        .update_item()
        .table_name(&tables.users)
        .key("uid", AttributeValue::S(who.as_str().into()))
        .update_expression("SET supportNote = :n")
        .expression_attribute_values(":n", AttributeValue::S("granted by support".into()))
        .send()
        .await
        .unwrap();
    // A plain write that empties optional fields: they go, the foreign attribute stays.
    let emptied = UserDoc {
        ai_credits: None,
        subscription_type: None,
        subscription_end_date: None,
        ..full_doc()
    };
    let v2 = store.put_user(&who, &emptied, Some(v1)).await.unwrap();
    assert_eq!(store.get_user(&who).await.unwrap().unwrap().value, emptied);
    // The payment transaction writes the user too.
    let payment = payment("cs_test_merge_0001", who.as_str(), "monthly");
    store
        .record_payment(&payment, &full_doc(), Some(v2))
        .await
        .unwrap();
    let item = client
        .get_item()
        .table_name(&tables.users)
        .key("uid", AttributeValue::S(who.as_str().into()))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(
        item.get("supportNote"),
        Some(&AttributeValue::S("granted by support".into()))
    );
    assert_eq!(
        store.get_user(&who).await.unwrap().unwrap().value,
        full_doc()
    );
    // A stale version still writes nothing.
    assert!(matches!(
        store.put_user(&who, &emptied, Some(v1)).await,
        Err(StoreError::Conflict)
    ));
}
