//! Values written as Go's JSON encoding writes them: times as Kubernetes prints them (RFC 3339
//! in UTC, to the second or the microsecond), durations as Go's `time.Duration` prints itself,
//! bytes in standard base64.

/// Seconds from the Unix epoch to 0000-01-01T00:00:00Z and to 10000-01-01T00:00:00Z: the
/// times a four-digit year can name.
const FIRST: i64 = -62_167_219_200;
const END: i64 = 253_402_300_800;

/// `seconds` after the Unix epoch, and `micros` into that second, as
/// `2024-01-02T03:04:05Z` (or `...05.000123Z` with micros); `None` when the year is not of
/// four digits.
pub(super) fn rfc3339(seconds: i64, micros: Option<u32>) -> Option<String> {
    if !(FIRST..END).contains(&seconds) {
        return None;
    }
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    let (year, month, day) = civil(days);
    let mut text = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    if let Some(micros) = micros {
        text.push_str(&format!(".{micros:06}"));
    }
    text.push('Z');
    Some(text)
}

/// The proleptic Gregorian date `days` after 1970-01-01 (the usual era arithmetic: 400-year
/// eras of 146097 days starting on March 1st).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A duration of `nanos` nanoseconds as Go prints a `time.Duration`: `0s`, `1.5µs`, `20ms`,
/// `1m30s`, `1h0m0s`.
pub(super) fn go_duration(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".to_owned();
    }
    let sign = if nanos < 0 { "-" } else { "" };
    let mut u = nanos.unsigned_abs();
    let body = if u < 1_000 {
        format!("{u}ns")
    } else if u < 1_000_000_000 {
        let (digits, unit) = if u < 1_000_000 { (3, "µs") } else { (6, "ms") };
        let fraction = fraction(u, digits);
        u /= 10u64.pow(digits);
        format!("{u}{fraction}{unit}")
    } else {
        let fraction = fraction(u, 9);
        u /= 1_000_000_000;
        let mut text = format!("{}{fraction}s", u % 60);
        u /= 60;
        if u > 0 {
            text = format!("{}m{text}", u % 60);
            u /= 60;
            if u > 0 {
                text = format!("{u}h{text}");
            }
        }
        text
    };
    format!("{sign}{body}")
}

/// The last `digits` decimal digits of `value` as a fraction (`.5`), trailing zeros dropped;
/// empty when they are all zero.
fn fraction(value: u64, digits: u32) -> String {
    let part = value % 10u64.pow(digits);
    if part == 0 {
        return String::new();
    }
    let text = format!("{part:0width$}", width = digits as usize);
    format!(".{}", text.trim_end_matches('0'))
}

/// Standard base64 with padding, as Go's JSON encoding writes `[]byte`.
pub(super) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(rfc3339(0, None).unwrap(), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(1_704_164_645, None).unwrap(),
            "2024-01-02T03:04:05Z"
        );
        assert_eq!(
            rfc3339(1_704_164_645, Some(120)).unwrap(),
            "2024-01-02T03:04:05.000120Z"
        );
        assert_eq!(rfc3339(951_782_400, None).unwrap(), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(-1, None).unwrap(), "1969-12-31T23:59:59Z");
        assert_eq!(rfc3339(FIRST, None).unwrap(), "0000-01-01T00:00:00Z");
        assert_eq!(rfc3339(END - 1, None).unwrap(), "9999-12-31T23:59:59Z");
        assert!(rfc3339(END, None).is_none());
        assert!(rfc3339(i64::MIN, None).is_none());
    }

    #[test]
    fn durations() {
        for (nanos, text) in [
            (0, "0s"),
            (1, "1ns"),
            (1_500, "1.5µs"),
            (20_000_000, "20ms"),
            (1_000_000_000, "1s"),
            (2_500_000_000, "2.5s"),
            (90_000_000_000, "1m30s"),
            (3_600_000_000_000, "1h0m0s"),
            (3_723_004_000_000, "1h2m3.004s"),
            (-5_000_000_000, "-5s"),
            (i64::MIN, "-2562047h47m16.854775808s"),
        ] {
            assert_eq!(go_duration(nanos), text);
        }
    }

    #[test]
    fn base64_pads() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"\xff\xfe\xfd\xfc"), "//79/A==");
    }
}
