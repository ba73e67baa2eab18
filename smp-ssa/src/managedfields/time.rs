//! Time stamps of managedFields entries: RFC 3339 in UTC to the second, as the API server
//! writes them, from a clock the caller can fix.

use std::time::{SystemTime, UNIX_EPOCH};

/// Where the field manager's time stamps come from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// Always this time, in seconds since the Unix epoch (tests, `--now`).
    Fixed(i64),
}

impl Clock {
    /// A clock fixed at `text` (RFC 3339: `2026-11-26T12:00:00Z`, or with an offset).
    pub fn fixed(text: &str) -> Option<Clock> {
        parse(text).map(Clock::Fixed)
    }

    /// The current time, written as the server writes it.
    pub fn now(&self) -> String {
        format(self.seconds())
    }

    /// The current time in seconds since the Unix epoch.
    pub fn seconds(&self) -> i64 {
        match self {
            Clock::Fixed(s) => *s,
            Clock::System => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
        }
    }
}

/// A time in seconds since the Unix epoch, written as the server writes time stamps
/// (`2026-11-26T12:00:00Z`).
pub fn write_time(seconds: i64) -> String {
    format(seconds)
}

/// A time stamp (RFC 3339) in seconds since the Unix epoch.
pub fn read_time(text: &str) -> Option<i64> {
    parse(text)
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `seconds` since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn format(seconds: i64) -> String {
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Seconds since the epoch of an RFC 3339 time (fractions of a second dropped).
pub(crate) fn parse(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut at = 19;
    if b.get(at) == Some(&b'.') {
        at += 1;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
    }
    let offset = match b.get(at)? {
        b'Z' | b'z' if at + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if at + 6 == b.len() && b[at + 3] == b':' => {
            let minutes = num(at + 1..at + 3)? * 60 + num(at + 4..at + 6)?;
            if *sign == b'+' {
                minutes * 60
            } else {
                -minutes * 60
            }
        }
        _ => return None,
    };
    Some(days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_and_write_as_the_server_writes_them() {
        for (text, seconds) in [
            ("1970-01-01T00:00:00Z", 0),
            ("2026-11-26T12:00:00Z", 1_795_694_400),
            ("2000-02-29T23:59:59Z", 951_868_799),
            ("1969-12-31T23:59:59Z", -1),
        ] {
            assert_eq!(parse(text), Some(seconds), "{text}");
            assert_eq!(format(seconds), text);
        }
        assert_eq!(
            parse("2026-11-26T13:00:00.25+01:00"),
            parse("2026-11-26T12:00:00Z")
        );
        for bad in [
            "",
            "2026-11-26",
            "2026-13-01T00:00:00Z",
            "2026-11-26T12:00:00",
            "x026-11-26T12:00:00Z",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        assert_eq!(
            Clock::fixed("2026-11-26T12:00:00Z").unwrap().now(),
            "2026-11-26T12:00:00Z"
        );
    }
}
