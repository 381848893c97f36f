//! The exam catalogue: every paper in `content/`, embedded at build time
//! (see `build.rs`), parsed once at start and typeset for display
//! (`typography::typeset`: no-break spaces; audio scripts stay as written).

use std::collections::BTreeMap;

use thiserror::Error;

use crate::domain::content::{Cast, Test};
use crate::domain::scoring::Paper;
use crate::domain::speaking::SpeakingTopic;
use crate::domain::typography::{french_spacing, typeset};
use crate::domain::writing::WritingTopic;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/content_files.rs"));
}

/// Test slots per paper: tests 1 to 10.
pub const TESTS_PER_PAPER: u32 = 10;

#[derive(Debug, Error)]
pub enum ContentError {
    #[error("content file {file} is not valid: {detail}")]
    Invalid { file: String, detail: String },
    #[error("content/voices.json is missing")]
    NoCast,
}

#[derive(Debug)]
pub struct Catalogue {
    tests: BTreeMap<(PaperKey, u32), Test>,
    /// Writing topics by number (1 for `writingTest1`).
    writing: BTreeMap<u32, WritingTopic>,
    /// Speaking scenarios by number (1 for `serviceCoursLangue`).
    speaking: BTreeMap<u32, SpeakingTopic>,
    pub cast: Cast,
}

/// `Paper` ordered, for the map key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum PaperKey {
    Reading,
    Listening,
}

impl From<Paper> for PaperKey {
    fn from(p: Paper) -> Self {
        match p {
            Paper::Reading => Self::Reading,
            Paper::Listening => Self::Listening,
        }
    }
}

impl Catalogue {
    /// The content embedded in this binary.
    pub fn embedded() -> Result<Self, ContentError> {
        Self::from_files(embedded::FILES)
    }

    /// Parses content files given as (path under content/, text).
    pub fn from_files(files: &[(&str, &str)]) -> Result<Self, ContentError> {
        let invalid = |file: &str, e: serde_json::Error| ContentError::Invalid {
            file: file.to_owned(),
            detail: e.to_string(),
        };
        let mut cast = None;
        let mut tests = BTreeMap::new();
        let mut writing = BTreeMap::new();
        let mut speaking = BTreeMap::new();
        for (name, text) in files {
            if *name == "voices.json" {
                cast = Some(serde_json::from_str::<Cast>(text).map_err(|e| invalid(name, e))?);
            } else if name.starts_with("reading/") || name.starts_with("listening/") {
                let mut test: Test = serde_json::from_str(text).map_err(|e| invalid(name, e))?;
                typeset(&mut test);
                tests.insert((PaperKey::from(test.category), test.id), test);
            } else if name.starts_with("writing/") {
                let mut topic: WritingTopic =
                    serde_json::from_str(text).map_err(|e| invalid(name, e))?;
                let number = topic.number().ok_or_else(|| ContentError::Invalid {
                    file: (*name).to_owned(),
                    detail: format!("{} is not writingTest1 … writingTest10", topic.id),
                })?;
                typeset_topic(&mut topic);
                writing.insert(number, topic);
            } else if name.starts_with("speaking/") {
                let mut topic: SpeakingTopic =
                    serde_json::from_str(text).map_err(|e| invalid(name, e))?;
                typeset_scenario(&mut topic);
                speaking.insert(topic.number, topic);
            }
        }
        Ok(Self {
            tests,
            writing,
            speaking,
            cast: cast.ok_or(ContentError::NoCast)?,
        })
    }

    pub fn test(&self, paper: Paper, id: u32) -> Option<&Test> {
        self.tests.get(&(PaperKey::from(paper), id))
    }

    /// The writing topics, in order.
    pub fn writing_topics(&self) -> impl Iterator<Item = (u32, &WritingTopic)> {
        self.writing.iter().map(|(n, t)| (*n, t))
    }

    /// A writing topic by its slug (`luckyFind`), id (`writingTest1`) or number (`1`).
    pub fn writing_topic(&self, key: &str) -> Option<(u32, &WritingTopic)> {
        let key = key.trim();
        let number = crate::domain::writing::topic_number(key).or_else(|| {
            key.parse::<u32>()
                .ok()
                .filter(|_| !key.starts_with(['0', '+']))
        });
        match number {
            Some(n) => self.writing.get(&n).map(|t| (n, t)),
            None => self.writing_topics().find(|(_, t)| t.slug == key),
        }
    }

    /// The speaking scenarios, in order.
    pub fn speaking_topics(&self) -> impl Iterator<Item = &SpeakingTopic> {
        self.speaking.values()
    }

    /// A speaking scenario by its id (`serviceCoursLangue`) or number (`1`).
    pub fn speaking_topic(&self, key: &str) -> Option<&SpeakingTopic> {
        let key = key.trim();
        match key.parse::<u32>() {
            Ok(n) if !key.starts_with(['0', '+']) => self.speaking.get(&n),
            _ => self.speaking.values().find(|t| t.id == key),
        }
    }

    pub fn tests(&self, paper: Paper) -> impl Iterator<Item = &Test> {
        let key = PaperKey::from(paper);
        self.tests
            .iter()
            .filter(move |((p, _), _)| *p == key)
            .map(|(_, t)| t)
    }
}

/// What the learner reads gets French no-break spaces; ids and slugs stay as written.
fn typeset_topic(t: &mut WritingTopic) {
    for text in [
        &mut t.title,
        &mut t.section_a.narrative_start,
        &mut t.section_a.prompt,
        &mut t.section_b.statement,
        &mut t.section_b.prompt,
    ] {
        *text = french_spacing(text);
    }
}

/// What the learner reads gets French no-break spaces (the examiner's spoken lines too, as
/// they are shown in the chat); keywords stay as written.
fn typeset_scenario(t: &mut SpeakingTopic) {
    let a = &mut t.section_a;
    let b = &mut t.section_b;
    let mut texts: Vec<&mut String> = vec![
        &mut t.title,
        &mut a.banner_title,
        &mut a.document_content,
        &mut a.unknown_answer,
        &mut b.banner_title,
        &mut b.document_content,
        &mut b.give_in,
    ];
    texts.extend(a.suggested_questions.iter_mut());
    texts.extend(a.facts.iter_mut().map(|f| &mut f.answer));
    texts.extend(b.scenario_flow.iter_mut().map(|m| &mut m.content));
    for o in &mut b.objections {
        texts.push(&mut o.objection);
        texts.push(&mut o.concession);
    }
    for text in texts {
        *text = french_spacing(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_content_parses() {
        let c = Catalogue::embedded().unwrap();
        assert!(c.cast.voices.contains_key("narrateur"));
        assert_eq!(c.writing_topics().count(), 10);
        let (n, t) = c.writing_topic("luckyFind").unwrap();
        assert_eq!((n, t.id.as_str()), (1, "writingTest1"));
        assert_eq!(c.writing_topic("writingTest1").map(|x| x.0), Some(1));
        assert_eq!(c.writing_topic("1").map(|x| x.0), Some(1));
        for missing in [
            "",
            "01",
            "+1",
            "11",
            "writingTest11",
            "nothing",
            "LUCKYFIND",
        ] {
            assert!(c.writing_topic(missing).is_none(), "{missing}");
        }
    }

    #[test]
    fn a_broken_file_is_named() {
        let err = Catalogue::from_files(&[("voices.json", "{}")]).unwrap_err();
        assert!(err.to_string().contains("voices.json"), "{err}");
        let err = Catalogue::from_files(&[]).unwrap_err();
        assert!(matches!(err, ContentError::NoCast));
    }
}
