//! Speaking (Expression orale): the scenarios, the examiner's replies, the report, speech and
//! transcription. Every route checks sign-in, the scenario's entitlement and sizes; the
//! examiner's instructions are built here from the scenario (a system message from the browser
//! is dropped), the ten-turn limit is enforced here, and a session's credit is taken once, with
//! its record, when its report is made.

use base64::Engine;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::exams::CatalogueEntry;
use super::{ApiError, ApiRequest, ApiResponse, HandlerFuture};
use crate::App;
use crate::domain::exam::Skill;
use crate::domain::rate_limit::Limited;
use crate::domain::scoring::TefScore;
use crate::domain::speaking::{
    self, ChatMessage, SpeakingTopic, conversation_for_reply, conversation_for_report,
    finish_reply, parse_report, user_turns, valid_session_id,
};
use crate::domain::writing::Section;
use crate::domain::{Identity, Subscription, UserDoc};
use crate::ports::media::MediaKey;
use crate::ports::results::ResultId;
use crate::ports::speaking::{Completion, SpeakingResult, complete_session};
use crate::ports::transcriber::{MAX_AUDIO_BYTES, TranscribeError};

/// Spec §8's texts.
pub const CHAT_FAILED: &str = "Erreur lors de la génération de la réponse IA.";
pub const REPORT_FAILED: &str = "Erreur lors de la génération du rapport de performance.";
pub const SPEECH_FAILED: &str =
    "Erreur lors de la génération de la parole. Veuillez vérifier les paramètres ou réessayer.";
pub const TRANSCRIPTION_FAILED: &str = "Sorry, there was an error transcribing your speech.";
pub const NO_CREDITS: &str = "Crédits épuisés.";
const LOCKED: &str = "Subscribe to unlock this test.";
const BAD_REQUEST: &str = "La requête n'est pas valide.";

/// The ten scenarios for `GET /api/tests/speaking`, locked past the first without a plan.
pub fn catalogue(app: &App, sub: &Subscription) -> Vec<CatalogueEntry> {
    app.catalogue
        .speaking_topics()
        .map(|t| CatalogueEntry {
            id: t.number,
            slug: Some(t.id.clone()),
            title: t.title.clone(),
            locked: !speaking::can_open(t.number, sub),
            available: true,
        })
        .collect()
}

/// A scenario the caller may open: 404 unknown, 403 locked.
async fn open_scenario<'a>(
    app: &'a App,
    identity: &Identity,
    key: &str,
) -> Result<(&'a SpeakingTopic, Option<UserDoc>), ApiError> {
    let topic = app
        .catalogue
        .speaking_topic(key)
        .ok_or(ApiError::NotFound)?;
    let doc = app.users.get_user(&identity.uid).await?.map(|v| v.value);
    let sub = doc.clone().unwrap_or_default().subscription(app.now());
    if !speaking::can_open(topic.number, &sub) {
        return Err(ApiError::Forbidden(LOCKED));
    }
    Ok((topic, doc))
}

/// `GET /api/tests/speaking/{id}`: what the screen shows; the examiner's notes stay here.
pub async fn get_scenario(app: &App, req: &ApiRequest) -> Result<ApiResponse, ApiError> {
    let identity = req.identity()?;
    let key = req.params.get("id").cloned().unwrap_or_default();
    let (t, _) = open_scenario(app, identity, &key).await?;
    ApiResponse::ok(ScenarioView {
        id: &t.id,
        number: t.number,
        title: &t.title,
        section_a: ScenarioSection {
            banner_title: &t.section_a.banner_title,
            document_content: &t.section_a.document_content,
            suggested_questions: Some(&t.section_a.suggested_questions),
            time_limit_seconds: speaking::time_limit_seconds(Section::A),
        },
        section_b: ScenarioSection {
            banner_title: &t.section_b.banner_title,
            document_content: &t.section_b.document_content,
            suggested_questions: None,
            time_limit_seconds: speaking::time_limit_seconds(Section::B),
        },
    })
}

/// `GET /api/tests/speaking/{id}`: a scenario as the speaking screen shows it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioView<'a> {
    pub id: &'a str,
    pub number: u32,
    pub title: &'a str,
    pub section_a: ScenarioSection<'a>,
    pub section_b: ScenarioSection<'a>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioSection<'a> {
    pub banner_title: &'a str,
    pub document_content: &'a str,
    /// Section A only: questions a learner may ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggested_questions: Option<&'a [String]>,
    pub time_limit_seconds: u32,
}

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError::BadRequest(msg.into())
}

fn section(raw: &str) -> Result<Section, ApiError> {
    Section::parse(raw).ok_or_else(|| bad(BAD_REQUEST))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatBody {
    topic_id: String,
    section: String,
    #[serde(default)]
    session_id: Option<String>,
    messages: Vec<ChatMessage>,
}

/// The examiner's reply, and where the conversation stands.
#[derive(Serialize, JsonSchema)]
pub struct ChatReply {
    pub reply: String,
    /// The learner's turns so far.
    pub turns: usize,
    /// The turn limit is reached: the next step is the report.
    pub ended: bool,
}

/// `POST /api/openai/speaking-chat`: the examiner's next reply.
pub fn chat(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let body: ChatBody = req.json().map_err(|_| bad(BAD_REQUEST))?;
        let section = section(&body.section)?;
        if body
            .session_id
            .as_deref()
            .is_some_and(|s| !valid_session_id(s))
        {
            return Err(bad(BAD_REQUEST));
        }
        let (topic, doc) = open_scenario(app, identity, &body.topic_id).await?;
        let conversation =
            conversation_for_reply(&body.messages).map_err(|e| bad(e.to_string()))?;
        if !speaking::may_talk(&doc.unwrap_or_default(), app.now()) {
            return Err(ApiError::PaymentRequired(NO_CREDITS));
        }
        super::within_limit(app, identity, Limited::SpeakingChat).await?;
        let reply = app
            .examiner
            .reply(topic, section, &conversation)
            .await
            .map_err(|e| ApiError::Provider {
                shown: CHAT_FAILED,
                detail: e.to_string(),
            })?;
        let turns = user_turns(&conversation);
        ApiResponse::ok(ChatReply {
            reply: finish_reply(&reply, turns),
            turns,
            ended: turns >= speaking::MAX_TURNS,
        })
    })
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportBody {
    topic_id: String,
    section: String,
    session_id: String,
    conversation_history: Vec<ChatMessage>,
}

/// `POST /api/openai/speaking-report`: the report, its levels checked in code, the session's
/// record and its credit, once per session id.
pub fn report(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?.clone();
        let body: ReportBody = req.json().map_err(|_| bad(BAD_REQUEST))?;
        let section = section(&body.section)?;
        if !valid_session_id(&body.session_id) {
            return Err(bad(BAD_REQUEST));
        }
        let (topic, doc) = open_scenario(app, &identity, &body.topic_id).await?;
        let now = app.now();
        super::within_limit(app, &identity, Limited::SpeakingReport).await?;
        // A retry of a reported session gets the first report, and pays nothing more.
        if let Some(first) = app
            .speaking_results
            .get_session(&identity.uid, &body.session_id)
            .await?
        {
            return respond_with(app, &first, doc.as_ref(), now);
        }
        let conversation =
            conversation_for_report(&body.conversation_history).map_err(|e| bad(e.to_string()))?;
        if !speaking::may_talk(&doc.clone().unwrap_or_default(), now) {
            return Err(ApiError::PaymentRequired(NO_CREDITS));
        }
        let report = app
            .examiner
            .report(topic, section, &conversation)
            .await
            .map_err(|e| ApiError::Provider {
                shown: REPORT_FAILED,
                detail: e.to_string(),
            })?;
        let levels = parse_report(&report).ok_or_else(|| ApiError::Provider {
            shown: REPORT_FAILED,
            detail: "the report has no readable 'Score :' line".into(),
        })?;
        let record = SpeakingResult {
            id: ResultId::new(Skill::Speaking, now),
            uid: identity.uid.clone(),
            email: identity.email.as_ref().map(|e| e.as_str().to_owned()),
            session_id: body.session_id.clone(),
            topic_id: topic.id.clone(),
            topic_number: topic.number,
            section,
            conversation,
            feedback: report,
            clb_level: levels.clb,
            tef_level: levels.tef_level.to_owned(),
            score: levels.score,
            tef_new: levels.tef_new,
            timestamp: now,
        };
        match complete_session(
            app.users.as_ref(),
            app.speaking_results.as_ref(),
            &record,
            now,
        )
        .await?
        {
            Completion::Recorded { .. } => {
                let doc = app.users.get_user(&identity.uid).await?.map(|v| v.value);
                respond_with(app, &record, doc.as_ref(), now)
            }
            Completion::AlreadyRecorded(first) => {
                let doc = app.users.get_user(&identity.uid).await?.map(|v| v.value);
                respond_with(app, &first, doc.as_ref(), now)
            }
            Completion::NoCredits => Err(ApiError::PaymentRequired(NO_CREDITS)),
        }
    })
}

fn respond_with(
    _app: &App,
    r: &SpeakingResult,
    doc: Option<&UserDoc>,
    now: time::OffsetDateTime,
) -> Result<ApiResponse, ApiError> {
    let doc = doc.cloned().unwrap_or_default();
    let credits = (!doc.subscription(now).is_active()).then(|| doc.speaking_credits_shown());
    ApiResponse::ok(ReportView {
        id: r.id.as_str(),
        report: &r.feedback,
        clb_level: r.clb_level,
        tef_level: &r.tef_level,
        score: r.score,
        tef_new: r.tef_new,
        speaking_credits: credits,
    })
}

/// A session's report, in the spec's field names.
#[derive(Serialize, JsonSchema)]
pub struct ReportView<'a> {
    pub id: &'a str,
    pub report: &'a str,
    pub clb_level: u8,
    pub tef_level: &'a str,
    /// The /450 score.
    pub score: u32,
    #[serde(rename = "tefNew")]
    pub tef_new: TefScore,
    /// Speaking credits left for a free user; `null` for a subscriber.
    #[serde(rename = "speakingCredits")]
    pub speaking_credits: Option<i64>,
}

/// A spoken reply's audio.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpeechView {
    pub audio_url: String,
}

/// A recording's words.
#[derive(Serialize, JsonSchema)]
pub struct TranscriptionView {
    pub transcription: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpeechBody {
    text: String,
    #[serde(default)]
    section: Option<String>,
}

/// `POST /api/openai/text-to-speech`: the examiner's reply, spoken; a signed link to the audio.
/// Renders are cached by a hash of text, voice and engine.
pub fn text_to_speech(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let body: SpeechBody = req.json().map_err(|_| bad(BAD_REQUEST))?;
        let text = body.text.trim();
        if !speaking::speakable(text) {
            return Err(bad(BAD_REQUEST));
        }
        super::within_limit(app, identity, Limited::TextToSpeech).await?;
        // The examiner's voice: the employee (A) or the friend (B).
        let voice_id = match body.section.as_deref().map(Section::parse) {
            Some(Some(Section::B)) => "homme-1",
            _ => "femme-1",
        };
        let voice = app
            .catalogue
            .cast
            .voices
            .get(voice_id)
            .ok_or_else(|| ApiError::internal("speech", format!("no voice {voice_id}")))?;
        let mut hash = Sha256::new();
        hash.update(app.speech.engine_id().as_bytes());
        hash.update([0]);
        hash.update(voice_id.as_bytes());
        hash.update([0]);
        hash.update(text.as_bytes());
        let name = crate::domain::hex::encode(&hash.finalize()[..16]);
        let key = MediaKey::parse(&format!("tts/{name}.wav"))
            .map_err(|e| ApiError::internal("speech key", e))?;
        let failed = |detail: String| ApiError::Provider {
            shown: SPEECH_FAILED,
            detail,
        };
        if !app
            .media
            .exists(&key)
            .await
            .map_err(|e| failed(e.to_string()))?
        {
            let wav = app
                .speech
                .synthesize(text, voice)
                .await
                .map_err(|e| failed(e.to_string()))?;
            app.media
                .put(&key, wav)
                .await
                .map_err(|e| failed(e.to_string()))?;
        }
        let url = app
            .media
            .signed_url(&key, app.config.media_url_ttl)
            .await
            .map_err(|e| failed(e.to_string()))?;
        ApiResponse::ok(SpeechView { audio_url: url })
    })
}

#[derive(Deserialize, JsonSchema)]
pub struct TranscriptionBody {
    audio: String,
}

/// `POST /api/transcription`: a recorded answer (base64 WebM) → its words.
pub fn transcribe(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let body: TranscriptionBody = req.json().map_err(|_| bad(TRANSCRIPTION_FAILED))?;
        if body.audio.len() > MAX_AUDIO_BYTES * 4 / 3 + 4 {
            return Err(ApiError::PayloadTooLarge);
        }
        let audio = base64::engine::general_purpose::STANDARD
            .decode(body.audio.trim())
            .map_err(|_| bad(TRANSCRIPTION_FAILED))?;
        if audio.is_empty() {
            return Err(bad(TRANSCRIPTION_FAILED));
        }
        super::within_limit(app, identity, Limited::Transcription).await?;
        match app.transcriber.transcribe(&audio).await {
            Ok(text) => ApiResponse::ok(TranscriptionView {
                transcription: text,
            }),
            Err(TranscribeError::BadAudio(detail)) => {
                tracing::info!(%detail, "unusable recording");
                Err(bad(TRANSCRIPTION_FAILED))
            }
            Err(TranscribeError::NotAvailable(detail)) => Err(ApiError::Unavailable {
                shown: "Sorry, there was an error transcribing your speech. Offline speech recognition is still being installed; please try again in a few minutes, or type your answer.",
                detail,
            }),
            Err(e) => Err(ApiError::Provider {
                shown: TRANSCRIPTION_FAILED,
                detail: e.to_string(),
            }),
        }
    })
}
