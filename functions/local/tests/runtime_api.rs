//! Each Lambda binary, as built, served through the Lambda Runtime API (issue 15): the real
//! `bootstrap` of every function of `template.yaml` is started with the environment the
//! template gives it (tables created from the template on moto's server), on a Runtime API of
//! our own on loopback, and invoked with API Gateway v2 events, authorizer claims included.
//! The same requests through the local server, on the same tables and as the same user, give
//! the same status and body. The time from process start to the first answer is recorded.
//!
//! The binaries come from `cargo build --workspace --bins` (`make test` runs it first).

use crate::common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64URL;
use serde_json::{Value, json};
use testkit::Template;
use testkit::runtime_api::{Outcome, RuntimeApi};

/// One request, sent to a function through the Runtime API and to the local server.
struct Fixture {
    binary: &'static str,
    method: &'static str,
    path: &'static str,
    signed_in: bool,
    body: Value,
    headers: &'static [(&'static str, &'static str)],
    status: u16,
}

const fn fixture(
    binary: &'static str,
    method: &'static str,
    path: &'static str,
    status: u16,
) -> Fixture {
    Fixture {
        binary,
        method,
        path,
        signed_in: true,
        body: Value::Null,
        headers: &[],
        status,
    }
}

/// A request per function, each answered without a provider outside AWS (no card, AI or
/// speech call): successes where the route needs only the store and media, otherwise the
/// route's own refusals (the spec's messages).
fn fixtures() -> Vec<Fixture> {
    vec![
        Fixture {
            signed_in: false,
            ..fixture("health", "GET", "/api/health", 200)
        },
        Fixture {
            signed_in: false,
            ..fixture("list-plans", "GET", "/api/plans", 200)
        },
        fixture("get-me", "GET", "/api/me", 200),
        Fixture {
            signed_in: false,
            ..fixture("get-me", "GET", "/api/me", 401)
        },
        Fixture {
            body: json!({}),
            ..fixture("accept-privacy", "POST", "/api/me/privacy-acceptance", 200)
        },
        fixture("list-tests", "GET", "/api/tests/reading", 200),
        fixture("get-test", "GET", "/api/tests/reading/1", 200),
        fixture("get-test", "GET", "/api/tests/reading/99", 404),
        Fixture {
            body: json!({"answers": "none"}),
            ..fixture(
                "submit-attempt",
                "POST",
                "/api/tests/reading/1/attempts",
                400,
            )
        },
        fixture("get-result", "GET", "/api/results/nothing-here", 404),
        fixture("get-progress", "GET", "/api/progress", 200),
        Fixture {
            body: json!({"priceId": "price_unknown", "userId": "{sub}"}),
            ..fixture(
                "create-checkout-session",
                "POST",
                "/api/stripe/create-checkout-session",
                400,
            )
        },
        fixture(
            "get-checkout-session",
            "GET",
            "/api/stripe/checkout-session",
            404,
        ),
        Fixture {
            signed_in: false,
            body: json!({"type": "checkout.session.completed"}),
            headers: &[("stripe-signature", "t=1,v1=00")],
            ..fixture("stripe-webhook", "POST", "/api/stripe/webhook", 400)
        },
        Fixture {
            body: json!({"studentText": "Trop court.", "section": "A", "topicId": "luckyFind"}),
            ..fixture("tef-correction", "POST", "/api/openai/tef-correction", 400)
        },
        Fixture {
            body: json!({"topicId": "serviceCoursLangue", "section": "C", "messages": []}),
            ..fixture("speaking-chat", "POST", "/api/openai/speaking-chat", 400)
        },
        Fixture {
            body: json!({"topicId": "serviceCoursLangue", "section": "A", "sessionId": "../x", "conversationHistory": []}),
            ..fixture(
                "speaking-report",
                "POST",
                "/api/openai/speaking-report",
                400,
            )
        },
        Fixture {
            body: json!({"text": "", "section": "A"}),
            ..fixture("text-to-speech", "POST", "/api/openai/text-to-speech", 400)
        },
        Fixture {
            body: json!({"audio": ""}),
            ..fixture("transcription", "POST", "/api/transcription", 400)
        },
    ]
}

/// The build profile whose function binaries run: `debug` (what `make test` builds), or the one
/// `TEF_LAMBDA_PROFILE` names (`make bench` runs this test on the release binaries), or `sam`
/// when `TEF_LAMBDA_SAM_BUILD` names the output of `sam build` (`make check-sam-build`).
fn profile() -> String {
    if sam_build().is_some() {
        return "sam".into();
    }
    std::env::var("TEF_LAMBDA_PROFILE").unwrap_or_else(|_| "debug".into())
}

/// The folder `sam build` wrote (`.aws-sam/build`): each function's `bootstrap` under its logical
/// id, exactly what `sam deploy` uploads. Those are arm64 binaries: `TEF_LAMBDA_LAUNCHER` names
/// the command that runs them here (`qemu-aarch64-static -L /usr/aarch64-linux-gnu`).
fn sam_build() -> Option<PathBuf> {
    std::env::var_os("TEF_LAMBDA_SAM_BUILD").map(PathBuf::from)
}

/// The command that starts a function's binary: the binary itself, or the launcher's words
/// followed by it.
fn command(binary: &std::path::Path) -> tokio::process::Command {
    let launcher = std::env::var("TEF_LAMBDA_LAUNCHER").unwrap_or_default();
    let mut words = launcher.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut c = tokio::process::Command::new(program);
            c.args(words).arg(binary);
            c
        }
        None => tokio::process::Command::new(binary),
    }
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target")))
}

fn binary_path(name: &str, logical_id: &str) -> PathBuf {
    if let Some(dir) = sam_build() {
        let path = dir.join(logical_id).join("bootstrap");
        assert!(
            path.is_file(),
            "{} is missing: run `sam build` first (make check-sam-build)",
            path.display()
        );
        return path;
    }
    let profile = profile();
    let path = target_dir().join(&profile).join(name);
    let build = if profile == "debug" {
        "`cargo build --workspace --bins`, which `make test` runs".to_owned()
    } else {
        format!("`cargo build --profile {profile} --workspace --bins`")
    };
    assert!(
        path.is_file(),
        "{} is missing: build the functions first ({build})",
        path.display()
    );
    path
}

/// A request as API Gateway's HTTP API hands it to a function when it came through CloudFront,
/// signed in with a Cognito ID token of a Google-federated user: the headers CloudFront adds,
/// a cookie, and the authorizer's claims as API Gateway passes them on, every value a string
/// (numbers, `email_verified`, and the array claims in the authorizer's own rendering).
const EVENT: &str = include_str!("fixtures/apigw-v2-cognito-via-cloudfront.json");

/// The event for `f`: the recorded one with its route, path, query, body and user. A signed-in
/// request keeps the fixture's other claims, with the local token's claims over them, so the
/// function and the local server serve one user; a request without a token has no authorizer
/// context and no `authorization` header.
fn event(f: &Fixture, route_path: &str, claims: &Value) -> Value {
    let mut e: Value = serde_json::from_str(EVENT).expect("the event fixture is JSON");
    let (raw_path, query) = f.path.split_once('?').unwrap_or((f.path, ""));
    let mut params = serde_json::Map::new();
    for (p, v) in route_path.split('/').zip(raw_path.split('/')) {
        if let Some(name) = p.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
            params.insert(name.into(), v.into());
        }
    }
    let route_key = format!("{} {route_path}", f.method);
    e["routeKey"] = route_key.clone().into();
    e["rawPath"] = raw_path.into();
    e["rawQueryString"] = query.into();
    let ctx = &mut e["requestContext"];
    ctx["routeKey"] = route_key.into();
    ctx["http"]["method"] = f.method.into();
    ctx["http"]["path"] = raw_path.into();
    if f.signed_in {
        let fixture_claims = ctx["authorizer"]["jwt"]["claims"]
            .as_object_mut()
            .expect("fixture claims");
        for (k, v) in claims.as_object().expect("token claims") {
            fixture_claims.insert(k.clone(), v.clone());
        }
    } else {
        ctx.as_object_mut().expect("context").remove("authorizer");
    }
    let headers = e["headers"].as_object_mut().expect("fixture headers");
    if !f.signed_in {
        headers.remove("authorization");
    }
    let body = body_text(f, claims);
    headers.insert(
        "content-length".into(),
        body.as_ref().map_or(0, String::len).to_string().into(),
    );
    if body.is_some() {
        headers.insert("content-type".into(), "application/json".into());
    }
    for (k, v) in f.headers {
        headers.insert((*k).into(), (*v).into());
    }
    if !query.is_empty() {
        let mut q = serde_json::Map::new();
        for pair in query.split('&') {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            q.insert(k.into(), v.into());
        }
        e["queryStringParameters"] = Value::Object(q);
    }
    if !params.is_empty() {
        e["pathParameters"] = Value::Object(params);
    }
    if let Some(body) = body {
        e["body"] = body.into();
    }
    e
}

fn body_text(f: &Fixture, claims: &Value) -> Option<String> {
    (!f.body.is_null()).then(|| {
        f.body
            .to_string()
            .replace("{sub}", claims["sub"].as_str().unwrap_or_default())
    })
}

/// Signed media links differ by signer (S3 presigning in Lambda, the local server's own
/// signature locally) and by the second they were made: compare the object they name.
fn normalise(v: &Value, bucket: &str) -> Value {
    match v {
        Value::String(s) if s.contains("X-Amz-Signature") || s.contains("sig=") => {
            let path = s.split('?').next().unwrap_or_default();
            let key = path
                .split_once(&format!("/{bucket}/"))
                .or_else(|| path.split_once("/media/"))
                .map(|(_, k)| k)
                .unwrap_or(path);
            Value::String(format!("<signed link to {key}>"))
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| normalise(x, bucket)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), normalise(x, bucket)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_function_binary_answers_through_the_runtime_api_as_the_local_server_does() {
    let endpoint = testkit::template::test_endpoint();
    let template = Template::load();
    let names = template.create_resources(&endpoint).await;
    template.create_secret_parameters(&endpoint).await;
    let bucket = names["MediaBucket"].clone();

    // The local server on the same tables; its signed-in user is the Lambda's user too.
    let vars = template.env_refs();
    let mut extra: Vec<(&'static str, String)> = vec![
        ("TEF_STORE", "dynamodb".into()),
        ("TEF_AWS_ENDPOINT", endpoint.clone()),
        // The template's price ids, so the plans read the same.
        (
            "TEF_STRIPE_PRICE_MONTHLY",
            testkit::template::test_parameter("StripePriceMonthly"),
        ),
        (
            "TEF_STRIPE_PRICE_QUARTERLY",
            testkit::template::test_parameter("StripePriceQuarterly"),
        ),
    ];
    for var in shared::adapters::dynamo::Tables::VARS {
        extra.push((var, names[&vars[var]].clone()));
    }
    let server = common::start_with(None, &extra).await;
    let token = server.token("runtime@example.com");
    let payload = token.split('.').nth(1).expect("a JWT");
    let token_claims: Value = serde_json::from_slice(&B64URL.decode(payload).unwrap()).unwrap();
    // API Gateway hands the authorizer's claims on as strings (`"email_verified": "true"`).
    let claims: Value = token_claims
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let text = v
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| v.to_string());
            (k.clone(), Value::String(text))
        })
        .collect::<serde_json::Map<_, _>>()
        .into();
    assert_eq!(claims["token_use"], "id");

    let data = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    let mut starts = Vec::new();
    let mut by_binary: BTreeMap<&str, Vec<&Fixture>> = BTreeMap::new();
    let all = fixtures();
    for f in &all {
        by_binary.entry(f.binary).or_default().push(f);
    }
    let functions = template.functions();
    for function in functions.iter().filter(|f| !f.routes.is_empty()) {
        let Some(fixtures) = by_binary.get(function.binary.as_str()) else {
            problems.push(format!("{}: no fixture", function.binary));
            continue;
        };
        let (_, route_path, _) = &function.routes[0];
        let runtime = RuntimeApi::start().await;
        let env = function.resolved_env(&names, testkit::template::test_parameter);
        let binary = binary_path(&function.binary, &function.logical_id);
        let size = std::fs::metadata(&binary).map_or(0, |m| m.len());
        let started = Instant::now();
        let mut child = command(&binary)
            .envs(&env)
            .env("TEF_AWS_ENDPOINT", &endpoint)
            .env("TEF_DATA_DIR", data.path())
            .env("AWS_LAMBDA_RUNTIME_API", &runtime.address)
            .env("AWS_LAMBDA_FUNCTION_NAME", &function.logical_id)
            .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
            .env(
                "AWS_LAMBDA_FUNCTION_MEMORY_SIZE",
                function.memory_mb.to_string(),
            )
            .env(
                "AWS_LAMBDA_LOG_GROUP_NAME",
                format!("/aws/lambda/{}", function.logical_id),
            )
            .env("AWS_LAMBDA_LOG_STREAM_NAME", "test")
            .env("AWS_REGION", "us-east-1")
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", function.binary));
        for (i, f) in fixtures.iter().enumerate() {
            let outcome = runtime
                .invoke(event(f, route_path, &claims), Duration::from_secs(20))
                .await;
            if i == 0 {
                starts.push((function.binary.clone(), started.elapsed(), size));
            }
            let response = match outcome {
                Ok(Outcome::Response(r)) => r,
                Ok(Outcome::Error(e)) => {
                    problems.push(format!(
                        "{} {}: the function reported {e}",
                        f.method, f.path
                    ));
                    continue;
                }
                Err(e) => {
                    let _ = child.start_kill();
                    let mut stderr = String::new();
                    if let Some(mut pipe) = child.stderr.take() {
                        use tokio::io::AsyncReadExt;
                        let _ = tokio::time::timeout(
                            Duration::from_secs(2),
                            pipe.read_to_string(&mut stderr),
                        )
                        .await;
                    }
                    problems.push(format!("{}: {e}\n{stderr}", function.binary));
                    break;
                }
            };
            let status = response["statusCode"].as_u64().unwrap_or(0);
            let body_raw = response["body"].as_str().unwrap_or_default();
            let body: Value = serde_json::from_str(body_raw).unwrap_or(Value::Null);
            if status != u64::from(f.status) {
                problems.push(format!(
                    "{} {}: Lambda answered {status} {body_raw}, expected {}",
                    f.method, f.path, f.status
                ));
            }
            // The same request through the local server.
            let mut req = server
                .http
                .request(f.method.parse().unwrap(), server.url(f.path))
                .header("content-type", "application/json");
            if f.signed_in {
                req = req.bearer_auth(&token);
            }
            for (k, v) in f.headers {
                req = req.header(*k, *v);
            }
            if let Some(b) = body_text(f, &claims) {
                req = req.body(b);
            }
            let local = req.send().await.unwrap();
            let local_status = local.status().as_u16();
            let local_body: Value = local.json().await.unwrap_or(Value::Null);
            if u64::from(local_status) != status
                || normalise(&local_body, &bucket) != normalise(&body, &bucket)
            {
                problems.push(format!(
                    "{} {}: Lambda {status} {}\n  local server {local_status} {}",
                    f.method,
                    f.path,
                    normalise(&body, &bucket),
                    normalise(&local_body, &bucket)
                ));
            }
        }
        let _ = child.start_kill();
    }
    let profile = profile();
    let table: Vec<String> = starts
        .iter()
        .map(|(b, d, size)| {
            format!(
                "{b:<24} {:>6.0} ms  {:>5.1} MB",
                d.as_secs_f64() * 1000.0,
                *size as f64 / 1e6
            )
        })
        .collect();
    eprintln!(
        "process start to first answer, {profile} build, through the Runtime API (and binary size):\n{}",
        table.join("\n")
    );
    let report = target_dir().join(format!("lambda-start-{profile}.txt"));
    let _ = std::fs::write(&report, table.join("\n") + "\n");
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
