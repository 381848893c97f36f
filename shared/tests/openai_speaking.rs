//! The OpenAI-compatible examiner and transcriber against a local stand-in of the chat and
//! transcription endpoints, which checks each request (bearer key, the role the server wrote,
//! the multipart upload) and replays realistic answers, failures and silence.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use shared::adapters::{OpenAiExaminer, OpenAiTranscriber};
use shared::catalogue::Catalogue;
use shared::domain::speaking::{ChatMessage, Role, parse_report};
use shared::domain::writing::Section;
use shared::ports::examiner::{Examiner, ExaminerError};
use shared::ports::transcriber::{TranscribeError, Transcriber};

const KEY: &str = "sk-test-speaking-key";

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Realistic,
    Broken,
    Silent,
}

struct Stand {
    mode: Mode,
    calls: AtomicUsize,
    last: std::sync::Mutex<Value>,
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {KEY}"))
}

async fn chat(
    State(s): State<Arc<Stand>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    s.calls.fetch_add(1, Ordering::SeqCst);
    if !authorised(&headers) {
        return (StatusCode::UNAUTHORIZED, "bad key").into_response();
    }
    *s.last.lock().unwrap() = body.clone();
    match s.mode {
        Mode::Broken => return (StatusCode::SERVICE_UNAVAILABLE, "overloaded").into_response(),
        Mode::Silent => tokio::time::sleep(Duration::from_secs(30)).await,
        Mode::Realistic => {}
    }
    let system = body["messages"][0]["content"].as_str().unwrap_or_default();
    let content = if system.contains("rapport de performance") {
        "Points forts :\n- Questions claires et polies.\n\nPoints à améliorer :\n- Variez les formules.\n\nNiveau CLB Estimé : 8\nNiveau TEF Estimé : B2\nScore : 355/450"
    } else {
        "Le cours coûte 280 $ pour dix semaines."
    };
    Json(json!({
        "id": "chatcmpl-1", "object": "chat.completion",
        "choices": [{ "index": 0, "finish_reason": "stop", "message": { "role": "assistant", "content": content, "refusal": null } }]
    }))
    .into_response()
}

async fn transcriptions(
    State(s): State<Arc<Stand>>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    s.calls.fetch_add(1, Ordering::SeqCst);
    if !authorised(&headers) {
        return (StatusCode::UNAUTHORIZED, "bad key").into_response();
    }
    let mut fields = serde_json::Map::new();
    let mut file_len = 0;
    while let Ok(Some(field)) = form.next_field().await {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            assert_eq!(field.content_type(), Some("audio/webm"));
            file_len = field.bytes().await.map(|b| b.len()).unwrap_or(0);
        } else {
            fields.insert(name, json!(field.text().await.unwrap_or_default()));
        }
    }
    *s.last.lock().unwrap() = Value::Object(fields.clone());
    if s.mode == Mode::Broken {
        return (StatusCode::INTERNAL_SERVER_ERROR, "boom").into_response();
    }
    if file_len == 0 || fields.get("language") != Some(&json!("fr")) {
        return (StatusCode::BAD_REQUEST, "no file").into_response();
    }
    Json(json!({ "text": " Bonjour, je voudrais des renseignements. " })).into_response()
}

async fn stand_in(mode: Mode) -> (String, Arc<Stand>) {
    let stand = Arc::new(Stand {
        mode,
        calls: AtomicUsize::new(0),
        last: std::sync::Mutex::new(Value::Null),
    });
    let app = axum::Router::new()
        .route("/v1/chat/completions", post(chat))
        .route("/v1/audio/transcriptions", post(transcriptions))
        .with_state(stand.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), stand)
}

fn limits() -> (Duration, Duration, Duration) {
    (
        Duration::from_secs(3),
        Duration::from_millis(800),
        Duration::from_millis(20),
    )
}

fn examiner(base: &str) -> OpenAiExaminer {
    let (b, a, k) = limits();
    OpenAiExaminer::new(base, Some(KEY), "examiner-model").with_limits(b, a, k)
}

fn turn(content: &str) -> ChatMessage {
    ChatMessage {
        role: Role::User,
        content: content.into(),
    }
}

#[tokio::test]
async fn the_examiner_plays_the_role_the_server_writes_and_its_report_parses() {
    let catalogue = Catalogue::embedded().unwrap();
    let topic = catalogue.speaking_topic("serviceCoursLangue").unwrap();
    let (base, stand) = stand_in(Mode::Realistic).await;
    let e = examiner(&base);
    let reply = e
        .reply(topic, Section::A, &[turn("Combien coûte le cours ?")])
        .await
        .unwrap();
    assert_eq!(reply, "Le cours coûte 280 $ pour dix semaines.");
    let sent = stand.last.lock().unwrap().clone();
    assert_eq!(sent["model"], "examiner-model");
    let system = sent["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains(&topic.section_a.ai_system_prompt_instruction));
    assert!(system.contains("Vouvoie"), "{system}");
    assert!(system.contains(topic.section_a.document_content.lines().next().unwrap()));
    assert_eq!(
        sent["messages"][1],
        json!({ "role": "user", "content": "Combien coûte le cours ?" })
    );

    let _ = e
        .reply(topic, Section::B, &[turn("Salut !")])
        .await
        .unwrap();
    let system_b = stand.last.lock().unwrap()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(system_b.contains("Tutoie") && system_b.contains(&topic.section_b.document_content));

    let report = e
        .report(topic, Section::A, &[turn("Bonjour")])
        .await
        .unwrap();
    let levels = parse_report(&report).unwrap();
    assert_eq!((levels.score, levels.clb), (355, 8));
}

#[tokio::test]
async fn a_failing_or_silent_examiner_fails_within_the_budget() {
    let catalogue = Catalogue::embedded().unwrap();
    let topic = catalogue.speaking_topic(1.to_string().as_str()).unwrap();
    let (base, stand) = stand_in(Mode::Broken).await;
    let err = examiner(&base)
        .reply(topic, Section::A, &[turn("Bonjour")])
        .await
        .unwrap_err();
    assert!(matches!(err, ExaminerError::Unavailable(_)), "{err}");
    assert_eq!(stand.calls.load(Ordering::SeqCst), 3, "bounded retries");

    let (base, _) = stand_in(Mode::Silent).await;
    let started = Instant::now();
    let err = examiner(&base)
        .reply(topic, Section::A, &[turn("Bonjour")])
        .await
        .unwrap_err();
    assert!(matches!(err, ExaminerError::Timeout(_)), "{err}");
    assert!(started.elapsed() < Duration::from_millis(3_500));
}

#[tokio::test]
async fn the_transcriber_uploads_webm_in_french_and_trims_the_text() {
    let (base, stand) = stand_in(Mode::Realistic).await;
    let (b, a, k) = limits();
    let t = OpenAiTranscriber::new(&base, Some(KEY), "stt-model").with_limits(b, a, k);
    let text = t
        .transcribe(b"\x1aE\xdf\xa3 fake webm bytes")
        .await
        .unwrap();
    assert_eq!(text, "Bonjour, je voudrais des renseignements.");
    let sent = stand.last.lock().unwrap().clone();
    assert_eq!(sent["model"], "stt-model");
    let too_big = vec![0u8; shared::ports::transcriber::MAX_AUDIO_BYTES + 1];
    assert!(matches!(
        t.transcribe(&too_big).await,
        Err(TranscribeError::BadAudio(_))
    ));
    let (base, _) = stand_in(Mode::Broken).await;
    let t = OpenAiTranscriber::new(&base, Some(KEY), "stt-model").with_limits(b, a, k);
    assert!(matches!(
        t.transcribe(b"x").await,
        Err(TranscribeError::Unavailable(_))
    ));
}
