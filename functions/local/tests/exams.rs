//! Black-box tests of the exam API through the real local server.

use crate::common;

use common::{TestServer, start, start_with_content};
use reqwest::StatusCode;
use serde_json::{Value, json};
use shared::domain::UserDoc;
use shared::domain::scoring::Paper;
use shared::ports::store::update_user;
use time::Duration;

/// The keys, straight from the content (the browser never sees them before submitting).
fn keys(s: &TestServer, paper: Paper, id: u32) -> Vec<usize> {
    s.state
        .app
        .catalogue
        .test(paper, id)
        .unwrap()
        .questions
        .iter()
        .map(|q| q.answer)
        .collect()
}

async fn subscribe(s: &TestServer, token: &str) {
    let (_, me) = s.get("/api/me", Some(token)).await;
    let uid = shared::domain::UserId::parse(me["uid"].as_str().unwrap()).unwrap();
    let end = s.state.app.now() + Duration::days(30);
    update_user(s.state.app.users.as_ref(), &uid, |d| {
        Ok::<_, ()>(UserDoc {
            subscription_type: Some("monthly".into()),
            subscription_end_date: Some(end),
            ..d.unwrap_or_default()
        })
    })
    .await
    .unwrap();
}

/// Every field path of a JSON value, array items written `[]`: `questions[].document.image.url`.
fn field_paths(v: &Value, at: &str, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                out.insert(path.clone());
                field_paths(v, &path, out);
            }
        }
        Value::Array(a) => a
            .iter()
            .for_each(|v| field_paths(v, &format!("{at}[]"), out)),
        _ => {}
    }
}

/// The only fields a test may carry before it is submitted: anything else (a key, an
/// explanation, a transcript, a level, a new field someone adds) fails the test.
const SERVED_TEST_FIELDS: &[&str] = &[
    "category",
    "id",
    "title",
    "timeLimitSeconds",
    "questions",
    "questions[].number",
    "questions[].part",
    "questions[].prompt",
    "questions[].options",
    "questions[].document",
    "questions[].document.title",
    "questions[].document.text",
    "questions[].document.image",
    "questions[].image",
    "questions[].audio",
    "questions[].audio.url",
    "questions[].document.image.url",
    "questions[].document.image.alt",
    "questions[].document.image.width",
    "questions[].document.image.height",
    "questions[].image.url",
    "questions[].image.alt",
    "questions[].image.width",
    "questions[].image.height",
];

fn assert_only_served_fields(test: &Value, at: &str) {
    let mut paths = std::collections::BTreeSet::new();
    field_paths(test, "", &mut paths);
    let extra: Vec<_> = paths
        .iter()
        .filter(|p| !SERVED_TEST_FIELDS.contains(&p.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "{at} serves fields outside the allow-list: {extra:?}"
    );
    assert!(paths.contains("questions[].options"), "{at}: {paths:?}");
}

#[tokio::test]
async fn the_catalogue_locks_tests_2_to_10_for_free_users() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    let (status, cat) = s.get("/api/tests/Reading", Some(&ana)).await;
    assert_eq!(status, StatusCode::OK);
    let tests = cat["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 10);
    assert_eq!(
        tests[0],
        json!({"id": 1, "title": "Reading Test 1", "locked": false, "available": true})
    );
    assert_eq!(tests[1]["locked"], true);
    assert_eq!(tests[9]["title"], "Reading Test 10");
    for category in ["writing", "speaking"] {
        let (_, cat) = s.get(&format!("/api/tests/{category}"), Some(&ana)).await;
        let locked: Vec<&Value> = cat["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["locked"])
            .collect();
        assert_eq!(locked.len(), 10, "{category}");
        assert!(
            locked[0] == false && locked[1..].iter().all(|l| **l == true),
            "{category}"
        );
    }
    assert_eq!(
        s.get("/api/tests/maths", Some(&ana)).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        s.get("/api/tests/reading", None).await.0,
        StatusCode::UNAUTHORIZED
    );

    subscribe(&s, &ana).await;
    let (_, cat) = s.get("/api/tests/listening", Some(&ana)).await;
    assert!(
        cat["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["locked"] == false)
    );
}

#[tokio::test]
async fn a_test_is_served_without_its_keys() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    for category in ["reading", "listening"] {
        let (status, test) = s.get(&format!("/api/tests/{category}/1"), Some(&ana)).await;
        assert_eq!(status, StatusCode::OK, "{category}");
        assert_eq!(test["questions"].as_array().unwrap().len(), 40);
        assert_only_served_fields(&test, category);
    }
    let (_, listening) = s.get("/api/tests/listening/1", Some(&ana)).await;
    assert_eq!(listening["timeLimitSeconds"], 2400);
    let url = listening["questions"][0]["audio"]["url"].as_str().unwrap();
    assert!(
        url.starts_with("/media/listening/1/q01-") && url.contains("sig="),
        "{url}"
    );
    assert!(
        listening["questions"][0]["image"]["url"]
            .as_str()
            .unwrap()
            .starts_with("/media/listening/1/q01.svg?")
    );
}

#[tokio::test]
async fn locked_tests_get_403_and_unknown_ones_404() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    // A subscriber's read makes the view that is then reused for a while: the lock is still
    // checked for each learner.
    let ben = s.token("ben@example.com");
    subscribe(&s, &ben).await;
    let (status, first) = s.get("/api/tests/reading/2", Some(&ben)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s.get("/api/tests/reading/2", Some(&ben)).await.1, first);
    let (status, body) = s.get("/api/tests/reading/2", Some(&ana)).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::FORBIDDEN,
            json!({"error": "Subscribe to unlock this test."})
        )
    );
    let (status, _) = s
        .post(
            "/api/tests/listening/2/attempts",
            Some(&ana),
            r#"{"answers": [], "durationSeconds": 1}"#,
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for path in [
        "/api/tests/reading/11",
        "/api/tests/reading/0",
        "/api/tests/reading/x",
        "/api/tests/writing/11",
        "/api/tests/writing/nothing",
        "/api/tests/speaking/11",
        "/api/tests/speaking/nothing",
        "/api/tests/maths/1",
    ] {
        assert_eq!(
            s.get(path, Some(&ana)).await.0,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_test_whose_content_is_not_published_is_404_even_to_subscribers() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content");
    let read = |name: &str| std::fs::read_to_string(format!("{root}/{name}")).unwrap();
    let (voices, reading) = (read("voices.json"), read("reading/test-01.json"));
    let s =
        start_with_content(&[("voices.json", &voices), ("reading/test-01.json", &reading)]).await;
    let ana = s.token("ana@example.com");
    subscribe(&s, &ana).await;
    let (_, cat) = s.get("/api/tests/reading", Some(&ana)).await;
    assert_eq!(cat["tests"][0]["available"], true);
    assert_eq!(
        cat["tests"][1],
        json!({"id": 2, "title": "Reading Test 2", "locked": false, "available": false})
    );
    assert_eq!(
        s.get("/api/tests/reading/1", Some(&ana)).await.0,
        StatusCode::OK
    );
    for path in ["/api/tests/reading/2", "/api/tests/listening/1"] {
        assert_eq!(
            s.get(path, Some(&ana)).await.0,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let (status, _) = s
        .post(
            "/api/tests/reading/2/attempts",
            Some(&ana),
            r#"{"answers": [], "durationSeconds": 1}"#,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_attempt_is_graded_on_the_server_and_tracked() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    let mut answers: Vec<Value> = keys(&s, Paper::Reading, 1)
        .into_iter()
        .map(|k| json!(k))
        .collect();
    // 31 right, 4 wrong, 5 blank.
    for a in answers.iter_mut().take(4) {
        *a = json!((a.as_u64().unwrap() + 1) % 4);
    }
    for a in answers.iter_mut().skip(4).take(5) {
        *a = Value::Null;
    }
    let body = json!({"answers": answers, "durationSeconds": 1500}).to_string();
    let (status, result) = s
        .post("/api/tests/reading/1/attempts", Some(&ana), &body)
        .await;
    assert_eq!(status, StatusCode::OK, "{result}");
    assert_eq!(
        (
            result["score"].clone(),
            result["total"].clone(),
            result["percent"].clone()
        ),
        (json!(31), json!(40), json!(77))
    );
    assert_eq!(result["clb"], 7);
    assert_eq!(
        result["tefOld"],
        json!({"kind": "score", "value": 220, "max": 300})
    );
    assert_eq!(result["quizId"], "readingTest1");
    let q = &result["questions"];
    assert_eq!(q[0]["correct"], false);
    assert_eq!(q[5]["yourAnswer"], Value::Null);
    assert_eq!(q[39]["correct"], true);
    assert!(q[39]["explanation"].as_str().unwrap().len() > 20);
    assert_eq!(q[39]["yourAnswer"], q[39]["correctAnswer"]);

    // The result can be read again by its owner only.
    let id = result["resultId"].as_str().unwrap();
    let (status, again) = s.get(&format!("/api/results/{id}"), Some(&ana)).await;
    assert_eq!(
        (status, again["score"].clone()),
        (StatusCode::OK, json!(31))
    );
    let bob = s.token("bob@example.com");
    assert_eq!(
        s.get(&format!("/api/results/{id}"), Some(&bob)).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        s.get("/api/results/not-an-id", Some(&ana)).await.0,
        StatusCode::NOT_FOUND
    );

    // The tracker shows it to Ana, and nothing to Bob.
    let (_, progress) = s.get("/api/progress", Some(&ana)).await;
    assert_eq!(progress["skills"]["reading"][0]["clb"], 7);
    assert_eq!(progress["skills"]["listening"], json!([]));
    assert_eq!(progress["overallClb"], 7);
    assert_eq!(progress["skillsWithResults"], 1);
    let (_, bobs) = s.get("/api/progress", Some(&bob)).await;
    assert_eq!(bobs["skills"]["reading"], json!([]));
    assert_eq!(bobs["overallClb"], Value::Null);
}

#[tokio::test]
async fn listening_results_carry_transcripts_and_the_tracker_keeps_five() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    let blank = json!({"answers": vec![Value::Null; 40], "durationSeconds": 60}).to_string();
    let mut last = Value::Null;
    for _ in 0..6 {
        let (status, r) = s
            .post("/api/tests/listening/1/attempts", Some(&ana), &blank)
            .await;
        assert_eq!(status, StatusCode::OK);
        last = r;
    }
    assert_eq!(last["clb"], 3);
    assert_eq!(
        last["tefOld"],
        json!({"kind": "below", "below": 145, "max": 360})
    );
    let transcript = last["questions"][0]["transcript"].as_array().unwrap();
    assert!(transcript.len() >= 2);
    assert!(["Femme", "Homme"].contains(&transcript[0]["speaker"].as_str().unwrap()));
    let (_, progress) = s.get("/api/progress", Some(&ana)).await;
    let points = progress["skills"]["listening"].as_array().unwrap();
    assert_eq!(points.len(), 5, "the latest five");
    assert_eq!(points[4]["resultId"], last["resultId"], "oldest to newest");
}

#[tokio::test]
async fn malformed_attempts_get_400_and_store_nothing() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    let forty_nulls = vec![Value::Null; 40];
    let mut bad_option = forty_nulls.clone();
    bad_option[3] = json!(7);
    for body in [
        json!({"answers": vec![Value::Null; 39], "durationSeconds": 10}),
        json!({"answers": bad_option, "durationSeconds": 10}),
        json!({"answers": forty_nulls.clone(), "durationSeconds": -1}),
        json!({"answers": forty_nulls.clone(), "durationSeconds": 10, "score": 40}),
        json!({"answers": "all right"}),
    ] {
        let (status, err) = s
            .post(
                "/api/tests/reading/1/attempts",
                Some(&ana),
                &body.to_string(),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert!(err["error"].is_string());
    }
    let (_, progress) = s.get("/api/progress", Some(&ana)).await;
    assert_eq!(progress["skills"]["reading"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_resent_attempt_is_stored_once() {
    let s = start().await;
    let ana = s.token("ana@example.com");
    let body = json!({"answers": vec![Value::Null; 40], "durationSeconds": 30, "attemptId": "reading-1-1795348800000"}).to_string();
    let (_, first) = s
        .post("/api/tests/reading/1/attempts", Some(&ana), &body)
        .await;
    let (status, again) = s
        .post("/api/tests/reading/1/attempts", Some(&ana), &body)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["resultId"], first["resultId"]);
    let (_, progress) = s.get("/api/progress", Some(&ana)).await;
    assert_eq!(progress["skills"]["reading"].as_array().unwrap().len(), 1);

    // Tabs sending the same attempt at the same moment: one result, all of them see it.
    let twin = json!({"answers": vec![Value::Null; 40], "durationSeconds": 40, "attemptId": "reading-1-1795348900000"}).to_string();
    let path = "/api/tests/reading/1/attempts";
    let sent =
        futures_util::future::join_all((0..16).map(|_| s.post(path, Some(&ana), &twin))).await;
    for (status, result) in &sent {
        assert_eq!(*status, StatusCode::OK, "{result}");
        assert_eq!(result["resultId"], sent[0].1["resultId"]);
    }
    assert_ne!(sent[0].1["resultId"], first["resultId"]);
    let (_, progress) = s.get("/api/progress", Some(&ana)).await;
    assert_eq!(progress["skills"]["reading"].as_array().unwrap().len(), 2);

    // Another user's attempt with the same id is theirs, not Ana's.
    let bob = s.token("bob@example.com");
    let (_, bobs) = s
        .post("/api/tests/reading/1/attempts", Some(&bob), &body)
        .await;
    assert_ne!(bobs["resultId"], first["resultId"]);
    let bad =
        json!({"answers": vec![Value::Null; 40], "durationSeconds": 30, "attemptId": "no spaces!"})
            .to_string();
    assert_eq!(
        s.post("/api/tests/reading/1/attempts", Some(&ana), &bad)
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_subscriber_can_take_all_twenty_papers() {
    let s = start().await;
    let media_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/media");
    shared::publish::publish_images(std::path::Path::new(media_dir), s.state.app.media.as_ref())
        .await
        .unwrap();
    let ana = s.token("ana@example.com");
    subscribe(&s, &ana).await;
    let mut taken = 0;
    for paper in [Paper::Reading, Paper::Listening] {
        let category = format!("{paper:?}").to_lowercase();
        let ids: Vec<u32> = s.state.app.catalogue.tests(paper).map(|t| t.id).collect();
        for id in ids {
            let at = format!("{category} test {id}");
            let (status, test) = s
                .get(&format!("/api/tests/{category}/{id}"), Some(&ana))
                .await;
            assert_eq!(status, StatusCode::OK, "{at}");
            let questions = test["questions"].as_array().unwrap();
            assert_eq!(questions.len(), 40, "{at}");
            assert_only_served_fields(&test, &at);
            // Every image the paper shows is served, as SVG, through its signed link.
            let images = questions
                .iter()
                .flat_map(|q| [&q["image"], &q["document"]["image"]]);
            for url in images.filter_map(|i| i["url"].as_str()) {
                let res = s.http.get(s.url(url)).send().await.unwrap();
                assert_eq!(res.status(), StatusCode::OK, "{at}: {url}");
                assert_eq!(
                    res.headers()["content-type"],
                    "image/svg+xml",
                    "{at}: {url}"
                );
            }
            if paper == Paper::Listening {
                assert!(
                    questions.iter().all(|q| q["audio"]["url"].is_string()),
                    "{at}"
                );
            }
            let answers: Vec<Value> = keys(&s, paper, id).into_iter().map(|k| json!(k)).collect();
            let body = json!({"answers": answers, "durationSeconds": 1800}).to_string();
            let (status, result) = s
                .post(
                    &format!("/api/tests/{category}/{id}/attempts"),
                    Some(&ana),
                    &body,
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{at}: {result}");
            assert_eq!(
                (result["score"].clone(), result["clb"].clone()),
                (json!(40), json!(10)),
                "{at}"
            );
            // What is shown is typeset: no line can start with ? ! ; : or ».
            for q in result["questions"].as_array().unwrap() {
                let shown = [
                    &q["prompt"],
                    &q["document"]["title"],
                    &q["document"]["text"],
                ]
                .into_iter()
                .chain(q["options"].as_array().unwrap())
                .chain(
                    q["transcript"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|l| &l["text"]),
                )
                .filter_map(Value::as_str);
                for text in shown {
                    assert!(
                        ![" ?", " !", " ;", " :", " »"]
                            .iter()
                            .any(|p| text.contains(p)),
                        "{at} question {}: {text}",
                        q["number"]
                    );
                }
            }
            taken += 1;
        }
    }
    assert_eq!(taken, 20, "ten reading and ten listening papers");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_comparison_line_needs_thirty_other_first_attempts() {
    let s = start().await;
    let keys = keys(&s, Paper::Reading, 1);
    // `right` correct answers, the rest wrong.
    let answers = |right: usize| -> Vec<Value> {
        keys.iter()
            .enumerate()
            .map(|(i, k)| json!(if i < right { *k } else { (*k + 1) % 4 }))
            .collect()
    };
    let submit = |who: String, right: usize| {
        let s = &s;
        let body = json!({"answers": answers(right), "durationSeconds": 600}).to_string();
        async move {
            let token = s.token(&who);
            s.post("/api/tests/reading/1/attempts", Some(&token), &body)
                .await
                .1
        }
    };
    // 29 others: 10 scored 10, 19 scored 30.
    for i in 0..29 {
        submit(
            format!("other{i}@example.com"),
            if i < 10 { 10 } else { 30 },
        )
        .await;
    }
    let ana = submit("ana@example.com".into(), 20).await;
    assert_eq!(ana["percent"], 50);
    assert_eq!(
        ana["exceedsPercent"],
        Value::Null,
        "29 others are not enough"
    );
    // A second attempt by someone already counted changes nothing.
    submit("other0@example.com".into(), 40).await;
    let again = submit("ana@example.com".into(), 20).await;
    assert_eq!(again["exceedsPercent"], Value::Null);

    // The thirtieth other learner: 10 of 30 scored lower than Ana's 20.
    submit("other29@example.com".into(), 35).await;
    let third = submit("ana@example.com".into(), 20).await;
    assert_eq!(third["exceedsPercent"], 33);
    // Reading an older result again compares it with today's learners.
    let (_, first) = s
        .get(
            &format!("/api/results/{}", ana["resultId"].as_str().unwrap()),
            Some(&s.token("ana@example.com")),
        )
        .await;
    assert_eq!(first["exceedsPercent"], 33);
}
