//! The media port: exam images and audio, handed to browsers as short-lived
//! signed URLs (S3 presigned URLs in production, HMAC-signed local URLs offline).

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum MediaError {
    #[error("invalid media key: {0}")]
    InvalidKey(&'static str),
    #[error("media backend failed: {0}")]
    Backend(String),
}

/// A media object's key: a relative path such as `listening/1/q01.webm`.
/// No absolute paths, no `..`, no empty segments, a short safe alphabet.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MediaKey(String);

impl MediaKey {
    pub const MAX_LEN: usize = 512;

    pub fn parse(raw: &str) -> Result<Self, MediaError> {
        if raw.is_empty() || raw.len() > Self::MAX_LEN {
            return Err(MediaError::InvalidKey("empty or too long"));
        }
        if raw
            .split('/')
            .any(|s| s.is_empty() || s == "." || s == "..")
        {
            return Err(MediaError::InvalidKey("empty, '.' or '..' segment"));
        }
        let allowed = |c: char| c.is_ascii_alphanumeric() || "/._-".contains(c);
        if !raw.chars().all(allowed) {
            return Err(MediaError::InvalidKey("character outside [A-Za-z0-9/._-]"));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the key names its content: its file name ends in a hash of it (`qNN-<hash>.mp3`
    /// for listening audio, `tts/<hash>.wav` for spoken replies), so new content gets a new key.
    pub fn is_content_addressed(&self) -> bool {
        let name = self.0.rsplit('/').next().unwrap_or_default();
        let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
        let tail = stem.rsplit('-').next().unwrap_or_default();
        tail.len() >= 12
            && tail
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    }

    /// How long caches may keep the object: for ever when the key names its content, an hour
    /// otherwise (an exam image corrected under its own name reaches every learner within the
    /// hour). Public, so that CloudFront keeps it at the edge for every learner: CloudFront
    /// checks each request's signed link before its cache, and a `private` object would be
    /// kept only for its cache policy's minimum TTL (1 s), every play a trip to S3.
    pub fn cache_control(&self) -> &'static str {
        if self.is_content_addressed() {
            "public, max-age=31536000, immutable"
        } else {
            "public, max-age=3600"
        }
    }

    /// The MIME type for the key's extension.
    pub fn content_type(&self) -> &'static str {
        let ext = self.0.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("png") => "image/png",
            Some("jpg" | "jpeg") => "image/jpeg",
            Some("webp") => "image/webp",
            Some("svg") => "image/svg+xml",
            Some("webm") => "audio/webm",
            Some("ogg" | "opus") => "audio/ogg",
            Some("mp3") => "audio/mpeg",
            Some("wav") => "audio/wav",
            Some("json") => "application/json",
            _ => "application/octet-stream",
        }
    }
}

impl fmt::Display for MediaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[async_trait]
pub trait MediaStore: Send + Sync {
    /// Stores (or replaces) an object.
    async fn put(&self, key: &MediaKey, body: Bytes) -> Result<(), MediaError>;

    /// Reads an object back, `None` if it does not exist.
    async fn get(&self, key: &MediaKey) -> Result<Option<Bytes>, MediaError>;

    /// Whether the object exists.
    async fn exists(&self, key: &MediaKey) -> Result<bool, MediaError>;

    /// A URL a browser can fetch the object from until `ttl` has passed.
    async fn signed_url(&self, key: &MediaKey, ttl: Duration) -> Result<String, MediaError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_relative_safe_paths() {
        assert!(MediaKey::parse("listening/1/q01.webm").is_ok());
        assert!(MediaKey::parse("reading/10/q40_chart-2.svg").is_ok());
        for bad in [
            "", "/abs", "a//b", "a/../b", "..", "./a", "a/", "a b", "a\\b", "é.png", "a?x=1",
        ] {
            assert!(MediaKey::parse(bad).is_err(), "{bad}");
        }
        assert!(MediaKey::parse(&"a".repeat(513)).is_err());
    }

    #[test]
    fn only_keys_that_name_their_content_are_cached_for_ever() {
        let cached = |k: &str| MediaKey::parse(k).unwrap().cache_control();
        for k in [
            "listening/3/q36-567ffb36b932.mp3",
            "tts/c7e0b4f98567eaf7925aff18f4277f59.wav",
        ] {
            assert_eq!(cached(k), "public, max-age=31536000, immutable", "{k}");
        }
        for k in [
            "reading/1/q15.svg",
            "listening/1/q01.svg",
            "reading/2/chart-2024.svg",
            "samples/feedback-abcdefabcde.png",
            "reading/4/form-ABCDEF123456.svg",
        ] {
            assert_eq!(cached(k), "public, max-age=3600", "{k}");
        }
    }

    #[test]
    fn content_types_follow_the_extension() {
        let ct = |k: &str| MediaKey::parse(k).unwrap().content_type();
        assert_eq!(ct("a/b.PNG"), "image/png");
        assert_eq!(ct("a/b.svg"), "image/svg+xml");
        assert_eq!(ct("a/b.webm"), "audio/webm");
        assert_eq!(ct("a/b"), "application/octet-stream");
    }
}
