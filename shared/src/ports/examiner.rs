//! The examiner port: the speaking role-play's other voice (the advertiser's employee in
//! Section A, the hesitant friend in Section B) and the performance report.
//!
//! Two implementations: `LocalExaminer` (offline: answers from the document's facts, raises
//! the friend's objections in turn, and measures the learner's turns for the report) and
//! `OpenAiExaminer` (an OpenAI-compatible chat API). Both run the same contract suite,
//! `shared/tests/examiner_contract.rs`.

use async_trait::async_trait;
use thiserror::Error;

use crate::domain::speaking::{ChatMessage, SpeakingTopic};
use crate::domain::writing::Section;

#[derive(Debug, Error)]
pub enum ExaminerError {
    #[error("the examiner timed out after {0} ms")]
    Timeout(u64),
    #[error("the examiner failed: {0}")]
    Unavailable(String),
    #[error("the examiner's answer is malformed: {0}")]
    Malformed(String),
}

#[async_trait]
pub trait Examiner: Send + Sync {
    /// The examiner's next reply. `conversation` holds the learner's (`user`) and the
    /// examiner's (`assistant`) turns only, already checked, ending with the learner's turn.
    /// The reply is short (rarely over 20 words), in the section's register (A: vous, B: tu),
    /// and in Section A grounded in the document.
    async fn reply(
        &self,
        topic: &SpeakingTopic,
        section: Section,
        conversation: &[ChatMessage],
    ) -> Result<String, ExaminerError>;

    /// The performance report, in French, ending with the three lines of
    /// `domain::speaking::level_lines` (CLB, TEF level, 'Score : N/450'), which the server
    /// parses and checks.
    async fn report(
        &self,
        topic: &SpeakingTopic,
        section: Section,
        conversation: &[ChatMessage],
    ) -> Result<String, ExaminerError>;
}
