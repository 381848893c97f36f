//! Production speech: OpenAI's text-to-speech API, one request per turn, as WAV.

use async_trait::async_trait;
use bytes::Bytes;
use serde_json::json;

use crate::domain::content::Voice;
use crate::ports::speech::{SpeechError, SpeechSynth};

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
pub const DEFAULT_MODEL: &str = "gpt-4o-mini-tts";

pub struct OpenAiSpeech {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    model: String,
    engine_id: String,
}

impl OpenAiSpeech {
    /// Without a key the engine still names its files, but cannot render.
    pub fn new(base_url: &str, api_key: Option<&str>, model: &str) -> Self {
        Self {
            http: reqwest::Client::new(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: api_key.map(str::to_owned),
            model: model.to_owned(),
            engine_id: format!("openai-{model}"),
        }
    }
}

#[async_trait]
impl SpeechSynth for OpenAiSpeech {
    fn engine_id(&self) -> &str {
        &self.engine_id
    }

    async fn synthesize(&self, text: &str, voice: &Voice) -> Result<Bytes, SpeechError> {
        let key = self.api_key.as_deref().ok_or_else(|| {
            SpeechError::Unavailable(
                "OPENAI_API_KEY is not set: it is needed to render audio".into(),
            )
        })?;
        let res = self
            .http
            .post(format!("{}/audio/speech", self.base_url))
            .bearer_auth(key)
            .json(&json!({
                "model": self.model,
                "voice": voice.openai,
                "input": text,
                "response_format": "wav",
                "instructions": "Speak natural, clear Canadian French at a normal conversational pace.",
            }))
            .send()
            .await
            .map_err(|e| SpeechError::Unavailable(format!("speech request failed: {e}")))?;
        let status = res.status();
        if !status.is_success() {
            let body = res.text().await.unwrap_or_default();
            return Err(SpeechError::Failed(format!(
                "speech API answered {status}: {}",
                body.chars().take(300).collect::<String>()
            )));
        }
        res.bytes()
            .await
            .map_err(|e| SpeechError::Failed(format!("speech body: {e}")))
    }
}
