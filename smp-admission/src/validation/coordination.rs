//! The `coordination.k8s.io` group: Lease (`ValidateLease`, `ValidateLeaseUpdate`).
//!
//! `spec.strategy` and `spec.preferredHolder` belong to the `CoordinatedLeaderElection`
//! gate, off in v1.34: the strategy drops them on create, and on update keeps each only when
//! the old Lease had it. Dropped fields are not validated.

use serde_json::Value;

use super::field::{self, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::{validate_object_meta, validate_object_meta_update};
use super::names;
use super::read;

/// The coordination kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "coordination.k8s.io",
    kind: "Lease",
    namespaced: true,
    create: lease,
    update: lease_update,
}];

/// The only strategy Kubernetes defines (names without a `/` must be one of these).
const LEASE_STRATEGIES: [&str; 1] = ["OldestEmulationVersion"];

fn spec_of(obj: &Value) -> &Value {
    obj.get("spec").unwrap_or(&Value::Null)
}

/// The gated fields as the strategy leaves them: `(strategy, preferredHolder)`.
type Gated<'a> = (Option<&'a Value>, Option<&'a Value>);

fn set<'a>(spec: &'a Value, key: &str) -> Option<&'a Value> {
    spec.get(key).filter(|v| !v.is_null())
}

fn lease(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(spec_of(obj), (None, None), &mut errs);
    errs
}

fn lease_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let (spec, old_spec) = (spec_of(new), spec_of(old));
    let keep = |key: &str| set(old_spec, key).and_then(|_| set(spec, key));
    validate_spec(spec, (keep("strategy"), keep("preferredHolder")), &mut errs);
    errs
}

/// `ValidateLeaseSpec`, given the gated fields that survived the strategy.
fn validate_spec(spec: &Value, gated: Gated, errs: &mut ErrorList) {
    let path = Path::new("spec");
    if let Some(duration) = read::opt_int(spec, "leaseDurationSeconds")
        && duration <= 0
    {
        errs.push(field::invalid(
            &path.child("leaseDurationSeconds"),
            duration,
            "must be greater than 0",
        ));
    }
    if let Some(transitions) = read::opt_int(spec, "leaseTransitions")
        && transitions < 0
    {
        errs.push(field::invalid(
            &path.child("leaseTransitions"),
            transitions,
            "must be greater than or equal to 0",
        ));
    }
    let (strategy, preferred_holder) = gated;
    let strategy = strategy.map(|s| s.as_str().unwrap_or(""));
    if let Some(strategy) = strategy {
        let strategy_path = path.child("strategy");
        validate_strategy(strategy, &strategy_path, errs);
    }
    let holder = preferred_holder.and_then(Value::as_str).unwrap_or("");
    if !holder.is_empty() && strategy.is_none_or(str::is_empty) {
        errs.push(field::forbidden(
            &path.child("preferredHolder"),
            "may only be specified if `strategy` is defined",
        ));
    }
}

/// `ValidateCoordinatedLeaseStrategy`, which reports at `<path>.strategy` (so a Lease's
/// errors land on `spec.strategy.strategy`): a bare name must be a known strategy, a
/// prefixed one a qualified name.
fn validate_strategy(strategy: &str, path: &Path, errs: &mut ErrorList) {
    let at = path.child("strategy");
    if !strategy.contains('/') {
        if !LEASE_STRATEGIES.contains(&strategy) {
            errs.push(field::not_supported(&at, strategy, &LEASE_STRATEGIES));
        }
    } else {
        for msg in names::is_qualified_name(strategy) {
            errs.push(field::invalid(&at, strategy, &msg));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strategy_errors_repeat_the_member_name() {
        let old = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": "l", "namespace": "d", "resourceVersion": "1"},
            "spec": {"strategy": "OldestEmulationVersion"}});
        let mut new = old.clone();
        new["spec"]["strategy"] = json!("Newest");
        let errs = lease_update(&new, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.strategy.strategy: Unsupported value: \"Newest\": supported values: \"OldestEmulationVersion\""
        );
        assert!(lease(&new).is_empty());
    }

    #[test]
    fn pointer_values_print_dereferenced() {
        let obj = json!({"metadata": {"name": "l", "namespace": "d"}, "spec": {"leaseDurationSeconds": -5}});
        assert_eq!(
            lease(&obj)[0].to_string(),
            "spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0"
        );
    }
}
