//! CSIStorageCapacity (`ValidateCSIStorageCapacity`, `ValidateCSIStorageCapacityUpdate`).
//!
//! The strategy validates an update as a create first, with invalid label values allowed in
//! the node topology when the old one already failed the strict selector rules; the topology
//! and the class name cannot change.

use serde_json::Value;

use super::{go_string, metadata, metadata_update};
use crate::quantity::{self, Quantity};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{
    IMMUTABLE, IS_NEGATIVE, LabelSelectorOptions, validate_label_selector,
};
use crate::validation::names;
use crate::validation::read;

/// Create: `ValidateCSIStorageCapacity` with the strict selector rules.
pub(super) fn csi_storage_capacity(obj: &Value) -> ErrorList {
    validate(obj, LabelSelectorOptions::default())
}

/// `ValidateCSIStorageCapacity`: metadata, node topology, class name, a capacity that is
/// not negative (the maximum volume size is not checked).
fn validate(obj: &Value, selectors: LabelSelectorOptions) -> ErrorList {
    let mut errs = metadata(obj, true);
    validate_label_selector(
        obj.get("nodeTopology"),
        selectors,
        &Path::new("nodeTopology"),
        &mut errs,
    );
    let class = read::text(obj, "storageClassName");
    let class_path = Path::new("storageClassName");
    for msg in names::name_is_dns_subdomain(class, false) {
        errs.push(field::invalid(&class_path, class, &msg));
    }
    if let Some(capacity) = quantity_text(obj, "capacity")
        && Quantity::parse(&capacity).is_ok_and(Quantity::is_negative)
    {
        let printed = quantity::canonical(&capacity).unwrap_or(capacity);
        errs.push(field::invalid(
            &Path::new("capacity"),
            printed.as_str(),
            IS_NEGATIVE,
        ));
    }
    errs
}

/// A quantity member as written (a JSON string or number).
fn quantity_text(obj: &Value, key: &str) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The strategy's update: `ValidateCSIStorageCapacity`, then the metadata update and the two
/// members that cannot change.
pub(super) fn csi_storage_capacity_update(new: &Value, old: &Value) -> ErrorList {
    let mut probe = ErrorList::new();
    validate_label_selector(
        old.get("nodeTopology"),
        LabelSelectorOptions::default(),
        &Path::new("nodeTopology"),
        &mut probe,
    );
    let selectors = LabelSelectorOptions {
        allow_invalid_label_value: !probe.is_empty(),
    };
    let mut errs = validate(new, selectors);
    errs.extend(metadata_update(new, old));
    let topology = selector_of(new);
    let unchanged = match (topology, selector_of(old)) {
        (None, None) => true,
        (Some(a), Some(b)) => read::semantic_eq(Some(a), Some(b)),
        _ => false,
    };
    if !unchanged {
        errs.push(field::invalid(
            &Path::new("nodeTopology"),
            BadValue::Printed(topology.map_or_else(|| "null".to_owned(), go_selector)),
            IMMUTABLE,
        ));
    }
    let class = read::text(new, "storageClassName");
    if class != read::text(old, "storageClassName") {
        errs.push(field::invalid(
            &Path::new("storageClassName"),
            class,
            IMMUTABLE,
        ));
    }
    errs
}

/// The node topology, when set (a pointer: unset differs from empty).
fn selector_of(obj: &Value) -> Option<&Value> {
    obj.get("nodeTopology").filter(|v| v.is_object())
}

/// A `metav1.LabelSelector` as Go's JSON prints it: `matchLabels` before `matchExpressions`,
/// each left out when empty, and each requirement's key, operator and values in that order.
fn go_selector(selector: &Value) -> String {
    let mut out = String::from("{");
    if let Some(labels) = read::object(selector, "matchLabels").filter(|l| !l.is_empty()) {
        out.push_str("\"matchLabels\":");
        field::go_json(&Value::Object(labels.clone()), &mut out);
    }
    let requirements = read::list(selector, "matchExpressions");
    if !requirements.is_empty() {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str("\"matchExpressions\":[");
        for (i, requirement) in requirements.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"key\":");
            go_string(read::text(requirement, "key"), &mut out);
            out.push_str(",\"operator\":");
            go_string(read::text(requirement, "operator"), &mut out);
            let values = read::list(requirement, "values");
            if !values.is_empty() {
                out.push_str(",\"values\":");
                field::go_json(&Value::Array(values.to_vec()), &mut out);
            }
            out.push('}');
        }
        out.push(']');
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn capacity(extra: Value) -> Value {
        let mut obj = json!({"metadata": {"name": "c", "namespace": "d", "resourceVersion": "1"},
            "storageClassName": "sc"});
        if let (Some(o), Some(e)) = (obj.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        obj
    }

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn negative_capacities_print_canonically() {
        assert_eq!(
            texts(&csi_storage_capacity(&capacity(
                json!({"capacity": "-1024Mi"})
            ))),
            ["capacity: Invalid value: \"-1Gi\": must be greater than or equal to 0"]
        );
        assert!(csi_storage_capacity(&capacity(json!({"capacity": 0}))).is_empty());
    }

    #[test]
    fn a_changed_topology_prints_in_go_order() {
        let old = capacity(json!({"nodeTopology": {}}));
        let new = capacity(json!({"nodeTopology": {"matchExpressions": [{"key": "k",
            "operator": "Exists"}], "matchLabels": {"b": "1", "a": "2"}}}));
        assert_eq!(
            texts(&csi_storage_capacity_update(&new, &old)),
            [
                "nodeTopology: Invalid value: {\"matchLabels\":{\"a\":\"2\",\"b\":\"1\"},\"matchExpressions\":[{\"key\":\"k\",\"operator\":\"Exists\"}]}: field is immutable"
            ]
        );
        let unset = capacity(json!({}));
        assert_eq!(
            texts(&csi_storage_capacity_update(&unset, &old)),
            ["nodeTopology: Invalid value: null: field is immutable"]
        );
    }

    #[test]
    fn old_bad_label_values_are_allowed_again() {
        let topology = json!({"nodeTopology": {"matchExpressions": [{"key": "k",
            "operator": "In", "values": ["a b"]}]}});
        let obj = capacity(topology);
        assert_eq!(csi_storage_capacity(&obj).len(), 1);
        assert!(csi_storage_capacity_update(&obj, &obj).is_empty());
    }
}
