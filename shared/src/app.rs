//! Wiring: turns a [`Config`] into the adapters behind each port. This is the
//! only place that decides which implementation runs.

use std::path::Path;
use std::sync::Arc;

use rand::RngCore;
use thiserror::Error;
use time::OffsetDateTime;

use crate::adapters::dynamo::Tables;
use crate::adapters::media_link::LinkSigner;
use crate::adapters::{
    DynamoStore, EspeakSynth, GrammalecteCorrector, LocalCheckout, LocalExaminer, LocalMedia,
    OpenAiCorrector, OpenAiExaminer, OpenAiSpeech, OpenAiTranscriber, S3Media, SqliteStore,
    StripeCheckout, WhisperTranscriber,
};
use crate::catalogue::{Catalogue, ContentError};
use crate::config::{
    CheckoutConfig, Config, CorrectorConfig, ExaminerConfig, MediaConfig, SpeechConfig,
    StoreConfig, TranscriberConfig,
};
use crate::ports::checkout::{Checkout, CheckoutError};
use crate::ports::corrector::{Correction, CorrectionRequest, Corrector, CorrectorError};
use crate::ports::examiner::Examiner;
use crate::ports::limits::RateLimiter;
use crate::ports::payments::PaymentStore;
use crate::ports::speaking::SpeakingStore;
use crate::ports::transcriber::Transcriber;
use crate::ports::{MediaStore, ResultStore, SpeechSynth, StoreError, UserStore, WritingStore};

#[derive(Debug, Error)]
pub enum AppError {
    #[error("cannot open the store: {0}")]
    Store(#[from] StoreError),
    #[error(transparent)]
    Content(#[from] ContentError),
    #[error("cannot prepare the media signing key at {path}: {source}")]
    SigningKey {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot set up the payment provider: {0}")]
    Checkout(CheckoutError),
}

/// The four store ports, which one adapter implements.
type Stores = (
    Arc<dyn UserStore>,
    Arc<dyn ResultStore>,
    Arc<dyn PaymentStore>,
    Arc<dyn WritingStore>,
    Arc<dyn SpeakingStore>,
    Arc<dyn RateLimiter>,
);

/// The time source; tests fix it.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> OffsetDateTime + Send + Sync>);

impl Clock {
    pub fn system() -> Self {
        Self(Arc::new(OffsetDateTime::now_utc))
    }

    pub fn fixed(at: OffsetDateTime) -> Self {
        Self(Arc::new(move || at))
    }

    pub fn now(&self) -> OffsetDateTime {
        (self.0)()
    }
}

/// Everything a handler may use. Cheap to clone.
#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub users: Arc<dyn UserStore>,
    pub results: Arc<dyn ResultStore>,
    pub payments: Arc<dyn PaymentStore>,
    pub writing: Arc<dyn WritingStore>,
    pub speaking_results: Arc<dyn SpeakingStore>,
    /// Per-user rate limit counters (`domain::rate_limit`).
    pub limits: Arc<dyn RateLimiter>,
    /// Who corrects writing: Grammalecte offline, or an OpenAI-compatible API.
    pub corrector: Arc<dyn Corrector>,
    /// The speaking examiner: offline rules over the scenario, or an OpenAI-compatible API.
    pub examiner: Arc<dyn Examiner>,
    /// Who transcribes recorded answers: Whisper offline, or an OpenAI-compatible API.
    pub transcriber: Arc<dyn Transcriber>,
    /// The card payment provider's checkout; `None` where no secret key is configured
    /// (the functions that neither open nor read sessions).
    pub checkout: Option<Arc<dyn Checkout>>,
    /// The local test checkout, when it is the provider: the local server serves its page.
    pub local_checkout: Option<Arc<LocalCheckout>>,
    pub media: Arc<dyn MediaStore>,
    /// The local media folder, when media is local: the local server serves it.
    pub local_media: Option<Arc<LocalMedia>>,
    pub speech: Arc<dyn SpeechSynth>,
    pub catalogue: Arc<Catalogue>,
    pub clock: Clock,
    /// Test views reused for a short while (`api::view_cache`).
    pub views: Arc<crate::api::view_cache::ViewCache>,
}

impl App {
    /// Builds the adapters the configuration names.
    pub async fn from_config(config: Config) -> Result<Self, AppError> {
        let aws = if config.uses_aws() {
            let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest());
            if let Some(endpoint) = &config.aws_endpoint {
                loader = loader.endpoint_url(endpoint);
            }
            Some(loader.load().await)
        } else {
            None
        };

        let (users, results, payments, writing, speaking_results, limits): Stores =
            match (&config.store, &aws) {
                (
                    StoreConfig::DynamoDb {
                        users_table,
                        results_table,
                        payments_table,
                        writing_table,
                        speaking_table,
                        limits_table,
                    },
                    Some(sdk),
                ) => {
                    let store = Arc::new(DynamoStore::new(
                        aws_sdk_dynamodb::Client::new(sdk),
                        Tables {
                            users: users_table.clone(),
                            results: results_table.clone(),
                            payments: payments_table.clone(),
                            writing: writing_table.clone(),
                            speaking: speaking_table.clone(),
                            limits: limits_table.clone(),
                        },
                    ));
                    (
                        store.clone(),
                        store.clone(),
                        store.clone(),
                        store.clone(),
                        store.clone(),
                        store,
                    )
                }
                (StoreConfig::Embedded { path }, _) => {
                    let store = Arc::new(SqliteStore::open(path)?);
                    (
                        store.clone(),
                        store.clone(),
                        store.clone(),
                        store.clone(),
                        store.clone(),
                        store,
                    )
                }
                (StoreConfig::DynamoDb { .. }, None) => {
                    unreachable!("uses_aws() is true whenever the store is DynamoDB")
                }
            };

        let (media, local_media): (Arc<dyn MediaStore>, _) = match (&config.media, &aws) {
            (
                MediaConfig::S3 {
                    bucket,
                    signing_key,
                },
                Some(sdk),
            ) => {
                let s3 = aws_sdk_s3::config::Builder::from(sdk)
                    .force_path_style(config.aws_endpoint.is_some())
                    .build();
                let mut media = S3Media::new(aws_sdk_s3::Client::from_conf(s3), bucket);
                if let Some(key) = signing_key {
                    media = media.with_signed_links(LinkSigner::new(key.0.clone().into_bytes()));
                }
                (Arc::new(media), None)
            }
            (MediaConfig::Local { dir, signing_key }, _) => {
                let key = match signing_key {
                    Some(k) => k.0.clone().into_bytes(),
                    None => read_or_create_secret(&config.data_dir.join("media-signing.key"))?,
                };
                let local = Arc::new(LocalMedia::new(dir, key));
                (local.clone() as Arc<dyn MediaStore>, Some(local))
            }
            (MediaConfig::S3 { .. }, None) => {
                unreachable!("uses_aws() is true whenever media is S3")
            }
        };

        let (checkout, local_checkout): (Option<Arc<dyn Checkout>>, _) =
            match &config.payments.checkout {
                CheckoutConfig::Local => {
                    let site = config
                        .payments
                        .site_url
                        .clone()
                        .unwrap_or_else(|| "http://127.0.0.1:8080".into());
                    let local = Arc::new(LocalCheckout::new(site));
                    (Some(local.clone() as Arc<dyn Checkout>), Some(local))
                }
                CheckoutConfig::Stripe {
                    secret_key: Some(key),
                    api_base,
                } => (
                    Some(Arc::new(
                        StripeCheckout::new(&key.0, api_base.as_deref())
                            .map_err(AppError::Checkout)?,
                    ) as Arc<dyn Checkout>),
                    None,
                ),
                CheckoutConfig::Stripe {
                    secret_key: None, ..
                } => (None, None),
            };

        let speech: Arc<dyn SpeechSynth> = match &config.speech {
            SpeechConfig::Espeak => Arc::new(EspeakSynth),
            SpeechConfig::OpenAi {
                api_key,
                model,
                base_url,
            } => Arc::new(OpenAiSpeech::new(
                base_url,
                api_key.as_ref().map(|k| k.0.as_str()),
                model,
            )),
        };

        let corrector: Arc<dyn Corrector> = match &config.corrector {
            CorrectorConfig::Grammalecte { python } => {
                Arc::new(LazyGrammalecte::new(python.clone()))
            }
            CorrectorConfig::OpenAi {
                api_key,
                model,
                base_url,
            } => Arc::new(OpenAiCorrector::new(
                base_url,
                api_key.as_ref().map(|k| k.0.as_str()),
                model,
            )),
        };

        let examiner: Arc<dyn Examiner> = match &config.examiner {
            ExaminerConfig::Local => Arc::new(LocalExaminer::new(Some(corrector.clone()))),
            ExaminerConfig::OpenAi {
                api_key,
                model,
                base_url,
            } => Arc::new(OpenAiExaminer::new(
                base_url,
                api_key.as_ref().map(|k| k.0.as_str()),
                model,
            )),
        };
        let transcriber: Arc<dyn Transcriber> = match &config.transcriber {
            TranscriberConfig::Whisper { dir } => Arc::new(WhisperTranscriber::new(dir.clone())),
            TranscriberConfig::OpenAi {
                api_key,
                model,
                base_url,
            } => Arc::new(OpenAiTranscriber::new(
                base_url,
                api_key.as_ref().map(|k| k.0.as_str()),
                model,
            )),
        };

        Ok(Self {
            config: Arc::new(config),
            users,
            results,
            payments,
            writing,
            speaking_results,
            limits,
            corrector,
            examiner,
            transcriber,
            checkout,
            local_checkout,
            media,
            local_media,
            speech,
            catalogue: Arc::new(Catalogue::embedded()?),
            clock: Clock::system(),
            views: Arc::default(),
        })
    }

    pub fn now(&self) -> OffsetDateTime {
        self.clock.now()
    }
}

/// Grammalecte's worker, started on first use (or by `warm_up` when the local server starts),
/// so that processes which never correct a text never start Python.
pub struct LazyGrammalecte {
    python: std::path::PathBuf,
    worker: tokio::sync::OnceCell<GrammalecteCorrector>,
}

impl LazyGrammalecte {
    pub fn new(python: std::path::PathBuf) -> Self {
        Self {
            python,
            worker: tokio::sync::OnceCell::new(),
        }
    }

    async fn worker(&self) -> Result<&GrammalecteCorrector, CorrectorError> {
        self.worker
            .get_or_try_init(|| GrammalecteCorrector::start(self.python.clone()))
            .await
    }
}

#[async_trait::async_trait]
impl Corrector for LazyGrammalecte {
    async fn correct(&self, request: &CorrectionRequest) -> Result<Correction, CorrectorError> {
        self.worker().await?.correct(request).await
    }

    async fn warm_up(&self) -> Result<(), CorrectorError> {
        self.worker().await.map(|_| ())
    }
}

/// A 32-byte secret kept in the data folder, created on first start.
fn read_or_create_secret(path: &Path) -> Result<Vec<u8>, AppError> {
    let err = |source| AppError::SigningKey {
        path: path.display().to_string(),
        source,
    };
    match std::fs::read(path) {
        Ok(bytes) if bytes.len() >= 32 => return Ok(bytes),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(err(e)),
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let mut secret = vec![0u8; 32];
    rand::thread_rng().fill_bytes(&mut secret);
    crate::secrets::write_private_file(path, &secret).map_err(err)?;
    Ok(secret)
}
