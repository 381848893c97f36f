//! `template.yaml` read as data: CloudFormation's short tags (`!Ref`, `!GetAtt`, `!Sub`, …)
//! become their JSON forms (`{"Ref": …}`, `{"Fn::GetAtt": [..]}`, `{"Fn::Sub": …}`), so tests
//! can create the template's own tables and compare its policies with what the code does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType,
};
use serde_json::{Map, Value, json};

/// The repository's root (this crate sits one level below it).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub struct Template {
    pub root: Value,
}

/// A function of the template: its settings merged over the template's `Globals`.
#[derive(Debug, Clone)]
pub struct Function {
    pub logical_id: String,
    pub binary: String,
    /// Environment variables, globals first, then the function's own (unresolved expressions).
    pub env: BTreeMap<String, Value>,
    pub statements: Vec<Statement>,
    pub memory_mb: u64,
    pub timeout_s: u64,
    pub runtime: String,
    pub architectures: Vec<String>,
    /// The HTTP API events: (method, path, whether the authorizer is switched off).
    pub routes: Vec<(String, String, bool)>,
}

/// One `Allow` statement of a function's inline policy. Resources are logical patterns:
/// `UsersTable`, `ResultsTable/index/*`, `MediaBucket/tts/*`, `parameter/tef/${Stage}/openai`.
#[derive(Debug, Clone)]
pub struct Statement {
    pub actions: Vec<String>,
    pub resources: Vec<String>,
}

impl Function {
    /// The environment the function gets once deployed: `!Ref` to a resource becomes its name
    /// in `names` (logical id → physical name), to a parameter its value from `parameter`.
    pub fn resolved_env(
        &self,
        names: &BTreeMap<String, String>,
        parameter: impl Fn(&str) -> String,
    ) -> BTreeMap<String, String> {
        self.env
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    other => match (other["Ref"].as_str(), other["Fn::Sub"].as_str()) {
                        (Some(id), _) => names.get(id).cloned().unwrap_or_else(|| parameter(id)),
                        (None, Some(text)) => substitute(text, &parameter),
                        _ => panic!(
                            "{}: {k} = {other}: teach Function::resolved_env this expression",
                            self.binary
                        ),
                    },
                };
                (k.clone(), value)
            })
            .collect()
    }
}

/// `!Sub` text with its `${Parameter}` references replaced (resource attributes are not).
fn substitute(text: &str, parameter: &impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some((head, tail)) = rest.split_once("${") {
        out.push_str(head);
        let (name, after) = tail.split_once('}').unwrap_or((tail, ""));
        assert!(
            !name.contains('.') && !name.contains("::"),
            "!Sub {text}: only parameters are substituted here"
        );
        out.push_str(&parameter(name));
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The test value of each secret a function reads from SSM (by the variable it is for).
pub fn test_secret(var: &str) -> String {
    match var {
        "OPENAI_API_KEY" => "sk-template-test",
        "STRIPE_SECRET_KEY" => "sk_test_template",
        "TEF_STRIPE_WEBHOOK_SECRET" => TEST_WEBHOOK_SECRET,
        "TEF_MEDIA_SIGNING_KEY" => "media-link-secret-of-the-template-tests",
        other => panic!("secret {other} has no test value: add it to test_secret"),
    }
    .to_owned()
}

/// Test values for the template's parameters.
pub fn test_parameter(name: &str) -> String {
    match name {
        "AppUrl" => "https://app.example.com",
        "StripePriceMonthly" => "price_monthly_test",
        "StripePriceQuarterly" => "price_quarterly_test",
        "OpenAiBaseUrl" => "http://127.0.0.1:9",
        "CorrectionModel" => "gpt-test",
        "Stage" => "test",
        "SecretsVersion" => "1.1.1.1",
        other => panic!("template parameter {other} has no test value: add it to test_parameter"),
    }
    .to_owned()
}

/// The webhook signing secret `test_parameter` gives the template.
pub const TEST_WEBHOOK_SECRET: &str = "whsec_template_test";

impl Template {
    pub fn load() -> Self {
        let path = repo_root().join("template.yaml");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        Self::parse(&text).unwrap_or_else(|e| panic!("template.yaml: {e}"))
    }

    pub fn parse(text: &str) -> Result<Self, String> {
        let yaml: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
        Ok(Self {
            root: to_json(yaml)?,
        })
    }

    pub fn resources(&self) -> Vec<(String, Value)> {
        self.root["Resources"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default()
    }

    pub fn of_type(&self, ty: &str) -> Vec<(String, Value)> {
        self.resources()
            .into_iter()
            .filter(|(_, r)| r["Type"] == ty)
            .collect()
    }

    /// Every serverless function, by its cargo-lambda binary.
    pub fn functions(&self) -> Vec<Function> {
        let globals = &self.root["Globals"]["Function"];
        self.of_type("AWS::Serverless::Function")
            .into_iter()
            .map(|(id, r)| {
                let p = &r["Properties"];
                let pick = |k: &str| {
                    if p[k].is_null() {
                        globals[k].clone()
                    } else {
                        p[k].clone()
                    }
                };
                let mut env = BTreeMap::new();
                for vars in [
                    &globals["Environment"]["Variables"],
                    &p["Environment"]["Variables"],
                ] {
                    if let Some(m) = vars.as_object() {
                        env.extend(m.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                }
                let mut statements = Vec::new();
                for policy in p["Policies"].as_array().into_iter().flatten() {
                    for s in policy["Statement"].as_array().into_iter().flatten() {
                        assert_eq!(s["Effect"], "Allow", "{id}: only Allow statements are expected");
                        statements.push(Statement {
                            actions: strings(&s["Action"]),
                            resources: one_or_many(&s["Resource"])
                                .iter()
                                .map(|r| {
                                    resource_pattern(r).unwrap_or_else(|e| panic!("{id}: {e}"))
                                })
                                .collect(),
                        });
                    }
                    assert!(
                        policy.get("Statement").is_some(),
                        "{id}: policy {policy} is not an inline statement list; the permission test reads only those"
                    );
                }
                let routes = p["Events"]
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.values())
                    .filter(|e| e["Type"] == "HttpApi")
                    .map(|e| {
                        let q = &e["Properties"];
                        (
                            q["Method"].as_str().unwrap_or_default().to_owned(),
                            q["Path"].as_str().unwrap_or_default().to_owned(),
                            q["Auth"]["Authorizer"] == "NONE",
                        )
                    })
                    .collect();
                Function {
                    logical_id: id.clone(),
                    binary: r["Metadata"]["BuildProperties"]["Binary"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                    env,
                    statements,
                    memory_mb: pick("MemorySize").as_u64().unwrap_or(128),
                    timeout_s: pick("Timeout").as_u64().unwrap_or(3),
                    runtime: pick("Runtime").as_str().unwrap_or_default().to_owned(),
                    architectures: strings(&pick("Architectures")),
                    routes,
                }
            })
            .collect()
    }

    pub fn function(&self, binary: &str) -> Option<Function> {
        self.functions().into_iter().find(|f| f.binary == binary)
    }

    /// Creates every DynamoDB table of the template, as the template defines it (keys,
    /// attribute types, global secondary indexes), named `<LogicalId>-<suffix>`.
    /// Returns logical id → table name.
    pub async fn create_tables(
        &self,
        client: &aws_sdk_dynamodb::Client,
        suffix: &str,
    ) -> BTreeMap<String, String> {
        let mut names = BTreeMap::new();
        for (id, r) in self.of_type("AWS::DynamoDB::Table") {
            let p = &r["Properties"];
            let name = format!("{id}-{suffix}");
            assert_eq!(p["BillingMode"], "PAY_PER_REQUEST", "{id} is not on demand");
            let mut create = client
                .create_table()
                .table_name(&name)
                .billing_mode(BillingMode::PayPerRequest);
            for a in p["AttributeDefinitions"].as_array().into_iter().flatten() {
                create = create.attribute_definitions(
                    AttributeDefinition::builder()
                        .attribute_name(str_of(&a["AttributeName"]))
                        .attribute_type(ScalarAttributeType::from(str_of(&a["AttributeType"])))
                        .build()
                        .expect("attribute definition"),
                );
            }
            for k in key_schema(&p["KeySchema"]) {
                create = create.key_schema(k);
            }
            for g in p["GlobalSecondaryIndexes"].as_array().into_iter().flatten() {
                let mut projection = Projection::builder().projection_type(ProjectionType::from(
                    str_of(&g["Projection"]["ProjectionType"]),
                ));
                for a in strings(&g["Projection"]["NonKeyAttributes"]) {
                    projection = projection.non_key_attributes(a);
                }
                let mut index = GlobalSecondaryIndex::builder()
                    .index_name(str_of(&g["IndexName"]))
                    .projection(projection.build());
                for k in key_schema(&g["KeySchema"]) {
                    index = index.key_schema(k);
                }
                create = create.global_secondary_indexes(index.build().expect("index"));
            }
            create
                .send()
                .await
                .unwrap_or_else(|e| panic!("CreateTable {name}: {e:?}"));
            names.insert(id, name);
        }
        names
    }

    /// Creates every S3 bucket of the template, named `<logicalid>-<suffix>` in lower case.
    /// Returns logical id → bucket name.
    pub async fn create_buckets(
        &self,
        client: &aws_sdk_s3::Client,
        suffix: &str,
    ) -> BTreeMap<String, String> {
        let mut names = BTreeMap::new();
        for (id, _) in self.of_type("AWS::S3::Bucket") {
            let name = format!("{id}-{suffix}").to_lowercase();
            client
                .create_bucket()
                .bucket(&name)
                .send()
                .await
                .unwrap_or_else(|e| panic!("CreateBucket {name}: {e:?}"));
            names.insert(id, name);
        }
        names
    }

    /// Every table and bucket of the template, created on the test server at `endpoint`
    /// under fresh names. Returns logical id → physical name.
    pub async fn create_resources(&self, endpoint: &str) -> BTreeMap<String, String> {
        let sdk = sdk_config(endpoint).await;
        let suffix = unique_suffix();
        let mut names = self
            .create_tables(&aws_sdk_dynamodb::Client::new(&sdk), &suffix)
            .await;
        let s3 = aws_sdk_s3::Client::from_conf(
            aws_sdk_s3::config::Builder::from(&sdk)
                .force_path_style(true)
                .build(),
        );
        names.extend(self.create_buckets(&s3, &suffix).await);
        names
    }

    /// The SSM parameters the functions read their secrets from (`<VAR>_PARAMETER`), created
    /// on the test server as `SecureString`s holding [`test_secret`] values.
    pub async fn create_secret_parameters(&self, endpoint: &str) {
        let ssm = aws_sdk_ssm::Client::new(&sdk_config(endpoint).await);
        let mut done = std::collections::BTreeSet::new();
        for f in self.functions() {
            for (var, value) in &f.env {
                let Some(secret_var) = var.strip_suffix("_PARAMETER") else {
                    continue;
                };
                let name = match value["Fn::Sub"].as_str() {
                    Some(text) => substitute(text, &test_parameter),
                    None => value.as_str().unwrap_or_default().to_owned(),
                };
                if done.insert(name.clone()) {
                    ssm.put_parameter()
                        .name(&name)
                        .value(test_secret(secret_var))
                        .r#type(aws_sdk_ssm::types::ParameterType::SecureString)
                        .overwrite(true)
                        .send()
                        .await
                        .unwrap_or_else(|e| panic!("PutParameter {name}: {e:?}"));
                }
            }
        }
    }

    /// The environment variables of the globals that name a resource with `!Ref`,
    /// e.g. `TEF_USERS_TABLE` → `UsersTable`.
    pub fn env_refs(&self) -> BTreeMap<String, String> {
        self.root["Globals"]["Function"]["Environment"]["Variables"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.clone(), v["Ref"].as_str()?.to_owned())))
            .collect()
    }
}

/// Clients on the AWS-compatible test server `make test` starts (`TEF_TEST_AWS_ENDPOINT`).
pub async fn sdk_config(endpoint: &str) -> aws_config::SdkConfig {
    aws_config::defaults(aws_config::BehaviorVersion::latest())
        .region(aws_config::Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .load()
        .await
}

pub fn test_endpoint() -> String {
    std::env::var("TEF_TEST_AWS_ENDPOINT").unwrap_or_else(|_| {
        panic!("TEF_TEST_AWS_ENDPOINT is not set: run `make test` (it starts moto's server)")
    })
}

/// A name suffix unique to this process and call.
pub fn unique_suffix() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{}-{nanos}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// The template's tables, created on the test server; returns the variables that name them
/// (`TEF_USERS_TABLE` → `UsersTable-…`) as the deployed functions get them.
pub async fn template_tables(endpoint: &str) -> BTreeMap<String, String> {
    let template = Template::load();
    let sdk = sdk_config(endpoint).await;
    let names = template
        .create_tables(&aws_sdk_dynamodb::Client::new(&sdk), &unique_suffix())
        .await;
    template
        .env_refs()
        .into_iter()
        .filter_map(|(var, id)| Some((var, names.get(&id)?.clone())))
        .collect()
}

fn key_schema(v: &Value) -> Vec<KeySchemaElement> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|k| {
            KeySchemaElement::builder()
                .attribute_name(str_of(&k["AttributeName"]))
                .key_type(KeyType::from(str_of(&k["KeyType"])))
                .build()
                .expect("key schema")
        })
        .collect()
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn one_or_many(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(a) => a.clone(),
        Value::Null => vec![],
        other => vec![other.clone()],
    }
}

fn strings(v: &Value) -> Vec<String> {
    one_or_many(v)
        .iter()
        .filter_map(|s| s.as_str().map(str::to_owned))
        .collect()
}

/// A policy resource as a logical pattern: `!GetAtt X.Arn` → `X`, `!Sub ${X.Arn}/tail` → `X/tail`,
/// `!Sub arn:${AWS::Partition}:ssm:…:parameter/name` → `parameter/name`.
pub fn resource_pattern(v: &Value) -> Result<String, String> {
    if let Some([id, attr]) = v["Fn::GetAtt"].as_array().map(Vec::as_slice)
        && attr == "Arn"
    {
        return Ok(str_of(id).to_owned());
    }
    if let Some(s) = v["Fn::Sub"].as_str() {
        if let Some(rest) = s.strip_prefix("${")
            && let Some((inner, tail)) = rest.split_once('}')
            && let Some(id) = inner.strip_suffix(".Arn")
        {
            return Ok(format!("{id}{tail}"));
        }
        if let Some((_, name)) = s.split_once(":parameter/") {
            return Ok(format!("parameter/{name}"));
        }
    }
    Err(format!("cannot read the policy resource {v}"))
}

/// `*` matches any run of characters (slashes included), as in IAM resource ARNs.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            let Some(rest) = text.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .filter(|i| rest.is_char_boundary(*i))
                .any(|i| glob_match(tail, &rest[i..]))
        }
    }
}

fn to_json(v: serde_yaml::Value) -> Result<Value, String> {
    use serde_yaml::Value as Y;
    Ok(match v {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => serde_json::to_value(&n).map_err(|e| e.to_string())?,
        Y::String(s) => Value::String(s),
        Y::Sequence(s) => Value::Array(s.into_iter().map(to_json).collect::<Result<_, _>>()?),
        Y::Mapping(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                let key = match k {
                    Y::String(s) => s,
                    other => return Err(format!("non-string key {other:?}")),
                };
                out.insert(key, to_json(v)?);
            }
            Value::Object(out)
        }
        Y::Tagged(t) => {
            let tag = t.tag.to_string();
            let name = tag.trim_start_matches('!');
            let inner = to_json(t.value)?;
            match name {
                "Ref" => json!({ "Ref": inner }),
                "GetAtt" => match inner {
                    Value::String(s) => {
                        let (id, attr) = s.split_once('.').ok_or(format!("!GetAtt {s}"))?;
                        json!({ "Fn::GetAtt": [id, attr] })
                    }
                    other => json!({ "Fn::GetAtt": other }),
                },
                other => json!({ format!("Fn::{other}"): inner }),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tags_become_their_json_forms() {
        let t = Template::parse(
            "A:\n  r: !Ref X\n  g: !GetAtt T.Arn\n  s: !Sub '${B.Arn}/tts/*'\n  n: !Not [!Equals [a, b]]\n",
        )
        .unwrap();
        assert_eq!(t.root["A"]["r"], json!({"Ref": "X"}));
        assert_eq!(t.root["A"]["g"], json!({"Fn::GetAtt": ["T", "Arn"]}));
        assert_eq!(resource_pattern(&t.root["A"]["g"]).unwrap(), "T");
        assert_eq!(resource_pattern(&t.root["A"]["s"]).unwrap(), "B/tts/*");
        assert_eq!(
            t.root["A"]["n"],
            json!({"Fn::Not": [{"Fn::Equals": ["a", "b"]}]})
        );
    }

    #[test]
    fn globs_match_like_iam() {
        assert!(glob_match("B/*", "B/tts/x.wav"));
        assert!(glob_match("B/tts/*", "B/tts/x.wav"));
        assert!(!glob_match("B/tts/*", "B/reading/1/d01.svg"));
        assert!(!glob_match("B/*", "B"));
        assert!(glob_match("T", "T"));
        assert!(!glob_match("T", "T/index/byDate"));
        assert!(glob_match("T/index/*", "T/index/byDate"));
    }

    #[test]
    fn the_real_template_parses_with_its_functions_and_tables() {
        let t = Template::load();
        assert!(t.functions().len() >= 17);
        assert!(t.of_type("AWS::DynamoDB::Table").len() >= 5);
        assert_eq!(t.env_refs()["TEF_USERS_TABLE"], "UsersTable");
    }
}
