//! The speaking results port: one record per finished session (the spec's `speaking_results`),
//! written in one transaction with the user's document, so a session's credit is taken once
//! however often its report is asked for.

use async_trait::async_trait;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::domain::exam::Skill;
use crate::domain::scoring::TefScore;
use crate::domain::speaking::{self, ChatMessage, SpeakingRefusal};
use crate::domain::writing::Section;
use crate::domain::{UserDoc, UserId};
use crate::ports::fields::{Fields, to_millis};
use crate::ports::results::ResultId;
use crate::ports::store::{MAX_UPDATE_ATTEMPTS, StoreError, UserStore, backoff};

/// A finished speaking session, as stored, with the spec's field names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpeakingResult {
    /// `speaking.<µs>.<hex>`: sorts by time.
    pub id: ResultId,
    pub uid: UserId,
    pub email: Option<String>,
    /// The browser's id for the session: a session is recorded (and charged) once.
    pub session_id: String,
    pub topic_id: String,
    pub topic_number: u32,
    pub section: Section,
    pub conversation: Vec<ChatMessage>,
    /// The report text.
    pub feedback: String,
    pub clb_level: u8,
    pub tef_level: String,
    /// The /450 score read from the report.
    pub score: u32,
    pub tef_new: TefScore,
    pub timestamp: OffsetDateTime,
}

impl SpeakingResult {
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id.as_str(),
            "uid": self.uid.as_str(),
            "email": self.email,
            "sessionId": self.session_id,
            "topicId": self.topic_id,
            "topicNumber": self.topic_number,
            "section": self.section.as_str(),
            "conversation": self.conversation,
            "feedback": self.feedback,
            "clb_level": self.clb_level,
            "prodOraleCLB": self.clb_level,
            "tef_level": self.tef_level,
            "score": self.score,
            "tefNew": self.tef_new,
            "timestamp": to_millis(self.timestamp),
        })
    }

    pub fn from_json(v: &Value) -> Result<Self, StoreError> {
        let f = Fields::new(v, "speaking result");
        Ok(Self {
            id: ResultId::parse(f.str("id")?)
                .filter(|id| id.skill() == Some(Skill::Speaking))
                .ok_or_else(|| f.bad("id"))?,
            uid: UserId::parse(f.str("uid")?).map_err(|_| f.bad("uid"))?,
            email: f.opt_str("email"),
            session_id: f.str("sessionId")?.to_owned(),
            topic_id: f.str("topicId")?.to_owned(),
            topic_number: f.u32("topicNumber")?,
            section: Section::parse(f.str("section")?).ok_or_else(|| f.bad("section"))?,
            conversation: f.parse("conversation")?,
            feedback: f.str("feedback")?.to_owned(),
            clb_level: f.u8("clb_level")?,
            tef_level: f.str("tef_level")?.to_owned(),
            score: f.u32("score")?,
            tef_new: f.parse("tefNew")?,
            timestamp: f.millis("timestamp")?,
        })
    }
}

/// What `record_session` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionWrite {
    /// The record and the user's document are stored; the document's new version.
    Written(u64),
    /// This user already recorded this session id: nothing was written.
    AlreadyRecorded,
}

#[async_trait]
pub trait SpeakingStore: Send + Sync {
    /// Stores a finished session and the user's new document in one transaction: only if
    /// the user has no record for `record.session_id` yet, and only if the document is still
    /// at `expected` (else [`StoreError::Conflict`], nothing written).
    async fn record_session(
        &self,
        record: &SpeakingResult,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<SessionWrite, StoreError>;

    /// The user's record of a session, if any.
    async fn get_session(
        &self,
        uid: &UserId,
        session_id: &str,
    ) -> Result<Option<SpeakingResult>, StoreError>;

    /// The user's latest sessions, newest first.
    async fn recent_speaking_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<SpeakingResult>, StoreError>;
}

/// How finishing a session went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// Recorded now; `credits_left` is `None` for a subscriber.
    Recorded { credits_left: Option<i64> },
    /// The session was already recorded (a retry): the first record stands, no credit taken.
    AlreadyRecorded(Box<SpeakingResult>),
    /// A free user without a speaking credit: nothing recorded.
    NoCredits,
}

/// The one path that finishes a session: takes the session's credit (subscribers none) and
/// stores the record, atomically and once per session id, retrying on concurrent writes.
pub async fn complete_session(
    users: &dyn UserStore,
    store: &dyn SpeakingStore,
    record: &SpeakingResult,
    now: OffsetDateTime,
) -> Result<Completion, StoreError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        if attempt > MAX_UPDATE_ATTEMPTS {
            return Err(StoreError::Conflict);
        }
        if let Some(first) = store.get_session(&record.uid, &record.session_id).await? {
            return Ok(Completion::AlreadyRecorded(Box::new(first)));
        }
        let current = users.get_user(&record.uid).await?;
        let expected = current.as_ref().map(|v| v.version);
        let next = match speaking::take_credit(current.map(|v| v.value), now) {
            Ok((next, _)) => next,
            Err(SpeakingRefusal::NoCredits) => return Ok(Completion::NoCredits),
        };
        match store.record_session(record, &next, expected).await {
            Ok(SessionWrite::Written(_)) => {
                let credits_left =
                    (!next.subscription(now).is_active()).then(|| next.speaking_credits_shown());
                return Ok(Completion::Recorded { credits_left });
            }
            Ok(SessionWrite::AlreadyRecorded) => continue,
            Err(StoreError::Conflict) if attempt < MAX_UPDATE_ATTEMPTS => {
                backoff(attempt).await;
            }
            Err(e) => return Err(e),
        }
    }
}
