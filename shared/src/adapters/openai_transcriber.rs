//! Transcription on an OpenAI-compatible audio API (`audio/transcriptions`, multipart).

use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;

use super::openai_client::{CallError, OpenAiClient, Payload};
use crate::ports::transcriber::{MAX_AUDIO_BYTES, TranscribeError, Transcriber};

pub const DEFAULT_MODEL: &str = "whisper-1";

#[derive(Debug)]
pub struct OpenAiTranscriber {
    client: OpenAiClient,
    model: String,
}

impl OpenAiTranscriber {
    pub fn new(base_url: &str, api_key: Option<&str>, model: &str) -> Self {
        Self {
            client: OpenAiClient::new(base_url, api_key),
            model: model.to_owned(),
        }
    }

    /// Shorter limits, for tests against a stand-in server.
    pub fn with_limits(mut self, budget: Duration, attempt: Duration, backoff: Duration) -> Self {
        self.client = self.client.with_limits(budget, attempt, backoff);
        self
    }
}

#[async_trait]
impl Transcriber for OpenAiTranscriber {
    async fn transcribe(&self, audio: &[u8]) -> Result<String, TranscribeError> {
        if audio.len() > MAX_AUDIO_BYTES {
            return Err(TranscribeError::BadAudio(format!("{} bytes", audio.len())));
        }
        let form = Payload::Form {
            file_field: "file",
            file_name: "answer.webm",
            mime: "audio/webm",
            bytes: audio.to_vec(),
            fields: vec![
                ("model", self.model.clone()),
                ("language", "fr".to_owned()),
                ("response_format", "json".to_owned()),
            ],
        };
        let answer = self
            .client
            .post("audio/transcriptions", &form)
            .await
            .map_err(|e| match e {
                CallError::Timeout(ms) => TranscribeError::Timeout(ms),
                CallError::Failed(d) if d.starts_with("status 400") => TranscribeError::BadAudio(d),
                other => TranscribeError::Unavailable(other.to_string()),
            })?;
        answer
            .get("text")
            .and_then(Value::as_str)
            .map(|t| t.trim().to_owned())
            .ok_or_else(|| TranscribeError::Unavailable("no text in the answer".into()))
    }
}
