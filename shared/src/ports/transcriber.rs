//! The transcription port: a recorded answer (WebM/Opus from the browser) → French text.
//!
//! Implementations: `WhisperTranscriber` (offline, faster-whisper in a warm worker) and
//! `OpenAiTranscriber` (an OpenAI-compatible transcription API).

use async_trait::async_trait;
use thiserror::Error;

/// The longest recording accepted (spec §9: recording stops at 60 s), with a margin.
pub const MAX_AUDIO_SECONDS: f64 = 65.0;
/// The largest upload accepted, in bytes of audio (WebM/Opus at up to 64 kbit/s for 65 s).
pub const MAX_AUDIO_BYTES: usize = 600 * 1024;

#[derive(Debug, Error)]
pub enum TranscribeError {
    /// No recogniser can run here (for example, the offline model is not installed yet).
    #[error("transcription is not available: {0}")]
    NotAvailable(String),
    /// The audio could not be decoded, or is longer than allowed.
    #[error("the audio is not usable: {0}")]
    BadAudio(String),
    #[error("the transcriber timed out after {0} ms")]
    Timeout(u64),
    #[error("the transcriber failed: {0}")]
    Unavailable(String),
}

#[async_trait]
pub trait Transcriber: Send + Sync {
    /// The words spoken in `audio` (a WebM file), trimmed; empty when nothing was said.
    async fn transcribe(&self, audio: &[u8]) -> Result<String, TranscribeError>;

    /// Prepares the recogniser (loads the model) so the first request is fast.
    async fn warm_up(&self) -> Result<(), TranscribeError> {
        Ok(())
    }
}
