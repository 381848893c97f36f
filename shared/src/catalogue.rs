//! The exam catalogue: every paper in `content/`, embedded at build time
//! (see `build.rs`), parsed once at start and typeset for display
//! (`typography::typeset`: no-break spaces; audio scripts stay as written).

use std::collections::BTreeMap;

use thiserror::Error;

use crate::domain::content::{Cast, Test};
use crate::domain::scoring::Paper;
use crate::domain::typography::typeset;

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
        for (name, text) in files {
            if *name == "voices.json" {
                cast = Some(serde_json::from_str::<Cast>(text).map_err(|e| invalid(name, e))?);
            } else if name.starts_with("reading/") || name.starts_with("listening/") {
                let mut test: Test = serde_json::from_str(text).map_err(|e| invalid(name, e))?;
                typeset(&mut test);
                tests.insert((PaperKey::from(test.category), test.id), test);
            }
        }
        Ok(Self {
            tests,
            cast: cast.ok_or(ContentError::NoCast)?,
        })
    }

    pub fn test(&self, paper: Paper, id: u32) -> Option<&Test> {
        self.tests.get(&(PaperKey::from(paper), id))
    }

    pub fn tests(&self, paper: Paper) -> impl Iterator<Item = &Test> {
        let key = PaperKey::from(paper);
        self.tests
            .iter()
            .filter(move |((p, _), _)| *p == key)
            .map(|(_, t)| t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_content_parses() {
        let c = Catalogue::embedded().unwrap();
        assert!(c.cast.voices.contains_key("narrateur"));
    }

    #[test]
    fn a_broken_file_is_named() {
        let err = Catalogue::from_files(&[("voices.json", "{}")]).unwrap_err();
        assert!(err.to_string().contains("voices.json"), "{err}");
        let err = Catalogue::from_files(&[]).unwrap_err();
        assert!(matches!(err, ContentError::NoCast));
    }
}
