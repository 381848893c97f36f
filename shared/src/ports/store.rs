//! The store port: user documents with optimistic concurrency.
//!
//! Adapters only provide a versioned read and a compare-and-set write. Every
//! rule that changes a document is a pure function in `domain`, applied by
//! [`update_user`], which retries on conflicting writes. That makes every
//! rule atomic on every backend without writing it twice.

use std::future::Future;
use std::time::Duration;

use async_trait::async_trait;
use thiserror::Error;

use crate::domain::{UserDoc, UserId};

#[derive(Debug, Error)]
pub enum StoreError {
    /// The compare-and-set lost: someone wrote the document in between.
    #[error("the document changed while it was being updated")]
    Conflict,
    /// A stored record could not be read back.
    #[error("stored record is malformed: {0}")]
    Corrupt(String),
    /// The backend failed or could not be reached.
    #[error("store backend failed: {0}")]
    Backend(String),
}

/// A value with the version it was read at. Versions start at 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versioned<T> {
    pub value: T,
    pub version: u64,
}

#[async_trait]
pub trait UserStore: Send + Sync {
    /// Reads a user's document, or `None` if there is none.
    async fn get_user(&self, uid: &UserId) -> Result<Option<Versioned<UserDoc>>, StoreError>;

    /// Writes the document if the stored version is still `expected`
    /// (`None`: only if no document exists). Returns the new version, or
    /// [`StoreError::Conflict`] without writing anything.
    async fn put_user(
        &self,
        uid: &UserId,
        doc: &UserDoc,
        expected: Option<u64>,
    ) -> Result<u64, StoreError>;
}

/// Why [`update_user`] did not write.
#[derive(Debug, Error)]
pub enum UpdateError<E> {
    /// The rule refused the change (for example: no credits left).
    #[error("{0}")]
    Rule(E),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How many times a conflicting update is retried before giving up.
pub const MAX_UPDATE_ATTEMPTS: u32 = 25;

/// Applies `rule` to the user's current document and stores the result
/// atomically: if another write lands in between, it reads again and retries.
pub async fn update_user<E, F>(
    store: &dyn UserStore,
    uid: &UserId,
    mut rule: F,
) -> Result<Versioned<UserDoc>, UpdateError<E>>
where
    F: FnMut(Option<UserDoc>) -> Result<UserDoc, E>,
{
    let mut attempt = 0;
    loop {
        attempt += 1;
        let current = store.get_user(uid).await?;
        let expected = current.as_ref().map(|v| v.version);
        let next = rule(current.map(|v| v.value)).map_err(UpdateError::Rule)?;
        match store.put_user(uid, &next, expected).await {
            Ok(version) => {
                return Ok(Versioned {
                    value: next,
                    version,
                });
            }
            Err(StoreError::Conflict) if attempt < MAX_UPDATE_ATTEMPTS => {
                tracing::debug!(%uid, attempt, "user update conflicted, retrying");
                backoff(attempt).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

pub(crate) fn backoff(attempt: u32) -> impl Future<Output = ()> {
    // Spread retries out: 1 ms, 2 ms, … capped at 20 ms, plus a little jitter.
    let jitter = u64::from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos() % 3)
            .unwrap_or(0),
    );
    tokio::time::sleep(Duration::from_millis(u64::from(attempt.min(20)) + jitter))
}
