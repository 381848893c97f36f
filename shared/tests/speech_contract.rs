//! The speech contract: one suite, run against every `SpeechSynth` adapter.
//! espeak-ng runs for real. The OpenAI adapter runs against a local stand-in
//! for the speech endpoint, which checks each request and answers with a WAV
//! whose length follows the text and whose pitch follows the voice.

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::post;
use bytes::Bytes;
use serde_json::Value;
use shared::adapters::{EspeakSynth, OpenAiSpeech};
use shared::catalogue::Catalogue;
use shared::domain::content::Cast;
use shared::ports::speech::{SpeechError, SpeechSynth};

/// (sample rate, seconds of audio) of a 16-bit mono PCM WAV.
fn wav_info(wav: &[u8]) -> (u32, f64) {
    assert!(wav.len() > 44, "too short to be a WAV");
    assert_eq!(&wav[0..4], b"RIFF");
    assert_eq!(&wav[8..12], b"WAVE");
    let channels = u16::from_le_bytes([wav[22], wav[23]]);
    let rate = u32::from_le_bytes([wav[24], wav[25], wav[26], wav[27]]);
    let bits = u16::from_le_bytes([wav[34], wav[35]]);
    assert_eq!((channels, bits), (1, 16), "mono 16-bit PCM");
    // Streamed WAVs carry a placeholder length: measure the bytes instead.
    let seconds = (wav.len() - 44) as f64 / f64::from(rate * 2);
    (rate, seconds)
}

async fn contract(synth: &dyn SpeechSynth, cast: &Cast) {
    assert!(!synth.engine_id().is_empty());
    let femme = &cast.voices["femme-1"];
    let homme = &cast.voices["homme-1"];
    let short = "Bonjour, je cherche la bibliothèque municipale.";
    let long = "Bonjour, je cherche la bibliothèque municipale. On m'a dit qu'elle se trouvait \
                à côté de l'hôtel de ville, mais je ne la vois pas. Pouvez-vous m'aider ?";

    let a = synth.synthesize(short, femme).await.unwrap();
    let (_, a_len) = wav_info(&a);
    assert!(
        (0.8..15.0).contains(&a_len),
        "{a_len} s for a short sentence"
    );

    let b = synth.synthesize(short, homme).await.unwrap();
    wav_info(&b);
    assert_ne!(a, b, "two voices sound different");

    let c = synth.synthesize(long, femme).await.unwrap();
    let (_, c_len) = wav_info(&c);
    assert!(
        c_len > a_len * 1.8,
        "longer text, longer audio: {a_len} vs {c_len}"
    );
}

fn cast() -> Cast {
    Catalogue::embedded().unwrap().cast
}

#[tokio::test]
async fn espeak_meets_the_contract() {
    contract(&EspeakSynth, &cast()).await;
}

/// A WAV of `seconds` of a sine at `hz`.
fn tone(hz: f64, seconds: f64) -> Vec<u8> {
    let rate = 24_000u32;
    let n = (seconds * f64::from(rate)) as u32;
    let mut out = Vec::with_capacity(44 + n as usize * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + n * 2).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(n * 2).to_le_bytes());
    for i in 0..n {
        let s = (f64::from(i) / f64::from(rate) * hz * std::f64::consts::TAU).sin();
        out.extend_from_slice(&((s * 8000.0) as i16).to_le_bytes());
    }
    out
}

/// Stands in for OpenAI's `POST /v1/audio/speech`, checking what the adapter sends.
async fn fake_speech_api(seen: Arc<Mutex<Vec<Value>>>) -> String {
    let app = axum::Router::new().route(
        "/v1/audio/speech",
        post(move |headers: HeaderMap, Json(body): Json<Value>| {
            let seen = seen.clone();
            async move {
                if headers.get("authorization").and_then(|v| v.to_str().ok())
                    != Some("Bearer test-key")
                {
                    return (StatusCode::UNAUTHORIZED, "bad key").into_response();
                }
                let ok = body["model"].is_string()
                    && body["voice"].is_string()
                    && body["response_format"] == "wav"
                    && body["input"].as_str().is_some_and(|s| !s.is_empty());
                if !ok {
                    return (StatusCode::BAD_REQUEST, "bad request").into_response();
                }
                let words = body["input"]
                    .as_str()
                    .unwrap_or_default()
                    .split_whitespace()
                    .count();
                let hz = 200.0 + body["voice"].as_str().unwrap_or_default().len() as f64 * 10.0;
                seen.lock().unwrap().push(body);
                Bytes::from(tone(hz, words as f64 * 0.35)).into_response()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}/v1")
}

#[tokio::test]
async fn openai_meets_the_contract() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let base = fake_speech_api(seen.clone()).await;
    let synth = OpenAiSpeech::new(&base, Some("test-key"), "gpt-4o-mini-tts");
    contract(&synth, &cast()).await;
    let requests = seen.lock().unwrap();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[0]["voice"], cast().voices["femme-1"].openai);
    assert_eq!(requests[0]["model"], "gpt-4o-mini-tts");
}

#[tokio::test]
async fn openai_failures_are_errors_not_audio() {
    let base = fake_speech_api(Arc::new(Mutex::new(Vec::new()))).await;
    let cast = cast();
    let wrong_key = OpenAiSpeech::new(&base, Some("wrong"), "gpt-4o-mini-tts");
    assert!(matches!(
        wrong_key
            .synthesize("Bonjour.", &cast.voices["femme-1"])
            .await,
        Err(SpeechError::Failed(_))
    ));
    let no_key = OpenAiSpeech::new(&base, None, "gpt-4o-mini-tts");
    assert!(matches!(
        no_key.synthesize("Bonjour.", &cast.voices["femme-1"]).await,
        Err(SpeechError::Unavailable(_))
    ));
}
