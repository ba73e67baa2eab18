//! The `scheduling.k8s.io` group: PriorityClass (`ValidatePriorityClass`,
//! `ValidatePriorityClassUpdate`, as the v1.34 strategy calls them).
//!
//! The strategy drops no field in v1.34 (the `NonPreemptingPriority` gate is gone). An update
//! runs `ValidatePriorityClassUpdate` alone, so the reserved `system-` names and the ceiling
//! on user-defined values are checked on create only: neither name nor value can change later.

use serde_json::Value;

use super::field::{self, BadValue, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::{IMMUTABLE, validate_object_meta, validate_object_meta_update};
use super::names;
use super::read;

/// The scheduling kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "scheduling.k8s.io",
    kind: "PriorityClass",
    namespaced: false,
    create: priority_class,
    update: priority_class_update,
}];

/// Names with this prefix belong to the classes the apiserver creates at boot.
const SYSTEM_PREFIX: &str = "system-";

/// The highest value a class not of the system may have.
const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;

/// The system classes, each with the only value it may have; neither is a global default.
const SYSTEM_CLASSES: [(&str, i64); 2] = [
    (
        "system-node-critical",
        2 * HIGHEST_USER_DEFINABLE_PRIORITY + 1000,
    ),
    (
        "system-cluster-critical",
        2 * HIGHEST_USER_DEFINABLE_PRIORITY,
    ),
];

const PREEMPTION_POLICIES: [&str; 2] = ["PreemptLowerPriority", "Never"];

fn name_of(obj: &Value) -> &str {
    obj.get("metadata").map_or("", |m| read::text(m, "name"))
}

/// `ValidatePriorityClass`.
fn priority_class(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let name = name_of(obj);
    let value = read::int(obj, "value");
    if name.starts_with(SYSTEM_PREFIX) {
        if let Err(why) = known_system_class(name, value, read::flag(obj, "globalDefault")) {
            errs.push(field::forbidden(
                &Path::names(&["metadata", "name"]),
                &format!(
                    "priority class names with '{SYSTEM_PREFIX}' prefix are reserved for system use only. error: {why}"
                ),
            ));
        }
    } else if value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errs.push(field::forbidden(
            &Path::new("value"),
            &format!(
                "maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
            ),
        ));
    }
    if let Some(policy) = read::opt_text(obj, "preemptionPolicy") {
        validate_preemption_policy(policy, &Path::new("preemptionPolicy"), &mut errs);
    }
    errs
}

/// `IsKnownSystemPriorityClass`: the reason a `system-` class is not one of the boot ones.
fn known_system_class(name: &str, value: i64, global_default: bool) -> Result<(), String> {
    let Some(&(known, known_value)) = SYSTEM_CLASSES.iter().find(|(n, _)| *n == name) else {
        return Err(format!("{name} is not a known system priority class"));
    };
    if value != known_value {
        return Err(format!(
            "value of {known} PriorityClass must be {known_value}"
        ));
    }
    if global_default {
        return Err(format!(
            "globalDefault of {known} PriorityClass must be false"
        ));
    }
    Ok(())
}

/// `ValidatePreemptionPolicy` of the core group. The value is a `*PreemptionPolicy`, which
/// Go prints as JSON.
fn validate_preemption_policy(policy: &str, path: &Path, errs: &mut ErrorList) {
    match policy {
        "PreemptLowerPriority" | "Never" => {}
        "" => errs.push(field::required(path, "")),
        other => errs.push(field::not_supported(
            path,
            BadValue::Json(Value::from(other)),
            &PREEMPTION_POLICIES,
        )),
    }
}

/// `ValidatePriorityClassUpdate`: the metadata update, then value and preemption policy,
/// both immutable.
fn priority_class_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    if read::int(new, "value") != read::int(old, "value") {
        errs.push(field::forbidden(
            &Path::new("value"),
            "may not be changed in an update.",
        ));
    }
    // A pointer: unset and set differ even when the set one is empty.
    let policy = read::opt_text(new, "preemptionPolicy");
    if policy != read::opt_text(old, "preemptionPolicy") {
        errs.push(field::invalid(
            &Path::new("preemptionPolicy"),
            BadValue::Json(policy.map_or(Value::Null, Value::from)),
            IMMUTABLE,
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn system_names_must_be_the_boot_classes() {
        let class = json!({"metadata": {"name": "system-node-critical"}, "value": 5});
        assert_eq!(
            texts(&priority_class(&class)),
            [
                "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"
            ]
        );
        let boot = json!({"metadata": {"name": "system-cluster-critical"}, "value": 2_000_000_000});
        assert!(priority_class(&boot).is_empty());
        let default = json!({"metadata": {"name": "system-cluster-critical"},
            "value": 2_000_000_000, "globalDefault": true});
        assert!(texts(&priority_class(&default))[0].ends_with(
            "error: globalDefault of system-cluster-critical PriorityClass must be false"
        ));
    }

    #[test]
    fn user_values_have_a_ceiling() {
        let class = json!({"metadata": {"name": "high"}, "value": 1_000_000_001});
        assert_eq!(
            texts(&priority_class(&class)),
            ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]
        );
    }

    #[test]
    fn preemption_policy_is_printed_as_a_pointer_and_immutable() {
        let class = json!({"metadata": {"name": "a"}, "value": 1, "preemptionPolicy": "Sometimes"});
        assert_eq!(
            texts(&priority_class(&class)),
            [
                "preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\""
            ]
        );
        let old = json!({"metadata": {"name": "a", "resourceVersion": "1"}, "value": 1,
            "preemptionPolicy": "Never"});
        let mut new = old.clone();
        new.as_object_mut().map(|o| o.remove("preemptionPolicy"));
        assert_eq!(
            texts(&priority_class_update(&new, &old)),
            ["preemptionPolicy: Invalid value: null: field is immutable"]
        );
    }

    #[test]
    fn members_of_the_wrong_type_do_not_panic() {
        let odd =
            json!({"metadata": [], "value": "x", "preemptionPolicy": 3, "globalDefault": "y"});
        assert_eq!(priority_class(&odd).len(), 1);
        assert!(!priority_class_update(&odd, &json!(null)).is_empty());
    }
}
