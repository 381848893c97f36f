//! Runs JavaScript with node (installed by `make test` with the frontend), for the CloudFront
//! Functions of `template.yaml`: the script prints one JSON value, which is returned parsed.

pub fn run_json<T: serde::de::DeserializeOwned>(script: &str) -> T {
    let out = std::process::Command::new("node")
        .args(["-e", script])
        .output()
        .expect("node runs (make test installs it with the frontend)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the script prints one JSON value")
}
