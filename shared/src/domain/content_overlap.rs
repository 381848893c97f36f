//! "Understanding, not matching" (issue 14): how many of a key's words, and of
//! its question's words, the source sentence that holds the answer already
//! contains. Pure; `content_overlap` (shared/examples) prints it for papers.

use std::collections::BTreeSet;

use super::{Paper, Question, Test};

/// The most a level-7+ key may share with the source sentence that best
/// matches it: the share of its content words found there. Set from the bank
/// before issue 14's rewrite (FORMAT.md): 90 % of 329 items were at or below 0.75.
pub const KEY_OVERLAP_MAX: f64 = 0.75;
/// The most a level-7+ question may share with the sentence that holds the
/// answer, or with the sentence it matches best: the share of its content
/// words, names, quoted passages and question words ("selon", "personne") set
/// aside. 0.6 refuses two words of three ("le premier principe" against "Mon
/// premier principe, c'est que…"), 86 % of the bank before the rewrite was below.
pub const PROMPT_OVERLAP_MAX: f64 = 0.6;
/// Fewer shared words than this are never refused (one word is a topic, not a copy).
pub const OVERLAP_MIN_SHARED: usize = 2;

/// The level from which a key must paraphrase its source and a question must
/// not reuse the framing of the sentence that holds the answer.
pub const OVERLAP_FROM_LEVEL: u8 = 7;

/// Function words: never content words.
const STOP_WORDS: &[&str] = &[
    "a",
    "à",
    "afin",
    "ai",
    "aie",
    "aient",
    "ainsi",
    "ait",
    "alors",
    "as",
    "au",
    "aucun",
    "aucune",
    "aujourd",
    "auquel",
    "aura",
    "aurai",
    "auraient",
    "aurait",
    "auront",
    "aussi",
    "autre",
    "autres",
    "aux",
    "auxquels",
    "avaient",
    "avais",
    "avait",
    "avant",
    "avec",
    "avez",
    "aviez",
    "avions",
    "avoir",
    "avons",
    "ayant",
    "bien",
    "c",
    "ça",
    "car",
    "ce",
    "ceci",
    "cela",
    "celle",
    "celles",
    "celui",
    "cependant",
    "certain",
    "certaine",
    "certaines",
    "certains",
    "ces",
    "cet",
    "cette",
    "ceux",
    "chacun",
    "chaque",
    "chez",
    "ci",
    "comme",
    "comment",
    "d",
    "dans",
    "de",
    "depuis",
    "des",
    "dès",
    "donc",
    "dont",
    "du",
    "duquel",
    "elle",
    "elles",
    "en",
    "encore",
    "entre",
    "es",
    "est",
    "et",
    "étaient",
    "étais",
    "était",
    "étant",
    "été",
    "êtes",
    "être",
    "eu",
    "eux",
    "fait",
    "faut",
    "furent",
    "fut",
    "ici",
    "il",
    "ils",
    "j",
    "je",
    "jusqu",
    "jusque",
    "l",
    "la",
    "là",
    "laquelle",
    "le",
    "lequel",
    "les",
    "lesquelles",
    "lesquels",
    "leur",
    "leurs",
    "lui",
    "m",
    "ma",
    "mais",
    "me",
    "même",
    "mêmes",
    "mes",
    "moi",
    "mon",
    "n",
    "ne",
    "ni",
    "non",
    "nos",
    "notre",
    "nous",
    "on",
    "ont",
    "or",
    "ou",
    "où",
    "par",
    "parce",
    "pas",
    "peu",
    "peut",
    "peuvent",
    "plus",
    "pour",
    "pourquoi",
    "qu",
    "quand",
    "que",
    "quel",
    "quelle",
    "quelles",
    "quels",
    "qui",
    "quoi",
    "s",
    "sa",
    "sans",
    "se",
    "sera",
    "serait",
    "ses",
    "si",
    "sien",
    "soi",
    "soient",
    "soit",
    "sommes",
    "son",
    "sont",
    "sous",
    "suis",
    "sur",
    "t",
    "ta",
    "te",
    "tes",
    "toi",
    "ton",
    "tous",
    "tout",
    "toute",
    "toutes",
    "très",
    "trop",
    "tu",
    "un",
    "une",
    "unes",
    "uns",
    "vers",
    "voici",
    "voilà",
    "vos",
    "votre",
    "vous",
    "y",
    "oui",
    "euh",
    "ben",
    "bon",
    "bah",
    "hein",
    "tsé",
    "ah",
    "oh",
    "eh",
    "ok",
    "o",
    "k",
    "déjà",
    "puis",
    "ensuite",
    "enfin",
    "surtout",
    "vraiment",
];

/// Words of a question that say what is asked, not what the text is about.
const QUESTION_WORDS: &[&str] = &[
    "selon",
    "personne",
    "personnes",
    "document",
    "documents",
    "texte",
    "auteur",
    "autrice",
    "article",
    "message",
    "annonce",
    "chronique",
    "extrait",
    "passage",
    "journaliste",
    "interrogé",
    "interrogée",
    "interrogés",
    "interrogées",
    "invité",
    "invitée",
    "reportage",
    "graphique",
    "idée",
    "principale",
    "principal",
    "lequel",
    "laquelle",
    "dit",
    "dire",
    "veut",
    "propos",
    "parle",
    "explique",
    "affirme",
    "indique",
    "suggère",
    "mentionne",
    "apprend",
    "apprenons",
    "doit",
    "femme",
    "homme",
    "intervenant",
    "intervenante",
    "chercheur",
    "chercheuse",
    "est-ce",
    "ceci",
    "conclure",
    "comprend",
    "comprendre",
    "entend",
    "reproche",
    "pense",
    "pensent",
];

/// A light stem, so that "fermées", "fermée", "fermé" and "fermer" match.
pub fn stem(word: &str) -> String {
    const SUFFIXES: [&str; 13] = [
        "ements", "ement", "ées", "ée", "és", "é", "ers", "er", "ez", "es", "s", "e", "x",
    ];
    for suffix in SUFFIXES {
        if let Some(rest) = word.strip_suffix(suffix)
            && rest.chars().count() >= 3
        {
            return rest.to_owned();
        }
    }
    word.to_owned()
}

/// The words of a text, lowercase, accents kept, split on apostrophes,
/// hyphens and punctuation.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The stemmed content words of a text (stop words out).
pub fn content_words(text: &str) -> BTreeSet<String> {
    words(text)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect()
}

/// A text without its names (words with a capital, after the first word: a
/// person, a place, a firm is named, not understood) and without its quoted
/// passages (« … », “ … ”: an item may quote what it asks about).
fn without_names_and_quotes(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '«' | '“' => depth += 1,
            '»' | '”' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let mut first = true;
    out.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .filter(|w| {
            let keep = first || !w.starts_with(char::is_uppercase);
            first = false;
            keep
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The content words of a key: its names set aside.
pub fn key_words(key: &str) -> BTreeSet<String> {
    content_words(&without_names_and_quotes(key))
}

/// The content words of a question, without its names, its quoted passages and
/// the words that only say what is asked.
pub fn prompt_words(prompt: &str) -> BTreeSet<String> {
    words(&without_names_and_quotes(prompt))
        .filter(|w| !STOP_WORDS.contains(&w.as_str()) && !QUESTION_WORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect()
}

/// The sentences of a text: split after `.`, `!`, `?`, `…` followed by a space,
/// after `;` and `:`, and at line breaks.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '\n' {
            out.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
        let next_is_space = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        let ends = matches!(c, '.' | '!' | '?' | '…' | ';') && next_is_space;
        // "M. Tremblay" is not the end of a sentence.
        let title = c == '.' && current.trim_end_matches('.').ends_with(" M") || current == "M.";
        if ends && !title {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !content_words(s).is_empty())
        .collect()
}

/// The overlap of one item with its source.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlap {
    /// The share of the key's content words found in its best-matching sentence.
    pub key_overlap: f64,
    /// The share of the prompt's content words found in the key's sentence, or
    /// in the sentence that best matches the prompt, whichever is higher.
    pub prompt_overlap: f64,
    /// The key's content words, and the prompt's.
    pub key_words: usize,
    pub prompt_words: usize,
    /// How many of them the measured sentence shares.
    pub key_shared: usize,
    pub prompt_shared: usize,
    /// The source sentence that best matches the key.
    pub sentence: String,
    /// The sentence that best matches the prompt, when it is another one.
    pub prompt_sentence: Option<String>,
    /// The key's sentence, or the one before it, turns on "ce n'est pas X, c'est Y"
    /// or "pas … mais …" (the answer is set right after a contrast).
    pub contrast: bool,
    /// The key's sentence is a heading (no final punctuation): in quick reading
    /// the key names the short document that fits, which is what is asked.
    pub heading: bool,
}

fn share(words: &BTreeSet<String>, sentence: &BTreeSet<String>) -> f64 {
    if words.is_empty() {
        0.0
    } else {
        words.intersection(sentence).count() as f64 / words.len() as f64
    }
}

/// Whether a sentence turns on a contrast that sets up the answer: a negated
/// cleft ("ce n'est pas X, c'est Y", "le problème, c'est pas X") or "pas … mais".
pub fn is_contrast(sentence: &str) -> bool {
    let s = sentence.to_lowercase().replace('’', "'");
    ["ce n'est pas", "c'est pas", "ce n'était pas", "non pas"]
        .iter()
        .any(|n| s.contains(n))
        || s.find("pas ").is_some_and(|i| s[i..].contains(" mais "))
}

/// The overlap of a key and a prompt with a source text. `None` when the key
/// has no content word or the source no sentence.
pub fn overlap(source_sentences: &[String], prompt: &str, key: &str) -> Option<Overlap> {
    let key_words = key_words(key);
    let prompt_words = prompt_words(prompt);
    if key_words.is_empty() {
        return None;
    }
    let sets: Vec<BTreeSet<String>> = source_sentences.iter().map(|s| content_words(s)).collect();
    // Most key words shared; on a tie, the first.
    let best = (0..sets.len()).max_by(|&a, &b| {
        let (sa, sb) = (share(&key_words, &sets[a]), share(&key_words, &sets[b]));
        sa.total_cmp(&sb).then(b.cmp(&a))
    })?;
    let by_prompt = (0..sets.len()).max_by(|&a, &b| {
        let (sa, sb) = (
            share(&prompt_words, &sets[a]),
            share(&prompt_words, &sets[b]),
        );
        sa.total_cmp(&sb).then(b.cmp(&a))
    })?;
    let in_best = share(&prompt_words, &sets[best]);
    let in_own = share(&prompt_words, &sets[by_prompt]);
    let shared = |words: &BTreeSet<String>, i: usize| words.intersection(&sets[i]).count();
    let contrast = is_contrast(&source_sentences[best])
        || best > 0 && is_contrast(&source_sentences[best - 1]);
    Some(Overlap {
        key_overlap: share(&key_words, &sets[best]),
        prompt_overlap: in_best.max(in_own),
        key_words: key_words.len(),
        prompt_words: prompt_words.len(),
        key_shared: shared(&key_words, best),
        prompt_shared: shared(
            &prompt_words,
            if in_own > in_best { by_prompt } else { best },
        ),
        sentence: source_sentences[best].clone(),
        prompt_sentence: (in_own > in_best).then(|| source_sentences[by_prompt].clone()),
        contrast,
        heading: !source_sentences[best]
            .trim_end()
            .ends_with(['.', '!', '?', '…', ';', ':', '»', '"']),
    })
}

impl Overlap {
    /// The key shares too much with its sentence: over `KEY_OVERLAP_MAX` of its
    /// content words, at least `OVERLAP_MIN_SHARED` of them, and the sentence is
    /// not a heading of quick reading (there the key names the document that fits).
    pub fn key_over(&self, part: &str) -> bool {
        self.key_overlap > KEY_OVERLAP_MAX
            && self.key_shared >= OVERLAP_MIN_SHARED
            && !(self.heading && part == "quick-reading")
    }

    /// The question shares too much with the sentence that holds the answer
    /// (or the one it matches best): over `PROMPT_OVERLAP_MAX` of its content
    /// words, at least `OVERLAP_MIN_SHARED` of them.
    pub fn prompt_over(&self) -> bool {
        self.prompt_overlap > PROMPT_OVERLAP_MAX && self.prompt_shared >= OVERLAP_MIN_SHARED
    }
}

/// The source of a question: its document's text (reading) or its whole
/// script (listening), as sentences. Empty for gap-fill items and image-only
/// documents, where there is nothing to match.
pub fn source_sentences(test: &Test, q: &Question) -> Vec<String> {
    if q.prompt.contains("_____") || q.part.starts_with("gap-fill") {
        return Vec::new();
    }
    match test.category {
        Paper::Reading => q
            .document
            .as_deref()
            .and_then(|id| test.document(id))
            .and_then(|d| d.text.as_deref())
            .map(sentences)
            .unwrap_or_default(),
        Paper::Listening => q
            .audio
            .iter()
            .flatten()
            .flat_map(|line| sentences(&line.text))
            .collect(),
    }
}

/// The overlap of every item of level 7 and up that has a text source.
pub fn item_overlaps(test: &Test) -> Vec<(&Question, Overlap)> {
    test.questions
        .iter()
        .filter(|q| q.level >= OVERLAP_FROM_LEVEL)
        .filter_map(|q| {
            let source = source_sentences(test, q);
            overlap(&source, &q.prompt, q.key()?).map(|o| (q, o))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn stems_match_inflections() {
        for w in ["fermées", "fermée", "fermé", "fermés", "fermer"] {
            assert_eq!(stem(w), "ferm", "{w}");
        }
        assert_eq!(stem("fenêtres"), stem("fenêtre"));
        assert_eq!(stem("été"), "été");
    }

    #[test]
    fn content_words_drop_function_words_and_split_apostrophes() {
        let w = content_words("Elle garde ses fenêtres fermées, l’été.");
        assert_eq!(
            w.into_iter().collect::<Vec<_>>(),
            vec!["fenêtr", "ferm", "gard"]
        );
        assert!(prompt_words("Selon la personne interrogée, quel est le problème ?").len() == 1);
    }

    #[test]
    fn sentences_split_on_ends_and_lines_but_not_titles() {
        assert_eq!(
            sentences("Bonjour. M. Roy arrive ; il part.\nTitre\n\nFin ! Oui"),
            s(&["Bonjour.", "M. Roy arrive ;", "il part.", "Titre", "Fin !"])
        );
    }

    #[test]
    fn a_copied_key_and_an_echoed_prompt_are_measured() {
        // Listening 10 Q19 before the rewrite: the key copies the script.
        let source = s(&[
            "Moi, j'habite au rez-de-chaussée.",
            "L'été, je garde mes fenêtres fermées toute la journée à cause de la chaleur.",
        ]);
        let o = overlap(
            &source,
            "Que fait la femme pendant l'été ?",
            "Elle garde ses fenêtres fermées.",
        )
        .unwrap();
        assert_eq!(o.key_overlap, 1.0);
        assert_eq!(o.sentence, source[1]);
        // A paraphrase shares nothing.
        let o = overlap(
            &source,
            "Que fait la femme pendant l'été ?",
            "Elle ne laisse pas entrer l'air chaud.",
        )
        .unwrap();
        assert_eq!(o.key_overlap, 0.0);
        // The prompt's framing echoes the sentence that holds the answer.
        let source = s(&[
            "Bonjour.",
            "Mon premier principe, c'est que chacun cuisine à tour de rôle.",
        ]);
        let o = overlap(
            &source,
            "Quel est le premier principe de l'invitée ?",
            "Partager les tâches du repas.",
        )
        .unwrap();
        assert_eq!((o.prompt_shared, o.prompt_words), (2, 2));
        assert_eq!(o.prompt_overlap, 1.0);
        assert_eq!(o.prompt_sentence.as_deref(), Some(source[1].as_str()));
        assert!(overlap(&source, "?", "Oui.").is_none());
    }

    #[test]
    fn bounds_refuse_copies_and_echoes_but_not_single_words() {
        let source = s(&[
            "Mon premier principe, c'est que tout ce que j'ajoute doit pouvoir être retiré un jour.",
            "Rencontre avec Hélène Beaulieu, restauratrice de tableaux.",
        ]);
        // The review's example: two of the prompt's three words frame the answer.
        let o = overlap(
            &source,
            "Quel est le premier principe de la restauratrice ?",
            "Pouvoir défaire plus tard chacune de ses interventions.",
        )
        .unwrap();
        assert_eq!((o.prompt_shared, o.prompt_words), (2, 3));
        assert!(o.prompt_over() && !o.key_over("interviews"), "{o:?}");
        // A copied key is refused, a paraphrase is not.
        let o = overlap(
            &source,
            "Que s'impose-t-elle avant toute intervention ?",
            "Tout ce qu'elle ajoute doit pouvoir être retiré.",
        )
        .unwrap();
        assert!(o.key_over("interviews") && !o.prompt_over(), "{o:?}");
        // One shared word is a topic, not a copy.
        let o = overlap(&source, "Que pense-t-elle des tableaux ?", "Les tableaux.").unwrap();
        assert_eq!(o.key_overlap, 1.0);
        assert!(!o.key_over("interviews") && !o.prompt_over(), "{o:?}");
        // In quick reading, a key that names the fitting document is what is asked.
        let ads = s(&[
            "Chalets de l'Anse – Lamèque",
            "Ouvert toute l'année, cuisine équipée.",
        ]);
        let o = overlap(
            &ads,
            "Où peut-on dormir en novembre ?",
            "Les chalets de l'anse",
        )
        .unwrap();
        assert!(o.heading && !o.key_over("quick-reading") && o.key_over("admin-work-documents"));
    }

    #[test]
    fn contrasts_before_the_key_are_seen() {
        assert!(is_contrast(
            "Ce n'est pas le prix qui m'a décidé, c'est la proximité."
        ));
        assert!(is_contrast(
            "Je ne viens pas pour le travail, mais pour ma fille."
        ));
        assert!(!is_contrast("Je viens pour ma fille."));
        let source = s(&[
            "Ce n'est pas le prix.",
            "C'est la proximité de l'école qui compte.",
        ]);
        let o = overlap(&source, "Qu'est-ce qui compte ?", "L'école est proche.").unwrap();
        assert!(o.contrast);
    }
}
