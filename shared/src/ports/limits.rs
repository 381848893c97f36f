//! The rate limit port: counters of uses, incremented atomically (`domain::rate_limit` decides).

use async_trait::async_trait;

use crate::ports::store::StoreError;

#[async_trait]
pub trait RateLimiter: Send + Sync {
    /// Counts one use under `key` and returns how many that key has counted, this one
    /// included. Concurrent calls each get their own count. The counter may be forgotten
    /// after `expires_at` (unix seconds), which is fixed by the key's first use.
    async fn hit(&self, key: &str, expires_at: i64) -> Result<u64, StoreError>;
}
