//! The string `format`s a custom resource's schema may name, checked as kube-apiserver v1.34
//! checks them (kube-openapi `pkg/validation/strfmt`, with the set apiextensions-apiserver's
//! `formats.go` keeps at its default compatibility version, 1.33). A format outside that set
//! is not checked (the server strips it from the schema), `k8s-short-name` and
//! `k8s-long-name` included: they arrive with compatibility version 1.34.
//!
//! Where this differs from the server: `email` (Go's `net/mail.ParseAddress`) and `uri`
//! (`net/url.ParseRequestURI`) are checked here by their common forms (an `addr-spec`, or a
//! display name with `<addr-spec>`; an absolute path, or a scheme and the rest without
//! spaces), not by Go's full parsers.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

use regex::Regex;

/// Whether the server checks `format` (spelt with or without dashes: `date-time`).
pub fn is_checked(format: &str) -> bool {
    checker(&normalized(format)).is_some()
}

/// Whether `value` is of `format`; `true` for a format the server does not check.
pub fn conforms(format: &str, value: &str) -> bool {
    match checker(&normalized(format)) {
        Some(check) => check(value),
        None => true,
    }
}

fn normalized(format: &str) -> String {
    format.replace('-', "")
}

type Check = fn(&str) -> bool;

fn checker(format: &str) -> Option<Check> {
    Some(match format {
        "bsonobjectid" => |s| s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
        "uri" => is_request_uri,
        "email" => is_email,
        "hostname" => is_hostname,
        "ipv4" => is_ipv4,
        "ipv6" => |s| parse_ip(s).is_some() && s.contains(':'),
        "cidr" => is_cidr,
        "mac" => is_mac,
        "uuid" => |s| UUID.is_match(s),
        "uuid3" => |s| UUID3.is_match(s),
        "uuid4" => |s| UUID4.is_match(s),
        "uuid5" => |s| UUID5.is_match(s),
        "isbn" => |s| is_isbn10(s) || is_isbn13(s),
        "isbn10" => is_isbn10,
        "isbn13" => is_isbn13,
        "creditcard" => is_credit_card,
        "ssn" => |s| s.len() == 11 && SSN.is_match(s),
        "hexcolor" => |s| HEXCOLOR.is_match(s),
        "rgbcolor" => |s| RGBCOLOR.is_match(s),
        "byte" => |s| BASE64.is_match(s),
        "password" => |_| true,
        "date" => is_date,
        "duration" => is_duration,
        "datetime" => is_date_time,
        _ => return None,
    })
}

fn regex(pattern: &str) -> Regex {
    // The patterns below are this module's own constants, each covered by a test.
    Regex::new(pattern).unwrap_or_else(|e| panic!("format pattern {pattern:?}: {e}"))
}

static UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$")
});
static UUID3: LazyLock<Regex> = LazyLock::new(|| {
    regex("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$")
});
static UUID4: LazyLock<Regex> = LazyLock::new(|| {
    regex("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$")
});
static UUID5: LazyLock<Regex> = LazyLock::new(|| {
    regex("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$")
});
static SSN: LazyLock<Regex> = LazyLock::new(|| regex("^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$"));
static HEXCOLOR: LazyLock<Regex> = LazyLock::new(|| regex("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"));
static RGBCOLOR: LazyLock<Regex> = LazyLock::new(|| {
    let part = r"[\t\n\f\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\f\r ]*";
    regex(&format!(r"^rgb\({part},{part},{part}\)$"))
});
static BASE64: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$")
});
static HOSTNAME: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$",
    )
});
static TIME_OF_DAY: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$")
});
static DURATION_PART: LazyLock<Regex> =
    LazyLock::new(|| regex(r"([0-9]+)[\t\n\f\r ]*([A-Za-zµ]+)"));

fn is_hostname(s: &str) -> bool {
    HOSTNAME.is_match(s) && s.len() <= 255 && s.split('.').all(|label| label.len() <= 63)
}

/// Go's `net.ParseIP`: dotted IPv4 (leading zeros allowed), or IPv6 (with an IPv4 tail).
fn parse_ip(s: &str) -> Option<()> {
    if s.contains(':') {
        return s.parse::<Ipv6Addr>().ok().map(|_| ());
    }
    parse_ipv4_sloppy(s).map(|_| ())
}

/// Dotted IPv4 as Go reads it: four decimal parts of at most three digits, each at most 255
/// (leading zeros allowed).
fn parse_ipv4_sloppy(s: &str) -> Option<Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut parts = s.split('.');
    for octet in &mut octets {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *octet = part.parse::<u16>().ok().filter(|n| *n <= 255)? as u8;
    }
    parts.next().is_none().then(|| Ipv4Addr::from(octets))
}

fn is_ipv4(s: &str) -> bool {
    parse_ip(s).is_some() && s.contains('.')
}

fn is_cidr(s: &str) -> bool {
    let Some((ip, bits)) = s.split_once('/') else {
        return false;
    };
    let max = if ip.contains(':') { 128 } else { 32 };
    let valid_bits = !bits.is_empty()
        && bits.len() <= 3
        && bits.bytes().all(|b| b.is_ascii_digit())
        && bits.parse::<u32>().is_ok_and(|n| n <= max)
        && (bits == "0" || !bits.starts_with('0'));
    valid_bits && parse_ip(ip).is_some()
}

/// Go's `net.ParseMAC`: 6, 8 or 20 octets, as `:`- or `-`-separated pairs or `.`-separated
/// groups of four hex digits.
fn is_mac(s: &str) -> bool {
    let hex =
        |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_hexdigit());
    let octets = |n: usize| matches!(n, 6 | 8 | 20);
    if s.len() < 14 {
        return false;
    }
    if s.as_bytes()[2] == b':' || s.as_bytes()[2] == b'-' {
        let sep = s.as_bytes()[2] as char;
        let parts: Vec<&str> = s.split(sep).collect();
        return octets(parts.len()) && parts.iter().all(|p| hex(p, 2));
    }
    if s.as_bytes()[4] == b'.' {
        let parts: Vec<&str> = s.split('.').collect();
        return octets(parts.len() * 2) && parts.iter().all(|p| hex(p, 4));
    }
    false
}

fn is_isbn10(s: &str) -> bool {
    let digits: Vec<u8> = s.bytes().filter(|b| !is_space_or_minus(*b)).collect();
    if digits.len() != 10
        || !digits[..9].iter().all(u8::is_ascii_digit)
        || !(digits[9].is_ascii_digit() || digits[9] == b'X')
    {
        return false;
    }
    let mut sum: u32 = (0..9)
        .map(|i| (i as u32 + 1) * u32::from(digits[i] - b'0'))
        .sum();
    sum += 10
        * if digits[9] == b'X' {
            10
        } else {
            u32::from(digits[9] - b'0')
        };
    sum.is_multiple_of(11)
}

fn is_isbn13(s: &str) -> bool {
    let digits: Vec<u8> = s.bytes().filter(|b| !is_space_or_minus(*b)).collect();
    if digits.len() != 13 || !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = (0..12)
        .map(|i| if i % 2 == 0 { 1 } else { 3 } * u32::from(digits[i] - b'0'))
        .sum();
    u32::from(digits[12] - b'0') == (10 - sum % 10) % 10
}

/// RE2's `\s` and `-`, which ISBNs may carry between digits.
fn is_space_or_minus(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'-')
}

static CREDIT_CARD: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        "^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$",
    )
});

fn is_credit_card(s: &str) -> bool {
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    if !CREDIT_CARD.is_match(&digits) {
        return false;
    }
    let mut sum = 0;
    for (i, b) in digits.bytes().rev().enumerate() {
        let mut n = u32::from(b - b'0');
        if i % 2 == 1 {
            n *= 2;
            if n >= 10 {
                n = n % 10 + 1;
            }
        }
        sum += n;
    }
    sum % 10 == 0
}

/// Go's `time.Parse("2006-01-02", s)`: four digits, two, two, a real day of that month.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = &s[range];
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// strfmt's `IsDateTime`: lowercased and cut at each `t`; a date before the first, a time of
/// day with a zone after it (hours to 23, minutes and seconds to 59).
fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    let Some(m) = TIME_OF_DAY.captures(time) else {
        return false;
    };
    &m[1] <= "23" && &m[2] <= "59" && &m[3] <= "59"
}

/// strfmt's `ParseDuration`: Go's `time.ParseDuration`, or else numbers with units such as
/// `3 days` (at least one known unit).
fn is_duration(s: &str) -> bool {
    if is_go_duration(s) {
        return true;
    }
    const UNITS: [&[&str]; 8] = [
        &["ns", "nano"],
        &["us", "µs", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    DURATION_PART.captures_iter(s).any(|m| {
        let unit = m[2].to_lowercase();
        UNITS.iter().any(|variants| {
            let last = variants.len() - 1;
            variants
                .iter()
                .enumerate()
                .any(|(i, v)| (i == last && unit.starts_with(v)) || unit == *v)
        })
    })
}

/// Go's `time.ParseDuration`, in nanoseconds.
pub(crate) fn go_duration_nanos(s: &str) -> Option<i64> {
    let (negative, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..end].parse().ok()?;
        rest = &rest[end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += number * scale;
    }
    let nanos = if negative { -total } else { total };
    (nanos.abs() < 9.2e18).then_some(nanos as i64)
}

/// Go's `time.ParseDuration` accepts `s`.
fn is_go_duration(s: &str) -> bool {
    go_duration_nanos(s).is_some()
}

/// An address as `local@domain`, or `Display Name <local@domain>`.
fn is_email(s: &str) -> bool {
    let address = match (s.find('<'), s.strip_suffix('>')) {
        (Some(open), Some(inner)) => &inner[open + 1..],
        (None, None) => s.trim(),
        _ => return false,
    };
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    let atom = |part: &str| {
        !part.is_empty()
            && part.split('.').all(|p| {
                !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c))
            })
    };
    atom(local) && (atom(domain) || (domain.starts_with('[') && domain.ends_with(']')))
}

/// An absolute path, or a scheme followed by `:` and text without spaces or controls.
fn is_request_uri(s: &str) -> bool {
    if s.chars().any(|c| c.is_control() || c == ' ') || s.is_empty() {
        return false;
    }
    if s.starts_with('/') {
        return true;
    }
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(go_duration_nanos("1h30m"), Some(5_400_000_000_000));
        assert_eq!(go_duration_nanos("-1.5s"), Some(-1_500_000_000));
        assert_eq!(go_duration_nanos("1x"), None);
        assert_eq!(go_duration_nanos("1mss"), None);
        assert_eq!(go_duration_nanos(".5m"), Some(30_000_000_000));
    }

    #[test]
    fn each_format_accepts_and_refuses() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "date-time",
                &["2024-02-29T10:00:00Z", "2024-01-01t23:59:59.123+02:00"],
                &[
                    "2023-02-29T10:00:00Z",
                    "2024-01-01T24:00:00Z",
                    "2024-01-01",
                    "x",
                ],
            ),
            (
                "date",
                &["2024-12-31"],
                &["2024-13-01", "24-01-01", "2024-1-01"],
            ),
            (
                "duration",
                &["1h30m", "-1.5s", "0", "3 days", "2 weeks"],
                &["", "1x", "h"],
            ),
            (
                "ipv4",
                &["10.0.0.1", "010.0.0.1"],
                &["256.0.0.1", "::1", "1.2.3"],
            ),
            ("ipv6", &["::1", "fe80::1"], &["10.0.0.1", "::g"]),
            (
                "cidr",
                &["10.0.0.0/8", "::/0"],
                &["10.0.0.0/33", "10.0.0.0", "10.0.0.0/08"],
            ),
            (
                "mac",
                &["01:23:45:67:89:ab", "0123.4567.89ab"],
                &["01:23:45:67:89", "zz:23:45:67:89:ab"],
            ),
            (
                "uuid",
                &[
                    "123e4567-e89b-12d3-a456-426614174000",
                    "123E4567E89B12D3A456426614174000",
                ],
                &["123"],
            ),
            (
                "uuid4",
                &["123e4567-e89b-42d3-a456-426614174000"],
                &["123e4567-e89b-12d3-a456-426614174000"],
            ),
            ("byte", &["aGVsbG8=", "aGk="], &["", "a", "aGVsbG8"]),
            (
                "hostname",
                &["example.com", "a", "xn--bcher-kva.example"],
                &["-a.com", "a..b"],
            ),
            ("hexcolor", &["#fff", "A0B1C2"], &["#ffff"]),
            ("rgbcolor", &["rgb(0, 128, 255)"], &["rgb(256,0,0)"]),
            ("ssn", &["123-45-6789"], &["123456789"]),
            ("isbn", &["0321751043", "978-0321751041"], &["0321751044"]),
            (
                "creditcard",
                &["4111 1111 1111 1111"],
                &["4111 1111 1111 1112"],
            ),
            (
                "bsonobjectid",
                &["507f1f77bcf86cd799439011"],
                &["507f1f77bcf86cd79943901"],
            ),
            (
                "email",
                &["a@example.com", "Ann <a.b@example.com>"],
                &["a", "@example.com"],
            ),
            (
                "uri",
                &["https://example.com/x", "/path"],
                &["example com", "relative/path"],
            ),
        ];
        for (format, good, bad) in cases {
            assert!(is_checked(format), "{format}");
            for v in *good {
                assert!(conforms(format, v), "{format} accepts {v:?}");
            }
            for v in *bad {
                assert!(!conforms(format, v), "{format} refuses {v:?}");
            }
        }
        for unchecked in ["k8s-short-name", "int32", "whatever"] {
            assert!(!is_checked(unchecked));
            assert!(conforms(unchecked, "anything at all"));
        }
    }
}
