//! The common crate of the TEF Canada practice platform.
//!
//! Layers, from the inside out (see `docs/ARCHITECTURE.md`):
//! - [`domain`]: pure business rules and types, no I/O;
//! - [`ports`]: one narrow trait per outside system (store, media);
//! - [`adapters`]: the implementations of those traits (embedded and AWS);
//! - [`app`]: the wiring of configuration into adapters;
//! - [`api`]: transport-free handlers and the route table that both the
//!   Lambda functions and the local server call;
//! - [`lambda`]: the Lambda edge (API Gateway events into [`api`] requests).

pub mod adapters;
pub mod api;
pub mod app;
pub mod catalogue;
pub mod config;
pub mod domain;
pub mod lambda;
pub mod ports;
pub mod publish;
pub mod secrets;
pub mod security;
pub mod telemetry;

pub use app::App;
pub use config::Config;
