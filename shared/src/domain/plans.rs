//! The plans we sell (decisions §6): data, in one place. One-time payments in
//! Canadian dollars, no renewal.

use serde::Serialize;
use time::{Duration, OffsetDateTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub id: &'static str,
    pub name: &'static str,
    /// Price in cents.
    pub price_cents: u32,
    pub currency: &'static str,
    /// Days of access bought; `None` for the free plan.
    pub days: Option<u32>,
}

pub const PLANS: [Plan; 3] = [
    Plan {
        id: "free",
        name: "Free",
        price_cents: 0,
        currency: "CAD",
        days: None,
    },
    Plan {
        id: "monthly",
        name: "1 Month",
        price_cents: 3400,
        currency: "CAD",
        days: Some(30),
    },
    Plan {
        id: "quarterly",
        name: "Quarterly",
        price_cents: 6900,
        currency: "CAD",
        days: Some(90),
    },
];

pub fn plan(id: &str) -> Option<&'static Plan> {
    PLANS.iter().find(|p| p.id == id)
}

/// When access bought now at `plan` ends: its days are added to whatever
/// access is left, so buying again never shortens a subscription. `None` for
/// the free plan.
pub fn access_end(
    plan: &Plan,
    current_end: Option<OffsetDateTime>,
    now: OffsetDateTime,
) -> Option<OffsetDateTime> {
    let days = plan.days?;
    let from = current_end.filter(|end| *end > now).unwrap_or(now);
    Some(from + Duration::days(i64::from(days)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn access_adds_days_to_what_is_left() {
        let now = datetime!(2026-11-23 12:00 UTC);
        let monthly = plan("monthly").unwrap();
        assert_eq!(
            access_end(monthly, None, now),
            Some(datetime!(2026-12-23 12:00 UTC))
        );
        let expired = datetime!(2026-11-01 0:00 UTC);
        assert_eq!(
            access_end(monthly, Some(expired), now),
            Some(datetime!(2026-12-23 12:00 UTC))
        );
        let active = datetime!(2026-12-01 0:00 UTC);
        assert_eq!(
            access_end(plan("quarterly").unwrap(), Some(active), now),
            Some(datetime!(2027-03-01 0:00 UTC))
        );
        assert_eq!(access_end(plan("free").unwrap(), Some(active), now), None);
    }

    #[test]
    fn the_plans_are_the_specs() {
        assert_eq!(plan("free").map(|p| p.price_cents), Some(0));
        let monthly = plan("monthly").unwrap();
        assert_eq!((monthly.price_cents, monthly.days), (3400, Some(30)));
        let quarterly = plan("quarterly").unwrap();
        assert_eq!((quarterly.price_cents, quarterly.days), (6900, Some(90)));
        assert!(PLANS.iter().all(|p| p.currency == "CAD"));
        assert_eq!(plan("lifetime"), None);
    }

    #[test]
    fn quarterly_saves_33_dollars_against_three_months() {
        let monthly = plan("monthly").unwrap().price_cents;
        let quarterly = plan("quarterly").unwrap().price_cents;
        assert_eq!(3 * monthly - quarterly, 3300);
    }
}
