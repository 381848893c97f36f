//! The correction port on an OpenAI-compatible chat completions API (OpenAI itself, or any
//! server that speaks its protocol): structured output against a JSON schema, validated on
//! the way back; explicit time-outs well under API Gateway's 30 s; a bounded number of
//! retries with backoff and jitter on 429, 5xx and time-outs. The key is never logged.

use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::openai_client::{CallError, OpenAiClient, Payload, message_content};
use crate::ports::corrector::{
    Correction, CorrectionItem, CorrectionRequest, Corrector, CorrectorError, Section,
};

pub use super::openai_client::{ATTEMPT_TIMEOUT, MAX_ATTEMPTS, TOTAL_BUDGET};

pub const DEFAULT_MODEL: &str = "gpt-4o-mini";

/// More items than this is not a correction of a 220-word text.
const MAX_ITEMS: usize = 80;

#[derive(Debug)]
pub struct OpenAiCorrector {
    client: OpenAiClient,
    model: String,
}

impl OpenAiCorrector {
    pub fn new(base_url: &str, api_key: Option<&str>, model: &str) -> Self {
        Self {
            client: OpenAiClient::new(base_url, api_key),
            model: model.to_owned(),
        }
    }

    /// Shorter limits, for tests against a stand-in server.
    pub fn with_limits(mut self, budget: Duration, attempt: Duration, backoff: Duration) -> Self {
        self.client = self.client.with_limits(budget, attempt, backoff);
        self
    }

    fn body(&self, req: &CorrectionRequest) -> Value {
        json!({
            "model": self.model,
            "temperature": 0.2,
            "messages": [
                { "role": "system", "content": SYSTEM_PROMPT },
                { "role": "user", "content": user_message(req) },
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": { "name": "tef_correction", "strict": true, "schema": schema() },
            },
        })
    }
}

impl From<CallError> for CorrectorError {
    fn from(e: CallError) -> Self {
        match e {
            CallError::Timeout(ms) => Self::Timeout(ms),
            CallError::Failed(d) => Self::Unavailable(d),
            CallError::NotJson(d) => Self::Malformed(d),
        }
    }
}

#[async_trait]
impl Corrector for OpenAiCorrector {
    async fn correct(&self, req: &CorrectionRequest) -> Result<Correction, CorrectorError> {
        let answer = self
            .client
            .post("chat/completions", &Payload::Json(self.body(req)))
            .await?;
        parse_answer(&answer, &req.text)
    }
}

const SYSTEM_PROMPT: &str = "Tu es correcteur de l'épreuve d'expression écrite du TEF Canada. \
Tu corriges le texte d'un candidat qui apprend le français. Relève chaque erreur réelle \
(orthographe, grammaire, accords, conjugaison, prépositions, vocabulaire, syntaxe) ; ne signale \
jamais une formulation correcte, ni la typographie (apostrophe droite, espaces). Pour chaque \
erreur : original_phrase est le passage fautif copié exactement du texte (deux à six mots), \
corrected_phrase est ce passage corrigé, explanation explique la règle en une phrase simple, en \
français. corrected_text est le texte entier corrigé, paragraphes conservés, sans autre \
réécriture. general_feedback donne en français, en trois à six phrases, un avis sur le respect \
de la consigne, l'organisation, la richesse du vocabulaire et la correction, avec deux conseils \
concrets. Ne donne ni note ni niveau : ils sont calculés ailleurs.";

fn user_message(req: &CorrectionRequest) -> String {
    let task = match req.section {
        Section::A => "Section A : terminer un article de presse (70 à 120 mots).",
        Section::B => "Section B : lettre au journal pour donner son opinion (180 à 220 mots).",
    };
    format!(
        "{task}\n\nConsigne : {}\n\nDocument : {}\n\nTexte du candidat :\n<<<\n{}\n>>>",
        req.prompt, req.document, req.text
    )
}

/// The JSON schema the model must follow (strict structured output).
fn schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["corrected_text", "corrections", "general_feedback"],
        "properties": {
            "corrected_text": { "type": "string" },
            "general_feedback": { "type": "string" },
            "corrections": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["original_phrase", "corrected_phrase", "explanation"],
                    "properties": {
                        "original_phrase": { "type": "string" },
                        "corrected_phrase": { "type": "string" },
                        "explanation": { "type": "string" },
                    },
                },
            },
        },
    })
}

/// Reads the model's answer and keeps only what holds: items whose original phrase is in
/// the learner's text and differs from its correction, once each.
fn parse_answer(answer: &Value, text: &str) -> Result<Correction, CorrectorError> {
    let content = message_content(answer).map_err(CorrectorError::Malformed)?;
    let raw: Correction = serde_json::from_str(content)
        .map_err(|e| CorrectorError::Malformed(format!("content is not the schema: {e}")))?;
    if raw.corrected_text.trim().is_empty() {
        return Err(CorrectorError::Malformed("empty corrected_text".into()));
    }
    if raw.corrections.len() > MAX_ITEMS {
        return Err(CorrectorError::Malformed(format!(
            "{} corrections",
            raw.corrections.len()
        )));
    }
    let total = raw.corrections.len();
    let mut kept: Vec<CorrectionItem> = Vec::new();
    for item in raw.corrections {
        let original = item.original_phrase.trim();
        let corrected = item.corrected_phrase.trim();
        if original.is_empty() || original == corrected || !text.contains(original) {
            continue;
        }
        if kept.iter().any(|k| k.original_phrase == original) {
            continue;
        }
        kept.push(CorrectionItem {
            original_phrase: original.to_owned(),
            corrected_phrase: corrected.to_owned(),
            explanation: item.explanation.trim().to_owned(),
        });
    }
    if kept.len() < total {
        tracing::info!(
            dropped = total - kept.len(),
            "correction items not found in the text were dropped"
        );
    }
    Ok(Correction {
        corrected_text: raw.corrected_text,
        corrections: kept,
        general_feedback: raw.general_feedback.trim().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(content: &str) -> Value {
        json!({ "choices": [{ "message": { "role": "assistant", "content": content } }] })
    }

    #[test]
    fn items_not_in_the_text_or_unchanged_or_repeated_are_dropped() {
        let text = "Je suis allé a la plage avec les enfant.";
        let content = json!({
            "corrected_text": "Je suis allé à la plage avec les enfants.",
            "general_feedback": " Bien. ",
            "corrections": [
                { "original_phrase": "a la plage", "corrected_phrase": "à la plage", "explanation": "Préposition." },
                { "original_phrase": "a la plage", "corrected_phrase": "à la plage", "explanation": "Encore." },
                { "original_phrase": "les enfants", "corrected_phrase": "les enfants", "explanation": "Rien." },
                { "original_phrase": "invented phrase", "corrected_phrase": "x", "explanation": "?" },
                { "original_phrase": " les enfant", "corrected_phrase": "les enfants ", "explanation": " Pluriel. " },
            ],
        })
        .to_string();
        let c = parse_answer(&answer(&content), text).unwrap();
        assert_eq!(c.corrections.len(), 2);
        assert_eq!(c.corrections[1].original_phrase, "les enfant");
        assert_eq!(c.corrections[1].corrected_phrase, "les enfants");
        assert_eq!(c.corrections[1].explanation, "Pluriel.");
        assert_eq!(c.general_feedback, "Bien.");
    }

    #[test]
    fn answers_outside_the_schema_are_malformed() {
        for bad in [
            json!({}),
            answer("not json"),
            answer(r#"{"corrections": []}"#),
            answer(r#"{"corrected_text": " ", "corrections": [], "general_feedback": ""}"#),
            json!({ "choices": [{ "message": { "content": null, "refusal": "I can't." } }] }),
        ] {
            assert!(
                matches!(parse_answer(&bad, "x"), Err(CorrectorError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let c = OpenAiCorrector::new("http://x/v1/", Some("sk-secret-42"), "m");
        let shown = format!("{c:?}");
        assert!(!shown.contains("sk-secret-42"), "{shown}");
        assert_eq!(c.client.base_url(), "http://x/v1");
    }

    #[test]
    fn the_request_asks_for_the_schema_and_carries_the_task() {
        let c = OpenAiCorrector::new("http://x/v1", None, "m");
        let body = c.body(&CorrectionRequest {
            section: Section::B,
            text: "Madame, Monsieur, …".into(),
            prompt: "Rédigez une lettre.".into(),
            document: "« Opinion »".into(),
        });
        assert_eq!(body["response_format"]["json_schema"]["strict"], true);
        let user = body["messages"][1]["content"].as_str().unwrap();
        assert!(
            user.contains("Section B") && user.contains("« Opinion »") && user.contains("Madame")
        );
        assert!(TOTAL_BUDGET < Duration::from_secs(29));
    }
}
