//! Hand-written rules for frequent learner errors that Grammalecte 2.1.2 misses
//! (checked by hand on Grammalecte first: it already catches « je ai », « les gens
//! était », « parce-que », « à le »):
//! - « je suis 25 ans » → « j'ai 25 ans » (age with avoir);
//! - « il y a beaucoup des problèmes » → « beaucoup de problèmes »;
//! - « de les enfants » → « des enfants », « à les enfants » → « aux enfants »;
//! - « si j'aurais » → « si j'avais » (no conditional after a condition's si).
//!
//! Each rule is deliberately narrow (precision before recall) and unit-tested with a
//! correct sentence it must leave alone.

use super::{Finding, Source};

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

/// All rule findings for a text, in text order.
pub(crate) fn find(text: &str) -> Vec<Finding> {
    let words = words(text);
    let mut out = Vec::new();
    age_with_etre(text, &words, &mut out);
    beaucoup_des(text, &words, &mut out);
    de_les(text, &words, &mut out);
    si_conditional(text, &words, &mut out);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str) -> String {
        let mut out = text.to_string();
        for f in find(text).iter().rev() {
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
            assert!(find(correct).is_empty(), "{correct}");
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
            assert!(find(correct).is_empty(), "{correct}");
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
            assert!(find(correct).is_empty(), "{correct}");
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
            assert!(find(correct).is_empty(), "{correct}");
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
