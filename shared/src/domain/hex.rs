//! Lower-case hexadecimal, for signatures and random ids.

/// `[0xab, 0x01]` → `"ab01"`.
pub fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of an even-length hex string of at most 128 characters (a signature), or `None`.
pub fn decode(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || s.len() > 128 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(encode(&[0xab, 0x01]), "ab01");
        assert_eq!(decode("ab01"), Some(vec![0xab, 0x01]));
        for bad in ["abc", "zz", &"00".repeat(65)] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
