//! The examiner on an OpenAI-compatible chat API. The system prompt is built here from the
//! scenario (its instruction, its document, the register and the length rules), never taken
//! from the browser; the report is asked in the format whose level lines the server parses.

use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::openai_client::{CallError, OpenAiClient, Payload, message_content};
use crate::domain::speaking::{ChatMessage, Role, SpeakingTopic};
use crate::domain::writing::Section;
use crate::ports::examiner::{Examiner, ExaminerError};

pub const DEFAULT_MODEL: &str = "gpt-4o-mini";

#[derive(Debug)]
pub struct OpenAiExaminer {
    client: OpenAiClient,
    model: String,
}

impl From<CallError> for ExaminerError {
    fn from(e: CallError) -> Self {
        match e {
            CallError::Timeout(ms) => Self::Timeout(ms),
            CallError::Failed(d) => Self::Unavailable(d),
            CallError::NotJson(d) => Self::Malformed(d),
        }
    }
}

impl OpenAiExaminer {
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

    async fn complete(
        &self,
        messages: Vec<Value>,
        max_tokens: u32,
    ) -> Result<String, ExaminerError> {
        let body = json!({
            "model": self.model,
            "temperature": 0.4,
            "max_tokens": max_tokens,
            "messages": messages,
        });
        let answer = self
            .client
            .post("chat/completions", &Payload::Json(body))
            .await?;
        let text = message_content(&answer)
            .map_err(ExaminerError::Malformed)?
            .trim();
        if text.is_empty() {
            return Err(ExaminerError::Malformed("empty reply".into()));
        }
        Ok(text.to_owned())
    }
}

/// The examiner's role, written by the server from the scenario.
pub fn system_prompt(topic: &SpeakingTopic, section: Section) -> String {
    let rules = match section {
        Section::A => {
            "Tu joues l'employé de l'annonceur qui répond au téléphone. Vouvoie toujours le candidat. \
Réponds en une ou deux phrases courtes (rarement plus de 20 mots), uniquement à partir des informations du document ; \
si le document ne donne pas l'information, dis poliment que tu ne l'as pas et indique le contact du document. \
Ne mène pas la conversation et ne pose pas de questions à la place du candidat."
        }
        Section::B => {
            "Tu joues l'ami hésitant du candidat. Tutoie-le. Soulève tes objections une à une, \
en phrases courtes (rarement plus de 20 mots). Ne te laisse convaincre que par de vrais arguments ; \
quand toutes tes objections ont trouvé une réponse, accepte."
        }
    };
    format!(
        "{}\n\n{rules}\nTu ne sors jamais de ce rôle, quoi que dise le candidat, et tu réponds toujours en français.\n\nDocument :\n{}",
        topic.instruction(section),
        topic.document(section)
    )
}

fn history(conversation: &[ChatMessage]) -> impl Iterator<Item = Value> + '_ {
    conversation
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| {
            json!({
                "role": if m.role == Role::User { "user" } else { "assistant" },
                "content": m.content,
            })
        })
}

const REPORT_PROMPT: &str = "Tu es examinateur de l'épreuve d'expression orale du TEF Canada. \
Rédige en français un rapport de performance sur les interventions du candidat (rôle « user ») dans la conversation \
ci-dessous : points forts, points à améliorer (aisance, registre, richesse du vocabulaire, correction, \
réalisation de la tâche), et deux ou trois conseils concrets. Termine par exactement trois lignes : \
« Niveau CLB Estimé : N », « Niveau TEF Estimé : X » (A1, A2, B1, B2, C1 ou C2) et « Score : N/450 ».";

#[async_trait]
impl Examiner for OpenAiExaminer {
    async fn reply(
        &self,
        topic: &SpeakingTopic,
        section: Section,
        conversation: &[ChatMessage],
    ) -> Result<String, ExaminerError> {
        let mut messages =
            vec![json!({ "role": "system", "content": system_prompt(topic, section) })];
        messages.extend(history(conversation));
        self.complete(messages, 120).await
    }

    async fn report(
        &self,
        topic: &SpeakingTopic,
        section: Section,
        conversation: &[ChatMessage],
    ) -> Result<String, ExaminerError> {
        let transcript: Vec<String> = conversation
            .iter()
            .map(|m| {
                let who = if m.role == Role::User {
                    "Candidat"
                } else {
                    "Examinateur"
                };
                format!("{who} : {}", m.content)
            })
            .collect();
        let task = match section {
            Section::A => "Section A : obtenir des informations (registre formel).",
            Section::B => "Section B : convaincre un ami (registre familier).",
        };
        let messages = vec![
            json!({ "role": "system", "content": REPORT_PROMPT }),
            json!({ "role": "user", "content": format!(
                "{task}\nDocument :\n{}\n\nConversation :\n{}",
                topic.document(section),
                transcript.join("\n")
            ) }),
        ];
        self.complete(messages, 700).await
    }
}
