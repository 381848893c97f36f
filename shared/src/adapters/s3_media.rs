//! Media in an S3 bucket, handed out as signed `/media/…` links that CloudFront checks
//! before it reads the private bucket (production), or as presigned S3 GET URLs (a bucket
//! used without CloudFront, such as the test server's).

use std::time::Duration;

use async_trait::async_trait;
use aws_sdk_s3::Client;
use aws_sdk_s3::error::ProvideErrorMetadata;
use aws_sdk_s3::presigning::PresigningConfig;
use aws_sdk_s3::primitives::ByteStream;
use bytes::Bytes;

use super::media_link::LinkSigner;
use crate::ports::media::{MediaError, MediaKey, MediaStore};

#[derive(Clone)]
pub struct S3Media {
    client: Client,
    bucket: String,
    /// `Some`: signed `/media/…` links for CloudFront; `None`: presigned S3 URLs.
    links: Option<LinkSigner>,
}

impl S3Media {
    /// The bucket, with presigned S3 links.
    pub fn new(client: Client, bucket: impl Into<String>) -> Self {
        Self {
            client,
            bucket: bucket.into(),
            links: None,
        }
    }

    /// Links signed with `signer`, to be served by CloudFront under `/media/`.
    pub fn with_signed_links(mut self, signer: LinkSigner) -> Self {
        self.links = Some(signer);
        self
    }
}

fn backend<E: ProvideErrorMetadata>(op: &str, e: &E) -> MediaError {
    MediaError::Backend(format!(
        "{op}: {}: {}",
        e.code().unwrap_or("unknown"),
        e.message().unwrap_or("no message")
    ))
}

#[async_trait]
impl MediaStore for S3Media {
    async fn put(&self, key: &MediaKey, body: Bytes) -> Result<(), MediaError> {
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(key.as_str())
            .content_type(key.content_type())
            .cache_control(key.cache_control())
            .body(ByteStream::from(body))
            .send()
            .await
            .map(|_| ())
            .map_err(|e| backend("PutObject", &e.into_service_error()))
    }

    async fn get(&self, key: &MediaKey) -> Result<Option<Bytes>, MediaError> {
        match self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key.as_str())
            .send()
            .await
        {
            Ok(out) => {
                let data = out
                    .body
                    .collect()
                    .await
                    .map_err(|e| MediaError::Backend(format!("GetObject body: {e}")))?;
                Ok(Some(data.into_bytes()))
            }
            Err(e) => {
                let e = e.into_service_error();
                if e.is_no_such_key() {
                    Ok(None)
                } else {
                    Err(backend("GetObject", &e))
                }
            }
        }
    }

    async fn exists(&self, key: &MediaKey) -> Result<bool, MediaError> {
        match self
            .client
            .head_object()
            .bucket(&self.bucket)
            .key(key.as_str())
            .send()
            .await
        {
            Ok(_) => Ok(true),
            Err(e) => {
                let e = e.into_service_error();
                if e.is_not_found() {
                    Ok(false)
                } else {
                    Err(backend("HeadObject", &e))
                }
            }
        }
    }

    async fn signed_url(&self, key: &MediaKey, ttl: Duration) -> Result<String, MediaError> {
        if let Some(signer) = &self.links {
            return Ok(signer.link(key, ttl.as_secs()));
        }
        let config = PresigningConfig::expires_in(ttl)
            .map_err(|e| MediaError::Backend(format!("presigning config: {e}")))?;
        let req = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key.as_str())
            .presigned(config)
            .await
            .map_err(|e| MediaError::Backend(format!("presign GetObject: {e}")))?;
        Ok(req.uri().to_owned())
    }
}
