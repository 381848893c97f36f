//! Signed media links: `/media/<key>?expires=<unix seconds>&sig=<hex HMAC-SHA256 of
//! "<key>\n<expires>">`. Relative to the site, so a link works wherever the app is served
//! from: the local server checks it before serving a file from its folder, and in production
//! a CloudFront Function (`MediaLinkFunction` in `template.yaml`) checks it before CloudFront
//! reads the object from the private media bucket.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use thiserror::Error;
use time::OffsetDateTime;

use crate::ports::media::MediaKey;

type HmacSha256 = Hmac<Sha256>;

/// The path prefix under which media links are served.
pub const URL_PREFIX: &str = "/media/";

#[derive(Debug, Error, PartialEq, Eq)]
pub enum SignatureError {
    #[error("the link has expired")]
    Expired,
    #[error("the link's signature is not valid")]
    BadSignature,
}

/// Makes and checks signed links with one secret.
#[derive(Clone)]
pub struct LinkSigner {
    secret: Vec<u8>,
    now: fn() -> OffsetDateTime,
}

impl std::fmt::Debug for LinkSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkSigner(<secret>)")
    }
}

impl LinkSigner {
    pub fn new(secret: Vec<u8>) -> Self {
        Self {
            secret,
            now: OffsetDateTime::now_utc,
        }
    }

    /// The same signer with another clock, for tests of expiry.
    pub fn with_clock(mut self, now: fn() -> OffsetDateTime) -> Self {
        self.now = now;
        self
    }

    fn mac(&self, key: &MediaKey, expires: i64) -> HmacSha256 {
        // A key of any length is accepted by HMAC, so this cannot fail.
        let mut mac = HmacSha256::new_from_slice(&self.secret)
            .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
        mac.update(key.as_str().as_bytes());
        mac.update(b"\n");
        mac.update(expires.to_string().as_bytes());
        mac
    }

    /// A link to `key` valid for `ttl_seconds` (at least one).
    pub fn link(&self, key: &MediaKey, ttl_seconds: u64) -> String {
        let ttl = i64::try_from(ttl_seconds).unwrap_or(i64::MAX).max(1);
        let expires = (self.now)().unix_timestamp().saturating_add(ttl);
        let sig = crate::domain::hex::encode(&self.mac(key, expires).finalize().into_bytes());
        format!("{URL_PREFIX}{key}?expires={expires}&sig={sig}")
    }

    /// Checks a link's `expires` and `sig` query values for `key`.
    pub fn verify(
        &self,
        key: &MediaKey,
        expires: i64,
        sig_hex: &str,
    ) -> Result<(), SignatureError> {
        let sig = crate::domain::hex::decode(sig_hex).ok_or(SignatureError::BadSignature)?;
        self.mac(key, expires)
            .verify_slice(&sig)
            .map_err(|_| SignatureError::BadSignature)?;
        if (self.now)().unix_timestamp() >= expires {
            return Err(SignatureError::Expired);
        }
        Ok(())
    }
}
