//! Writing (Expression écrite): the topics and `POST /api/openai/tef-correction`.
//!
//! A correction checks and applies, in this order: sign-in and the topic's entitlement;
//! the section's word range and a size cap; then, in one atomic update of the user's
//! document, the hourly limit and the credit. Only then does the corrector run. The score
//! and the CLB are computed here from the corrections (decisions §2), never taken from the
//! corrector. A failed correction, or a failed write of its record, gives the slot and the
//! credit back and stores nothing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::exams::CatalogueEntry;
use super::{ApiError, ApiRequest, ApiResponse, HandlerFuture};
use crate::App;
use crate::domain::exam::Skill;
use crate::domain::scoring::TefScore;
use crate::domain::writing::{
    self, Refusal, Reservation, Section, TextError, TopicA, TopicB, WritingTopic, check_text,
    clb_description,
};
use crate::ports::corrector::{CorrectionItem, CorrectionRequest};
use crate::ports::results::ResultId;
use crate::ports::store::{UpdateError, update_user};
use crate::ports::writing::WritingResult;

/// Spec §8: a correction that fails, or any other error of this screen.
pub const CORRECTION_FAILED: &str =
    "Erreur lors de la récupération de la correction. Veuillez réessayer.";

const LOCKED: &str = "Subscribe to unlock this test.";

/// The ten topics for `GET /api/tests/writing`, locked past the first without a subscription.
pub fn catalogue(app: &App, sub: &crate::domain::Subscription) -> Vec<CatalogueEntry> {
    app.catalogue
        .writing_topics()
        .map(|(n, t)| CatalogueEntry {
            id: n,
            slug: Some(t.slug.clone()),
            title: t.title.clone(),
            locked: !writing::can_open(n, sub),
            available: true,
        })
        .collect()
}

/// A topic the caller may open: 404 if unknown, 403 if locked.
async fn open_topic<'a>(
    app: &'a App,
    req: &ApiRequest,
    key: &str,
) -> Result<(u32, &'a WritingTopic, Option<crate::domain::UserDoc>), ApiError> {
    let identity = req.identity()?;
    let (number, topic) = app.catalogue.writing_topic(key).ok_or(ApiError::NotFound)?;
    let doc = app.users.get_user(&identity.uid).await?.map(|v| v.value);
    let sub = doc.clone().unwrap_or_default().subscription(app.now());
    if !writing::can_open(number, &sub) {
        return Err(ApiError::Forbidden(LOCKED));
    }
    Ok((number, topic, doc))
}

/// `GET /api/tests/writing/{id}`: one topic (by slug, id or number) for an entitled user.
pub async fn get_topic(app: &App, req: &ApiRequest) -> Result<ApiResponse, ApiError> {
    let key = req.params.get("id").cloned().unwrap_or_default();
    let (number, topic, _) = open_topic(app, req, &key).await?;
    ApiResponse::ok(TopicView {
        id: &topic.id,
        number,
        slug: &topic.slug,
        title: &topic.title,
        time_limit_seconds: writing::TIME_LIMIT_SECONDS,
        section_a: &topic.section_a,
        section_b: &topic.section_b,
    })
}

/// `GET /api/tests/writing/{id}`: a topic as the writing screen shows it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopicView<'a> {
    pub id: &'a str,
    pub number: u32,
    pub slug: &'a str,
    pub title: &'a str,
    pub time_limit_seconds: u32,
    pub section_a: &'a TopicA,
    pub section_b: &'a TopicB,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CorrectionBody {
    student_text: String,
    section: String,
    topic_id: String,
}

#[derive(Serialize, JsonSchema)]
pub struct CorrectionView {
    id: String,
    section: &'static str,
    #[serde(rename = "topicId")]
    topic_id: String,
    #[serde(rename = "wordCount")]
    word_count: usize,
    corrected_text: String,
    corrections: Vec<CorrectionItem>,
    general_feedback: String,
    tef_score: u32,
    clb_level: u8,
    #[serde(rename = "tefOld")]
    tef_old: TefScore,
    #[serde(rename = "tefNew")]
    tef_new: TefScore,
    #[serde(rename = "clbText")]
    clb_text: &'static str,
    /// Credits left for a free user; `None` for a subscriber.
    #[serde(rename = "aiCredits")]
    ai_credits: Option<i64>,
}

/// `POST /api/openai/tef-correction`.
pub fn correct(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?.clone();
        let body: CorrectionBody = req
            .json()
            .map_err(|_| ApiError::BadRequest(CORRECTION_FAILED.into()))?;
        let section = Section::parse(&body.section)
            .ok_or_else(|| ApiError::BadRequest(CORRECTION_FAILED.into()))?;

        // 1. The topic and the caller's entitlement to it.
        let (number, topic, _) = open_topic(app, &req, &body.topic_id).await?;

        // 2. The section's word range, and the size cap.
        let words = check_text(section, &body.student_text).map_err(|e| match e {
            TextError::TooLarge => ApiError::PayloadTooLarge,
            other => ApiError::BadRequest(other.to_string()),
        })?;

        // 3 and 4. The hourly limit, then the credit: one atomic update.
        let now = app.now();
        let mut taken: Option<Reservation> = None;
        let reserved = update_user(app.users.as_ref(), &identity.uid, |doc| {
            let (next, r) = writing::reserve(doc, now)?;
            taken = Some(r);
            Ok::<_, Refusal>(next)
        })
        .await;
        let doc = match reserved {
            Ok(v) => v.value,
            Err(UpdateError::Rule(Refusal::HourlyLimit)) => {
                return Err(ApiError::TooManyRequests(
                    "You have reached the limit of 10 corrections per hour. Please try again later.",
                ));
            }
            Err(UpdateError::Rule(Refusal::NoCredits)) => {
                return Err(ApiError::PaymentRequired(
                    "You have used all your free AI analysis credits. Subscribe for unlimited corrections.",
                ));
            }
            Err(UpdateError::Store(e)) => return Err(e.into()),
        };
        let Some(reservation) = taken else {
            return Err(ApiError::internal("writing", "no reservation was made"));
        };

        // 5. The correction. 6. The score and CLB, computed here. 7. The record.
        let outcome = correct_and_store(
            app,
            &identity,
            section,
            number,
            topic,
            &body.student_text,
            words,
        )
        .await;
        match outcome {
            Ok((record, estimate_old)) => ApiResponse::ok(CorrectionView {
                id: record.id.as_str().to_owned(),
                section: section.as_str(),
                topic_id: record.topic_id,
                word_count: words,
                corrected_text: record.corrected_text,
                corrections: record.corrections,
                general_feedback: record.general_feedback,
                tef_score: record.tef_score,
                clb_level: record.clb_level,
                tef_old: estimate_old,
                tef_new: record.tef_new,
                clb_text: clb_description(record.clb_level),
                ai_credits: writing::credits_left(&doc, now),
            }),
            Err(e) => {
                give_back(app, &identity, reservation).await;
                Err(e)
            }
        }
    })
}

async fn correct_and_store(
    app: &App,
    identity: &crate::domain::Identity,
    section: Section,
    number: u32,
    topic: &WritingTopic,
    text: &str,
    words: usize,
) -> Result<(WritingResult, TefScore), ApiError> {
    let (prompt, document) = topic.task(section);
    let correction = app
        .corrector
        .correct(&CorrectionRequest {
            section,
            text: text.to_owned(),
            prompt: prompt.to_owned(),
            document: document.to_owned(),
        })
        .await
        .map_err(|e| ApiError::Provider {
            shown: CORRECTION_FAILED,
            detail: e.to_string(),
        })?;
    let estimate = writing::estimate(correction.corrections.len(), words);
    let record = WritingResult {
        id: ResultId::new(Skill::Writing, app.now()),
        uid: identity.uid.clone(),
        email: identity.email.as_ref().map(|e| e.as_str().to_owned()),
        section,
        topic_id: topic.id.clone(),
        topic_number: number,
        tef_score: writing::score(correction.corrections.len(), words),
        clb_level: estimate.clb,
        tef_new: estimate.tef_new,
        word_count: u32::try_from(words).unwrap_or(u32::MAX),
        original_text: text.to_owned(),
        corrected_text: correction.corrected_text,
        corrections: correction.corrections,
        general_feedback: correction.general_feedback,
        timestamp: app.now(),
    };
    app.writing.add_writing_result(&record).await?;
    Ok((record, estimate.tef_old))
}

/// Gives back the hourly slot and the credit of a correction that failed.
async fn give_back(app: &App, identity: &crate::domain::Identity, reservation: Reservation) {
    let released = update_user(app.users.as_ref(), &identity.uid, |doc| {
        Ok::<_, std::convert::Infallible>(writing::release(doc, reservation))
    })
    .await;
    if let Err(e) = released {
        tracing::error!(uid = %identity.uid, error = %e, "could not give a correction's credit back");
    }
}
