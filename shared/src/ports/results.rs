//! The results port: one record per finished attempt (the spec's `results`).

use async_trait::async_trait;
use rand::RngCore;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::domain::UserId;
use crate::domain::exam::Skill;
use crate::domain::scoring::TefScore;
use crate::ports::fields::{Fields, to_millis};
use crate::ports::store::StoreError;

/// A result's id: `<skill>.<microseconds, 16 digits>.<16 hex>`. Sorting ids
/// sorts a skill's results by time, which the stores use for "latest first".
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResultId(String);

impl ResultId {
    pub fn new(skill: Skill, at: OffsetDateTime) -> Self {
        let mut r = [0u8; 8];
        rand::thread_rng().fill_bytes(&mut r);
        let hex: String = r.iter().map(|b| format!("{b:02x}")).collect();
        let us = (at.unix_timestamp_nanos() / 1_000).clamp(0, 9_999_999_999_999_999);
        Self(format!("{}.{us:016}.{hex}", skill.as_str()))
    }

    /// Accepts only ids of the shape `new` makes; anything else is not a result.
    pub fn parse(raw: &str) -> Option<Self> {
        let mut parts = raw.split('.');
        let (Some(skill), Some(ms), Some(hex), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return None;
        };
        let ok = Skill::parse(skill).is_some()
            && ms.len() == 16
            && ms.bytes().all(|b| b.is_ascii_digit())
            && hex.len() == 16
            && hex
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
        ok.then(|| Self(raw.to_owned()))
    }

    pub fn skill(&self) -> Option<Skill> {
        self.0.split('.').next().and_then(Skill::parse)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A finished reading or listening attempt, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultRecord {
    pub id: ResultId,
    pub uid: UserId,
    pub email: Option<String>,
    pub skill: Skill,
    pub quiz_id: String,
    pub test_id: u32,
    pub score: u32,
    pub total: u32,
    pub clb: u8,
    pub tef_old: TefScore,
    pub tef_new: TefScore,
    pub duration_seconds: u32,
    pub answers: Vec<Option<usize>>,
    pub timestamp: OffsetDateTime,
    /// The browser's id for the attempt, so a resent submission is not stored twice.
    pub attempt_id: Option<String>,
    /// The paper's version when it was taken (`exam::paper_version`); `None` for results
    /// stored before versions were kept.
    pub paper_version: Option<String>,
}

impl ResultRecord {
    /// What makes a submission the same attempt: the skill, the test and the browser's attempt id.
    /// The stores claim this key atomically with the result, so an attempt is stored once.
    pub fn attempt_key(&self) -> Option<String> {
        self.attempt_id
            .as_ref()
            .map(|a| format!("{}.{}.{a}", self.skill.as_str(), self.test_id))
    }

    /// The stored document, with the spec's field names (`quizId`, `totalQuestions`, `compEcriteCLB`…).
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "id": self.id.as_str(),
            "uid": self.uid.as_str(),
            "email": self.email,
            "skill": self.skill.as_str(),
            "quizId": self.quiz_id,
            "testId": self.test_id,
            "score": self.score,
            "totalQuestions": self.total,
            "timestamp": to_millis(self.timestamp),
            "tefOld": self.tef_old,
            "tefNew": self.tef_new,
            "durationSeconds": self.duration_seconds,
            "answers": self.answers,
        });
        v[self.skill.clb_field()] = json!(self.clb);
        if let Some(a) = &self.attempt_id {
            v["attemptId"] = json!(a);
        }
        if let Some(p) = &self.paper_version {
            v["paperVersion"] = json!(p);
        }
        v
    }

    pub fn from_json(v: &Value) -> Result<Self, StoreError> {
        let f = Fields::new(v, "result record");
        let skill = Skill::parse(f.str("skill")?).ok_or_else(|| f.bad("skill"))?;
        // CLB values may be numbers or numeric strings (spec §3).
        let clb = match v.get(skill.clb_field()) {
            Some(Value::Number(x)) => x.as_u64(),
            Some(Value::String(x)) => x.trim().parse().ok(),
            _ => None,
        }
        .and_then(|c| u8::try_from(c).ok())
        .ok_or_else(|| f.bad(skill.clb_field()))?;
        Ok(Self {
            id: ResultId::parse(f.str("id")?).ok_or_else(|| f.bad("id"))?,
            uid: UserId::parse(f.str("uid")?).map_err(|_| f.bad("uid"))?,
            email: f.opt_str("email"),
            skill,
            quiz_id: f.str("quizId")?.to_owned(),
            test_id: f.u32("testId")?,
            score: f.u32("score")?,
            total: f.u32("totalQuestions")?,
            clb,
            tef_old: f.parse("tefOld")?,
            tef_new: f.parse("tefNew")?,
            duration_seconds: f.u32("durationSeconds")?,
            answers: f.parse("answers")?,
            timestamp: f.millis("timestamp")?,
            attempt_id: f.opt_str("attemptId"),
            paper_version: f.opt_str("paperVersion"),
        })
    }
}

/// What `add_result` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// The record is stored.
    Stored,
    /// The user already has a result for this attempt (same attempt key): that one stands,
    /// and nothing was written.
    AlreadyStored(ResultId),
}

#[async_trait]
pub trait ResultStore: Send + Sync {
    /// Stores a result. A record with an attempt key is stored only if the user has no
    /// result for that attempt yet; the check and the write are one atomic step, so two
    /// identical submissions at the same moment store one result.
    async fn add_result(&self, record: &ResultRecord) -> Result<Added, StoreError>;

    /// One of the user's results; `None` if it is not theirs or does not exist.
    async fn get_result(
        &self,
        uid: &UserId,
        id: &ResultId,
    ) -> Result<Option<ResultRecord>, StoreError>;

    /// The user's latest results for a skill, newest first.
    async fn recent_results(
        &self,
        uid: &UserId,
        skill: Skill,
        limit: usize,
    ) -> Result<Vec<ResultRecord>, StoreError>;

    /// Counts the user's first attempt at a paper in that paper's score distribution and
    /// returns the first attempt's score. Later attempts change nothing and return the
    /// first score. The record of the first attempt and the count are one atomic write.
    async fn count_first_attempt(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
        score: u32,
    ) -> Result<u32, StoreError>;

    /// The score of the user's first attempt at a paper, if there was one.
    async fn first_attempt_score(
        &self,
        uid: &UserId,
        skill: Skill,
        test_id: u32,
    ) -> Result<Option<u32>, StoreError>;

    /// How many learners' first attempts at a paper scored each count, 0 to 40 (41 entries).
    async fn score_distribution(&self, skill: Skill, test_id: u32) -> Result<Vec<u64>, StoreError>;
}

/// The key of a paper in the score statistics: `reading.3`.
pub fn paper_key(skill: Skill, test_id: u32) -> String {
    format!("{}.{test_id}", skill.as_str())
}

/// Entries of a score distribution: 0 to 40 correct answers.
pub const DISTRIBUTION_LEN: usize = 41;

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn ids_sort_by_time_and_parse_back() {
        let a = ResultId::new(Skill::Reading, datetime!(2026-11-22 12:00 UTC));
        let b = ResultId::new(Skill::Reading, datetime!(2026-11-22 12:00:01 UTC));
        assert!(a < b);
        assert_eq!(ResultId::parse(a.as_str()), Some(a.clone()));
        assert_eq!(a.skill(), Some(Skill::Reading));
        for bad in [
            "",
            "reading",
            "reading.1.2",
            "maths.1795348800000000.0123456789abcdef",
            "reading.1795348800000000.0123456789ABCDEF",
            "reading.1795348800000000.0123456789abcdef.x",
            "reading.1795348800000.0123456789abcdef",
            "../etc/passwd",
        ] {
            assert_eq!(ResultId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn records_round_trip_with_the_specs_field_names() {
        let r = ResultRecord {
            id: ResultId::new(Skill::Listening, datetime!(2026-11-22 12:00 UTC)),
            uid: UserId::parse("u1").unwrap(),
            email: Some("a@b.ca".into()),
            skill: Skill::Listening,
            quiz_id: "listeningTest1".into(),
            test_id: 1,
            score: 31,
            total: 40,
            clb: 7,
            tef_old: TefScore::Score {
                value: 264,
                max: 360,
            },
            tef_new: TefScore::Score {
                value: 448,
                max: 699,
            },
            duration_seconds: 2000,
            answers: vec![Some(0), None],
            timestamp: datetime!(2026-11-22 12:00:00.123 UTC),
            attempt_id: Some("listening-1-1795348800000".into()),
            paper_version: Some("0123456789abcdef".into()),
        };
        let v = r.to_json();
        assert_eq!(v["compOralCLB"], 7);
        assert_eq!(v["quizId"], "listeningTest1");
        assert_eq!(v["totalQuestions"], 40);
        assert_eq!(v["paperVersion"], "0123456789abcdef");
        assert_eq!(ResultRecord::from_json(&v).unwrap(), r);
        let mut s = v.clone();
        s["compOralCLB"] = json!("7");
        assert_eq!(
            ResultRecord::from_json(&s).unwrap().clb,
            7,
            "numeric strings are read"
        );
    }
}
