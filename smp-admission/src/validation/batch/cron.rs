//! The schedule parser CronJob validation calls: robfig/cron v3.0.1 `ParseStandard`
//! (five fields, descriptors, an optional `TZ=`/`CRON_TZ=` prefix), reporting its errors
//! word for word. Only acceptance matters here; no schedule is built.

use super::timezone::load_location;
use crate::validation::apps::shared::go_atoi;
use crate::validation::field::go_quote;

struct Bounds {
    min: u64,
    max: u64,
    names: &'static [(&'static str, u64)],
}

const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DAYS: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const WEEKDAYS: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

const DESCRIPTORS: [&str; 7] = [
    "@yearly",
    "@annually",
    "@monthly",
    "@weekly",
    "@daily",
    "@midnight",
    "@hourly",
];

/// `cron.ParseStandard`: `Err` holds the parser's message.
pub(super) fn parse_standard(schedule: &str) -> Result<(), String> {
    if schedule.is_empty() {
        return Err("empty spec string".to_owned());
    }
    let mut spec = schedule;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        // Without a space Go slices out of range and the request fails with a server
        // error; it is reported here as a bad location instead.
        let space = spec.find(' ').unwrap_or(spec.len());
        let eq = spec.find('=').unwrap_or(0);
        let location = spec.get(eq + 1..space).unwrap_or("");
        if let Err(e) = load_location(location) {
            return Err(format!("provided bad location {location}: {e}"));
        }
        spec = spec[space..].trim();
    }
    if spec.starts_with('@') {
        return descriptor(spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (text, bounds) in fields.iter().zip([MINUTES, HOURS, DAYS, MONTHS, WEEKDAYS]) {
        for expr in text.split(',').filter(|e| !e.is_empty()) {
            range(expr, &bounds)?;
        }
    }
    Ok(())
}

fn descriptor(spec: &str) -> Result<(), String> {
    if DESCRIPTORS.contains(&spec) {
        return Ok(());
    }
    if let Some(duration) = spec.strip_prefix("@every ") {
        return parse_duration(duration)
            .map_err(|e| format!("failed to parse duration {spec}: {e}"));
    }
    Err(format!("unrecognized descriptor: {spec}"))
}

/// `getRange`: `*`/`?`, `n`, `a-b`, each optionally `/step`.
fn range(expr: &str, bounds: &Bounds) -> Result<(), String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end) = if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (bounds.min, bounds.max)
    } else {
        let start = int_or_name(low_and_high[0], bounds)?;
        let end = match low_and_high.len() {
            1 => start,
            2 => int_or_name(low_and_high[1], bounds)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        (start, end)
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = must_parse_int(range_and_step[1])?;
            if single {
                end = bounds.max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < bounds.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            bounds.min
        ));
    }
    if end > bounds.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            bounds.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

fn int_or_name(expr: &str, bounds: &Bounds) -> Result<u64, String> {
    let lower = expr.to_lowercase();
    if let Some((_, n)) = bounds.names.iter().find(|(name, _)| *name == lower) {
        return Ok(*n);
    }
    must_parse_int(expr)
}

/// `mustParseInt`.
fn must_parse_int(expr: &str) -> Result<u64, String> {
    let (n, status) = go_atoi(expr);
    if let Err(e) = status {
        let mut quoted = String::new();
        go_quote(expr, &mut quoted);
        return Err(format!(
            "failed to parse int from {expr}: strconv.Atoi: parsing {quoted}: {}",
            e.text()
        ));
    }
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {expr}"));
    }
    Ok(n as u64)
}

/// Go's `time.ParseDuration`, for its errors.
pub(super) fn parse_duration(text: &str) -> Result<(), String> {
    let quoted = || {
        let mut q = String::new();
        go_quote(text, &mut q);
        q
    };
    let invalid = || format!("time: invalid duration {}", quoted());
    let mut s = text.strip_prefix(['-', '+']).unwrap_or(text);
    if s == "0" {
        return Ok(());
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut total: u128 = 0;
    while !s.is_empty() {
        let first = s.as_bytes()[0];
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(invalid());
        }
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let whole: u128 = s[..digits]
            .parse()
            .unwrap_or(if digits == 0 { 0 } else { u128::MAX });
        s = &s[digits..];
        if let Some(rest) = s.strip_prefix('.') {
            let fraction_digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            s = &rest[fraction_digits..];
            if digits == 0 && fraction_digits == 0 {
                return Err(invalid());
            }
        } else if digits == 0 {
            return Err(invalid());
        }
        let unit_len = s
            .bytes()
            .take_while(|b| *b != b'.' && !b.is_ascii_digit())
            .count();
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", quoted()));
        }
        let unit = &s[..unit_len];
        s = &s[unit_len..];
        let nanos: u128 = match unit {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                let mut u = String::new();
                go_quote(unit, &mut u);
                return Err(format!("time: unknown unit {u} in duration {}", quoted()));
            }
        };
        total = total.saturating_add(whole.saturating_mul(nanos));
        if total > 1u128 << 63 {
            return Err(invalid());
        }
    }
    if total > (1u128 << 63) - 1 && !text.starts_with('-') {
        return Err(invalid());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_standard_schedules() {
        for s in [
            "* * * * ?",
            "0 */2 1-15 jan,JUN mon-fri",
            "@hourly",
            "@every 1h30m",
            "5/10 * * * *",
            "*-5 * * * *",
        ] {
            assert_eq!(parse_standard(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn reports_as_robfig_does() {
        assert_eq!(
            parse_standard("* * * *").unwrap_err(),
            "expected exactly 5 fields, found 4: [* * * *]"
        );
        assert_eq!(
            parse_standard("1-2-3 * * * *").unwrap_err(),
            "too many hyphens: 1-2-3"
        );
        assert_eq!(
            parse_standard("1/2/3 * * * *").unwrap_err(),
            "too many slashes: 1/2/3"
        );
        assert_eq!(
            parse_standard("*/-1 * * * *").unwrap_err(),
            "negative number (-1) not allowed: -1"
        );
        assert_eq!(
            parse_standard("* * * 13 *").unwrap_err(),
            "end of range (13) above maximum (12): 13"
        );
        assert_eq!(
            parse_standard("@every 5q").unwrap_err(),
            "failed to parse duration @every 5q: time: unknown unit \"q\" in duration \"5q\""
        );
        assert_eq!(
            parse_standard("@every x").unwrap_err(),
            "failed to parse duration @every x: time: invalid duration \"x\""
        );
    }
}
