//! CSINode (`ValidateCSINode`, `ValidateCSINodeUpdate`). The strategy allows the longer node
//! IDs (256 characters) on create and update alike, and validates an update as a create
//! twice (once itself, once inside `ValidateCSINodeUpdate`) before comparing the drivers.
//! Neither checks the metadata update.
//!
//! With `MutableCSINodeAllocatableCount` off (v1.34), a driver the old node also lists (by
//! name) may not change at all, its allocatable count included.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::{csi_driver_name, go_string, metadata, spec_of};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{IMMUTABLE, IS_NEGATIVE};
use crate::validation::names;
use crate::validation::read;
use crate::validation::seen::Seen;

/// The longest node ID (`AllowLongNodeID`, which the strategy always sets).
const NODE_ID_MAX_LENGTH: usize = 256;

/// `ValidateCSINode`.
pub(super) fn csi_node(obj: &Value) -> ErrorList {
    let mut errs = metadata(obj, false);
    let path = Path::names(&["spec", "drivers"]);
    let mut names = Seen::new();
    for (i, driver) in drivers_of(obj).iter().enumerate() {
        validate_driver(driver, &mut names, &path.index(i), &mut errs);
    }
    errs
}

/// The strategy's update: `ValidateCSINode` twice, then each driver of the old node unchanged
/// in the new one.
pub(super) fn csi_node_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = csi_node(new);
    errs.extend(csi_node(new));
    drivers_unchanged(drivers_of(new), drivers_of(old), &mut errs);
    errs
}

fn drivers_of(obj: &Value) -> &[Value] {
    read::list(spec_of(obj), "drivers")
}

/// `validateCSINodeDriver`: name, node ID, allocatable count, a name met before, then each
/// topology key (reported at the driver itself).
fn validate_driver<'a>(
    driver: &'a Value,
    names_met: &mut Seen<'a>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let name = read::text(driver, "name");
    csi_driver_name(name, &path.child("name"), errs);
    let node_id = read::text(driver, "nodeID");
    let id_path = path.child("nodeID");
    if node_id.is_empty() {
        errs.push(field::required(&id_path, ""));
    }
    if node_id.len() > NODE_ID_MAX_LENGTH {
        errs.push(field::invalid(
            &id_path,
            node_id,
            &format!("must be {NODE_ID_MAX_LENGTH} characters or less"),
        ));
    }
    let count = driver
        .get("allocatable")
        .and_then(|a| read::opt_int(a, "count"));
    if let Some(count) = count.filter(|c| *c < 0) {
        let allocatable = path.child("allocatable");
        errs.push(field::invalid(
            &allocatable.child("count"),
            count,
            IS_NEGATIVE,
        ));
    }
    if !names_met.insert(name) {
        errs.push(field::duplicate(&path.child("name"), name));
    }
    let mut keys = Seen::new();
    for key in read::list(driver, "topologyKeys") {
        let key = key.as_str().unwrap_or("");
        if key.is_empty() {
            errs.push(field::required(path, ""));
        }
        if !keys.insert(key) {
            errs.push(field::duplicate(path, key));
        }
        for msg in names::is_qualified_name(key) {
            errs.push(field::invalid(path, key, &msg));
        }
    }
}

/// For each old driver in order, each new driver of the same name in order must equal it;
/// the drivers are found by name in a map rather than by Go's nested loops.
fn drivers_unchanged(new: &[Value], old: &[Value], errs: &mut ErrorList) {
    let mut by_name: HashMap<&str, Vec<&Value>> = HashMap::new();
    for driver in new {
        by_name
            .entry(read::text(driver, "name"))
            .or_default()
            .push(driver);
    }
    let path = Path::names(&["spec", "drivers"]);
    for old_driver in old {
        let Some(same_name) = by_name.get(read::text(old_driver, "name")) else {
            continue;
        };
        for new_driver in same_name {
            if !drivers_equal(new_driver, old_driver) {
                errs.push(field::invalid(
                    &path,
                    BadValue::Printed(go_driver(new_driver)),
                    IMMUTABLE,
                ));
            }
        }
    }
}

/// Semantic equality of two `CSINodeDriver`s: topology keys absent or empty alike, while an
/// allocatable that is set differs from one that is not, and so does its count.
fn drivers_equal(a: &Value, b: &Value) -> bool {
    let keys = |d| read::list(d, "topologyKeys");
    let allocatable = |d: &'_ Value| {
        d.get("allocatable")
            .filter(|a| a.is_object())
            .map(|a| read::opt_int(a, "count"))
    };
    ["name", "nodeID"]
        .iter()
        .all(|m| read::text(a, m) == read::text(b, m))
        && keys(a) == keys(b)
        && allocatable(a) == allocatable(b)
}

/// The internal `CSINodeDriver` as Go's JSON prints it: Go's member names, in order.
fn go_driver(driver: &Value) -> String {
    let mut out = String::from("{\"Name\":");
    go_string(read::text(driver, "name"), &mut out);
    out.push_str(",\"NodeID\":");
    go_string(read::text(driver, "nodeID"), &mut out);
    out.push_str(",\"TopologyKeys\":");
    match driver.get("topologyKeys").and_then(Value::as_array) {
        Some(keys) => {
            out.push('[');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_string(key.as_str().unwrap_or(""), &mut out);
            }
            out.push(']');
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"Allocatable\":");
    match driver.get("allocatable").filter(|a| a.is_object()) {
        Some(allocatable) => match read::opt_int(allocatable, "count") {
            Some(count) => {
                let _ = write!(out, "{{\"Count\":{count}}}");
            }
            None => out.push_str("{\"Count\":null}"),
        },
        None => out.push_str("null"),
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(drivers: Value) -> Value {
        json!({"metadata": {"name": "n", "resourceVersion": "1"}, "spec": {"drivers": drivers}})
    }

    #[test]
    fn a_changed_driver_prints_as_the_internal_struct() {
        let old = node(json!([{"name": "d", "nodeID": "x", "allocatable": {"count": 2}}]));
        let new = node(json!([{"name": "d", "nodeID": "x", "topologyKeys": ["k"]}]));
        let errs = csi_node_update(&new, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.drivers: Invalid value: {\"Name\":\"d\",\"NodeID\":\"x\",\"TopologyKeys\":[\"k\"],\"Allocatable\":null}: field is immutable"
        );
    }

    #[test]
    fn allocatable_presence_and_count_both_matter() {
        let bare = json!({"name": "d", "nodeID": "x"});
        let empty = json!({"name": "d", "nodeID": "x", "allocatable": {}, "topologyKeys": []});
        let nulled = json!({"name": "d", "nodeID": "x", "allocatable": {"count": null}});
        assert!(!drivers_equal(&bare, &empty));
        assert!(drivers_equal(&empty, &nulled));
        assert_eq!(
            go_driver(&empty),
            "{\"Name\":\"d\",\"NodeID\":\"x\",\"TopologyKeys\":[],\"Allocatable\":{\"Count\":null}}"
        );
    }

    #[test]
    fn topology_keys_are_reported_at_the_driver() {
        let obj = node(json!([{"name": "d", "nodeID": "x", "topologyKeys": ["a", "a", ""]}]));
        let fields: Vec<String> = csi_node(&obj)
            .iter()
            .map(|e| format!("{} {}", e.kind.reason(), e.field))
            .collect();
        assert_eq!(
            fields,
            [
                "FieldValueDuplicate spec.drivers[0]",
                "FieldValueRequired spec.drivers[0]",
                "FieldValueInvalid spec.drivers[0]",
                "FieldValueInvalid spec.drivers[0]",
            ]
        );
    }
}
