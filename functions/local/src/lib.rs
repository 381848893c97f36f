//! The local server: the whole product in one process, on embedded defaults.
//!
//! - every API route of `shared::api::ROUTES`, through the same handlers as the Lambdas;
//! - a local OpenID Connect sign-in provider (popup page, PKCE, tokens, JWKS);
//! - the built frontend with SPA fallback, `/config.json`, and signed media URLs.

pub mod config;
pub mod oidc;
pub mod server;

pub use config::LocalConfig;
