//! Per-user rate limits on the routes that cost money (an AI provider's call) or write a score.
//!
//! Each limited route counts one use per request in a fixed window (one hour, aligned on the
//! epoch) under a key of its own per user; the count is kept by the [`RateLimiter`] port,
//! atomically. A request over the limit gets 429 with the route's message and changes nothing.
//! Writing corrections keep the spec's own rolling limit (`writing::HOURLY_LIMIT`), which is
//! stored with the credits in the user's document.
//!
//! [`RateLimiter`]: crate::ports::limits::RateLimiter

use time::OffsetDateTime;

use crate::domain::UserId;

/// A route with a per-user limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limited {
    SubmitAttempt,
    SpeakingChat,
    SpeakingReport,
    Transcription,
    TextToSpeech,
}

/// How many uses a window allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub max: u64,
    pub window_secs: i64,
}

const HOUR: i64 = 3600;

impl Limited {
    pub const ALL: [Self; 5] = [
        Self::SubmitAttempt,
        Self::SpeakingChat,
        Self::SpeakingReport,
        Self::Transcription,
        Self::TextToSpeech,
    ];

    /// Generous for a learner (a paper takes an hour; a speaking session is ten turns, each
    /// recorded, transcribed and answered aloud), tight for a script.
    pub const fn limit(self) -> Limit {
        let max = match self {
            Self::SubmitAttempt => 30,
            Self::SpeakingChat => 120,
            Self::SpeakingReport => 20,
            Self::Transcription => 120,
            Self::TextToSpeech => 240,
        };
        Limit {
            max,
            window_secs: HOUR,
        }
    }

    /// The counter's name in keys and logs.
    pub const fn name(self) -> &'static str {
        match self {
            Self::SubmitAttempt => "attempt",
            Self::SpeakingChat => "speaking-chat",
            Self::SpeakingReport => "speaking-report",
            Self::Transcription => "transcription",
            Self::TextToSpeech => "text-to-speech",
        }
    }

    /// What the user reads with the 429, worded like the spec's writing limit.
    pub const fn message(self) -> &'static str {
        match self {
            Self::SubmitAttempt => {
                "You have reached the limit of 30 exam submissions per hour. Please try again later."
            }
            Self::SpeakingChat => {
                "You have reached the limit of 120 examiner replies per hour. Please try again later."
            }
            Self::SpeakingReport => {
                "You have reached the limit of 20 speaking reports per hour. Please try again later."
            }
            Self::Transcription => {
                "You have reached the limit of 120 transcriptions per hour. Please try again later."
            }
            Self::TextToSpeech => {
                "You have reached the limit of 240 spoken replies per hour. Please try again later."
            }
        }
    }
}

/// One user's counter for one route in the window holding a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// `<uid>#<route>#<window start, unix seconds>`.
    pub key: String,
    /// The window's end (unix seconds): the counter may be forgotten from then on.
    pub expires_at: i64,
}

/// The counter that a use of `what` by `uid` at `now` goes to.
pub fn window(uid: &UserId, what: Limited, now: OffsetDateTime) -> Window {
    let Limit { window_secs, .. } = what.limit();
    let t = now.unix_timestamp();
    let start = t - t.rem_euclid(window_secs);
    Window {
        key: format!("{}#{}#{start}", uid.as_str(), what.name()),
        expires_at: start + window_secs,
    }
}

/// Whether the use that brought the window's count to `count` is allowed.
pub const fn allows(what: Limited, count: u64) -> bool {
    count <= what.limit().max
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    fn uid(s: &str) -> UserId {
        UserId::parse(s).expect("uid")
    }

    #[test]
    fn uses_within_an_hour_share_a_counter_and_the_next_hour_starts_afresh() {
        let a = window(
            &uid("u1"),
            Limited::SubmitAttempt,
            datetime!(2026-11-26 08:00:00 UTC),
        );
        let b = window(
            &uid("u1"),
            Limited::SubmitAttempt,
            datetime!(2026-11-26 08:59:59 UTC),
        );
        let c = window(
            &uid("u1"),
            Limited::SubmitAttempt,
            datetime!(2026-11-26 09:00:00 UTC),
        );
        assert_eq!(a, b);
        assert_ne!(a.key, c.key);
        assert_eq!(
            a.expires_at,
            datetime!(2026-11-26 09:00:00 UTC).unix_timestamp()
        );
        assert_eq!(c.expires_at - a.expires_at, 3600);
    }

    #[test]
    fn each_user_and_each_route_counts_apart() {
        let now = datetime!(2026-11-26 08:30:00 UTC);
        let mut keys: Vec<String> = Limited::ALL
            .iter()
            .flat_map(|&what| {
                [
                    window(&uid("u1"), what, now).key,
                    window(&uid("u2"), what, now).key,
                ]
            })
            .collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), Limited::ALL.len() * 2);
    }

    #[test]
    fn the_last_allowed_use_is_the_limit_itself() {
        for what in Limited::ALL {
            let max = what.limit().max;
            assert!(allows(what, 1));
            assert!(allows(what, max));
            assert!(!allows(what, max + 1));
            assert!(
                what.message().contains(&format!(" {max} ")),
                "{what:?}: the message names the limit"
            );
        }
    }

    #[test]
    fn windows_before_the_epoch_still_align() {
        let w = window(
            &uid("u1"),
            Limited::TextToSpeech,
            datetime!(1969-12-31 23:30:00 UTC),
        );
        assert_eq!(w.expires_at, 0);
    }
}
