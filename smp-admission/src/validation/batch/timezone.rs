//! CronJob `spec.timeZone` (`validateTimeZone`) and the zone lookup `time.LoadLocation` does.

use super::zones::ZONES;
use crate::validation::field::{self, ErrorList, Path};

/// `time.LoadLocation`: `""` and `UTC` are UTC, `Local` is the server's zone, anything else
/// must name a zone of the database.
pub(super) fn load_location(name: &str) -> Result<(), String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(());
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err("time: invalid location name".to_owned());
    }
    if ZONES.binary_search(&name).is_ok() {
        Ok(())
    } else {
        Err(format!("unknown time zone {name}"))
    }
}

/// One `/`-separated part of a zone name: 1 to 14 of `[A-Za-z.\-_0-9+]`, not `.`/`..`,
/// not starting with `-`.
fn part_is_plausible(part: &str) -> bool {
    let chars_ok = part
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '+'));
    !part.is_empty()
        && part.len() <= 14
        && chars_ok
        && part != "."
        && part != ".."
        && !part.starts_with('-')
}

/// `validateTimeZone`.
pub(super) fn validate_time_zone(zone: &str, path: &Path, errs: &mut ErrorList) {
    if zone.is_empty() {
        errs.push(field::invalid(
            path,
            zone,
            "timeZone must be nil or non-empty string",
        ));
        return;
    }
    if !zone.split('/').all(part_is_plausible) {
        errs.push(field::invalid(
            path,
            zone,
            &format!("unknown time zone {zone}"),
        ));
        return;
    }
    if zone.eq_ignore_ascii_case("Local") {
        errs.push(field::invalid(
            path,
            zone,
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        ));
    }
    if let Err(e) = load_location(zone) {
        errs.push(field::invalid(path, zone, &e));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_are_sorted_and_found() {
        assert!(ZONES.windows(2).all(|w| w[0] < w[1]));
        assert!(load_location("America/New_York").is_ok());
        assert!(load_location("Etc/GMT+5").is_ok());
        assert_eq!(load_location("utc").unwrap_err(), "unknown time zone utc");
    }
}
