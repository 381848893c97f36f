//! A local OpenID Connect provider that behaves like the production one (Cognito):
//! discovery, an authorization page where any e-mail signs in, the authorization
//! code flow with PKCE (S256 only), refresh tokens, and a JWKS. Tokens are ES256
//! JWTs signed with a key created on first start and kept in the data folder.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64URL;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use p256::SecretKey;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use shared::domain::{Email, Identity};
use thiserror::Error;
use time::OffsetDateTime;

/// How long an authorization code may wait for its exchange.
const CODE_TTL_SECONDS: i64 = 60;
/// How long a refresh token stays valid.
const REFRESH_TTL_SECONDS: i64 = 30 * 86_400;

#[derive(Debug, Error)]
pub enum KeyError {
    #[error("cannot read or write the signing key at {path}: {detail}")]
    Io { path: String, detail: String },
    #[error("the signing key at {path} is not a P-256 PKCS#8 key: {detail}")]
    Invalid { path: String, detail: String },
}

/// Why a token was refused. Logged, never shown: the caller only sees 401.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TokenError {
    #[error("token rejected: {0}")]
    Jwt(String),
    #[error("token is not an ID token")]
    WrongUse,
    #[error("token subject refused: {0}")]
    Subject(String),
}

/// An OAuth error answer (RFC 6749 §5.2).
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{code}: {description}")]
pub struct OAuthError {
    pub code: &'static str,
    pub description: String,
}

fn oauth(code: &'static str, description: impl Into<String>) -> OAuthError {
    OAuthError {
        code,
        description: description.into(),
    }
}

/// The provider's signing key and its public forms.
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    kid: String,
    jwk: Value,
}

impl Keys {
    /// Loads the key from `path`, creating it on first start.
    pub fn load_or_create(path: &Path) -> Result<Self, KeyError> {
        let shown = path.display().to_string();
        let io = |e: std::io::Error| KeyError::Io {
            path: shown.clone(),
            detail: e.to_string(),
        };
        let secret = match std::fs::read_to_string(path) {
            Ok(pem) => SecretKey::from_pkcs8_pem(&pem).map_err(|e| KeyError::Invalid {
                path: shown.clone(),
                detail: e.to_string(),
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let secret = SecretKey::random(&mut rand::rngs::OsRng);
                let pem = secret
                    .to_pkcs8_pem(LineEnding::LF)
                    .map_err(|e| KeyError::Invalid {
                        path: shown.clone(),
                        detail: e.to_string(),
                    })?;
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(io)?;
                }
                shared::secrets::write_private_file(path, pem.as_bytes()).map_err(io)?;
                tracing::info!(path = %shown, "created a new sign-in signing key");
                secret
            }
            Err(e) => return Err(io(e)),
        };
        Self::from_secret(&secret).map_err(|detail| KeyError::Invalid {
            path: shown,
            detail,
        })
    }

    fn from_secret(secret: &SecretKey) -> Result<Self, String> {
        let private_pem = secret
            .to_pkcs8_pem(LineEnding::LF)
            .map_err(|e| e.to_string())?;
        let public = secret.public_key();
        let public_pem = public
            .to_public_key_pem(LineEnding::LF)
            .map_err(|e| e.to_string())?;
        let point = p256::EncodedPoint::from(public);
        let (x, y) = match (point.x(), point.y()) {
            (Some(x), Some(y)) => (B64URL.encode(x), B64URL.encode(y)),
            _ => return Err("the public key has no coordinates".into()),
        };
        let kid = hex(&Sha256::digest(point.as_bytes())[..8]);
        Ok(Self {
            encoding: EncodingKey::from_ec_pem(private_pem.as_bytes())
                .map_err(|e| e.to_string())?,
            decoding: DecodingKey::from_ec_pem(public_pem.as_bytes()).map_err(|e| e.to_string())?,
            jwk: json!({"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": kid, "use": "sig", "alg": "ES256"}),
            kid,
        })
    }

    pub fn jwks(&self) -> Value {
        json!({ "keys": [self.jwk] })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    aud: String,
    exp: i64,
    iat: i64,
    token_use: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    email_verified: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nonce: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    jti: Option<String>,
}

/// The token endpoint's answer.
#[derive(Debug, Serialize, Deserialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub id_token: String,
    pub refresh_token: String,
    pub token_type: String,
    pub expires_in: i64,
    pub scope: String,
}

/// A code waiting for its exchange.
struct PendingCode {
    client_id: String,
    redirect_uri: String,
    code_challenge: String,
    nonce: Option<String>,
    scope: String,
    email: Email,
    expires_at: i64,
}

/// What the authorization page submits, and what the authorize URL carries.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AuthorizeParams {
    pub client_id: Option<String>,
    pub redirect_uri: Option<String>,
    pub response_type: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    pub nonce: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    /// Only on the form submission.
    pub email: Option<String>,
}

/// The token endpoint's form.
#[derive(Debug, Default, Deserialize)]
pub struct TokenParams {
    pub grant_type: Option<String>,
    pub code: Option<String>,
    pub redirect_uri: Option<String>,
    pub client_id: Option<String>,
    pub code_verifier: Option<String>,
    pub refresh_token: Option<String>,
}

pub struct Provider {
    keys: Keys,
    issuer: String,
    client_id: String,
    token_ttl: i64,
    codes: Mutex<HashMap<String, PendingCode>>,
    /// Revoked refresh tokens (SHA-256 of the token → its expiry), until they expire anyway.
    /// Kept in memory: a restart forgets them, as it forgets pending codes.
    revoked: Mutex<HashMap<[u8; 32], i64>>,
    /// ID tokens already verified (SHA-256 of the token → who and until when): the same bytes
    /// need no second ECDSA check, which is most of a request's cost on this server. Bounded.
    verified: Mutex<HashMap<[u8; 32], (Identity, i64)>>,
}

/// Clock skew allowed on expiry, by the verifier and its memory alike.
const VERIFY_LEEWAY_SECONDS: i64 = 5;

/// The most verified tokens remembered; past it the memory starts afresh.
const VERIFIED_CACHE: usize = 10_000;

impl Provider {
    pub fn new(keys: Keys, issuer: String, client_id: String, token_ttl: i64) -> Self {
        Self {
            keys,
            issuer,
            client_id,
            token_ttl,
            codes: Mutex::new(HashMap::new()),
            revoked: Mutex::new(HashMap::new()),
            verified: Mutex::new(HashMap::new()),
        }
    }

    /// RFC 7009: revokes a refresh token of this provider, so it renews nothing any more.
    /// Anything else (an ID token, a stranger's string, an expired token) is ignored, as the
    /// RFC asks: the caller cannot learn whether a token was valid.
    pub fn revoke(&self, token: &str, now: i64) {
        let Ok(claims) = self.decode(token, "refresh", now) else {
            return;
        };
        let mut revoked = self
            .revoked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        revoked.retain(|_, exp| *exp > now);
        revoked.insert(Sha256::digest(token.as_bytes()).into(), claims.exp);
    }

    fn is_revoked(&self, token: &str) -> bool {
        self.revoked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains_key::<[u8; 32]>(&Sha256::digest(token.as_bytes()).into())
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    pub fn jwks(&self) -> Value {
        self.keys.jwks()
    }

    pub fn discovery(&self) -> Value {
        let i = &self.issuer;
        json!({
            "issuer": i,
            "authorization_endpoint": format!("{i}/authorize"),
            "token_endpoint": format!("{i}/token"),
            "jwks_uri": format!("{i}/jwks"),
            "end_session_endpoint": format!("{i}/logout"),
            "revocation_endpoint": format!("{i}/revoke"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": ["openid", "email", "profile"],
            "claims_supported": ["sub", "email", "email_verified", "iss", "aud", "exp", "iat", "nonce"],
        })
    }

    /// The stable subject for an e-mail address: the same person gets the same id.
    pub fn subject_for(email: &Email) -> String {
        format!(
            "local-{}",
            hex(&Sha256::digest(email.as_str().as_bytes())[..12])
        )
    }

    /// Checks an authorization request before the page is shown.
    pub fn check_authorize(&self, p: &AuthorizeParams) -> Result<(), OAuthError> {
        if p.client_id.as_deref() != Some(self.client_id.as_str()) {
            return Err(oauth("unauthorized_client", "unknown client_id"));
        }
        let redirect = p.redirect_uri.as_deref().unwrap_or_default();
        if !is_allowed_redirect(redirect) {
            return Err(oauth(
                "invalid_request",
                "redirect_uri must be an http(s) URL on this machine",
            ));
        }
        if p.response_type.as_deref() != Some("code") {
            return Err(oauth(
                "unsupported_response_type",
                "only response_type=code",
            ));
        }
        if p.code_challenge_method.as_deref() != Some("S256")
            || p.code_challenge
                .as_deref()
                .is_none_or(|c| c.len() < 43 || c.len() > 128)
        {
            return Err(oauth("invalid_request", "PKCE with S256 is required"));
        }
        if !p
            .scope
            .as_deref()
            .unwrap_or_default()
            .split(' ')
            .any(|s| s == "openid")
        {
            return Err(oauth("invalid_scope", "the openid scope is required"));
        }
        Ok(())
    }

    /// Signs the user in: returns the URL to send the browser back to, with a code.
    pub fn authorize(&self, p: &AuthorizeParams, now: i64) -> Result<String, OAuthError> {
        self.check_authorize(p)?;
        let email = Email::parse(p.email.as_deref().unwrap_or_default())
            .map_err(|_| oauth("invalid_request", "Please enter a valid e-mail address."))?;
        let code = uuid::Uuid::new_v4().simple().to_string();
        let redirect_uri = p.redirect_uri.clone().unwrap_or_default();
        let pending = PendingCode {
            client_id: self.client_id.clone(),
            redirect_uri: redirect_uri.clone(),
            code_challenge: p.code_challenge.clone().unwrap_or_default(),
            nonce: p.nonce.clone(),
            scope: p.scope.clone().unwrap_or_default(),
            email,
            expires_at: now + CODE_TTL_SECONDS,
        };
        let mut codes = self
            .codes
            .lock()
            .map_err(|_| oauth("server_error", "lock"))?;
        codes.retain(|_, c| c.expires_at > now);
        codes.insert(code.clone(), pending);
        drop(codes);
        let mut url = url::Url::parse(&redirect_uri)
            .map_err(|_| oauth("invalid_request", "redirect_uri is not a URL"))?;
        url.query_pairs_mut().append_pair("code", &code);
        if let Some(state) = &p.state {
            url.query_pairs_mut().append_pair("state", state);
        }
        Ok(url.into())
    }

    /// The token endpoint.
    pub fn token(&self, p: &TokenParams, now: i64) -> Result<TokenResponse, OAuthError> {
        if p.client_id.as_deref() != Some(self.client_id.as_str()) {
            return Err(oauth("invalid_client", "unknown client_id"));
        }
        match p.grant_type.as_deref() {
            Some("authorization_code") => {
                let code = p.code.as_deref().unwrap_or_default();
                let pending = self
                    .codes
                    .lock()
                    .map_err(|_| oauth("server_error", "lock"))?
                    .remove(code)
                    .ok_or_else(|| oauth("invalid_grant", "unknown or used code"))?;
                if pending.expires_at <= now {
                    return Err(oauth("invalid_grant", "the code has expired"));
                }
                if pending.client_id != self.client_id
                    || p.redirect_uri.as_deref() != Some(pending.redirect_uri.as_str())
                {
                    return Err(oauth("invalid_grant", "redirect_uri does not match"));
                }
                let verifier = p.code_verifier.as_deref().unwrap_or_default();
                if B64URL.encode(Sha256::digest(verifier.as_bytes())) != pending.code_challenge {
                    return Err(oauth("invalid_grant", "PKCE verification failed"));
                }
                self.issue(&pending.email, pending.nonce, &pending.scope, now)
            }
            Some("refresh_token") => {
                let refresh = p.refresh_token.as_deref().unwrap_or_default();
                if self.is_revoked(refresh) {
                    return Err(oauth("invalid_grant", "the refresh token was revoked"));
                }
                let claims = self
                    .decode(refresh, "refresh", now)
                    .map_err(|e| oauth("invalid_grant", e.to_string()))?;
                let email = claims
                    .email
                    .as_deref()
                    .and_then(|e| Email::parse(e).ok())
                    .ok_or_else(|| oauth("invalid_grant", "refresh token without e-mail"))?;
                let scope = claims.scope.unwrap_or_else(|| "openid email".into());
                self.issue(&email, None, &scope, now)
            }
            _ => Err(oauth(
                "unsupported_grant_type",
                "authorization_code or refresh_token",
            )),
        }
    }

    /// Issues ID, access and refresh tokens for a user.
    pub fn issue(
        &self,
        email: &Email,
        nonce: Option<String>,
        scope: &str,
        now: i64,
    ) -> Result<TokenResponse, OAuthError> {
        let base = |token_use: &str, exp: i64| Claims {
            iss: self.issuer.clone(),
            sub: Self::subject_for(email),
            aud: self.client_id.clone(),
            exp,
            iat: now,
            token_use: token_use.into(),
            email: Some(email.to_string()),
            email_verified: Some(true),
            nonce: None,
            scope: None,
            jti: Some(uuid::Uuid::new_v4().simple().to_string()),
        };
        let id = Claims {
            nonce,
            ..base("id", now + self.token_ttl)
        };
        let access = Claims {
            scope: Some(scope.to_owned()),
            ..base("access", now + self.token_ttl)
        };
        let refresh = Claims {
            scope: Some(scope.to_owned()),
            ..base("refresh", now + REFRESH_TTL_SECONDS)
        };
        Ok(TokenResponse {
            id_token: self.sign(&id)?,
            access_token: self.sign(&access)?,
            refresh_token: self.sign(&refresh)?,
            token_type: "Bearer".into(),
            expires_in: self.token_ttl,
            scope: scope.to_owned(),
        })
    }

    /// A fresh ID token for an e-mail address (for `make token`).
    pub fn id_token_for(&self, email: &Email) -> Result<String, OAuthError> {
        let now = OffsetDateTime::now_utc().unix_timestamp();
        Ok(self.issue(email, None, "openid email", now)?.id_token)
    }

    fn sign(&self, claims: &Claims) -> Result<String, OAuthError> {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.keys.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.keys.encoding)
            .map_err(|e| oauth("server_error", e.to_string()))
    }

    /// Checks signature, issuer, audience and use, and expiry at `now` (unix seconds).
    fn decode(&self, token: &str, token_use: &str, now: i64) -> Result<Claims, TokenError> {
        let mut v = Validation::new(Algorithm::ES256);
        v.set_issuer(&[&self.issuer]);
        v.set_audience(&[&self.client_id]);
        v.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        // Expiry is checked below against the caller's clock, the same one the memory of
        // verified tokens uses.
        v.validate_exp = false;
        let data = jsonwebtoken::decode::<Claims>(token, &self.keys.decoding, &v)
            .map_err(|e| TokenError::Jwt(e.to_string()))?;
        if data.claims.exp + VERIFY_LEEWAY_SECONDS < now {
            return Err(TokenError::Jwt("ExpiredSignature".into()));
        }
        if data.claims.token_use != token_use {
            return Err(TokenError::WrongUse);
        }
        Ok(data.claims)
    }

    /// Verifies a bearer ID token: signature, issuer, audience, expiry and use.
    /// A token verified before is recognised by its hash until it expires (the same leeway).
    pub fn verify_id_token(&self, token: &str) -> Result<Identity, TokenError> {
        self.verify_id_token_at(token, OffsetDateTime::now_utc().unix_timestamp())
    }

    fn verify_id_token_at(&self, token: &str, now: i64) -> Result<Identity, TokenError> {
        let hash: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let lock = || {
            self.verified
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some((identity, exp)) = lock().get(&hash)
            && now <= exp + VERIFY_LEEWAY_SECONDS
        {
            return Ok(identity.clone());
        }
        let claims = self.decode(token, "id", now)?;
        let identity = Identity::from_claims(&claims.sub, claims.email.as_deref())
            .map_err(|e| TokenError::Subject(e.to_string()))?;
        let mut verified = lock();
        if verified.len() >= VERIFIED_CACHE {
            verified.clear();
        }
        verified.insert(hash, (identity.clone(), claims.exp));
        Ok(identity)
    }
}

/// Redirects go back to this machine only: http(s) on a loopback host.
pub fn is_allowed_redirect(uri: &str) -> bool {
    let Ok(url) = url::Url::parse(uri) else {
        return false;
    };
    matches!(url.scheme(), "http" | "https")
        && matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"))
        && url.fragment().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider() -> Provider {
        let secret = SecretKey::random(&mut rand::rngs::OsRng);
        Provider::new(
            Keys::from_secret(&secret).unwrap(),
            "http://127.0.0.1:8080/auth".into(),
            "tef-local".into(),
            3600,
        )
    }

    fn email() -> Email {
        Email::parse("ana@example.com").unwrap()
    }

    const VERIFIER: &str = "a-code-verifier-that-is-long-enough-to-be-valid-0123456789";

    fn authorize_params() -> AuthorizeParams {
        AuthorizeParams {
            client_id: Some("tef-local".into()),
            redirect_uri: Some("http://127.0.0.1:8080/auth-callback.html".into()),
            response_type: Some("code".into()),
            scope: Some("openid email profile".into()),
            state: Some("st".into()),
            nonce: None,
            code_challenge: Some(B64URL.encode(Sha256::digest(VERIFIER.as_bytes()))),
            code_challenge_method: Some("S256".into()),
            email: Some("Ana@Example.com".into()),
        }
    }

    fn code_of(url: &str) -> String {
        url::Url::parse(url)
            .unwrap()
            .query_pairs()
            .find(|(k, _)| k == "code")
            .unwrap()
            .1
            .into_owned()
    }

    fn exchange(code: &str, verifier: &str) -> TokenParams {
        TokenParams {
            grant_type: Some("authorization_code".into()),
            code: Some(code.into()),
            redirect_uri: Some("http://127.0.0.1:8080/auth-callback.html".into()),
            client_id: Some("tef-local".into()),
            code_verifier: Some(verifier.into()),
            refresh_token: None,
        }
    }

    #[test]
    fn the_code_flow_with_pkce_gives_a_verifiable_id_token() {
        let p = provider();
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let back = p.authorize(&authorize_params(), now).unwrap();
        assert!(back.contains("state=st"));
        let tokens = p.token(&exchange(&code_of(&back), VERIFIER), now).unwrap();
        let id = p.verify_id_token(&tokens.id_token).unwrap();
        assert_eq!(id.email.unwrap().as_str(), "ana@example.com");
        assert_eq!(id.uid.as_str(), Provider::subject_for(&email()));
        assert_eq!(
            p.verify_id_token(&tokens.access_token),
            Err(TokenError::WrongUse)
        );
    }

    #[test]
    fn a_code_works_once_and_only_with_its_verifier() {
        let p = provider();
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let code = code_of(&p.authorize(&authorize_params(), now).unwrap());
        assert_eq!(
            p.token(&exchange(&code, "wrong-verifier"), now)
                .unwrap_err()
                .code,
            "invalid_grant"
        );
        let code = code_of(&p.authorize(&authorize_params(), now).unwrap());
        assert!(p.token(&exchange(&code, VERIFIER), now).is_ok());
        assert_eq!(
            p.token(&exchange(&code, VERIFIER), now).unwrap_err().code,
            "invalid_grant"
        );
    }

    #[test]
    fn an_old_code_is_refused() {
        let p = provider();
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let code = code_of(&p.authorize(&authorize_params(), now).unwrap());
        let err = p.token(&exchange(&code, VERIFIER), now + 61).unwrap_err();
        assert_eq!(err.code, "invalid_grant");
    }

    #[test]
    fn a_revoked_refresh_token_renews_nothing() {
        let p = provider();
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let tokens = p.issue(&email(), None, "openid email", now).unwrap();
        let other = p.issue(&email(), None, "openid email", now + 1).unwrap();
        let refresh = |t: &str| {
            p.token(
                &TokenParams {
                    grant_type: Some("refresh_token".into()),
                    client_id: Some("tef-local".into()),
                    refresh_token: Some(t.to_owned()),
                    ..TokenParams::default()
                },
                now,
            )
        };
        assert!(refresh(&tokens.refresh_token).is_ok());
        // Revoking an ID token or garbage changes nothing; the refresh token is refused after.
        p.revoke(&tokens.id_token, now);
        p.revoke("not a token", now);
        assert!(refresh(&tokens.refresh_token).is_ok());
        p.revoke(&tokens.refresh_token, now);
        assert_eq!(
            refresh(&tokens.refresh_token).unwrap_err().code,
            "invalid_grant"
        );
        assert!(
            refresh(&other.refresh_token).is_ok(),
            "only that session ends"
        );
    }

    #[test]
    fn refresh_tokens_renew_the_session() {
        let p = provider();
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let tokens = p.issue(&email(), None, "openid email", now).unwrap();
        let renewed = p
            .token(
                &TokenParams {
                    grant_type: Some("refresh_token".into()),
                    client_id: Some("tef-local".into()),
                    refresh_token: Some(tokens.refresh_token.clone()),
                    ..TokenParams::default()
                },
                now,
            )
            .unwrap();
        assert!(p.verify_id_token(&renewed.id_token).is_ok());
        let err = p
            .token(
                &TokenParams {
                    grant_type: Some("refresh_token".into()),
                    client_id: Some("tef-local".into()),
                    refresh_token: Some(tokens.id_token),
                    ..TokenParams::default()
                },
                now,
            )
            .unwrap_err();
        assert_eq!(
            err.code, "invalid_grant",
            "an ID token is not a refresh token"
        );
    }

    #[test]
    fn a_verified_token_is_remembered_until_it_expires_and_only_its_exact_bytes() {
        let p = provider();
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let token = p.issue(&email(), None, "openid", now).unwrap().id_token;
        let exp = now + p.token_ttl;
        assert!(p.verify_id_token_at(&token, now).is_ok());
        assert_eq!(p.verified.lock().unwrap().len(), 1);
        assert!(p.verify_id_token_at(&token, now + 1).is_ok(), "from memory");
        assert!(
            p.verify_id_token_at(&token, exp + VERIFY_LEEWAY_SECONDS)
                .is_ok()
        );
        assert!(
            p.verify_id_token_at(&token, exp + VERIFY_LEEWAY_SECONDS + 1)
                .is_err(),
            "remembered, but expired"
        );
        let mut tampered = token.clone();
        let last = tampered.pop();
        tampered.push(if last == Some('A') { 'Q' } else { 'A' });
        assert!(p.verify_id_token_at(&tampered, now).is_err());
    }

    #[test]
    fn tokens_from_another_key_issuer_audience_or_time_are_refused() {
        let p = provider();
        let other = provider();
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let foreign = other.issue(&email(), None, "openid", now).unwrap().id_token;
        assert!(p.verify_id_token(&foreign).is_err());

        let expired = p
            .issue(&email(), None, "openid", now - 7200)
            .unwrap()
            .id_token;
        assert!(p.verify_id_token(&expired).is_err());

        let secret = SecretKey::random(&mut rand::rngs::OsRng);
        let ours = Provider::new(
            Keys::from_secret(&secret).unwrap(),
            "http://127.0.0.1:8080/auth".into(),
            "tef-local".into(),
            3600,
        );
        let other_aud = Provider::new(
            Keys::from_secret(&secret).unwrap(),
            "http://127.0.0.1:8080/auth".into(),
            "other-client".into(),
            3600,
        );
        let other_iss = Provider::new(
            Keys::from_secret(&secret).unwrap(),
            "http://evil.example/auth".into(),
            "tef-local".into(),
            3600,
        );
        assert!(
            ours.verify_id_token(&ours.issue(&email(), None, "openid", now).unwrap().id_token)
                .is_ok()
        );
        assert!(
            ours.verify_id_token(
                &other_aud
                    .issue(&email(), None, "openid", now)
                    .unwrap()
                    .id_token
            )
            .is_err()
        );
        assert!(
            ours.verify_id_token(
                &other_iss
                    .issue(&email(), None, "openid", now)
                    .unwrap()
                    .id_token
            )
            .is_err()
        );
        assert!(p.verify_id_token("not.a.jwt").is_err());
        assert!(p.verify_id_token("").is_err());
    }

    #[test]
    fn authorize_requests_are_checked() {
        let p = provider();
        let bad = |f: fn(&mut AuthorizeParams)| {
            let mut params = authorize_params();
            f(&mut params);
            p.check_authorize(&params).unwrap_err().code
        };
        assert_eq!(
            bad(|p| p.client_id = Some("x".into())),
            "unauthorized_client"
        );
        assert_eq!(
            bad(|p| p.redirect_uri = Some("https://evil.example/cb".into())),
            "invalid_request"
        );
        assert_eq!(
            bad(|p| p.response_type = Some("token".into())),
            "unsupported_response_type"
        );
        assert_eq!(
            bad(|p| p.code_challenge_method = Some("plain".into())),
            "invalid_request"
        );
        assert_eq!(bad(|p| p.code_challenge = None), "invalid_request");
        assert_eq!(bad(|p| p.scope = Some("email".into())), "invalid_scope");
        let mut params = authorize_params();
        params.email = Some("not an email".into());
        assert_eq!(p.authorize(&params, 0).unwrap_err().code, "invalid_request");
    }

    #[test]
    fn keys_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth/signing-key.pem");
        let first = Keys::load_or_create(&path).unwrap();
        let second = Keys::load_or_create(&path).unwrap();
        assert_eq!(first.jwks(), second.jwks());
    }
}
