//! Results keep the version of the paper they answered (issue 16): while the paper is
//! unchanged the review shows the learner's answers; once it is revised, the review says so,
//! keeps the score, and never reads the stored option numbers against the new options.

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use serde_json::{Value, json};
use shared::App;
use shared::adapters::SqliteStore;
use shared::api::routes::by_name;
use shared::api::{ApiRequest, respond};
use shared::catalogue::Catalogue;
use shared::domain::Identity;
use time::macros::datetime;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../content");

fn catalogue(change: impl FnOnce(&mut Value)) -> Arc<Catalogue> {
    let voices = std::fs::read_to_string(format!("{ROOT}/voices.json")).unwrap();
    let mut paper: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{ROOT}/reading/test-01.json")).unwrap(),
    )
    .unwrap();
    change(&mut paper);
    Arc::new(
        Catalogue::from_files(&[
            ("voices.json", &voices),
            ("reading/test-01.json", &paper.to_string()),
        ])
        .unwrap(),
    )
}

fn app(catalogue: Arc<Catalogue>, store: Arc<SqliteStore>) -> App {
    common::offline_app(catalogue, store, datetime!(2026-11-26 12:00 UTC))
}

async fn call(app: &App, route: &str, params: &[(&str, &str)], body: Value) -> (u16, Value) {
    let req = ApiRequest {
        identity: Some(Identity::from_claims("ana-0001", Some("ana@example.com")).unwrap()),
        params: params
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect::<HashMap<_, _>>(),
        query: HashMap::new(),
        headers: http::HeaderMap::new(),
        body: Bytes::from(if body.is_null() {
            String::new()
        } else {
            body.to_string()
        }),
    };
    let res = respond(app, by_name(route).unwrap(), req).await;
    (res.status.as_u16(), res.json())
}

#[tokio::test]
async fn a_review_after_the_paper_changed_says_so_and_keeps_the_score() {
    let store = Arc::new(SqliteStore::in_memory().unwrap());
    let before = app(catalogue(|_| {}), store.clone());
    let mut answers = vec![Value::Null; 40];
    answers[0] = json!(0);
    answers[1] = json!(1);
    let (status, taken) = call(
        &before,
        "submit-attempt",
        &[("category", "reading"), ("id", "1")],
        json!({"answers": answers, "durationSeconds": 600}),
    )
    .await;
    assert_eq!(status, 200, "{taken}");
    assert_eq!(taken["paperChanged"], false);
    let id = taken["resultId"].as_str().unwrap().to_owned();
    let chosen = taken["questions"][0]["yourAnswer"].clone();
    assert!(
        chosen.is_string(),
        "the learner's answer is shown: {chosen}"
    );

    // Unchanged paper: the same review.
    let (_, again) = call(&before, "get-result", &[("id", &id)], Value::Null).await;
    assert_eq!(again["paperChanged"], false);
    assert_eq!(again["questions"][0]["yourAnswer"], chosen);

    // The paper is revised (one option reworded): the score stands, the answers are not
    // read against options the learner never saw.
    let after = app(
        catalogue(|p| p["questions"][5]["options"][2] = json!("Une option réécrite.")),
        store,
    );
    let (status, review) = call(&after, "get-result", &[("id", &id)], Value::Null).await;
    assert_eq!(status, 200);
    assert_eq!(review["paperChanged"], true);
    assert_eq!(review["score"], taken["score"]);
    assert_eq!(review["clb"], taken["clb"]);
    for q in review["questions"].as_array().unwrap() {
        assert_eq!(q["yourAnswer"], Value::Null);
        assert_eq!(q["correct"], false);
    }
}
