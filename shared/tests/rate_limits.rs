//! Per-user rate limits (issue 16): over the limit a route answers 429 with its message and
//! changes nothing; malformed requests never count; other users and the next hour are free.

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use serde_json::{Value, json};
use shared::App;
use shared::adapters::SqliteStore;
use shared::api::routes::by_name;
use shared::api::{ApiRequest, respond};
use shared::catalogue::Catalogue;
use shared::domain::exam::Skill;
use shared::domain::rate_limit::Limited;
use shared::domain::{Identity, UserId};
use shared::ports::ResultStore;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../content");

fn app(store: Arc<SqliteStore>, now: OffsetDateTime) -> App {
    let voices = std::fs::read_to_string(format!("{ROOT}/voices.json")).unwrap();
    let paper = std::fs::read_to_string(format!("{ROOT}/reading/test-01.json")).unwrap();
    let catalogue =
        Catalogue::from_files(&[("voices.json", &voices), ("reading/test-01.json", &paper)])
            .unwrap();
    common::offline_app(Arc::new(catalogue), store, now)
}

async fn submit(app: &App, uid: &str, body: Value) -> (u16, Value) {
    let req = ApiRequest {
        identity: Some(Identity::from_claims(uid, Some("ana@example.com")).unwrap()),
        params: [("category", "reading"), ("id", "1")]
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect::<HashMap<_, _>>(),
        query: HashMap::new(),
        headers: http::HeaderMap::new(),
        body: Bytes::from(body.to_string()),
    };
    let res = respond(app, by_name("submit-attempt").unwrap(), req).await;
    (res.status.as_u16(), res.json())
}

fn attempt() -> Value {
    json!({"answers": vec![json!(0); 40], "durationSeconds": 600})
}

async fn stored(store: &SqliteStore, uid: &str) -> usize {
    store
        .recent_results(&UserId::parse(uid).unwrap(), Skill::Reading, 100)
        .await
        .unwrap()
        .len()
}

#[tokio::test]
async fn submissions_over_the_hourly_limit_get_429_and_store_nothing() {
    let max = usize::try_from(Limited::SubmitAttempt.limit().max).unwrap();
    let store = Arc::new(SqliteStore::in_memory().unwrap());
    let now = datetime!(2026-11-26 12:10 UTC);
    let app_now = app(store.clone(), now);

    // Malformed submissions are refused before they count.
    for _ in 0..max + 5 {
        let (status, _) = submit(&app_now, "ana-0001", json!({"answers": "all of them"})).await;
        assert_eq!(status, 400);
    }
    for i in 0..max {
        let (status, body) = submit(&app_now, "ana-0001", attempt()).await;
        assert_eq!(status, 200, "submission {}: {body}", i + 1);
    }
    assert_eq!(stored(&store, "ana-0001").await, max);

    let (status, body) = submit(&app_now, "ana-0001", attempt()).await;
    assert_eq!(status, 429);
    assert_eq!(
        body,
        json!({"error": "You have reached the limit of 30 exam submissions per hour. Please try again later."})
    );
    assert_eq!(
        stored(&store, "ana-0001").await,
        max,
        "a refused submission stores nothing"
    );

    // Another learner is not held back, and the next hour starts afresh.
    assert_eq!(submit(&app_now, "ben-0002", attempt()).await.0, 200);
    let later = app(store.clone(), now + time::Duration::minutes(50));
    assert_eq!(submit(&later, "ana-0001", attempt()).await.0, 200);
    assert_eq!(stored(&store, "ana-0001").await, max + 1);
}
