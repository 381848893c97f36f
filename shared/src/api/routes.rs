//! The route table: every API call, its method, its path pattern and its handler.
//! The local server serves all of them; each Lambda function serves one, by name,
//! and `template.yaml` maps the same method and path to that function.

use std::collections::HashMap;

use http::Method;

use super::{Handler, exams, me, payments, plans, speaking, writing};

pub struct Route {
    /// The route's stable name: also its Lambda function's `TEF_ROUTE`.
    pub name: &'static str,
    pub method: Method,
    /// A path pattern; `{name}` matches one segment.
    pub path: &'static str,
    pub handler: Handler,
}

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} ({})", self.method, self.path, self.name)
    }
}

pub static ROUTES: &[Route] = &[
    Route {
        name: "health",
        method: Method::GET,
        path: "/api/health",
        handler: plans::health,
    },
    Route {
        name: "list-plans",
        method: Method::GET,
        path: "/api/plans",
        handler: plans::list,
    },
    Route {
        name: "get-me",
        method: Method::GET,
        path: "/api/me",
        handler: me::get,
    },
    Route {
        name: "accept-privacy",
        method: Method::POST,
        path: "/api/me/privacy-acceptance",
        handler: me::accept_privacy,
    },
    Route {
        name: "list-tests",
        method: Method::GET,
        path: "/api/tests/{category}",
        handler: exams::catalogue,
    },
    Route {
        name: "get-test",
        method: Method::GET,
        path: "/api/tests/{category}/{id}",
        handler: exams::get_test,
    },
    Route {
        name: "submit-attempt",
        method: Method::POST,
        path: "/api/tests/{category}/{id}/attempts",
        handler: exams::submit_attempt,
    },
    Route {
        name: "get-result",
        method: Method::GET,
        path: "/api/results/{id}",
        handler: exams::get_result,
    },
    Route {
        name: "create-checkout-session",
        method: Method::POST,
        path: "/api/stripe/create-checkout-session",
        handler: payments::create_checkout_session,
    },
    Route {
        name: "get-checkout-session",
        method: Method::GET,
        path: "/api/stripe/checkout-session",
        handler: payments::checkout_session,
    },
    Route {
        name: "stripe-webhook",
        method: Method::POST,
        path: "/api/stripe/webhook",
        handler: payments::webhook,
    },
    Route {
        name: "tef-correction",
        method: Method::POST,
        path: "/api/openai/tef-correction",
        handler: writing::correct,
    },
    Route {
        name: "speaking-chat",
        method: Method::POST,
        path: "/api/openai/speaking-chat",
        handler: speaking::chat,
    },
    Route {
        name: "speaking-report",
        method: Method::POST,
        path: "/api/openai/speaking-report",
        handler: speaking::report,
    },
    Route {
        name: "text-to-speech",
        method: Method::POST,
        path: "/api/openai/text-to-speech",
        handler: speaking::text_to_speech,
    },
    Route {
        name: "transcription",
        method: Method::POST,
        path: "/api/transcription",
        handler: speaking::transcribe,
    },
    Route {
        name: "get-progress",
        method: Method::GET,
        path: "/api/progress",
        handler: exams::progress,
    },
];

/// A route by its name.
pub fn by_name(name: &str) -> Option<&'static Route> {
    ROUTES.iter().find(|r| r.name == name)
}

#[derive(Debug)]
pub enum RouteMatch<'a> {
    Found {
        route: &'a Route,
        params: HashMap<String, String>,
    },
    /// The path exists, with another method.
    MethodNotAllowed,
    NotFound,
}

/// Finds the route for a method and path (no query string).
pub fn find_route(method: &Method, path: &str) -> RouteMatch<'static> {
    let mut path_matched = false;
    for route in ROUTES {
        if let Some(params) = match_path(route.path, path) {
            if route.method == *method {
                return RouteMatch::Found { route, params };
            }
            path_matched = true;
        }
    }
    if path_matched {
        RouteMatch::MethodNotAllowed
    } else {
        RouteMatch::NotFound
    }
}

fn match_path(pattern: &str, path: &str) -> Option<HashMap<String, String>> {
    let path = path
        .strip_suffix('/')
        .filter(|p| !p.is_empty())
        .unwrap_or(path);
    let mut pat = pattern.split('/');
    let mut got = path.split('/');
    let mut params = HashMap::new();
    loop {
        match (pat.next(), got.next()) {
            (None, None) => return Some(params),
            (Some(p), Some(g)) => {
                if let Some(name) = p.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                    if g.is_empty() {
                        return None;
                    }
                    params.insert(name.to_owned(), g.to_owned());
                } else if p != g {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_have_unique_names_and_method_paths() {
        let mut names: Vec<_> = ROUTES.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ROUTES.len());
        let mut keys: Vec<_> = ROUTES.iter().map(|r| (r.method.as_str(), r.path)).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ROUTES.len());
    }

    #[test]
    fn paths_match_exactly_or_with_a_trailing_slash() {
        assert!(
            matches!(find_route(&Method::GET, "/api/me"), RouteMatch::Found { route, .. } if route.name == "get-me")
        );
        assert!(matches!(
            find_route(&Method::GET, "/api/me/"),
            RouteMatch::Found { .. }
        ));
        assert!(matches!(
            find_route(&Method::GET, "/api/mee"),
            RouteMatch::NotFound
        ));
        assert!(matches!(
            find_route(&Method::GET, "/api/me/x"),
            RouteMatch::NotFound
        ));
        assert!(matches!(
            find_route(&Method::DELETE, "/api/me"),
            RouteMatch::MethodNotAllowed
        ));
    }

    #[test]
    fn placeholders_capture_one_segment() {
        let p = match_path("/api/tests/{category}/{id}", "/api/tests/reading/3").unwrap();
        assert_eq!(p["category"], "reading");
        assert_eq!(p["id"], "3");
        assert!(match_path("/api/tests/{category}/{id}", "/api/tests/reading").is_none());
        assert!(match_path("/api/tests/{category}", "/api/tests//").is_none());
    }

    #[test]
    fn every_route_can_be_found_by_name() {
        for r in ROUTES {
            assert_eq!(by_name(r.name).map(|x| x.path), Some(r.path));
        }
    }
}
