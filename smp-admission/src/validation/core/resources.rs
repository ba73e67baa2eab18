//! Resource names and quantities as LimitRange, ResourceQuota, containers and the
//! HorizontalPodAutoscaler check them (`validateResourceName`, `validateContainerResourceName`,
//! `ValidateResourceQuotaResourceName`, `ValidateResourceQuantityValue` and the helpers of
//! `pkg/apis/core/helper` they rely on).

use crate::quantity::{Quantity, canonical};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::IS_NEGATIVE;
use crate::validation::names;

pub(super) const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];
pub(super) const QUOTA_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.storage",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "services.nodeports",
    "services.loadbalancers",
];
pub(super) const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

pub(super) fn is_quota_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-") || name.starts_with("requests.hugepages-")
}

pub(crate) fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

pub(crate) fn is_extended(name: &str) -> bool {
    !is_native(name)
        && !name.starts_with("requests.")
        && names::is_qualified_name(&format!("requests.{name}")).is_empty()
}

pub(crate) fn is_integer_resource(name: &str) -> bool {
    INTEGER_RESOURCES.contains(&name) || is_extended(name)
}

/// `validateResourceName`: a qualified name, and a standard one when it has no prefix.
pub(crate) fn validate_resource_name(name: &str, path: &Path, errs: &mut ErrorList) -> bool {
    if matches!(name, "cpu" | "memory") {
        // The names nearly every list holds: qualified and standard.
        return true;
    }
    let before = errs.len();
    for msg in names::is_qualified_name(name) {
        errs.push(field::invalid(path, name, &msg));
    }
    if errs.len() != before {
        return false;
    }
    if !(name.contains('/') || STANDARD_RESOURCES.contains(&name) || is_quota_hugepages(name)) {
        errs.push(field::invalid(
            path,
            name,
            "must be a standard resource type or fully qualified",
        ));
    }
    true
}

/// `validateContainerResourceName`.
pub(crate) fn validate_container_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    validate_resource_name(name, path, errs);
    if !name.contains('/') {
        let container = matches!(name, "cpu" | "memory" | "ephemeral-storage")
            || name.starts_with("hugepages-");
        if !container {
            errs.push(field::invalid(
                path,
                name,
                "must be a standard resource for containers",
            ));
        }
    } else if !is_native(name) && !is_extended(name) {
        errs.push(field::invalid(
            path,
            name,
            "doesn't follow extended resource name standard",
        ));
    }
}

/// `ValidateResourceQuotaResourceName`.
pub(super) fn validate_quota_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    validate_resource_name(name, path, errs);
    if !(name.contains('/') || QUOTA_RESOURCES.contains(&name) || is_quota_hugepages(name)) {
        errs.push(field::invalid(
            path,
            name,
            "must be a standard resource for quota",
        ));
    }
}

pub(super) fn printed(text: &str) -> String {
    canonical(text).unwrap_or_else(|| text.to_owned())
}

/// Whether the quantity, at milli precision, is a whole number (`MilliValue() % 1000 == 0`).
pub(super) fn is_whole(q: Quantity) -> bool {
    let milli = q.round_up(-3);
    milli.compare(milli.round_up(0)).is_eq()
}

/// `ValidateResourceQuantityValue`.
pub(super) fn validate_quantity_value(name: &str, text: &str, path: &Path, errs: &mut ErrorList) {
    let Ok(q) = Quantity::parse(text) else {
        return;
    };
    if q.is_negative() {
        errs.push(field::invalid(path, printed(text), IS_NEGATIVE));
    }
    if is_integer_resource(name) && !is_whole(q) {
        errs.push(field::invalid(path, printed(text), "must be an integer"));
    }
}

/// A quantity's value as a float, read back from its canonical text.
pub(super) fn as_f64(text: &str) -> f64 {
    let t = printed(text);
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(t.len());
    let (number, suffix) = t.split_at(split);
    let n: f64 = number.parse().unwrap_or(0.0);
    let decimal = |p: i32| n * 10f64.powi(p);
    let binary = |p: i32| n * 2f64.powi(p);
    match suffix {
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        s if s.starts_with(['e', 'E']) => decimal(s[1..].parse().unwrap_or(0)),
        _ => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers() {
        for (t, whole) in [
            ("1", true),
            ("1.5", false),
            ("1000m", true),
            ("1k", true),
            ("0.9999", true),
        ] {
            assert_eq!(is_whole(Quantity::parse(t).unwrap()), whole, "{t}");
        }
    }
}
