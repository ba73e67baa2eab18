//! How long ago something happened, as the server's printers write it (`5m`, `3h4m`, `2d`):
//! apimachinery's `HumanDuration`, precise when it is short and coarse when it is long.

use serde_json::Value;

/// The time now, in seconds since the Unix epoch, that ages are counted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Now(pub(crate) i64);

impl Now {
    /// How long ago the time stamp `at` (RFC 3339) was: `<unknown>` when it is absent or
    /// empty, and also when it does not read (a stored time stamp always does).
    pub(crate) fn since(self, at: Option<&Value>) -> String {
        match at
            .and_then(Value::as_str)
            .and_then(smp_ssa::managedfields::read_time)
        {
            Some(at) => human(self.0.saturating_sub(at)),
            None => "<unknown>".to_owned(),
        }
    }

    /// The age of an object: how long ago its `metadata.creationTimestamp` was.
    pub(crate) fn age(self, object: &Value) -> String {
        self.since(object.pointer("/metadata/creationTimestamp"))
    }
}

/// A duration of `seconds`, written to the precision that matters at its size. A time more
/// than a second in the future is `<invalid>`; less than that is clock skew, shown as `0s`.
pub(crate) fn human(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".to_owned();
    }
    let s = seconds.max(0);
    if s < 120 {
        return format!("{s}s");
    }
    let minutes = s / 60;
    if minutes < 10 {
        return match s % 60 {
            0 => format!("{minutes}m"),
            rest => format!("{minutes}m{rest}s"),
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = s / 3600;
    if hours < 8 {
        return match minutes % 60 {
            0 => format!("{hours}h"),
            rest => format!("{hours}h{rest}m"),
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let days = hours / 24;
    if hours < 8 * 24 {
        return match hours % 24 {
            0 => format!("{days}d"),
            rest => format!("{days}d{rest}h"),
        };
    }
    if hours < 2 * 365 * 24 {
        return format!("{days}d");
    }
    let years = days / 365;
    if hours < 8 * 365 * 24 {
        return match days % 365 {
            0 => format!("{years}y"),
            rest => format!("{years}y{rest}d"),
        };
    }
    format!("{years}y")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_written_to_the_precision_of_their_size() {
        let (minute, hour, day, year) = (60, 3600, 86_400, 365 * 86_400);
        for (seconds, text) in [
            (-2, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (119, "119s"),
            (120, "2m"),
            (3 * minute + 4, "3m4s"),
            (10 * minute - 1, "9m59s"),
            (10 * minute + 30, "10m"),
            (179 * minute + 59, "179m"),
            (3 * hour, "3h"),
            (3 * hour + 5 * minute, "3h5m"),
            (8 * hour - minute, "7h59m"),
            (8 * hour, "8h"),
            (47 * hour + 59 * minute, "47h"),
            (2 * day, "2d"),
            (2 * day + 2 * hour, "2d2h"),
            (8 * day - hour, "7d23h"),
            (8 * day, "8d"),
            (729 * day, "729d"),
            (2 * year, "2y"),
            (2 * year + day, "2y1d"),
            (8 * year - day, "7y364d"),
            (8 * year, "8y"),
            (12 * year + 100 * day, "12y"),
        ] {
            assert_eq!(human(seconds), text, "{seconds}");
        }
    }

    #[test]
    fn ages_count_from_the_creation_time_stamp() {
        let now = Now(smp_ssa::managedfields::read_time("2026-11-28T12:00:00Z").unwrap());
        let created =
            serde_json::json!({"metadata": {"creationTimestamp": "2026-11-28T11:55:00Z"}});
        assert_eq!(now.age(&created), "5m");
        assert_eq!(now.age(&serde_json::json!({})), "<unknown>");
        assert_eq!(
            now.since(Some(&serde_json::json!("2026-11-28T12:00:05Z"))),
            "<invalid>"
        );
    }
}
