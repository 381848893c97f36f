//! Writing (Expression écrite): the word ranges and their messages, the score, the
//! CLB with its description, and the rules that guard a correction: the rolling
//! hourly limit and the credits (spec §5, §6, §9; decisions §1, §2).

use thiserror::Error;
use time::{Duration, OffsetDateTime};

use super::scoring::{WritingEstimate, estimate_writing};
use super::user::{INITIAL_CREDITS, UserDoc};
use serde::{Deserialize, Serialize};

/// The two writing tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Section {
    /// Continue a news story: 70 to 120 words, several paragraphs, a positive ending.
    A,
    /// A letter to the newspaper: 180 to 220 words, at least three arguments.
    B,
}

impl Section {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::A => "A",
            Self::B => "B",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim() {
            "A" | "a" => Some(Self::A),
            "B" | "b" => Some(Self::B),
            _ => None,
        }
    }
}

/// Corrections allowed per rolling hour (spec §9), for every user.
pub const HOURLY_LIMIT: usize = 10;

/// The rolling window of the hourly limit.
pub const WINDOW: Duration = Duration::hours(1);

/// The largest text accepted, in bytes: far above 220 words, far below the API's body limit.
pub const MAX_TEXT_BYTES: usize = 4_000;

/// The writing countdown, for both sections together (spec §9).
pub const TIME_LIMIT_SECONDS: u32 = 3600;

/// Words are whitespace-separated (spec §5).
pub fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

/// The word range a section accepts (spec §5).
pub fn word_range(section: Section) -> (usize, usize) {
    match section {
        Section::A => (70, 120),
        Section::B => (180, 220),
    }
}

/// Why a text is not accepted for correction. The texts are the spec's.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TextError {
    #[error("Le texte ne peut pas être vide.")]
    Empty,
    #[error(
        "Section {section}: Votre texte doit contenir entre {min} et {max} mots. (Actuel: {actual})",
        section = .section.as_str()
    )]
    OutOfRange {
        section: Section,
        min: usize,
        max: usize,
        actual: usize,
    },
    #[error("Le texte est trop long.")]
    TooLarge,
}

/// Checks a text against its section's range; returns its word count.
pub fn check_text(section: Section, text: &str) -> Result<usize, TextError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(TextError::TooLarge);
    }
    let n = word_count(text);
    if n == 0 {
        return Err(TextError::Empty);
    }
    let (min, max) = word_range(section);
    if !(min..=max).contains(&n) {
        return Err(TextError::OutOfRange {
            section,
            min,
            max,
            actual: n,
        });
    }
    Ok(n)
}

/// The spec's score heuristic on the /450 scale (§9, kept by decisions §2): 450, minus 5
/// per correction, minus 50 under 80 words or else minus 20 under 200 words, within 0–450.
pub fn score(corrections: usize, words: usize) -> u32 {
    let length_penalty = if words < 80 {
        50
    } else if words < 200 {
        20
    } else {
        0
    };
    let penalty = corrections.saturating_mul(5).saturating_add(length_penalty);
    u32::try_from(450usize.saturating_sub(penalty)).unwrap_or(0)
}

/// The score, its CLB (IRCC writing table) and both scales.
pub fn estimate(corrections: usize, words: usize) -> WritingEstimate {
    estimate_writing(score(corrections, words))
}

/// What a CLB level means for writing, in French (shown with the result).
pub fn clb_description(clb: u8) -> &'static str {
    match clb {
        10.. => {
            "CLB 10 et plus : vous écrivez des textes longs et complexes avec aisance, dans une langue précise et nuancée, presque sans erreur."
        }
        9 => {
            "CLB 9 : vous rédigez des textes clairs et bien structurés sur des sujets variés ; vos rares erreurs ne gênent pas la lecture."
        }
        8 => {
            "CLB 8 : vous développez une argumentation claire avec des exemples ; quelques erreurs subsistent mais le sens reste toujours clair."
        }
        7 => {
            "CLB 7 : vous racontez et argumentez de façon organisée ; le vocabulaire est adapté, mais des erreurs de grammaire reviennent encore."
        }
        6 => {
            "CLB 6 : vous écrivez des textes suivis sur des sujets familiers ; les idées sont compréhensibles, mais la structure et la correction doivent progresser."
        }
        5 => {
            "CLB 5 : vous communiquez des informations simples en plusieurs phrases ; les erreurs sont fréquentes et gênent parfois la compréhension."
        }
        4 => {
            "CLB 4 : vous écrivez de courts textes simples sur des sujets quotidiens ; les phrases sont peu reliées et les erreurs nombreuses."
        }
        _ => {
            "CLB 3 ou moins : vous écrivez des phrases isolées et simples ; travaillez d'abord les bases de la grammaire et du vocabulaire."
        }
    }
}

/// Why a correction may not start (spec §8's texts).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Refusal {
    #[error("You have reached the limit of 10 corrections per hour. Please try again later.")]
    HourlyLimit,
    #[error(
        "You have used all your free AI analysis credits. Subscribe for unlimited corrections."
    )]
    NoCredits,
}

/// What a started correction took: the hourly slot at `at` and, for a free user, a credit.
/// Handing it to [`release`] gives both back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reservation {
    pub at: OffsetDateTime,
    pub credit_taken: bool,
}

/// Starts a correction at `now`, in the spec's order: the hourly limit (timestamps older
/// than an hour are dropped), then the credit (subscribers use none; a user with no stored
/// credit has 3, so the first use stores 2). Returns the new document and what was taken.
pub fn reserve(
    doc: Option<UserDoc>,
    now: OffsetDateTime,
) -> Result<(UserDoc, Reservation), Refusal> {
    let mut doc = doc.unwrap_or_default();
    let at = now.replace_nanosecond(0).unwrap_or(now);
    doc.writing_correction_timestamps
        .retain(|t| *t > at - WINDOW && *t <= at + WINDOW);
    if doc.writing_correction_timestamps.len() >= HOURLY_LIMIT {
        return Err(Refusal::HourlyLimit);
    }
    let subscribed = doc.subscription(now).is_active();
    let credit_taken = !subscribed;
    if credit_taken {
        let left = doc.ai_credits.unwrap_or(INITIAL_CREDITS);
        if left <= 0 {
            return Err(Refusal::NoCredits);
        }
        doc.ai_credits = Some(left - 1);
    }
    doc.writing_correction_timestamps.push(at);
    Ok((doc, Reservation { at, credit_taken }))
}

/// Gives back what [`reserve`] took, after a failed correction: its hourly slot and its credit.
pub fn release(doc: Option<UserDoc>, reservation: Reservation) -> UserDoc {
    let mut doc = doc.unwrap_or_default();
    if let Some(i) = doc
        .writing_correction_timestamps
        .iter()
        .position(|t| *t == reservation.at)
    {
        doc.writing_correction_timestamps.remove(i);
    }
    if reservation.credit_taken {
        doc.ai_credits = Some(doc.ai_credits.unwrap_or(INITIAL_CREDITS - 1) + 1);
    }
    doc
}

/// The credits a non-subscriber has left, for the screen; `None` for a subscriber.
pub fn credits_left(doc: &UserDoc, now: OffsetDateTime) -> Option<i64> {
    (!doc.subscription(now).is_active()).then(|| doc.ai_credits_shown())
}

/// A writing topic (spec §3), as stored in `content/writing/writingTestN.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WritingTopic {
    /// `writingTest1` … `writingTest10`.
    pub id: String,
    /// The readable id of the selection screen and the address (`luckyFind`).
    pub slug: String,
    pub title: String,
    pub section_a: TopicA,
    pub section_b: TopicB,
}

/// Section A: finish a news story.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicA {
    pub id: String,
    pub narrative_start: String,
    pub prompt: String,
}

/// Section B: a letter to the newspaper about a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicB {
    pub id: String,
    pub statement: String,
    pub prompt: String,
}

/// Topics, and the one free users may open (spec §6).
pub const TOPICS: u32 = 10;
pub const FREE_TOPIC: u32 = 1;

impl WritingTopic {
    /// The topic's number: 7 for `writingTest7`.
    pub fn number(&self) -> Option<u32> {
        topic_number(&self.id)
    }

    /// The task and its document, for the corrector.
    pub fn task(&self, section: Section) -> (&str, &str) {
        match section {
            Section::A => (&self.section_a.prompt, &self.section_a.narrative_start),
            Section::B => (&self.section_b.prompt, &self.section_b.statement),
        }
    }
}

/// `writingTest7` → 7, for 1 to 10 only.
pub fn topic_number(id: &str) -> Option<u32> {
    let n = id.strip_prefix("writingTest")?;
    if n.starts_with('0') {
        return None;
    }
    n.parse().ok().filter(|n| (1..=TOPICS).contains(n))
}

/// Free users open topic 1; subscribers open all.
pub fn can_open(number: u32, subscription: &super::Subscription) -> bool {
    number == FREE_TOPIC || subscription.is_active()
}

/// Every rule of `content/FORMAT.md` for a writing topic; `file_stem` is its file name
/// without `.json`. Returns one line per problem.
pub fn validate_topic(topic: &WritingTopic, file_stem: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut fail = |m: String| problems.push(format!("{file_stem}: {m}"));
    if topic.id != file_stem {
        fail(format!("id {} differs from the file name", topic.id));
    }
    if topic_number(&topic.id).is_none() {
        fail(format!(
            "id {} is not writingTest1 … writingTest10",
            topic.id
        ));
    }
    let camel = topic.slug.len() >= 3
        && topic.slug.starts_with(|c: char| c.is_ascii_lowercase())
        && topic.slug.chars().all(|c| c.is_ascii_alphanumeric());
    if !camel {
        fail(format!("slug {:?} is not camelCase ASCII", topic.slug));
    }
    if topic.title.trim().is_empty() || word_count(&topic.title) > 8 {
        fail("the title must have 1 to 8 words".into());
    }
    if topic.section_a.id != format!("{}A", topic.slug) {
        fail(format!("sectionA.id must be {}A", topic.slug));
    }
    if topic.section_b.id != format!("{}B", topic.slug) {
        fail(format!("sectionB.id must be {}B", topic.slug));
    }
    let story = word_count(&topic.section_a.narrative_start);
    if !(45..=90).contains(&story) {
        fail(format!("narrativeStart has {story} words, not 45 to 90"));
    }
    let a = topic.section_a.prompt.to_lowercase();
    if !a.contains("80 mots") {
        fail("sectionA.prompt must ask for at least 80 words".into());
    }
    if !a.contains("paragraphe") {
        fail("sectionA.prompt must ask for several paragraphs".into());
    }
    if !(a.contains("positi") || a.contains("heureu")) {
        fail("sectionA.prompt must ask for a positive ending".into());
    }
    let b = topic.section_b.prompt.to_lowercase();
    if !b.contains("200 mots") {
        fail("sectionB.prompt must ask for about 200 words".into());
    }
    if !(b.contains("trois arguments") || b.contains("3 arguments")) {
        fail("sectionB.prompt must ask for at least three arguments".into());
    }
    if !b.contains("lettre") {
        fail("sectionB.prompt must ask for a letter".into());
    }
    let st = topic.section_b.statement.trim();
    if !(st.starts_with('«') && st.contains('»')) {
        fail("sectionB.statement must be quoted in « »".into());
    }
    if !(8..=80).contains(&word_count(st)) {
        fail("sectionB.statement must have 8 to 80 words".into());
    }
    problems
}

/// Rules across topics: ids 1 to 10 once each, slugs unique.
pub fn validate_topics(topics: &[WritingTopic]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut numbers: Vec<u32> = topics.iter().filter_map(WritingTopic::number).collect();
    numbers.sort_unstable();
    if numbers != (1..=TOPICS).collect::<Vec<_>>() {
        problems.push(format!(
            "writing topics must be writingTest1 … writingTest10 once each, found {numbers:?}"
        ));
    }
    let mut slugs: Vec<&str> = topics.iter().map(|t| t.slug.as_str()).collect();
    slugs.sort_unstable();
    for w in slugs.windows(2) {
        if w[0] == w[1] {
            problems.push(format!("slug {} is used twice", w[0]));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::scoring::TefScore;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-26 12:00:00.75 UTC);

    fn words(n: usize) -> String {
        vec!["mot"; n].join(" ")
    }

    #[test]
    fn words_are_whitespace_separated() {
        assert_eq!(word_count(""), 0);
        assert_eq!(word_count("   \n\t "), 0);
        assert_eq!(word_count("Bonjour"), 1);
        // French puts a space before '!': the spec's rule counts it as a word, as the screen does.
        assert_eq!(
            word_count("  Il fait beau.\n\nJ'ai vu  l'arc-en-ciel !  "),
            7
        );
        assert_eq!(
            word_count("un\u{a0}deux"),
            2,
            "a no-break space separates words too"
        );
    }

    #[test]
    fn each_section_accepts_its_range_with_the_specs_messages() {
        assert_eq!(check_text(Section::A, &words(70)), Ok(70));
        assert_eq!(check_text(Section::A, &words(120)), Ok(120));
        assert_eq!(check_text(Section::B, &words(180)), Ok(180));
        assert_eq!(check_text(Section::B, &words(220)), Ok(220));
        assert_eq!(
            check_text(Section::A, &words(69)).unwrap_err().to_string(),
            "Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 69)"
        );
        assert_eq!(
            check_text(Section::A, &words(121)).unwrap_err().to_string(),
            "Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 121)"
        );
        assert_eq!(
            check_text(Section::B, &words(179)).unwrap_err().to_string(),
            "Section B: Votre texte doit contenir entre 180 et 220 mots. (Actuel: 179)"
        );
        assert_eq!(
            check_text(Section::B, &words(221)).unwrap_err().to_string(),
            "Section B: Votre texte doit contenir entre 180 et 220 mots. (Actuel: 221)"
        );
        assert_eq!(
            check_text(Section::A, "  \n ").unwrap_err().to_string(),
            "Le texte ne peut pas être vide."
        );
    }

    #[test]
    fn a_huge_text_is_refused_before_counting() {
        let padded = format!("{}{}", words(100), " ".repeat(MAX_TEXT_BYTES));
        assert_eq!(check_text(Section::A, &padded), Err(TextError::TooLarge));
        let long_word = format!("{} {}", words(99), "x".repeat(MAX_TEXT_BYTES));
        assert_eq!(check_text(Section::A, &long_word), Err(TextError::TooLarge));
    }

    #[test]
    fn the_score_follows_the_specs_heuristic() {
        assert_eq!(score(0, 250), 450);
        assert_eq!(score(0, 200), 450);
        assert_eq!(score(0, 199), 430);
        assert_eq!(score(0, 80), 430);
        assert_eq!(score(0, 79), 400);
        assert_eq!(score(3, 100), 450 - 15 - 20);
        assert_eq!(score(8, 210), 410);
        assert_eq!(score(90, 70), 0, "clamped at 0");
        assert_eq!(score(usize::MAX, 0), 0);
    }

    #[test]
    fn the_clb_comes_from_the_ircc_writing_table() {
        assert_eq!(estimate(0, 210).clb, 10); // 450
        assert_eq!(estimate(11, 210).clb, 10); // 395
        assert_eq!(estimate(12, 210).clb, 9); // 390
        assert_eq!(estimate(4, 100).clb, 10); // 410
        assert_eq!(estimate(12, 100).clb, 8); // 370
        assert_eq!(estimate(20, 100).clb, 7); // 330
        let low = estimate(60, 100); // 130
        assert_eq!(low.clb, 3);
        assert!(matches!(low.tef_old, TefScore::Below { below: 181, .. }));
        for clb in 0..=12 {
            assert!(!clb_description(clb).is_empty());
        }
        assert!(clb_description(9).starts_with("CLB 9"));
        assert!(clb_description(2).starts_with("CLB 3 ou moins"));
    }

    fn free(credits: Option<i64>) -> UserDoc {
        UserDoc {
            accepted_privacy_policy: true,
            ai_credits: credits,
            ..UserDoc::default()
        }
    }

    fn subscriber() -> UserDoc {
        UserDoc {
            subscription_type: Some("monthly".into()),
            subscription_end_date: Some(NOW + Duration::days(10)),
            ai_credits: Some(0),
            ..free(Some(0))
        }
    }

    #[test]
    fn a_free_user_spends_one_credit_per_correction_and_none_is_stored_reads_as_three() {
        let (doc, r) = reserve(Some(free(None)), NOW).unwrap();
        assert_eq!(
            doc.ai_credits,
            Some(2),
            "first use of an unset credit stores 2"
        );
        assert!(r.credit_taken);
        assert_eq!(
            r.at,
            datetime!(2026-11-26 12:00 UTC),
            "stored to the second"
        );
        let (doc, _) = reserve(Some(doc), NOW).unwrap();
        let (doc, _) = reserve(Some(doc), NOW).unwrap();
        assert_eq!(doc.ai_credits, Some(0));
        assert_eq!(reserve(Some(doc), NOW), Err(Refusal::NoCredits));
        assert_eq!(reserve(Some(free(Some(-4))), NOW), Err(Refusal::NoCredits));
        let (doc, _) = reserve(None, NOW).unwrap();
        assert_eq!(
            doc.ai_credits,
            Some(2),
            "no document: 3 shown, 2 left after one"
        );
    }

    #[test]
    fn subscribers_spend_no_credit() {
        let (doc, r) = reserve(Some(subscriber()), NOW).unwrap();
        assert_eq!(doc.ai_credits, Some(0));
        assert!(!r.credit_taken);
        assert_eq!(credits_left(&doc, NOW), None);
        assert_eq!(credits_left(&free(None), NOW), Some(3));
        let lapsed = UserDoc {
            subscription_end_date: Some(NOW - Duration::seconds(1)),
            ..subscriber()
        };
        assert_eq!(reserve(Some(lapsed), NOW), Err(Refusal::NoCredits));
    }

    #[test]
    fn ten_corrections_in_a_rolling_hour_then_refused_for_everyone() {
        let mut doc = subscriber();
        for i in 0..10 {
            (doc, _) = reserve(Some(doc), NOW + Duration::minutes(i)).unwrap();
        }
        let at = NOW + Duration::minutes(10);
        assert_eq!(reserve(Some(doc.clone()), at), Err(Refusal::HourlyLimit));
        // Only slots newer than an hour count: the first (12:00:00) still counts at
        // 12:59:59 and no longer at 13:00:00.
        assert_eq!(
            reserve(Some(doc.clone()), datetime!(2026-11-26 12:59:59.9 UTC)),
            Err(Refusal::HourlyLimit)
        );
        let (later, _) = reserve(Some(doc), datetime!(2026-11-26 13:00:00 UTC)).unwrap();
        assert_eq!(
            later.writing_correction_timestamps.len(),
            10,
            "stale slots are dropped"
        );
    }

    #[test]
    fn the_hourly_limit_is_checked_before_the_credit() {
        let doc = UserDoc {
            writing_correction_timestamps: vec![NOW; 10],
            ..free(Some(0))
        };
        assert_eq!(reserve(Some(doc), NOW), Err(Refusal::HourlyLimit));
    }

    #[test]
    fn release_gives_back_the_slot_and_the_credit() {
        let before = free(Some(3));
        let (taken, r) = reserve(Some(before.clone()), NOW).unwrap();
        let back = release(Some(taken), r);
        assert_eq!(back, before);

        let (taken, r) = reserve(Some(subscriber()), NOW).unwrap();
        assert_eq!(release(Some(taken), r), subscriber());

        let (taken, r) = reserve(Some(free(None)), NOW).unwrap();
        assert_eq!(release(Some(taken), r).ai_credits, Some(3));
    }

    #[test]
    fn release_takes_back_one_slot_when_two_share_a_second() {
        let (doc, r1) = reserve(Some(free(Some(3))), NOW).unwrap();
        let (doc, _r2) = reserve(Some(doc), NOW).unwrap();
        let doc = release(Some(doc), r1);
        assert_eq!(doc.writing_correction_timestamps.len(), 1);
        assert_eq!(doc.ai_credits, Some(2));
    }

    fn topic() -> WritingTopic {
        WritingTopic {
            id: "writingTest1".into(),
            slug: "luckyFind".into(),
            title: "Une trouvaille inattendue".into(),
            section_a: TopicA {
                id: "luckyFindA".into(),
                narrative_start: words(60),
                prompt: "Terminez cet article en ajoutant un texte d'au moins 80 mots. Votre texte doit comporter plusieurs paragraphes et se terminer de façon positive.".into(),
            },
            section_b: TopicB {
                id: "luckyFindB".into(),
                statement: "« Les voitures devraient être interdites au centre-ville des grandes villes. »".into(),
                prompt: "Rédigez une lettre d'environ 200 mots au journal dans laquelle vous développez au moins trois arguments.".into(),
            },
        }
    }

    #[test]
    fn a_well_formed_topic_passes_and_each_rule_bites() {
        assert_eq!(
            validate_topic(&topic(), "writingTest1"),
            Vec::<String>::new()
        );
        assert_eq!(topic().number(), Some(1));
        type Breaker = Box<dyn Fn(&mut WritingTopic)>;
        let cases: Vec<(&str, Breaker)> = vec![
            (
                "differs from the file name",
                Box::new(|t| t.id = "writingTest2".into()),
            ),
            (
                "not writingTest1",
                Box::new(|t| t.id = "writingTest11".into()),
            ),
            ("camelCase", Box::new(|t| t.slug = "Lucky-find".into())),
            ("sectionA.id", Box::new(|t| t.section_a.id = "x".into())),
            ("sectionB.id", Box::new(|t| t.section_b.id = "x".into())),
            (
                "narrativeStart has 44",
                Box::new(|t| t.section_a.narrative_start = words(44)),
            ),
            (
                "narrativeStart has 91",
                Box::new(|t| t.section_a.narrative_start = words(91)),
            ),
            (
                "80 words",
                Box::new(|t| {
                    t.section_a.prompt =
                        "Terminez l'article en plusieurs paragraphes, fin positive.".into()
                }),
            ),
            (
                "paragraphs",
                Box::new(|t| t.section_a.prompt = "Au moins 80 mots, fin positive.".into()),
            ),
            (
                "positive ending",
                Box::new(|t| t.section_a.prompt = "Au moins 80 mots, en paragraphes.".into()),
            ),
            (
                "200 words",
                Box::new(|t| t.section_b.prompt = "Une lettre avec trois arguments.".into()),
            ),
            (
                "three arguments",
                Box::new(|t| t.section_b.prompt = "Une lettre de 200 mots.".into()),
            ),
            (
                "a letter",
                Box::new(|t| t.section_b.prompt = "Un texte de 200 mots, trois arguments.".into()),
            ),
            (
                "quoted",
                Box::new(|t| {
                    t.section_b.statement =
                        "Les voitures devraient être interdites au centre-ville.".into()
                }),
            ),
        ];
        for (needle, break_it) in cases {
            let mut t = topic();
            break_it(&mut t);
            let problems = validate_topic(&t, "writingTest1").join("\n");
            assert!(problems.contains(needle), "{needle}: {problems}");
        }
    }

    #[test]
    fn topic_numbers_and_the_set_of_topics() {
        assert_eq!(topic_number("writingTest10"), Some(10));
        for bad in [
            "writingTest0",
            "writingTest11",
            "writingTest01",
            "writing1",
            "",
        ] {
            assert_eq!(topic_number(bad), None, "{bad}");
        }
        let all: Vec<WritingTopic> = (1..=10)
            .map(|n| WritingTopic {
                id: format!("writingTest{n}"),
                slug: format!("topic{n}"),
                ..topic()
            })
            .collect();
        assert!(validate_topics(&all).is_empty());
        let mut dup = all.clone();
        dup[3].slug = "topic1".into();
        assert!(
            validate_topics(&dup)
                .join("")
                .contains("topic1 is used twice")
        );
        assert!(validate_topics(&all[..9]).join("").contains("once each"));
    }
}
