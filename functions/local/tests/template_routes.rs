//! The local server serves `shared::api::ROUTES` directly; production serves each route from
//! its own Lambda behind API Gateway. This checks that the two agree: every route has a
//! function crate that serves it by name, and a function in `template.yaml` with that binary,
//! method and path; and that the secrets reach only the functions that need them.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The template's functions: (binary, the block of lines that defines it).
fn functions(template: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in template.lines() {
        let top_level_resource =
            line.starts_with("  ") && !line.starts_with("   ") && line.trim_end().ends_with(':');
        if top_level_resource || (!line.starts_with(' ') && !line.is_empty()) {
            if let Some((name, block)) = current.take()
                && block.contains("AWS::Serverless::Function")
            {
                out.push((name, block));
            }
            current = top_level_resource.then(|| (String::new(), String::new()));
        }
        if let Some((name, block)) = current.as_mut() {
            if let Some(b) = line.trim().strip_prefix("Binary: ") {
                *name = b.trim().to_owned();
            }
            block.push_str(line);
            block.push('\n');
        }
    }
    if let Some((name, block)) = current
        && block.contains("AWS::Serverless::Function")
    {
        out.push((name, block));
    }
    out
}

#[test]
fn every_route_has_its_crate_and_its_template_function() {
    let template = std::fs::read_to_string(root().join("template.yaml")).unwrap();
    let fns = functions(&template);
    let mut problems = Vec::new();
    for route in shared::api::ROUTES {
        let main = root().join(format!("functions/{}/src/main.rs", route.name));
        match std::fs::read_to_string(&main) {
            Ok(src) if src.contains(&format!("serve(\"{}\")", route.name)) => {}
            _ => problems.push(format!(
                "{}: no crate serving it at {}",
                route.name,
                main.display()
            )),
        }
        let Some((_, block)) = fns.iter().find(|(b, _)| b == route.name) else {
            problems.push(format!(
                "{}: no function with Binary: {} in template.yaml",
                route.name, route.name
            ));
            continue;
        };
        if !block.contains(&format!("Method: {}", route.method)) {
            problems.push(format!(
                "{}: template method is not {}",
                route.name, route.method
            ));
        }
        if !block.contains(&format!("Path: {}\n", route.path)) {
            problems.push(format!(
                "{}: template path is not {}",
                route.name, route.path
            ));
        }
    }
    for (binary, _) in &fns {
        if shared::api::routes::by_name(binary).is_none() {
            problems.push(format!("template function {binary} serves no route"));
        }
    }
    // And from the other side: every crate of functions/ but the local server is a route
    // (hence in the template, checked above).
    let dirs = std::fs::read_dir(root().join("functions")).expect("functions/");
    let mut crates = 0;
    for dir in dirs.flatten() {
        let name = dir.file_name().to_string_lossy().into_owned();
        if name == "local" || !dir.path().join("Cargo.toml").is_file() {
            continue;
        }
        crates += 1;
        if shared::api::routes::by_name(&name).is_none() {
            problems.push(format!(
                "functions/{name} serves no route of shared::api::ROUTES"
            ));
        }
    }
    assert_eq!(crates, shared::api::ROUTES.len(), "one crate per route");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Secrets never sit in a function's environment: a function names its SSM parameter
/// (`<VAR>_PARAMETER`), reads it at cold start (`shared::secrets`), and only the functions that
/// use a secret name it and may read it.
#[test]
fn secrets_reach_only_the_functions_that_use_them() {
    let t = testkit::Template::load();
    let functions = t.functions();
    for (var, parameter, allowed) in [
        (
            "OPENAI_API_KEY",
            "openai-api-key",
            &[
                "speaking-chat",
                "speaking-report",
                "text-to-speech",
                "transcription",
                "tef-correction",
            ][..],
        ),
        (
            "STRIPE_SECRET_KEY",
            "stripe-secret-key",
            &["create-checkout-session", "get-checkout-session"][..],
        ),
        (
            "TEF_STRIPE_WEBHOOK_SECRET",
            "stripe-webhook-secret",
            &["stripe-webhook"][..],
        ),
        (
            "TEF_MEDIA_SIGNING_KEY",
            "media-signing-key",
            &["get-test", "get-result", "submit-attempt", "text-to-speech"][..],
        ),
    ] {
        let mut holders: Vec<&str> = functions
            .iter()
            .filter(|f| f.env.contains_key(&format!("{var}_PARAMETER")))
            .map(|f| f.binary.as_str())
            .collect();
        holders.sort_unstable();
        let mut allowed = allowed.to_vec();
        allowed.sort_unstable();
        assert_eq!(holders, allowed, "{var}");
        for f in &functions {
            assert!(
                !f.env.contains_key(var),
                "{}: {var} in plain text",
                f.binary
            );
            let readable = f.statements.iter().any(|s| {
                s.actions.iter().any(|a| a == "ssm:GetParameter")
                    && s.resources
                        .iter()
                        .any(|r| r == &format!("parameter/tef/${{Stage}}/{parameter}"))
            });
            assert_eq!(
                readable,
                allowed.contains(&f.binary.as_str()),
                "{}: may read {parameter}",
                f.binary
            );
        }
    }
    assert!(
        t.root["Globals"]["Function"]["Environment"]["Variables"]
            .as_object()
            .is_some_and(|v| v.keys().all(|k| !k.ends_with("_PARAMETER"))),
        "no secret is global"
    );
    // A secret is read once, at cold start: a changed one (a new SSM version, which make deploy
    // passes as SecretsVersion) must change every function's configuration, so that no warm
    // instance keeps serving the old value.
    assert_eq!(
        t.root["Globals"]["Function"]["Environment"]["Variables"]["TEF_SECRETS_VERSION"],
        serde_json::json!({"Ref": "SecretsVersion"})
    );
}

/// The resource block of `name` in the template: its line and the lines indented under it.
fn resource(template: &str, name: &str) -> String {
    let head = format!("  {name}:");
    let mut lines = template.lines().skip_while(|l| *l != head);
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("{name} is not in the template"));
    let body: Vec<&str> = lines
        .take_while(|l| l.is_empty() || l.starts_with("   ") || l.starts_with("  #"))
        .collect();
    format!("{first}\n{}", body.join("\n"))
}

#[test]
fn accounts_survive_stack_changes_and_the_api_is_throttled() {
    let template = std::fs::read_to_string(root().join("template.yaml")).unwrap();
    for name in [
        "UserPool",
        "UserPoolDomain",
        "UsersTable",
        "ResultsTable",
        "PaymentsTable",
        "WritingResultsTable",
        "SpeakingResultsTable",
    ] {
        let block = resource(&template, name);
        // Kept when the stack is deleted or the resource replaced; only a first creation that
        // fails removes what it made, so that make deploy can simply run again.
        assert!(
            block.contains("DeletionPolicy: RetainExceptOnCreate\n")
                && block.contains("UpdateReplacePolicy: Retain\n"),
            "{name} must be retained:\n{block}"
        );
    }
    let pool = resource(&template, "UserPool");
    assert!(
        pool.contains("AttributesRequireVerificationBeforeUpdate: [email]"),
        "{pool}"
    );
    let client = resource(&template, "UserPoolClient");
    assert!(
        client.contains("!Ref GoogleProvider"),
        "the client waits for the provider:\n{client}"
    );
    let media = resource(&template, "MediaBucket");
    assert!(
        media.contains("Prefix: tts/") && media.contains("ExpirationInDays:"),
        "generated speech expires:\n{media}"
    );
    let api = resource(&template, "HttpApi");
    assert!(
        api.contains("ThrottlingRateLimit:") && api.contains("ThrottlingBurstLimit:"),
        "{api}"
    );
}

/// CloudFront's response headers policy is the one `shared::security` defines (the local
/// server sends it too), with the sign-in origins of production, and every behaviour (the app,
/// the media, the API) uses it.
#[test]
fn cloudfront_sets_the_security_headers_of_shared_security() {
    let t = testkit::Template::load();
    let policy = &t.root["Resources"]["SecurityHeadersPolicy"]["Properties"]["ResponseHeadersPolicyConfig"]
        ["SecurityHeadersConfig"];
    let csp_template = policy["ContentSecurityPolicy"]["ContentSecurityPolicy"]["Fn::Sub"]
        .as_str()
        .expect("a !Sub content security policy");
    let csp = csp_template
        .replace("${AuthDomainPrefix}", "prefix")
        .replace("${AWS::Region}", "ca-central-1");
    assert_eq!(
        csp,
        shared::security::content_security_policy(&[
            "https://prefix.auth.ca-central-1.amazoncognito.com",
            "https://cognito-idp.ca-central-1.amazonaws.com"
        ])
    );
    assert_eq!(policy["ContentSecurityPolicy"]["Override"], true);
    assert_eq!(
        format!(
            "max-age={}; includeSubDomains",
            policy["StrictTransportSecurity"]["AccessControlMaxAgeSec"]
        ),
        shared::security::STRICT_TRANSPORT_SECURITY
    );
    assert_eq!(policy["StrictTransportSecurity"]["IncludeSubdomains"], true);
    assert_eq!(policy["ContentTypeOptions"]["Override"], true);
    assert_eq!(
        policy["ReferrerPolicy"]["ReferrerPolicy"],
        shared::security::REFERRER_POLICY
    );
    assert_eq!(
        policy["FrameOptions"]["FrameOption"],
        shared::security::FRAME_OPTIONS
    );
    let config = &t.root["Resources"]["Distribution"]["Properties"]["DistributionConfig"];
    let mut behaviours = vec![config["DefaultCacheBehavior"].clone()];
    behaviours.extend(
        config["CacheBehaviors"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
    );
    for b in behaviours {
        assert_eq!(
            b["ResponseHeadersPolicyId"]["Ref"], "SecurityHeadersPolicy",
            "behaviour {} has no security headers",
            b["PathPattern"]
        );
    }
}

/// The rest of what production needs from the template, read as data: functions built by
/// cargo-lambda for arm64 on `provided.al2023` with time-outs under API Gateway's 30 s; the JWT
/// authorizer on every route but health, plans and the webhook; on-demand, recoverable,
/// retained tables; private buckets; a public SPA client with the code flow; the outputs an
/// operator needs.
#[test]
fn functions_tables_buckets_and_sign_in_are_production_ready() {
    let t = testkit::Template::load();
    let public = ["health", "list-plans", "stripe-webhook"];
    for f in t.functions() {
        assert_eq!(f.runtime, "provided.al2023", "{}", f.binary);
        assert_eq!(f.architectures, ["arm64"], "{}", f.binary);
        assert!(
            (3..30).contains(&f.timeout_s),
            "{}: timeout {} s must stay under API Gateway's 30 s",
            f.binary,
            f.timeout_s
        );
        assert!(f.memory_mb >= 128, "{}", f.binary);
        // A provider's whole time budget (retries included), plus a cold start's secret read,
        // fits in the function's time-out: the learner gets the app's message, not Lambda's.
        for (secret, budget) in [
            (
                "OPENAI_API_KEY_PARAMETER",
                shared::adapters::openai_client::TOTAL_BUDGET,
            ),
            (
                "STRIPE_SECRET_KEY_PARAMETER",
                shared::adapters::stripe_checkout::TOTAL_BUDGET,
            ),
        ] {
            if f.env.contains_key(secret) {
                assert!(
                    f.timeout_s >= budget.as_secs() + 3,
                    "{}: timeout {} s leaves no room after the provider's {} s budget",
                    f.binary,
                    f.timeout_s,
                    budget.as_secs()
                );
            }
        }
        let r = &t.root["Resources"][&f.logical_id];
        assert_eq!(
            r["Metadata"]["BuildMethod"], "rust-cargolambda",
            "{}",
            f.binary
        );
        assert_eq!(f.routes.len(), 1, "{}: one route per function", f.binary);
        let (_, _, no_auth) = &f.routes[0];
        assert_eq!(
            *no_auth,
            public.contains(&f.binary.as_str()),
            "{}: the JWT authorizer must guard every route but {public:?}",
            f.binary
        );
    }
    let api = &t.root["Resources"]["HttpApi"]["Properties"]["Auth"];
    assert_eq!(api["DefaultAuthorizer"], "Cognito");
    for (id, table) in t.of_type("AWS::DynamoDB::Table") {
        let p = &table["Properties"];
        assert_eq!(p["BillingMode"], "PAY_PER_REQUEST", "{id}");
        assert_eq!(
            p["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"], true,
            "{id}"
        );
        assert_eq!(table["DeletionPolicy"], "RetainExceptOnCreate", "{id}");
        assert_eq!(table["UpdateReplacePolicy"], "Retain", "{id}");
    }
    for (id, bucket) in t.of_type("AWS::S3::Bucket") {
        let block = &bucket["Properties"]["PublicAccessBlockConfiguration"];
        for k in [
            "BlockPublicAcls",
            "BlockPublicPolicy",
            "IgnorePublicAcls",
            "RestrictPublicBuckets",
        ] {
            assert_eq!(block[k], true, "{id}: {k}");
        }
    }
    let client = &t.root["Resources"]["UserPoolClient"]["Properties"];
    assert_eq!(client["GenerateSecret"], false);
    assert_eq!(client["AllowedOAuthFlows"], serde_json::json!(["code"]));
    assert!(client["ExplicitAuthFlows"].is_array());
    for output in [
        "AppUrl",
        "ApiUrl",
        "UserPoolId",
        "AuthAuthority",
        "AuthClientId",
    ] {
        assert!(
            t.root["Outputs"][output].is_object(),
            "output {output} is missing"
        );
    }
}

/// An operator's own domain: CloudFront answers for it only with its certificate (from
/// us-east-1, SNI, modern TLS), the two parameters come together, and the site's URL output
/// names the domain; without one, the distribution keeps CloudFront's address and certificate.
#[test]
fn a_custom_domain_is_served_with_its_certificate() {
    let t = testkit::Template::load();
    let with_domain =
        serde_json::json!({"Fn::Not": [{"Fn::Equals": [{"Ref": "AppCertificateArn"}, ""]}]});
    assert_eq!(t.root["Conditions"]["WithDomain"], with_domain);
    for (rule, when, then) in [
        ("DomainHasCertificate", "AppDomain", "AppCertificateArn"),
        ("CertificateHasDomain", "AppCertificateArn", "AppDomain"),
    ] {
        let r = &t.root["Rules"][rule];
        assert_eq!(
            r["RuleCondition"],
            serde_json::json!({"Fn::Not": [{"Fn::Equals": [{"Ref": when}, ""]}]}),
            "{rule}"
        );
        assert_eq!(
            r["Assertions"][0]["Assert"],
            serde_json::json!({"Fn::Not": [{"Fn::Equals": [{"Ref": then}, ""]}]}),
            "{rule}"
        );
    }
    let cert = &t.root["Parameters"]["AppCertificateArn"]["AllowedPattern"];
    assert!(
        cert.as_str().is_some_and(|p| p.contains(":acm:us-east-1:")),
        "CloudFront takes certificates from us-east-1 only: {cert}"
    );
    let config = &t.root["Resources"]["Distribution"]["Properties"]["DistributionConfig"];
    assert_eq!(
        config["Aliases"],
        serde_json::json!({"Fn::If": ["WithDomain", [{"Ref": "AppDomain"}], {"Ref": "AWS::NoValue"}]})
    );
    let viewer = &config["ViewerCertificate"]["Fn::If"];
    assert_eq!(viewer[0], "WithDomain");
    assert_eq!(
        viewer[1]["AcmCertificateArn"],
        serde_json::json!({"Ref": "AppCertificateArn"})
    );
    assert_eq!(viewer[1]["SslSupportMethod"], "sni-only");
    assert_eq!(viewer[1]["MinimumProtocolVersion"], "TLSv1.2_2021");
    assert_eq!(viewer[2], serde_json::json!({"Ref": "AWS::NoValue"}));
    let url = &t.root["Outputs"]["AppUrl"]["Value"]["Fn::If"];
    assert_eq!(url[0], "WithDomain");
    assert_eq!(
        url[1],
        serde_json::json!({"Fn::Sub": "https://${AppDomain}"})
    );
    assert_eq!(
        url[2],
        serde_json::json!({"Fn::Sub": "https://${Distribution.DomainName}"})
    );
    assert!(t.root["Outputs"]["DistributionDomainName"].is_object());
}
