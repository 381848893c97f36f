//! The API's OpenAPI 3.1 description, generated from the route table and the handlers' own
//! request and response types (their `JsonSchema` derives follow their serde attributes).
//! The local server serves it at `/api/openapi.json`; `docs/openapi.json` is the same
//! document, checked in (a test fails when it is stale: `make openapi` rewrites it), and
//! `make test` fuzzes the local server against it (`scripts/fuzz-api.sh`).

use std::borrow::Cow;

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema, json_schema};
use serde_json::{Map, Value, json};

use super::routes::{ROUTES, Route};
use super::{exams, me, payments, plans, speaking, writing};

/// An RFC 3339 timestamp, as the views serialize `OffsetDateTime`.
pub struct DateTime;

impl JsonSchema for DateTime {
    fn schema_name() -> Cow<'static, str> {
        "DateTime".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "format": "date-time" })
    }
}

/// Every error's body: the message the user sees.
#[derive(serde::Serialize, JsonSchema)]
pub struct ErrorBody {
    pub error: String,
}

/// A Stripe event, as the webhook receives it: only its signature is checked against a
/// schema of ours; its fields are Stripe's.
pub struct StripeEvent;

impl JsonSchema for StripeEvent {
    fn schema_name() -> Cow<'static, str> {
        "StripeEvent".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "A Stripe event (`checkout.session.completed` is acted on; others are acknowledged).",
            "required": ["type"],
            "properties": { "type": { "type": "string" } }
        })
    }
}

type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

fn schema<T: JsonSchema>(g: &mut SchemaGenerator) -> Schema {
    g.subschema_for::<T>()
}

/// `GET /api/tests/{category}/{id}` answers with one of three views, by category.
fn test_or_topic(g: &mut SchemaGenerator) -> Schema {
    let views = [
        g.subschema_for::<exams::TestView<'static>>(),
        g.subschema_for::<writing::TopicView<'static>>(),
        g.subschema_for::<speaking::ScenarioView<'static>>(),
    ];
    json_schema!({
        "description": "A reading or listening test (its questions without keys), a writing topic, or a speaking scenario.",
        "anyOf": views
    })
}

/// What the document says about one route, beyond the route table.
struct Operation {
    route: &'static str,
    summary: &'static str,
    /// Needs a bearer token (an ID token of the sign-in provider).
    signed_in: bool,
    body: Option<SchemaFn>,
    /// Query parameters, all required strings.
    query: &'static [&'static str],
    /// Headers, all required strings.
    headers: &'static [&'static str],
    ok: SchemaFn,
    /// The error statuses the route answers, each with an [`ErrorBody`].
    errors: &'static [u16],
    /// A valid request body, for readers and for the fuzzer's first, well-formed call.
    example: Option<fn() -> Value>,
}

impl Operation {
    /// No query parameters and no headers beyond the bearer token.
    const PLAIN: Operation = Operation {
        route: "",
        summary: "",
        signed_in: false,
        body: None,
        query: &[],
        headers: &[],
        ok: schema::<ErrorBody>,
        errors: &[],
        example: None,
    };
}

const OPERATIONS: &[Operation] = &[
    Operation {
        route: "health",
        summary: "The process is up and answering.",
        signed_in: false,
        body: None,
        ok: schema::<plans::Health>,
        errors: &[],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "list-plans",
        summary: "The plans, their prices and the provider's price ids.",
        signed_in: false,
        body: None,
        ok: schema::<Vec<plans::PlanView>>,
        errors: &[],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "get-me",
        summary: "The caller's profile, credits and subscription.",
        signed_in: true,
        body: None,
        ok: schema::<me::MeView>,
        errors: &[401, 500],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "accept-privacy",
        summary: "Records that the caller accepted the terms and the privacy policy.",
        signed_in: true,
        body: Some(schema::<me::AcceptanceBody>),
        ok: schema::<me::MeView>,
        errors: &[400, 401, 413, 500],
        example: Some(examples::empty),
        ..Operation::PLAIN
    },
    Operation {
        route: "list-tests",
        summary: "A category's tests, topics or scenarios, and which the caller may open.",
        signed_in: true,
        body: None,
        ok: schema::<exams::CatalogueView>,
        errors: &[401, 404, 500],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "get-test",
        summary: "A test without its keys (with signed media links), a writing topic or a speaking scenario.",
        signed_in: true,
        body: None,
        ok: test_or_topic,
        errors: &[401, 403, 404, 500],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "submit-attempt",
        summary: "Grades an attempt on the server, stores it once per attempt id, and returns its review.",
        signed_in: true,
        body: Some(schema::<exams::AttemptBody>),
        ok: schema::<exams::AttemptResultView<'static>>,
        errors: &[400, 401, 403, 404, 413, 429, 500],
        example: Some(examples::attempt),
        ..Operation::PLAIN
    },
    Operation {
        route: "get-result",
        summary: "One of the caller's results, with its review; anyone else's is 404.",
        signed_in: true,
        body: None,
        ok: schema::<exams::AttemptResultView<'static>>,
        errors: &[401, 404, 500],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "create-checkout-session",
        summary: "Opens a checkout for a plan, for the caller.",
        signed_in: true,
        body: Some(schema::<payments::CheckoutBody>),
        ok: schema::<payments::CheckoutOpened>,
        errors: &[400, 401, 403, 409, 413, 500, 502],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "get-checkout-session",
        summary: "The caller's own checkout session; a paid one is fulfilled here too, once.",
        signed_in: true,
        body: None,
        query: &["sessionId"],
        ok: schema::<payments::SessionView>,
        errors: &[401, 404, 500, 502],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "stripe-webhook",
        summary: "The payment provider's events, signed over the exact body.",
        signed_in: false,
        body: Some(schema::<StripeEvent>),
        headers: &["Stripe-Signature"],
        ok: schema::<payments::Received>,
        errors: &[400, 413, 500],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "tef-correction",
        summary: "Corrects a text, scores it on the server and stores it; takes a free user's credit.",
        signed_in: true,
        body: Some(schema::<writing::CorrectionBody>),
        ok: schema::<writing::CorrectionView>,
        errors: &[400, 401, 402, 403, 404, 413, 429, 500, 502],
        example: Some(examples::correction),
        ..Operation::PLAIN
    },
    Operation {
        route: "speaking-chat",
        summary: "The examiner's next reply.",
        signed_in: true,
        body: Some(schema::<speaking::ChatBody>),
        ok: schema::<speaking::ChatReply>,
        errors: &[400, 401, 402, 403, 404, 413, 429, 500, 502],
        example: Some(examples::chat),
        ..Operation::PLAIN
    },
    Operation {
        route: "speaking-report",
        summary: "A session's report and levels, stored once per session id; takes a free user's credit.",
        signed_in: true,
        body: Some(schema::<speaking::ReportBody>),
        ok: schema::<speaking::ReportView<'static>>,
        errors: &[400, 401, 402, 403, 404, 413, 429, 500, 502],
        example: Some(examples::report),
        ..Operation::PLAIN
    },
    Operation {
        route: "text-to-speech",
        summary: "The examiner's reply, spoken: a signed link to the audio.",
        signed_in: true,
        body: Some(schema::<speaking::SpeechBody>),
        ok: schema::<speaking::SpeechView>,
        errors: &[400, 401, 413, 429, 500, 502],
        example: Some(examples::speech),
        ..Operation::PLAIN
    },
    Operation {
        route: "transcription",
        summary: "A recorded answer (base64 WebM or WAV, at most 60 s) to its words.",
        signed_in: true,
        body: Some(schema::<speaking::TranscriptionBody>),
        ok: schema::<speaking::TranscriptionView>,
        errors: &[400, 401, 413, 429, 500, 502, 503],
        example: None,
        ..Operation::PLAIN
    },
    Operation {
        route: "get-progress",
        summary: "The latest five sessions per skill and the overall CLB.",
        signed_in: true,
        body: None,
        ok: schema::<exams::ProgressView>,
        errors: &[401, 500],
        example: None,
        ..Operation::PLAIN
    },
];

/// Well-formed bodies: a learner's real requests, on the free test, topic and scenario.
mod examples {
    use serde_json::{Value, json};

    pub fn empty() -> Value {
        json!({})
    }

    pub fn attempt() -> Value {
        let answers: Vec<Value> = (0..40)
            .map(|i| {
                if i % 7 == 6 {
                    Value::Null
                } else {
                    json!(i % 4)
                }
            })
            .collect();
        json!({ "answers": answers, "durationSeconds": 2400, "attemptId": "example-attempt-0001" })
    }

    pub fn correction() -> Value {
        json!({
            "topicId": "1",
            "section": "A",
            "studentText": "Le lendemain, Julie est retourné au marché pour chercher le propriétaire du portefeuille. \
                Elle a demandé à chaque marchand s'il connaissait un homme âgé avec un chapeau gris. \
                Une vendeuse de fleurs lui a dit qu'il venait tous les samedis acheter des tulipes. \
                Julie a donc attendu près du stand pendant toute la matinée. Vers midi, le monsieur est arrivé, \
                très inquiet, et il a reconnu tout de suite son portefeuille. Il voulait lui donner une récompense, \
                mais Julie a refusé poliment. Depuis ce jour, ils prennent un café ensemble chaque semaine."
        })
    }

    pub fn chat() -> Value {
        json!({
            "topicId": "serviceCoursLangue",
            "section": "A",
            "sessionId": "example-session-0001",
            "messages": [
                { "role": "user", "content": "Bonjour, je voudrais savoir combien coûtent vos cours du soir." }
            ]
        })
    }

    pub fn report() -> Value {
        json!({
            "topicId": "serviceCoursLangue",
            "section": "A",
            "sessionId": "example-session-0001",
            "conversationHistory": [
                { "role": "user", "content": "Bonjour, je voudrais savoir combien coûtent vos cours du soir." },
                { "role": "assistant", "content": "Bonjour ! Le cours du soir coûte deux cents dollars par mois." },
                { "role": "user", "content": "Est-ce qu'il y a un groupe pour les débutants le samedi ?" }
            ]
        })
    }

    pub fn speech() -> Value {
        json!({ "text": "Bonjour, que puis-je faire pour vous ?", "section": "A" })
    }
}

fn reason(status: u16) -> &'static str {
    http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error")
}

/// A path parameter's schema: the categories are an enum, the rest are strings.
fn path_parameter(name: &str) -> Value {
    let (schema, description) = match name {
        "category" => (
            json!({ "type": "string", "enum": ["reading", "listening", "writing", "speaking"], "examples": ["reading"] }),
            "The skill.",
        ),
        "id" => (
            json!({ "type": "string", "minLength": 1, "examples": ["1"] }),
            "A test number (1 to 10), or a writing topic's or speaking scenario's slug or number; a result's id under /api/results.",
        ),
        _ => (json!({ "type": "string" }), ""),
    };
    json!({ "name": name, "in": "path", "required": true, "schema": schema, "description": description })
}

/// Whether an object schema (or the definition it refers to) has no required field.
fn accepts_empty_object(schema: &Schema, g: &SchemaGenerator) -> bool {
    let value = schema.as_value();
    let resolved = value
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
        .and_then(|name| g.definitions().get(name))
        .unwrap_or(value);
    resolved["type"] == "object"
        && resolved
            .get("required")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty)
}

fn operation(route: &Route, op: &Operation, g: &mut SchemaGenerator) -> Value {
    let mut parameters: Vec<Value> = route
        .path
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(path_parameter)
        .collect();
    parameters.extend(op.query.iter().map(|name| {
        json!({ "name": name, "in": "query", "required": true, "schema": { "type": "string" } })
    }));
    parameters.extend(op.headers.iter().map(|name| {
        json!({ "name": name, "in": "header", "required": true, "schema": { "type": "string" } })
    }));
    let error = g.subschema_for::<ErrorBody>();
    let mut responses = Map::new();
    responses.insert(
        "200".into(),
        json!({ "description": "OK", "content": { "application/json": { "schema": (op.ok)(g) } } }),
    );
    for status in op.errors {
        responses.insert(
            status.to_string(),
            json!({ "description": reason(*status), "content": { "application/json": { "schema": error } } }),
        );
    }
    let mut out = json!({
        "operationId": route.name,
        "summary": op.summary,
        "security": if op.signed_in { json!([{ "bearer": [] }]) } else { json!([]) },
        "responses": responses,
    });
    if !parameters.is_empty() {
        out["parameters"] = Value::Array(parameters);
    }
    if let Some(body) = op.body {
        let schema = body(g);
        out["requestBody"] = json!({
            // An empty body reads as `{}` (`ApiRequest::json`): required only where `{}` is refused.
            "required": !accepts_empty_object(&schema, g),
            "content": { "application/json": { "schema": schema } }
        });
        if let Some(example) = op.example {
            out["requestBody"]["content"]["application/json"]["example"] = example();
        }
    }
    out
}

/// The whole document.
pub fn document() -> Value {
    let mut g = SchemaSettings::draft2020_12()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
        })
        .into_generator();
    let mut paths = Map::new();
    for route in ROUTES {
        let Some(op) = OPERATIONS.iter().find(|o| o.route == route.name) else {
            continue;
        };
        let item = paths
            .entry(route.path)
            .or_insert_with(|| Value::Object(Map::new()));
        item[route.method.as_str().to_lowercase()] = operation(route, op, &mut g);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "TEF Canada preparation API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Every call of the web app. Errors answer `{\"error\": message}` with the message the user sees; internals are logged, never sent."
        },
        "paths": paths,
        "components": {
            "schemas": g.take_definitions(true),
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" }
            }
        }
    })
}

/// The document as served and checked in: pretty JSON with a final newline.
pub fn document_text() -> String {
    let mut text = serde_json::to_string_pretty(&document()).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_is_described_once() {
        for route in ROUTES {
            let n = OPERATIONS.iter().filter(|o| o.route == route.name).count();
            assert_eq!(n, 1, "{} is described {n} times", route.name);
        }
        for op in OPERATIONS {
            assert!(
                ROUTES.iter().any(|r| r.name == op.route),
                "{} is not a route",
                op.route
            );
        }
        let doc = document();
        let described: usize = doc["paths"]
            .as_object()
            .map(|p| p.values().filter_map(Value::as_object).map(Map::len).sum())
            .unwrap_or(0);
        assert_eq!(described, ROUTES.len());
    }

    #[test]
    fn every_reference_resolves() {
        let doc = document();
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object().expect("schemas");
        for part in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
            let name = part.split('"').next().unwrap_or_default();
            assert!(
                schemas.contains_key(name),
                "{name} is referenced, not defined"
            );
        }
    }

    #[test]
    fn views_follow_their_serde_names() {
        let doc = document();
        let s = &doc["components"]["schemas"];
        // camelCase views, and the spec's snake_case fields where it names them so.
        assert!(s["AttemptResultView"]["properties"]["tefOld"].is_object());
        assert!(s["CorrectionView"]["properties"]["corrected_text"].is_object());
        assert!(s["CorrectionView"]["properties"]["clbText"].is_object());
        assert!(s["SessionView"]["properties"]["amount_total"].is_object());
        // A request body that refuses unknown fields says so.
        assert_eq!(s["AttemptBody"]["additionalProperties"], json!(false));
        // Timestamps are RFC 3339 strings.
        assert_eq!(
            s["ProgressPoint"]["properties"]["timestamp"]["format"],
            json!("date-time")
        );
    }

    /// `docs/openapi.json` is the generated document. `make openapi` rewrites it.
    #[test]
    fn the_checked_in_document_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openapi.json");
        let current = document_text();
        if std::env::var("TEF_UPDATE_OPENAPI").as_deref() == Ok("1") {
            std::fs::write(&path, &current).expect("write docs/openapi.json");
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == current,
            "docs/openapi.json is not the generated document: run `make openapi`"
        );
    }
}
