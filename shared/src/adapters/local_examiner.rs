//! The offline examiner: no network, no model. Section A answers from the document's facts
//! (the questions understood by `domain::speaking_report`), Section B plays the hesitant
//! friend, whose objections are raised in turn and conceded when answered, and the report is
//! written from what can be measured in the learner's turns, with the corrector's errors when
//! one is given.
//!
//! Every reply is replayed from the learner's turns, so the examiner keeps no state.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

use crate::domain::speaking::{ChatMessage, Role, SpeakingA, SpeakingB, SpeakingTopic};
use crate::domain::speaking_report::{
    self as measures, ErrorSummary, FriendMove, facts_asked, friend_moves, greets, says_goodbye,
    thanks, tu_forms, word_count,
};
use crate::domain::writing::Section;
use crate::ports::corrector::{CorrectionRequest, Corrector};
use crate::ports::examiner::{Examiner, ExaminerError};

/// Longest reply in Section A, in words.
const MAX_WORDS_A: usize = 40;
/// Longest reply in Section B, in words.
const MAX_WORDS_B: usize = 30;
/// How long the report waits for the corrector before leaving its errors out.
const CORRECTOR_BUDGET: Duration = Duration::from_secs(25);

const TU_NOTE: &str = "Je me permets de vous vouvoyer, comme il est d'usage.";
const ALREADY_SAID: &str = "Comme je vous le disais, ";
const CLOSING: &str = "Je vous en prie. Au revoir et bonne journée !";
const THANKS_ONLY: &str = "Je vous en prie. Avez-vous une autre question ?";
const ACKNOWLEDGE: &str = "Très bien. Avez-vous une autre question ?";
const INSIST: [&str; 2] = ["Oui, mais quand même… ", "Je ne sais pas… "];
const TIRED: &str = "Bon, si tu insistes… admettons. ";
const AGREED: [&str; 2] = [
    "Oui, oui, c'est décidé, je viens avec toi !",
    "C'est promis, on en reparle très vite !",
];
const OPENING_FALLBACK: &str = "Salut ! Qu'est-ce qui se passe ?";
const LISTENING_B: &str = "Alors, raconte : qu'est-ce que tu voulais me proposer ?";

/// Words that may start a sentence in lowercase after a prefix (« Comme je vous le disais, le
/// cours… »); any other first word (a name) keeps its capital.
const COMMON_STARTS: &[&str] = &[
    "le",
    "la",
    "les",
    "l",
    "il",
    "elle",
    "ils",
    "elles",
    "nous",
    "vous",
    "je",
    "j",
    "c",
    "ce",
    "ces",
    "cette",
    "un",
    "une",
    "des",
    "du",
    "de",
    "d",
    "oui",
    "non",
    "notre",
    "nos",
    "votre",
    "vos",
    "on",
    "en",
    "pour",
    "avec",
    "tous",
    "toutes",
    "chaque",
    "mes",
    "mon",
    "ma",
    "ça",
    "et",
    "si",
    "seul",
    "seule",
    "inscrivez",
    "appelez",
    "écrivez",
    "apportez",
    "ça",
];

/// Organisations' words, to find the advertiser's name in the document.
const ORGANISATION_WORDS: &[&str] = &[
    "ecole",
    "institut",
    "centre",
    "club",
    "festival",
    "auto",
    "habitat",
    "soirees",
    "immobilier",
    "agence",
    "association",
    "compagnie",
    "entreprise",
    "societe",
    "cinema",
    "theatre",
    "musee",
    "bibliotheque",
    "boutique",
    "magasin",
    "studio",
    "clinique",
    "garage",
    "concessionnaire",
    "academie",
    "college",
    "universite",
    "salon",
    "restaurant",
    "hotel",
    "services",
    "cooperative",
];

/// The offline `Examiner`. The corrector, when given, finds the language errors the report
/// lists (Grammalecte offline).
#[derive(Clone, Default)]
pub struct LocalExaminer {
    corrector: Option<Arc<dyn Corrector>>,
}

impl LocalExaminer {
    pub fn new(corrector: Option<Arc<dyn Corrector>>) -> Self {
        Self { corrector }
    }

    async fn errors(
        &self,
        topic: &SpeakingTopic,
        section: Section,
        turns: &[&str],
    ) -> Option<ErrorSummary> {
        let corrector = self.corrector.as_ref()?;
        let request = CorrectionRequest {
            section,
            text: turns.join("\n"),
            prompt: topic.instruction(section).to_owned(),
            document: topic.document(section).to_owned(),
        };
        match tokio::time::timeout(CORRECTOR_BUDGET, corrector.correct(&request)).await {
            Ok(Ok(c)) => Some(ErrorSummary {
                count: c.corrections.len(),
                examples: c
                    .corrections
                    .iter()
                    .take(5)
                    .map(|i| (i.original_phrase.clone(), i.corrected_phrase.clone()))
                    .collect(),
            }),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "the speaking report leaves out the corrector's errors");
                None
            }
            Err(_) => {
                tracing::warn!(
                    budget_ms = CORRECTOR_BUDGET.as_millis() as u64,
                    "the corrector timed out; the speaking report leaves out its errors"
                );
                None
            }
        }
    }
}

fn learner_turns(conversation: &[ChatMessage]) -> Vec<&str> {
    conversation
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.content.as_str())
        .collect()
}

#[async_trait]
impl Examiner for LocalExaminer {
    async fn reply(
        &self,
        topic: &SpeakingTopic,
        section: Section,
        conversation: &[ChatMessage],
    ) -> Result<String, ExaminerError> {
        let turns = learner_turns(conversation);
        if turns.is_empty() {
            return Err(ExaminerError::Malformed(
                "the conversation has no learner turn".into(),
            ));
        }
        Ok(match section {
            Section::A => reply_a(&topic.section_a, &turns),
            Section::B => reply_b(&topic.section_b, conversation, &turns),
        })
    }

    async fn report(
        &self,
        topic: &SpeakingTopic,
        section: Section,
        conversation: &[ChatMessage],
    ) -> Result<String, ExaminerError> {
        let turns = learner_turns(conversation);
        let errors = if turns.is_empty() {
            None
        } else {
            self.errors(topic, section, &turns).await
        };
        let m = measures::measure(topic, section, &turns, errors);
        Ok(measures::write_report(&m))
    }
}

// ───────────────────────────── Section A ─────────────────────────────

/// The advertiser's name: the first segment of the document (lines split at dashes, colons
/// and commas) that names an organisation (« École de langues Le Passeport »).
pub fn advertiser(a: &SpeakingA) -> Option<String> {
    for line in a.document_content.lines() {
        for segment in line.split([':', ',', '(', ')', '–', '—']) {
            let segment = segment.trim().trim_end_matches(['!', '.', ' ']).trim();
            let names_one = segment.split_whitespace().any(|w| {
                let f = measures::fold(w.trim_matches(|c: char| !c.is_alphanumeric()));
                ORGANISATION_WORDS.contains(&f.as_str())
                    || (w.chars().next().is_some_and(char::is_uppercase)
                        && f.split('-').any(|p| ORGANISATION_WORDS.contains(&p)))
            });
            if names_one && word_count(segment) <= 8 {
                return Some(segment.to_owned());
            }
        }
    }
    None
}

fn lower_first_if_common(text: &str) -> String {
    let first: String = text
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    if !COMMON_STARTS.contains(&first.as_str()) {
        return text.to_owned();
    }
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The sentences after the first (« Je suis désolé, je n'ai pas cette information. Vous
/// pouvez écrire à … » → « Vous pouvez écrire à … »).
fn after_first_sentence(text: &str) -> Option<&str> {
    let at = text.find(". ")?;
    let rest = text[at + 2..].trim();
    (!rest.is_empty()).then_some(rest)
}

/// Parts of a reply in order, the first always kept, the others while the reply stays short.
fn compose(parts: Vec<(usize, String)>, max_words: usize) -> String {
    // Parts carry a priority (lower first) and are written in their given order.
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|i| parts[*i].0);
    let mut kept = BTreeSet::new();
    let mut words = 0;
    for (rank, i) in order.into_iter().enumerate() {
        let n = word_count(&parts[i].1);
        if rank == 0 || words + n <= max_words {
            kept.insert(i);
            words += n;
        }
    }
    parts
        .into_iter()
        .enumerate()
        .filter(|(i, _)| kept.contains(i))
        .map(|(_, (_, p))| p)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The employee's reply to the last of the learner's turns.
pub fn reply_a(a: &SpeakingA, turns: &[&str]) -> String {
    let Some((last, before)) = turns.split_last() else {
        return ACKNOWLEDGE.to_owned();
    };
    let reply = fresh_reply_a(a, last, before);
    if before.is_empty() {
        return reply;
    }
    // Never the same words twice in a row.
    let previous = fresh_reply_a(a, before[before.len() - 1], &before[..before.len() - 1]);
    if previous != reply {
        return reply;
    }
    if reply == a.unknown_answer {
        return match after_first_sentence(&a.unknown_answer) {
            Some(rest) => format!("Je regrette, ce détail ne figure pas dans l'annonce. {rest}"),
            None => format!("{ALREADY_SAID}{}", lower_first_if_common(&reply)),
        };
    }
    if let Some(rest) = reply.strip_prefix(ALREADY_SAID) {
        return format!("Oui, je vous le confirme : {}", rest.trim());
    }
    format!("Je vous le confirme. {reply}")
}

fn fresh_reply_a(a: &SpeakingA, turn: &str, before: &[&str]) -> String {
    let first_turn = before.is_empty();
    let asked = facts_asked(&a.facts, turn, 2);
    let given: BTreeSet<usize> = before
        .iter()
        .flat_map(|t| facts_asked(&a.facts, t, 2))
        .collect();
    let mut parts: Vec<(usize, String)> = Vec::new();
    let tu_now = tu_forms(turn) > 0 && !before.iter().any(|t| tu_forms(t) > 0);
    let greeting = first_turn && greets(turn);
    let name = advertiser(a);
    if greeting && !asked.is_empty() {
        parts.push((
            3,
            match &name {
                Some(n) => format!("Bonjour, {n}."),
                None => "Bonjour.".to_owned(),
            },
        ));
    }
    if tu_now {
        parts.push((2, TU_NOTE.to_owned()));
    }
    for (rank, &f) in asked.iter().enumerate() {
        let answer = a.facts[f].answer.trim();
        let text = if given.contains(&f) {
            format!("{ALREADY_SAID}{}", lower_first_if_common(answer))
        } else {
            answer.to_owned()
        };
        parts.push((if rank == 0 { 0 } else { 4 }, text));
    }
    if asked.is_empty() {
        let question = !measures::questions(turn).is_empty();
        let main = if let (true, Some((previous, earlier))) =
            (asks_to_repeat(turn), before.split_last())
        {
            format!("Bien sûr. {}", fresh_reply_a(a, previous, earlier))
        } else if question {
            a.unknown_answer.trim().to_owned()
        } else if says_goodbye(turn) {
            CLOSING.to_owned()
        } else if thanks(turn) {
            THANKS_ONLY.to_owned()
        } else if greeting {
            match &name {
                Some(n) => format!("Bonjour, {n}, je vous écoute."),
                None => "Bonjour, je vous écoute.".to_owned(),
            }
        } else if word_count(turn) <= 6 {
            ACKNOWLEDGE.to_owned()
        } else {
            a.unknown_answer.trim().to_owned()
        };
        parts.push((0, main));
    } else if says_goodbye(turn) {
        parts.push((5, CLOSING.to_owned()));
    }
    compose(parts, MAX_WORDS_A)
}

/// « Pardon ? », « Pouvez-vous répéter ? »: the learner did not catch the last reply.
fn asks_to_repeat(turn: &str) -> bool {
    let words = measures::stems(turn);
    words.iter().any(|w| w.starts_with("repet"))
        || (words.len() <= 3 && words.iter().any(|w| w == "pardon"))
}

// ───────────────────────────── Section B ─────────────────────────────

/// The heart of an objection, to insist on it: its last sentence, without « Et puis, ».
fn objection_core(objection: &str) -> String {
    let text = objection.trim();
    let mut cut = 0;
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | '?' | '!' | '…') {
            let next = i + c.len_utf8();
            if text[next..].trim().chars().count() > 3 {
                cut = next;
            }
        }
    }
    let core = text[cut..].trim();
    let core = core
        .strip_prefix("Et puis, ")
        .or_else(|| core.strip_prefix("Et puis "))
        .unwrap_or(core);
    lower_first_if_common(core)
}

/// The friend's reply to the last of the learner's turns.
pub fn reply_b(b: &SpeakingB, conversation: &[ChatMessage], turns: &[&str]) -> String {
    let (moves, _) = friend_moves(b, turns);
    let Some(last) = moves.last() else {
        return LISTENING_B.to_owned();
    };
    let n = b.objections.len();
    let next = |k: usize| -> String {
        if k < n {
            b.objections[k].objection.trim().to_owned()
        } else {
            b.give_in.trim().to_owned()
        }
    };
    match *last {
        FriendMove::Opening => {
            let opening = b
                .scenario_flow
                .first()
                .map(|m| m.content.trim().to_owned())
                .unwrap_or_else(|| OPENING_FALLBACK.to_owned());
            let already = conversation
                .iter()
                .any(|m| m.role == Role::Assistant && m.content.trim() == opening);
            if already {
                LISTENING_B.to_owned()
            } else {
                opening
            }
        }
        FriendMove::Raise(k) => {
            let objection = next(k);
            let first = turns.len() == 1;
            if first && greets(turns[0]) && !measures::greets(&objection) {
                format!("Salut ! {objection}")
            } else {
                objection
            }
        }
        FriendMove::Insist(k, times) => {
            let prefix = INSIST[(times.max(1) - 1) % INSIST.len()];
            format!("{prefix}{}", objection_core(&b.objections[k].objection))
        }
        FriendMove::Concede {
            objection,
            convinced,
        } => {
            let first = if convinced {
                b.objections[objection].concession.trim().to_owned()
            } else {
                TIRED.trim().to_owned()
            };
            let then = next(objection + 1);
            let both = format!("{first} {then}");
            if word_count(&both) <= MAX_WORDS_B {
                both
            } else {
                then
            }
        }
        // Nothing to object: the first reply gives in.
        FriendMove::Agreed(1) if n == 0 => b.give_in.trim().to_owned(),
        FriendMove::Agreed(times) => AGREED[(times.max(1) - 1) % AGREED.len()].to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::speaking::{Fact, Objection};

    fn a() -> SpeakingA {
        let fact = |k: &[&str], answer: &str| Fact {
            keywords: k.iter().map(|s| s.to_string()).collect(),
            answer: answer.into(),
        };
        SpeakingA {
            banner_title: "Section A".into(),
            document_content: "Atelier de poterie – Studio Terre Vive, Moncton\nPrix : 150 $".into(),
            ai_system_prompt_instruction: "Vous êtes employé.".into(),
            suggested_questions: vec![],
            facts: vec![
                fact(&["prix", "coûte", "combien", "tarif"], "L'atelier coûte 150 $."),
                fact(&["horaire", "heure", "soir", "jour"], "Les cours ont lieu le lundi soir, de 19 h à 21 h."),
                fact(&["matériel", "argile", "tablier", "fourni"], "L'argile et les outils sont fournis."),
                fact(&["adresse", "situé", "trouve", "où se trouve"], "Le studio est au 45, rue Main, à Moncton."),
            ],
            unknown_answer: "Je suis désolé, je n'ai pas cette information. Vous pouvez écrire à info@terrevive.example.ca."
                .into(),
        }
    }

    fn b() -> SpeakingB {
        let o = |objection: &str, k: &[&str], concession: &str| Objection {
            objection: objection.into(),
            keywords: k.iter().map(|s| s.to_string()).collect(),
            concession: concession.into(),
        };
        SpeakingB {
            banner_title: "Section B".into(),
            document_content: "Atelier de poterie".into(),
            ai_system_prompt_instruction: "Tu es un ami.".into(),
            scenario_flow: vec![ChatMessage {
                role: Role::Assistant,
                content: "Salut ! Tu voulais me parler ?".into(),
            }],
            objections: vec![
                o(
                    "De la poterie ? Bof… je n'ai pas le temps.",
                    &["soir", "deux heures"],
                    "Bon, le lundi soir, ça peut aller. Mais…",
                ),
                o(
                    "Et puis, ça doit coûter cher.",
                    &["150 $", "pas cher", "rabais"],
                    "À ce prix-là, d'accord.",
                ),
            ],
            give_in: "D'accord, tu m'as convaincu ! On s'inscrit ensemble.".into(),
        }
    }

    #[test]
    fn section_a_answers_greets_closes_and_rephrases() {
        let a = a();
        assert_eq!(
            reply_a(&a, &["Bonjour !"]),
            "Bonjour, Studio Terre Vive, je vous écoute."
        );
        assert_eq!(
            reply_a(&a, &["Bonjour, combien coûte l'atelier ?"]),
            "Bonjour, Studio Terre Vive. L'atelier coûte 150 $."
        );
        let two = reply_a(&a, &["Quel est le prix et à quelle heure sont les cours ?"]);
        assert_eq!(
            two,
            "L'atelier coûte 150 $. Les cours ont lieu le lundi soir, de 19 h à 21 h."
        );
        assert_eq!(
            reply_a(&a, &["Bonjour", "Est-ce que vous aimez le hockey ?"]),
            a.unknown_answer
        );
        let again = reply_a(
            &a,
            &[
                "Bonjour",
                "Est-ce que vous aimez le hockey ?",
                "Et le ski ?",
            ],
        );
        assert_ne!(again, a.unknown_answer);
        assert!(again.contains("info@terrevive"), "{again}");
        assert_eq!(
            reply_a(&a, &["Combien ça coûte ?", "Pardon, c'est combien déjà ?"]),
            "Comme je vous le disais, l'atelier coûte 150 $."
        );
        assert_eq!(
            reply_a(&a, &["Combien ça coûte ?", "Merci, au revoir !"]),
            CLOSING
        );
        let tu = reply_a(&a, &["Tu peux me dire où se trouve le studio ?"]);
        assert!(tu.starts_with(TU_NOTE), "{tu}");
        assert!(tu.contains("45, rue Main"), "{tu}");
        assert_eq!(
            reply_a(&a, &["Combien ça coûte ?", "Pardon ?"]),
            "Bien sûr. L'atelier coûte 150 $."
        );
        assert_eq!(
            reply_a(&a, &["Bonjour", "Pouvez-vous répéter, s'il vous plaît ?"]),
            "Bien sûr. Bonjour, Studio Terre Vive, je vous écoute."
        );
        let once = reply_a(&a, &["Tu sais le prix ?", "Et tu as l'horaire ?"]);
        assert!(!once.contains(TU_NOTE), "{once}");
    }

    #[test]
    fn the_advertiser_is_found_in_the_document() {
        assert_eq!(advertiser(&a()).as_deref(), Some("Studio Terre Vive"));
        let mut other = a();
        other.document_content =
            "À vendre – Condo lumineux au centre-ville\nCourtier : Immobilier Estrie-Plus, 819 555-0174".into();
        assert_eq!(
            advertiser(&other).as_deref(),
            Some("Immobilier Estrie-Plus")
        );
        other.document_content = "Réno-Habitat Calgary – Réparations".into();
        assert_eq!(advertiser(&other).as_deref(), Some("Réno-Habitat Calgary"));
        other.document_content = "À vendre – Maison".into();
        assert_eq!(advertiser(&other), None);
    }

    fn conversation(turns: &[&str], replies: &[String]) -> Vec<ChatMessage> {
        let mut out = Vec::new();
        for (i, t) in turns.iter().enumerate() {
            out.push(ChatMessage {
                role: Role::User,
                content: (*t).into(),
            });
            if let Some(r) = replies.get(i) {
                out.push(ChatMessage {
                    role: Role::Assistant,
                    content: r.clone(),
                });
            }
        }
        out
    }

    fn play_b(turns: &[&str]) -> Vec<String> {
        let b = b();
        let mut replies = Vec::new();
        for i in 0..turns.len() {
            let c = conversation(&turns[..=i], &replies);
            replies.push(reply_b(&b, &c, &turns[..=i]));
        }
        replies
    }

    #[test]
    fn the_friend_opens_raises_concedes_and_gives_in() {
        let r = play_b(&[
            "Salut !",
            "J'ai trouvé un atelier de poterie, viens avec moi !",
            "C'est seulement le lundi soir, deux heures.",
            "Ce n'est pas cher : 150 $ pour tout l'atelier.",
            "Génial !",
        ]);
        assert_eq!(r[0], "Salut ! Tu voulais me parler ?");
        assert_eq!(r[1], "De la poterie ? Bof… je n'ai pas le temps.");
        assert_eq!(
            r[2],
            "Bon, le lundi soir, ça peut aller. Mais… Et puis, ça doit coûter cher."
        );
        assert_eq!(
            r[3],
            "À ce prix-là, d'accord. D'accord, tu m'as convaincu ! On s'inscrit ensemble."
        );
        assert_eq!(r[4], AGREED[0]);
    }

    #[test]
    fn the_friend_insists_twice_then_gives_in_anyway() {
        let r = play_b(&[
            "Salut, viens faire de la poterie !",
            "Allez !",
            "S'il te plaît !",
            "Allez, viens !",
        ]);
        assert_eq!(r[0], "Salut ! De la poterie ? Bof… je n'ai pas le temps.");
        assert_eq!(r[1], "Oui, mais quand même… je n'ai pas le temps.");
        assert_eq!(r[2], "Je ne sais pas… je n'ai pas le temps.");
        assert_eq!(
            r[3],
            "Bon, si tu insistes… admettons. Et puis, ça doit coûter cher."
        );
        let argued = play_b(&[
            "Viens faire de la poterie avec moi !",
            "Écoute, tu sais, ça te ferait du bien parce que tu travailles trop en ce moment.",
        ]);
        assert!(argued[1].starts_with("Bon, le lundi soir"), "{}", argued[1]);
    }
}
