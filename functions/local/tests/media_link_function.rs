//! CloudFront's check of signed media links (`MediaLinkFunction` in `template.yaml`), run with
//! node on links signed by the Rust signer the functions use: a valid link reaches the bucket
//! under its key, anything else (another key, a changed expiry or signature, an expired link,
//! another secret, a path escape, no signature) gets 403.

use serde_json::{Value, json};
use shared::adapters::media_link::LinkSigner;
use shared::ports::media::MediaKey;

const SECRET: &str = "the-media-link-secret-for-tests-0001";

/// The function's code as deployed, with CloudFront's `cloudfront` module (the key value
/// store) and `crypto` module provided by node.
fn function_code() -> String {
    let t = testkit::Template::load();
    let code = t.root["Resources"]["MediaLinkFunction"]["Properties"]["FunctionCode"]
        .as_str()
        .expect("MediaLinkFunction has FunctionCode")
        .to_owned();
    assert!(code.contains("import cf from 'cloudfront';"));
    assert!(code.contains("import crypto from 'crypto';"));
    code.replace(
        "import cf from 'cloudfront';",
        &format!(
            "const cf = {{ kvs: () => ({{ get: async (k) => {{ if (k !== 'media-signing-key') throw new Error('no key ' + k); return {SECRET:?}; }} }}) }};"
        ),
    )
    .replace("import crypto from 'crypto';", "const crypto = require('crypto');")
}

/// Runs the function on each `(uri, query)`; returns what it answers (a request or a response).
fn run(requests: &[(String, Value)]) -> Vec<Value> {
    let events: Vec<Value> = requests
        .iter()
        .map(|(uri, q)| json!({"request": {"method": "GET", "uri": uri, "querystring": q, "headers": {}}}))
        .collect();
    let script = format!(
        "{}\n(async () => {{ const out = []; for (const e of {}) {{ out.push(await handler(e)); }} console.log(JSON.stringify(out)); }})();",
        function_code(),
        serde_json::to_string(&events).unwrap()
    );
    testkit::node::run_json(&script)
}

/// A link as the functions sign it, split as CloudFront hands it to the function.
fn split(link: &str) -> (String, Value) {
    let (uri, query) = link.split_once('?').unwrap();
    let mut q = serde_json::Map::new();
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap();
        q.insert(k.into(), json!({ "value": v }));
    }
    (uri.to_owned(), Value::Object(q))
}

#[test]
fn cloudfront_serves_media_only_for_links_the_functions_signed() {
    let signer = LinkSigner::new(SECRET.as_bytes().to_vec());
    let key = MediaKey::parse("listening/3/q01-9cd025c84eda.mp3").unwrap();
    let (uri, q) = split(&signer.link(&key, 900));

    let other_key = (uri.replace("q01", "q02"), q.clone());
    let mut later = q.clone();
    let expires: i64 = q["expires"]["value"].as_str().unwrap().parse().unwrap();
    later["expires"]["value"] = json!((expires + 60).to_string());
    let mut forged = q.clone();
    forged["sig"]["value"] = json!("0".repeat(64));
    let mut unsigned = q.clone();
    unsigned.as_object_mut().unwrap().remove("sig");
    let expired_signer = LinkSigner::new(SECRET.as_bytes().to_vec())
        .with_clock(|| time::OffsetDateTime::now_utc() - time::Duration::hours(1));
    let expired = split(&expired_signer.link(&key, 60));
    let stranger =
        split(&LinkSigner::new(b"another-secret-entirely-000000000".to_vec()).link(&key, 900));
    let escape = ("/media/listening/../../secret".to_owned(), q.clone());

    let answers = run(&[
        (uri.clone(), q.clone()),
        other_key,
        (uri.clone(), later),
        (uri.clone(), forged),
        (uri.clone(), unsigned),
        expired,
        stranger,
        escape,
    ]);
    assert_eq!(
        answers[0],
        json!({"method": "GET", "uri": "/listening/3/q01-9cd025c84eda.mp3", "querystring": {}, "headers": {}}),
        "a valid link reaches the bucket under its key, without the query"
    );
    for (i, a) in answers.iter().enumerate().skip(1) {
        assert_eq!(a["statusCode"], 403, "case {i}: {a}");
    }
}
