//! Serialized test views, reused for a short while. A test's view (its 40 questions with
//! signed media links) is the same for every learner who may open it: only the entitlement
//! check is per learner, and it runs on every request. Reusing the JSON for a small part of
//! the links' lifetime saves signing and serializing it on each read; a reused link is still
//! valid for at least nine tenths of its lifetime.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::Duration;

use bytes::Bytes;
use time::OffsetDateTime;

use crate::domain::scoring::Paper;

/// How long a view is reused: a tenth of the links' lifetime, at most a minute.
pub fn reuse_for(link_ttl: Duration) -> Duration {
    (link_ttl / 10).min(Duration::from_secs(60))
}

#[derive(Default)]
pub struct ViewCache {
    views: RwLock<HashMap<(Paper, u32), (OffsetDateTime, Bytes)>>,
}

impl std::fmt::Debug for ViewCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViewCache")
    }
}

impl ViewCache {
    /// The view made for this test less than `max_age` ago, if any.
    pub fn get(
        &self,
        paper: Paper,
        id: u32,
        now: OffsetDateTime,
        max_age: Duration,
    ) -> Option<Bytes> {
        let views = self.views.read().ok()?;
        let (made, body) = views.get(&(paper, id))?;
        let age = now - *made;
        (age >= time::Duration::ZERO && age < max_age).then(|| body.clone())
    }

    pub fn put(&self, paper: Paper, id: u32, made: OffsetDateTime, body: Bytes) {
        if let Ok(mut views) = self.views.write() {
            views.insert((paper, id), (made, body));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_view_is_reused_for_a_tenth_of_its_links_lifetime_at_most_a_minute() {
        assert_eq!(
            reuse_for(Duration::from_secs(3600)),
            Duration::from_secs(60)
        );
        assert_eq!(reuse_for(Duration::from_secs(60)), Duration::from_secs(6));
        let cache = ViewCache::default();
        let t0 = datetime!(2026-11-26 12:00 UTC);
        let max = Duration::from_secs(60);
        assert_eq!(cache.get(Paper::Reading, 1, t0, max), None);
        cache.put(Paper::Reading, 1, t0, Bytes::from_static(b"{}"));
        let later = |s: i64| t0 + time::Duration::seconds(s);
        assert!(cache.get(Paper::Reading, 1, later(59), max).is_some());
        assert_eq!(cache.get(Paper::Reading, 1, later(60), max), None);
        assert_eq!(cache.get(Paper::Listening, 1, later(1), max), None);
        assert_eq!(cache.get(Paper::Reading, 2, later(1), max), None);
        // A clock that went back does not serve a view from the future.
        assert_eq!(cache.get(Paper::Reading, 1, later(-1), max), None);
    }
}
