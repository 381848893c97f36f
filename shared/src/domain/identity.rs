//! Who is calling: parsed once at the edge, then trusted everywhere inside.

use std::fmt;

use serde::Serialize;
use thiserror::Error;

/// Why an identity claim was refused at the edge.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum IdentityError {
    #[error("the user id is empty")]
    EmptyUserId,
    #[error("the user id is longer than {max} characters")]
    UserIdTooLong { max: usize },
    #[error("the user id has a character outside [A-Za-z0-9._:@|+-]")]
    UserIdCharacter,
    #[error("the e-mail address is not valid")]
    InvalidEmail,
}

/// The identity provider's stable subject (`sub`): a Cognito UUID in production,
/// `local-…` from the local sign-in provider.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct UserId(String);

impl UserId {
    pub const MAX_LEN: usize = 128;

    pub fn parse(raw: &str) -> Result<Self, IdentityError> {
        if raw.is_empty() {
            return Err(IdentityError::EmptyUserId);
        }
        if raw.len() > Self::MAX_LEN {
            return Err(IdentityError::UserIdTooLong { max: Self::MAX_LEN });
        }
        let allowed = |c: char| c.is_ascii_alphanumeric() || "._:@|+-".contains(c);
        if !raw.chars().all(allowed) {
            return Err(IdentityError::UserIdCharacter);
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An e-mail address, trimmed and lower-cased. The check is deliberately light:
/// the identity provider has already verified the address.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Email(String);

impl Email {
    pub const MAX_LEN: usize = 254;

    pub fn parse(raw: &str) -> Result<Self, IdentityError> {
        let email = raw.trim().to_lowercase();
        let Some((local, domain)) = email.split_once('@') else {
            return Err(IdentityError::InvalidEmail);
        };
        let valid = !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains('@')
            && email.len() <= Self::MAX_LEN
            && !email.chars().any(|c| c.is_whitespace() || c.is_control());
        if valid {
            Ok(Self(email))
        } else {
            Err(IdentityError::InvalidEmail)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The signed-in user, as every handler receives it, whether the token was
/// checked by API Gateway's JWT authorizer or by the local server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub uid: UserId,
    pub email: Option<Email>,
}

impl Identity {
    /// Builds an identity from the token's `sub` and `email` claims.
    /// A malformed e-mail claim is dropped rather than refusing the user.
    pub fn from_claims(sub: &str, email: Option<&str>) -> Result<Self, IdentityError> {
        Ok(Self {
            uid: UserId::parse(sub)?,
            email: email.and_then(|e| Email::parse(e).ok()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_ids_accept_cognito_and_local_subjects() {
        assert!(UserId::parse("4f1c2a9e-1b7d-4c57-9a53-2f7c1e1d9b20").is_ok());
        assert!(UserId::parse("local-3f9a0c").is_ok());
    }

    #[test]
    fn user_ids_refuse_empty_long_and_odd_values() {
        assert_eq!(UserId::parse(""), Err(IdentityError::EmptyUserId));
        assert_eq!(
            UserId::parse(&"a".repeat(129)),
            Err(IdentityError::UserIdTooLong { max: 128 })
        );
        assert_eq!(UserId::parse("a/b"), Err(IdentityError::UserIdCharacter));
        assert_eq!(UserId::parse("a b"), Err(IdentityError::UserIdCharacter));
    }

    #[test]
    fn emails_are_normalised() {
        assert_eq!(
            Email::parse("  Marie.Tremblay@Example.CA ")
                .unwrap()
                .as_str(),
            "marie.tremblay@example.ca"
        );
    }

    #[test]
    fn bad_emails_are_refused() {
        for bad in [
            "",
            "no-at",
            "@example.com",
            "a@b",
            "a@.com",
            "a@com.",
            "a b@c.de",
            "a@b@c.de",
        ] {
            assert_eq!(Email::parse(bad), Err(IdentityError::InvalidEmail), "{bad}");
        }
    }

    #[test]
    fn a_bad_email_claim_does_not_refuse_the_user() {
        let id = Identity::from_claims("abc", Some("not-an-email")).unwrap();
        assert_eq!(id.uid.as_str(), "abc");
        assert_eq!(id.email, None);
    }
}
