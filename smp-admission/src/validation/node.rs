//! The `node.k8s.io` group: RuntimeClass (`ValidateRuntimeClass`,
//! `ValidateRuntimeClassUpdate`).
//!
//! The v1.34 strategy prepares nothing (the `PodOverhead` gate it once checked is gone), and
//! its update runs the whole create check on the new class before the update check: a
//! class's errors come back on every update, then a changed handler.

use std::collections::BTreeSet;

use serde_json::Value;

use super::core::pod::{
    NameRule, PodOptions, validate_resource_requirements, validate_tolerations,
};
use super::field::{self, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::validate_object_meta_update;
use super::meta::{validate_immutable, validate_labels, validate_object_meta};
use super::names;
use super::read;

/// The node kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "node.k8s.io",
    kind: "RuntimeClass",
    namespaced: false,
    create: runtime_class,
    update: runtime_class_update,
}];

/// `ValidateRuntimeClass`.
fn runtime_class(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let handler = read::text(obj, "handler");
    let handler_path = Path::new("handler");
    for msg in names::name_is_dns_label(handler, false) {
        errs.push(field::invalid(&handler_path, handler, &msg));
    }
    if let Some(overhead) = read::member(obj, "overhead").set_object() {
        // The fixed overhead is checked as the limits of a container's resources, with the
        // options of an empty `PodValidationOptions` (huge pages must divide into pages).
        let limits = serde_json::json!({ "limits": overhead.get("podFixed") });
        validate_resource_requirements(
            &limits,
            NameRule::Container,
            &BTreeSet::new(),
            &Path::new("overhead"),
            &PodOptions {
                allow_indivisible_huge_pages_values: false,
                ..PodOptions::default()
            },
            &mut errs,
        );
    }
    if let Some(scheduling) = read::member(obj, "scheduling").set_object() {
        let path = Path::new("scheduling");
        validate_labels(
            scheduling.get("nodeSelector"),
            &path.child("nodeSelector"),
            &mut errs,
        );
        validate_tolerations(
            read::list(scheduling, "tolerations"),
            &path.child("tolerations"),
            &mut errs,
        );
    }
    errs
}

/// The strategy's update: the class checked whole, then its metadata update and the
/// immutable handler.
fn runtime_class_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = runtime_class(new);
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    validate_immutable(
        new.get("handler"),
        old.get("handler"),
        &Path::new("handler"),
        &mut errs,
    );
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_changed_handler_is_refused_after_the_class_checks() {
        let old = json!({"metadata": {"name": "foo", "resourceVersion": "1"}, "handler": "bar"});
        let new = json!({"metadata": {"name": "foo", "resourceVersion": "1"}, "handler": "B"});
        let errs: Vec<String> = runtime_class_update(&new, &old)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(errs.len(), 2);
        assert!(errs[0].starts_with("handler: Invalid value: \"B\": a lowercase RFC 1123 label"));
        assert_eq!(errs[1], "handler: Invalid value: \"B\": field is immutable");
    }

    #[test]
    fn odd_members_do_not_panic() {
        let odd = json!({"metadata": 1, "handler": [], "overhead": {"podFixed": 3},
            "scheduling": {"nodeSelector": 4, "tolerations": {}}});
        assert!(!runtime_class(&odd).is_empty());
        assert!(!runtime_class_update(&odd, &json!(null)).is_empty());
    }
}
