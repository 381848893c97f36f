//! Production speech: OpenAI's text-to-speech API, one request per turn, as WAV, through the
//! shared client (its time-outs, and its bounded retries on 429, 5xx and dropped connections).

use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use serde_json::json;

use super::openai_client::{OpenAiClient, Payload};
use crate::domain::content::Voice;
use crate::ports::speech::{SpeechError, SpeechSynth};

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
pub const DEFAULT_MODEL: &str = "gpt-4o-mini-tts";

pub struct OpenAiSpeech {
    client: OpenAiClient,
    has_key: bool,
    model: String,
    engine_id: String,
}

impl OpenAiSpeech {
    /// Without a key the engine still names its files, but cannot render.
    pub fn new(base_url: &str, api_key: Option<&str>, model: &str) -> Self {
        Self {
            client: OpenAiClient::new(base_url, api_key),
            has_key: api_key.is_some(),
            model: model.to_owned(),
            engine_id: format!("openai-{model}"),
        }
    }

    /// Shorter limits, for tests against a stand-in server.
    pub fn with_limits(mut self, budget: Duration, attempt: Duration, backoff: Duration) -> Self {
        self.client = self.client.with_limits(budget, attempt, backoff);
        self
    }
}

#[async_trait]
impl SpeechSynth for OpenAiSpeech {
    fn engine_id(&self) -> &str {
        &self.engine_id
    }

    async fn synthesize(&self, text: &str, voice: &Voice) -> Result<Bytes, SpeechError> {
        if !self.has_key {
            return Err(SpeechError::Unavailable(
                "OPENAI_API_KEY is not set: it is needed to render audio".into(),
            ));
        }
        let payload = Payload::Json(json!({
            "model": self.model,
            "voice": voice.openai,
            "input": text,
            "response_format": "wav",
            "instructions": "Speak natural, clear Canadian French at a normal conversational pace.",
        }));
        let audio = self
            .client
            .post_for_bytes("audio/speech", &payload)
            .await
            .map_err(|e| SpeechError::Failed(format!("speech API: {e}")))?;
        // Renders are cached by text and voice: an answer that is not audio must never be kept.
        if !is_wav(&audio) {
            return Err(SpeechError::Failed(format!(
                "speech API: the answer is not WAV audio ({} bytes)",
                audio.len()
            )));
        }
        Ok(audio)
    }
}

/// A RIFF/WAVE file with at least a header's worth of bytes.
fn is_wav(bytes: &[u8]) -> bool {
    bytes.len() > 44 && bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WAVE".as_slice())
}

#[cfg(test)]
mod tests {
    use super::is_wav;

    #[test]
    fn only_wav_is_audio() {
        let mut wav = b"RIFF\x24\x00\x00\x00WAVEfmt ".to_vec();
        wav.resize(100, 0);
        assert!(is_wav(&wav));
        assert!(!is_wav(b"not json!"));
        assert!(!is_wav(b"RIFF\x24\x00\x00\x00WAVE"));
        assert!(!is_wav(b""));
    }
}
