//! The media contract: one suite, run against every `MediaStore` adapter.
//! Each backend says how a browser would fetch one of its signed URLs.

use crate::common;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use shared::adapters::{LocalMedia, S3Media};
use shared::ports::media::{MediaKey, MediaStore};

type Fetch<'a> = Box<dyn Fn(String) -> Pin<Box<dyn Future<Output = Option<Bytes>> + 'a>> + 'a>;

fn key(s: &str) -> MediaKey {
    MediaKey::parse(s).unwrap()
}

/// `signatures_checked`: whether the server behind `fetch` checks signatures.
/// AWS does; moto, which stands in for it in tests, does not.
async fn contract(media: &dyn MediaStore, fetch: Fetch<'_>, signatures_checked: bool) {
    let audio = key("listening/1/q01.webm");
    assert!(!media.exists(&audio).await.unwrap());
    assert_eq!(media.get(&audio).await.unwrap(), None);

    media
        .put(&audio, Bytes::from_static(b"first"))
        .await
        .unwrap();
    assert!(media.exists(&audio).await.unwrap());
    assert_eq!(
        media.get(&audio).await.unwrap().as_deref(),
        Some(&b"first"[..])
    );

    media
        .put(&audio, Bytes::from_static(b"second"))
        .await
        .unwrap();
    assert_eq!(
        media.get(&audio).await.unwrap().as_deref(),
        Some(&b"second"[..])
    );

    let image = key("reading/1/q07.svg");
    assert!(!media.exists(&image).await.unwrap(), "keys are independent");
    let svg = Bytes::from_static(b"<svg xmlns='http://www.w3.org/2000/svg'/>");
    media.put(&image, svg.clone()).await.unwrap();

    let url = media
        .signed_url(&image, Duration::from_secs(300))
        .await
        .unwrap();
    assert!(url.contains("reading/1/q07.svg"), "{url}");
    assert_eq!(
        fetch(url).await,
        Some(svg),
        "the signed URL serves the object"
    );

    let other_url = media
        .signed_url(&audio, Duration::from_secs(300))
        .await
        .unwrap();
    assert_eq!(fetch(other_url).await.as_deref(), Some(&b"second"[..]));

    if !signatures_checked {
        return;
    }
    // A URL for one key does not open another.
    let url = media
        .signed_url(&image, Duration::from_secs(300))
        .await
        .unwrap();
    let forged = url.replace("reading/1/q07.svg", "listening/1/q01.webm");
    assert_eq!(fetch(forged).await, None, "a signature is bound to its key");
}

fn query_value(url: &str, name: &str) -> Option<String> {
    let (_, q) = url.split_once('?')?;
    q.split('&')
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

#[tokio::test]
async fn local_folder_meets_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let media = LocalMedia::new(dir.path(), b"a-test-secret-of-some-length-000".to_vec());
    let fetch: Fetch<'_> = Box::new(|url: String| {
        let media = &media;
        Box::pin(async move {
            // What the local server does for GET /media/{key}?expires=…&sig=…
            let path = url.split_once('?')?.0.strip_prefix("/media/")?;
            let k = MediaKey::parse(path).ok()?;
            let expires = query_value(&url, "expires")?.parse().ok()?;
            media.verify(&k, expires, &query_value(&url, "sig")?).ok()?;
            media.read(&k).await.ok()?
        })
    });
    contract(&media, fetch, true).await;
}

/// A client of the S3-compatible test server, path-style as moto wants it.
async fn s3_client() -> aws_sdk_s3::Client {
    let sdk = common::aws_config().await;
    let conf = aws_sdk_s3::config::Builder::from(&sdk)
        .force_path_style(true)
        .build();
    aws_sdk_s3::Client::from_conf(conf)
}

#[tokio::test]
async fn s3_meets_the_contract() {
    // The bucket template.yaml defines, under a fresh name.
    let media = S3Media::new(s3_client().await, common::template_media_bucket().await);
    let http = reqwest::Client::new();
    let fetch: Fetch<'_> = Box::new(move |url: String| {
        let http = http.clone();
        Box::pin(async move {
            let res = http.get(&url).send().await.ok()?;
            if !res.status().is_success() {
                return None;
            }
            res.bytes().await.ok()
        })
    });
    contract(&media, fetch, false).await;
}

/// Production: the bucket behind CloudFront. Links are `/media/…` links signed for CloudFront's
/// check (`MediaLinkFunction`, whose code `functions/local/tests/media_link_function.rs` runs on
/// the same links); the fetch here does what CloudFront does: check the link, then read the
/// private bucket.
#[tokio::test]
async fn s3_behind_cloudfront_meets_the_contract() {
    use shared::adapters::media_link::LinkSigner;
    let client = s3_client().await;
    let bucket = common::template_media_bucket().await;
    let secret = b"a-cloudfront-link-secret-0000000".to_vec();
    let media = S3Media::new(client.clone(), bucket.clone())
        .with_signed_links(LinkSigner::new(secret.clone()));
    let edge = LinkSigner::new(secret);
    let fetch: Fetch<'_> = Box::new(move |url: String| {
        let (edge, client, bucket) = (edge.clone(), client.clone(), bucket.clone());
        Box::pin(async move {
            let path = url.split_once('?')?.0.strip_prefix("/media/")?;
            let k = MediaKey::parse(path).ok()?;
            let expires = query_value(&url, "expires")?.parse().ok()?;
            edge.verify(&k, expires, &query_value(&url, "sig")?).ok()?;
            let out = client
                .get_object()
                .bucket(&bucket)
                .key(k.as_str())
                .send()
                .await
                .ok()?;
            Some(out.body.collect().await.ok()?.into_bytes())
        })
    });
    contract(&media, fetch, true).await;
}

/// What CloudFront and the browser may keep: S3 stores each object with its key's cache rule,
/// for ever for content-addressed audio, an hour for an image that keeps its name when corrected.
#[tokio::test]
async fn s3_stores_each_object_with_its_cache_rule() {
    let client = s3_client().await;
    let bucket = common::template_media_bucket().await;
    let media = S3Media::new(client.clone(), bucket.clone());
    for (k, expected) in [
        (
            "listening/1/q01-0123456789ab.mp3",
            "public, max-age=31536000, immutable",
        ),
        ("reading/1/q15.svg", "public, max-age=3600"),
    ] {
        media.put(&key(k), Bytes::from_static(b"x")).await.unwrap();
        let head = client
            .head_object()
            .bucket(&bucket)
            .key(k)
            .send()
            .await
            .unwrap();
        assert_eq!(head.cache_control(), Some(expected), "{k}");
    }
}
