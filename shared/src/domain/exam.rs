//! Reading and listening exams: who may open which test, and grading.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::content::Test;
use super::scoring::Paper;
use super::subscription::Subscription;

/// The test every signed-in user may take for free.
pub const FREE_TEST_ID: u32 = 1;

/// Time limits (spec §9).
pub fn time_limit_seconds(paper: Paper) -> u32 {
    match paper {
        Paper::Reading => 3600,
        Paper::Listening => 2400,
    }
}

/// Free users get test 1; subscribers get every test.
pub fn can_open(test_id: u32, subscription: &Subscription) -> bool {
    test_id == FREE_TEST_ID || subscription.is_active()
}

/// The four skills of the tracker, with the spec's CLB field names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Skill {
    Listening,
    Reading,
    Speaking,
    Writing,
}

impl Skill {
    pub const ALL: [Skill; 4] = [
        Self::Listening,
        Self::Reading,
        Self::Speaking,
        Self::Writing,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Listening => "listening",
            Self::Reading => "reading",
            Self::Speaking => "speaking",
            Self::Writing => "writing",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The spec's field for this skill's CLB on a result record.
    pub fn clb_field(self) -> &'static str {
        match self {
            Self::Listening => "compOralCLB",
            Self::Reading => "compEcriteCLB",
            Self::Speaking => "prodOraleCLB",
            Self::Writing => "prodEcriteCLB",
        }
    }
}

impl From<Paper> for Skill {
    fn from(p: Paper) -> Self {
        match p {
            Paper::Reading => Self::Reading,
            Paper::Listening => Self::Listening,
        }
    }
}

/// The spec's quiz id: category, 'Test', test id (`readingTest1`).
pub fn quiz_id(paper: Paper, test_id: u32) -> String {
    format!("{}Test{test_id}", Skill::from(paper).as_str())
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum AttemptError {
    #[error("The attempt must answer {expected} questions (null for none), not {got}.")]
    WrongCount { expected: usize, got: usize },
    #[error("Question {number} has no option {index}.")]
    NoSuchOption { number: u32, index: usize },
}

/// One graded question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradedQuestion {
    pub number: u32,
    pub chosen: Option<usize>,
    pub key: usize,
    pub correct: bool,
}

/// Grades an attempt: +1 per correct answer, 0 for a wrong or missing one.
pub fn grade(test: &Test, answers: &[Option<usize>]) -> Result<Vec<GradedQuestion>, AttemptError> {
    if answers.len() != test.questions.len() {
        return Err(AttemptError::WrongCount {
            expected: test.questions.len(),
            got: answers.len(),
        });
    }
    test.questions
        .iter()
        .zip(answers)
        .map(|(q, a)| {
            if let Some(i) = *a
                && i >= q.options.len()
            {
                return Err(AttemptError::NoSuchOption {
                    number: q.number,
                    index: i,
                });
            }
            Ok(GradedQuestion {
                number: q.number,
                chosen: *a,
                key: q.answer,
                correct: *a == Some(q.answer),
            })
        })
        .collect()
}

/// The time an attempt may claim: at most the limit, plus a minute for the network.
/// The version of a paper as learners see it: 16 hex digits of a SHA-256 of the whole paper
/// (documents, prompts, options, keys, explanations, scripts). Stored with each result, so a
/// review after the paper was revised can say so instead of marking answers against options
/// the learner never saw.
pub fn paper_version(test: &Test) -> String {
    use sha2::{Digest, Sha256};
    // A Test always serialises (plain data); an empty input would only make every version equal.
    let bytes = serde_json::to_vec(test).unwrap_or_default();
    super::hex::encode(&Sha256::digest(&bytes)[..8])
}

pub fn clamp_duration(paper: Paper, claimed: u32) -> u32 {
    claimed.min(time_limit_seconds(paper) + 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::content::Question;
    use time::macros::datetime;

    fn test_with(keys: &[usize]) -> Test {
        Test {
            format: 1,
            category: Paper::Reading,
            id: 1,
            title: "Reading Test 1".into(),
            documents: vec![],
            questions: keys
                .iter()
                .enumerate()
                .map(|(i, k)| Question {
                    number: u32::try_from(i + 1).unwrap(),
                    part: "everyday-documents".into(),
                    level: 4,
                    document: None,
                    audio: None,
                    image: None,
                    prompt: "?".into(),
                    options: vec!["a".into(), "b".into(), "c".into(), "d".into()],
                    answer: *k,
                    explanation: "x".into(),
                })
                .collect(),
        }
    }

    #[test]
    fn free_users_open_test_1_only_and_subscribers_all() {
        let now = datetime!(2026-11-22 12:00 UTC);
        let free = Subscription::evaluate(None, None, now);
        let expired =
            Subscription::evaluate(Some("monthly"), Some(datetime!(2026-11-01 0:00 UTC)), now);
        let active =
            Subscription::evaluate(Some("monthly"), Some(datetime!(2026-12-01 0:00 UTC)), now);
        assert!(can_open(1, &free));
        assert!(!can_open(2, &free));
        assert!(!can_open(10, &expired));
        assert!(can_open(10, &active));
    }

    #[test]
    fn a_paper_keeps_its_version_until_anything_in_it_changes() {
        let t = test_with(&[0, 1, 2, 3]);
        let v = paper_version(&t);
        assert_eq!(v.len(), 16);
        assert_eq!(paper_version(&t.clone()), v);
        let mut option = t.clone();
        option.questions[2].options[1] = "b, reworded".into();
        let mut key = t.clone();
        key.questions[0].answer = 3;
        let mut explanation = t;
        explanation.questions[3].explanation = "y".into();
        for changed in [option, key, explanation] {
            assert_ne!(paper_version(&changed), v);
        }
    }

    #[test]
    fn grading_counts_only_the_key() {
        let t = test_with(&[0, 1, 2, 3]);
        let g = grade(&t, &[Some(0), Some(2), None, Some(3)]).unwrap();
        let correct: Vec<bool> = g.iter().map(|q| q.correct).collect();
        assert_eq!(correct, [true, false, false, true]);
        assert_eq!(g[2].chosen, None);
        assert_eq!(g[1].key, 1);
    }

    #[test]
    fn malformed_attempts_are_refused() {
        let t = test_with(&[0, 1]);
        assert_eq!(
            grade(&t, &[Some(0)]),
            Err(AttemptError::WrongCount {
                expected: 2,
                got: 1
            })
        );
        assert_eq!(
            grade(&t, &[Some(0), Some(4)]),
            Err(AttemptError::NoSuchOption {
                number: 2,
                index: 4
            })
        );
    }

    #[test]
    fn quiz_ids_and_clb_fields_follow_the_spec() {
        assert_eq!(quiz_id(Paper::Reading, 1), "readingTest1");
        assert_eq!(quiz_id(Paper::Listening, 10), "listeningTest10");
        assert_eq!(Skill::Listening.clb_field(), "compOralCLB");
        assert_eq!(Skill::Reading.clb_field(), "compEcriteCLB");
        assert_eq!(Skill::parse("writing"), Some(Skill::Writing));
        assert_eq!(Skill::parse("maths"), None);
    }

    #[test]
    fn durations_are_capped() {
        assert_eq!(clamp_duration(Paper::Listening, 99_999), 2460);
        assert_eq!(clamp_duration(Paper::Reading, 1200), 1200);
    }
}
