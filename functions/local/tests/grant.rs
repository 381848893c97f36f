//! `tef-local grant`: support gives a real account access without a payment, in the
//! configured store. Here the DynamoDB store, on the local AWS-compatible server that
//! `make test` starts, and an account named by a Cognito-style `sub`.

use crate::common;

use std::process::Command;

use aws_sdk_dynamodb::config::Credentials;
use shared::adapters::DynamoStore;
use shared::adapters::dynamo::Tables;
use shared::domain::{UserDoc, UserId};
use shared::ports::UserStore;

fn endpoint() -> String {
    std::env::var("TEF_TEST_AWS_ENDPOINT").unwrap_or_else(|_| {
        panic!("TEF_TEST_AWS_ENDPOINT is not set: run `make test` (it starts moto's server)")
    })
}

fn grant(tables: &Tables, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tef-local"))
        .arg("grant")
        .args(args)
        .env("TEF_STORE", "dynamodb")
        .envs(tables.vars())
        .env("TEF_AWS_ENDPOINT", endpoint())
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("TEF_DATA_DIR", std::env::temp_dir().join("tef-grant-test"))
        .output()
        .unwrap()
}

#[tokio::test]
async fn support_grants_a_production_account_by_its_sub() {
    let sdk = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .region(aws_config::Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "tests"))
        .endpoint_url(endpoint())
        .load()
        .await;
    let tables = common::template_tables(&endpoint()).await;
    let store = DynamoStore::new(aws_sdk_dynamodb::Client::new(&sdk), tables.clone());
    let sub = UserId::parse("3f1c2b9e-7a41-4d5c-9a0e-1b2c3d4e5f60").unwrap();
    store
        .put_user(
            &sub,
            &UserDoc {
                email: Some("ana@example.com".into()),
                accepted_privacy_policy: true,
                ..UserDoc::default()
            },
            None,
        )
        .await
        .unwrap();

    let out = grant(&tables, &["--uid", sub.as_str(), "monthly"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 Month until"));
    let doc = store.get_user(&sub).await.unwrap().unwrap().value;
    assert_eq!(doc.subscription_type.as_deref(), Some("monthly"));
    let days = (doc.subscription_end_date.unwrap() - time::OffsetDateTime::now_utc()).whole_hours();
    assert!((719..=720).contains(&days), "{days} hours");
    assert_eq!(doc.email.as_deref(), Some("ana@example.com"));

    // An e-mail names a local account only: refused against DynamoDB.
    let out = grant(&tables, &["ana@example.com", "monthly"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--uid"));
    // An account that never signed up is not created.
    let out = grant(&tables, &["--uid", "0000-no-such-user", "monthly"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no account yet"));
    // The free plan buys nothing.
    assert!(
        !grant(&tables, &["--uid", sub.as_str(), "free"])
            .status
            .success()
    );
}
