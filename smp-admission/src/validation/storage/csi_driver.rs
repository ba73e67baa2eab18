//! CSIDriver (`ValidateCSIDriver` on create, `ValidateCSIDriverUpdate` alone on update).
//!
//! `nodeAllocatableUpdatePeriodSeconds` belongs to the `MutableCSINodeAllocatableCount` gate,
//! off in v1.34: the strategy drops it on create, and on update keeps it only when the old
//! driver had it. A dropped member is not validated.

use serde_json::Value;

use super::{metadata, metadata_update, pointer_text, spec_of};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::IMMUTABLE;
use crate::validation::read;
use crate::validation::seen::Seen;

/// `sets.List` of the supported policies: sorted.
const FS_GROUP_POLICIES: [&str; 3] = ["File", "None", "ReadWriteOnceWithFSType"];
const LIFECYCLE_MODES: [&str; 2] = ["Persistent", "Ephemeral"];
/// A token's shortest life: ten minutes.
const MIN_TOKEN_SECONDS: i64 = 600;
/// A token's longest life: 2^32 seconds.
const MAX_TOKEN_SECONDS: i64 = 1 << 32;

/// Upstream reports `attachRequired` under this misspelt name, on create and update alike.
const ATTACH_REQUIRED_PATH: &[&str] = &["spec", "attachedRequired"];

/// `ValidateCSIDriver`.
pub(super) fn csi_driver(obj: &Value) -> ErrorList {
    let mut errs = metadata(obj, false);
    validate_spec(spec_of(obj), false, &mut errs);
    errs
}

/// `ValidateCSIDriverUpdate`: the metadata update, the spec, and the two members that cannot
/// change (attachment and lifecycle modes).
pub(super) fn csi_driver_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = metadata_update(new, old);
    let (spec, old_spec) = (spec_of(new), spec_of(old));
    let keeps_period = read::is_set(old_spec, "nodeAllocatableUpdatePeriodSeconds");
    validate_spec(spec, keeps_period, &mut errs);
    let attach = spec.get("attachRequired").and_then(Value::as_bool);
    if attach != old_spec.get("attachRequired").and_then(Value::as_bool) {
        errs.push(field::invalid(
            &Path::names(ATTACH_REQUIRED_PATH),
            BadValue::Json(attach.map_or(Value::Null, Value::Bool)),
            IMMUTABLE,
        ));
    }
    let modes = spec.get("volumeLifecycleModes");
    if !modes_equal(modes, old_spec.get("volumeLifecycleModes")) {
        let printed = modes.filter(|m| m.is_array()).cloned();
        errs.push(field::invalid(
            &Path::names(&["spec", "volumeLifecycleModes"]),
            BadValue::Json(printed.unwrap_or(Value::Null)),
            IMMUTABLE,
        ));
    }
    errs
}

/// Lists of modes compared semantically: absent and empty are equal.
fn modes_equal(a: Option<&Value>, b: Option<&Value>) -> bool {
    let a = a.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let b = b.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    a == b
}

/// `validateCSIDriverSpec`; `keeps_period` says whether the strategy left the gated period.
fn validate_spec(spec: &Value, keeps_period: bool, errs: &mut ErrorList) {
    let path = Path::new("spec");
    require_flag(
        spec,
        "attachRequired",
        &Path::names(ATTACH_REQUIRED_PATH),
        errs,
    );
    require_flag(spec, "podInfoOnMount", &path.child("podInfoOnMount"), errs);
    require_flag(
        spec,
        "storageCapacity",
        &path.child("storageCapacity"),
        errs,
    );
    if let Some(policy) = read::opt_text(spec, "fsGroupPolicy")
        && !FS_GROUP_POLICIES.contains(&policy)
    {
        errs.push(field::not_supported(
            &path.child("fsGroupPolicy"),
            pointer_text(policy),
            &FS_GROUP_POLICIES,
        ));
    }
    validate_token_requests(
        read::list(spec, "tokenRequests"),
        &path.child("tokenRequests"),
        errs,
    );
    let modes_path = path.child("volumeLifecycleModes");
    for mode in read::list(spec, "volumeLifecycleModes") {
        let mode = mode.as_str().unwrap_or("");
        if !LIFECYCLE_MODES.contains(&mode) {
            // A named string type: Go prints it as JSON.
            errs.push(field::not_supported(
                &modes_path,
                pointer_text(mode),
                &LIFECYCLE_MODES,
            ));
        }
    }
    // Required while `SELinuxMountReadWriteOncePod` is on, as it is in v1.34.
    require_flag(spec, "seLinuxMount", &path.child("seLinuxMount"), errs);
    if keeps_period
        && let Some(period) = read::opt_int(spec, "nodeAllocatableUpdatePeriodSeconds")
        && period < 10
    {
        errs.push(field::invalid(
            &path.child("nodeAllocatableUpdatePeriodSeconds"),
            period,
            "must be greater than or equal to 10 seconds",
        ));
    }
}

/// A `*bool` that must be set.
fn require_flag(spec: &Value, member: &str, path: &Path, errs: &mut ErrorList) {
    if read::opt_bool(spec, member).is_none() {
        errs.push(field::required(path, ""));
    }
}

/// `validateTokenRequests`: audiences differ (a repeated one is reported and its expiry left
/// unchecked), each expiry between ten minutes and 2^32 seconds.
fn validate_token_requests(requests: &[Value], path: &Path, errs: &mut ErrorList) {
    let mut audiences = Seen::new();
    for (i, request) in requests.iter().enumerate() {
        let at = path.index(i);
        let audience = read::text(request, "audience");
        if !audiences.insert(audience) {
            errs.push(field::duplicate(&at.child("audience"), audience));
            continue;
        }
        let Some(seconds) = read::opt_int(request, "expirationSeconds") else {
            continue;
        };
        let expiry = at.child("expirationSeconds");
        if seconds < MIN_TOKEN_SECONDS {
            errs.push(field::invalid(
                &expiry,
                seconds,
                "may not specify a duration less than 10 minutes",
            ));
        }
        if seconds > MAX_TOKEN_SECONDS {
            errs.push(field::invalid(
                &expiry,
                seconds,
                "may not specify a duration larger than 2^32 seconds",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    fn driver(spec: Value) -> Value {
        json!({"metadata": {"name": "d", "resourceVersion": "1"}, "spec": spec})
    }

    const FLAGS: &str = r#"{"attachRequired": true, "podInfoOnMount": false,
        "storageCapacity": false, "seLinuxMount": false}"#;

    fn flags() -> Value {
        serde_json::from_str(FLAGS).unwrap_or_default()
    }

    #[test]
    fn unset_flags_are_required_under_the_upstream_paths() {
        assert_eq!(
            texts(&csi_driver(&driver(json!({})))),
            [
                "spec.attachedRequired: Required value",
                "spec.podInfoOnMount: Required value",
                "spec.storageCapacity: Required value",
                "spec.seLinuxMount: Required value",
            ]
        );
    }

    #[test]
    fn the_gated_period_is_checked_only_when_the_old_driver_had_it() {
        let mut spec = flags();
        spec["nodeAllocatableUpdatePeriodSeconds"] = json!(5);
        let new = driver(spec);
        assert!(csi_driver(&new).is_empty());
        assert!(csi_driver_update(&new, &driver(flags())).is_empty());
        assert_eq!(
            texts(&csi_driver_update(&new, &new)),
            [
                "spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds"
            ]
        );
    }

    #[test]
    fn repeated_audiences_skip_their_expiry() {
        let mut spec = flags();
        spec["tokenRequests"] = json!([
            {"audience": "a", "expirationSeconds": 10},
            {"audience": "a", "expirationSeconds": 10},
            {"audience": "b", "expirationSeconds": 4_294_967_297_i64},
        ]);
        assert_eq!(
            texts(&csi_driver(&driver(spec))),
            [
                "spec.tokenRequests[0].expirationSeconds: Invalid value: 10: may not specify a duration less than 10 minutes",
                "spec.tokenRequests[1].audience: Duplicate value: \"a\"",
                "spec.tokenRequests[2].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds",
            ]
        );
    }

    #[test]
    fn immutable_members_print_their_new_values() {
        let old = {
            let mut spec = flags();
            spec["volumeLifecycleModes"] = json!(["Persistent"]);
            driver(spec)
        };
        let mut new = old.clone();
        new["spec"]["attachRequired"] = json!(false);
        new["spec"]["volumeLifecycleModes"] = json!(["Ephemeral", "Bad"]);
        assert_eq!(
            texts(&csi_driver_update(&new, &old)),
            [
                "spec.volumeLifecycleModes: Unsupported value: \"Bad\": supported values: \"Persistent\", \"Ephemeral\"",
                "spec.attachedRequired: Invalid value: false: field is immutable",
                "spec.volumeLifecycleModes: Invalid value: [\"Ephemeral\",\"Bad\"]: field is immutable",
            ]
        );
    }
}
