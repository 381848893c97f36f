//! Reading a stored record's fields back (SQLite JSON, DynamoDB attributes as JSON): one
//! reader for every record kind, so a missing or malformed field is reported the same way.

use serde::de::DeserializeOwned;
use serde_json::Value;
use time::OffsetDateTime;

use crate::ports::store::StoreError;

/// The fields of one stored record; `record` names it in errors ("writing result").
pub struct Fields<'a> {
    value: &'a Value,
    record: &'static str,
}

impl<'a> Fields<'a> {
    pub fn new(value: &'a Value, record: &'static str) -> Self {
        Self { value, record }
    }

    /// The error for a missing or malformed field.
    pub fn bad(&self, field: &str) -> StoreError {
        StoreError::Corrupt(format!("{}: {field}", self.record))
    }

    pub fn str(&self, k: &str) -> Result<&'a str, StoreError> {
        self.value
            .get(k)
            .and_then(Value::as_str)
            .ok_or_else(|| self.bad(k))
    }

    /// An optional text: absent or not text reads as `None`.
    pub fn opt_str(&self, k: &str) -> Option<String> {
        self.value.get(k).and_then(Value::as_str).map(str::to_owned)
    }

    pub fn u32(&self, k: &str) -> Result<u32, StoreError> {
        self.value
            .get(k)
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| self.bad(k))
    }

    pub fn u8(&self, k: &str) -> Result<u8, StoreError> {
        u8::try_from(self.u32(k)?).map_err(|_| self.bad(k))
    }

    /// Any field that deserialises (lists, scores, conversations).
    pub fn parse<T: DeserializeOwned>(&self, k: &str) -> Result<T, StoreError> {
        serde_json::from_value(self.value.get(k).cloned().unwrap_or(Value::Null))
            .map_err(|_| self.bad(k))
    }

    /// A time stored as milliseconds since the epoch.
    pub fn millis(&self, k: &str) -> Result<OffsetDateTime, StoreError> {
        let ms = self
            .value
            .get(k)
            .and_then(Value::as_i64)
            .ok_or_else(|| self.bad(k))?;
        OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
            .map_err(|_| self.bad(k))
    }
}

/// A time as stored: milliseconds since the epoch.
pub fn to_millis(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use time::macros::datetime;

    #[test]
    fn fields_read_back_and_name_what_is_wrong() {
        let at = datetime!(2026-11-26 12:00:00.123 UTC);
        let v = json!({"s": "x", "n": 7, "big": 300, "t": to_millis(at), "l": [1, 2]});
        let f = Fields::new(&v, "test record");
        assert_eq!(f.str("s").unwrap(), "x");
        assert_eq!(f.u32("n").unwrap(), 7);
        assert_eq!(f.u8("n").unwrap(), 7);
        assert_eq!(f.millis("t").unwrap(), at);
        assert_eq!(f.parse::<Vec<u8>>("l").unwrap(), vec![1, 2]);
        assert_eq!(f.opt_str("missing"), None);
        let err = f.u8("big").unwrap_err().to_string();
        assert!(err.contains("test record: big"), "{err}");
        assert!(f.str("n").is_err() && f.u32("s").is_err() && f.millis("s").is_err());
    }
}
