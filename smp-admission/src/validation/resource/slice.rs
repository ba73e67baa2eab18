//! ResourceSlice (`ValidateResourceSlice`, `ValidateResourceSliceUpdate`): a driver's
//! devices in one pool, and the nodes that reach them.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::attributes::{device_attribute, each_named};
use super::{
    dns_label, driver_name, each_item, each_unique_item, metadata, metadata_update, node_name,
    node_selector, part, pool_name,
};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{validate_immutable, validate_label_name};
use crate::validation::names;
use crate::validation::read;

/// The most devices of one slice.
const MAX_DEVICES: usize = 128;
/// The most attributes and capacities of one device, together.
const MAX_ATTRIBUTES_AND_CAPACITIES: usize = 32;

/// `ValidateResourceSlice`.
pub(super) fn resource_slice(obj: &Value) -> ErrorList {
    if super::is_v1beta1(obj) {
        return ErrorList::new();
    }
    let mut errs = metadata(obj, false);
    slice_spec(part(obj, "spec"), None, &Path::new("spec"), &mut errs);
    errs
}

/// `ValidateResourceSliceUpdate`: the driver, the pool's name and the node stay; a device's
/// capacities are checked only when they changed.
pub(super) fn resource_slice_update(new: &Value, old: &Value) -> ErrorList {
    if super::is_v1beta1(new) {
        return ErrorList::new();
    }
    let mut errs = metadata_update(new, old);
    slice_spec(
        part(new, "spec"),
        Some(part(old, "spec")),
        &Path::new("spec"),
        &mut errs,
    );
    errs
}

fn slice_spec(spec: &Value, old: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    driver_name(read::text(spec, "driver"), &path.child("driver"), errs);
    let pool = part(spec, "pool");
    let pool_path = path.child("pool");
    resource_pool(pool, &pool_path, errs);
    if let Some(old) = old {
        let name_path = pool_path.child("name");
        let old_pool = part(old, "pool");
        immutable_text(pool.get("name"), old_pool.get("name"), &name_path, errs);
        immutable_text(
            spec.get("driver"),
            old.get("driver"),
            &path.child("driver"),
            errs,
        );
        validate_immutable(
            spec.get("nodeName").filter(|v| !v.is_null()),
            old.get("nodeName").filter(|v| !v.is_null()),
            &path.child("nodeName"),
            errs,
        );
    }
    node_selection(spec, path, errs);
    let old_devices: HashMap<&str, &Value> = old
        .map(|o| read::list(o, "devices"))
        .unwrap_or(&[])
        .iter()
        .rev()
        .map(|d| (read::text(d, "name"), d))
        .collect();
    let per_device = read::flag(spec, "perDeviceNodeSelection");
    each_unique_item(
        read::list(spec, "devices"),
        MAX_DEVICES,
        |d| read::text(d, "name"),
        Some("name"),
        &path.child("devices"),
        errs,
        |device, at, errs| {
            let old_device = old_devices.get(read::text(device, "name")).copied();
            validate_device(device, old_device, per_device, at, errs);
        },
    );
}

/// `ValidateImmutableField` of a string: the empty string and an absent one are the same.
fn immutable_text(new: Option<&Value>, old: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let new = new.and_then(Value::as_str).unwrap_or("");
    if new != old.and_then(Value::as_str).unwrap_or("") {
        errs.push(field::invalid(
            path,
            new,
            crate::validation::meta::IMMUTABLE,
        ));
    }
}

/// `validateResourcePool`: its name, a positive slice count, a generation of at least 0.
fn resource_pool(pool: &Value, path: &Path, errs: &mut ErrorList) {
    pool_name(read::text(pool, "name"), &path.child("name"), errs);
    let count = read::int(pool, "resourceSliceCount");
    if count <= 0 {
        errs.push(field::invalid(
            &path.child("resourceSliceCount"),
            count,
            "must be greater than zero",
        ));
    }
    let generation = read::int(pool, "generation");
    if generation < 0 {
        errs.push(field::invalid(
            &path.child("generation"),
            generation,
            "must be greater than or equal to zero",
        ));
    }
}

const ONE_OF: &str =
    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";

/// How a slice says where its devices can be used: by one of its four members, never two
/// (`perDeviceNodeSelection` is dropped on create, its gate `DRAPartitionableDevices` being
/// off in v1.34).
fn node_selection(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let mut set: Vec<&str> = Vec::new();
    if let Some(name) = read::opt_text(spec, "nodeName") {
        let at = path.child("nodeName");
        if name.is_empty() {
            errs.push(field::invalid(
                &at,
                "",
                "must be either unset or set to a non-empty string",
            ));
        } else {
            set.push("`nodeName`");
            node_name(name, &at, errs);
        }
    }
    if let Some(selector) = spec.get("nodeSelector").filter(|s| s.is_object()) {
        set.push("`nodeSelector`");
        let at = path.child("nodeSelector");
        node_selector(selector, &at, errs);
        let terms = read::list(selector, "nodeSelectorTerms");
        if terms.len() != 1 {
            errs.push(field::invalid(
                &at.child("nodeSelectorTerms"),
                BadValue::Json(Value::from(terms.to_vec())),
                "must have exactly one node selector term",
            ));
        }
    }
    for (member, shown) in [
        ("allNodes", "`allNodes`"),
        ("perDeviceNodeSelection", "`perDeviceNodeSelection`"),
    ] {
        match read::opt_bool(spec, member) {
            Some(true) => set.push(shown),
            Some(false) => errs.push(field::invalid(
                &path.child(member),
                false,
                "must be either unset or set to true",
            )),
            None => {}
        }
    }
    match set.len() {
        0 => errs.push(field::required(path, ONE_OF)),
        1 => {}
        _ => errs.push(field::invalid(
            path,
            format!("{{{}}}", set.join(", ")),
            &format!("{ONE_OF}, but multiple fields are set"),
        )),
    }
}

const PER_DEVICE_ONE_OF: &str = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec";

/// `validateDevice`: its name, its attributes and capacities (at most 32 together), and its
/// own node selection when the slice leaves it to each device.
fn validate_device(
    device: &Value,
    old: Option<&Value>,
    per_device: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    dns_label(read::text(device, "name"), &path.child("name"), errs);
    let attributes = read::object(device, "attributes");
    let capacity = read::object(device, "capacity");
    let count = attributes.map_or(0, |m| m.len()) + capacity.map_or(0, |m| m.len());
    if count > MAX_ATTRIBUTES_AND_CAPACITIES {
        errs.push(field::invalid(
            path,
            count as i64,
            &format!(
                "the total number of attributes and capacities must not exceed {MAX_ATTRIBUTES_AND_CAPACITIES}"
            ),
        ));
    }
    each_named(
        attributes,
        &path.child("attributes"),
        errs,
        device_attribute,
    );
    // Capacities as they were stored are not checked again.
    let unchanged =
        old.is_some_and(|o| read::semantic_eq(o.get("capacity"), device.get("capacity")));
    if !unchanged {
        // Any quantity is a valid capacity; a request policy needs `DRAConsumableCapacity`.
        each_named(capacity, &path.child("capacity"), errs, |_, _, _| {});
    }
    // Taints survive only on an update of a slice that had some (`DRADeviceTaints` is off);
    // those stored as they are are not checked again.
    let taints_unchanged =
        old.is_some_and(|o| read::semantic_eq(o.get("taints"), device.get("taints")));
    if !taints_unchanged {
        each_item(
            read::list(device, "taints"),
            DEVICE_TAINTS_MAX,
            &path.child("taints"),
            errs,
            device_taint,
        );
    }
    device_node_selection(device, per_device, path, errs);
    binding_conditions(device, path, errs);
}

/// The most taints of one device.
const DEVICE_TAINTS_MAX: usize = 4;
/// The most binding conditions, and the most binding failure conditions, of one device.
const BINDING_CONDITIONS_MAX: usize = 4;

/// `validateDeviceTaint`: a key that is a label name, a value that is a label value, and a
/// known effect.
fn device_taint(taint: &Value, path: &Path, errs: &mut ErrorList) {
    validate_label_name(read::text(taint, "key"), &path.child("key"), errs);
    let value = read::text(taint, "value");
    if !value.is_empty() {
        for msg in names::is_valid_label_value(value) {
            errs.push(field::invalid(&path.child("value"), value, &msg));
        }
    }
    match read::text(taint, "effect") {
        "" => errs.push(field::required(&path.child("effect"), "")),
        "NoSchedule" | "NoExecute" => {}
        other => errs.push(field::not_supported(
            &path.child("effect"),
            other,
            &TAINT_EFFECTS,
        )),
    }
}

/// The taint effects, in the order Go's sorted set lists them.
const TAINT_EFFECTS: [&str; 2] = ["NoExecute", "NoSchedule"];

/// `validateDeviceBindingParameters` (kept only on an update of a slice that used them:
/// `DRADeviceBindingConditions` is off): each list at most 4 label names without repeats,
/// the two lists apart, and neither without the other.
fn binding_conditions(device: &Value, path: &Path, errs: &mut ErrorList) {
    let conditions = read::list(device, "bindingConditions");
    let failures = read::list(device, "bindingFailureConditions");
    let conditions_path = path.child("bindingConditions");
    let failures_path = path.child("bindingFailureConditions");
    for (list, at) in [(conditions, &conditions_path), (failures, &failures_path)] {
        each_item(list, BINDING_CONDITIONS_MAX, at, errs, |c, at, errs| {
            validate_label_name(c.as_str().unwrap_or(""), at, errs);
        });
    }
    let text = |v: &'_ Value| v.as_str().unwrap_or("").to_owned();
    let mut seen = HashSet::new();
    for (i, c) in conditions.iter().enumerate() {
        if !seen.insert(text(c)) {
            errs.push(field::duplicate(&conditions_path.index(i), text(c)));
        }
    }
    let in_conditions = seen;
    let mut seen = HashSet::new();
    for (i, c) in failures.iter().enumerate() {
        let at = failures_path.index(i);
        if !seen.insert(text(c)) {
            errs.push(field::duplicate(&at, text(c)));
        }
        if in_conditions.contains(&text(c)) {
            errs.push(field::invalid(
                &at,
                text(c),
                "bindingFailureConditions must not overlap with bindingConditions",
            ));
        }
    }
    if conditions.is_empty() && !failures.is_empty() {
        errs.push(field::invalid(
            &conditions_path,
            BadValue::Json(Value::Null),
            "bindingConditions are required to use bindingFailureConditions",
        ));
    }
    if failures.is_empty() && !conditions.is_empty() {
        errs.push(field::invalid(
            &failures_path,
            BadValue::Json(Value::Null),
            "bindingFailureConditions are required to use bindingConditions",
        ));
    }
}

fn device_node_selection(device: &Value, per_device: bool, path: &Path, errs: &mut ErrorList) {
    let name = read::opt_text(device, "nodeName");
    let selector = device.get("nodeSelector").filter(|s| s.is_object());
    let all = read::opt_bool(device, "allNodes");
    if !per_device {
        if name.is_some() || selector.is_some() || all.is_some() {
            errs.push(field::invalid(
                path,
                BadValue::Json(Value::Null),
                "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
            ));
        }
        return;
    }
    let mut set: Vec<&str> = Vec::new();
    if let Some(name) = name {
        let at = path.child("nodeName");
        if name.is_empty() {
            errs.push(field::invalid(&at, "", "must not be empty"));
        } else {
            set.push("`nodeName`");
            node_name(name, &at, errs);
        }
    }
    if let Some(selector) = selector {
        set.push("`nodeSelector`");
        node_selector(selector, &path.child("nodeSelector"), errs);
    }
    match all {
        Some(true) => set.push("`allNodes`"),
        Some(false) => errs.push(field::invalid(
            &path.child("allNodes"),
            false,
            "must be either unset or set to true",
        )),
        None => {}
    }
    match set.len() {
        0 => errs.push(field::required(path, PER_DEVICE_ONE_OF)),
        1 => {}
        _ => errs.push(field::invalid(
            path,
            format!("{{{}}}", set.join(", ")),
            PER_DEVICE_ONE_OF,
        )),
    }
}
