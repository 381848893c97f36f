//! The user document and the rules that change it (spec §3, §4 and §6).

use time::OffsetDateTime;

use super::identity::Email;
use super::subscription::Subscription;

/// Credits every user starts with, for AI corrections and for speaking sessions.
pub const INITIAL_CREDITS: i64 = 3;

/// One document per user (the spec's `users/{uid}`).
///
/// A stored credit that is absent or not a number reads as `None`: the spec
/// shows such a user 3 credits, and privacy acceptance repairs it to 3.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UserDoc {
    pub email: Option<String>,
    pub accepted_privacy_policy: bool,
    pub ai_credits: Option<i64>,
    pub speaking_credits: Option<i64>,
    pub subscription_type: Option<String>,
    pub subscription_end_date: Option<OffsetDateTime>,
    pub writing_correction_timestamps: Vec<OffsetDateTime>,
}

impl UserDoc {
    /// The AI correction credits the user sees: 3 when none are stored.
    pub fn ai_credits_shown(&self) -> i64 {
        shown_credits(self.ai_credits)
    }

    /// The speaking credits the user sees: 3 when none are stored.
    pub fn speaking_credits_shown(&self) -> i64 {
        shown_credits(self.speaking_credits)
    }

    pub fn subscription(&self, now: OffsetDateTime) -> Subscription {
        Subscription::evaluate(
            self.subscription_type.as_deref(),
            self.subscription_end_date,
            now,
        )
    }
}

fn shown_credits(stored: Option<i64>) -> i64 {
    stored.unwrap_or(INITIAL_CREDITS).max(0)
}

/// Whether the terms modal must be shown: no document, or the flag is not set.
pub fn needs_privacy_acceptance(doc: Option<&UserDoc>) -> bool {
    !doc.is_some_and(|d| d.accepted_privacy_policy)
}

/// Accepting the privacy policy and terms (spec §4):
/// - an existing document gets the flag, and each credit that is not a number becomes 3;
/// - a missing document is created with the e-mail, the flag and 3 + 3 credits.
///
/// The e-mail from the verified token fills a document that has none.
pub fn accept_privacy(existing: Option<UserDoc>, email: Option<&Email>) -> UserDoc {
    let mut doc = existing.unwrap_or_default();
    doc.accepted_privacy_policy = true;
    doc.ai_credits = Some(doc.ai_credits.unwrap_or(INITIAL_CREDITS));
    doc.speaking_credits = Some(doc.speaking_credits.unwrap_or(INITIAL_CREDITS));
    if doc.email.is_none() {
        doc.email = email.map(|e| e.as_str().to_owned());
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn email() -> Email {
        Email::parse("ana@example.com").unwrap()
    }

    #[test]
    fn a_missing_document_is_created_with_three_and_three() {
        let doc = accept_privacy(None, Some(&email()));
        assert_eq!(
            doc,
            UserDoc {
                email: Some("ana@example.com".into()),
                accepted_privacy_policy: true,
                ai_credits: Some(3),
                speaking_credits: Some(3),
                ..UserDoc::default()
            }
        );
    }

    #[test]
    fn existing_credits_are_kept() {
        let before = UserDoc {
            email: Some("ana@example.com".into()),
            ai_credits: Some(0),
            speaking_credits: Some(1),
            ..UserDoc::default()
        };
        let doc = accept_privacy(Some(before), Some(&email()));
        assert!(doc.accepted_privacy_policy);
        assert_eq!(doc.ai_credits, Some(0));
        assert_eq!(doc.speaking_credits, Some(1));
    }

    #[test]
    fn credits_that_are_not_numbers_become_three_each() {
        let before = UserDoc {
            ai_credits: None,
            speaking_credits: Some(2),
            ..UserDoc::default()
        };
        let doc = accept_privacy(Some(before), None);
        assert_eq!(doc.ai_credits, Some(3));
        assert_eq!(doc.speaking_credits, Some(2));
    }

    #[test]
    fn acceptance_keeps_the_subscription_and_stored_email() {
        let end = datetime!(2027-01-01 0:00 UTC);
        let before = UserDoc {
            email: Some("old@example.com".into()),
            subscription_type: Some("quarterly".into()),
            subscription_end_date: Some(end),
            ..UserDoc::default()
        };
        let doc = accept_privacy(Some(before), Some(&email()));
        assert_eq!(doc.email.as_deref(), Some("old@example.com"));
        assert_eq!(doc.subscription_type.as_deref(), Some("quarterly"));
        assert_eq!(doc.subscription_end_date, Some(end));
    }

    #[test]
    fn acceptance_is_idempotent() {
        let once = accept_privacy(None, Some(&email()));
        let twice = accept_privacy(Some(once.clone()), Some(&email()));
        assert_eq!(once, twice);
    }

    #[test]
    fn the_modal_shows_until_accepted() {
        assert!(needs_privacy_acceptance(None));
        assert!(needs_privacy_acceptance(Some(&UserDoc::default())));
        assert!(!needs_privacy_acceptance(Some(&accept_privacy(None, None))));
    }

    #[test]
    fn users_without_stored_credits_are_shown_three() {
        let doc = UserDoc::default();
        assert_eq!(doc.ai_credits_shown(), 3);
        assert_eq!(doc.speaking_credits_shown(), 3);
        let spent = UserDoc {
            ai_credits: Some(0),
            speaking_credits: Some(-4),
            ..UserDoc::default()
        };
        assert_eq!(spent.ai_credits_shown(), 0);
        assert_eq!(spent.speaking_credits_shown(), 0);
    }
}
