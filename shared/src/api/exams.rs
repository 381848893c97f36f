//! Reading and listening exams: the catalogue, a test without its keys,
//! grading an attempt, a stored result, and the progress tracker.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{ApiError, ApiRequest, ApiResponse, HandlerFuture, view_cache};
use crate::App;
use crate::catalogue::TESTS_PER_PAPER;
use crate::domain::content::{Image, Question, Test};
use crate::domain::exam::{self, Skill};
use crate::domain::rate_limit::Limited;
use crate::domain::scoring::{self, Paper, TefScore};
use crate::domain::subscription::Subscription;
use crate::domain::typography::french_spacing;
use crate::domain::{Identity, UserDoc};
use crate::ports::media::MediaKey;
use crate::ports::results::{Added, ResultId, ResultRecord};
use crate::ports::speaking::SpeakingResult;
use crate::ports::writing::WritingResult;
use crate::publish::audio_key;

/// Sessions per skill the tracker fetches, and shows.
const TRACKER_FETCH: usize = 10;
const TRACKER_SHOW: usize = 5;

const LOCKED: &str = "Subscribe to unlock this test.";

/// The four categories; only reading and listening are exams with papers here.
fn category(req: &ApiRequest) -> Result<(&'static str, Option<Paper>), ApiError> {
    let raw = req.params.get("category").map(|c| c.trim().to_lowercase());
    match raw.as_deref() {
        Some("reading") => Ok(("reading", Some(Paper::Reading))),
        Some("listening") => Ok(("listening", Some(Paper::Listening))),
        Some("writing") => Ok(("writing", None)),
        Some("speaking") => Ok(("speaking", None)),
        _ => Err(ApiError::NotFound),
    }
}

fn paper_and_id(req: &ApiRequest) -> Result<(Paper, u32), ApiError> {
    let (_, paper) = category(req)?;
    let paper = paper.ok_or(ApiError::NotFound)?;
    let id = req
        .params
        .get("id")
        .and_then(|s| s.parse::<u32>().ok())
        .filter(|id| (1..=TESTS_PER_PAPER).contains(id))
        .ok_or(ApiError::NotFound)?;
    Ok((paper, id))
}

fn paper_name(p: Paper) -> &'static str {
    match p {
        Paper::Reading => "Reading",
        Paper::Listening => "Listening",
    }
}

async fn subscription(
    app: &App,
    identity: &Identity,
) -> Result<(Option<UserDoc>, Subscription), ApiError> {
    let doc = app.users.get_user(&identity.uid).await?.map(|v| v.value);
    let sub = doc.clone().unwrap_or_default().subscription(app.now());
    Ok((doc, sub))
}

/// One test, topic or scenario of a category's catalogue.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueEntry {
    pub id: u32,
    /// The readable id of a writing topic or speaking scenario (`GET /api/tests/writing/{slug}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    pub title: String,
    /// Not in the caller's plan: opening it answers 403.
    pub locked: bool,
    pub available: bool,
}

/// `GET /api/tests/{category}`.
#[derive(Serialize, JsonSchema)]
pub struct CatalogueView {
    pub category: &'static str,
    pub tests: Vec<CatalogueEntry>,
}

/// `GET /api/tests/{category}`: the ten tests and which this user may open.
pub fn catalogue(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let (name, paper) = category(&req)?;
        let (_, sub) = subscription(app, identity).await?;
        let tests = match (name, paper) {
            ("writing", _) => super::writing::catalogue(app, &sub),
            ("speaking", _) => super::speaking::catalogue(app, &sub),
            (_, None) => Vec::new(),
            (_, Some(p)) => (1..=TESTS_PER_PAPER)
                .map(|id| CatalogueEntry {
                    id,
                    slug: None,
                    title: format!("{} Test {id}", paper_name(p)),
                    locked: !exam::can_open(id, &sub),
                    available: app.catalogue.test(p, id).is_some(),
                })
                .collect(),
        };
        ApiResponse::ok(CatalogueView {
            category: name,
            tests,
        })
    })
}

// The views borrow the catalogue's text: a test of 40 questions is serialized without copying it.
#[derive(Serialize, JsonSchema)]
pub struct MediaImage<'a> {
    url: String,
    alt: &'a str,
    width: u32,
    height: u32,
}

#[derive(Serialize, JsonSchema)]
pub struct DocumentView<'a> {
    title: Option<&'a str>,
    text: Option<&'a str>,
    image: Option<MediaImage<'a>>,
}

#[derive(Serialize, JsonSchema)]
pub struct AudioView {
    url: String,
}

/// A question as the quiz shows it: no key, no explanation, no transcript.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuestionView<'a> {
    number: u32,
    part: &'a str,
    prompt: &'a str,
    options: &'a [String],
    document: Option<DocumentView<'a>>,
    image: Option<MediaImage<'a>>,
    audio: Option<AudioView>,
}

async fn signed(app: &App, key: &str) -> Result<String, ApiError> {
    let key = MediaKey::parse(key).map_err(|e| ApiError::internal("content media key", e))?;
    Ok(app.media.signed_url(&key, app.config.media_url_ttl).await?)
}

async fn image_view<'a>(
    app: &App,
    img: &'a Option<Image>,
) -> Result<Option<MediaImage<'a>>, ApiError> {
    match img {
        None => Ok(None),
        Some(i) => Ok(Some(MediaImage {
            url: signed(app, &i.file).await?,
            alt: &i.alt,
            width: i.width,
            height: i.height,
        })),
    }
}

async fn question_view<'a>(
    app: &App,
    test: &'a Test,
    q: &'a Question,
) -> Result<QuestionView<'a>, ApiError> {
    let document = match q.document.as_deref().and_then(|id| test.document(id)) {
        None => None,
        Some(d) => Some(DocumentView {
            title: d.title.as_deref(),
            text: d.text.as_deref(),
            image: image_view(app, &d.image).await?,
        }),
    };
    let audio = match audio_key(test, q, &app.catalogue.cast, app.speech.engine_id()) {
        None => None,
        Some(key) => Some(AudioView {
            url: app.media.signed_url(&key, app.config.media_url_ttl).await?,
        }),
    };
    Ok(QuestionView {
        number: q.number,
        part: &q.part,
        prompt: &q.prompt,
        options: &q.options,
        document,
        image: image_view(app, &q.image).await?,
        audio,
    })
}

/// Finds a test the caller may open: 404 if unknown, 403 if not in their plan.
async fn open_test<'a>(
    app: &'a App,
    req: &ApiRequest,
) -> Result<(Paper, &'a Test, Option<UserDoc>), ApiError> {
    let identity = req.identity()?;
    let (paper, id) = paper_and_id(req)?;
    let (doc, sub) = subscription(app, identity).await?;
    if !exam::can_open(id, &sub) {
        return Err(ApiError::Forbidden(LOCKED));
    }
    let test = app.catalogue.test(paper, id).ok_or(ApiError::NotFound)?;
    Ok((paper, test, doc))
}

/// A test as the quiz receives it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestView<'a> {
    category: Paper,
    id: u32,
    title: &'a str,
    time_limit_seconds: u32,
    questions: Vec<QuestionView<'a>>,
}

/// `GET /api/tests/{category}/{id}`: the questions, without keys, with signed media links.
pub fn get_test(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        match category(&req)?.0 {
            "writing" => return super::writing::get_topic(app, &req).await,
            "speaking" => return super::speaking::get_scenario(app, &req).await,
            _ => {}
        }
        let (paper, test, _) = open_test(app, &req).await?;
        let now = app.now();
        let reuse = view_cache::reuse_for(app.config.media_url_ttl);
        if let Some(body) = app.views.get(paper, test.id, now, reuse) {
            return Ok(ApiResponse {
                status: http::StatusCode::OK,
                body,
            });
        }
        let mut questions = Vec::with_capacity(test.questions.len());
        for q in &test.questions {
            questions.push(question_view(app, test, q).await?);
        }
        let response = ApiResponse::ok(TestView {
            category: paper,
            id: test.id,
            title: &test.title,
            time_limit_seconds: exam::time_limit_seconds(paper),
            questions,
        })?;
        app.views.put(paper, test.id, now, response.body.clone());
        Ok(response)
    })
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AttemptBody {
    answers: Vec<Option<usize>>,
    duration_seconds: u32,
    /// The browser's id for this attempt: a resent submission returns the first result.
    #[serde(default)]
    attempt_id: Option<String>,
}

fn valid_attempt_id(id: &str) -> bool {
    (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

#[derive(Serialize, JsonSchema)]
pub struct TranscriptLine {
    speaker: String,
    text: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewedQuestion<'a> {
    #[serde(flatten)]
    question: QuestionView<'a>,
    your_answer: Option<String>,
    correct_answer: String,
    correct: bool,
    explanation: String,
    transcript: Option<Vec<TranscriptLine>>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttemptResultView<'a> {
    result_id: String,
    quiz_id: String,
    category: Paper,
    test_id: u32,
    title: String,
    score: u32,
    total: u32,
    percent: u32,
    duration_seconds: u32,
    clb: u8,
    tef_old: TefScore,
    tef_new: TefScore,
    /// The whole percent of other learners' first attempts at this paper that scored lower;
    /// `null` until 30 exist (decisions §5).
    exceeds_percent: Option<u32>,
    /// The paper was revised after this attempt: the score stands, the review shows the current
    /// questions, and the learner's answers (option numbers in the old paper) are not shown.
    paper_changed: bool,
    #[serde(with = "time::serde::rfc3339")]
    #[schemars(with = "super::openapi::DateTime")]
    timestamp: OffsetDateTime,
    questions: Vec<ReviewedQuestion<'a>>,
}

async fn result_view<'a>(
    app: &App,
    test: &'a Test,
    r: &ResultRecord,
) -> Result<AttemptResultView<'a>, ApiError> {
    let paper = test.category;
    let skill = Skill::from(paper);
    let distribution = app.results.score_distribution(skill, test.id).await?;
    let own_first = app
        .results
        .first_attempt_score(&r.uid, skill, test.id)
        .await?;
    let exceeds_percent = scoring::exceeds_percent(&distribution, r.score, own_first);
    let paper_changed = r
        .paper_version
        .as_deref()
        .is_some_and(|v| v != exam::paper_version(test));
    let mut questions = Vec::with_capacity(test.questions.len());
    for (i, q) in test.questions.iter().enumerate() {
        // The stored answers are option numbers in the paper as it was: never read them
        // against revised options.
        let chosen = if paper_changed {
            None
        } else {
            r.answers.get(i).copied().flatten()
        };
        let transcript = q.audio.as_ref().map(|lines| {
            lines
                .iter()
                .map(|l| TranscriptLine {
                    speaker: app
                        .catalogue
                        .cast
                        .voices
                        .get(&l.speaker)
                        .map_or_else(|| l.speaker.clone(), |v| v.label.clone()),
                    text: french_spacing(&l.text),
                })
                .collect()
        });
        questions.push(ReviewedQuestion {
            question: question_view(app, test, q).await?,
            your_answer: chosen.and_then(|c| q.options.get(c).cloned()),
            correct_answer: q.key().unwrap_or_default().to_owned(),
            correct: chosen == Some(q.answer),
            explanation: q.explanation.clone(),
            transcript,
        });
    }
    Ok(AttemptResultView {
        result_id: r.id.as_str().to_owned(),
        quiz_id: r.quiz_id.clone(),
        category: paper,
        test_id: r.test_id,
        title: test.title.clone(),
        score: r.score,
        total: r.total,
        percent: r.score * 100 / r.total.max(1),
        exceeds_percent,
        paper_changed,
        duration_seconds: r.duration_seconds,
        clb: r.clb,
        tef_old: r.tef_old,
        tef_new: r.tef_new,
        timestamp: r.timestamp,
        questions,
    })
}

/// `POST /api/tests/{category}/{id}/attempts`: grades on the server, stores the result, returns the review.
pub fn submit_attempt(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let body: AttemptBody = req.json()?;
        let (paper, test, doc) = open_test(app, &req).await?;
        if body
            .attempt_id
            .as_deref()
            .is_some_and(|a| !valid_attempt_id(a))
        {
            return Err(ApiError::BadRequest(
                "attemptId must be 8 to 64 letters, digits or dashes.".into(),
            ));
        }
        let graded =
            exam::grade(test, &body.answers).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        super::within_limit(app, identity, Limited::SubmitAttempt).await?;
        let correct = u32::try_from(graded.iter().filter(|g| g.correct).count()).unwrap_or(0);
        let estimate = scoring::estimate(paper, correct);
        let now = app.now();
        let record = ResultRecord {
            id: ResultId::new(Skill::from(paper), now),
            uid: identity.uid.clone(),
            email: doc
                .and_then(|d| d.email)
                .or_else(|| identity.email.as_ref().map(ToString::to_string)),
            skill: Skill::from(paper),
            quiz_id: exam::quiz_id(paper, test.id),
            test_id: test.id,
            score: estimate.correct,
            total: u32::try_from(test.questions.len()).unwrap_or(scoring::QUESTIONS),
            clb: estimate.clb,
            tef_old: estimate.tef_old,
            tef_new: estimate.tef_new,
            duration_seconds: exam::clamp_duration(paper, body.duration_seconds),
            answers: body.answers,
            timestamp: now,
            attempt_id: body.attempt_id,
            paper_version: Some(exam::paper_version(test)),
        };
        if let Added::AlreadyStored(first) = app.results.add_result(&record).await? {
            // A resent or doubled submission: the first result stands, nothing else is stored.
            let first = app
                .results
                .get_result(&identity.uid, &first)
                .await?
                .ok_or_else(|| ApiError::internal("attempt claim", "claimed result is missing"))?;
            tracing::info!(uid = %identity.uid, attempt = ?first.attempt_id, "resent attempt: returning its first result");
            return ApiResponse::ok(result_view(app, test, &first).await?);
        }
        // The learner's first attempt at this paper joins the paper's score distribution.
        app.results
            .count_first_attempt(&identity.uid, record.skill, test.id, record.score)
            .await?;
        tracing::info!(uid = %identity.uid, quiz = %record.quiz_id, score = record.score, clb = record.clb, "attempt graded");
        ApiResponse::ok(result_view(app, test, &record).await?)
    })
}

/// `GET /api/results/{id}`: one of the caller's results, with its review. Anyone else's is 404.
pub fn get_result(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let id = req
            .params
            .get("id")
            .and_then(|s| ResultId::parse(s))
            .ok_or(ApiError::NotFound)?;
        let record = app
            .results
            .get_result(&identity.uid, &id)
            .await?
            .ok_or(ApiError::NotFound)?;
        let paper = match record.skill {
            Skill::Reading => Paper::Reading,
            Skill::Listening => Paper::Listening,
            _ => return Err(ApiError::NotFound),
        };
        let test = app
            .catalogue
            .test(paper, record.test_id)
            .ok_or(ApiError::NotFound)?;
        ApiResponse::ok(result_view(app, test, &record).await?)
    })
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressPoint {
    result_id: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schemars(with = "super::openapi::DateTime")]
    timestamp: OffsetDateTime,
    clb: u8,
    score: u32,
    total: u32,
    test_id: u32,
}

impl From<&ResultRecord> for ProgressPoint {
    fn from(r: &ResultRecord) -> Self {
        Self {
            result_id: r.id.as_str().to_owned(),
            timestamp: r.timestamp,
            clb: r.clb,
            score: r.score,
            total: r.total,
            test_id: r.test_id,
        }
    }
}

/// A corrected text on the tracker: its /450 score.
impl From<&WritingResult> for ProgressPoint {
    fn from(r: &WritingResult) -> Self {
        Self {
            result_id: r.id.as_str().to_owned(),
            timestamp: r.timestamp,
            clb: r.clb_level,
            score: r.tef_score,
            total: scoring::WRITING_OLD_MAX,
            test_id: r.topic_number,
        }
    }
}

/// A speaking session on the tracker: its report's /450 score.
impl From<&SpeakingResult> for ProgressPoint {
    fn from(r: &SpeakingResult) -> Self {
        Self {
            result_id: r.id.as_str().to_owned(),
            timestamp: r.timestamp,
            clb: r.clb_level,
            score: r.score,
            total: scoring::WRITING_OLD_MAX,
            test_id: r.topic_number,
        }
    }
}

/// `GET /api/progress`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressView {
    /// Per skill (`reading`, `listening`, `writing`, `speaking`), the latest five sessions,
    /// oldest first.
    pub skills: BTreeMap<&'static str, Vec<ProgressPoint>>,
    /// The lowest of the skills' latest CLB levels; `null` until a skill has a result.
    pub overall_clb: Option<u8>,
    pub skills_with_results: usize,
}

/// `GET /api/progress`: the latest five sessions per skill, oldest to newest, and the overall CLB.
pub fn progress(app: &App, req: ApiRequest) -> HandlerFuture<'_> {
    Box::pin(async move {
        let identity = req.identity()?;
        let mut skills: BTreeMap<&'static str, Vec<ProgressPoint>> = BTreeMap::new();
        let mut latest = Vec::new();
        for skill in Skill::ALL {
            let mut points: Vec<ProgressPoint> = match skill {
                Skill::Speaking => app
                    .speaking_results
                    .recent_speaking_results(&identity.uid, TRACKER_FETCH)
                    .await?
                    .iter()
                    .map(ProgressPoint::from)
                    .collect(),
                Skill::Writing => app
                    .writing
                    .recent_writing_results(&identity.uid, TRACKER_FETCH)
                    .await?
                    .iter()
                    .map(ProgressPoint::from)
                    .collect(),
                Skill::Reading | Skill::Listening => app
                    .results
                    .recent_results(&identity.uid, skill, TRACKER_FETCH)
                    .await?
                    .iter()
                    .map(ProgressPoint::from)
                    .collect(),
            };
            points.truncate(TRACKER_SHOW);
            points.reverse();
            if let Some(last) = points.last() {
                latest.push(last.clb);
            }
            skills.insert(skill.as_str(), points);
        }
        ApiResponse::ok(ProgressView {
            skills,
            overall_clb: scoring::overall_clb(latest.iter().copied()),
            skills_with_results: latest.len(),
        })
    })
}
