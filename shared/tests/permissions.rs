//! Permissions are derived, not trusted (issue 15). Each function of `template.yaml` is built
//! from its own template environment (tables, bucket, variables), with moto's server behind a
//! recording proxy as its AWS endpoint; its route is driven through the Lambda edge with API
//! Gateway v2 events, through every branch that touches AWS (new and known users, first and
//! resent attempts, a payment and its replay, a cached and an uncached speech render…). Every
//! DynamoDB, S3 and SSM call on the wire is recorded as its IAM action and resource, and so is
//! every media link the route signs (the browser's GET needs `s3:GetObject` from the signer).
//! Then each function's policy must grant exactly what its route used: no call without a grant,
//! no grant without a call.
//!
//! Only the providers outside AWS are replaced (the AI and speech adapters by offline
//! stand-ins, the card checkout by the local test checkout): they make no AWS call.

use crate::common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use lambda_http::Request;
use serde_json::{Value, json};
use shared::App;
use shared::adapters::{LocalCheckout, LocalExaminer};
use shared::api::routes::by_name;
use shared::domain::content::Voice;
use shared::domain::payments::SessionId;
use shared::ports::corrector::{Correction, CorrectionRequest, Corrector, CorrectorError};
use shared::ports::speech::{SpeechError, SpeechSynth};
use shared::ports::transcriber::{TranscribeError, Transcriber};
use testkit::permissions::{Use, compare};
use testkit::{Recorder, Template};

const WEBHOOK_SECRET: &str = testkit::template::TEST_WEBHOOK_SECRET;

struct FixedCorrector;

#[async_trait]
impl Corrector for FixedCorrector {
    async fn correct(&self, request: &CorrectionRequest) -> Result<Correction, CorrectorError> {
        Ok(Correction {
            corrected_text: request.text.clone(),
            corrections: vec![],
            general_feedback: "Bon travail.".into(),
        })
    }
}

struct FixedTranscriber;

#[async_trait]
impl Transcriber for FixedTranscriber {
    async fn transcribe(&self, _audio: &[u8]) -> Result<String, TranscribeError> {
        Ok("Bonjour, je voudrais des renseignements.".into())
    }
}

struct SilentSynth;

#[async_trait]
impl SpeechSynth for SilentSynth {
    fn engine_id(&self) -> &str {
        "silent-test"
    }
    async fn synthesize(&self, _text: &str, _voice: &Voice) -> Result<Bytes, SpeechError> {
        Ok(Bytes::from_static(b"RIFF\x24\0\0\0WAVEfmt "))
    }
}

struct Harness {
    template: Template,
    recorder: Recorder,
    /// Logical id → physical name, for the tables and the bucket.
    names: BTreeMap<String, String>,
    apps: HashMap<String, App>,
    checkout: Arc<LocalCheckout>,
    used: BTreeMap<String, BTreeSet<Use>>,
    /// The functions' TEF_DATA_DIR.
    data_dir: tempfile::TempDir,
}

impl Harness {
    async fn start() -> Self {
        let template = Template::load();
        let upstream = common::aws_endpoint();
        let names = template.create_resources(&upstream).await;
        template.create_secret_parameters(&upstream).await;
        Self {
            template,
            recorder: Recorder::start(&upstream).await,
            names,
            apps: HashMap::new(),
            checkout: Arc::new(LocalCheckout::new("https://app.example.com")),
            used: BTreeMap::new(),
            data_dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The function's environment as deployed: globals and its own variables, resolved.
    fn environment(&self, binary: &str) -> BTreeMap<String, String> {
        let function = self
            .template
            .function(binary)
            .unwrap_or_else(|| panic!("no function with Binary: {binary} in template.yaml"));
        let mut vars = function.resolved_env(&self.names, testkit::template::test_parameter);
        vars.insert("TEF_AWS_ENDPOINT".into(), self.recorder.endpoint.clone());
        vars.insert(
            "TEF_DATA_DIR".into(),
            self.data_dir.path().display().to_string(),
        );
        vars
    }

    async fn app(&mut self, binary: &str) -> App {
        if let Some(app) = self.apps.get(binary) {
            return app.clone();
        }
        let vars = self.environment(binary).into_iter().collect();
        // As at cold start: the secrets it names are read from SSM, then the adapters built.
        let mut app = shared::lambda::app_from_env(vars)
            .await
            .unwrap_or_else(|e| panic!("{binary}: cannot start: {e}"));
        // Providers outside AWS: offline stand-ins, one local checkout for all functions.
        app.corrector = Arc::new(FixedCorrector);
        app.transcriber = Arc::new(FixedTranscriber);
        app.examiner = Arc::new(LocalExaminer::new(None));
        app.speech = Arc::new(SilentSynth);
        if app.checkout.is_some() {
            app.checkout = Some(self.checkout.clone());
        }
        // The cold start's calls (the secret it reads) belong to the function too.
        let calls: Vec<Use> = self
            .recorder
            .take()
            .into_iter()
            .map(|c| self.logical(&c.action, &c.resource))
            .collect();
        self.used
            .entry(binary.to_owned())
            .or_default()
            .extend(calls);
        self.apps.insert(binary.to_owned(), app.clone());
        app
    }

    /// One request through the Lambda edge of `route`'s function; the calls it made are
    /// recorded against that route. Fails unless the status is `expect`.
    async fn call(
        &mut self,
        route: &str,
        path: &str,
        who: Option<&str>,
        body: Option<Value>,
        expect: u16,
    ) -> Value {
        self.call_raw(
            route,
            path,
            who,
            body.map(|b| b.to_string()).unwrap_or_default(),
            &[],
            expect,
        )
        .await
    }

    async fn call_raw(
        &mut self,
        name: &str,
        path: &str,
        who: Option<&str>,
        body: String,
        headers: &[(&str, &str)],
        expect: u16,
    ) -> Value {
        let route = by_name(name).unwrap();
        let app = self.app(name).await;
        let event = event(route.method.as_str(), route.path, path, who, &body, headers);
        let res = shared::lambda::handle(&app, route, event).await;
        let status = res.status().as_u16();
        let json: Value = serde_json::from_slice(res.body().as_ref()).unwrap_or(Value::Null);
        assert_eq!(status, expect, "{name} {path}: {json}");
        let mut calls: BTreeSet<Use> = self
            .recorder
            .take()
            .into_iter()
            .map(|c| self.logical(&c.action, &c.resource))
            .collect();
        // A presigned S3 link (a function without the media link secret would hand one out):
        // the browser's GET is authorised by the signer's s3:GetObject.
        let prefix = format!("{}/{}/", self.recorder.endpoint, self.names["MediaBucket"]);
        let mut links = Vec::new();
        collect_strings(&json, &mut links);
        for link in links.into_iter().filter(|l| l.starts_with(&prefix)) {
            let key = link[prefix.len()..].split('?').next().unwrap_or_default();
            calls.insert(Use {
                action: "s3:GetObject".into(),
                resource: format!("MediaBucket/{key}"),
            });
        }
        self.used.entry(name.to_owned()).or_default().extend(calls);
        json
    }

    /// A wire resource (`table/<name>…`, `bucket/<name>/<key>`) in the template's terms.
    fn logical(&self, action: &str, resource: &str) -> Use {
        let to_id = |physical: &str| {
            self.names
                .iter()
                .find(|(_, n)| n.as_str() == physical)
                .map(|(id, _)| id.clone())
                .unwrap_or_else(|| format!("<unknown {physical}>"))
        };
        let resource = if let Some(rest) = resource.strip_prefix("table/") {
            let (table, tail) = rest.split_once('/').unwrap_or((rest, ""));
            let tail = if tail.is_empty() {
                String::new()
            } else {
                format!("/{tail}")
            };
            format!("{}{tail}", to_id(table))
        } else if let Some(rest) = resource.strip_prefix("bucket/") {
            let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
            let key = if key.is_empty() {
                String::new()
            } else {
                format!("/{key}")
            };
            format!("{}{key}", to_id(bucket))
        } else {
            resource.to_owned()
        };
        Use {
            action: action.to_owned(),
            resource,
        }
    }
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Object(m) => m.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// The JWT authorizer's claims for a Cognito user (an ID token, verified e-mail).
fn claims(who: &str) -> Value {
    let sub = match who {
        "ana" => "3f1c2b9e-7a41-4d5c-9a0e-1b2c3d4e5f60",
        "ben" => "8a2d4c6e-1f3b-4a5c-8d7e-9f0a1b2c3d4e",
        other => panic!("unknown user {other}"),
    };
    json!({"sub": sub, "email": format!("{who}@example.com"), "email_verified": "true", "token_use": "id"})
}

/// An API Gateway v2 (HTTP API) event as AWS sends it to the route's function.
fn event(
    method: &str,
    pattern: &str,
    path: &str,
    who: Option<&str>,
    body: &str,
    headers: &[(&str, &str)],
) -> Request {
    let (raw_path, query) = path.split_once('?').unwrap_or((path, ""));
    let mut path_parameters = serde_json::Map::new();
    for (p, v) in pattern.split('/').zip(raw_path.split('/')) {
        if let Some(name) = p.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
            path_parameters.insert(name.into(), v.into());
        }
    }
    let query_parameters: serde_json::Map<String, Value> = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), Value::String(v.to_owned())))
        .collect();
    let mut head = serde_json::Map::new();
    head.insert("content-type".into(), "application/json".into());
    for (k, v) in headers {
        head.insert((*k).into(), (*v).into());
    }
    let route_key = format!("{method} {pattern}");
    let mut ctx = json!({
        "accountId": "123456789012", "apiId": "api", "domainName": "example.com",
        "domainPrefix": "api", "requestId": "r1", "routeKey": route_key,
        "stage": "$default", "time": "26/Nov/2026:12:00:00 +0000", "timeEpoch": 1795348800000u64,
        "http": {"method": method, "path": raw_path, "protocol": "HTTP/1.1", "sourceIp": "1.2.3.4", "userAgent": "test"}
    });
    if let Some(who) = who {
        ctx["authorizer"] = json!({"jwt": {"claims": claims(who), "scopes": null}});
    }
    let mut e = json!({
        "version": "2.0", "routeKey": route_key, "rawPath": raw_path, "rawQueryString": query,
        "headers": head, "requestContext": ctx, "body": body, "isBase64Encoded": false
    });
    if !path_parameters.is_empty() {
        e["pathParameters"] = Value::Object(path_parameters);
    }
    if !query_parameters.is_empty() {
        e["queryStringParameters"] = Value::Object(query_parameters);
    }
    lambda_http::request::from_str(&e.to_string()).unwrap()
}

fn conversation(turns: usize) -> Vec<Value> {
    (0..turns)
        .flat_map(|i| {
            [
                json!({"role": "user", "content": format!("Bonjour, quels sont les horaires du cours, question {i} ?")}),
                json!({"role": "assistant", "content": "Le cours a lieu le mardi soir."}),
            ]
        })
        .collect()
}

/// A paid checkout through the local test checkout: the webhook (delivered twice, as Stripe's
/// retries would) and the success page's lookup, in either order.
async fn purchase(h: &mut Harness, who: &str, price: &str, page_first: bool) {
    let opened = h
        .call(
            "create-checkout-session",
            "/api/stripe/create-checkout-session",
            Some(who),
            Some(json!({"priceId": price, "userId": claims(who)["sub"]})),
            200,
        )
        .await;
    let session = opened["url"]
        .as_str()
        .and_then(|u| u.rsplit('/').next())
        .expect("a checkout url")
        .to_owned();
    let (_, signed) = h
        .checkout
        .pay(
            &SessionId::parse(&session).expect("a session id"),
            WEBHOOK_SECRET,
            time::OffsetDateTime::now_utc(),
        )
        .expect("the session exists");
    let page = format!("/api/stripe/checkout-session?sessionId={session}");
    if page_first {
        h.call("get-checkout-session", &page, Some(who), None, 200)
            .await;
    }
    for _ in 0..2 {
        h.call_raw(
            "stripe-webhook",
            "/api/stripe/webhook",
            None,
            String::from_utf8(signed.body.clone()).unwrap(),
            &[("stripe-signature", &signed.signature)],
            200,
        )
        .await;
    }
    if !page_first {
        h.call("get-checkout-session", &page, Some(who), None, 200)
            .await;
    }
}

/// Every route, through every branch that reaches AWS.
async fn drive_every_route(h: &mut Harness) {
    h.call("health", "/api/health", None, None, 200).await;
    h.call("list-plans", "/api/plans", None, None, 200).await;

    // A new user, then the privacy acceptance that creates their record, then a known user.
    h.call("get-me", "/api/me", Some("ana"), None, 200).await;
    h.call(
        "accept-privacy",
        "/api/me/privacy-acceptance",
        Some("ana"),
        Some(json!({})),
        200,
    )
    .await;
    h.call(
        "accept-privacy",
        "/api/me/privacy-acceptance",
        Some("ana"),
        Some(json!({})),
        200,
    )
    .await;
    h.call("get-me", "/api/me", Some("ana"), None, 200).await;

    // Papers: the catalogue, a free paper with its image links, a locked one.
    h.call("list-tests", "/api/tests/reading", Some("ana"), None, 200)
        .await;
    h.call("list-tests", "/api/tests/speaking", Some("ana"), None, 200)
        .await;
    h.call("get-test", "/api/tests/reading/1", Some("ana"), None, 200)
        .await;
    h.call("get-test", "/api/tests/reading/5", Some("ana"), None, 403)
        .await;

    // Attempts: a first attempt, its resend, a second attempt; a result and the tracker.
    let answers = json!({"answers": vec![Value::Null; 40], "durationSeconds": 60});
    let mut first = answers.clone();
    first["attemptId"] = "attempt-0001".into();
    let result = h
        .call(
            "submit-attempt",
            "/api/tests/reading/1/attempts",
            Some("ana"),
            Some(first.clone()),
            200,
        )
        .await;
    h.call(
        "submit-attempt",
        "/api/tests/reading/1/attempts",
        Some("ana"),
        Some(first),
        200,
    )
    .await;
    let mut second = answers;
    second["attemptId"] = "attempt-0002".into();
    h.call(
        "submit-attempt",
        "/api/tests/reading/1/attempts",
        Some("ana"),
        Some(second),
        200,
    )
    .await;
    let id = result["resultId"].as_str().expect("resultId").to_owned();
    h.call(
        "get-result",
        &format!("/api/results/{id}"),
        Some("ana"),
        None,
        200,
    )
    .await;
    h.call(
        "get-result",
        &format!("/api/results/{id}"),
        Some("ben"),
        None,
        404,
    )
    .await;
    h.call("get-progress", "/api/progress", Some("ana"), None, 200)
        .await;

    // A purchase: the checkout, the provider's webhook (and its replay), the success page.
    purchase(h, "ana", "price_monthly_test", false).await;
    // A second purchase whose success page comes before the webhook: the page fulfils it,
    // and the late webhook finds it done.
    h.call(
        "accept-privacy",
        "/api/me/privacy-acceptance",
        Some("ben"),
        Some(json!({})),
        200,
    )
    .await;
    purchase(h, "ben", "price_quarterly_test", true).await;

    // A subscriber: a listening paper's audio links, a correction, a speaking session.
    h.call("get-test", "/api/tests/listening/3", Some("ana"), None, 200)
        .await;
    let text = "Bonjour Madame, je vous écris pour vous raconter ce qui m'est arrivé samedi dernier. \
                En sortant du marché, j'ai trouvé un portefeuille par terre, près de la fontaine. \
                Il contenait une carte d'identité, deux billets de vingt dollars et une photo d'enfants. \
                J'ai appelé la police, qui m'a demandé de l'apporter au poste. Le propriétaire m'a \
                remercié le soir même. Il m'a expliqué que la photo était très précieuse pour lui, \
                parce que ses enfants vivent maintenant loin, à Vancouver. Nous avons pris un café \
                ensemble et nous sommes devenus amis.";
    h.call(
        "tef-correction",
        "/api/openai/tef-correction",
        Some("ana"),
        Some(json!({"studentText": text, "section": "A", "topicId": "luckyFind"})),
        200,
    )
    .await;
    h.call(
        "speaking-chat",
        "/api/openai/speaking-chat",
        Some("ana"),
        Some(json!({"topicId": "serviceCoursLangue", "section": "A", "messages": conversation(1)[..1]})),
        200,
    )
    .await;
    let report = json!({
        "topicId": "serviceCoursLangue", "section": "A",
        "sessionId": "0f3c9a2e-1b4d-4c8e-9f00-123456789abc",
        "conversationHistory": conversation(10),
    });
    for _ in 0..2 {
        h.call(
            "speaking-report",
            "/api/openai/speaking-report",
            Some("ana"),
            Some(report.clone()),
            200,
        )
        .await;
    }
    // The first render is stored; the second is found and only signed.
    for _ in 0..2 {
        h.call(
            "text-to-speech",
            "/api/openai/text-to-speech",
            Some("ana"),
            Some(json!({"text": "Le cours a lieu le mardi soir.", "section": "A"})),
            200,
        )
        .await;
    }
    h.call(
        "transcription",
        "/api/transcription",
        Some("ana"),
        Some(json!({"audio": "GkXfo0AAAAAAAAAA"})),
        200,
    )
    .await;
    h.call("get-progress", "/api/progress", Some("ana"), None, 200)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_function_is_granted_exactly_what_its_route_does() {
    let mut h = Harness::start().await;
    drive_every_route(&mut h).await;

    let mut problems = Vec::new();
    let mut table = Vec::new();
    for function in h.template.functions() {
        if function.routes.is_empty() {
            continue;
        }
        let Some(used) = h.used.get(&function.binary) else {
            problems.push(format!(
                "{}: the test never drives its route",
                function.binary
            ));
            continue;
        };
        table.push(format!(
            "{:<24} {}",
            function.binary,
            used.iter()
                .map(|u| format!("{} {}", u.action, u.resource))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let statements: Vec<_> = function
            .statements
            .iter()
            .map(|s| testkit::Statement {
                actions: s.actions.clone(),
                resources: s
                    .resources
                    .iter()
                    .map(|r| r.replace("${Stage}", &testkit::template::test_parameter("Stage")))
                    .collect(),
            })
            .collect();
        problems.extend(compare(&function.logical_id, &statements, used));
    }
    eprintln!("calls recorded per function:\n{}", table.join("\n"));
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
