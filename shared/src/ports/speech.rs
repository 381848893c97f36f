//! The speech port: text to speech, one turn of a listening script at a time.
//! The offline default is espeak-ng; production uses a neural voice (OpenAI).

use async_trait::async_trait;
use bytes::Bytes;
use thiserror::Error;

use crate::domain::content::Voice;

#[derive(Debug, Error)]
pub enum SpeechError {
    #[error("the synthesiser is not available: {0}")]
    Unavailable(String),
    #[error("synthesis failed: {0}")]
    Failed(String),
}

#[async_trait]
pub trait SpeechSynth: Send + Sync {
    /// Names the engine and model. It is part of every audio file's cache key,
    /// so changing engines renders everything again, and nothing else does.
    fn engine_id(&self) -> &str;

    /// Speaks `text` with `voice`, as a WAV file (PCM, mono).
    async fn synthesize(&self, text: &str, voice: &Voice) -> Result<Bytes, SpeechError>;
}
