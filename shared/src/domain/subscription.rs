//! Subscription status and days left (spec §4), decided from the stored end date.

use serde::Serialize;
use time::OffsetDateTime;

/// The three states the spec names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SubscriptionStatus {
    /// No end date is stored.
    None,
    /// The end date is later than now.
    Active,
    /// The end date is now or earlier.
    Expired,
}

impl SubscriptionStatus {
    /// The label the dashboard shows.
    pub fn label(self) -> &'static str {
        match self {
            Self::None => "No Subscription",
            Self::Active => "Active",
            Self::Expired => "Expired",
        }
    }
}

/// A user's subscription as of a given instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub plan: Option<String>,
    pub end_date: Option<OffsetDateTime>,
    pub status: SubscriptionStatus,
    /// Whole days until the end date, rounded up, never below 0; `None` without an end date.
    pub days_left: Option<i64>,
}

impl Subscription {
    pub fn evaluate(
        plan: Option<&str>,
        end_date: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> Self {
        Self {
            plan: plan.map(str::to_owned),
            end_date,
            status: status(end_date, now),
            days_left: days_left(end_date, now),
        }
    }

    pub fn is_active(&self) -> bool {
        self.status == SubscriptionStatus::Active
    }
}

pub fn status(end_date: Option<OffsetDateTime>, now: OffsetDateTime) -> SubscriptionStatus {
    match end_date {
        None => SubscriptionStatus::None,
        Some(end) if end > now => SubscriptionStatus::Active,
        Some(_) => SubscriptionStatus::Expired,
    }
}

pub fn days_left(end_date: Option<OffsetDateTime>, now: OffsetDateTime) -> Option<i64> {
    const DAY: i128 = 86_400_000_000_000;
    let end = end_date?;
    let nanos = (end - now).whole_nanoseconds();
    if nanos <= 0 {
        return Some(0);
    }
    // Round up: any part of a day left counts as a day.
    let days = (nanos + DAY - 1) / DAY;
    Some(i64::try_from(days).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::Duration;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-22 12:00 UTC);

    #[test]
    fn no_end_date_means_no_subscription_and_no_days() {
        let s = Subscription::evaluate(None, None, NOW);
        assert_eq!(s.status, SubscriptionStatus::None);
        assert_eq!(s.status.label(), "No Subscription");
        assert_eq!(s.days_left, None);
        assert!(!s.is_active());
    }

    #[test]
    fn a_future_end_date_is_active() {
        let s = Subscription::evaluate(Some("quarterly"), Some(NOW + Duration::days(90)), NOW);
        assert_eq!(s.status, SubscriptionStatus::Active);
        assert_eq!(s.status.label(), "Active");
        assert_eq!(s.days_left, Some(90));
        assert!(s.is_active());
    }

    #[test]
    fn the_end_instant_itself_is_expired() {
        assert_eq!(status(Some(NOW), NOW), SubscriptionStatus::Expired);
        assert_eq!(days_left(Some(NOW), NOW), Some(0));
    }

    #[test]
    fn a_past_end_date_is_expired_with_zero_days() {
        let s = Subscription::evaluate(Some("monthly"), Some(NOW - Duration::days(3)), NOW);
        assert_eq!(s.status, SubscriptionStatus::Expired);
        assert_eq!(s.status.label(), "Expired");
        assert_eq!(s.days_left, Some(0));
    }

    #[test]
    fn days_are_rounded_up() {
        assert_eq!(days_left(Some(NOW + Duration::seconds(1)), NOW), Some(1));
        assert_eq!(days_left(Some(NOW + Duration::hours(24)), NOW), Some(1));
        assert_eq!(
            days_left(Some(NOW + Duration::hours(24) + Duration::seconds(1)), NOW),
            Some(2)
        );
        assert_eq!(days_left(Some(NOW + Duration::days(30)), NOW), Some(30));
    }
}
