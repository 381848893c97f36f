//! A recording proxy in front of the AWS-compatible test server: the code under test gets the
//! proxy as its AWS endpoint, and every DynamoDB, S3 and SSM call it makes is recorded as the
//! IAM action it needs and the resource it touches, read from the request on the wire.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// One call as IAM sees it: `dynamodb:Query` on `table/<name>/index/<index>`,
/// `s3:GetObject` on `bucket/<name>/<key>`, `ssm:GetParameter` on `parameter/<name>`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Call {
    pub action: String,
    pub resource: String,
}

#[derive(Clone)]
struct Shared {
    upstream: String,
    http: reqwest::Client,
    calls: Arc<Mutex<Vec<Call>>>,
}

pub struct Recorder {
    /// The proxy's address, to give the code under test as its AWS endpoint.
    pub endpoint: String,
    calls: Arc<Mutex<Vec<Call>>>,
}

impl Recorder {
    pub async fn start(upstream: &str) -> Self {
        let calls = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            upstream: upstream.trim_end_matches('/').to_owned(),
            http: reqwest::Client::new(),
            calls: calls.clone(),
        };
        let app = axum::Router::new().fallback(forward).with_state(shared);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the recorder");
        let addr = listener.local_addr().expect("recorder address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            endpoint: format!("http://{addr}"),
            calls,
        }
    }

    /// The calls recorded since the last `take`.
    pub fn take(&self) -> Vec<Call> {
        std::mem::take(&mut *self.calls.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

async fn forward(
    State(s): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let recorded = classify(&method, &uri, &headers, &body);
    s.calls
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .extend(recorded);
    let url = format!(
        "{}{}",
        s.upstream,
        uri.path_and_query().map(|p| p.as_str()).unwrap_or("/")
    );
    let mut req = s.http.request(method.clone(), url).body(body);
    for (k, v) in &headers {
        if k != http::header::HOST && k != http::header::CONTENT_LENGTH {
            req = req.header(k, v);
        }
    }
    match req.send().await {
        Ok(res) => {
            let status = res.status();
            s.calls
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .extend(answered(&method, &uri, status));
            let headers = res.headers().clone();
            let body = res.bytes().await.unwrap_or_default();
            let mut out = (status, body).into_response();
            for (k, v) in &headers {
                if k != http::header::CONTENT_LENGTH && k != http::header::TRANSFER_ENCODING {
                    out.headers_mut().insert(k, v.clone());
                }
            }
            out
        }
        Err(e) => (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    }
}

/// The IAM actions and resources of one request on the wire.
pub fn classify(method: &Method, uri: &Uri, headers: &HeaderMap, body: &[u8]) -> Vec<Call> {
    let call = |action: &str, resource: String| Call {
        action: action.to_owned(),
        resource,
    };
    if let Some(target) = headers.get("x-amz-target").and_then(|v| v.to_str().ok()) {
        let json: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let table = |v: &Value| format!("table/{}", v["TableName"].as_str().unwrap_or("?"));
        if let Some(op) = target.strip_prefix("DynamoDB_20120810.") {
            return match op {
                // A transaction is authorised item by item, with each item's own action.
                "TransactWriteItems" | "TransactGetItems" => json["TransactItems"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .flat_map(|item| {
                        item.as_object()
                            .into_iter()
                            .flatten()
                            .map(|(kind, inner)| {
                                let action = match kind.as_str() {
                                    "Put" => "dynamodb:PutItem",
                                    "Update" => "dynamodb:UpdateItem",
                                    "Delete" => "dynamodb:DeleteItem",
                                    "ConditionCheck" => "dynamodb:ConditionCheckItem",
                                    "Get" => "dynamodb:GetItem",
                                    _ => "dynamodb:Unknown",
                                };
                                call(action, table(inner))
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect(),
                "BatchGetItem" | "BatchWriteItem" => json["RequestItems"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, _)| call(&format!("dynamodb:{op}"), format!("table/{name}")))
                    .collect(),
                _ => {
                    let mut resource = table(&json);
                    if let Some(index) = json["IndexName"].as_str() {
                        resource = format!("{resource}/index/{index}");
                    }
                    vec![call(&format!("dynamodb:{op}"), resource)]
                }
            };
        }
        if let Some(op) = target.strip_prefix("AmazonSSM.") {
            let names: Vec<String> = match &json["Names"] {
                Value::Array(a) => a
                    .iter()
                    .filter_map(|n| n.as_str())
                    .map(Into::into)
                    .collect(),
                _ => json["Name"].as_str().map(Into::into).into_iter().collect(),
            };
            return names
                .into_iter()
                .map(|n| {
                    call(
                        &format!("ssm:{op}"),
                        format!("parameter/{}", n.trim_start_matches('/')),
                    )
                })
                .collect();
        }
        return vec![call(&format!("unknown:{target}"), String::new())];
    }
    // S3, path style: /<bucket>[/<key>].
    let path = uri.path().trim_start_matches('/');
    let (bucket, key) = path.split_once('/').unwrap_or((path, ""));
    let query = uri.query().unwrap_or("");
    let action = match (method.as_str(), key.is_empty()) {
        ("GET" | "HEAD", false) => "s3:GetObject",
        ("PUT" | "POST", false) => "s3:PutObject",
        ("DELETE", false) => "s3:DeleteObject",
        ("GET", true) if query.contains("list-type") || query.is_empty() => "s3:ListBucket",
        ("HEAD", true) => "s3:ListBucket",
        _ => "s3:Unknown",
    };
    let resource = if key.is_empty() {
        format!("bucket/{bucket}")
    } else {
        format!("bucket/{bucket}/{}", percent_decode(key))
    };
    vec![call(action, resource)]
}

/// What an answer adds to a request's needs. S3 tells a caller that an object does not exist
/// (404) only when it may list the bucket; without `s3:ListBucket` it answers 403, which the
/// code rightly treats as a failure, not as "missing". So reading a missing object needs
/// `s3:ListBucket` on its bucket as well as `s3:GetObject` on the key.
pub fn answered(method: &Method, uri: &Uri, status: StatusCode) -> Vec<Call> {
    let path = uri.path().trim_start_matches('/');
    match (method.as_str(), path.split_once('/'), status) {
        ("GET" | "HEAD", Some((bucket, key)), StatusCode::NOT_FOUND) if !key.is_empty() => {
            vec![Call {
                action: "s3:ListBucket".into(),
                resource: format!("bucket/{bucket}"),
            }]
        }
        _ => Vec::new(),
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(op: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-amz-target", op.parse().unwrap());
        h
    }

    #[test]
    fn dynamodb_calls_are_read_from_the_wire() {
        let uri: Uri = "/".parse().unwrap();
        let q = classify(
            &Method::POST,
            &uri,
            &target("DynamoDB_20120810.Query"),
            br#"{"TableName":"R","IndexName":"byDate"}"#,
        );
        assert_eq!(q[0].action, "dynamodb:Query");
        assert_eq!(q[0].resource, "table/R/index/byDate");
        let t = classify(
            &Method::POST,
            &uri,
            &target("DynamoDB_20120810.TransactWriteItems"),
            br#"{"TransactItems":[{"Put":{"TableName":"A"}},{"Update":{"TableName":"B"}},{"ConditionCheck":{"TableName":"C"}}]}"#,
        );
        let got: Vec<_> = t
            .iter()
            .map(|c| (c.action.as_str(), c.resource.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("dynamodb:PutItem", "table/A"),
                ("dynamodb:UpdateItem", "table/B"),
                ("dynamodb:ConditionCheckItem", "table/C")
            ]
        );
    }

    #[test]
    fn s3_and_ssm_calls_are_read_from_the_wire() {
        let none = HeaderMap::new();
        let get = classify(
            &Method::HEAD,
            &"/media/tts/a%20b.wav".parse().unwrap(),
            &none,
            b"",
        );
        assert_eq!(
            (get[0].action.as_str(), get[0].resource.as_str()),
            ("s3:GetObject", "bucket/media/tts/a b.wav")
        );
        let put = classify(
            &Method::PUT,
            &"/media/tts/x.wav?x-id=PutObject".parse().unwrap(),
            &none,
            b"",
        );
        assert_eq!(put[0].action, "s3:PutObject");
        let ssm = classify(
            &Method::POST,
            &"/".parse().unwrap(),
            &target("AmazonSSM.GetParameter"),
            br#"{"Name":"/tef/prod/openai","WithDecryption":true}"#,
        );
        assert_eq!(
            (ssm[0].action.as_str(), ssm[0].resource.as_str()),
            ("ssm:GetParameter", "parameter/tef/prod/openai")
        );
    }

    #[test]
    fn a_missing_object_also_needs_the_right_to_list_its_bucket() {
        let key: Uri = "/media/tts/x.wav".parse().unwrap();
        for method in [Method::HEAD, Method::GET] {
            let missing = answered(&method, &key, StatusCode::NOT_FOUND);
            assert_eq!(
                (missing[0].action.as_str(), missing[0].resource.as_str()),
                ("s3:ListBucket", "bucket/media")
            );
            assert!(answered(&method, &key, StatusCode::OK).is_empty());
        }
        assert!(answered(&Method::PUT, &key, StatusCode::NOT_FOUND).is_empty());
        // A missing bucket or a list call is not an object read.
        let bucket: Uri = "/media".parse().unwrap();
        assert!(answered(&Method::GET, &bucket, StatusCode::NOT_FOUND).is_empty());
    }
}
