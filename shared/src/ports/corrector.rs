//! The correction port: a French text in, a list of corrections out (spec §3's
//! correction items, the corrected text and general feedback).
//!
//! Two implementations: `GrammalecteCorrector` (offline, the embedded default) and
//! `OpenAiCorrector` (any OpenAI-compatible server). Both are run by the same
//! contract suite, `shared/tests/corrector_contract.rs`.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use crate::domain::writing::Section;

/// What is to be corrected, with the task it answers (the prompt and the document).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorrectionRequest {
    pub section: Section,
    /// The learner's text, as typed (paragraphs separated by blank lines or line breaks).
    pub text: String,
    /// The task's instructions, for context.
    pub prompt: String,
    /// The news story's opening (A) or the statement to discuss (B).
    pub document: String,
}

/// One correction: the phrase as written, the phrase corrected, and why (in French).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CorrectionItem {
    pub original_phrase: String,
    pub corrected_phrase: String,
    pub explanation: String,
}

/// A corrector's answer. Every `original_phrase` occurs in the learner's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    pub corrected_text: String,
    pub corrections: Vec<CorrectionItem>,
    pub general_feedback: String,
}

#[derive(Debug, Error)]
pub enum CorrectorError {
    /// The corrector did not answer in time.
    #[error("the corrector timed out after {0} ms")]
    Timeout(u64),
    /// The corrector could not be reached or failed (after any retries).
    #[error("the corrector failed: {0}")]
    Unavailable(String),
    /// The corrector answered something that is not a valid correction.
    #[error("the corrector's answer is malformed: {0}")]
    Malformed(String),
}

#[async_trait]
pub trait Corrector: Send + Sync {
    /// Corrects one text. Never changes any stored state.
    async fn correct(&self, request: &CorrectionRequest) -> Result<Correction, CorrectorError>;

    /// Prepares the corrector so the first correction is fast (a no-op for remote APIs).
    async fn warm_up(&self) -> Result<(), CorrectorError> {
        Ok(())
    }
}
