//! Validates every paper in `content/` with the rules of decisions §4.

use std::path::{Path, PathBuf};

use shared::domain::content::{
    self, Cast, REVISED, Test, generic_prompts, key_patterns, key_stats, near_repeats, repeats,
    revision, validate, validate_revised,
};

/// `content/`, or the folder `CONTENT_DIR` names (to run the rules on another
/// version of the bank, e.g. one exported with `git archive`).
fn content_dir() -> PathBuf {
    std::env::var_os("CONTENT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../content"))
}

/// Every paper: its path, the paper and its revision (`content::revision`).
fn load_all() -> Vec<(PathBuf, Test, u32)> {
    let mut tests = Vec::new();
    for category in ["reading", "listening"] {
        let dir = content_dir().join(category);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for path in paths
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
        {
            let text = std::fs::read_to_string(&path).unwrap();
            let test: Test =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let rev = revision(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            tests.push((path, test, rev));
        }
    }
    tests
}

#[test]
fn every_paper_passes_the_validator() {
    let cast: Cast =
        serde_json::from_str(&std::fs::read_to_string(content_dir().join("voices.json")).unwrap())
            .unwrap();
    let media = content_dir().join("media");
    let tests = load_all();
    let mut errors = Vec::new();
    for (path, test, rev) in &tests {
        let expected = format!("test-{:02}.json", test.id);
        if !path.ends_with(&expected) {
            errors.push(format!("{} should be named {expected}", path.display()));
        }
        if !path
            .parent()
            .is_some_and(|p| p.ends_with(format!("{:?}", test.category).to_lowercase()))
        {
            errors.push(format!("{} is in the wrong folder", path.display()));
        }
        errors.extend(validate(test, &cast, &|key| media.join(key).is_file()));
        // Every paper follows the rules of issue 14 (FORMAT.md, "Rules for revision-2
        // papers"); run with CONTENT_DIR on an export of the bank before it, they refuse it.
        if *rev < REVISED {
            errors.push(format!(
                "{}: revision {rev}: every paper is revised to the revision-{REVISED} rules",
                path.display()
            ));
        }
        errors.extend(validate_revised(test));
    }
    let every: Vec<&Test> = tests.iter().map(|(_, t, _)| t).collect();
    errors.extend(generic_prompts(&every));
    let all: Vec<Test> = tests.into_iter().map(|(_, t, _)| t).collect();
    errors.extend(repeats(&all));
    errors.extend(near_repeats(&all));
    // The whole bank's keys, paper after paper, carry no learnable order either.
    let keys: Vec<usize> = all
        .iter()
        .flat_map(|t| t.questions.iter().map(|q| q.answer))
        .collect();
    errors.extend(
        key_patterns(&keys)
            .into_iter()
            .map(|e| format!("the bank: {e}")),
    );
    assert!(
        errors.is_empty(),
        "{} problems:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn ten_complete_papers_of_each_skill() {
    let tests = load_all();
    for category in ["reading", "listening"] {
        let mut ids: Vec<u32> = tests
            .iter()
            .filter(|(_, t, _)| format!("{:?}", t.category).eq_ignore_ascii_case(category))
            .map(|(_, t, _)| {
                // Complete: 40 questions, each with four options and a key
                // (every other rule is the validator's, above).
                assert_eq!(t.questions.len(), 40, "{category} test {}", t.id);
                assert!(
                    t.questions
                        .iter()
                        .all(|q| q.options.len() == 4 && q.key().is_some()),
                    "{category} test {}",
                    t.id
                );
                t.id
            })
            .collect();
        ids.sort_unstable();
        assert_eq!(ids, (1..=10).collect::<Vec<_>>(), "{category} papers");
    }
}

/// Across the bank, the keys of numeric items (options in ascending order) are not mostly middle
/// values, nor mostly extremes (`numeric_key_position_pattern`).
#[test]
fn numeric_keys_are_not_learnable_by_position() {
    let tests = load_all();
    let mut positions = Vec::new();
    let mut where_ = Vec::new();
    for (_, t, _) in &tests {
        for q in &t.questions {
            if content::numeric_options(&q.options).is_some() {
                positions.push(q.answer);
                where_.push(format!(
                    "{:?} {} Q{}: {}",
                    t.category,
                    t.id,
                    q.number,
                    char::from(b'A' + q.answer as u8)
                ));
            }
        }
    }
    let shares: Vec<usize> = (0..4)
        .map(|l| positions.iter().filter(|&&p| p == l).count())
        .collect();
    eprintln!("numeric items: {} (A/B/C/D {shares:?})", positions.len());
    if let Some(pattern) = content::numeric_key_position_pattern(&positions) {
        panic!("{pattern}: A/B/C/D {shares:?}\n{}", where_.join("\n"));
    }
}

/// In each skill, the key is not learnable by its length: it is the longest, second, third or
/// shortest option about a quarter of the time each (`key_length_pattern`; numeric items and
/// items whose options have equal lengths aside).
#[test]
fn keys_are_not_learnable_by_length() {
    let tests = load_all();
    let mut failures = Vec::new();
    for category in ["Reading", "Listening"] {
        let mut ranks = Vec::new();
        for (_, t, _) in tests
            .iter()
            .filter(|(_, t, _)| format!("{:?}", t.category) == category)
        {
            for q in &t.questions {
                if content::numeric_options(&q.options).is_some() {
                    continue;
                }
                if let Some(rank) = content::key_length_rank(&q.options, q.answer) {
                    ranks.push(rank);
                }
            }
        }
        let counts: Vec<usize> = (0..4)
            .map(|r| ranks.iter().filter(|&&x| x == r).count())
            .collect();
        eprintln!("{category}: key length ranks (longest … shortest) {counts:?}");
        if let Some(pattern) = content::key_length_pattern(&ranks) {
            failures.push(format!("{category}: {pattern}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The key statistics of every paper (run with `--nocapture` to see them;
/// recorded in `content/REVIEW.md`).
#[test]
fn key_statistics() {
    let tests = load_all();
    let mut all = Vec::new();
    let mut permutations = 0;
    for (_, t, _) in &tests {
        let keys: Vec<usize> = t.questions.iter().map(|q| q.answer).collect();
        let s = key_stats(&keys);
        let letters: String = keys.iter().map(|&k| char::from(b'A' + k as u8)).collect();
        let shares: Vec<usize> = (0..4)
            .map(|l| keys.iter().filter(|&&k| k == l).count())
            .collect();
        eprintln!(
            "{:?} {:2}: {letters}  ABCD blocks {:2}/{}  runs {:2}  A-B-A {:2}  A/B/C/D {:?}  {}",
            t.category,
            t.id,
            s.permutation_blocks,
            s.blocks,
            s.runs,
            s.alternations,
            shares,
            if key_patterns(&keys).is_empty() {
                "passes"
            } else {
                "refused"
            }
        );
        permutations += s.permutation_blocks;
        all.extend(keys);
    }
    let s = key_stats(&all);
    eprintln!(
        "bank: ABCD blocks {permutations}/{}  runs {} in {} keys  A-B-A {}  {}",
        s.blocks,
        s.runs,
        all.len(),
        s.alternations,
        if key_patterns(&all).is_empty() {
            "passes"
        } else {
            "refused"
        }
    );
}

/// Every writing topic passes `validate_topic`, and the ten form one set (FORMAT.md, "Writing topics").
#[test]
fn every_writing_topic_passes_the_validator() {
    use shared::domain::writing::{WritingTopic, validate_topic, validate_topics};
    let dir = content_dir().join("writing");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut errors = Vec::new();
    let mut topics = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let topic: WritingTopic =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        errors.extend(validate_topic(&topic, &stem));
        topics.push(topic);
    }
    errors.extend(validate_topics(&topics));
    assert_eq!(topics[0].slug, "luckyFind", "topic 1 is the spec's example");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Every speaking scenario passes `validate_scenario`, and the ten are the spec's, in order.
#[test]
fn every_speaking_scenario_passes_the_validator() {
    use shared::domain::speaking::{SpeakingTopic, TOPIC_IDS, validate_scenario};
    let dir = content_dir().join("speaking");
    let mut errors = Vec::new();
    let mut ids = Vec::new();
    for id in TOPIC_IDS {
        let path = dir.join(format!("{id}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let topic: SpeakingTopic =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        errors.extend(validate_scenario(&topic, id));
        ids.push(topic.id);
    }
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, 10, "exactly the ten scenarios in {}", dir.display());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
