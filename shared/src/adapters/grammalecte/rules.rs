//! Hand-written rules for frequent learner errors that Grammalecte 2.1.2 misses or
//! fixes the wrong way (checked on Grammalecte first: it already catches « je ai »,
//! « parce-que », « à le »). The rules that need to know a word's class, gender,
//! number or conjugation use the worker's lexicon (Grammalecte's own dictionary).
//!
//! Measured with `bench_corrector` on `bench/corrector/corpus.json` (247 annotated
//! errors, 12 error-free texts) and on 465 correct texts of the app's own content
//! (57,000 words). Rules are tried before Grammalecte, so a rule often takes the place
//! of a Grammalecte finding (with a better fix); in total they raise recall from 51.0 %
//! to 63.2 % and right fixes from 112 to 147, with no false alarm on the corpus and
//! 2 more on the 57,000 words (« 55 reste », « 25 jour »: a number before a noun).
//! Findings per rule on the corpus (all true):
//! - plural noun after a plural determiner or a number (« les élève », « trente
//!   personne »): 19; plural verb after a plural subject opening a clause (« les gens
//!   est »): 14; masculine determiner before a masculine-only noun (« la bus »): 8;
//! - « beaucoup des » → « beaucoup de »: 3; « beaucoup de famille attendaient » →
//!   « familles »: 2; « de les » → « des », « à les » → « aux »: 2;
//! - « sont eu », « sont essayé » → « ont »: 3; an infinitive after its subject
//!   (« il organiser »): 3; « je vaux que », « il vaut écrire » → vouloir: 2;
//!   a participle after a modal (« peut nettoyé »): 1;
//! - « dans Laval », « en Toronto » → « à », « à Chine » → « en »: 4;
//! - calques (« faire une décision », « dans mon opinion », « très beaucoup »): 3;
//!   « son très fières » → « sont »: 1; « nouveau ami » → « nouvel »: 1;
//! - « je suis 25 ans » → « j'ai 25 ans »: 1;
//! - « si j'aurais » → « si j'avais »: 0 (the corpus has none; a classic error, kept).
//!
//! Each rule is deliberately narrow (precision before recall) and unit-tested with
//! correct sentences it must leave alone.

use super::{Finding, LexEntry, Lexicon, Source};

/// A word of the text: byte span and lowercase form (apostrophes split words:
/// « j'aurais » is « j » then « aurais »).
#[derive(Debug, Clone)]
struct Word {
    start: usize,
    end: usize,
    lower: String,
}

fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        let inside = c.is_alphanumeric()
            || (c == '-'
                && start.is_some()
                && text[i + 1..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric));
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Word {
                    start: s,
                    end: i,
                    lower: text[s..i].to_lowercase(),
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Word {
            start: s,
            end: text.len(),
            lower: text[s..].to_lowercase(),
        });
    }
    out
}

/// Whether only spaces (or one apostrophe, for an elision) separate two words.
fn joined(text: &str, a: &Word, b: &Word) -> bool {
    let gap = &text[a.end..b.start];
    !gap.is_empty()
        && gap
            .chars()
            .all(|c| c == ' ' || c == '\u{a0}' || c == '\'' || c == '’')
}

fn starts_with_vowel(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| "aeiouyhâàéèêîïôûœ".contains(c))
}

/// Capitalises the replacement when the original began with a capital.
fn same_case(original: &str, replacement: &str) -> String {
    super::match_case(original, replacement)
}

/// Grammalecte's tags of a word (`:N:f:s`, `:V1_…:Ip:3s`…), without the lemma.
fn tags<'a>(lexicon: &'a Lexicon, word: &str) -> impl Iterator<Item = &'a str> {
    lexicon
        .get(word)
        .map(|e| e.morph.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|m| {
            m.split_once('/')
                .map_or("", |(_, t)| t.trim_end_matches("/*"))
        })
}

/// Noun or adjective tags (`:N…`, `:A…`).
fn nominal(tag: &str) -> bool {
    tag.starts_with(":N") || tag.starts_with(":A")
}

/// A noun that is only singular (not plural, not invariable), with a known plural.
fn singular_noun<'a>(lexicon: &'a Lexicon, word: &str) -> Option<&'a str> {
    let entry: &LexEntry = lexicon.get(word)?;
    if MONTHS.contains(&word) {
        return None;
    }
    let mut noun = false;
    for t in tags(lexicon, word) {
        if t.starts_with(":B") || t.starts_with(":G:D") {
            return None; // also a number (« mille ») or a determiner (« un »)
        }
        if nominal(t) {
            if t.contains(":p") || t.contains(":i") {
                return None;
            }
            noun |= t.starts_with(":N") && t.contains(":s");
        }
    }
    if noun { entry.pl.as_deref() } else { None }
}

const MONTHS: &[&str] = &[
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];

/// A plural noun (or adjective used as one).
fn plural_noun(lexicon: &Lexicon, word: &str) -> bool {
    tags(lexicon, word).any(|t| t.starts_with(":N") && (t.contains(":p") || t.contains(":i")))
}

/// All rule findings for a text, in text order.
pub(crate) fn find(text: &str, lexicon: &Lexicon) -> Vec<Finding> {
    let words = words(text);
    let mut out = Vec::new();
    age_with_etre(text, &words, &mut out);
    beaucoup_des(text, &words, &mut out);
    de_les(text, &words, &mut out);
    si_conditional(text, &words, &mut out);
    plural_after_determiner(text, &words, lexicon, &mut out);
    plural_subject_verb(text, &words, lexicon, &mut out);
    dans_city(text, &words, lexicon, &mut out);
    sont_with_avoir_verb(text, &words, lexicon, &mut out);
    place_prepositions(text, &words, lexicon, &mut out);
    masculine_noun_determiner(text, &words, lexicon, &mut out);
    beaucoup_de_plural(text, &words, lexicon, &mut out);
    valoir_for_vouloir(text, &words, lexicon, &mut out);
    infinitive_after_subject(text, &words, lexicon, &mut out);
    calques(text, &words, &mut out);
    son_for_sont(text, &words, lexicon, &mut out);
    nouvel_before_vowel(text, &words, lexicon, &mut out);
    participle_after_modal(text, &words, lexicon, &mut out);
    out.sort_by_key(|f| f.start);
    out
}

/// « je suis 25 ans » → « j'ai 25 ans ».
fn age_with_etre(text: &str, words: &[Word], out: &mut Vec<Finding>) {
    const PAIRS: &[(&str, &str, &str)] = &[
        ("je", "suis", "j'ai"),
        ("tu", "es", "tu as"),
        ("il", "est", "il a"),
        ("elle", "est", "elle a"),
        ("on", "est", "on a"),
        ("nous", "sommes", "nous avons"),
        ("vous", "êtes", "vous avez"),
        ("ils", "sont", "ils ont"),
        ("elles", "sont", "elles ont"),
    ];
    const NUMBERS: &[&str] = &[
        "un",
        "deux",
        "trois",
        "quatre",
        "cinq",
        "six",
        "sept",
        "huit",
        "neuf",
        "dix",
        "onze",
        "douze",
        "treize",
        "quatorze",
        "quinze",
        "seize",
        "vingt",
        "trente",
        "quarante",
        "cinquante",
        "soixante",
    ];
    for w in words.windows(4) {
        let [subject, verb, number, years] = w else {
            continue;
        };
        let Some((_, _, right)) = PAIRS
            .iter()
            .find(|(s, v, _)| subject.lower == *s && verb.lower == *v)
        else {
            continue;
        };
        let is_number = number.lower.chars().all(|c| c.is_ascii_digit())
            || NUMBERS
                .iter()
                .any(|n| number.lower == *n || number.lower.starts_with(&format!("{n}-")));
        if is_number
            && (years.lower == "ans" || years.lower == "an")
            && joined(text, subject, verb)
            && joined(text, verb, number)
            && joined(text, number, years)
        {
            out.push(Finding {
                start: subject.start,
                end: verb.end,
                replacement: same_case(&text[subject.start..subject.end], right),
                explanation: "Pour dire l'âge, on emploie le verbe « avoir » : « j'ai 25 ans », et non « je suis 25 ans »."
                    .into(),
                source: Source::Rule,
            });
        }
    }
}

/// « il y a beaucoup des problèmes » → « beaucoup de problèmes ».
fn beaucoup_des(text: &str, words: &[Word], out: &mut Vec<Finding>) {
    for w in words.windows(3) {
        let [adverb, des, noun] = w else { continue };
        if !matches!(
            adverb.lower.as_str(),
            "beaucoup" | "trop" | "peu" | "assez" | "plein"
        ) || des.lower != "des"
        {
            continue;
        }
        if !joined(text, adverb, des) || !joined(text, des, noun) {
            continue;
        }
        let right = if starts_with_vowel(&noun.lower) {
            "d'"
        } else {
            "de "
        };
        out.push(Finding {
            start: des.start,
            end: noun.start,
            replacement: right.into(),
            explanation: format!(
                "Après « {} », on emploie « de » (« d' » devant une voyelle) et non « des » : « {} {}{} ».",
                adverb.lower, adverb.lower, right, noun.lower
            ),
            source: Source::Rule,
        });
    }
}

/// « de les enfants » → « des enfants », « à les enfants » → « aux enfants » (before a
/// plural noun; « de les voir », where « les » is a pronoun, is left alone).
fn de_les(text: &str, words: &[Word], out: &mut Vec<Finding>) {
    for w in words.windows(3) {
        let [prep, les, noun] = w else { continue };
        let right = match (prep.lower.as_str(), les.lower.as_str()) {
            ("de", "les") => "des",
            ("à", "les") => "aux",
            _ => continue,
        };
        let plural = noun.lower.ends_with('s') || noun.lower.ends_with('x');
        if !plural
            || !joined(text, prep, les)
            || !joined(text, les, noun)
            || text[prep.end..les.start].contains('\'')
        {
            continue;
        }
        let original = &text[prep.start..les.end];
        out.push(Finding {
            start: prep.start,
            end: les.end,
            replacement: same_case(original, right),
            explanation: format!(
                "« {} les » se contracte en « {right} » devant un nom : « {right} {} ».",
                prep.lower, noun.lower
            ),
            source: Source::Rule,
        });
    }
}

/// « si j'aurais » → « si j'avais »: after the « si » of a condition, the imperfect,
/// not the conditional. Only where « si » opens a clause (sentence start, after a
/// comma, « et », « mais », « même »), so « je me demande si j'aurais le temps »
/// (an indirect question, correct) is left alone.
fn si_conditional(text: &str, words: &[Word], out: &mut Vec<Finding>) {
    const VERBS: &[(&str, &str)] = &[
        ("aurais", "avais"),
        ("aurait", "avait"),
        ("aurions", "avions"),
        ("auriez", "aviez"),
        ("auraient", "avaient"),
        ("serais", "étais"),
        ("serait", "était"),
        ("serions", "étions"),
        ("seriez", "étiez"),
        ("seraient", "étaient"),
        ("pourrais", "pouvais"),
        ("pourrait", "pouvait"),
        ("pourrions", "pouvions"),
        ("pourraient", "pouvaient"),
        ("voudrais", "voulais"),
        ("voudrait", "voulait"),
        ("ferais", "faisais"),
        ("ferait", "faisait"),
        ("irais", "allais"),
        ("irait", "allait"),
        ("devrais", "devais"),
        ("devrait", "devait"),
        ("saurais", "savais"),
        ("gagnerais", "gagnais"),
        ("habiterais", "habitais"),
        ("travaillerais", "travaillais"),
    ];
    const SUBJECTS: &[&str] = &[
        "je", "j", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles",
    ];
    for (i, w) in words.windows(3).enumerate() {
        let [si, subject, verb] = w else { continue };
        let condition = (si.lower == "si" && SUBJECTS.contains(&subject.lower.as_str()))
            || (si.lower == "s" && matches!(subject.lower.as_str(), "il" | "ils"));
        if !condition {
            continue;
        }
        let si_word = si;
        let Some((_, imperfect)) = VERBS.iter().find(|(c, _)| verb.lower == *c) else {
            continue;
        };
        if !joined(text, si_word, subject) || !joined(text, subject, verb) {
            continue;
        }
        let opens_clause = match i.checked_sub(1).and_then(|p| words.get(p)) {
            None => true,
            Some(prev) => {
                let gap = &text[prev.end..si_word.start];
                gap.contains([',', '.', '!', '?', ';', ':', '\n'])
                    || (gap.trim().is_empty()
                        && matches!(prev.lower.as_str(), "et" | "mais" | "même"))
            }
        };
        if !opens_clause {
            continue;
        }
        // « je serais » becomes « j'étais »: the subject changes with the elision.
        let (start, replacement) = if subject.lower == "je" && starts_with_vowel(imperfect) {
            (
                subject.start,
                format!(
                    "{}'{imperfect}",
                    same_case(&text[subject.start..subject.end], "j")
                ),
            )
        } else {
            (verb.start, (*imperfect).to_string())
        };
        out.push(Finding {
            start,
            end: verb.end,
            replacement,
            explanation: format!(
                "Après « si » de condition, on emploie l'imparfait et non le conditionnel : « {} » et non « {} ».",
                imperfect, verb.lower
            ),
            source: Source::Rule,
        });
    }
}

const PLURAL_DETERMINERS: &[&str] = &[
    "les",
    "des",
    "mes",
    "tes",
    "ses",
    "nos",
    "vos",
    "leurs",
    "ces",
    "plusieurs",
    "quelques",
];

/// Words after which « les » is an object pronoun (« je les livre »).
const PRONOUN_CONTEXT: &[&str] = &[
    "je", "j", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles", "ne", "n", "me", "m",
    "te", "t", "se", "s",
];

/// « les élève », « trente personne » → plural noun.
fn plural_after_determiner(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for (i, w) in words.windows(2).enumerate() {
        let [det, noun] = w else { continue };
        let number = det.lower.parse::<u32>().is_ok_and(|n| n >= 2)
            || tags(lexicon, &det.lower).any(|t| t.starts_with(":B") && t.contains(":p"));
        if !(PLURAL_DETERMINERS.contains(&det.lower.as_str()) || number) || !joined(text, det, noun)
        {
            continue;
        }
        if text[det.end..noun.start].contains(['\'', '’'])
            || noun.lower != text[noun.start..noun.end]
        {
            continue; // an elision, or a capitalised (proper) noun
        }
        let after_pronoun = i
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|p| PRONOUN_CONTEXT.contains(&p.lower.as_str()) && joined(text, p, det));
        if det.lower == "les" && after_pronoun {
            continue;
        }
        let Some(plural) = singular_noun(lexicon, &noun.lower) else {
            continue;
        };
        // After a number, not an adverb or a preposition (« trois environ »), nor a
        // future or past verb (« quatre aura »); a noun that is also a present verb
        // stays (« dix livre », « cent élève »). « 97 virgule 5 » is a number.
        let other_word = tags(lexicon, &noun.lower).any(|t| {
            t.starts_with(":W")
                || t.starts_with(":R")
                || (t.starts_with(":V")
                    && [":If", ":K", ":Iq", ":Is"].iter().any(|x| t.contains(x)))
        });
        if number && (other_word || noun.lower == "virgule") {
            continue;
        }
        out.push(Finding {
            start: noun.start,
            end: noun.end,
            replacement: plural.to_string(),
            explanation: format!(
                "Après « {} », le nom se met au pluriel : « {} {plural} ».",
                det.lower, det.lower
            ),
            source: Source::Rule,
        });
    }
}

/// Words after which a noun phrase starts a clause (so it is the subject).
const CLAUSE_OPENERS: &[&str] = &[
    "et", "mais", "que", "qu", "quand", "lorsque", "si", "car", "donc", "où", "puisque", "ou",
    "alors",
];

/// Verbs whose third person may also be a noun (« est », « fait ») but are verbs here.
const COMMON_VERBS: &[&str] = &[
    "être", "avoir", "aller", "faire", "pouvoir", "devoir", "vouloir", "venir", "savoir", "prendre",
];

/// « les gens est », « les joueuses était » → the verb in the plural. Only for a
/// subject at the start of a clause (« la maison de mes parents est » is correct).
fn plural_subject_verb(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for (i, w) in words.windows(3).enumerate() {
        let [det, noun, verb] = w else { continue };
        if det.lower == "des" || !PLURAL_DETERMINERS.contains(&det.lower.as_str()) {
            continue;
        }
        if !joined(text, det, noun)
            || !joined(text, noun, verb)
            || text[noun.end..verb.start].contains(['\'', '’'])
        {
            continue;
        }
        let opens = match i.checked_sub(1).and_then(|p| words.get(p)) {
            None => true,
            Some(prev) => {
                let gap = &text[prev.end..det.start];
                gap.contains([',', '.', '!', '?', ';', ':', '\n'])
                    || (joined(text, prev, det) && CLAUSE_OPENERS.contains(&prev.lower.as_str()))
            }
        };
        if !opens || !plural_noun(lexicon, &noun.lower) {
            continue;
        }
        let Some(entry) = lexicon.get(&verb.lower) else {
            continue;
        };
        let Some(plural) = entry.v3p.as_deref() else {
            continue;
        };
        let lemmas: Vec<&str> = entry
            .morph
            .iter()
            .filter(|m| m.contains(":V"))
            .filter_map(|m| m.trim_start_matches('>').split_once('/').map(|(l, _)| l))
            .collect();
        let also_nominal = tags(lexicon, &verb.lower).any(nominal);
        // « les départs entre 8 h et 9 h »: also a preposition, an adverb…
        if tags(lexicon, &verb.lower)
            .any(|t| t.starts_with(":R") || t.starts_with(":W") || t.starts_with(":G"))
        {
            continue;
        }
        if also_nominal && !lemmas.iter().any(|l| COMMON_VERBS.contains(l)) {
            continue;
        }
        // « les livres a » is more often « à » than « ont »: only before a participle.
        if verb.lower == "a" {
            let participle = words.get(i + 3).is_some_and(|n| {
                joined(text, verb, n) && tags(lexicon, &n.lower).any(|t| t.contains(":Q"))
            });
            if !participle {
                continue;
            }
        }
        let subject = &text[det.start..noun.end];
        out.push(Finding {
            start: verb.start,
            end: verb.end,
            replacement: plural.to_string(),
            explanation: format!(
                "Le sujet « {subject} » est au pluriel : le verbe aussi, « {plural} »."
            ),
            source: Source::Rule,
        });
    }
}

/// Determiners that may follow « dans » with a capital (a title, « dans Le Devoir »).
const CAPITAL_DETERMINERS: &[&str] = &[
    "le", "la", "les", "l", "un", "une", "des", "mon", "ma", "mes", "son", "sa", "ses", "ce",
    "cet", "cette", "ces", "notre", "nos", "votre", "vos", "leur", "leurs",
];

/// « dans Laval » → « à Laval »: a city takes « à ».
fn dans_city(text: &str, words: &[Word], _lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for w in words.windows(2) {
        let [dans, city] = w else { continue };
        let capital = text[city.start..city.end]
            .chars()
            .next()
            .is_some_and(char::is_uppercase);
        if dans.lower != "dans" || !capital || !joined(text, dans, city) {
            continue;
        }
        if CAPITAL_DETERMINERS.contains(&city.lower.as_str())
            || text[dans.end..city.start].contains(['\'', '’'])
        {
            continue;
        }
        out.push(Finding {
            start: dans.start,
            end: city.end,
            replacement: format!(
                "{}{}{}",
                same_case(&text[dans.start..dans.end], "à"),
                &text[dans.end..city.start],
                &text[city.start..city.end]
            ),
            explanation: format!(
                "Devant un nom de ville, on emploie « à » : « à {} ».",
                &text[city.start..city.end]
            ),
            source: Source::Rule,
        });
    }
}

/// « en Toronto » → « à Toronto » (a city, Grammalecte's `#C`), « à Chine » →
/// « en Chine », « à Canada » → « au Canada » (a country, `#P`, by its gender).
fn place_prepositions(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for w in words.windows(2) {
        let [prep, place] = w else { continue };
        let capital = text[place.start..place.end]
            .chars()
            .next()
            .is_some_and(char::is_uppercase);
        if !capital
            || !joined(text, prep, place)
            || text[prep.end..place.start].contains(['\'', '’'])
        {
            continue;
        }
        let city = tags(lexicon, &place.lower).any(|t| t.ends_with("#C"));
        let country: Vec<&str> = tags(lexicon, &place.lower)
            .filter(|t| t.ends_with("#P"))
            .collect();
        let right = match prep.lower.as_str() {
            "en" if city && country.is_empty() => "à",
            "à" if !city && !country.is_empty() => {
                let vowel = starts_with_vowel(&place.lower);
                if country.iter().all(|t| t.contains(":f")) || vowel {
                    "en"
                } else if country.iter().all(|t| t.contains(":m")) {
                    "au"
                } else {
                    continue;
                }
            }
            _ => continue,
        };
        let name = &text[place.start..place.end];
        out.push(Finding {
            start: prep.start,
            end: place.end,
            replacement: format!("{}{}{name}", same_case(&text[prep.start..prep.end], right), &text[prep.end..place.start]),
            explanation: if right == "à" {
                format!("Devant un nom de ville, on emploie « à » : « à {name} ».")
            } else {
                format!("Devant un nom de pays, on emploie « en » (féminin ou voyelle) ou « au » (masculin) : « {right} {name} ».")
            },
            source: Source::Rule,
        });
    }
}

/// « la bus », « une permis » → « le bus », « un permis »: a determiner in the
/// feminine before a noun that is only masculine (Grammalecte leaves these alone
/// because « bus » and « permis » are also participles: « je la bus »).
fn masculine_noun_determiner(
    text: &str,
    words: &[Word],
    lexicon: &Lexicon,
    out: &mut Vec<Finding>,
) {
    for (i, w) in words.windows(2).enumerate() {
        let [det, noun] = w else { continue };
        let right = match det.lower.as_str() {
            "la" => "le",
            "une" => "un",
            "cette" => "ce",
            _ => continue,
        };
        if !joined(text, det, noun)
            || text[det.end..noun.start].contains(['\'', '’'])
            || starts_with_vowel(&noun.lower)
        {
            continue;
        }
        if noun.lower != text[noun.start..noun.end] {
            continue; // a capital: a name (« La Presse »)
        }
        let after_pronoun = i
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|p| PRONOUN_CONTEXT.contains(&p.lower.as_str()) && joined(text, p, det));
        if after_pronoun {
            continue;
        }
        // Only a noun: not an adjective (« la meilleur »), an adverb (« la plus »)
        // or a grammatical word.
        let all: Vec<&str> = tags(lexicon, &noun.lower).collect();
        let nouns: Vec<&&str> = all.iter().filter(|t| t.starts_with(":N")).collect();
        let other_word = all.iter().any(|t| {
            t.starts_with(":A") || t.starts_with(":W") || t.starts_with(":G") || t.contains(":Y")
        });
        // « l'une d'elles » is a pronoun; a lone letter is no noun.
        if text[..det.start].ends_with(['\'', '’']) || noun.lower.chars().count() < 2 {
            continue;
        }
        let masculine = !nouns.is_empty() && nouns.iter().all(|t| t.contains(":m"));
        if !masculine || other_word {
            continue;
        }
        let (start, replacement) = super::contract_article(text, det.start, det.end, right);
        out.push(Finding {
            start,
            end: det.end,
            replacement: same_case(&text[start..det.end], &replacement),
            explanation: format!(
                "« {} » est masculin : « {right} {} ».",
                noun.lower, noun.lower
            ),
            source: Source::Rule,
        });
    }
}

/// « je vaux que… », « il vaut maintenant écrire » → « veux », « veut »: « valoir »
/// for « vouloir ». Only before « que » or an infinitive (one adverb allowed between),
/// never « il vaut mieux » or « ça vaut la peine ».
fn valoir_for_vouloir(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for (i, w) in words.windows(2).enumerate() {
        let [subject, verb] = w else { continue };
        let right = match (subject.lower.as_str(), verb.lower.as_str()) {
            ("je" | "tu", "vaux") => "veux",
            ("il" | "elle" | "on", "vaut") => "veut",
            _ => continue,
        };
        if !joined(text, subject, verb) {
            continue;
        }
        let mut next = i + 2;
        let adverb = words.get(next).is_some_and(|n| {
            n.lower != "mieux"
                && joined(text, verb, n)
                && tags(lexicon, &n.lower).any(|t| t.starts_with(":W"))
        });
        if adverb {
            next += 1;
        }
        let Some(after) = words.get(next) else {
            continue;
        };
        let linked = joined(text, &words[next - 1], after)
            || text[words[next - 1].end..after.start].contains(['\'', '’']);
        let wants = matches!(after.lower.as_str(), "que" | "qu")
            || tags(lexicon, &after.lower).any(|t| t.contains(":Y"));
        if !linked || !wants || after.lower == "mieux" {
            continue;
        }
        out.push(Finding {
            start: verb.start,
            end: verb.end,
            replacement: right.to_string(),
            explanation: format!(
                "« {} » vient de « valoir » ; pour exprimer la volonté, c'est « vouloir » : « {} {right} ».",
                verb.lower, subject.lower
            ),
            source: Source::Rule,
        });
    }
}

/// « il organiser », « les enfants travailler » → a conjugated verb. The fix offered
/// is the present tense; the explanation says a past tense may be meant. Only after
/// a subject pronoun that cannot be an object (« nous aider » is fine) or a plural
/// noun phrase opening a clause, and only for a word that is nothing but an
/// infinitive.
fn infinitive_after_subject(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for (i, w) in words.windows(2).enumerate() {
        let [subject, verb] = w else { continue };
        if !joined(text, subject, verb) || text[subject.end..verb.start].contains(['\'', '’']) {
            continue;
        }
        let person = match subject.lower.as_str() {
            "je" => "1s",
            "tu" => "2s",
            "il" | "elle" | "on" => "3s",
            "ils" | "elles" => "3p",
            _ if i >= 1 && plural_noun(lexicon, &subject.lower) => {
                let det = &words[i - 1];
                let opens = match i.checked_sub(2).and_then(|p| words.get(p)) {
                    None => true,
                    Some(prev) => {
                        let gap = &text[prev.end..det.start];
                        gap.contains([',', '.', '!', '?', ';', ':', '\n'])
                            || (joined(text, prev, det)
                                && CLAUSE_OPENERS.contains(&prev.lower.as_str()))
                    }
                };
                let plural_det =
                    det.lower != "des" && PLURAL_DETERMINERS.contains(&det.lower.as_str());
                if !(opens && plural_det && joined(text, det, subject)) {
                    continue;
                }
                "3p"
            }
            _ => continue,
        };
        let only_infinitive = {
            let mut all = tags(lexicon, &verb.lower).peekable();
            all.peek().is_some() && all.all(|t| t.starts_with(":V") && t.contains(":Y"))
        };
        if !only_infinitive {
            continue;
        }
        let Some(conjugated) = lexicon.get(&verb.lower).and_then(|e| e.present.get(person)) else {
            continue;
        };
        if conjugated.is_empty() {
            continue;
        }
        // « je » before a vowel: « j'organise ».
        let (start, replacement) =
            if person == "1s" && subject.lower == "je" && starts_with_vowel(conjugated) {
                (
                    subject.start,
                    format!(
                        "{}'{conjugated}",
                        same_case(&text[subject.start..subject.end], "j")
                    ),
                )
            } else {
                (verb.start, conjugated.clone())
            };
        out.push(Finding {
            start,
            end: verb.end,
            replacement,
            explanation: format!(
                "Après un sujet, le verbe se conjugue : « {} » est un infinitif. Au présent : « {conjugated} » ; dans un récit au passé, employez le passé composé ou l'imparfait.",
                verb.lower
            ),
            source: Source::Rule,
        });
    }
}

/// Calques learners write word for word (each one is wrong in French wherever it occurs):
/// the phrase (lowercase words), its correction, why.
const CALQUES: &[(&[&str], &str, &str)] = &[
    (
        &["faire", "une", "décision"],
        "prendre une décision",
        "On « prend » une décision (calque de l'anglais « make a decision »).",
    ),
    (
        &["fais", "une", "décision"],
        "prends une décision",
        "On « prend » une décision (calque de l'anglais « make a decision »).",
    ),
    (
        &["faisons", "une", "décision"],
        "prenons une décision",
        "On « prend » une décision (calque de l'anglais « make a decision »).",
    ),
    (
        &["font", "une", "décision"],
        "prennent une décision",
        "On « prend » une décision (calque de l'anglais « make a decision »).",
    ),
    (
        &["faire", "des", "décisions"],
        "prendre des décisions",
        "On « prend » des décisions (calque de l'anglais « make decisions »).",
    ),
    (
        &["dans", "mon", "opinion"],
        "à mon avis",
        "En français, on dit « à mon avis » (calque de l'anglais « in my opinion »).",
    ),
    (
        &["fait", "du", "sens"],
        "a du sens",
        "En français, une chose « a du sens » (calque de l'anglais « makes sense »).",
    ),
    (
        &["faire", "du", "sens"],
        "avoir du sens",
        "En français, une chose « a du sens » (calque de l'anglais « makes sense »).",
    ),
    (
        &["très", "beaucoup"],
        "beaucoup",
        "« Beaucoup » ne se renforce pas avec « très » : on écrit « beaucoup » (ou « énormément »).",
    ),
];

/// The calques of [`CALQUES`], matched on whole words separated by spaces.
fn calques(text: &str, words: &[Word], out: &mut Vec<Finding>) {
    for (phrase, right, why) in CALQUES {
        for (i, w) in words.windows(phrase.len()).enumerate() {
            let same = w.iter().zip(phrase.iter()).all(|(a, b)| a.lower == *b);
            let spaced = w
                .windows(2)
                .all(|p| text[p[0].end..p[1].start].chars().all(|c| c == ' '));
            if !same || !spaced {
                continue;
            }
            let (start, end) = (words[i].start, words[i + phrase.len() - 1].end);
            out.push(Finding {
                start,
                end,
                replacement: same_case(&text[start..end], right),
                explanation: (*why).to_string(),
                source: Source::Rule,
            });
        }
    }
}

/// « elles son très fières », « ils son partis » → « sont »: « son » before a plural
/// adjective or participle (a possessive never is), or right after « ils », « elles ».
fn son_for_sont(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for (i, w) in words.windows(2).enumerate() {
        let [son, next] = w else { continue };
        if son.lower != "son" || !joined(text, son, next) {
            continue;
        }
        let after_subject = i
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|p| matches!(p.lower.as_str(), "ils" | "elles") && joined(text, p, son));
        let adjective = if matches!(
            next.lower.as_str(),
            "très" | "trop" | "si" | "assez" | "tellement" | "vraiment"
        ) {
            words.get(i + 2).filter(|a| joined(text, next, a))
        } else {
            Some(next)
        };
        let plural_adjective = adjective.is_some_and(|a| {
            let all: Vec<&str> = tags(lexicon, &a.lower).collect();
            !all.is_empty()
                && all
                    .iter()
                    .all(|t| t.starts_with(":A") || t.contains(":Q") || t.starts_with(":N:A"))
                && all.iter().any(|t| t.contains(":p"))
        });
        if !(after_subject || plural_adjective) {
            continue;
        }
        out.push(Finding {
            start: son.start,
            end: son.end,
            replacement: same_case(&text[son.start..son.end], "sont"),
            explanation: "« son » est un déterminant possessif (« son livre ») ; le verbe « être » s'écrit « sont » (« elles sont fières »).".into(),
            source: Source::Rule,
        });
    }
}

/// « un nouveau ami » → « un nouvel ami » (also bel, vieil) before a masculine
/// singular noun starting with a vowel (not « h », which may be aspirated).
fn nouvel_before_vowel(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for w in words.windows(2) {
        let [adjective, noun] = w else { continue };
        let right = match adjective.lower.as_str() {
            "nouveau" => "nouvel",
            "beau" => "bel",
            "vieux" => "vieil",
            _ => continue,
        };
        let vowel = noun
            .lower
            .chars()
            .next()
            .is_some_and(|c| "aeiouyâàéèêîïôûœ".contains(c));
        if !vowel
            || !joined(text, adjective, noun)
            || text[adjective.end..noun.start].contains(['\'', '’'])
        {
            continue;
        }
        let all: Vec<&str> = tags(lexicon, &noun.lower).collect();
        let masculine_singular_noun = all
            .iter()
            .any(|t| t.starts_with(":N") && (t.contains(":m") || t.contains(":e")))
            && !all.iter().any(|t| {
                t.contains(":p")
                    || t.starts_with(":W")
                    || t.starts_with(":G")
                    || t.starts_with(":V")
            });
        if !masculine_singular_noun {
            continue;
        }
        out.push(Finding {
            start: adjective.start,
            end: adjective.end,
            replacement: same_case(&text[adjective.start..adjective.end], right),
            explanation: format!(
                "Devant un nom masculin qui commence par une voyelle, « {} » devient « {right} » : « {right} {} ».",
                adjective.lower, noun.lower
            ),
            source: Source::Rule,
        });
    }
}

/// Modal and semi-auxiliary forms followed by an infinitive.
const MODALS: &[&str] = &[
    "peux", "peut", "pouvons", "pouvez", "peuvent", "dois", "doit", "devons", "devez", "doivent",
    "veux", "veut", "voulons", "voulez", "veulent", "vais", "vas", "va", "allons", "allez", "vont",
    "faut",
];

/// « ce filtre peut nettoyé l'eau » → « nettoyer »: after « pouvoir », « devoir »,
/// « vouloir », « aller » or « il faut », a first-group verb is an infinitive, not a
/// participle (« peut être nettoyé » is left alone: « être » comes between).
fn participle_after_modal(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for w in words.windows(2) {
        let [modal, participle] = w else { continue };
        if !MODALS.contains(&modal.lower.as_str()) || !joined(text, modal, participle) {
            continue;
        }
        if text[modal.end..participle.start].contains(['\'', '’'])
            || !participle.lower.ends_with('é')
        {
            continue;
        }
        let Some(entry) = lexicon.get(&participle.lower) else {
            continue;
        };
        let infinitive = entry.morph.iter().find_map(|m| {
            let (lemma, tags) = m.trim_start_matches('>').split_once('/')?;
            (tags.starts_with(":V1") && tags.contains(":Q") && lemma.ends_with("er"))
                .then_some(lemma)
        });
        let only_verb = entry.morph.iter().all(|m| m.contains("/:V"));
        let Some(infinitive) = infinitive.filter(|_| only_verb) else {
            continue;
        };
        out.push(Finding {
            start: participle.start,
            end: participle.end,
            replacement: infinitive.to_string(),
            explanation: format!(
                "Après « {} », le verbe est à l'infinitif : « {infinitive} » (et non le participe « {} »).",
                modal.lower, participle.lower
            ),
            source: Source::Rule,
        });
    }
}

/// The verb tag of a participle (`:V1_it_q__a:Q:A:m:s` → `V1_it_q__a`), if it is one.
fn participle_verb_tag<'a>(lexicon: &'a Lexicon, word: &str) -> Option<(&'a str, &'a str)> {
    tags(lexicon, word)
        .find(|t| t.starts_with(":V") && t.contains(":Q"))
        .map(|t| {
            let verb = t[1..].split(':').next().unwrap_or("");
            (verb, t)
        })
}

/// « les habitants sont eu peur », « les villes qui sont essayé » → « ont »: a
/// participle left in the masculine singular after « sont », of a verb conjugated
/// with « avoir » only (not « aller », « venir »…), not reflexive (« se sont »).
fn sont_with_avoir_verb(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for (i, w) in words.windows(2).enumerate() {
        let [aux, participle] = w else { continue };
        if aux.lower != "sont" || !joined(text, aux, participle) {
            continue;
        }
        let reflexive = i
            .checked_sub(1)
            .and_then(|p| words.get(p))
            .is_some_and(|p| {
                matches!(p.lower.as_str(), "se" | "s" | "nous" | "vous" | "me" | "te")
            });
        if reflexive {
            continue;
        }
        let Some((verb, tag)) = participle_verb_tag(lexicon, &participle.lower) else {
            continue;
        };
        // Grammalecte's verb tags end with « a » for avoir; « e » marks être.
        let avoir_only = verb.ends_with('a') && !verb.contains('e');
        let bare = tag.contains(":m:s") || tag.contains(":e:s");
        let also_other = tags(lexicon, &participle.lower).any(|t| nominal(t) && !t.contains(":Q"));
        if !avoir_only || !bare || also_other {
            continue;
        }
        out.push(Finding {
            start: aux.start,
            end: aux.end,
            replacement: same_case(&text[aux.start..aux.end], "ont"),
            explanation: format!(
                "« {} » se conjugue avec l'auxiliaire « avoir » : « ont {} ».",
                participle.lower, participle.lower
            ),
            source: Source::Rule,
        });
    }
}

/// « beaucoup de famille attendaient » → « familles »: after « beaucoup de », a noun
/// followed by a plural verb is plural (« beaucoup de temps passe » is left alone).
fn beaucoup_de_plural(text: &str, words: &[Word], lexicon: &Lexicon, out: &mut Vec<Finding>) {
    for w in words.windows(4) {
        let [adverb, de, noun, verb] = w else {
            continue;
        };
        if !matches!(
            adverb.lower.as_str(),
            "beaucoup" | "peu" | "trop" | "assez" | "combien"
        ) || !matches!(de.lower.as_str(), "de" | "d")
            || !joined(text, adverb, de)
            || !joined(text, de, noun)
            || !joined(text, noun, verb)
        {
            continue;
        }
        let plural_verb = tags(lexicon, &verb.lower)
            .any(|t| t.starts_with(":V") && t.contains(":3p"))
            && !tags(lexicon, &verb.lower).any(nominal);
        let Some(plural) = singular_noun(lexicon, &noun.lower) else {
            continue;
        };
        if !plural_verb {
            continue;
        }
        out.push(Finding {
            start: noun.start,
            end: noun.end,
            replacement: plural.to_string(),
            explanation: format!(
                "Après « {} de », on compte : le nom se met au pluriel, « {plural} », comme le verbe.",
                adverb.lower
            ),
            source: Source::Rule,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word, its morphologies, its third person plural and its plural.
    type Entry<'a> = (&'a str, &'a [&'a str], Option<&'a str>, Option<&'a str>);

    fn lexicon(entries: &[Entry<'_>]) -> Lexicon {
        entries
            .iter()
            .map(|(w, morph, v3p, pl)| {
                let entry = LexEntry {
                    morph: morph.iter().map(|m| (*m).to_string()).collect(),
                    v3p: v3p.map(str::to_string),
                    pl: pl.map(str::to_string),
                    present: Default::default(),
                };
                ((*w).to_string(), entry)
            })
            .collect()
    }

    fn sample_lexicon() -> Lexicon {
        lexicon(&[
            (
                "les",
                &[">les/:G:D:e:p/*", ">les/:G:Oo:Ov:e:p/*"],
                None,
                None,
            ),
            (
                "élève",
                &[">élève/:N:e:s/*", ">élever/:V1__tnq__a:Ip:Sp:1s:3s/*"],
                Some("élèvent"),
                Some("élèves"),
            ),
            (
                "personne",
                &[">personne/:N:f:s/*", ">personne/:G:On:m:s/*"],
                None,
                Some("personnes"),
            ),
            ("trente", &[">trente/:B:e:p/*"], None, None),
            ("gens", &[">gens/:N:e:p/*"], None, None),
            (
                "est",
                &[">est/:N:m:s/*", ">être/:V0ei_____a:Ip:3s/*"],
                Some("sont"),
                None,
            ),
            ("loyers", &[">loyer/:N:m:p/*"], None, None),
            (
                "augmente",
                &[">augmenter/:V1_it_q__a:Ip:Sp:1s:3s/*"],
                Some("augmentent"),
                None,
            ),
            ("parents", &[">parent/:N:A:m:p/*"], None, None),
            ("maison", &[">maison/:N:f:s/*"], None, Some("maisons")),
            ("grands", &[">grand/:N:A:m:p/*"], None, None),
            (
                "marche",
                &[">marche/:N:f:s/*", ">marcher/:V1_i_____a:Ip:Sp:1s:3s/*"],
                Some("marchent"),
                Some("marches"),
            ),
            ("livres", &[">livre/:N:e:p/*"], None, None),
            (
                "a",
                &[">a/:N:m:i/*", ">avoir/:V0ait____a:Ip:3s/*"],
                Some("ont"),
                None,
            ),
            ("donné", &[">donner/:V1_itnq__a:Q:A:m:s/*"], None, None),
            ("eu", &[">avoir/:V0ait____a:Q:A:m:s/*"], None, None),
            ("venu", &[">venir/:V3_i__e_e_:Q:A:m:s/*"], None, None),
            ("essayées", &[">essayer/:V1_it_q__a:Q:A:f:p/*"], None, None),
            ("famille", &[">famille/:N:f:s/*"], None, Some("familles")),
            (
                "attendaient",
                &[">attendre/:V3_itxq__a:Iq:3p/*"],
                None,
                None,
            ),
            ("temps", &[">temps/:N:m:i/*"], None, None),
            (
                "passe",
                &[">passer/:V1_itnq_zz:Ip:Sp:1s:3s/*", ">passe/:N:f:s/*"],
                Some("passent"),
                Some("passes"),
            ),
            (
                "mille",
                &[">mille/:B:e:p/*", ">mille/:N:m:s/*"],
                None,
                Some("milles"),
            ),
            ("dix", &[">dix/:B:e:p/*"], None, None),
            ("avril", &[">avril/:N:m:s/*"], None, Some("avrils")),
            ("un", &[">un/:G:D:m:s/*", ">un/:N:m:i/*"], None, None),
            ("ses", &[">son/:G:Dp:e:p/*"], None, None),
            ("toronto", &[">Toronto/:MP:e:i#C/*"], None, None),
            (
                "chine",
                &[">Chine/:N:f:i#P/*", ">chine/:N:e:s/*"],
                None,
                None,
            ),
            (
                "canada",
                &[">Canada/:N:m:i#P/*", ">canada/:N:f:s/*"],
                None,
                None,
            ),
            (
                "bus",
                &[
                    ">bus/:N:m:i/*",
                    ">boire/:V3_it_x__a:Q:A:m:p/*",
                    ">boire/:V3_it_x__a:Is:1s:2s/*",
                ],
                None,
                None,
            ),
            ("maire", &[">maire/:N:e:s/*"], None, Some("maires")),
            ("voiture", &[">voiture/:N:f:s/*"], None, Some("voitures")),
            ("plus", &[">plus/:W/*", ">plus/:N:m:i/*"], None, None),
            (
                "meilleur",
                &[">meilleur/:A:m:s/*", ">meilleur/:N:m:s/*"],
                None,
                Some("meilleurs"),
            ),
            ("lait", &[">lait/:N:m:s/*"], None, Some("laits")),
            (
                "boire",
                &[">boire/:N:m:s/*", ">boire/:V3_it_x__a:Y/*"],
                None,
                Some("boires"),
            ),
            (
                "aura",
                &[">aura/:N:f:s/*", ">avoir/:V0ait____a:If:3s/*"],
                Some("auront"),
                Some("auras"),
            ),
            (
                "entre",
                &[">entre/:R/*", ">entrer/:V1_i__e_e_:Ip:Sp:1s:3s/*"],
                Some("entrent"),
                None,
            ),
            ("départs", &[">départ/:N:m:p/*"], None, None),
            ("vaut", &[">valoir/:V3_it_x__a:Ip:3s/*"], None, None),
            ("vaux", &[">valoir/:V3_it_x__a:Ip:1s:2s/*"], None, None),
            (
                "maintenant",
                &[">maintenant/:W/*", ">maintenir/:V3_it_q__a:P/*"],
                None,
                None,
            ),
            ("écrire", &[">écrire/:V3_itnq__a:Y/*"], None, None),
            ("mieux", &[">mieux/:G:W/*"], None, None),
            ("partir", &[">partir/:V3_i__e_e_:Y/*"], None, None),
            ("fières", &[">fier/:A:f:p/*"], None, None),
            ("nettoyé", &[">nettoyer/:V1_it_q__a:Q:A:m:s/*"], None, None),
            ("âgé", &[">âgé/:A:m:s/*"], None, None),
            ("grand", &[">grand/:N:A:m:s/*"], None, Some("grands")),
            ("ami", &[">ami/:N:m:s/*"], None, Some("amis")),
            ("amis", &[">ami/:N:m:p/*"], None, None),
            ("aujourd", &[">aujourd/:W/*"], None, None),
        ])
    }

    fn apply(text: &str) -> String {
        apply_with(text, &Lexicon::new())
    }

    fn apply_with(text: &str, lexicon: &Lexicon) -> String {
        let mut out = text.to_string();
        for f in find(text, lexicon).iter().rev() {
            out.replace_range(f.start..f.end, &f.replacement);
        }
        out
    }

    #[test]
    fn age_takes_avoir() {
        assert_eq!(
            apply("Je suis 25 ans et mon frère, il est trente ans."),
            "J'ai 25 ans et mon frère, il a trente ans."
        );
        assert_eq!(
            apply("Nous sommes vingt-deux ans."),
            "Nous avons vingt-deux ans."
        );
        for correct in [
            "J'ai 25 ans.",
            "Je suis arrivé il y a 25 ans.",
            "Je suis à 25 km.",
            "Il est 10 heures.",
        ] {
            assert!(find(correct, &Lexicon::new()).is_empty(), "{correct}");
        }
    }

    #[test]
    fn beaucoup_takes_de() {
        assert_eq!(
            apply("Il y a beaucoup des problèmes."),
            "Il y a beaucoup de problèmes."
        );
        assert_eq!(
            apply("Il y a trop des accidents."),
            "Il y a trop d'accidents."
        );
        for correct in [
            "Il y a beaucoup de problèmes.",
            "Beaucoup d'amis sont venus.",
            "Il en parle beaucoup. Des amis arrivent.",
        ] {
            assert!(find(correct, &Lexicon::new()).is_empty(), "{correct}");
        }
    }

    #[test]
    fn de_les_contracts_before_a_plural_noun() {
        assert_eq!(
            apply("Je parle de les enfants et à les parents."),
            "Je parle des enfants et aux parents."
        );
        for correct in [
            "J'ai peur de les voir.",
            "Il faut les aider à les comprendre.",
            "Je parle des enfants.",
        ] {
            assert!(find(correct, &Lexicon::new()).is_empty(), "{correct}");
        }
    }

    #[test]
    fn si_takes_the_imperfect() {
        assert_eq!(
            apply("Si j'aurais de l'argent, je voyagerais."),
            "Si j'avais de l'argent, je voyagerais."
        );
        assert_eq!(
            apply("Même si je serais riche, je travaillerais."),
            "Même si j'étais riche, je travaillerais."
        );
        assert_eq!(apply("Et s'il pourrait venir ?"), "Et s'il pouvait venir ?");
        for correct in [
            "Si j'avais de l'argent, je voyagerais.",
            "Je me demande si j'aurais le temps.",
            "Je ne sais pas si elle serait d'accord.",
        ] {
            assert!(find(correct, &Lexicon::new()).is_empty(), "{correct}");
        }
    }

    #[test]
    fn a_plural_determiner_takes_a_plural_noun() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("En classe, les élève lisent.", &lex),
            "En classe, les élèves lisent."
        );
        assert_eq!(
            apply_with("Trente personne sont venues.", &lex),
            "Trente personnes sont venues."
        );
        for correct in [
            "Dans quatre aura lieu la fête.",
            "Les départs entre midi et deux.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
        for correct in [
            "Je les élève seule.",
            "Une personne est venue.",
            "Les gens sont là.",
            "Les Martin arrivent.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn a_plural_subject_takes_a_plural_verb() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("Les gens est contents.", &lex),
            "Les gens sont contents."
        );
        assert_eq!(
            apply_with("Mais les loyers augmente.", &lex),
            "Mais les loyers augmentent."
        );
        assert_eq!(
            apply_with("Ici, les livres a donné envie.", &lex),
            "Ici, les livres ont donné envie."
        );
        for correct in [
            "La maison de mes parents est grande.",
            "Les grands marche du samedi.",
            "Il donne les livres a Marie.",
            "Les gens sont contents.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn numbers_dates_and_determiners_are_not_nouns() {
        let lex = sample_lexicon();
        for correct in [
            "Il y a dix mille habitants.",
            "Le 12 avril, il pleut.",
            "Mais ses un peu lourds…",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn sont_before_an_avoir_participle_becomes_ont() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("Les habitants sont eu peur.", &lex),
            "Les habitants ont eu peur."
        );
        for correct in [
            "Ils sont venu vite.",
            "Elles se sont essayées au chant.",
            "Les robes sont essayées.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn beaucoup_de_before_a_plural_verb_takes_a_plural_noun() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("Beaucoup de famille attendaient.", &lex),
            "Beaucoup de familles attendaient."
        );
        for correct in [
            "Beaucoup de temps passe.",
            "Beaucoup de familles attendaient.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn places_take_their_preposition() {
        let lex = sample_lexicon();
        assert_eq!(apply_with("Il vit en Toronto.", &lex), "Il vit à Toronto.");
        assert_eq!(
            apply_with("Je suis né à Chine.", &lex),
            "Je suis né en Chine."
        );
        for correct in [
            "Il vit à Toronto.",
            "Je suis né en Chine.",
            "Il vit au Canada.",
            "Il pense à Marie.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn a_masculine_noun_takes_a_masculine_determiner() {
        let lex = sample_lexicon();
        assert_eq!(apply_with("Je prends la bus.", &lex), "Je prends le bus.");
        assert_eq!(
            apply_with("Un verre de la lait.", &lex),
            "Un verre du lait."
        );
        for correct in ["Il faut la boire.", "L'une d'elles."] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
        for correct in [
            "Je prends le bus.",
            "La plus belle.",
            "La meilleur solution.",
            "La maire parle.",
            "Une voiture passe.",
            "Je la bus d'un trait.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn valoir_before_que_or_an_infinitive_is_vouloir() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("Il vaut maintenant écrire.", &lex),
            "Il veut maintenant écrire."
        );
        assert_eq!(
            apply_with("Je vaux que tu viennes.", &lex),
            "Je veux que tu viennes."
        );
        for correct in [
            "Il vaut mieux partir.",
            "Ça vaut la peine.",
            "Il vaut cent dollars.",
            "Je veux écrire.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn a_subject_takes_a_conjugated_verb() {
        let mut lex = sample_lexicon();
        let present = |forms: [&str; 4]| {
            ["1s", "2s", "3s", "3p"]
                .iter()
                .zip(forms)
                .map(|(p, f)| ((*p).to_string(), f.to_string()))
                .collect()
        };
        lex.insert(
            "organiser".into(),
            LexEntry {
                morph: vec![">organiser/:V1_it_q__a:Y/*".into()],
                present: present(["organise", "organises", "organise", "organisent"]),
                ..LexEntry::default()
            },
        );
        lex.insert(
            "aider".into(),
            LexEntry {
                morph: vec![">aider/:V1_it_q__a:Y/*".into()],
                present: present(["aide", "aides", "aide", "aident"]),
                ..LexEntry::default()
            },
        );
        assert_eq!(
            apply_with("Le maire rit et il organiser une fête.", &lex),
            "Le maire rit et il organise une fête."
        );
        assert_eq!(
            apply_with("Hier, je organiser tout.", &lex),
            "Hier, j'organise tout."
        );
        assert_eq!(
            apply_with("Et les parents aider.", &lex),
            "Et les parents aident."
        );
        for correct in [
            "Il vient nous aider.",
            "Pour vous aider.",
            "Il va organiser une fête.",
            "Il faut les aider.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn calques_are_translated() {
        assert_eq!(
            apply("Il faut faire une décision."),
            "Il faut prendre une décision."
        );
        assert_eq!(apply("Dans mon opinion, non."), "À mon avis, non.");
        assert_eq!(apply("Ils aiment très beaucoup."), "Ils aiment beaucoup.");
        for correct in [
            "Il faut prendre une décision.",
            "À mon avis, non.",
            "Il aime beaucoup, très.",
        ] {
            assert!(find(correct, &Lexicon::new()).is_empty(), "{correct}");
        }
    }

    #[test]
    fn son_before_a_plural_adjective_is_sont() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("Elles son très fières.", &lex),
            "Elles sont très fières."
        );
        assert_eq!(
            apply_with("Les filles son très fières.", &lex),
            "Les filles sont très fières."
        );
        for correct in [
            "Son très grand ami.",
            "Elles sont très fières.",
            "Il aime son ami.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn nouveau_before_a_vowel_is_nouvel() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("J'ai un nouveau ami.", &lex),
            "J'ai un nouvel ami."
        );
        for correct in [
            "J'ai un nouvel ami.",
            "De nouveaux amis.",
            "Ses vieux amis.",
            "Il fait beau aujourd'hui.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn a_modal_takes_an_infinitive() {
        let lex = sample_lexicon();
        assert_eq!(
            apply_with("Ce filtre peut nettoyé l'eau.", &lex),
            "Ce filtre peut nettoyer l'eau."
        );
        for correct in [
            "Ce filtre peut nettoyer l'eau.",
            "L'eau peut être nettoyé.",
            "Il va âgé.",
        ] {
            assert!(find(correct, &lex).is_empty(), "{correct}");
        }
    }

    #[test]
    fn a_city_takes_a() {
        assert_eq!(apply("Ils habitent dans Laval."), "Ils habitent à Laval.");
        for correct in [
            "Je l'ai lu dans Le Devoir.",
            "Il habite à Laval.",
            "Dans la ville de Laval.",
        ] {
            assert!(find(correct, &Lexicon::new()).is_empty(), "{correct}");
        }
    }

    #[test]
    fn words_split_on_apostrophes_and_keep_hyphens() {
        let w: Vec<String> = words("J'ai vingt-deux ans, l'été.")
            .into_iter()
            .map(|w| w.lower)
            .collect();
        assert_eq!(w, ["j", "ai", "vingt-deux", "ans", "l", "été"]);
    }
}
