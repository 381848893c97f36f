//! Typed configuration, read once at start from the environment. A bad value
//! stops the process with a message that names the variable and what it takes.
//!
//! Every variable has an embedded default, so a laptop needs none of them; the
//! README's configuration table lists them with their production values.

use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("{var} is required when {because}")]
    Missing {
        var: &'static str,
        because: &'static str,
    },
    #[error("{var}={value:?} is not valid: expected {expected}")]
    Invalid {
        var: &'static str,
        value: String,
        expected: &'static str,
    },
}

/// The media link signing secret, if given: at least 32 characters, never echoed.
fn media_signing_key(value: Option<String>) -> Result<Option<Secret>, ConfigError> {
    match value {
        None => Ok(None),
        Some(k) if k.len() >= 32 => Ok(Some(Secret(k))),
        Some(k) => Err(ConfigError::Invalid {
            var: "TEF_MEDIA_SIGNING_KEY",
            value: "*".repeat(k.len()),
            expected: "a secret of at least 32 characters",
        }),
    }
}

/// Wraps a variable lookup so that a value is trimmed, and a blank one reads as unset.
pub fn non_empty(get: impl Fn(&str) -> Option<String>) -> impl Fn(&str) -> Option<String> {
    move |k| {
        get(k)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    }
}

/// Where user documents live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreConfig {
    /// SQLite, in one file.
    Embedded { path: PathBuf },
    /// DynamoDB tables.
    DynamoDb {
        users_table: String,
        results_table: String,
        payments_table: String,
        writing_table: String,
        speaking_table: String,
        limits_table: String,
    },
}

/// Who corrects writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorrectorConfig {
    /// Grammalecte, offline, in a long-lived worker of this Python (Debian's `python3-grammalecte`).
    Grammalecte { python: PathBuf },
    /// An OpenAI-compatible chat completions API.
    OpenAi {
        api_key: Option<Secret>,
        model: String,
        base_url: String,
    },
}

/// Who plays the speaking examiner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExaminerConfig {
    /// Offline: answers from the scenario's facts, the friend's objections, measured reports.
    Local,
    OpenAi {
        api_key: Option<Secret>,
        model: String,
        base_url: String,
    },
}

/// Who transcribes recorded answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TranscriberConfig {
    /// Offline: faster-whisper, installed by `scripts/install-whisper.sh` into `dir`.
    Whisper { dir: PathBuf },
    OpenAi {
        api_key: Option<Secret>,
        model: String,
        base_url: String,
    },
}

/// Where exam images and audio live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MediaConfig {
    /// A local folder, served by the local server through signed URLs.
    Local {
        dir: PathBuf,
        /// The signing secret; `None`: read or create `media-signing.key` in the data folder.
        signing_key: Option<Secret>,
    },
    /// An S3 bucket. With a signing key (production), links are signed `/media/…` links that
    /// CloudFront checks; without one, presigned S3 URLs.
    S3 {
        bucket: String,
        signing_key: Option<Secret>,
    },
}

/// A secret value: never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// The card payment provider and how to reach it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckoutConfig {
    /// The local test checkout: a page of the local server; no card, no network.
    Local,
    /// Stripe Checkout, through async-stripe. Only the functions that open or read
    /// sessions have the secret key.
    Stripe {
        secret_key: Option<Secret>,
        /// Stripe's API, or a stand-in for tests.
        api_base: Option<String>,
    },
}

/// Payments: provider, the price id of each paid plan, and the webhook's signing secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentsConfig {
    pub checkout: CheckoutConfig,
    pub price_monthly: Option<String>,
    pub price_quarterly: Option<String>,
    /// Only the webhook function has it in production.
    pub webhook_secret: Option<Secret>,
    /// The site's address, for the provider's success and cancel links (no trailing slash).
    /// The local server fills it in with its own address when unset.
    pub site_url: Option<String>,
}

impl PaymentsConfig {
    /// The local test checkout's webhook secret: public on purpose (README), so anyone
    /// can sign test events. Never used with Stripe, which requires its own.
    pub const LOCAL_WEBHOOK_SECRET: &'static str = "whsec_tef_local_test_checkout_0123456789";

    /// The price id configured for a plan.
    pub fn price_id(&self, plan_id: &str) -> Option<&str> {
        match plan_id {
            "monthly" => self.price_monthly.as_deref(),
            "quarterly" => self.price_quarterly.as_deref(),
            _ => None,
        }
    }

    /// The plan a price id buys.
    pub fn plan_for_price(&self, price_id: &str) -> Option<&'static crate::domain::plans::Plan> {
        crate::domain::plans::PLANS
            .iter()
            .find(|p| self.price_id(p.id) == Some(price_id))
    }
}

/// Which text-to-speech engine renders listening audio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpeechConfig {
    /// espeak-ng, offline.
    Espeak,
    /// OpenAI's speech API. The key is needed to render audio (`tef-local publish`),
    /// not to serve it: the API only computes the rendered files' names.
    OpenAi {
        api_key: Option<Secret>,
        model: String,
        base_url: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub data_dir: PathBuf,
    pub store: StoreConfig,
    pub media: MediaConfig,
    pub media_url_ttl: Duration,
    pub speech: SpeechConfig,
    pub corrector: CorrectorConfig,
    pub examiner: ExaminerConfig,
    pub transcriber: TranscriberConfig,
    pub payments: PaymentsConfig,
    /// An AWS-compatible endpoint (a local DynamoDB/S3 server); `None` for AWS itself.
    pub aws_endpoint: Option<String>,
}

impl Config {
    pub const DEFAULT_DATA_DIR: &'static str = "data";
    pub const DEFAULT_USERS_TABLE: &'static str = "tef-users";
    pub const DEFAULT_RESULTS_TABLE: &'static str = "tef-results";
    pub const DEFAULT_PAYMENTS_TABLE: &'static str = "tef-payments";
    pub const DEFAULT_WRITING_TABLE: &'static str = "tef-writing-results";
    pub const DEFAULT_SPEAKING_TABLE: &'static str = "tef-speaking-results";
    pub const DEFAULT_LIMITS_TABLE: &'static str = "tef-rate-limits";
    pub const DEFAULT_MEDIA_URL_TTL_S: u64 = 900;

    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads configuration through `get`, so tests need not touch the environment.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let var = non_empty(get);

        let data_dir =
            PathBuf::from(var("TEF_DATA_DIR").unwrap_or_else(|| Self::DEFAULT_DATA_DIR.to_owned()));

        let store = match var("TEF_STORE").as_deref() {
            None | Some("embedded") => StoreConfig::Embedded {
                path: data_dir.join("tef.sqlite3"),
            },
            Some("dynamodb") => StoreConfig::DynamoDb {
                users_table: var("TEF_USERS_TABLE")
                    .unwrap_or_else(|| Self::DEFAULT_USERS_TABLE.to_owned()),
                results_table: var("TEF_RESULTS_TABLE")
                    .unwrap_or_else(|| Self::DEFAULT_RESULTS_TABLE.to_owned()),
                payments_table: var("TEF_PAYMENTS_TABLE")
                    .unwrap_or_else(|| Self::DEFAULT_PAYMENTS_TABLE.to_owned()),
                writing_table: var("TEF_WRITING_TABLE")
                    .unwrap_or_else(|| Self::DEFAULT_WRITING_TABLE.to_owned()),
                speaking_table: var("TEF_SPEAKING_TABLE")
                    .unwrap_or_else(|| Self::DEFAULT_SPEAKING_TABLE.to_owned()),
                limits_table: var("TEF_LIMITS_TABLE")
                    .unwrap_or_else(|| Self::DEFAULT_LIMITS_TABLE.to_owned()),
            },
            Some(other) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_STORE",
                    value: other.to_owned(),
                    expected: "embedded or dynamodb",
                });
            }
        };

        let media = match var("TEF_MEDIA").as_deref() {
            None | Some("local") => MediaConfig::Local {
                dir: var("TEF_MEDIA_DIR")
                    .map(PathBuf::from)
                    .unwrap_or_else(|| data_dir.join("media")),
                signing_key: media_signing_key(var("TEF_MEDIA_SIGNING_KEY"))?,
            },
            Some("s3") => MediaConfig::S3 {
                bucket: var("TEF_MEDIA_BUCKET").ok_or(ConfigError::Missing {
                    var: "TEF_MEDIA_BUCKET",
                    because: "TEF_MEDIA=s3",
                })?,
                signing_key: media_signing_key(var("TEF_MEDIA_SIGNING_KEY"))?,
            },
            Some(other) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_MEDIA",
                    value: other.to_owned(),
                    expected: "local or s3",
                });
            }
        };

        let media_url_ttl = match var("TEF_MEDIA_URL_TTL_SECONDS") {
            None => Duration::from_secs(Self::DEFAULT_MEDIA_URL_TTL_S),
            Some(v) => match v.parse::<u64>() {
                Ok(s) if (60..=43_200).contains(&s) => Duration::from_secs(s),
                _ => {
                    return Err(ConfigError::Invalid {
                        var: "TEF_MEDIA_URL_TTL_SECONDS",
                        value: v,
                        expected: "a whole number of seconds from 60 to 43200",
                    });
                }
            },
        };

        let speech = match var("TEF_SPEECH").as_deref() {
            None | Some("espeak") => SpeechConfig::Espeak,
            Some("openai") => SpeechConfig::OpenAi {
                api_key: var("OPENAI_API_KEY").map(Secret),
                model: var("TEF_SPEECH_MODEL")
                    .unwrap_or_else(|| crate::adapters::openai_speech::DEFAULT_MODEL.to_owned()),
                base_url: var("OPENAI_BASE_URL")
                    .unwrap_or_else(|| crate::adapters::openai_speech::DEFAULT_BASE_URL.to_owned()),
            },
            Some(other) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_SPEECH",
                    value: other.to_owned(),
                    expected: "espeak or openai",
                });
            }
        };

        let corrector = match var("TEF_CORRECTOR").as_deref() {
            None | Some("grammalecte") => CorrectorConfig::Grammalecte {
                python: PathBuf::from(
                    var("TEF_GRAMMALECTE_PYTHON").unwrap_or_else(|| "/usr/bin/python3".to_owned()),
                ),
            },
            Some("openai") => CorrectorConfig::OpenAi {
                api_key: var("OPENAI_API_KEY").map(Secret),
                model: var("TEF_CORRECTION_MODEL")
                    .unwrap_or_else(|| crate::adapters::openai_corrector::DEFAULT_MODEL.to_owned()),
                base_url: var("OPENAI_BASE_URL")
                    .unwrap_or_else(|| crate::adapters::openai_speech::DEFAULT_BASE_URL.to_owned()),
            },
            Some(other) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_CORRECTOR",
                    value: other.to_owned(),
                    expected: "grammalecte or openai",
                });
            }
        };

        let openai_base = || {
            var("OPENAI_BASE_URL")
                .unwrap_or_else(|| crate::adapters::openai_speech::DEFAULT_BASE_URL.to_owned())
        };
        let examiner = match var("TEF_EXAMINER").as_deref() {
            None | Some("local") => ExaminerConfig::Local,
            Some("openai") => ExaminerConfig::OpenAi {
                api_key: var("OPENAI_API_KEY").map(Secret),
                model: var("TEF_EXAMINER_MODEL")
                    .unwrap_or_else(|| crate::adapters::openai_examiner::DEFAULT_MODEL.to_owned()),
                base_url: openai_base(),
            },
            Some(other) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_EXAMINER",
                    value: other.to_owned(),
                    expected: "local or openai",
                });
            }
        };
        let transcriber = match var("TEF_TRANSCRIBER").as_deref() {
            None | Some("whisper") => TranscriberConfig::Whisper {
                dir: PathBuf::from(
                    var("TEF_WHISPER_DIR").unwrap_or_else(|| ".tools/whisper".to_owned()),
                ),
            },
            Some("openai") => TranscriberConfig::OpenAi {
                api_key: var("OPENAI_API_KEY").map(Secret),
                model: var("TEF_TRANSCRIPTION_MODEL").unwrap_or_else(|| {
                    crate::adapters::openai_transcriber::DEFAULT_MODEL.to_owned()
                }),
                base_url: openai_base(),
            },
            Some(other) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_TRANSCRIBER",
                    value: other.to_owned(),
                    expected: "whisper or openai",
                });
            }
        };

        let payments = match var("TEF_CHECKOUT").as_deref() {
            None | Some("local") => PaymentsConfig {
                checkout: CheckoutConfig::Local,
                price_monthly: Some(
                    var("TEF_STRIPE_PRICE_MONTHLY").unwrap_or_else(|| "price_local_monthly".into()),
                ),
                price_quarterly: Some(
                    var("TEF_STRIPE_PRICE_QUARTERLY")
                        .unwrap_or_else(|| "price_local_quarterly".into()),
                ),
                webhook_secret: Some(Secret(
                    var("TEF_STRIPE_WEBHOOK_SECRET")
                        .unwrap_or_else(|| PaymentsConfig::LOCAL_WEBHOOK_SECRET.into()),
                )),
                site_url: var("TEF_SITE_URL"),
            },
            Some("stripe") => {
                // The secrets are read only where they are used: the checkout functions hold
                // the secret key, the webhook function the signing secret; the others have neither.
                let webhook_secret = var("TEF_STRIPE_WEBHOOK_SECRET");
                if let Some(w) = webhook_secret.as_ref().filter(|w| !w.starts_with("whsec_")) {
                    return Err(ConfigError::Invalid {
                        var: "TEF_STRIPE_WEBHOOK_SECRET",
                        value: "*".repeat(w.len()),
                        expected: "the endpoint's signing secret, whsec_…",
                    });
                }
                PaymentsConfig {
                    checkout: CheckoutConfig::Stripe {
                        secret_key: var("STRIPE_SECRET_KEY").map(Secret),
                        api_base: var("TEF_STRIPE_API_BASE"),
                    },
                    // A missing price id is reported to the buyer (the spec's alert), not at start.
                    price_monthly: var("TEF_STRIPE_PRICE_MONTHLY"),
                    price_quarterly: var("TEF_STRIPE_PRICE_QUARTERLY"),
                    webhook_secret: webhook_secret.map(Secret),
                    site_url: Some(var("TEF_SITE_URL").ok_or(ConfigError::Missing {
                        var: "TEF_SITE_URL",
                        because: "TEF_CHECKOUT=stripe",
                    })?),
                }
            }
            Some(other) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_CHECKOUT",
                    value: other.to_owned(),
                    expected: "local or stripe",
                });
            }
        };

        let aws_endpoint = match var("TEF_AWS_ENDPOINT") {
            None => None,
            Some(v) if v.starts_with("http://") || v.starts_with("https://") => Some(v),
            Some(v) => {
                return Err(ConfigError::Invalid {
                    var: "TEF_AWS_ENDPOINT",
                    value: v,
                    expected: "an http:// or https:// URL",
                });
            }
        };

        Ok(Self {
            data_dir,
            store,
            media,
            media_url_ttl,
            speech,
            corrector,
            examiner,
            transcriber,
            payments,
            aws_endpoint,
        })
    }

    /// Whether any adapter talks to AWS (or an AWS-compatible server).
    pub fn uses_aws(&self) -> bool {
        matches!(self.store, StoreConfig::DynamoDb { .. })
            || matches!(self.media, MediaConfig::S3 { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn nothing_set_gives_the_embedded_defaults() {
        let c = config(&[]).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("data"));
        assert_eq!(
            c.store,
            StoreConfig::Embedded {
                path: PathBuf::from("data/tef.sqlite3")
            }
        );
        assert_eq!(
            c.media,
            MediaConfig::Local {
                dir: PathBuf::from("data/media"),
                signing_key: None
            }
        );
        assert_eq!(c.media_url_ttl, Duration::from_secs(900));
        assert_eq!(c.aws_endpoint, None);
        assert_eq!(c.speech, SpeechConfig::Espeak);
        assert_eq!(
            c.corrector,
            CorrectorConfig::Grammalecte {
                python: PathBuf::from("/usr/bin/python3")
            }
        );
        assert!(!c.uses_aws());
    }

    #[test]
    fn production_values_select_the_aws_adapters() {
        let c = config(&[
            ("TEF_STORE", "dynamodb"),
            ("TEF_USERS_TABLE", "prod-users"),
            ("TEF_RESULTS_TABLE", "prod-results"),
            ("TEF_PAYMENTS_TABLE", "prod-payments"),
            ("TEF_WRITING_TABLE", "prod-writing"),
            ("TEF_SPEAKING_TABLE", "prod-speaking"),
            ("TEF_LIMITS_TABLE", "prod-limits"),
            ("TEF_MEDIA", "s3"),
            ("TEF_MEDIA_BUCKET", "prod-media"),
            ("TEF_MEDIA_URL_TTL_SECONDS", "600"),
        ])
        .unwrap();
        assert_eq!(
            c.store,
            StoreConfig::DynamoDb {
                users_table: "prod-users".into(),
                results_table: "prod-results".into(),
                payments_table: "prod-payments".into(),
                writing_table: "prod-writing".into(),
                speaking_table: "prod-speaking".into(),
                limits_table: "prod-limits".into(),
            }
        );
        assert_eq!(
            c.media,
            MediaConfig::S3 {
                bucket: "prod-media".into(),
                signing_key: None
            }
        );
        assert_eq!(c.media_url_ttl, Duration::from_secs(600));
        assert!(c.uses_aws());
    }

    #[test]
    fn bad_values_name_the_variable() {
        let err = config(&[("TEF_STORE", "postgres")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "TEF_STORE=\"postgres\" is not valid: expected embedded or dynamodb"
        );
        let err = config(&[("TEF_MEDIA", "s3")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "TEF_MEDIA_BUCKET is required when TEF_MEDIA=s3"
        );
        assert!(config(&[("TEF_MEDIA_URL_TTL_SECONDS", "5")]).is_err());
        assert!(config(&[("TEF_MEDIA_URL_TTL_SECONDS", "ten")]).is_err());
        assert!(config(&[("TEF_AWS_ENDPOINT", "localhost:5000")]).is_err());
        assert!(config(&[("TEF_MEDIA_SIGNING_KEY", "short")]).is_err());
    }

    #[test]
    fn openai_speech_keys_are_optional_and_never_printed() {
        // Serving needs no key (the API only names the audio files); rendering does.
        let c = config(&[("TEF_SPEECH", "openai")]).unwrap();
        assert!(matches!(
            c.speech,
            SpeechConfig::OpenAi { api_key: None, .. }
        ));
        let c = config(&[("TEF_SPEECH", "openai"), ("OPENAI_API_KEY", "sk-live-123")]).unwrap();
        assert!(matches!(
            c.speech,
            SpeechConfig::OpenAi {
                api_key: Some(_),
                ..
            }
        ));
        assert!(!format!("{c:?}").contains("sk-live-123"));
    }

    #[test]
    fn a_short_signing_key_is_not_echoed() {
        let err = config(&[("TEF_MEDIA_SIGNING_KEY", "hunter2")]).unwrap_err();
        assert!(!err.to_string().contains("hunter2"));
    }

    #[test]
    fn a_media_signing_key_is_never_printed() {
        let key = "k".repeat(40);
        for media in ["local", "s3"] {
            let c = config(&[
                ("TEF_MEDIA", media),
                ("TEF_MEDIA_BUCKET", "b"),
                ("TEF_MEDIA_SIGNING_KEY", &key),
            ])
            .unwrap();
            assert!(!format!("{c:?}").contains(&key), "{media}");
        }
    }

    #[test]
    fn the_local_test_checkout_is_the_default_with_its_public_secret() {
        let c = config(&[]).unwrap();
        assert_eq!(c.payments.checkout, CheckoutConfig::Local);
        assert_eq!(
            c.payments.webhook_secret,
            Some(Secret(PaymentsConfig::LOCAL_WEBHOOK_SECRET.into()))
        );
        assert_eq!(c.payments.price_id("monthly"), Some("price_local_monthly"));
        assert_eq!(
            c.payments
                .plan_for_price("price_local_quarterly")
                .map(|p| p.id),
            Some("quarterly")
        );
        assert_eq!(c.payments.plan_for_price("price_other"), None);
        assert_eq!(c.payments.price_id("free"), None);
    }

    #[test]
    fn stripe_takes_its_secrets_only_where_given_and_never_the_local_one() {
        let c = config(&[
            ("TEF_CHECKOUT", "stripe"),
            ("TEF_SITE_URL", "https://tef.example"),
            ("TEF_STRIPE_PRICE_MONTHLY", "price_1M"),
        ])
        .unwrap();
        assert_eq!(
            c.payments.checkout,
            CheckoutConfig::Stripe {
                secret_key: None,
                api_base: None
            }
        );
        assert_eq!(c.payments.webhook_secret, None);
        assert_eq!(c.payments.price_id("monthly"), Some("price_1M"));
        assert_eq!(c.payments.price_id("quarterly"), None);

        let c = config(&[
            ("TEF_CHECKOUT", "stripe"),
            ("TEF_SITE_URL", "https://tef.example"),
            ("STRIPE_SECRET_KEY", "sk_live_abc"),
            ("TEF_STRIPE_WEBHOOK_SECRET", "whsec_abc"),
        ])
        .unwrap();
        assert_eq!(c.payments.webhook_secret, Some(Secret("whsec_abc".into())));
        assert!(!format!("{c:?}").contains("sk_live_abc"));
        assert!(!format!("{c:?}").contains("whsec_abc"));

        let err = config(&[
            ("TEF_CHECKOUT", "stripe"),
            ("TEF_SITE_URL", "https://tef.example"),
            (
                "TEF_STRIPE_WEBHOOK_SECRET",
                "sk_live_pasted_in_the_wrong_place",
            ),
        ])
        .unwrap_err();
        assert!(!err.to_string().contains("sk_live"), "{err}");
        assert!(matches!(
            config(&[("TEF_CHECKOUT", "stripe")]),
            Err(ConfigError::Missing {
                var: "TEF_SITE_URL",
                ..
            })
        ));
        assert!(config(&[("TEF_CHECKOUT", "paypal")]).is_err());
    }

    #[test]
    fn the_corrector_is_grammalecte_or_an_openai_compatible_server() {
        let c = config(&[
            ("TEF_CORRECTOR", "openai"),
            ("OPENAI_API_KEY", "sk-test-1"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
            ("TEF_CORRECTION_MODEL", "my-model"),
        ])
        .unwrap();
        assert_eq!(
            c.corrector,
            CorrectorConfig::OpenAi {
                api_key: Some(Secret("sk-test-1".into())),
                model: "my-model".into(),
                base_url: "http://127.0.0.1:9/v1".into(),
            }
        );
        assert!(!format!("{:?}", c.corrector).contains("sk-test-1"));
        let c = config(&[("TEF_GRAMMALECTE_PYTHON", "/opt/py/bin/python3")]).unwrap();
        assert_eq!(
            c.corrector,
            CorrectorConfig::Grammalecte {
                python: PathBuf::from("/opt/py/bin/python3")
            }
        );
        assert!(config(&[("TEF_CORRECTOR", "gpt")]).is_err());
    }
}
