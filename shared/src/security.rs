//! The browser-facing security headers, defined once: the local server sends them on every
//! response, and CloudFront's response headers policy in `template.yaml` sets the same ones in
//! production (a test compares the template's policy with [`content_security_policy`]).

/// The content security policy. Everything comes from the app's own origin (the app, the API
/// and the exam media, which CloudFront serves under `/media/`), except `connect`: the sign-in
/// provider's origins in production (Cognito's hosted UI and its issuer), for the token
/// exchange. No inline script, no plugin, no framing.
pub fn content_security_policy(connect: &[&str]) -> String {
    let connect: String = connect.iter().map(|o| format!(" {o}")).collect();
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         media-src 'self'; connect-src 'self'{connect}; font-src 'self'; object-src 'none'; \
         base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// HSTS for two years with subdomains (browsers ignore it over plain HTTP, as locally).
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000; includeSubDomains";
pub const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";
pub const CONTENT_TYPE_OPTIONS: &str = "nosniff";
pub const FRAME_OPTIONS: &str = "DENY";

/// Every security header with its value, for a given content security policy.
pub fn security_headers(csp: &str) -> [(&'static str, String); 5] {
    [
        ("content-security-policy", csp.to_owned()),
        (
            "strict-transport-security",
            STRICT_TRANSPORT_SECURITY.to_owned(),
        ),
        ("x-content-type-options", CONTENT_TYPE_OPTIONS.to_owned()),
        ("referrer-policy", REFERRER_POLICY.to_owned()),
        ("x-frame-options", FRAME_OPTIONS.to_owned()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_only_the_named_origins() {
        let csp = content_security_policy(&["https://auth.example"]);
        assert!(csp.starts_with("default-src 'self';"));
        assert!(csp.contains("connect-src 'self' https://auth.example;"));
        assert!(csp.contains("media-src 'self';"));
        assert!(csp.ends_with("frame-ancestors 'none'"));
        assert!(!csp.contains("unsafe"));
        let local = content_security_policy(&[]);
        assert!(local.contains("connect-src 'self';"));
    }
}
