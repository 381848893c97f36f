//! The writing results port: one record per correction (the spec's `writing_results`).

use async_trait::async_trait;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::domain::UserId;
use crate::domain::exam::Skill;
use crate::domain::scoring::TefScore;
use crate::domain::writing::Section;
use crate::ports::corrector::CorrectionItem;
use crate::ports::fields::{Fields, to_millis};
use crate::ports::results::ResultId;
use crate::ports::store::StoreError;

/// A corrected text, as stored, with the spec's field names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WritingResult {
    /// `writing.<µs>.<hex>`: sorts by time.
    pub id: ResultId,
    pub uid: UserId,
    pub email: Option<String>,
    pub section: Section,
    /// `writingTest1`.
    pub topic_id: String,
    pub topic_number: u32,
    /// The /450 score (`tef_score`).
    pub tef_score: u32,
    pub clb_level: u8,
    pub tef_new: TefScore,
    pub word_count: u32,
    pub original_text: String,
    pub corrected_text: String,
    pub corrections: Vec<CorrectionItem>,
    pub general_feedback: String,
    pub timestamp: OffsetDateTime,
}

impl WritingResult {
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id.as_str(),
            "uid": self.uid.as_str(),
            "email": self.email,
            "section": self.section.as_str(),
            "topicId": self.topic_id,
            "topicNumber": self.topic_number,
            "tef_score": self.tef_score,
            "clb_level": self.clb_level,
            "prodEcriteCLB": self.clb_level,
            "tefNew": self.tef_new,
            "wordCount": self.word_count,
            "original_text": self.original_text,
            "corrected_text": self.corrected_text,
            "corrections": self.corrections,
            "general_feedback": self.general_feedback,
            "timestamp": to_millis(self.timestamp),
        })
    }

    pub fn from_json(v: &Value) -> Result<Self, StoreError> {
        let f = Fields::new(v, "writing result");
        Ok(Self {
            id: ResultId::parse(f.str("id")?)
                .filter(|id| id.skill() == Some(Skill::Writing))
                .ok_or_else(|| f.bad("id"))?,
            uid: UserId::parse(f.str("uid")?).map_err(|_| f.bad("uid"))?,
            email: f.opt_str("email"),
            section: Section::parse(f.str("section")?).ok_or_else(|| f.bad("section"))?,
            topic_id: f.str("topicId")?.to_owned(),
            topic_number: f.u32("topicNumber")?,
            tef_score: f.u32("tef_score")?,
            clb_level: f.u8("clb_level")?,
            tef_new: f.parse("tefNew")?,
            word_count: f.u32("wordCount")?,
            original_text: f.str("original_text")?.to_owned(),
            corrected_text: f.str("corrected_text")?.to_owned(),
            corrections: f.parse("corrections")?,
            general_feedback: f.opt_str("general_feedback").unwrap_or_default(),
            timestamp: f.millis("timestamp")?,
        })
    }
}

#[async_trait]
pub trait WritingStore: Send + Sync {
    /// Stores a corrected text.
    async fn add_writing_result(&self, record: &WritingResult) -> Result<(), StoreError>;

    /// The user's latest corrected texts, newest first.
    async fn recent_writing_results(
        &self,
        uid: &UserId,
        limit: usize,
    ) -> Result<Vec<WritingResult>, StoreError>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn records_round_trip_with_the_specs_field_names() {
        let at = datetime!(2026-11-26 12:00:00.123 UTC);
        let r = WritingResult {
            id: ResultId::new(Skill::Writing, at),
            uid: UserId::parse("u1").unwrap(),
            email: Some("a@b.ca".into()),
            section: Section::B,
            topic_id: "writingTest3".into(),
            topic_number: 3,
            tef_score: 405,
            clb_level: 10,
            tef_new: TefScore::Score {
                value: 591,
                max: 699,
            },
            word_count: 201,
            original_text: "Les enfant jouent.".into(),
            corrected_text: "Les enfants jouent.".into(),
            corrections: vec![CorrectionItem {
                original_phrase: "Les enfant".into(),
                corrected_phrase: "Les enfants".into(),
                explanation: "Accord du nom au pluriel.".into(),
            }],
            general_feedback: String::new(),
            timestamp: at,
        };
        let v = r.to_json();
        for field in [
            "uid",
            "email",
            "section",
            "tef_score",
            "clb_level",
            "original_text",
            "corrected_text",
            "corrections",
            "general_feedback",
            "topicId",
            "timestamp",
        ] {
            assert!(v.get(field).is_some(), "{field}");
        }
        assert_eq!(v["corrections"][0]["original_phrase"], "Les enfant");
        assert_eq!(WritingResult::from_json(&v).unwrap(), r);
        let mut wrong = v.clone();
        wrong["id"] = json!(ResultId::new(Skill::Reading, at).as_str());
        assert!(WritingResult::from_json(&wrong).is_err());
    }
}
