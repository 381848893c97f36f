//! What can be measured in a speaking role-play, and the report written from it.
//!
//! The offline examiner (`adapters::LocalExaminer`) uses the same functions to understand the
//! learner's turns: which facts of the Section A document a question is about (normalised,
//! stemmed keywords weighted by rarity), whether a Section B turn answers the friend's current
//! objection, and the friend's moves replayed from the learner's turns. The report measures
//! turns, questions and their variety, the facts obtained, the register (vous / tu), turn
//! length, vocabulary, connectors, the corrector's errors (when one ran) and, in Section B,
//! the objections answered; it scores them on the /450 scale with [`score`] and never claims
//! what it did not measure.

use std::collections::BTreeSet;

use super::speaking::{Fact, Objection, SpeakingB, SpeakingTopic, level_lines};
use super::writing::Section;

// ───────────────────────────── normalisation ─────────────────────────────

/// Lowercase, accents stripped, typographic apostrophes and no-break spaces made plain.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'à' | 'â' | 'ä' | 'á' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'î' | 'ï' | 'í' => out.push('i'),
            'ô' | 'ö' | 'ó' => out.push('o'),
            'ù' | 'û' | 'ü' | 'ú' => out.push('u'),
            'ç' => out.push('c'),
            'ÿ' => out.push('y'),
            'œ' => out.push_str("oe"),
            'æ' => out.push_str("ae"),
            '’' | '‘' | '`' | 'ʼ' => out.push('\''),
            '\u{a0}' | '\u{202f}' | '\u{2009}' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Folded words: runs of letters and digits; `$` and `%` are words of their own.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in fold(text).chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if c == '$' || c == '%' {
                out.push(c.to_string());
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A light French stemmer for matching: drops one plural or feminine ending (-ees, -es, -ee,
/// -s, -x, -e), then a verb ending (-er, -ez, -ent), keeping at least three letters (four
/// before a verb ending). `coûte`, `coûtent` and `coût` all give `cout`.
pub fn stem(word: &str) -> String {
    let mut w: String = word.to_owned();
    let len = w.chars().count();
    if len <= 3 || !w.chars().all(|c| c.is_alphabetic()) {
        return w;
    }
    for suffix in ["ees", "es", "ee", "s", "x", "e"] {
        if w.ends_with(suffix) && len - suffix.len() >= 3 {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    for suffix in ["ent", "er", "ez"] {
        if w.ends_with(suffix) && w.chars().count() - suffix.len() >= 4 {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    w
}

/// The stems of a text's words.
pub fn stems(text: &str) -> Vec<String> {
    tokens(text).iter().map(|t| stem(t)).collect()
}

/// Words counted as the spec counts them: whitespace-separated, with a letter or digit.
pub fn word_count(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// One keyword's stem matches a word's stem: equal, or a prefix of it when five letters or more
/// (`inspect` matches `inspection`).
fn stem_matches(keyword: &str, word: &str) -> bool {
    keyword == word || (keyword.len() >= 5 && word.starts_with(keyword))
}

/// Whether a keyword (one word or a phrase, already stemmed) occurs in a stemmed text.
fn phrase_in(phrase: &[String], text: &[String]) -> bool {
    if phrase.is_empty() || phrase.len() > text.len() {
        return false;
    }
    text.windows(phrase.len())
        .any(|w| w.iter().zip(phrase).all(|(t, k)| stem_matches(k, t)))
}

fn has_phrase(text: &[String], phrase: &str) -> bool {
    phrase_in(&stems(phrase), text)
}

// ───────────────────────────── Section A: facts ─────────────────────────────

/// The facts' keywords stemmed, each with its weight: rarer keywords (found in fewer facts)
/// weigh more, phrases more than single words.
struct FactIndex {
    facts: Vec<Vec<(Vec<String>, f64)>>,
}

impl FactIndex {
    fn new(facts: &[Fact]) -> Self {
        let stemmed: Vec<Vec<Vec<String>>> = facts
            .iter()
            .map(|f| {
                let mut seen: Vec<Vec<String>> = Vec::new();
                for k in &f.keywords {
                    let s = stems(k);
                    if !s.is_empty() && !seen.contains(&s) {
                        seen.push(s);
                    }
                }
                seen
            })
            .collect();
        let n = facts.len().max(1) as f64;
        let index = stemmed
            .iter()
            .map(|keywords| {
                keywords
                    .iter()
                    .map(|k| {
                        let df = stemmed.iter().filter(|other| other.contains(k)).count();
                        let idf = (1.0 + n / df.max(1) as f64).ln();
                        let phrase = 1.0 + 0.5 * (k.len() as f64 - 1.0);
                        (k.clone(), idf * phrase)
                    })
                    .collect()
            })
            .collect();
        Self { facts: index }
    }

    /// The best fact for a segment: (fact, score, keywords matched), or none.
    fn best(&self, segment: &[String]) -> Option<(usize, f64, usize)> {
        let mut best: Option<(usize, f64, usize, usize)> = None;
        for (i, keywords) in self.facts.iter().enumerate() {
            let mut score = 0.0;
            let mut matched = 0;
            let mut first = usize::MAX;
            for (pos, (k, w)) in keywords.iter().enumerate() {
                if phrase_in(k, segment) {
                    score += w;
                    matched += 1;
                    first = first.min(pos);
                }
            }
            if matched == 0 {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, s, _, f)) => score > s + 1e-9 || ((score - s).abs() <= 1e-9 && first < f),
            };
            if better {
                best = Some((i, score, matched, first));
            }
        }
        best.map(|(i, s, m, _)| (i, s, m))
    }
}

/// Words that make a segment a request even without a question mark.
const REQUEST_MARKERS: &[&str] = &[
    "savoir",
    "connaitre",
    "renseignement",
    "renseignements",
    "information",
    "informations",
    "dire",
    "voudrais",
    "aimerais",
    "pouvez",
    "pourriez",
    "possible",
    "quel",
    "quelle",
    "quels",
    "quelles",
    "combien",
    "quand",
    "comment",
    "pourquoi",
    "qui",
    "est",
];

/// Splits a turn into its questions: at sentence ends and at « et ».
fn segments(turn: &str) -> Vec<(Vec<String>, bool)> {
    let mut out = Vec::new();
    for sentence in turn.split_inclusive(['?', '.', '!', ';', '\n']) {
        let asked = sentence.contains('?');
        let words = tokens(sentence);
        for part in words.split(|w| w == "et" || w == "aussi") {
            if part.is_empty() {
                continue;
            }
            let request = asked || part.iter().any(|w| REQUEST_MARKERS.contains(&w.as_str()));
            out.push((part.iter().map(|w| stem(w)).collect(), request));
        }
    }
    out
}

/// The facts a learner's turn asks about, in the order asked, at most `max`. A statement of
/// four words or more that is not a request needs two keywords of a fact (« je vous appelle
/// pour le cours du soir » does not ask for the timetable).
pub fn facts_asked(facts: &[Fact], turn: &str, max: usize) -> Vec<usize> {
    let index = FactIndex::new(facts);
    let mut found = Vec::new();
    for (segment, request) in segments(turn) {
        let Some((fact, _, matched)) = index.best(&segment) else {
            continue;
        };
        if !request && segment.len() >= 4 && matched < 2 {
            continue;
        }
        if !found.contains(&fact) {
            found.push(fact);
        }
        if found.len() == max {
            break;
        }
    }
    found
}

// ───────────────────────────── turn kinds ─────────────────────────────

const GREETINGS: &[&str] = &["bonjour", "bonsoir", "allo", "salut", "coucou", "hello"];
/// Words a greeting-only turn may hold besides the greeting.
const SMALL_TALK: &[&str] = &[
    "ca", "va", "comment", "vas", "allez", "tu", "vous", "bien", "toi", "et", "oui", "madame",
    "monsieur", "hey", "bonne", "journee", "soiree",
];
const GOODBYES: &[&str] = &[
    "au revoir",
    "bonne journee",
    "bonne soiree",
    "bonne fin de journee",
    "a bientot",
    "a la prochaine",
];

fn folded_words(text: &str) -> Vec<String> {
    tokens(text)
}

/// The turn greets (bonjour, allô, salut…).
pub fn greets(turn: &str) -> bool {
    folded_words(turn)
        .iter()
        .any(|w| GREETINGS.contains(&w.as_str()))
}

/// The turn only greets: a greeting and at most one other word (a name) besides small talk.
pub fn greeting_only(turn: &str) -> bool {
    let words = folded_words(turn);
    greets(turn)
        && words
            .iter()
            .filter(|w| !GREETINGS.contains(&w.as_str()) && !SMALL_TALK.contains(&w.as_str()))
            .count()
            <= 1
}

pub fn thanks(turn: &str) -> bool {
    folded_words(turn).iter().any(|w| w == "merci")
}

pub fn says_goodbye(turn: &str) -> bool {
    let s = stems(turn);
    GOODBYES.iter().any(|g| has_phrase(&s, g))
}

/// Lowercase words with accents kept, split on anything but letters, digits, `'` and `-`.
fn raw_words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(['’', 'ʼ'], "'")
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// How many « tu » forms a text holds: tu, toi, te, ton, ta, tes, t'…, -tu, -toi.
pub fn tu_forms(text: &str) -> usize {
    raw_words(text)
        .iter()
        .flat_map(|w| {
            w.split('-')
                .map(str::to_owned)
                .collect::<Vec<_>>()
                .into_iter()
        })
        .filter(|p| {
            matches!(p.as_str(), "tu" | "toi" | "te" | "ton" | "ta" | "tes")
                || (p.starts_with("t'") && p.chars().count() > 2)
        })
        .count()
}

/// How many « vous » forms a text holds: vous, votre, vos, -vous (not « rendez-vous »).
pub fn vous_forms(text: &str) -> usize {
    raw_words(text)
        .iter()
        .filter(|w| !w.starts_with("rendez-vous"))
        .flat_map(|w| {
            w.split('-')
                .map(str::to_owned)
                .collect::<Vec<_>>()
                .into_iter()
        })
        .filter(|p| matches!(p.as_str(), "vous" | "votre" | "vos" | "vôtre"))
        .count()
}

// ───────────────────────────── questions ─────────────────────────────

/// The form of a question (Section A's variety).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum QuestionType {
    AQuelleHeure,
    Quel,
    Combien,
    Ou,
    Quand,
    Comment,
    Pourquoi,
    Qui,
    QuEstCeQue,
    Indirecte,
    EstCeQue,
    Inversion,
    Intonation,
}

impl QuestionType {
    /// How the report names it.
    pub fn label(self) -> &'static str {
        match self {
            Self::AQuelleHeure => "« À quelle heure… »",
            Self::Quel => "« Quel / Quelle… »",
            Self::Combien => "« Combien… »",
            Self::Ou => "« Où… »",
            Self::Quand => "« Quand… »",
            Self::Comment => "« Comment… »",
            Self::Pourquoi => "« Pourquoi… »",
            Self::Qui => "« Qui… »",
            Self::QuEstCeQue => "« Qu'est-ce que… »",
            Self::Indirecte => "la question indirecte (« Pourriez-vous me dire… »)",
            Self::EstCeQue => "« Est-ce que… »",
            Self::Inversion => "l'inversion (« Offrez-vous… ? »)",
            Self::Intonation => "l'intonation seule (« C'est loin ? »)",
        }
    }
}

/// A sentence's question form, or `None` when it is not a question (no question mark, no
/// question word, no indirect question).
pub fn question_type(sentence: &str) -> Option<QuestionType> {
    let raw = raw_words(sentence);
    let folded = stems(sentence);
    let asked = sentence.contains('?');
    let has = |p: &str| has_phrase(&folded, p);
    let wh = if has("a quelle heure") {
        Some(QuestionType::AQuelleHeure)
    } else if has("qu'est-ce que") || has("qu'est-ce qu") {
        Some(QuestionType::QuEstCeQue)
    } else if folded
        .iter()
        .any(|w| matches!(w.as_str(), "quel" | "quelle" | "quell"))
    {
        Some(QuestionType::Quel)
    } else if has("combien") {
        Some(QuestionType::Combien)
    } else if raw.iter().any(|w| w == "où") {
        Some(QuestionType::Ou)
    } else if has("quand") {
        Some(QuestionType::Quand)
    } else if has("comment") {
        Some(QuestionType::Comment)
    } else if has("pourquoi") {
        Some(QuestionType::Pourquoi)
    } else if raw.first().is_some_and(|w| w == "qui") {
        Some(QuestionType::Qui)
    } else {
        None
    };
    let indirect = [
        "voudrais savoir",
        "aimerais savoir",
        "pourriez-vous me dire",
        "pouvez-vous me dire",
        "pourriez-vous m'indiquer",
        "pouvez-vous m'indiquer",
        "je me demandais",
        "voudrais connaitre",
        "aimerais connaitre",
    ]
    .iter()
    .any(|p| has(p));
    let inversion = raw.iter().any(|w| {
        let parts: Vec<&str> = w.split('-').collect();
        parts.len() >= 2
            && parts[1..]
                .iter()
                .any(|p| matches!(*p, "vous" | "il" | "elle" | "ils" | "elles" | "on" | "je"))
    });
    let found = if let Some(wh) = wh {
        Some(wh)
    } else if indirect {
        Some(QuestionType::Indirecte)
    } else if has("est-ce que") || has("est-ce qu") {
        Some(QuestionType::EstCeQue)
    } else if asked && inversion {
        Some(QuestionType::Inversion)
    } else if asked {
        Some(QuestionType::Intonation)
    } else {
        None
    };
    // A question word in a statement ("Je sais comment y aller.") is not a question: without a
    // question mark, only sentences that start with one, or ask indirectly, count.
    match found {
        Some(t) if asked || indirect || t == QuestionType::EstCeQue => Some(t),
        Some(t) if starts_with_question_word(&raw) => Some(t),
        _ => None,
    }
}

fn starts_with_question_word(raw: &[String]) -> bool {
    let skip = [
        "et", "alors", "bon", "bonjour", "oui", "d'accord", "ok", "merci", "aussi",
    ];
    raw.iter()
        .find(|w| !skip.contains(&w.as_str()))
        .is_some_and(|w| {
            let w = fold(w);
            matches!(
                w.as_str(),
                "quel"
                    | "quelle"
                    | "quels"
                    | "quelles"
                    | "combien"
                    | "ou"
                    | "quand"
                    | "comment"
                    | "pourquoi"
                    | "qui"
                    | "a"
                    | "est-ce"
                    | "qu'est-ce"
            )
        })
}

/// The questions of a turn (its sentences that are questions), with their forms.
pub fn questions(turn: &str) -> Vec<QuestionType> {
    turn.split_inclusive(['?', '.', '!', '\n'])
        .filter(|s| word_count(s) > 0)
        .filter_map(question_type)
        .collect()
}

// ───────────────────────────── Section B: objections ─────────────────────────────

/// Connectors that make a turn an argument (Section B), and that the report counts.
pub const CONNECTORS: &[&str] = &[
    "parce que",
    "parce qu'",
    "mais",
    "donc",
    "en plus",
    "de plus",
    "d'abord",
    "tout d'abord",
    "ensuite",
    "puis",
    "par contre",
    "pourtant",
    "cependant",
    "car",
    "alors",
    "puisque",
    "en fait",
    "d'ailleurs",
    "en effet",
    "par exemple",
    "c'est pourquoi",
    "même si",
    "sinon",
    "enfin",
    "finalement",
    "tu sais",
    "grâce à",
];

/// The connectors a text uses, in the list's order (« parce qu' » counts as « parce que »).
pub fn connectors_used(text: &str) -> Vec<&'static str> {
    let s = tokens(text);
    let mut out: Vec<&'static str> = Vec::new();
    for c in CONNECTORS {
        let canonical = if *c == "parce qu'" { "parce que" } else { c };
        if out.contains(&canonical) {
            continue;
        }
        let words = tokens(c);
        let found = if words.is_empty() {
            false
        } else {
            s.windows(words.len()).any(|w| w == words.as_slice())
        };
        if found {
            out.push(canonical);
        }
    }
    // "tout d'abord" and "d'abord" are one connector.
    if out.contains(&"tout d'abord") {
        out.retain(|c| *c != "d'abord");
    }
    out
}

/// A long enough argument: twelve words or more with a connector.
pub fn is_argument(turn: &str) -> bool {
    word_count(turn) >= 12 && !connectors_used(turn).is_empty()
}

/// Whether a turn answers an objection: one of its keywords, or an argument.
pub fn answers_objection(objection: &Objection, turn: &str) -> bool {
    let s = stems(turn);
    objection.keywords.iter().any(|k| phrase_in(&stems(k), &s)) || is_argument(turn)
}

/// What the hesitant friend does after each learner turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FriendMove {
    /// The opening line (the first of `scenario_flow`), after a greeting alone.
    Opening,
    /// Raises objection `0`-based `k` for the first time.
    Raise(usize),
    /// Insists on objection `k`, the `n`th time (1 or 2).
    Insist(usize, usize),
    /// Concedes objection `k` (convinced by the learner, or tired of insisting), then raises
    /// the next objection or, after the last, gives in.
    Concede { objection: usize, convinced: bool },
    /// Already gave in; the `n`th turn since.
    Agreed(usize),
}

/// Insistences before the friend gives in on an objection anyway.
pub const MAX_INSISTENCES: usize = 2;

/// The friend's moves, replayed from the learner's turns, and how many objections the learner
/// answered with an argument or a keyword.
pub fn friend_moves(b: &SpeakingB, turns: &[&str]) -> (Vec<FriendMove>, usize) {
    let n = b.objections.len();
    let mut moves = Vec::with_capacity(turns.len());
    let (mut answered, mut convinced, mut raised, mut insists, mut agreed) = (0, 0, false, 0, 0);
    for (i, turn) in turns.iter().enumerate() {
        let m = if answered >= n {
            agreed += 1;
            FriendMove::Agreed(agreed)
        } else if i == 0 && greeting_only(turn) {
            FriendMove::Opening
        } else if !raised {
            raised = true;
            FriendMove::Raise(answered)
        } else if answers_objection(&b.objections[answered], turn) || insists >= MAX_INSISTENCES {
            let was_convinced =
                insists < MAX_INSISTENCES || answers_objection(&b.objections[answered], turn);
            if was_convinced {
                convinced += 1;
            }
            let m = FriendMove::Concede {
                objection: answered,
                convinced: was_convinced,
            };
            answered += 1;
            insists = 0;
            m
        } else {
            insists += 1;
            FriendMove::Insist(answered, insists)
        };
        moves.push(m);
    }
    (moves, convinced)
}

// ───────────────────────────── measures ─────────────────────────────

/// The corrector's findings in the learner's turns.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ErrorSummary {
    pub count: usize,
    /// Up to five « original → corrected » pairs.
    pub examples: Vec<(String, String)>,
}

/// The register's measure: turns with « vous » forms and turns with « tu » forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Register {
    pub vous_turns: usize,
    pub tu_turns: usize,
}

/// What was measured in the learner's turns.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Measures {
    pub section: Option<Section>,
    pub turns: usize,
    pub words: usize,
    /// Questions asked (Section A).
    pub questions: usize,
    pub question_types: BTreeSet<QuestionType>,
    /// Facts of the document obtained, by index, and how many the document has (Section A).
    pub facts_covered: BTreeSet<usize>,
    pub facts_total: usize,
    /// The first keyword of each fact, to name it.
    pub fact_names: Vec<String>,
    pub register: Register,
    /// Distinct lowercase words.
    pub distinct_words: usize,
    pub connectors: Vec<&'static str>,
    /// Objections answered by an argument or a keyword, out of the document's (Section B).
    pub objections_answered: usize,
    pub objections_total: usize,
    /// `None` when no corrector ran (or it failed).
    pub errors: Option<ErrorSummary>,
}

impl Measures {
    pub fn mean_turn_words(&self) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            self.words as f64 / self.turns as f64
        }
    }

    /// Distinct words over words (0 without words).
    pub fn type_token_ratio(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            (self.distinct_words as f64 / self.words as f64).min(1.0)
        }
    }

    /// Section A's coverage: facts obtained out of eight (or all, when fewer), at most 1.
    pub fn coverage(&self) -> f64 {
        let wanted = self.facts_total.clamp(1, 8);
        (self.facts_covered.len() as f64 / wanted as f64).min(1.0)
    }

    /// The register expected in the section is used, and the other one is not.
    pub fn register_ok(&self) -> Option<bool> {
        let r = self.register;
        match self.section? {
            Section::A if r.tu_turns > 0 => Some(false),
            Section::A if r.vous_turns > 0 => Some(true),
            Section::B if r.vous_turns > 0 && r.tu_turns == 0 => Some(false),
            Section::B if r.tu_turns > 0 && r.vous_turns == 0 => Some(true),
            Section::B if r.tu_turns > 0 => Some(false),
            _ => None,
        }
    }
}

/// Measures the learner's turns of a conversation (`errors` comes from a corrector, if any).
pub fn measure(
    topic: &SpeakingTopic,
    section: Section,
    turns: &[&str],
    errors: Option<ErrorSummary>,
) -> Measures {
    let all = turns.join("\n");
    let lower: Vec<String> = raw_words(&all);
    let distinct: BTreeSet<&str> = lower.iter().map(String::as_str).collect();
    let mut m = Measures {
        section: Some(section),
        turns: turns.len(),
        words: turns.iter().map(|t| word_count(t)).sum(),
        distinct_words: distinct.len(),
        connectors: connectors_used(&all),
        errors,
        ..Measures::default()
    };
    for t in turns {
        if vous_forms(t) > 0 {
            m.register.vous_turns += 1;
        }
        if tu_forms(t) > 0 {
            m.register.tu_turns += 1;
        }
    }
    match section {
        Section::A => {
            let facts = &topic.section_a.facts;
            m.facts_total = facts.len();
            m.fact_names = facts
                .iter()
                .map(|f| f.keywords.first().cloned().unwrap_or_default())
                .collect();
            for t in turns {
                let q = questions(t);
                m.questions += q.len();
                m.question_types.extend(q);
                m.facts_covered.extend(facts_asked(facts, t, 2));
            }
        }
        Section::B => {
            let b = &topic.section_b;
            m.objections_total = b.objections.len();
            m.objections_answered = friend_moves(b, turns).1;
        }
    }
    m
}

// ───────────────────────────── score ─────────────────────────────

/// Turns below which the conversation is too short to show a level.
pub const SHORT_TURNS: usize = 3;
/// Words below which the conversation is too short to show a level.
pub const SHORT_WORDS: usize = 30;

/// The score on the /450 scale:
///
/// | part | points |
/// |---|---|
/// | base | 100 |
/// | turns | 8 a turn, up to 10 turns (80) |
/// | length | 5 a word of mean turn length, up to 16 words (80) |
/// | task, A | 70 × facts obtained out of 8 (or all, when fewer) + 6 a question form, up to 5 (100) |
/// | task, B | 100 × objections answered by an argument / objections |
/// | connectors | 8 a distinct connector, up to 5 (40) |
/// | register | 30 when right (A: vous and no tu; B: tu and no vous), 15 when not heard, 0 when wrong |
/// | vocabulary | a quarter point a distinct word, up to 80 words (20) |
/// | errors | −12 an error per 100 words (at least 50 words counted), at most −150 |
///
/// Then capped: at most 200 under three turns, at most 150 under thirty words; clamped to
/// 0–450. Each part grows with its measure, so more of anything never lowers the score
/// (except errors).
pub fn score(m: &Measures) -> u32 {
    let turns = 8.0 * m.turns.min(10) as f64;
    let length = 5.0 * m.mean_turn_words().min(16.0);
    let task = match m.section {
        Some(Section::A) => 70.0 * m.coverage() + 6.0 * m.question_types.len().min(5) as f64,
        Some(Section::B) if m.objections_total > 0 => {
            100.0 * (m.objections_answered.min(m.objections_total) as f64)
                / m.objections_total as f64
        }
        _ => 0.0,
    };
    let connectors = 8.0 * m.connectors.len().min(5) as f64;
    let register = match m.register_ok() {
        Some(true) => 30.0,
        None => 15.0,
        Some(false) => 0.0,
    };
    let vocabulary = 0.25 * m.distinct_words.min(80) as f64;
    let errors = m.errors.as_ref().map_or(0.0, |e| {
        (12.0 * e.count as f64 * 100.0 / m.words.max(50) as f64).min(150.0)
    });
    let mut s = 100.0 + turns + length + task + connectors + register + vocabulary - errors;
    if m.turns < SHORT_TURNS {
        s = s.min(200.0);
    }
    if m.words < SHORT_WORDS {
        s = s.min(150.0);
    }
    s.round().clamp(0.0, 450.0) as u32
}

// ───────────────────────────── report ─────────────────────────────

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn decimal(x: f64) -> String {
    format!("{x:.1}").replace('.', ",")
}

fn quoted(list: &[&str]) -> String {
    list.iter()
        .map(|c| format!("« {c} »"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The report in French, ending with [`level_lines`] of [`score`].
pub fn write_report(m: &Measures) -> String {
    let section = m.section.unwrap_or(Section::A);
    let mut strong: Vec<String> = Vec::new();
    let mut improve: Vec<String> = Vec::new();
    let mut advice: Vec<String> = Vec::new();
    let short = m.turns < SHORT_TURNS || m.words < SHORT_WORDS;
    let mean = m.mean_turn_words();

    if short {
        improve.push(format!(
            "L'échange est trop court pour montrer votre niveau : {} et {} en tout. La note reste basse pour cette raison.",
            plural(m.turns, "tour de parole", "tours de parole"),
            plural(m.words, "mot", "mots"),
        ));
    } else if m.turns >= 8 {
        strong.push(format!(
            "Vous avez tenu l'échange : {}.",
            plural(m.turns, "tour de parole", "tours de parole")
        ));
    } else {
        improve.push(format!(
            "Prolongez l'échange : {} ici, alors que l'épreuve en attend une dizaine.",
            plural(m.turns, "tour de parole", "tours de parole")
        ));
    }

    match section {
        Section::A => {
            let names = |covered: bool| -> Vec<&str> {
                m.fact_names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| m.facts_covered.contains(i) == covered)
                    .map(|(_, n)| n.as_str())
                    .collect()
            };
            if m.facts_covered.is_empty() {
                improve.push(format!(
                    "Vous n'avez obtenu aucune des {} informations de l'annonce : posez des questions précises sur son contenu.",
                    m.facts_total
                ));
            } else {
                let line = format!(
                    "Vous avez obtenu {} des {} informations de l'annonce ({}).",
                    m.facts_covered.len(),
                    m.facts_total,
                    names(true).join(", ")
                );
                if m.coverage() >= 0.5 {
                    strong.push(line);
                } else {
                    improve.push(line);
                }
                let missing = names(false);
                if !missing.is_empty() && m.coverage() < 1.0 {
                    improve.push(format!(
                        "Informations non demandées : {}.",
                        missing.join(", ")
                    ));
                }
            }
            let types: Vec<&str> = m.question_types.iter().map(|t| t.label()).collect();
            if m.questions == 0 {
                improve.push("Aucune question n'a été relevée dans vos tours de parole : terminez vos questions par « ? » ou commencez-les par « Est-ce que », « Quel », « Combien »…".into());
            } else if m.question_types.len() >= 3 {
                strong.push(format!(
                    "{} posées, sous des formes variées : {}.",
                    plural(m.questions, "question", "questions"),
                    types.join(", ")
                ));
            } else {
                improve.push(format!(
                    "{} posées, mais sous peu de formes ({}) : variez les tournures.",
                    plural(m.questions, "question", "questions"),
                    types.join(", ")
                ));
            }
            match m.register_ok() {
                Some(true) => strong.push(
                    "Vous avez vouvoyé votre interlocuteur, comme il convient dans un appel formel."
                        .into(),
                ),
                Some(false) => improve.push(format!(
                    "Vous avez tutoyé l'employé dans {} : en section A, le vouvoiement est de rigueur.",
                    plural(m.register.tu_turns, "tour", "tours")
                )),
                None => improve.push(
                    "Le vouvoiement ne s'entend pas dans vos tours : utilisez « vous », « votre », « pourriez-vous »."
                        .into(),
                ),
            }
            advice.push("Préparez une question par ligne de l'annonce (prix, horaire, lieu, inscription) et variez les tournures : « Est-ce que… », « Pourriez-vous me dire… », « À quelle heure… ».".into());
            advice.push("Reformulez la réponse pour la confirmer (« Donc, si je comprends bien, … ») : cela montre que vous avez compris.".into());
        }
        Section::B => {
            let n = m.objections_total;
            let k = m.objections_answered.min(n);
            if n > 0 && k == n {
                strong.push(format!(
                    "Vous avez répondu aux {n} objections de votre ami par des arguments."
                ));
            } else if k > 0 {
                strong.push(format!(
                    "Vous avez répondu à {k} des {n} objections de votre ami par un argument."
                ));
                improve.push(format!(
                    "{} sans argument convaincant : répondez à chacune par un fait de l'annonce.",
                    plural(n - k, "objection est restée", "objections sont restées")
                ));
            } else if n > 0 {
                improve.push(format!(
                    "Aucune des {n} objections de votre ami n'a reçu d'argument : répondez à chacune par un fait de l'annonce."
                ));
            }
            match m.register_ok() {
                Some(true) => strong.push(
                    "Vous avez tutoyé votre ami, comme il convient entre proches.".into(),
                ),
                Some(false) => improve.push(format!(
                    "Vous avez vouvoyé votre ami dans {} : en section B, on se tutoie.",
                    plural(m.register.vous_turns, "tour", "tours")
                )),
                None => improve.push(
                    "Le tutoiement ne s'entend pas dans vos tours : parlez à votre ami avec « tu », « ton », « ta »."
                        .into(),
                ),
            }
            advice.push("Répondez à chaque objection avec un fait précis de l'annonce (prix, horaire, lieu, rabais) et un connecteur (« parce que », « en plus », « d'ailleurs »).".into());
            advice.push(
                "Terminez par une proposition concrète (« On s'inscrit ensemble ce soir ? »)."
                    .into(),
            );
        }
    }

    if m.turns > 0 && !short {
        if mean >= 10.0 {
            strong.push(format!(
                "Vos tours de parole sont développés : {} mots en moyenne.",
                decimal(mean)
            ));
        } else if mean < 7.0 {
            improve.push(format!(
                "Vos tours de parole sont courts : {} mots en moyenne. Développez vos phrases.",
                decimal(mean)
            ));
        }
    }
    match m.connectors.len() {
        0 => improve.push(
            "Aucun connecteur relevé : liez vos idées avec « parce que », « mais », « donc », « en plus »."
                .into(),
        ),
        1 => {
            let others: Vec<&str> = ["parce que", "par contre", "ensuite", "en plus"]
                .into_iter()
                .filter(|c| !m.connectors.contains(c))
                .take(3)
                .collect();
            improve.push(format!(
                "Un seul connecteur relevé ({}) : variez-les ({}).",
                quoted(&m.connectors),
                quoted(&others)
            ));
        }
        _ => strong.push(format!(
            "Vous liez vos idées avec des connecteurs : {}.",
            quoted(&m.connectors)
        )),
    }
    if m.words >= 40 {
        let line = format!(
            "Vocabulaire : {} différents sur {} (ratio {}).",
            plural(m.distinct_words, "mot", "mots"),
            m.words,
            decimal(m.type_token_ratio())
        );
        if m.type_token_ratio() >= 0.6 {
            strong.push(line);
        } else if m.type_token_ratio() < 0.45 {
            improve.push(format!("{line} Évitez de répéter les mêmes mots."));
        }
    }
    match &m.errors {
        Some(e) if e.count == 0 && m.words >= SHORT_WORDS => {
            strong.push("Le correcteur n'a relevé aucune erreur dans vos tours de parole.".into());
        }
        Some(e) if e.count > 0 => {
            let examples: Vec<String> = e
                .examples
                .iter()
                .take(5)
                .map(|(o, c)| format!("« {o} » → « {c} »"))
                .collect();
            improve.push(format!(
                "Le correcteur a relevé {} dans vos tours de parole{}",
                plural(e.count, "erreur", "erreurs"),
                if examples.is_empty() {
                    ".".to_owned()
                } else {
                    format!(" : {}.", examples.join(" ; "))
                }
            ));
            advice.push(
                "Relisez les erreurs relevées et redites la phrase corrigée à voix haute.".into(),
            );
        }
        _ => {}
    }
    if strong.is_empty() {
        strong.push(if m.turns == 0 {
            "Aucun tour de parole à évaluer.".to_owned()
        } else {
            format!(
                "Vous avez pris part à l'échange ({}).",
                plural(m.turns, "tour de parole", "tours de parole")
            )
        });
    }
    if improve.is_empty() {
        improve.push("Rien de mesurable à reprendre : gardez ce rythme et cette précision.".into());
    }

    let list = |items: &[String]| {
        items
            .iter()
            .map(|i| format!("- {i}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "Feedback de Performance – Section {}\n\nPoints forts :\n{}\nPoints à améliorer :\n{}\nConseils :\n{}\n\n{}",
        section.as_str(),
        list(&strong),
        list(&improve),
        list(&advice),
        level_lines(score(m))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::speaking::{ChatMessage, Role, SpeakingA, parse_report};

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn topic() -> SpeakingTopic {
        let fact = |k: &[&str], answer: &str| Fact {
            keywords: strings(k),
            answer: answer.into(),
        };
        let objection = |o: &str, k: &[&str], c: &str| Objection {
            objection: o.into(),
            keywords: strings(k),
            concession: c.into(),
        };
        SpeakingTopic {
            id: "serviceCoursLangue".into(),
            number: 1,
            title: "Cours du soir".into(),
            section_a: SpeakingA {
                banner_title: "Section A".into(),
                document_content: "Cours d'espagnol – École Le Passeport".into(),
                ai_system_prompt_instruction: "Vous êtes employé.".into(),
                suggested_questions: vec![],
                facts: vec![
                    fact(
                        &["prix", "coûte", "combien", "tarif", "payer"],
                        "Le cours coûte 280 $.",
                    ),
                    fact(
                        &["manuel", "livre", "matériel", "compris"],
                        "Le manuel est compris.",
                    ),
                    fact(
                        &["rabais", "réduction", "étudiant"],
                        "Les étudiants ont 10 % de rabais.",
                    ),
                    fact(
                        &["date", "commence", "début", "semaines"],
                        "Du 15 septembre au 17 novembre.",
                    ),
                    fact(
                        &["horaire", "heure", "soir", "jours"],
                        "Le mardi et le jeudi, de 18 h 30 à 20 h 30.",
                    ),
                    fact(
                        &["niveau", "débutant", "test"],
                        "Débutant et intermédiaire.",
                    ),
                    fact(
                        &["groupe", "participants", "taille"],
                        "12 personnes au maximum.",
                    ),
                    fact(
                        &["adresse", "situé", "trouve", "métro"],
                        "1450, rue Saint-Denis.",
                    ),
                    fact(
                        &["inscription", "inscrire", "s'inscrire", "téléphone"],
                        "Au 514 555-0182.",
                    ),
                ],
                unknown_answer: "Je n'ai pas cette information.".into(),
            },
            section_b: SpeakingB {
                banner_title: "Section B".into(),
                document_content: "Ateliers d'italien".into(),
                ai_system_prompt_instruction: "Tu es un ami.".into(),
                scenario_flow: vec![ChatMessage {
                    role: Role::Assistant,
                    content: "Salut ! Tu voulais me parler ?".into(),
                }],
                objections: vec![
                    objection(
                        "Mes samedis sont remplis.",
                        &["samedi", "matin", "10 h"],
                        "Bon, le samedi matin, ça va.",
                    ),
                    objection(
                        "Ça doit coûter cher.",
                        &["90 $", "rabais", "50 %", "pas cher"],
                        "C'est raisonnable.",
                    ),
                    objection(
                        "Je ne parle pas italien.",
                        &["aucun niveau", "débutant"],
                        "J'aurai moins peur.",
                    ),
                ],
                give_in: "D'accord, tu m'as convaincu !".into(),
            },
        }
    }

    #[test]
    fn words_are_folded_split_and_stemmed() {
        assert_eq!(fold("Où COÛTE l’école\u{a0}?"), "ou coute l'ecole ?");
        assert_eq!(
            tokens("C'est 90$ ou 50 % ?"),
            ["c", "est", "90", "$", "ou", "50", "%"]
        );
        for (w, s) in [
            ("coûte", "cout"),
            ("coûtent", "cout"),
            ("coût", "cout"),
            ("horaires", "horair"),
            ("horaire", "horair"),
            ("niveaux", "niveau"),
            ("réservées", "reserv"),
            ("réserver", "reserv"),
            ("prix", "pri"),
            ("hiver", "hiver"),
            ("les", "les"),
            ("12", "12"),
        ] {
            assert_eq!(stem(&fold(w)), s, "{w}");
        }
        assert_eq!(stems("Les horaires coûtent"), ["les", "horair", "cout"]);
    }

    #[test]
    fn questions_find_their_facts() {
        let t = topic();
        let f = &t.section_a.facts;
        let ask = |q: &str| facts_asked(f, q, 2);
        assert_eq!(ask("Combien coûte le cours ?"), [0]);
        assert_eq!(ask("Le manuel est-il compris dans le prix ?"), [1]);
        assert_eq!(ask("Offrez-vous des réductions pour les étudiants ?"), [2]);
        assert_eq!(ask("Quand est-ce que les cours commencent ?"), [3]);
        assert_eq!(ask("À quelle heure ont lieu les cours ?"), [4]);
        assert_eq!(ask("Où se trouve l'école ? C'est près du métro ?"), [7]);
        assert_eq!(ask("Comment est-ce que je peux m'inscrire ?"), [8]);
        // Two questions in one turn, in the order asked.
        assert_eq!(ask("Quel est l'horaire, et combien ça coûte ?"), [4, 0]);
        assert_eq!(
            ask("Quels sont les tarifs ? Et les groupes sont de quelle taille ?"),
            [0, 6]
        );
        // At most two.
        assert_eq!(ask("Le prix ? L'horaire ? L'adresse ?").len(), 2);
        // Off the document.
        assert!(ask("Est-ce que vous aimez le hockey ?").is_empty());
        assert!(ask("Les professeurs sont-ils des locuteurs natifs ?").is_empty());
        // A statement that only mentions a keyword asks nothing.
        assert!(ask("Je vous appelle au sujet du cours du soir").is_empty());
    }

    #[test]
    fn question_forms_and_register_are_recognised() {
        use QuestionType::*;
        assert_eq!(
            question_type("Est-ce que le manuel est compris ?"),
            Some(EstCeQue)
        );
        assert_eq!(
            question_type("À quelle heure commence le cours ?"),
            Some(AQuelleHeure)
        );
        assert_eq!(question_type("Offrez-vous des rabais ?"), Some(Inversion));
        assert_eq!(question_type("Où se trouve l'école"), Some(Ou));
        assert_eq!(
            question_type("Je voudrais savoir le prix."),
            Some(Indirecte)
        );
        assert_eq!(question_type("C'est loin ?"), Some(Intonation));
        assert_eq!(question_type("Je sais comment y aller."), None);
        assert_eq!(
            questions("Bonjour. Quel est le prix ? Et combien de semaines ?").len(),
            2
        );
        assert_eq!(tu_forms("Tu viens ? T'as vu ? Ton ami aussi."), 3);
        assert_eq!(tu_forms("Peut-être. A-t-il un rabais ?"), 0);
        assert_eq!(vous_forms("Pouvez-vous me dire votre adresse ?"), 2);
        assert_eq!(vous_forms("Quel est le prix ?"), 0);
        assert_eq!(vous_forms("On prend rendez-vous ?"), 0);
        let t = topic();
        let a = measure(&t, Section::A, &["Pouvez-vous me dire le prix ?"], None);
        assert_eq!(a.register_ok(), Some(true));
        let a = measure(&t, Section::A, &["Tu peux me dire le prix ?"], None);
        assert_eq!(a.register_ok(), Some(false));
        let a = measure(&t, Section::A, &["Quel est le prix ?"], None);
        assert_eq!(a.register_ok(), None);
        let b = measure(&t, Section::B, &["Tu viens avec moi ?"], None);
        assert_eq!(b.register_ok(), Some(true));
        let b = measure(&t, Section::B, &["Vous venez avec moi ?"], None);
        assert_eq!(b.register_ok(), Some(false));
    }

    #[test]
    fn objections_are_answered_insisted_on_and_given_in() {
        let t = topic();
        let b = &t.section_b;
        assert!(answers_objection(
            &b.objections[0],
            "C'est le samedi matin seulement."
        ));
        assert!(answers_objection(
            &b.objections[1],
            "Il y a 50 % de rabais pour toi !"
        ));
        assert!(!answers_objection(&b.objections[1], "Allez, viens !"));
        assert!(answers_objection(
            &b.objections[1],
            "Écoute, c'est une belle occasion parce que tu dis toujours que tu veux voyager."
        ));
        let (moves, convinced) = friend_moves(
            b,
            &[
                "Salut !",
                "On s'inscrit aux ateliers d'italien ?",
                "C'est le samedi matin, à 10 h.",
                "Allez !",
                "Ce n'est pas cher, 90 $.",
                "Il y a le niveau débutant, aucun niveau requis.",
                "Super !",
            ],
        );
        use FriendMove::*;
        assert_eq!(
            moves,
            [
                Opening,
                Raise(0),
                Concede {
                    objection: 0,
                    convinced: true
                },
                Insist(1, 1),
                Concede {
                    objection: 1,
                    convinced: true
                },
                Concede {
                    objection: 2,
                    convinced: true
                },
                Agreed(1),
            ]
        );
        assert_eq!(convinced, 3);
        let (moves, convinced) =
            friend_moves(b, &["Viens !", "Allez !", "Stp !", "Allez, viens !"]);
        assert_eq!(
            moves,
            [
                Raise(0),
                Insist(0, 1),
                Insist(0, 2),
                Concede {
                    objection: 0,
                    convinced: false
                }
            ]
        );
        assert_eq!(convinced, 0);
    }

    const RICH_A: &[&str] = &[
        "Bonjour madame, je vous appelle au sujet de l'annonce pour les cours d'espagnol.",
        "Pourriez-vous me dire combien coûte le cours, s'il vous plaît ?",
        "Est-ce que le manuel est compris dans le prix, ou faut-il l'acheter en plus ?",
        "Je suis étudiant à l'université : offrez-vous une réduction pour les étudiants ?",
        "À quelle heure ont lieu les cours, et quels jours de la semaine ?",
        "D'accord, donc c'est le soir. Quand est-ce que la session commence exactement ?",
        "Je suis débutant, alors quel niveau devrais-je choisir, d'après vous ?",
        "Combien de participants y a-t-il dans chaque groupe, en général ?",
        "Où se trouve votre école ? Est-elle près d'une station de métro ?",
        "Parfait, merci beaucoup. Comment est-ce que je peux m'inscrire, par téléphone ?",
    ];

    #[test]
    fn the_score_rises_with_each_measure() {
        let t = topic();
        let rich = measure(&t, Section::A, RICH_A, None);
        assert_eq!(rich.turns, 10);
        assert_eq!(rich.facts_covered.len(), 9, "{:?}", rich.facts_covered);
        assert!(rich.question_types.len() >= 5, "{:?}", rich.question_types);
        assert_eq!(rich.register_ok(), Some(true));
        let high = score(&rich);
        assert!((330..=450).contains(&high), "{high}");
        // More coverage never lowers the score.
        let mut less = rich.clone();
        for n in (0..9).rev() {
            let before = score(&less);
            less.facts_covered.remove(&n);
            assert!(score(&less) <= before);
        }
        assert!(score(&less) < high);
        // Nor do more turns, longer turns, more connectors, more words.
        let mut m = rich.clone();
        m.connectors.truncate(1);
        assert!(score(&m) <= high);
        m = rich.clone();
        m.words /= 2;
        assert!(score(&m) <= high);
        // Errors lower it.
        m = rich.clone();
        m.errors = Some(ErrorSummary {
            count: 6,
            examples: vec![],
        });
        assert!(score(&m) < high);
        m.errors = Some(ErrorSummary {
            count: 0,
            examples: vec![],
        });
        assert_eq!(score(&m), high);
        // A short conversation scores low.
        let short = measure(&t, Section::A, &["Bonjour.", "Le prix ?"], None);
        assert!(score(&short) <= 150, "{}", score(&short));
        assert!(estimate(score(&short)) <= 3);
        // Bounds.
        assert_eq!(score(&Measures::default()), 115);
        let mut best = rich.clone();
        best.words = 1000;
        best.distinct_words = 500;
        best.connectors = CONNECTORS.to_vec();
        assert_eq!(score(&best), 450);
        best.errors = Some(ErrorSummary {
            count: 1000,
            examples: vec![],
        });
        assert_eq!(score(&best), 300);
    }

    fn estimate(score: u32) -> u8 {
        crate::domain::scoring::estimate_speaking(score).clb
    }

    #[test]
    fn the_report_has_the_shape_and_ends_with_the_level_lines() {
        let t = topic();
        let errors = ErrorSummary {
            count: 2,
            examples: vec![("a la plage".into(), "à la plage".into())],
        };
        let m = measure(&t, Section::A, RICH_A, Some(errors));
        let r = write_report(&m);
        assert!(
            r.starts_with("Feedback de Performance – Section A\n\nPoints forts :\n- "),
            "{r}"
        );
        assert!(r.contains("\nPoints à améliorer :\n- "), "{r}");
        assert!(r.contains("\nConseils :\n- "), "{r}");
        assert!(
            r.ends_with(&format!("\n\n{}", level_lines(score(&m)))),
            "{r}"
        );
        assert!(r.contains("« a la plage » → « à la plage »"), "{r}");
        assert!(r.contains("9 des 9 informations"), "{r}");
        let levels = parse_report(&r).unwrap();
        assert_eq!(levels.score, score(&m));

        let short = measure(&t, Section::A, &["Bonjour.", "Le prix ?"], None);
        let r = write_report(&short);
        assert!(r.contains("trop court"), "{r}");
        assert!(!r.contains("correcteur"), "no corrector ran: {r}");
        assert!(parse_report(&r).unwrap().clb <= 3);

        let tu = measure(&t, Section::A, &["Tu peux me dire le prix ?"], None);
        assert!(write_report(&tu).contains("tutoyé l'employé"));

        let b = measure(
            &t,
            Section::B,
            &[
                "Salut ! Tu veux venir aux ateliers d'italien avec moi ?",
                "Mais c'est le samedi matin, à 10 h, tu as le temps, non ?",
                "En plus, ce n'est pas cher : 90 $, et 50 % de rabais pour toi.",
                "Tu sais, il y a un niveau débutant, aucun niveau requis.",
            ],
            None,
        );
        assert_eq!((b.objections_answered, b.objections_total), (3, 3));
        let r = write_report(&b);
        assert!(r.starts_with("Feedback de Performance – Section B"), "{r}");
        assert!(r.contains("aux 3 objections"), "{r}");
        assert!(r.contains("tutoyé votre ami"), "{r}");
        assert!(r.ends_with(&level_lines(score(&b))));
    }
}
