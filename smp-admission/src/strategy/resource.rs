//! The `resource.k8s.io/v1` strategies' `dropDisabledFields` (and `v1beta2`'s, laid out
//! alike): the fields of the DRA gates off in v1.34 (`DRADeviceTaints`,
//! `DRAPartitionableDevices`, `DRAExtendedResource`, `DRAConsumableCapacity`,
//! `DRADeviceBindingConditions`) are dropped from an object being created, and from an update
//! unless the old object already used the feature. The gates on (`DRAPrioritizedList`,
//! `DRAAdminAccess`, `DRAResourceClaimDeviceStatus`) drop nothing.

use std::collections::HashSet;

use serde_json::Value;

/// One feature's members, as found in the objects of one kind: each entry is a place (the
/// members to walk, `*` for every item of a list or every value of a map) and the member
/// dropped there.
type Feature = &'static [(&'static [&'static str], &'static str)];

const CLASS_EXTENDED_RESOURCE: Feature = &[(&["spec"], "extendedResourceName")];

/// Where a claim's requests are, from its devices.
const CLAIM_TAINTS: Feature = &[
    (&["requests", "*", "exactly"], "tolerations"),
    (&["requests", "*", "firstAvailable", "*"], "tolerations"),
];
const CLAIM_CONSUMABLE: Feature = &[
    (&["requests", "*", "exactly"], "capacity"),
    (&["requests", "*", "firstAvailable", "*"], "capacity"),
    (&["constraints", "*"], "distinctAttribute"),
];

const SLICE_TAINTS: Feature = &[(&["spec", "devices", "*"], "taints")];
const SLICE_PARTITIONABLE: Feature = &[
    (&["spec"], "sharedCounters"),
    (&["spec"], "perDeviceNodeSelection"),
    (&["spec", "devices", "*"], "consumesCounters"),
    (&["spec", "devices", "*"], "nodeName"),
    (&["spec", "devices", "*"], "nodeSelector"),
    (&["spec", "devices", "*"], "allNodes"),
];
const SLICE_BINDING: Feature = &[
    (&["spec", "devices", "*"], "bindsToNode"),
    (&["spec", "devices", "*"], "bindingConditions"),
    (&["spec", "devices", "*"], "bindingFailureConditions"),
];
const SLICE_CONSUMABLE: Feature = &[
    (&["spec", "devices", "*"], "allowMultipleAllocations"),
    (&["spec", "devices", "*", "capacity", "*"], "requestPolicy"),
];

/// A claim's status: its allocation's results carry the tolerations (`DRADeviceTaints`),
/// the binding conditions (`DRADeviceBindingConditions`), a share ID and the capacity used
/// (`DRAConsumableCapacity`); a device's status its share ID.
const STATUS_TAINTS: Feature = &[(
    &["status", "allocation", "devices", "results", "*"],
    "tolerations",
)];
const STATUS_BINDING: Feature = &[
    (
        &["status", "allocation", "devices", "results", "*"],
        "bindingConditions",
    ),
    (
        &["status", "allocation", "devices", "results", "*"],
        "bindingFailureConditions",
    ),
];
const STATUS_CONSUMABLE: Feature = &[
    (
        &["status", "allocation", "devices", "results", "*"],
        "shareID",
    ),
    (
        &["status", "allocation", "devices", "results", "*"],
        "consumedCapacity",
    ),
    (&["status", "devices", "*"], "shareID"),
];

/// Prepares a ResourceClaim's status write over `old` as its status strategy does: the
/// statuses of devices that the write deallocates go (`dropDeallocatedStatusDevices`), then
/// the status members of gates off.
pub(super) fn prepare_status(new: &mut Value, old: &Value) {
    drop_deallocated_device_statuses(new, old);
    for feature in [STATUS_TAINTS, STATUS_BINDING, STATUS_CONSUMABLE] {
        drop_unless_used(new, Some(old), feature);
    }
}

/// The IDs (`driver/pool/device`) of the devices allocated to a claim.
fn allocated_ids(claim: &Value) -> HashSet<String> {
    let mut results = Vec::new();
    visit(
        claim,
        &["status", "allocation", "devices", "results", "*"],
        &mut results,
    );
    results.into_iter().map(device_id).collect()
}

fn device_id(device: &Value) -> String {
    let text = |m: &str| device.get(m).and_then(Value::as_str).unwrap_or("");
    format!("{}/{}/{}", text("driver"), text("pool"), text("device"))
}

/// Removes from `new`'s `status.devices` the devices `old` had allocated and `new` no longer
/// has; the list goes when nothing is left of it.
fn drop_deallocated_device_statuses(new: &mut Value, old: &Value) {
    let still = allocated_ids(new);
    let gone: HashSet<String> = allocated_ids(old)
        .into_iter()
        .filter(|id| !still.contains(id))
        .collect();
    let Some(status) = new.get_mut("status").and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(Value::Array(devices)) = status.get_mut("devices") {
        devices.retain(|d| !gone.contains(&device_id(d)));
        if devices.is_empty() {
            status.remove("devices");
        }
    }
}

/// The values at `place` below `value`.
fn visit<'a>(value: &'a Value, place: &[&str], found: &mut Vec<&'a Value>) {
    let Some((first, rest)) = place.split_first() else {
        found.push(value);
        return;
    };
    match (*first, value) {
        ("*", Value::Array(items)) => items.iter().for_each(|v| visit(v, rest, found)),
        ("*", Value::Object(map)) => map.values().for_each(|v| visit(v, rest, found)),
        (name, Value::Object(map)) => {
            if let Some(v) = map.get(name) {
                visit(v, rest, found);
            }
        }
        _ => {}
    }
}

fn visit_mut<'a>(value: &'a mut Value, place: &[&str], found: &mut Vec<&'a mut Value>) {
    let Some((first, rest)) = place.split_first() else {
        found.push(value);
        return;
    };
    match (*first, value) {
        ("*", Value::Array(items)) => items.iter_mut().for_each(|v| visit_mut(v, rest, found)),
        ("*", Value::Object(map)) => map.values_mut().for_each(|v| visit_mut(v, rest, found)),
        (name, Value::Object(map)) => {
            if let Some(v) = map.get_mut(name) {
                visit_mut(v, rest, found);
            }
        }
        _ => {}
    }
}

/// Whether `object` uses the feature: one of its members is set and not empty.
fn in_use(object: &Value, feature: Feature) -> bool {
    feature.iter().any(|(place, member)| {
        let mut found = Vec::new();
        visit(object, place, &mut found);
        found.iter().any(|v| {
            v.get(*member).is_some_and(|m| match m {
                Value::Null => false,
                Value::Array(a) => !a.is_empty(),
                Value::Object(o) => !o.is_empty(),
                _ => true,
            })
        })
    })
}

/// Drops the feature's members from `new` unless `old` uses it.
fn drop_unless_used(new: &mut Value, old: Option<&Value>, feature: Feature) {
    if old.is_some_and(|o| in_use(o, feature)) {
        return;
    }
    for (place, member) in feature {
        let mut found = Vec::new();
        visit_mut(new, place, &mut found);
        for value in found {
            if let Some(map) = value.as_object_mut() {
                map.remove(*member);
            }
        }
    }
}

/// Drops the members of gates off from a resource object `kind`, created or replacing `old`.
pub(super) fn drop_disabled_fields(new: &mut Value, old: Option<&Value>, kind: &str) {
    match kind {
        "DeviceClass" => drop_unless_used(new, old, CLASS_EXTENDED_RESOURCE),
        "ResourceClaim" | "ResourceClaimTemplate" => {
            let devices: &[&str] = if kind == "ResourceClaim" {
                &["spec", "devices"]
            } else {
                &["spec", "spec", "devices"]
            };
            let old_devices = old.and_then(|o| devices.iter().try_fold(o, |v, n| v.get(*n)));
            if let Some(new_devices) = devices.iter().try_fold(new, |v, n| v.get_mut(*n)) {
                drop_unless_used(new_devices, old_devices, CLAIM_TAINTS);
                drop_unless_used(new_devices, old_devices, CLAIM_CONSUMABLE);
            }
        }
        "ResourceSlice" => {
            for feature in [
                SLICE_TAINTS,
                SLICE_PARTITIONABLE,
                SLICE_BINDING,
                SLICE_CONSUMABLE,
            ] {
                drop_unless_used(new, old, feature);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn gated_members_go_unless_the_old_object_used_them() {
        let slice = |device: Value| json!({"spec": {"driver": "d", "perDeviceNodeSelection": true, "devices": [device]}});
        let mut created = slice(
            json!({"name": "a", "taints": [{"key": "k", "effect": "NoSchedule"}],
            "nodeName": "n", "capacity": {"mem": {"value": "1Gi", "requestPolicy": {}}}}),
        );
        drop_disabled_fields(&mut created, None, "ResourceSlice");
        assert_eq!(
            created,
            json!({"spec": {"driver": "d", "devices": [
            {"name": "a", "capacity": {"mem": {"value": "1Gi"}}}]}})
        );

        let old = slice(json!({"name": "a", "nodeName": "n"}));
        let mut updated = slice(json!({"name": "a", "nodeName": "m", "taints": [{"key": "k"}]}));
        drop_disabled_fields(&mut updated, Some(&old), "ResourceSlice");
        assert_eq!(updated, slice(json!({"name": "a", "nodeName": "m"})));

        let mut claim = json!({"spec": {"devices": {"requests": [{"name": "r", "exactly": {
            "deviceClassName": "c", "tolerations": [{"operator": "Exists"}]}}]}}});
        drop_disabled_fields(&mut claim, None, "ResourceClaim");
        assert_eq!(
            claim["spec"]["devices"]["requests"][0]["exactly"],
            json!({"deviceClassName": "c"})
        );
    }
}
