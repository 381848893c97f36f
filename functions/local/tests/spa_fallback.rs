//! Client routes get the app and files stay files, on the laptop and behind CloudFront alike.
//! The local server is asked over HTTP; CloudFront's viewer-request function is taken from
//! `template.yaml` and run with node, on the same paths.

use crate::common;

use reqwest::StatusCode;

/// Client routes of `frontend/src/app/routes.tsx`, with ids as the API makes them (dots included).
const CLIENT_ROUTES: &[&str] = &[
    "/",
    "/dashboard",
    "/results-tracker",
    "/results",
    "/section/reading",
    "/quiz/listening/3",
    "/results/listening.1795643973613906.25bad0c1e2",
    "/results/reading.1795643973613906.25bad0c1e2?from=tracker",
    "/writing/writingTest1",
    "/speaking/serviceCoursLangue",
    "/success?session_id=cs_test_a1.b2",
    "/zoom",
    "/no/such.page",
];

/// CloudFront's viewer-request function, as `template.yaml` deploys it.
fn cloudfront_function() -> String {
    let template = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../template.yaml"),
    )
    .unwrap();
    let mut lines = template
        .lines()
        .skip_while(|l| l.trim() != "FunctionCode: |")
        .skip(1);
    let first = lines.next().expect("SpaRewriteFunction has FunctionCode");
    let indent = first.len() - first.trim_start().len();
    let mut code = vec![first[indent..].to_owned()];
    for line in lines {
        if !line.trim().is_empty() && line.len() - line.trim_start().len() < indent {
            break;
        }
        code.push(line.get(indent..).unwrap_or_default().to_owned());
    }
    code.join("\n")
}

/// Runs the function on each path (CloudFront passes the URI without the query string).
fn cloudfront_rewrites(paths: &[String]) -> Vec<String> {
    let script = format!(
        "{}\nconst paths = {};\nconsole.log(JSON.stringify(paths.map(p => handler({{ request: {{ uri: p.split('?')[0] }} }}).uri)));",
        cloudfront_function(),
        serde_json::to_string(paths).unwrap()
    );
    testkit::node::run_json(&script)
}

#[tokio::test]
async fn client_routes_get_the_app_and_files_stay_files_locally_and_on_cloudfront() {
    let s = common::start().await;

    // `/` is index.html, with the landing's first screen; every other client route is the empty
    // shell, app.html (never the landing's hero, which would flash before the page it asked for).
    let routes: Vec<String> = CLIENT_ROUTES.iter().map(|p| p.to_string()).collect();
    for (path, rewritten) in routes.iter().zip(cloudfront_rewrites(&routes)) {
        let res = s.http.get(s.url(path)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "local server, {path}");
        let html = res.text().await.unwrap();
        assert!(html.contains("<title>app</title>"), "local server, {path}");
        let landing = path == "/";
        assert_eq!(
            html.contains("<h1>landing</h1>"),
            landing,
            "local server, {path}"
        );
        let expected = if landing { "/index.html" } else { "/app.html" };
        assert_eq!(rewritten, expected, "CloudFront, {path}");
    }

    let mut files = common::public_files();
    assert!(!files.is_empty());
    files.extend(
        [
            "/index.html",
            "/app.html",
            "/auth-callback.html",
            "/config.json",
            "/assets/app.js",
        ]
        .map(String::from),
    );
    for (path, rewritten) in files.iter().zip(cloudfront_rewrites(&files)) {
        assert_eq!(&rewritten, path, "CloudFront must serve the file {path}");
        let res = s.http.get(s.url(path)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "local server, {path}");
        if path != "/index.html" && path != "/app.html" {
            assert!(
                !res.text().await.unwrap().contains("<title>app</title>"),
                "local server served the app for the file {path}"
            );
        }
    }

    // A missing file in one of the app's folders is a 404, not the app.
    for path in [
        "/assets/missing.js",
        "/illustrations/missing.svg",
        "/samples/gone.svg",
    ] {
        let res = s.http.get(s.url(path)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "local server, {path}");
    }
}
