//! The Lambda edge: API Gateway (HTTP API) events in, API responses out.
//!
//! API Gateway's JWT authorizer has already verified the Cognito token; the
//! claims it passes on become the [`Identity`]. A request without them (a
//! public route) has no identity, and handlers that need one answer 401.

use std::collections::HashMap;

pub use lambda_http::Error;
use lambda_http::request::RequestContext;
use lambda_http::{Body, Request, RequestExt, Response, service_fn};

use crate::api::{self, ApiRequest, ApiResponse, Route};
use crate::domain::Identity;
use crate::{App, Config, secrets, telemetry};

/// A Lambda function's whole `main`: serve one route of the route table.
pub async fn serve(route_name: &str) -> Result<(), Error> {
    telemetry::init_json();
    let route = api::routes::by_name(route_name)
        .ok_or_else(|| format!("no route named {route_name:?} in the route table"))?;
    let app = app_from_env(std::env::vars().collect()).await?;
    tracing::info!(route = route.name, "function ready");
    lambda_http::run(service_fn(|req: Request| {
        let app = &app;
        async move { Ok::<_, Error>(handle(app, route, req).await) }
    }))
    .await
}

/// A function's app from its environment, as at cold start: the secrets it names in SSM
/// (`<VAR>_PARAMETER`) are read once, then the configuration is parsed and the adapters built.
/// Public for tests, which build each function as the template deploys it.
pub async fn app_from_env(vars: HashMap<String, String>) -> Result<App, Error> {
    let endpoint = vars
        .get("TEF_AWS_ENDPOINT")
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty());
    let vars = secrets::resolve(vars, endpoint.as_deref()).await?;
    let config = Config::from_lookup(|k| vars.get(k).cloned())?;
    Ok(App::from_config(config).await?)
}

/// Handles one event. Public for tests.
pub async fn handle(app: &App, route: &Route, req: Request) -> Response<Body> {
    let api_req = ApiRequest {
        identity: identity(&req),
        params: to_map(req.path_parameters().iter()),
        query: to_map(req.query_string_parameters().iter()),
        headers: req.headers().clone(),
        body: bytes::Bytes::copy_from_slice(req.body().as_ref()),
    };
    to_lambda_response(api::respond(app, route, api_req).await)
}

fn to_map<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> HashMap<String, String> {
    pairs.map(|(k, v)| (k.to_owned(), v.to_owned())).collect()
}

/// The identity from the JWT authorizer's claims, if any.
pub fn identity(req: &Request) -> Option<Identity> {
    let Some(RequestContext::ApiGatewayV2(ctx)) = req.request_context_ref() else {
        return None;
    };
    let claims = &ctx.authorizer.as_ref()?.jwt.as_ref()?.claims;
    // Only an ID token names the user; an access token (or anything else) is refused.
    if claims.get("token_use").map(String::as_str) != Some("id") {
        tracing::warn!("authorizer claims refused: not an ID token");
        return None;
    }
    let sub = claims.get("sub")?;
    // The e-mail is trusted only once the identity provider has verified it.
    let verified = claims.get("email_verified").map(String::as_str) == Some("true");
    let email = claims.get("email").map(String::as_str).filter(|_| verified);
    match Identity::from_claims(sub, email) {
        Ok(id) => Some(id),
        Err(e) => {
            tracing::warn!(error = %e, "authorizer claims refused");
            None
        }
    }
}

fn to_lambda_response(res: ApiResponse) -> Response<Body> {
    // JSON is UTF-8: a text body, as API Gateway expects it (no base64).
    let mut out = Response::new(Body::Text(String::from_utf8_lossy(&res.body).into_owned()));
    *out.status_mut() = res.status;
    out.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    out.headers_mut().insert(
        http::header::CACHE_CONTROL,
        http::HeaderValue::from_static("no-store"),
    );
    out
}
