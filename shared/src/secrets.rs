//! Secrets in production. A deployed function never gets a secret in its environment: it gets
//! the name of an SSM Parameter Store `SecureString` in `<VAR>_PARAMETER`
//! (`OPENAI_API_KEY_PARAMETER=/tef/prod/openai-api-key`), and reads the value once, at cold
//! start, before it serves anything; the value then reaches [`crate::Config`] as `<VAR>`.
//! The local server takes its (test) secrets from plain variables and never calls SSM.

use std::collections::HashMap;

use aws_sdk_ssm::error::ProvideErrorMetadata;
use thiserror::Error;

pub const PARAMETER_SUFFIX: &str = "_PARAMETER";

#[derive(Debug, Error)]
pub enum SecretsError {
    #[error("{var} is set both directly and through {var}{PARAMETER_SUFFIX}: keep one")]
    Ambiguous { var: String },
    #[error("cannot read the secret parameter {name} (for {var}): {detail}")]
    Read {
        var: String,
        name: String,
        detail: String,
    },
}

/// The variables to read from SSM: (the variable the value is for, the parameter's name).
pub fn parameter_refs(vars: &HashMap<String, String>) -> Vec<(String, String)> {
    let mut refs: Vec<(String, String)> = vars
        .iter()
        .filter_map(|(k, v)| {
            let var = k.strip_suffix(PARAMETER_SUFFIX)?;
            let name = v.trim();
            (!var.is_empty() && !name.is_empty()).then(|| (var.to_owned(), name.to_owned()))
        })
        .collect();
    refs.sort();
    refs
}

/// `vars` with every `<VAR>_PARAMETER` resolved into `<VAR>`, read from SSM with decryption.
/// `endpoint`: another SSM endpoint (tests); none in production.
pub async fn resolve(
    mut vars: HashMap<String, String>,
    endpoint: Option<&str>,
) -> Result<HashMap<String, String>, SecretsError> {
    let refs = parameter_refs(&vars);
    if refs.is_empty() {
        return Ok(vars);
    }
    for (var, _) in &refs {
        if vars.get(var).is_some_and(|v| !v.trim().is_empty()) {
            return Err(SecretsError::Ambiguous { var: var.clone() });
        }
    }
    let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest());
    if let Some(e) = endpoint {
        loader = loader.endpoint_url(e);
    }
    let client = aws_sdk_ssm::Client::new(&loader.load().await);
    for (var, name) in refs {
        let read = |detail: String| SecretsError::Read {
            var: var.clone(),
            name: name.clone(),
            detail,
        };
        let out = client
            .get_parameter()
            .name(&name)
            .with_decryption(true)
            .send()
            .await
            .map_err(|e| {
                read(format!(
                    "{}: {}",
                    e.code().unwrap_or("unknown"),
                    e.message().unwrap_or("no message")
                ))
            })?;
        let value = out
            .parameter
            .and_then(|p| p.value)
            .filter(|v| !v.trim().is_empty())
            .ok_or_else(|| read("the parameter has no value".into()))?;
        tracing::info!(var = %var, parameter = %name, "secret read from SSM");
        vars.insert(var, value);
    }
    Ok(vars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_named_parameters_are_read() {
        let vars: HashMap<String, String> = [
            ("OPENAI_API_KEY_PARAMETER", "/tef/prod/openai-api-key"),
            ("STRIPE_SECRET_KEY_PARAMETER", " "),
            ("_PARAMETER", "/x"),
            ("TEF_STORE", "dynamodb"),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        assert_eq!(
            parameter_refs(&vars),
            [(
                "OPENAI_API_KEY".to_owned(),
                "/tef/prod/openai-api-key".to_owned()
            )]
        );
    }

    #[tokio::test]
    async fn a_secret_set_twice_is_refused_before_any_call() {
        let vars: HashMap<String, String> = [
            ("OPENAI_API_KEY_PARAMETER", "/tef/prod/openai-api-key"),
            ("OPENAI_API_KEY", "sk-plain"),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        assert!(matches!(
            resolve(vars, Some("http://127.0.0.1:9")).await,
            Err(SecretsError::Ambiguous { .. })
        ));
    }
}

/// Writes a secret the process keeps on disk (a signing key) readable and writable by its
/// owner only (0600), whatever the umask; an existing file is tightened too.
pub fn write_private_file(path: &std::path::Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    file.write_all(contents)?;
    file.sync_all()
}

#[cfg(test)]
mod file_tests {
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn secrets_on_disk_are_for_their_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        super::write_private_file(&path, b"secret").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(std::fs::read(&path).unwrap(), b"secret");
        let fresh = dir.path().join("fresh");
        super::write_private_file(&fresh, b"x").unwrap();
        assert_eq!(
            std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
}
