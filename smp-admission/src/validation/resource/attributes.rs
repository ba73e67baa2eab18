//! Names of attributes and capacities (`validateQualifiedName`), and a device's attributes
//! and capacities (`validateDeviceAttribute`, its capacities' keys).

use serde_json::Value;

use super::driver_name;
use crate::validation::field::{self, BadValue, ErrorList, ErrorType, FieldError, Path};
use crate::validation::names;
use crate::validation::read::{self, Object};

/// The longest name of an attribute or capacity after its domain.
const ID_MAX_LENGTH: usize = 32;
/// The longest domain of an attribute or capacity name.
const DOMAIN_MAX_LENGTH: usize = 63;
/// The longest key of an attribute or capacity shown in full in a path.
const KEY_MAX_LENGTH: usize = DOMAIN_MAX_LENGTH + 1 + ID_MAX_LENGTH;
/// The longest string or version value of an attribute.
const ATTRIBUTE_VALUE_MAX_LENGTH: usize = 64;

/// `validateCIdentifier`: at most 32 characters and a C identifier. The server reports the
/// format as a type error (`FieldValueTypeInvalid`).
fn c_identifier(id: &str, path: &Path, errs: &mut ErrorList) {
    if id.len() > ID_MAX_LENGTH {
        errs.push(field::too_long(path, ID_MAX_LENGTH as i64));
    }
    for msg in names::is_c_identifier(id) {
        errs.push(FieldError {
            kind: ErrorType::TypeInvalid,
            field: path.render(),
            value: BadValue::from(id),
            detail: msg,
        });
    }
}

/// `validateQualifiedName`: required; a C identifier, or a domain (a driver's name) and a C
/// identifier separated by `/`. A name with more slashes is not checked, as in v1.34.
pub(super) fn qualified_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(field::required(path, "name required"));
        return;
    }
    let mut parts = name.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(id), None, None) => c_identifier(id, path, errs),
        (Some(domain), Some(id), None) => {
            if domain.is_empty() {
                errs.push(field::required(path, "the domain must not be empty"));
            } else {
                driver_name(domain, path, errs);
            }
            if id.is_empty() {
                errs.push(field::required(path, "the name must not be empty"));
            } else {
                c_identifier(id, path, errs);
            }
        }
        _ => {}
    }
}

/// `validateFullyQualifiedName`: a qualified name that has its domain.
pub(super) fn fully_qualified_name(name: &str, path: &Path, errs: &mut ErrorList) {
    qualified_name(name, path, errs);
    if !name.is_empty() && !name.contains('/') {
        errs.push(field::invalid(
            path,
            BadValue::Json(Value::from(name)),
            "must include a domain",
        ));
    }
}

/// `truncateIfTooLong`: a key past `max` characters keeps its two ends around `...`.
fn shown_key(key: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let max = max.max(16);
    if key.len() <= max {
        return key.into();
    }
    let remaining = max - 3;
    let head = key.get(..remaining.div_ceil(2));
    let tail = key.get(key.len() - remaining / 2..);
    match (head, tail) {
        (Some(head), Some(tail)) => format!("{head}...{tail}").into(),
        // A cut inside a multi-byte character: Go cuts bytes; keep the key whole instead.
        _ => key.into(),
    }
}

/// `validateMap` over attributes or capacities: each key a qualified name, then its value,
/// both at the key's path (shortened when long).
pub(super) fn each_named<'a>(
    map: Option<&'a Object>,
    path: &Path,
    errs: &mut ErrorList,
    mut check: impl FnMut(&'a Value, &Path, &mut ErrorList),
) {
    for (key, value) in map.into_iter().flatten() {
        let shown = shown_key(key, KEY_MAX_LENGTH);
        let at = path.key(&shown);
        qualified_name(key, &at, errs);
        check(value, &at, errs);
    }
}

/// semver.org 2.0.0: `MAJOR.MINOR.PATCH`, no leading zeros, optional pre-release and build
/// identifiers.
fn is_semver(version: &str) -> bool {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let numeric = |s: &str| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
    };
    let ident =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let mut numbers = core.split('.');
    let core_ok = (0..3).all(|_| numbers.next().is_some_and(numeric)) && numbers.next().is_none();
    let pre_ok = pre.is_none_or(|p| {
        p.split('.')
            .all(|id| ident(id) && (numeric(id) || !id.bytes().all(|b| b.is_ascii_digit())))
    });
    let build_ok = build.is_none_or(|b| b.split('.').all(ident));
    core_ok && pre_ok && build_ok
}

/// `validateDeviceAttribute`: exactly one of `bool`, `int`, `string`, `version`; a string
/// at most 64 bytes, a version a semantic version of at most 64 bytes.
pub(super) fn device_attribute(attribute: &Value, path: &Path, errs: &mut ErrorList) {
    let mut set = 0;
    for member in ["bool", "int"] {
        if read::is_set(attribute, member) {
            set += 1;
        }
    }
    if let Some(text) = attribute.get("string").filter(|v| !v.is_null()) {
        set += 1;
        if text.as_str().unwrap_or("").len() > ATTRIBUTE_VALUE_MAX_LENGTH {
            errs.push(field::too_long(
                &path.child("string"),
                ATTRIBUTE_VALUE_MAX_LENGTH as i64,
            ));
        }
    }
    if let Some(version) = attribute.get("version").filter(|v| !v.is_null()) {
        set += 1;
        let version = version.as_str().unwrap_or("");
        let at = path.child("version");
        if !is_semver(version) {
            errs.push(field::invalid(
                &at,
                version,
                "must be a string compatible with semver.org spec 2.0.0",
            ));
        }
        if version.len() > ATTRIBUTE_VALUE_MAX_LENGTH {
            errs.push(field::too_long(&at, ATTRIBUTE_VALUE_MAX_LENGTH as i64));
        }
    }
    match set {
        0 => errs.push(field::invalid(
            path,
            "",
            "exactly one value must be specified",
        )),
        1 => {}
        _ => errs.push(field::invalid(
            path,
            BadValue::Json(attribute.clone()),
            "exactly one value must be specified",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantic_versions_follow_semver_2() {
        for good in [
            "1.0.0",
            "0.1.2-alpha.1+build.5",
            "10.20.30-rc.1",
            "1.2.3-0a",
        ] {
            assert!(is_semver(good), "{good}");
        }
        for bad in [
            "1.0", "01.0.0", "1.0.0-", "1.0.0-01", "1.0.0+", "v1.0.0", "1.0.0.0",
        ] {
            assert!(!is_semver(bad), "{bad}");
        }
    }

    #[test]
    fn long_keys_keep_their_ends() {
        let key = "a".repeat(50) + &"b".repeat(50);
        let shown = shown_key(&key, KEY_MAX_LENGTH);
        assert_eq!(shown.len(), KEY_MAX_LENGTH);
        assert!(shown.starts_with("aaa") && shown.ends_with("bbb") && shown.contains("..."));
    }
}
