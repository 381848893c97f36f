//! The stored shape of a user document, shared by every store adapter.
//!
//! Field names are the spec's (`acceptedPrivacyPolicy`, `aiCredits`, …) and
//! timestamps are whole seconds since the epoch. Reading is lenient, as the
//! spec requires: a credit that is not a number reads as absent, and an end
//! date may be seconds, `{ "seconds": n }` or an RFC 3339 string.

use serde_json::{Map, Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::domain::UserDoc;

/// Every stored field a user document owns. A store that merges writes sets the present ones
/// and removes the absent ones, and leaves any other attribute of the item as it is.
pub const USER_FIELDS: &[&str] = &[
    "email",
    "acceptedPrivacyPolicy",
    "aiCredits",
    "speakingCredits",
    "subscriptionType",
    "subscriptionEndDate",
    "writingCorrectionTimestamps",
];

pub fn user_to_json(doc: &UserDoc) -> Value {
    let mut m = Map::new();
    if let Some(email) = &doc.email {
        m.insert("email".into(), json!(email));
    }
    m.insert(
        "acceptedPrivacyPolicy".into(),
        json!(doc.accepted_privacy_policy),
    );
    if let Some(n) = doc.ai_credits {
        m.insert("aiCredits".into(), json!(n));
    }
    if let Some(n) = doc.speaking_credits {
        m.insert("speakingCredits".into(), json!(n));
    }
    if let Some(t) = &doc.subscription_type {
        m.insert("subscriptionType".into(), json!(t));
    }
    if let Some(end) = doc.subscription_end_date {
        m.insert("subscriptionEndDate".into(), json!(end.unix_timestamp()));
    }
    if !doc.writing_correction_timestamps.is_empty() {
        let list: Vec<i64> = doc
            .writing_correction_timestamps
            .iter()
            .map(|t| t.unix_timestamp())
            .collect();
        m.insert("writingCorrectionTimestamps".into(), json!(list));
    }
    Value::Object(m)
}

pub fn user_from_json(v: &Value) -> UserDoc {
    UserDoc {
        email: v.get("email").and_then(Value::as_str).map(str::to_owned),
        accepted_privacy_policy: v
            .get("acceptedPrivacyPolicy")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        ai_credits: v.get("aiCredits").and_then(Value::as_i64),
        speaking_credits: v.get("speakingCredits").and_then(Value::as_i64),
        subscription_type: v
            .get("subscriptionType")
            .and_then(Value::as_str)
            .map(str::to_owned),
        subscription_end_date: v.get("subscriptionEndDate").and_then(timestamp),
        writing_correction_timestamps: v
            .get("writingCorrectionTimestamps")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(timestamp).collect())
            .unwrap_or_default(),
    }
}

fn timestamp(v: &Value) -> Option<OffsetDateTime> {
    let seconds = match v {
        Value::Number(n) => n.as_i64(),
        Value::Object(o) => o.get("seconds").and_then(Value::as_i64),
        Value::String(s) => return OffsetDateTime::parse(s, &Rfc3339).ok(),
        _ => None,
    }?;
    OffsetDateTime::from_unix_timestamp(seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_full_document_round_trips() {
        let doc = UserDoc {
            email: Some("ana@example.com".into()),
            accepted_privacy_policy: true,
            ai_credits: Some(2),
            speaking_credits: Some(0),
            subscription_type: Some("quarterly".into()),
            subscription_end_date: Some(datetime!(2027-02-20 10:00 UTC)),
            writing_correction_timestamps: vec![datetime!(2026-11-22 9:00 UTC)],
        };
        assert_eq!(user_from_json(&user_to_json(&doc)), doc);
    }

    #[test]
    fn an_empty_document_round_trips() {
        let doc = UserDoc::default();
        assert_eq!(user_from_json(&user_to_json(&doc)), doc);
    }

    #[test]
    fn credits_that_are_not_numbers_read_as_absent() {
        let doc = user_from_json(&json!({"aiCredits": "3", "speakingCredits": null}));
        assert_eq!(doc.ai_credits, None);
        assert_eq!(doc.speaking_credits, None);
    }

    #[test]
    fn end_dates_are_read_in_every_stored_form() {
        let end = datetime!(2027-01-01 0:00 UTC);
        for v in [
            json!({"subscriptionEndDate": end.unix_timestamp()}),
            json!({"subscriptionEndDate": {"seconds": end.unix_timestamp(), "nanoseconds": 0}}),
            json!({"subscriptionEndDate": "2027-01-01T00:00:00Z"}),
        ] {
            assert_eq!(user_from_json(&v).subscription_end_date, Some(end), "{v}");
        }
        assert_eq!(
            user_from_json(&json!({"subscriptionEndDate": "soon"})).subscription_end_date,
            None
        );
    }
}

#[cfg(test)]
mod owned_fields_tests {
    use super::*;

    #[test]
    fn a_full_document_writes_exactly_the_owned_fields() {
        let t = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let doc = UserDoc {
            email: Some("a@example.com".into()),
            accepted_privacy_policy: true,
            ai_credits: Some(1),
            speaking_credits: Some(2),
            subscription_type: Some("monthly".into()),
            subscription_end_date: Some(t),
            writing_correction_timestamps: vec![t],
        };
        let Value::Object(m) = user_to_json(&doc) else {
            panic!("an object")
        };
        let mut keys: Vec<&str> = m.keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut owned = USER_FIELDS.to_vec();
        owned.sort_unstable();
        assert_eq!(keys, owned);
    }
}
