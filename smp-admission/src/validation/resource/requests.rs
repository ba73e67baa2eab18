//! A claim's device requests (`validateDeviceRequest`): each either asks for devices of one
//! class (`exactly`) or lists alternatives in order of preference (`firstAvailable`).

use serde_json::Value;

use super::selectors::selectors;
use super::{FIRST_AVAILABLE_MAX, dns_label, dns_subdomain, each_unique_item};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::validate_label_name;
use crate::validation::names;
use crate::validation::read;

const ALLOCATION_MODES: [&str; 2] = ["All", "ExactCount"];
const TOLERATION_OPERATORS: [&str; 2] = ["Equal", "Exists"];
/// The taint effects, in the order Go's sorted set lists them.
const TAINT_EFFECTS: [&str; 2] = ["NoExecute", "NoSchedule"];

/// `validateDeviceRequest`: its name, then exactly one of `exactly` and `firstAvailable`.
pub(super) fn device_request(request: &Value, path: &Path, errs: &mut ErrorList) {
    dns_label(read::text(request, "name"), &path.child("name"), errs);
    let first_available = read::list(request, "firstAvailable");
    let exactly = request.get("exactly").filter(|e| e.is_object());
    match (exactly, first_available.is_empty()) {
        (None, true) => errs.push(field::required(
            path,
            "exactly one of `exactly` or `firstAvailable` is required",
        )),
        (Some(_), false) => errs.push(field::invalid(
            path,
            BadValue::Json(Value::Null),
            "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
        )),
        (None, false) => each_unique_item(
            first_available,
            FIRST_AVAILABLE_MAX,
            |sub| read::text(sub, "name"),
            Some("name"),
            &path.child("firstAvailable"),
            errs,
            |sub, at, errs| {
                dns_label(read::text(sub, "name"), &at.child("name"), errs);
                class_request(sub, at, errs);
            },
        ),
        (Some(exact), true) => class_request(exact, &path.child("exactly"), errs),
    }
}

/// What an exact request and a subrequest share: the class, the selectors, the allocation
/// mode with its count, the tolerations.
fn class_request(request: &Value, path: &Path, errs: &mut ErrorList) {
    let class = read::text(request, "deviceClassName");
    let class_path = path.child("deviceClassName");
    if class.is_empty() {
        errs.push(field::required(&class_path, ""));
    } else {
        dns_subdomain(class, &class_path, errs);
    }
    selectors(
        read::list(request, "selectors"),
        &path.child("selectors"),
        errs,
    );
    allocation_mode(request, path, errs);
    let tolerations = path.child("tolerations");
    for (i, toleration) in read::list(request, "tolerations").iter().enumerate() {
        device_toleration(toleration, &tolerations.index(i), errs);
    }
}

/// `validateDeviceAllocationMode`: `All` takes no count, `ExactCount` a positive one (the
/// scheme defaults the mode to `ExactCount` and its count to 1).
fn allocation_mode(request: &Value, path: &Path, errs: &mut ErrorList) {
    let mode = read::text(request, "allocationMode");
    let count = read::int(request, "count");
    match mode {
        "All" if count != 0 => errs.push(field::invalid(
            &path.child("count"),
            count,
            "must not be specified when allocationMode is 'All'",
        )),
        "ExactCount" if count <= 0 => errs.push(field::invalid(
            &path.child("count"),
            count,
            "must be greater than zero",
        )),
        "All" | "ExactCount" => {}
        other => errs.push(field::not_supported(
            &path.child("allocationMode"),
            other,
            &ALLOCATION_MODES,
        )),
    }
}

/// `validateDeviceToleration` (tolerations survive only on an update of a claim that had
/// them: `DRADeviceTaints` is off in v1.34).
fn device_toleration(toleration: &Value, path: &Path, errs: &mut ErrorList) {
    let key = read::text(toleration, "key");
    if !key.is_empty() {
        validate_label_name(key, &path.child("key"), errs);
    }
    let value = read::text(toleration, "value");
    match read::text(toleration, "operator") {
        "Exists" => {
            if !value.is_empty() {
                errs.push(field::invalid(
                    &path.child("value"),
                    value,
                    "must be empty for operator `Exists`",
                ));
            }
        }
        "Equal" => {
            for msg in names::is_valid_label_value(value) {
                errs.push(field::invalid(&path.child("value"), value, &msg));
            }
        }
        "" => errs.push(field::required(&path.child("operator"), "")),
        other => errs.push(field::not_supported(
            &path.child("operator"),
            other,
            &TOLERATION_OPERATORS,
        )),
    }
    let effect = read::text(toleration, "effect");
    if !effect.is_empty() && !TAINT_EFFECTS.contains(&effect) {
        errs.push(field::not_supported(
            &path.child("effect"),
            effect,
            &TAINT_EFFECTS,
        ));
    }
}
