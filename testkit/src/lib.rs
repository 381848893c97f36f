//! Test support shared by the workspace's integration tests (a dev-dependency only): the
//! SAM template read as data, and a recording proxy for the AWS-compatible test server.

pub mod node;
pub mod permissions;
pub mod recorder;
pub mod runtime_api;
pub mod suites;
pub mod template;
pub mod upstream;

pub use recorder::{Call, Recorder};
pub use template::{Function, Statement, Template};
