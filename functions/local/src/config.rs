//! The local server's own settings (the shared ones are in `shared::Config`).

use std::path::PathBuf;

use serde::Serialize;
use shared::config::ConfigError;

#[derive(Debug, Clone)]
pub struct LocalConfig {
    pub bind: String,
    pub port: u16,
    /// The address browsers use; the sign-in provider's issuer is `{public_url}/auth`.
    pub public_url: String,
    /// The built frontend (`frontend/dist`).
    pub static_dir: PathBuf,
    /// The exam content, whose `media/` folder is published into the media store.
    pub content_dir: PathBuf,
    pub client_id: String,
    /// Lifetime of the ID and access tokens the local provider issues.
    pub token_ttl_seconds: i64,
    pub site: SiteConfig,
}

/// What the frontend reads from `/config.json`, apart from the sign-in settings.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteConfig {
    pub support_email: String,
    pub social: SocialLinks,
}

#[derive(Debug, Clone, Serialize)]
pub struct SocialLinks {
    pub facebook: String,
    pub instagram: String,
    pub youtube: String,
    pub tiktok: String,
}

impl LocalConfig {
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let var = shared::config::non_empty(get);
        let port = match var("PORT") {
            None => 8080,
            Some(p) => p.parse().map_err(|_| ConfigError::Invalid {
                var: "PORT",
                value: p,
                expected: "a port number from 0 to 65535",
            })?,
        };
        let bind = var("TEF_BIND").unwrap_or_else(|| "127.0.0.1".into());
        // The local sign-in gives a token for any e-mail to whoever reaches it: only this
        // machine may, unless the operator says otherwise in so many words.
        if !is_loopback(&bind) && var("TEF_ALLOW_REMOTE_SIGN_IN").as_deref() != Some("1") {
            return Err(ConfigError::Invalid {
                var: "TEF_BIND",
                value: bind,
                expected: "a loopback address (127.0.0.1, ::1, localhost): the local sign-in signs \
                           anyone in; set TEF_ALLOW_REMOTE_SIGN_IN=1 to serve other machines anyway",
            });
        }
        let public_url = var("TEF_PUBLIC_URL")
            .unwrap_or_else(|| format!("http://127.0.0.1:{port}"))
            .trim_end_matches('/')
            .to_owned();
        if !public_url.starts_with("http://") && !public_url.starts_with("https://") {
            return Err(ConfigError::Invalid {
                var: "TEF_PUBLIC_URL",
                value: public_url,
                expected: "an http:// or https:// URL",
            });
        }
        let token_ttl_seconds = match var("TEF_AUTH_TOKEN_TTL_SECONDS") {
            None => 3600,
            Some(v) => match v.parse::<i64>() {
                Ok(s) if (60..=86_400).contains(&s) => s,
                _ => {
                    return Err(ConfigError::Invalid {
                        var: "TEF_AUTH_TOKEN_TTL_SECONDS",
                        value: v,
                        expected: "a whole number of seconds from 60 to 86400",
                    });
                }
            },
        };
        let link = |k: &str, default: &str| var(k).unwrap_or_else(|| default.to_owned());
        Ok(Self {
            bind,
            port,
            public_url,
            static_dir: PathBuf::from(
                var("TEF_STATIC_DIR").unwrap_or_else(|| "frontend/dist".into()),
            ),
            content_dir: PathBuf::from(var("TEF_CONTENT_DIR").unwrap_or_else(|| "content".into())),
            client_id: var("TEF_AUTH_CLIENT_ID").unwrap_or_else(|| "tef-local".into()),
            token_ttl_seconds,
            site: SiteConfig {
                support_email: link("TEF_SUPPORT_EMAIL", "support@example.com"),
                social: SocialLinks {
                    facebook: link("TEF_SOCIAL_FACEBOOK", "https://www.facebook.com/example"),
                    instagram: link("TEF_SOCIAL_INSTAGRAM", "https://www.instagram.com/example"),
                    youtube: link("TEF_SOCIAL_YOUTUBE", "https://www.youtube.com/@example"),
                    tiktok: link("TEF_SOCIAL_TIKTOK", "https://www.tiktok.com/@example"),
                },
            },
        })
    }

    pub fn issuer(&self) -> String {
        format!("{}/auth", self.public_url)
    }

    /// The `Host` values the server answers: the public URL's, and, when that is a loopback
    /// address, the other loopback names with the same port. Anything else is a page that
    /// pointed its own name at this machine (DNS rebinding), and is refused.
    pub fn allowed_hosts(&self) -> Vec<String> {
        let authority = self
            .public_url
            .split_once("://")
            .map(|(_, rest)| rest.split('/').next().unwrap_or(rest))
            .unwrap_or_default()
            .to_ascii_lowercase();
        let mut hosts = vec![authority.clone()];
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) => (h.to_owned(), Some(p)),
            _ => (authority.clone(), None),
        };
        if is_loopback(host.trim_start_matches('[').trim_end_matches(']')) {
            for name in ["127.0.0.1", "localhost", "[::1]"] {
                hosts.push(match port {
                    Some(p) => format!("{name}:{p}"),
                    None => name.to_owned(),
                });
            }
        }
        hosts.sort();
        hosts.dedup();
        hosts
    }
}

fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_serve_on_loopback_8080() {
        let c = LocalConfig::from_lookup(|_| None).unwrap();
        assert_eq!((c.bind.as_str(), c.port), ("127.0.0.1", 8080));
        assert_eq!(c.issuer(), "http://127.0.0.1:8080/auth");
        assert_eq!(c.site.support_email, "support@example.com");
    }

    #[test]
    fn port_moves_the_public_url() {
        let c = LocalConfig::from_lookup(|k| (k == "PORT").then(|| "9090".into())).unwrap();
        assert_eq!(c.public_url, "http://127.0.0.1:9090");
    }

    #[test]
    fn only_loopback_is_served_unless_remote_sign_in_is_allowed() {
        let with = |pairs: &'static [(&'static str, &'static str)]| {
            LocalConfig::from_lookup(move |k| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            })
        };
        assert!(with(&[("TEF_BIND", "::1")]).is_ok());
        assert!(with(&[("TEF_BIND", "localhost")]).is_ok());
        let err = with(&[("TEF_BIND", "0.0.0.0")]).unwrap_err();
        assert!(
            err.to_string().contains("TEF_ALLOW_REMOTE_SIGN_IN"),
            "{err}"
        );
        assert!(with(&[("TEF_BIND", "192.168.1.5")]).is_err());
        assert!(with(&[("TEF_BIND", "0.0.0.0"), ("TEF_ALLOW_REMOTE_SIGN_IN", "1")]).is_ok());
    }

    #[test]
    fn hosts_are_the_public_urls_and_its_loopback_aliases() {
        let c = LocalConfig::from_lookup(|k| (k == "PORT").then(|| "9090".into())).unwrap();
        assert_eq!(
            c.allowed_hosts(),
            ["127.0.0.1:9090", "[::1]:9090", "localhost:9090"]
        );
        let public = LocalConfig::from_lookup(|k| {
            (k == "TEF_PUBLIC_URL").then(|| "https://Tef.Example.org/".into())
        })
        .unwrap();
        assert_eq!(public.allowed_hosts(), ["tef.example.org"]);
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(LocalConfig::from_lookup(|k| (k == "PORT").then(|| "http".into())).is_err());
        assert!(
            LocalConfig::from_lookup(|k| (k == "TEF_AUTH_TOKEN_TTL_SECONDS").then(|| "5".into()))
                .is_err()
        );
    }
}
