//! Pure business rules: no I/O, no AWS, no HTTP. Everything here is unit tested.

pub mod content;
pub mod exam;
pub mod feedback;
pub mod hex;
pub mod identity;
pub mod payments;
pub mod plans;
pub mod rate_limit;
pub mod scoring;
pub mod speaking;
pub mod speaking_report;
pub mod subscription;
pub mod typography;
pub mod user;
pub mod writing;

pub use identity::{Email, Identity, UserId};
pub use subscription::{Subscription, SubscriptionStatus};
pub use user::UserDoc;
