//! Test support: start the real local server on a free port with a fresh data folder.

#![allow(dead_code)]

use std::collections::HashMap;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64URL;
use local::LocalConfig;
use local::server::{ServerState, router};
use reqwest::StatusCode;
use serde_json::Value;
use sha2::{Digest, Sha256};
use shared::domain::Email;

pub struct TestServer {
    pub base: String,
    pub http: reqwest::Client,
    pub state: std::sync::Arc<ServerState>,
    _dir: tempfile::TempDir,
}

pub async fn start() -> TestServer {
    start_with(None, &[]).await
}

/// The server on the DynamoDB store, on the local AWS-compatible server `make test` starts
/// (`TEF_TEST_AWS_ENDPOINT`), with tables of its own.
pub async fn start_on_dynamodb() -> TestServer {
    let (extra, _) = dynamodb_vars().await;
    start_with(None, &extra).await
}

/// The template's own tables (keys and indexes as `template.yaml` defines them) on the test
/// server under fresh names.
pub async fn template_tables(endpoint: &str) -> shared::adapters::dynamo::Tables {
    let vars = testkit::template::template_tables(endpoint).await;
    shared::adapters::dynamo::Tables::from_vars(|var| vars.get(var).cloned())
        .expect("template.yaml names every table the store uses")
}

/// Fresh tables on moto's server, created from the template, and the variables that select them.
async fn dynamodb_vars() -> (
    Vec<(&'static str, String)>,
    shared::adapters::dynamo::Tables,
) {
    let endpoint = std::env::var("TEF_TEST_AWS_ENDPOINT").unwrap_or_else(|_| {
        panic!("TEF_TEST_AWS_ENDPOINT is not set: run `make test` (it starts moto's server)")
    });
    let tables = template_tables(&endpoint).await;
    let mut extra = vec![
        ("TEF_STORE", "dynamodb".into()),
        ("TEF_AWS_ENDPOINT", endpoint),
    ];
    extra.extend(tables.vars());
    (extra, tables)
}

/// The server with only the given content instead of the embedded content.
pub async fn start_with_content(files: &[(&str, &str)]) -> TestServer {
    let catalogue = shared::catalogue::Catalogue::from_files(files).unwrap();
    start_with(Some(catalogue), &[]).await
}

/// The server with a change to its wiring (another corrector, a fixed clock…).
pub async fn start_with_app(change: impl FnOnce(&mut shared::App)) -> TestServer {
    start_inner(None, &[], change).await
}

/// The same on DynamoDB (moto), with a change to its wiring.
pub async fn start_on_dynamodb_with_app(change: impl FnOnce(&mut shared::App)) -> TestServer {
    let (extra, _) = dynamodb_vars().await;
    start_inner(None, &extra, change).await
}

pub async fn start_with(
    catalogue: Option<shared::catalogue::Catalogue>,
    extra: &[(&'static str, String)],
) -> TestServer {
    start_inner(catalogue, extra, |_| {}).await
}

async fn start_inner(
    catalogue: Option<shared::catalogue::Catalogue>,
    extra: &[(&'static str, String)],
    change: impl FnOnce(&mut shared::App),
) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let static_dir = dir.path().join("dist");
    std::fs::create_dir_all(static_dir.join("assets")).unwrap();
    // As the build makes them: the landing's first screen in index.html, the empty shell in app.html.
    std::fs::write(
        static_dir.join("index.html"),
        "<!doctype html><title>app</title><div id=\"root\"><h1>landing</h1></div>",
    )
    .unwrap();
    std::fs::write(
        static_dir.join("app.html"),
        "<!doctype html><title>app</title><div id=\"root\"></div>",
    )
    .unwrap();
    std::fs::write(static_dir.join("assets/app.js"), "console.log(1)").unwrap();
    std::fs::write(static_dir.join("auth-callback.html"), "<!doctype html>").unwrap();
    // The real app's public files, by name: the server's static rules see the real layout.
    for file in public_files() {
        let target = static_dir.join(file.trim_start_matches('/'));
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, "file").unwrap();
    }

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let data = dir.path().join("data");
    let mut vars: HashMap<&str, String> = HashMap::new();
    vars.insert("PORT", port.to_string());
    vars.insert("TEF_STATIC_DIR", static_dir.display().to_string());
    vars.insert("TEF_DATA_DIR", data.display().to_string());
    for (k, v) in extra {
        vars.insert(k, v.clone());
    }
    let local = LocalConfig::from_lookup(|k| vars.get(k).cloned()).unwrap();
    let config = shared::Config::from_lookup(|k| vars.get(k).cloned()).unwrap();
    let mut state = ServerState::build(local, config).await.unwrap();
    {
        let app = &mut std::sync::Arc::get_mut(&mut state)
            .expect("the state is not shared yet")
            .app;
        if let Some(catalogue) = catalogue {
            app.catalogue = std::sync::Arc::new(catalogue);
        }
        change(app);
    }
    let app = router(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    TestServer {
        base: format!("http://127.0.0.1:{port}"),
        http: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(20))
            .build()
            .unwrap(),
        state,
        _dir: dir,
    }
}

/// Every file of `frontend/public` (copied to the root of the built app), as a URL path.
pub fn public_files() -> Vec<String> {
    fn walk(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{prefix}/{name}");
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), &path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    let public = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../frontend/public");
    walk(&public, "", &mut out);
    out.sort();
    out
}

impl TestServer {
    /// A valid ID token for `email`, as the sign-in provider would issue it.
    pub fn token(&self, email: &str) -> String {
        self.state
            .provider
            .id_token_for(&Email::parse(email).unwrap())
            .unwrap()
    }

    /// A token for `email`, whose terms are accepted (the user document exists).
    pub async fn signed_in(&self, email: &str) -> String {
        let token = self.token(email);
        let (status, body) = self
            .post("/api/me/privacy-acceptance", Some(&token), "{}")
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        token
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Signs in through the provider's endpoints exactly as the browser does.
    pub async fn sign_in(&self, email: &str) -> Value {
        let verifier = format!("verifier-{email}-0123456789-0123456789-0123456789");
        let challenge = B64URL.encode(Sha256::digest(verifier.as_bytes()));
        let redirect = self.url("/auth-callback.html");
        let discovery: Value = self
            .http
            .get(self.url("/auth/.well-known/openid-configuration"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(discovery["issuer"], self.url("/auth"));
        let params = [
            ("client_id", "tef-local"),
            ("redirect_uri", redirect.as_str()),
            ("response_type", "code"),
            ("scope", "openid email profile"),
            ("state", "s1"),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
        ];
        let page = self
            .http
            .get(discovery["authorization_endpoint"].as_str().unwrap())
            .query(&params)
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), StatusCode::OK);
        assert!(page.text().await.unwrap().contains("E-mail address"));

        let mut form: Vec<(&str, &str)> = params.to_vec();
        form.push(("email", email));
        let back = self
            .http
            .post(discovery["authorization_endpoint"].as_str().unwrap())
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(back.status(), StatusCode::SEE_OTHER);
        let location = back.headers()["location"].to_str().unwrap().to_owned();
        assert!(location.starts_with(&redirect), "{location}");
        let code = url::Url::parse(&location)
            .unwrap()
            .query_pairs()
            .find(|(k, _)| k == "code")
            .unwrap()
            .1
            .into_owned();

        let tokens = self
            .http
            .post(discovery["token_endpoint"].as_str().unwrap())
            .form(&[
                ("grant_type", "authorization_code"),
                ("code", code.as_str()),
                ("redirect_uri", redirect.as_str()),
                ("client_id", "tef-local"),
                ("code_verifier", verifier.as_str()),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(tokens.status(), StatusCode::OK);
        tokens.json().await.unwrap()
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let mut req = self.http.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        (res.status(), res.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &str) -> (StatusCode, Value) {
        let mut req = self
            .http
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        (res.status(), res.json().await.unwrap_or(Value::Null))
    }
}

pub fn id_token(tokens: &Value) -> String {
    tokens["id_token"].as_str().unwrap().to_owned()
}
