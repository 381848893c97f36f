//! General feedback on a written answer, from what can be measured in the text:
//! paragraphs, length against the task, connectors, vocabulary variety, sentence
//! lengths, and the task's own requirements (section A: a positive ending; section B:
//! a letter with at least three arguments). Pure and in French; it never claims what
//! it did not measure.

use super::writing::{Section, word_count as spec_word_count, word_range};

/// Logical connectors a TEF examiner looks for.
pub const CONNECTORS: &[&str] = &[
    "d'abord",
    "tout d'abord",
    "premièrement",
    "ensuite",
    "puis",
    "de plus",
    "en outre",
    "par ailleurs",
    "en effet",
    "cependant",
    "pourtant",
    "toutefois",
    "néanmoins",
    "en revanche",
    "par contre",
    "mais",
    "par conséquent",
    "c'est pourquoi",
    "donc",
    "ainsi",
    "car",
    "puisque",
    "parce que",
    "grâce à",
    "à cause de",
    "bien que",
    "même si",
    "alors que",
    "tandis que",
    "pendant que",
    "soudain",
    "finalement",
    "enfin",
    "en conclusion",
    "pour conclure",
    "en somme",
];

/// Connectors suggested when few are used, by section (most useful first).
const SUGGESTED_A: &[&str] = &[
    "d'abord",
    "ensuite",
    "soudain",
    "pendant que",
    "heureusement",
    "finalement",
    "enfin",
];
const SUGGESTED_B: &[&str] = &[
    "tout d'abord",
    "de plus",
    "en effet",
    "cependant",
    "par conséquent",
    "bien que",
    "en conclusion",
];

/// Markers that open an argument in a letter (section B).
const ARGUMENT_MARKERS: &[&str] = &[
    "d'abord",
    "premièrement",
    "en premier lieu",
    "ensuite",
    "deuxièmement",
    "en second lieu",
    "de plus",
    "en outre",
    "par ailleurs",
    "troisièmement",
    "d'autre part",
    "enfin",
    "finalement",
    "aussi",
];

/// Words of a happy ending (section A), looked for in the last paragraph.
const POSITIVE: &[&str] = &[
    "heureusement",
    "heureux",
    "heureuse",
    "heureuses",
    "enfin",
    "joie",
    "content",
    "contente",
    "contents",
    "soulagé",
    "soulagée",
    "soulagés",
    "soulagement",
    "sourire",
    "souriant",
    "merci",
    "remercié",
    "remercier",
    "bonne nouvelle",
    "sain et sauf",
    "saine et sauve",
    "sains et saufs",
    "retrouvé",
    "retrouvée",
    "retrouvés",
    "sauvé",
    "sauvée",
    "sauvés",
    "félicité",
    "bravo",
    "fête",
    "ravi",
    "ravie",
    "rassuré",
    "rassurée",
    "bonheur",
    "happy end",
    "tout est bien",
    "fin heureuse",
    "réconcilié",
    "guéri",
    "guérie",
    "fier",
    "fière",
    "fiers",
    "fières",
    "rire",
    "rires",
    "sourit",
    "souriait",
    "célébrer",
    "célébré",
    "réussi",
    "réussite",
    "victoire",
    "applaudi",
    "applaudissements",
    "formidable",
    "merveilleux",
    "merveilleuse",
    "magnifique",
    "chance",
    "reconnaissant",
    "reconnaissante",
];

const GREETINGS: &[&str] = &[
    "madame",
    "monsieur",
    "cher ",
    "chère ",
    "chers ",
    "bonjour",
    "à l'attention",
];

const CLOSINGS: &[&str] = &[
    "veuillez agréer",
    "je vous prie d'agréer",
    "salutations",
    "sentiments",
    "cordialement",
    "bien à vous",
    "respectueusement",
    "avec mes remerciements",
    "dans l'attente",
];

/// Short grammatical words left out of the repetition check.
const STOP_WORDS: &[&str] = &[
    "alors", "aussi", "avec", "avoir", "cela", "cette", "comme", "dans", "elle", "elles", "être",
    "leur", "leurs", "mais", "nous", "pour", "sont", "tout", "tous", "vous", "très", "plus",
    "était", "avait", "sans", "sous", "être", "parce", "quand", "même", "donc", "entre", "faire",
    "fait", "votre", "notre", "nos", "ces", "ses", "mes", "aux", "ont", "est", "pas", "que", "qui",
    "une", "des", "les", "par", "sur", "ils", "moi", "lui", "dont",
];

/// What is measured in a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Measures {
    /// Non-empty lines (paragraphs, greeting and signature lines included).
    pub paragraphs: usize,
    /// Words as the spec counts them (whitespace-separated, `writing::word_count`).
    pub words: usize,
    /// Connectors found, in the order of [`CONNECTORS`].
    pub connectors: Vec<&'static str>,
    /// Distinct lowercase words / all words (words split on apostrophes too).
    pub type_token_ratio: f64,
    /// Content words used four times or more, with their counts, most frequent first.
    pub repeated: Vec<(String, usize)>,
    /// Number of sentences, their mean length in words and the standard deviation.
    pub sentences: usize,
    pub sentence_mean: f64,
    pub sentence_spread: f64,
    /// Section A: positive words found in the last paragraph.
    pub positive_ending: Vec<&'static str>,
    /// Section B: a greeting in the first paragraph, a closing formula at the end.
    pub greeting: bool,
    pub closing: bool,
    /// Section B: argument markers found, and body paragraphs (without greeting,
    /// closing formula and signature lines).
    pub argument_markers: Vec<&'static str>,
    pub body_paragraphs: usize,
}

impl Measures {
    /// Arguments counted: the markers found, or the body paragraphs between the
    /// introduction and the conclusion, whichever is larger.
    pub fn arguments(&self) -> usize {
        self.argument_markers
            .len()
            .max(self.body_paragraphs.saturating_sub(2))
    }
}

/// Lowercase with straight apostrophes and single spaces, padded for whole-word search.
fn normalise(text: &str) -> String {
    let lower = text.to_lowercase().replace('’', "'");
    let mut out = String::with_capacity(lower.len() + 2);
    out.push(' ');
    for c in lower.chars() {
        if c.is_alphanumeric() || c == '\'' || c == '-' {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Whether a normalised text contains this expression as whole words.
fn has(normalised: &str, expression: &str) -> bool {
    let expression = normalise(expression);
    normalised.contains(&expression)
        || (expression.trim_end().ends_with('\'') && normalised.contains(expression.trim_end()))
}

fn found(normalised: &str, list: &[&'static str]) -> Vec<&'static str> {
    list.iter()
        .copied()
        .filter(|e| has(normalised, e))
        .collect()
}

fn paragraphs(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

fn word_count(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// Lowercase words, split on anything that is not a letter, digit or hyphen.
fn lexical_words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(str::to_string)
        .collect()
}

/// Word counts of the sentences (split on . ! ? … and line breaks).
fn sentence_lengths(text: &str) -> Vec<usize> {
    text.split(['.', '!', '?', '…', '\n'])
        .map(word_count)
        .filter(|n| *n > 0)
        .collect()
}

fn is_greeting(paragraph: &str) -> bool {
    let n = normalise(paragraph);
    word_count(paragraph) <= 8
        && GREETINGS
            .iter()
            .any(|g| n.contains(&format!(" {}", g.trim_end())))
}

fn is_closing(paragraph: &str) -> bool {
    let n = normalise(paragraph);
    CLOSINGS.iter().any(|c| has(&n, c))
}

/// Measures a text (see [`Measures`]).
pub fn measure(section: Section, text: &str) -> Measures {
    let paras = paragraphs(text);
    let normalised = normalise(text);
    let words = lexical_words(text);
    let distinct: std::collections::HashSet<&str> = words.iter().map(String::as_str).collect();
    let type_token_ratio = if words.is_empty() {
        0.0
    } else {
        distinct.len() as f64 / words.len() as f64
    };
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for w in &words {
        if w.chars().count() >= 4 && !STOP_WORDS.contains(&w.as_str()) {
            *counts.entry(w.as_str()).or_default() += 1;
        }
    }
    let mut repeated: Vec<(&str, usize)> = counts.into_iter().filter(|(_, n)| *n >= 4).collect();
    repeated.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let lengths = sentence_lengths(text);
    let sentences = lengths.len();
    let sentence_mean = if sentences == 0 {
        0.0
    } else {
        lengths.iter().sum::<usize>() as f64 / sentences as f64
    };
    let sentence_spread = if sentences == 0 {
        0.0
    } else {
        (lengths
            .iter()
            .map(|n| (*n as f64 - sentence_mean).powi(2))
            .sum::<f64>()
            / sentences as f64)
            .sqrt()
    };
    let last = paras.last().map(|p| normalise(p)).unwrap_or_default();
    let positive_ending = match section {
        Section::A => {
            // The last paragraph of the story (a short sign-off line counts with the one before).
            let tail = if paras.len() >= 2 && word_count(paras[paras.len() - 1]) < 6 {
                normalise(&format!(
                    "{} {}",
                    paras[paras.len() - 2],
                    paras[paras.len() - 1]
                ))
            } else {
                last
            };
            found(&tail, POSITIVE)
        }
        Section::B => Vec::new(),
    };
    let greeting = paras.first().is_some_and(|p| is_greeting(p));
    let closing_at = paras.iter().rposition(|p| is_closing(p));
    let closing = closing_at.is_some_and(|i| i + 3 >= paras.len());
    let body_start = usize::from(greeting);
    let body_end = closing_at.unwrap_or(paras.len()).max(body_start);
    let body_paragraphs = paras[body_start..body_end]
        .iter()
        .filter(|p| word_count(p) >= 8)
        .count();
    let argument_markers = match section {
        Section::A => Vec::new(),
        Section::B => found(&normalised, ARGUMENT_MARKERS),
    };
    Measures {
        paragraphs: paras.len(),
        words: spec_word_count(text),
        connectors: found(&normalised, CONNECTORS),
        type_token_ratio,
        repeated: repeated
            .into_iter()
            .take(3)
            .map(|(w, n)| (w.to_string(), n))
            .collect(),
        sentences,
        sentence_mean,
        sentence_spread,
        positive_ending,
        greeting,
        closing,
        argument_markers,
        body_paragraphs,
    }
}

fn quoted(list: &[&str]) -> String {
    list.iter()
        .map(|w| format!("« {w} »"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// General feedback in French: several short paragraphs of one or two sentences.
pub fn general_feedback(section: Section, text: &str, corrections_count: usize) -> String {
    let m = measure(section, text);
    let mut out: Vec<String> = Vec::new();
    let (low, high) = word_range(section);
    // Section A asks at least 80 words in practice; section B about 200, so its whole range is fine.
    let target = match section {
        Section::A => 80,
        Section::B => low,
    };

    // Length.
    out.push(if m.words == 0 {
        "Le texte est vide : écrivez votre réponse pour recevoir un retour.".to_string()
    } else if m.words < low {
        format!(
            "Votre texte compte {} mots, moins que les {low} à {high} demandés : développez vos idées pour atteindre au moins {target} mots.",
            m.words
        )
    } else if m.words > high {
        format!(
            "Votre texte compte {} mots, plus que les {low} à {high} demandés : resserrez-le, car la longueur fait partie de la consigne.",
            m.words
        )
    } else if m.words < target {
        format!("Votre texte compte {} mots, dans la fourchette de {low} à {high} ; visez au moins {target} mots.", m.words)
    } else {
        format!("Bonne longueur : {} mots, dans la fourchette de {low} à {high} mots demandée.", m.words)
    });
    if m.words == 0 {
        return out.join("\n\n");
    }

    // Paragraphs.
    let wanted = match section {
        Section::A => 3,
        Section::B => 4,
    };
    // A letter's greeting, closing formula and signature are not paragraphs of its body.
    let (paragraphs, what) = match section {
        Section::A => (m.paragraphs, "Le texte est organisé"),
        Section::B => (
            m.body_paragraphs.max(1),
            "Le corps de la lettre est organisé",
        ),
    };
    out.push(if paragraphs >= wanted {
        format!("{what} en {paragraphs} paragraphes, ce qui le rend facile à suivre.")
    } else if paragraphs <= 1 {
        match section {
            Section::A => "Le texte tient en un seul bloc : séparez les étapes de l'histoire en plusieurs paragraphes.".into(),
            Section::B => "Le texte tient en un seul bloc : une lettre se présente en paragraphes (formule d'appel, un paragraphe par argument, formule de politesse).".into(),
        }
    } else {
        format!("{what} en {paragraphs} paragraphes ; un paragraphe par idée rendrait la structure plus claire.")
    });

    // Task requirements.
    match section {
        Section::A => out.push(if m.positive_ending.is_empty() {
            "La consigne demande une fin positive : je n'ai pas trouvé de mot positif dans le dernier paragraphe (par exemple « heureusement », « soulagé », « content »).".into()
        } else {
            format!("La fin est positive, comme le demande la consigne ({}).", quoted(&m.positive_ending))
        }),
        Section::B => {
            let arguments = m.arguments();
            out.push(if arguments >= 3 {
                format!(
                    "J'ai compté au moins trois arguments (marqueurs d'argument ou paragraphes), comme le demande la consigne{}.",
                    if m.argument_markers.is_empty() { String::new() } else { format!(" : {}", quoted(&m.argument_markers)) }
                )
            } else {
                format!(
                    "La consigne demande au moins trois arguments ; j'en ai repéré {arguments}. Annoncez chacun dans son paragraphe avec « d'abord », « de plus », « enfin »."
                )
            });
            out.push(match (m.greeting, m.closing) {
                (true, true) => "La forme de la lettre est respectée : formule d'appel au début et formule de politesse à la fin.".into(),
                (false, true) => "Commencez la lettre par une formule d'appel, par exemple « Madame, Monsieur, ».".into(),
                (true, false) => "Terminez la lettre par une formule de politesse, par exemple « Veuillez agréer, Madame, Monsieur, l'expression de mes salutations distinguées. ».".into(),
                (false, false) => "Donnez au texte la forme d'une lettre : « Madame, Monsieur, » au début et une formule de politesse à la fin.".into(),
            });
        }
    }

    // Connectors.
    let suggested: Vec<&str> = match section {
        Section::A => SUGGESTED_A,
        Section::B => SUGGESTED_B,
    }
    .iter()
    .copied()
    .filter(|c| !m.connectors.contains(c))
    .take(3)
    .collect();
    out.push(match m.connectors.len() {
        0 => format!(
            "Je n'ai trouvé aucun connecteur logique : liez vos idées avec {}.",
            quoted(&suggested)
        ),
        n if n < 4 && !suggested.is_empty() => format!(
            "Connecteurs utilisés : {}. Variez-les, par exemple avec {}.",
            quoted(&m.connectors),
            quoted(&suggested)
        ),
        _ => format!("Bon usage des connecteurs : {}.", quoted(&m.connectors)),
    });

    // Vocabulary and sentences.
    if m.words >= 40 {
        let variety = if m.type_token_ratio >= 0.55 {
            format!(
                "Le vocabulaire est varié ({} % de mots différents).",
                (m.type_token_ratio * 100.0).round()
            )
        } else {
            format!(
                "Le vocabulaire se répète un peu ({} % de mots différents) : cherchez des synonymes.",
                (m.type_token_ratio * 100.0).round()
            )
        };
        out.push(match m.repeated.first() {
            None => variety,
            Some((word, n)) => format!(
                "{variety} Le mot « {word} » revient {n} fois : pensez aux pronoms et aux synonymes."
            ),
        });
    }
    if m.sentences >= 3 {
        let mean = m.sentence_mean.round();
        out.push(if m.sentence_mean > 25.0 {
            format!("Vos phrases sont longues ({mean} mots en moyenne) : coupez les plus longues pour rester clair.")
        } else if m.sentence_mean < 8.0 {
            format!("Vos phrases sont courtes ({mean} mots en moyenne) : reliez-en certaines avec des connecteurs ou des relatives (« qui », « que », « où »).")
        } else if m.sentence_spread < 3.0 && m.sentences >= 5 {
            format!("Vos phrases ont toutes à peu près la même longueur ({mean} mots en moyenne) : alternez phrases courtes et phrases plus riches.")
        } else {
            format!("La longueur des phrases est variée ({mean} mots en moyenne), ce qui rend la lecture agréable.")
        });
    }

    // Language.
    out.push(match corrections_count {
        0 => "Le correcteur automatique n'a relevé aucune erreur de langue ; relisez tout de même les accords et les accents.".into(),
        1 => "Le correcteur a relevé une erreur de langue : lisez sa correction ci-dessous.".into(),
        n => format!("Le correcteur a relevé {n} erreurs de langue : lisez les corrections ci-dessous et notez celles qui reviennent."),
    });
    out.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD_A: &str = "Le chien de Marie a disparu un matin de janvier. D'abord, toute la famille l'a cherché dans le quartier, sans succès.\n\n\
        Ensuite, les voisins ont collé des affiches sur les murs. Pendant trois jours, personne n'a appelé, et Marie pleurait chaque soir.\n\n\
        Soudain, le téléphone a sonné : une vieille dame avait trouvé le chien près de la rivière. Il avait froid mais il allait bien.\n\n\
        Heureusement, Marie l'a retrouvé le soir même. Toute la famille était soulagée et elle a remercié la dame avec un grand sourire.";

    const GOOD_B: &str = "Madame, Monsieur,\n\n\
        Je vous écris au sujet de votre article sur le télétravail, publié la semaine dernière, que j'ai lu avec beaucoup d'intérêt. Je pense que cette façon de travailler présente de vrais avantages pour les salariés comme pour les entreprises.\n\n\
        Tout d'abord, le télétravail fait gagner du temps. En effet, beaucoup de salariés passent plus d'une heure par jour dans les transports, ce qui les fatigue avant même de commencer leur journée. Je travaille moi-même à la maison trois jours par semaine.\n\n\
        De plus, il réduit la pollution des villes. Moins de voitures sur les routes, c'est moins de bruit, moins de bouchons et un air plus propre pour tous les habitants, surtout pour les enfants et les personnes âgées.\n\n\
        Enfin, les employés sont souvent plus concentrés chez eux. Cependant, il faut garder un lien avec les collègues : c'est pourquoi je propose deux jours au bureau chaque semaine, bien que certains préfèrent rester chez eux.\n\n\
        En conclusion, le télétravail me semble une chance, à condition de l'organiser avec soin. Par conséquent, j'espère que les entreprises de notre région sauront l'adopter rapidement et intelligemment.\n\n\
        Veuillez agréer, Madame, Monsieur, l'expression de mes salutations distinguées.\n\
        Paul Martin";

    #[test]
    fn counts_paragraphs_and_words() {
        let m = measure(
            Section::A,
            "Un deux trois.\n\nQuatre, cinq !\nSix l'été 2024.",
        );
        assert_eq!(m.paragraphs, 3);
        assert_eq!(m.words, 9);
        assert_eq!(m.sentences, 3);
    }

    #[test]
    fn finds_connectors_as_whole_words() {
        let m = measure(
            Section::B,
            "D'abord il pleut. Cependant je sors, car j'aime ça. Il a un carnet de plus.",
        );
        assert_eq!(m.connectors, vec!["d'abord", "de plus", "cependant", "car"]);
        let none = measure(Section::B, "Le carnaval donne un ensemble joyeux.");
        assert!(none.connectors.is_empty());
    }

    #[test]
    fn measures_vocabulary_and_repetitions() {
        let m = measure(Section::A, "le chat le chat le chat le chat");
        assert!((m.type_token_ratio - 0.25).abs() < 1e-9);
        assert_eq!(m.repeated, vec![("chat".to_string(), 4)]);
        let varied = measure(Section::A, "Un petit chien noir court vite.");
        assert!((varied.type_token_ratio - 1.0).abs() < 1e-9);
        assert!(varied.repeated.is_empty());
    }

    #[test]
    fn measures_sentence_lengths() {
        let m = measure(
            Section::A,
            "Un deux. Un deux trois quatre. Un deux trois quatre cinq six.",
        );
        assert_eq!(m.sentences, 3);
        assert!((m.sentence_mean - 4.0).abs() < 1e-9);
        assert!((m.sentence_spread - (8.0f64 / 3.0).sqrt()).abs() < 1e-9);
    }

    #[test]
    fn a_text_meeting_everything_in_section_a() {
        let m = measure(Section::A, GOOD_A);
        assert_eq!(m.paragraphs, 4);
        assert!((70..=120).contains(&m.words), "{}", m.words);
        assert!(m.positive_ending.contains(&"heureusement"));
        let feedback = general_feedback(Section::A, GOOD_A, 0);
        assert!(feedback.contains("Bonne longueur"), "{feedback}");
        assert!(feedback.contains("4 paragraphes"), "{feedback}");
        assert!(feedback.contains("La fin est positive"), "{feedback}");
        assert!(feedback.contains("aucune erreur"), "{feedback}");
        assert!(feedback.split("\n\n").count() >= 5);
    }

    #[test]
    fn a_text_meeting_everything_in_section_b() {
        let m = measure(Section::B, GOOD_B);
        assert!(m.greeting && m.closing);
        assert!((180..=220).contains(&m.words), "{}", m.words);
        assert!(m.arguments() >= 3);
        let feedback = general_feedback(Section::B, GOOD_B, 2);
        assert!(feedback.contains("Bonne longueur"), "{feedback}");
        assert!(
            feedback.contains("au moins trois arguments (marqueurs"),
            "{feedback}"
        );
        assert!(
            feedback.contains("La forme de la lettre est respectée"),
            "{feedback}"
        );
        assert!(
            feedback.contains("Le corps de la lettre est organisé en 5 paragraphes"),
            "{feedback}"
        );
        assert!(feedback.contains("Bon usage des connecteurs"), "{feedback}");
        assert!(feedback.contains("2 erreurs"), "{feedback}");
    }

    #[test]
    fn a_short_single_block_without_positive_ending() {
        let text = "Le chien a disparu. La famille le cherche partout. Personne ne le trouve et tout le monde est triste.";
        let feedback = general_feedback(Section::A, text, 1);
        assert!(feedback.contains("moins que les 70 à 120"), "{feedback}");
        assert!(feedback.contains("un seul bloc"), "{feedback}");
        assert!(feedback.contains("fin positive"), "{feedback}");
        assert!(feedback.contains("aucun connecteur"), "{feedback}");
        assert!(feedback.contains("une erreur de langue"), "{feedback}");
    }

    #[test]
    fn a_long_text_is_told_to_shrink() {
        let text = "Heureusement le chat dort bien. ".repeat(30);
        assert!(general_feedback(Section::A, &text, 0).contains("plus que les 70 à 120"));
    }

    #[test]
    fn a_letter_without_form_or_arguments() {
        let text =
            "Je pense que le télétravail est une bonne idée pour tout le monde.\n\nC'est pratique.";
        let m = measure(Section::B, text);
        assert!(!m.greeting && !m.closing);
        assert!(m.arguments() < 3);
        let feedback = general_feedback(Section::B, text, 0);
        assert!(feedback.contains("j'en ai repéré"), "{feedback}");
        assert!(feedback.contains("forme d'une lettre"), "{feedback}");
        let greeted = general_feedback(Section::B, &format!("Madame, Monsieur,\n\n{text}"), 0);
        assert!(greeted.contains("Terminez la lettre"), "{greeted}");
    }

    #[test]
    fn an_empty_text_gets_one_sentence() {
        assert_eq!(
            general_feedback(Section::A, "  \n", 0)
                .split("\n\n")
                .count(),
            1
        );
    }
}
