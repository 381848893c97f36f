//! Implementations of the ports: embedded ones for the laptop, AWS ones for production.
//! Each is exercised by the same contract suite (`shared/tests/`).

pub mod codec;
pub mod dynamo;
pub mod local_media;
pub mod s3_media;
pub mod sqlite;

pub use dynamo::DynamoStore;
pub use local_media::LocalMedia;
pub use s3_media::S3Media;
pub use sqlite::SqliteStore;
