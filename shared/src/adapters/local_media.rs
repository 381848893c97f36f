//! Media in a local folder, handed out as signed, expiring links (`media_link`) that the
//! local server checks before serving a file, as CloudFront does in production.

use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use time::OffsetDateTime;

use super::media_link::LinkSigner;
pub use super::media_link::{SignatureError, URL_PREFIX};
use crate::ports::media::{MediaError, MediaKey, MediaStore};

pub struct LocalMedia {
    root: PathBuf,
    links: LinkSigner,
}

impl LocalMedia {
    pub fn new(root: impl Into<PathBuf>, secret: Vec<u8>) -> Self {
        Self {
            root: root.into(),
            links: LinkSigner::new(secret),
        }
    }

    /// The same store with another clock, for tests of expiry.
    pub fn with_clock(mut self, now: fn() -> OffsetDateTime) -> Self {
        self.links = self.links.with_clock(now);
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &MediaKey) -> PathBuf {
        // MediaKey has no absolute paths and no '..', so this stays under root.
        self.root.join(key.as_str())
    }

    /// Checks a signed URL's `expires` and `sig` query values for `key`.
    pub fn verify(
        &self,
        key: &MediaKey,
        expires: i64,
        sig_hex: &str,
    ) -> Result<(), SignatureError> {
        self.links.verify(key, expires, sig_hex)
    }

    /// Reads a file for serving; `None` if it does not exist.
    pub async fn read(&self, key: &MediaKey) -> Result<Option<Bytes>, MediaError> {
        match tokio::fs::read(self.path(key)).await {
            Ok(b) => Ok(Some(Bytes::from(b))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(MediaError::Backend(format!("read {key}: {e}"))),
        }
    }
}

#[async_trait]
impl MediaStore for LocalMedia {
    async fn put(&self, key: &MediaKey, body: Bytes) -> Result<(), MediaError> {
        let path = self.path(key);
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir)
                .await
                .map_err(|e| MediaError::Backend(format!("mkdir for {key}: {e}")))?;
        }
        // Write then rename, so a reader never sees half a file.
        let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
        tokio::fs::write(&tmp, &body)
            .await
            .map_err(|e| MediaError::Backend(format!("write {key}: {e}")))?;
        tokio::fs::rename(&tmp, &path)
            .await
            .map_err(|e| MediaError::Backend(format!("rename {key}: {e}")))
    }

    async fn get(&self, key: &MediaKey) -> Result<Option<Bytes>, MediaError> {
        self.read(key).await
    }

    async fn exists(&self, key: &MediaKey) -> Result<bool, MediaError> {
        tokio::fs::try_exists(self.path(key))
            .await
            .map_err(|e| MediaError::Backend(format!("stat {key}: {e}")))
    }

    async fn signed_url(&self, key: &MediaKey, ttl: Duration) -> Result<String, MediaError> {
        Ok(self.links.link(key, ttl.as_secs()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(url: &str) -> (i64, String) {
        let q = url.split_once('?').unwrap().1;
        let mut expires = 0;
        let mut sig = String::new();
        for pair in q.split('&') {
            let (k, v) = pair.split_once('=').unwrap();
            match k {
                "expires" => expires = v.parse().unwrap(),
                "sig" => sig = v.to_owned(),
                _ => {}
            }
        }
        (expires, sig)
    }

    #[tokio::test]
    async fn a_signed_url_verifies_for_its_key_only() {
        let media = LocalMedia::new("/nonexistent", b"secret".to_vec());
        let key = MediaKey::parse("listening/1/q01.webm").unwrap();
        let url = media
            .signed_url(&key, Duration::from_secs(60))
            .await
            .unwrap();
        assert!(url.starts_with("/media/listening/1/q01.webm?expires="));
        let (expires, sig) = query(&url);
        assert_eq!(media.verify(&key, expires, &sig), Ok(()));
        let other = MediaKey::parse("listening/2/q01.webm").unwrap();
        assert_eq!(
            media.verify(&other, expires, &sig),
            Err(SignatureError::BadSignature)
        );
        assert_eq!(
            media.verify(&key, expires + 1, &sig),
            Err(SignatureError::BadSignature)
        );
        assert_eq!(
            media.verify(&key, expires, "zz"),
            Err(SignatureError::BadSignature)
        );
        let stranger = LocalMedia::new("/nonexistent", b"other".to_vec());
        assert_eq!(
            stranger.verify(&key, expires, &sig),
            Err(SignatureError::BadSignature)
        );
    }

    #[tokio::test]
    async fn an_expired_url_is_refused() {
        let media = LocalMedia::new("/nonexistent", b"secret".to_vec());
        let key = MediaKey::parse("a.png").unwrap();
        let (expires, sig) = query(
            &media
                .signed_url(&key, Duration::from_secs(60))
                .await
                .unwrap(),
        );
        let later = media.with_clock(|| OffsetDateTime::now_utc() + time::Duration::minutes(2));
        assert_eq!(
            later.verify(&key, expires, &sig),
            Err(SignatureError::Expired)
        );
    }
}
