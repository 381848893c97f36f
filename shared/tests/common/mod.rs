//! Test support: the AWS-compatible server the contract suites run against.
//!
//! `make test` starts moto's server and sets `TEF_TEST_AWS_ENDPOINT`. Without
//! it these suites fail, loudly: they are never skipped.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

use aws_sdk_dynamodb::config::Credentials;

pub fn aws_endpoint() -> String {
    std::env::var("TEF_TEST_AWS_ENDPOINT").unwrap_or_else(|_| {
        panic!(
            "TEF_TEST_AWS_ENDPOINT is not set. The DynamoDB and S3 contract suites need a local \
             AWS-compatible server: run `make test`, or start `moto_server -p 5055` and set \
             TEF_TEST_AWS_ENDPOINT=http://127.0.0.1:5055"
        )
    })
}

pub async fn aws_config() -> aws_config::SdkConfig {
    aws_config::defaults(aws_config::BehaviorVersion::latest())
        .region(aws_config::Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "tests"))
        .endpoint_url(aws_endpoint())
        .load()
        .await
}

/// A name no other test in this run uses.
pub fn unique(prefix: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}-{}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0)
    )
}

/// The template's own tables (keys, types and indexes as `template.yaml` defines them),
/// created on the test server under fresh names.
pub async fn template_tables() -> shared::adapters::dynamo::Tables {
    let vars = testkit::template::template_tables(&aws_endpoint()).await;
    shared::adapters::dynamo::Tables::from_vars(|var| vars.get(var).cloned())
        .expect("template.yaml names every table the store uses")
}

/// The template's media bucket, created on the test server under a fresh name.
pub async fn template_media_bucket() -> String {
    let sdk = aws_config().await;
    let conf = aws_sdk_s3::config::Builder::from(&sdk)
        .force_path_style(true)
        .build();
    let buckets = testkit::Template::load()
        .create_buckets(
            &aws_sdk_s3::Client::from_conf(conf),
            &testkit::template::unique_suffix(),
        )
        .await;
    buckets
        .get("MediaBucket")
        .expect("template.yaml defines MediaBucket")
        .clone()
}

/// An app on the embedded store and local adapters (no AWS, no network), with a fixed clock:
/// for tests that call the handlers or the Lambda edge directly.
pub fn offline_app(
    catalogue: std::sync::Arc<shared::catalogue::Catalogue>,
    store: std::sync::Arc<shared::adapters::SqliteStore>,
    now: time::OffsetDateTime,
) -> shared::App {
    use std::sync::Arc;
    let media = Arc::new(shared::adapters::LocalMedia::new(
        "/nonexistent",
        vec![7; 32],
    ));
    shared::App {
        config: Arc::new(shared::Config::from_lookup(|_| None).unwrap()),
        users: store.clone(),
        results: store.clone(),
        payments: store.clone(),
        writing: store.clone(),
        speaking_results: store.clone(),
        limits: store,
        corrector: Arc::new(shared::app::LazyGrammalecte::new("/usr/bin/python3".into())),
        examiner: Arc::new(shared::adapters::LocalExaminer::new(None)),
        transcriber: Arc::new(shared::adapters::WhisperTranscriber::new(
            "/nonexistent".into(),
        )),
        checkout: None,
        local_checkout: None,
        media: media.clone(),
        local_media: Some(media),
        speech: Arc::new(shared::adapters::EspeakSynth),
        catalogue,
        clock: shared::app::Clock::fixed(now),
        views: Default::default(),
    }
}
