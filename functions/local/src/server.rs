//! The local server's HTTP surface: API dispatch into the shared handlers, the
//! sign-in provider's endpoints, signed media, `/config.json` and the frontend.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::json;
use shared::api::{self, ApiError, ApiRequest, ApiResponse, RouteMatch};
use shared::ports::media::MediaKey;
use time::OffsetDateTime;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::config::LocalConfig;
use crate::oidc::{AuthorizeParams, Keys, OAuthError, Provider, TokenParams};

pub struct ServerState {
    pub app: shared::App,
    pub provider: Provider,
    pub config: LocalConfig,
}

impl ServerState {
    /// Builds the adapters and the sign-in provider (keys in `{data}/auth/`).
    pub async fn build(
        local: LocalConfig,
        mut config: shared::Config,
    ) -> anyhow::Result<Arc<Self>> {
        // The provider's success and cancel links come back to this server unless told otherwise.
        config
            .payments
            .site_url
            .get_or_insert_with(|| local.public_url.clone());
        let keys = Keys::load_or_create(&config.data_dir.join("auth/signing-key.pem"))?;
        let provider = Provider::new(
            keys,
            local.issuer(),
            local.client_id.clone(),
            local.token_ttl_seconds,
        );
        let app = shared::App::from_config(config).await?;
        Ok(Arc::new(Self {
            app,
            provider,
            config: local,
        }))
    }
}

pub fn router(state: Arc<ServerState>) -> Router {
    let auth = Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/jwks", get(jwks))
        .route("/authorize", get(authorize_page).post(authorize_submit))
        .route("/token", axum::routing::post(token))
        .route("/revoke", axum::routing::post(revoke))
        .route("/logout", get(logout))
        // The provider is reached from any loopback origin (localhost or 127.0.0.1).
        .layer(SetResponseHeaderLayer::overriding(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        ));

    let static_dir = state.config.static_dir.clone();
    Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api", axum::routing::any(api_dispatch))
        .route("/api/{*rest}", axum::routing::any(api_dispatch))
        .nest("/auth", auth)
        .route("/config.json", get(site_config))
        .route("/media/{*key}", get(media))
        .route("/checkout/{id}", get(checkout_page))
        .route("/checkout/{id}/pay", axum::routing::post(checkout_pay))
        .route(
            "/checkout/{id}/cancel",
            axum::routing::post(checkout_cancel),
        )
        .fallback_service(frontend(static_dir))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(state.config.allowed_hosts()),
            host_guard,
        ))
        .layer(axum::middleware::map_response(cache_and_security_headers))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// The built frontend. `/` is `index.html`, which carries the landing's first screen; a path that
/// names no file gets the empty shell `app.html` (client routing), unless it lies in one of the app's
/// own folders (`/assets/`, `/illustrations/`, …): a missing file there is a 404.
/// Client routes may contain dots (result ids do), so a dot never makes a path a file.
fn frontend(dir: PathBuf) -> ServeDir<axum::routing::MethodRouter> {
    let index = dir.join("app.html");
    let folders = Arc::new(static_folders(&dir));
    ServeDir::new(dir).fallback(get(move |uri: Uri| {
        spa_fallback(uri, index.clone(), Arc::clone(&folders))
    }))
}

/// The top-level folders of the built app, read once at start.
fn static_folders(dir: &std::path::Path) -> Vec<String> {
    let mut folders = vec!["assets".to_owned()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir())
                && let Some(name) = entry.file_name().to_str()
                && !folders.iter().any(|f| f == name)
            {
                folders.push(name.to_owned());
            }
        }
    }
    folders
}

/// Whether a path that matched no file is a missing file (404) rather than a client route.
pub fn is_missing_file(path: &str, folders: &[String]) -> bool {
    let first = path
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or_default();
    path.trim_start_matches('/').contains('/') && folders.iter().any(|f| f == first)
}

async fn spa_fallback(uri: Uri, index: PathBuf, folders: Arc<Vec<String>>) -> Response {
    if is_missing_file(uri.path(), &folders) {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    }
    match tokio::fs::read(&index).await {
        Ok(html) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
        Err(e) => {
            tracing::error!(path = %index.display(), error = %e, "the frontend is not built (no app.html)");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "The frontend is not built. Run `make run`, which builds it.",
            )
                .into_response()
        }
    }
}

/// Refuses a request whose `Host` is not this server's (`LocalConfig::allowed_hosts`): a web
/// page that points its own name at 127.0.0.1 (DNS rebinding) cannot reach the sign-in that
/// signs anyone in, nor anything else here.
async fn host_guard(
    State(allowed): State<Arc<Vec<String>>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_ascii_lowercase);
    match host {
        Some(h) if allowed.contains(&h) => next.run(req).await,
        other => {
            tracing::warn!(host = ?other, "request for another host refused");
            (
                StatusCode::MISDIRECTED_REQUEST,
                "This server answers only at its own address (TEF_PUBLIC_URL).",
            )
                .into_response()
        }
    }
}

async fn cache_and_security_headers(uri: Uri, mut res: Response) -> Response {
    let h = res.headers_mut();
    // The headers CloudFront sets in production; everything, sign-in and media included, is
    // served from this one origin here. The sign-in and checkout pages stand in for the
    // providers' own sites (Cognito's, Stripe's), which have their own policies: theirs allows
    // their inline style sheet and nothing else.
    static CSP: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| shared::security::content_security_policy(&[]));
    const PROVIDER_PAGE_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; \
        form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    let provider_page = ["/auth/", "/checkout/"]
        .iter()
        .any(|p| uri.path().starts_with(p));
    let csp = if provider_page {
        PROVIDER_PAGE_CSP
    } else {
        CSP.as_str()
    };
    for (name, value) in shared::security::security_headers(csp) {
        if let Ok(v) = HeaderValue::from_str(&value) {
            h.insert(name, v);
        }
    }
    let path = uri.path();
    if !h.contains_key(header::CACHE_CONTROL) {
        let cache = if path.starts_with("/assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    res
}

fn json_response(res: ApiResponse) -> Response {
    (
        res.status,
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_TYPE, "application/json"),
        ],
        res.body,
    )
        .into_response()
}

/// Every `/api/...` request: find the route, check the token, run the shared handler.
async fn api_dispatch(
    State(s): State<Arc<ServerState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let found = api::find_route(&method, uri.path());
    let RouteMatch::Found { route, params } = found else {
        return json_response(api::unmatched(&found));
    };
    let Ok(body) = axum::body::to_bytes(body, api::max_body(route)).await else {
        return json_response(ApiError::PayloadTooLarge.to_response());
    };
    let identity = bearer(&headers).and_then(|token| {
        s.provider
            .verify_id_token(token)
            .map_err(|e| tracing::info!(route = route.name, error = %e, "bearer token refused"))
            .ok()
    });
    let query: HashMap<String, String> = uri
        .query()
        .map(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect()
        })
        .unwrap_or_default();
    let req = ApiRequest {
        identity,
        params,
        query,
        headers,
        body,
    };
    json_response(api::respond(&s.app, route, req).await)
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// The API's OpenAPI 3.1 description (`docs/openapi.json`), generated from the handlers' types.
async fn openapi() -> Response {
    static DOCUMENT: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(api::openapi::document_text);
    (
        [(header::CONTENT_TYPE, "application/json")],
        DOCUMENT.as_str(),
    )
        .into_response()
}

async fn site_config(State(s): State<Arc<ServerState>>) -> Response {
    let c = &s.config;
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({
            "auth": {
                "authority": c.issuer(),
                "clientId": c.client_id,
                "scope": "openid email profile",
                // The provider's own sign-out, where the browser goes after signing out.
                "logoutUrl": format!(
                    "{}/logout?post_logout_redirect_uri={}",
                    c.issuer(),
                    url::form_urlencoded::byte_serialize(format!("{}/", c.public_url.trim_end_matches('/')).as_bytes()).collect::<String>()
                ),
            },
            "supportEmail": c.site.support_email,
            "social": c.site.social,
        })),
    )
        .into_response()
}

#[derive(Deserialize)]
struct MediaQuery {
    expires: Option<i64>,
    sig: Option<String>,
}

/// `GET /media/{key}?expires=…&sig=…`: a signed link to a local media file.
/// A single `bytes=a-b`, `bytes=a-` or `bytes=-n` range within `len` bytes, as (first, last).
fn byte_range(header: &str, len: usize) -> Option<(usize, usize)> {
    let spec = header.trim().strip_prefix("bytes=")?;
    if spec.contains(',') || len == 0 {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let (first, last) = match (a.trim(), b.trim()) {
        ("", n) => {
            let n: usize = n.parse().ok()?;
            (len.checked_sub(n.min(len))?, len - 1)
        }
        (a, "") => (a.parse().ok()?, len - 1),
        (a, b) => (a.parse().ok()?, b.parse::<usize>().ok()?.min(len - 1)),
    };
    (first <= last && first < len).then_some((first, last))
}

async fn media(
    State(s): State<Arc<ServerState>>,
    Path(key): Path<String>,
    Query(q): Query<MediaQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(local) = &s.app.local_media else {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    };
    let Ok(key) = MediaKey::parse(&key) else {
        return (StatusCode::BAD_REQUEST, "Bad media path").into_response();
    };
    let (Some(expires), Some(sig)) = (q.expires, q.sig) else {
        return (StatusCode::FORBIDDEN, "This media link is not signed").into_response();
    };
    if let Err(e) = local.verify(&key, expires, &sig) {
        tracing::info!(%key, error = %e, "media link refused");
        return (StatusCode::FORBIDDEN, "This media link is not valid").into_response();
    }
    match local.read(&key).await {
        Ok(Some(bytes)) => {
            let left = (expires - OffsetDateTime::now_utc().unix_timestamp()).max(0);
            let common = [
                (header::CONTENT_TYPE, key.content_type().to_owned()),
                (header::CACHE_CONTROL, format!("private, max-age={left}")),
                (header::ACCEPT_RANGES, "bytes".to_owned()),
            ];
            let range = headers
                .get(header::RANGE)
                .and_then(|v| v.to_str().ok())
                .map(|r| byte_range(r, bytes.len()));
            match range {
                None => (common, bytes).into_response(),
                Some(Some((first, last))) => (
                    StatusCode::PARTIAL_CONTENT,
                    common,
                    [(
                        header::CONTENT_RANGE,
                        format!("bytes {first}-{last}/{}", bytes.len()),
                    )],
                    bytes.slice(first..=last),
                )
                    .into_response(),
                Some(None) => (
                    StatusCode::RANGE_NOT_SATISFIABLE,
                    [(header::CONTENT_RANGE, format!("bytes */{}", bytes.len()))],
                )
                    .into_response(),
            }
        }
        Ok(None) => (StatusCode::NOT_FOUND, "Not found").into_response(),
        Err(e) => {
            tracing::error!(%key, error = %e, "media read failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "Media unavailable").into_response()
        }
    }
}

async fn discovery(State(s): State<Arc<ServerState>>) -> Response {
    axum::Json(s.provider.discovery()).into_response()
}

async fn jwks(State(s): State<Arc<ServerState>>) -> Response {
    axum::Json(s.provider.jwks()).into_response()
}

fn oauth_error(status: StatusCode, e: &OAuthError) -> Response {
    tracing::info!(error = %e, "sign-in request refused");
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({ "error": e.code, "error_description": e.description })),
    )
        .into_response()
}

async fn authorize_page(
    State(s): State<Arc<ServerState>>,
    Query(p): Query<AuthorizeParams>,
) -> Response {
    if let Err(e) = s.provider.check_authorize(&p) {
        return (StatusCode::BAD_REQUEST, Html(error_page(&e))).into_response();
    }
    Html(login_page(&p, None)).into_response()
}

async fn authorize_submit(
    State(s): State<Arc<ServerState>>,
    Form(p): Form<AuthorizeParams>,
) -> Response {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    match s.provider.authorize(&p, now) {
        Ok(url) => Redirect::to(&url).into_response(),
        Err(e) if s.provider.check_authorize(&p).is_ok() => {
            // The request is fine; the e-mail was not.
            (
                StatusCode::BAD_REQUEST,
                Html(login_page(&p, Some(&e.description))),
            )
                .into_response()
        }
        Err(e) => (StatusCode::BAD_REQUEST, Html(error_page(&e))).into_response(),
    }
}

async fn token(State(s): State<Arc<ServerState>>, Form(p): Form<TokenParams>) -> Response {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    match s.provider.token(&p, now) {
        Ok(t) => ([(header::CACHE_CONTROL, "no-store")], axum::Json(t)).into_response(),
        Err(e) => oauth_error(StatusCode::BAD_REQUEST, &e),
    }
}

#[derive(Deserialize)]
struct RevokeParams {
    token: String,
}

/// RFC 7009: 200 whatever the token was; a revoked refresh token renews nothing any more.
async fn revoke(State(s): State<Arc<ServerState>>, Form(p): Form<RevokeParams>) -> StatusCode {
    s.provider
        .revoke(&p.token, OffsetDateTime::now_utc().unix_timestamp());
    StatusCode::OK
}

#[derive(Deserialize)]
struct LogoutQuery {
    post_logout_redirect_uri: Option<String>,
}

async fn logout(Query(q): Query<LogoutQuery>) -> Redirect {
    match q.post_logout_redirect_uri {
        Some(uri) if crate::oidc::is_allowed_redirect(&uri) => Redirect::to(&uri),
        _ => Redirect::to("/"),
    }
}

/// The local test checkout's page: the plan and the amount, Pay and Cancel. No card data.
async fn checkout_page(State(s): State<Arc<ServerState>>, Path(id): Path<String>) -> Response {
    let Some(session) = local_session(&s, &id) else {
        return (StatusCode::NOT_FOUND, Html(checkout_missing_page())).into_response();
    };
    let r = &session.request;
    let amount = format!(
        "{}.{:02} {}",
        r.amount_cents / 100,
        r.amount_cents % 100,
        r.currency
    );
    let email = r.email.as_ref().map_or_else(String::new, |e| {
        format!("<p>For {}</p>", escape(e.as_str()))
    });
    // A paid session offers no second payment, only the way back.
    let actions = if session.paid {
        format!(
            r#"<p class="note paid" role="status">This session is already paid.</p><a class="button" href="{}">Continue</a>"#,
            escape(&session.success_url())
        )
    } else {
        format!(
            r#"<form method="post" action="/checkout/{id}/pay"><button type="submit">Pay {amount}</button></form>
<form method="post" action="/checkout/{id}/cancel"><button type="submit" class="secondary">Cancel</button></form>"#,
            id = escape(session.id.as_str())
        )
    };
    Html(format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Test checkout</title><style>{PAGE_STYLE}{CHECKOUT_STYLE}</style></head>
<body><main><p class="badge">Test checkout</p><h1>{plan}</h1><p class="amount">{amount}</p>{email}
<p>This is the local test checkout: no card is asked for and nothing is charged. Pay completes the purchase on this machine, as a real payment would.</p>
{actions}
<p class="note">The live site uses Stripe's secure checkout instead.</p></main></body></html>"#,
        plan = escape(r.plan_name),
    ))
    .into_response()
}

fn local_session(
    s: &ServerState,
    id: &str,
) -> Option<shared::adapters::local_checkout::LocalSession> {
    let id = shared::domain::payments::SessionId::parse(id)?;
    s.app.local_checkout.as_ref()?.session(&id)
}

fn checkout_missing_page() -> String {
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Test checkout</title><style>{PAGE_STYLE}</style></head>
<body><main><h1>Checkout not found</h1><p class="err" role="alert">This checkout session does not exist or has expired. Go back to the site and choose a plan again.</p></main></body></html>"#
    )
}

/// Pay: completes the session and delivers the signed `checkout.session.completed` event
/// to this server's webhook route over HTTP, so the real webhook path runs, then sends the
/// buyer to the success page.
async fn checkout_pay(State(s): State<Arc<ServerState>>, Path(id): Path<String>) -> Response {
    let (Some(checkout), Some(id)) = (
        s.app.local_checkout.as_ref(),
        shared::domain::payments::SessionId::parse(&id),
    ) else {
        return (StatusCode::NOT_FOUND, Html(checkout_missing_page())).into_response();
    };
    let secret = s
        .app
        .config
        .payments
        .webhook_secret
        .as_ref()
        .map_or("", |w| w.0.as_str());
    let Some((session, event)) = checkout.pay(&id, secret, OffsetDateTime::now_utc()) else {
        return (StatusCode::NOT_FOUND, Html(checkout_missing_page())).into_response();
    };
    let host = if s.config.bind == "0.0.0.0" || s.config.bind == "::" {
        "127.0.0.1"
    } else {
        s.config.bind.as_str()
    };
    let webhook = format!("http://{host}:{}/api/stripe/webhook", s.config.port);
    let delivered = reqwest::Client::new()
        .post(&webhook)
        .header("content-type", "application/json")
        .header("stripe-signature", &event.signature)
        .body(event.body)
        .timeout(std::time::Duration::from_secs(10))
        .send()
        .await;
    match delivered {
        Ok(res) if res.status().is_success() => {
            tracing::info!(session = %id, "local checkout paid, webhook delivered")
        }
        // The success page fulfils through the session lookup as well, so a lost delivery
        // loses nothing; it is logged as Stripe's dashboard would show it.
        Ok(res) => {
            tracing::error!(session = %id, status = %res.status(), "webhook delivery refused")
        }
        Err(e) => tracing::error!(session = %id, error = %e, "webhook delivery failed"),
    }
    Redirect::to(&session.success_url()).into_response()
}

async fn checkout_cancel(State(s): State<Arc<ServerState>>, Path(id): Path<String>) -> Response {
    match local_session(&s, &id) {
        Some(session) => Redirect::to(&session.request.cancel_url).into_response(),
        None => (StatusCode::NOT_FOUND, Html(checkout_missing_page())).into_response(),
    }
}

const CHECKOUT_STYLE: &str = ".badge{display:inline-block;background:#fff4e5;color:#8a4b00;border-radius:999px;padding:4px 10px;font-size:.8rem;font-weight:700;margin:0 0 12px}\
.amount{font-size:2rem;font-weight:700;color:#14213d;margin:0 0 8px}form{margin:0}\
button.secondary{background:#fff;color:#0f2a4a;border:1px solid #cbd5e0;margin-top:10px}button.secondary:hover{background:#f4f6fa}\
a.button{display:block;margin-top:16px;padding:12px;border-radius:8px;background:#0f2a4a;color:#fff;text-align:center;font-weight:600;text-decoration:none}.paid{margin:0}";

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

const PAGE_STYLE: &str = "body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f4f6fa;color:#14213d;display:flex;min-height:100vh;align-items:center;justify-content:center}\
main{box-sizing:border-box;background:#fff;max-width:380px;width:calc(100% - 32px);padding:32px 28px;border-radius:14px;box-shadow:0 10px 30px rgba(15,42,74,.12)}\
h1{font-size:1.35rem;margin:0 0 6px}p{margin:0 0 18px;color:#4a5568;line-height:1.5}\
label{display:block;font-weight:600;margin-bottom:6px}input[type=email]{width:100%;box-sizing:border-box;padding:12px;border:1px solid #cbd5e0;border-radius:8px;font-size:1rem}\
input[type=email]:focus{outline:3px solid #9ec5fe;border-color:#0f2a4a}\
button{margin-top:16px;width:100%;padding:12px;border:0;border-radius:8px;background:#0f2a4a;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}\
button:hover{background:#173d6b}.err{color:#b42318;margin:10px 0 0}.note{font-size:.85rem;margin:18px 0 0}";

fn login_page(p: &AuthorizeParams, error: Option<&str>) -> String {
    let hidden = |name: &str, value: &Option<String>| {
        value.as_deref().map_or_else(String::new, |v| {
            format!(
                r#"<input type="hidden" name="{name}" value="{}">"#,
                escape(v)
            )
        })
    };
    let fields = [
        hidden("client_id", &p.client_id),
        hidden("redirect_uri", &p.redirect_uri),
        hidden("response_type", &p.response_type),
        hidden("scope", &p.scope),
        hidden("state", &p.state),
        hidden("nonce", &p.nonce),
        hidden("code_challenge", &p.code_challenge),
        hidden("code_challenge_method", &p.code_challenge_method),
    ]
    .concat();
    let email = escape(p.email.as_deref().unwrap_or_default());
    let error = error.map_or_else(String::new, |e| {
        format!(r#"<p class="err" role="alert">{}</p>"#, escape(e))
    });
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign in</title><style>{PAGE_STYLE}</style></head>
<body><main><h1>Sign in</h1><p>Continue to your TEF Canada practice account.</p>
<form method="post" action="authorize">{fields}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required autofocus value="{email}">
{error}<button type="submit">Continue</button></form>
<p class="note">Local sign-in: any e-mail address signs in on this machine. The live site uses its identity provider instead.</p></main></body></html>"#
    )
}

fn error_page(e: &OAuthError) -> String {
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign-in error</title><style>{PAGE_STYLE}</style></head>
<body><main><h1>Sign-in error</h1><p class="err" role="alert">{}: {}</p><p>Close this window and try again.</p></main></body></html>"#,
        escape(e.code),
        escape(&e.description)
    )
}

#[cfg(test)]
mod tests {
    use super::byte_range;

    #[test]
    fn byte_ranges_follow_rfc_9110() {
        assert_eq!(byte_range("bytes=0-9", 100), Some((0, 9)));
        assert_eq!(byte_range("bytes=90-", 100), Some((90, 99)));
        assert_eq!(byte_range("bytes=-10", 100), Some((90, 99)));
        assert_eq!(byte_range("bytes=50-500", 100), Some((50, 99)));
        assert_eq!(byte_range("bytes=100-", 100), None);
        assert_eq!(byte_range("bytes=9-0", 100), None);
        assert_eq!(byte_range("bytes=0-1,5-6", 100), None);
        assert_eq!(byte_range("items=0-1", 100), None);
    }
}
