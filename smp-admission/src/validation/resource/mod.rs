//! The `resource.k8s.io` group, dynamic resource allocation (`pkg/apis/resource/validation`
//! as the v1.34 strategies call it, GA in v1.34 as `resource.k8s.io/v1`): DeviceClass
//! ([`device_class`]), ResourceClaim and ResourceClaimTemplate ([`claim`], their requests in
//! [`requests`]), ResourceSlice ([`slice`], device attributes and capacities in
//! [`attributes`]); the parts they share: CEL selectors ([`selectors`]), opaque driver
//! configuration ([`config`]) and the list checks below.
//!
//! The rules read the v1 layout, which `v1beta2` shares; an object written in `v1beta1`
//! (requests without `exactly`, devices under `basic`) is not checked.
//!
//! DeviceClass and ResourceSlice live outside namespaces; ResourceClaim and
//! ResourceClaimTemplate inside one. A claim's status writes are checked by [`status`].
//!
//! Feature gates at their v1.34 defaults, and what the strategies do with them
//! (`crate::strategy` drops the fields of gates off before validation):
//! - on: `DRAPrioritizedList` (`firstAvailable`), `DRAAdminAccess` (`adminAccess`),
//!   `DRAResourceClaimDeviceStatus` (a claim's `status.devices`);
//! - off, so their fields are dropped on create and kept on update only when the old object
//!   used them: `DRADeviceTaints` (device taints, request tolerations),
//!   `DRAPartitionableDevices` (shared counters, per-device node selection),
//!   `DRAExtendedResource` (a class's `extendedResourceName`), `DRAConsumableCapacity`
//!   (capacity requests and policies, `distinctAttribute`, `allowMultipleAllocations`),
//!   `DRADeviceBindingConditions` (a device's binding conditions).
//!
//! What the strategies add: the update of a class, a claim or a template runs the create's
//! rules on the new object and then the update's, which check the spec again (a claim's and a
//! template's spec is immutable, its CEL expressions then treated as stored; a class's
//! unchanged configuration is spared the size limit, which the create's rules apply all the
//! same), so a bad spec is reported twice; a slice's update runs the update's rules alone.
//! The claim status strategy keeps the spec and drops the statuses of devices no longer
//! allocated (`crate::strategy`).
//!
//! Where the answers differ from the server's:
//! - CEL selectors are parsed, not type-checked: a reference to an unknown variable, a
//!   result that is not a bool and the cost limit are not checked, and a parse error's words
//!   after `compilation failed: ` are the `cel` crate's.
//! - An opaque configuration's size is that of its compact JSON; the server counts the bytes
//!   the client sent, white space included.
//! - Go walks maps in random order: errors of several bad attributes or capacities come here
//!   in key order.
//! - A claim's `adminAccess` is allowed in any namespace: the server's check of the
//!   namespace's `resource.k8s.io/admin-access` label needs the cluster's state.
//! - Of the fields of gates off that an old object kept, shared counters and a device's
//!   counter consumption are not checked.

mod attributes;
mod claim;
mod config;
mod device_class;
mod requests;
mod selectors;
mod slice;
mod status;

/// The kinds' metadata update checks, which their files take from here.
use crate::validation::meta::validate_object_meta_update_of as metadata_update;
use serde_json::Value;

use super::field::{self, ErrorList, Path};
use super::kind_rules::{KindRules, StatusRules};
use super::meta::validate_object_meta;
use super::names;
use super::seen::Seen;

const GROUP: &str = "resource.k8s.io";

/// The resource kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: GROUP,
        kind: "DeviceClass",
        namespaced: false,
        create: device_class::device_class,
        update: device_class::device_class_update,
    },
    KindRules {
        group: GROUP,
        kind: "ResourceClaim",
        namespaced: true,
        create: claim::resource_claim,
        update: claim::resource_claim_update,
    },
    KindRules {
        group: GROUP,
        kind: "ResourceClaimTemplate",
        namespaced: true,
        create: claim::resource_claim_template,
        update: claim::resource_claim_template_update,
    },
    KindRules {
        group: GROUP,
        kind: "ResourceSlice",
        namespaced: false,
        create: slice::resource_slice,
        update: slice::resource_slice_update,
    },
];

/// The resource kinds whose status rules are here.
pub(crate) static STATUS: &[StatusRules] = &[StatusRules {
    group: GROUP,
    kind: "ResourceClaim",
    update: status::resource_claim_status_update,
}];

/// The most requests a claim may hold (also the most results of an allocation).
const DEVICE_REQUESTS_MAX: usize = 32;
/// The most constraints of a claim.
const DEVICE_CONSTRAINTS_MAX: usize = 32;
/// The most configurations of a claim or a class.
const DEVICE_CONFIG_MAX: usize = 32;
/// The most selectors of a request or a class.
const DEVICE_SELECTORS_MAX: usize = 32;
/// The most subrequests of a request's `firstAvailable`.
const FIRST_AVAILABLE_MAX: usize = 8;

/// `ValidateObjectMeta` of the core group; every name of this group is a DNS subdomain.
fn metadata(obj: &Value, namespaced: bool) -> ErrorList {
    validate_object_meta(
        obj.get("metadata"),
        namespaced,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}

/// Whether `obj` is written in `resource.k8s.io/v1beta1`, whose requests and devices are
/// laid out otherwise (no `exactly`, devices under `basic`): its rules are not here, so such
/// an object is not checked. `v1beta2` has v1's layout member for member.
fn is_v1beta1(obj: &Value) -> bool {
    obj.get("apiVersion").and_then(Value::as_str) == Some("resource.k8s.io/v1beta1")
}

/// The member `key` of `v` (a struct that is not a pointer: absent reads as empty).
fn part<'a>(v: &'a Value, key: &str) -> &'a Value {
    v.get(key).unwrap_or(&Value::Null)
}

/// `validateSlice`: each item, then the size when it is past `max` (the list is checked
/// whole all the same: the size is one more error).
fn each_item<'a>(
    items: &'a [Value],
    max: usize,
    path: &Path,
    errs: &mut ErrorList,
    mut check: impl FnMut(&'a Value, &Path, &mut ErrorList),
) {
    for (i, item) in items.iter().enumerate() {
        check(item, &path.index(i), errs);
    }
    if items.len() > max {
        errs.push(field::too_many(path, items.len() as i64, max as i64));
    }
}

/// `validateSet`: [`each_item`], then every item whose key an earlier item has, reported
/// at the item's `child` member (or the item itself when `child` is `None`).
fn each_unique_item<'a>(
    items: &'a [Value],
    max: usize,
    key: impl Fn(&'a Value) -> &'a str,
    child: Option<&str>,
    path: &Path,
    errs: &mut ErrorList,
    check: impl FnMut(&'a Value, &Path, &mut ErrorList),
) {
    each_item(items, max, path, errs, check);
    let mut seen = Seen::new();
    for (i, item) in items.iter().enumerate() {
        let k = key(item);
        if !seen.insert(k) {
            let at = path.index(i);
            match child {
                Some(member) => errs.push(field::duplicate(&at.child(member), k)),
                None => errs.push(field::duplicate(&at, k)),
            }
        }
    }
}

/// A driver's name: `ValidateCSIDriverName` of the core group.
fn driver_name(driver: &str, path: &Path, errs: &mut ErrorList) {
    crate::validation::core::pod::csi_driver_name(driver, path, errs);
}

/// `ValidateDNS1123Label` of the core group (device and request names).
fn dns_label(value: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::is_dns1123_label(value) {
        errs.push(field::invalid(path, value, &msg));
    }
}

/// `ValidateDNS1123Subdomain` of the core group (class names, each part of a pool name).
fn dns_subdomain(value: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::is_dns1123_subdomain(value) {
        errs.push(field::invalid(path, value, &msg));
    }
}

/// The longest pool name: that of a DNS subdomain, as a node's.
const POOL_NAME_MAX_LENGTH: usize = 253;

/// `validatePoolName`: required, at most 253 characters, each `/`-separated part a DNS
/// subdomain.
fn pool_name(name: &str, path: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    if name.len() > POOL_NAME_MAX_LENGTH {
        errs.push(field::too_long(path, POOL_NAME_MAX_LENGTH as i64));
    }
    for part in name.split('/') {
        dns_subdomain(part, path, errs);
    }
}

/// `ValidateNodeSelector` of the core group: at least one term, each checked with label
/// values held to their format.
fn node_selector(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let terms_path = path.child("nodeSelectorTerms");
    let terms = super::read::list(selector, "nodeSelectorTerms");
    if terms.is_empty() {
        errs.push(field::required(
            &terms_path,
            "must have at least one node selector term",
        ));
        return;
    }
    for (i, term) in terms.iter().enumerate() {
        crate::validation::core::pod::validate_node_selector_term(
            term,
            false,
            &terms_path.index(i),
            errs,
        );
    }
}

/// `validateNodeName`: a node's name is a DNS subdomain.
fn node_name(name: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::name_is_dns_subdomain(name, false) {
        errs.push(field::invalid(path, name, &msg));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Any JSON a few levels deep, keyed by the members these kinds read.
    fn anything() -> impl Strategy<Value = Value> {
        let leaf = crate::validation::arbitrary::scalar("[a-zA-Z0-9./:é -]{0,8}", any::<i64>());
        crate::validation::arbitrary::json(
            leaf,
            "metadata|name|spec|status|devices|requests|exactly|firstAvailable|\
                     deviceClassName|selectors|cel|expression|allocationMode|count|tolerations|\
                     key|operator|value|effect|constraints|matchAttribute|distinctAttribute|\
                     config|opaque|driver|parameters|pool|resourceSliceCount|generation|\
                     nodeName|nodeSelector|nodeSelectorTerms|allNodes|perDeviceNodeSelection|\
                     attributes|capacity|int|bool|string|version|extendedResourceName|\
                     allocation|results|request|device|source|reservedFor|uid|resource|\
                     conditions|data|networkData|ips|interfaceName|hardwareAddress|\
                     deletionTimestamp|[a-z]{1,4}",
            6,
            128,
        )
    }

    proptest! {
        #[test]
        fn objects_of_any_shape_are_validated_without_panic(
            which in 0..KINDS.len(),
            new in anything(),
            old in anything(),
        ) {
            let rules = &KINDS[which];
            let _ = (rules.create)(&new);
            let _ = (rules.update)(&new, &old);
            let _ = (STATUS[0].update)(&new, &old);
        }
    }

    #[test]
    fn deeply_nested_selectors_are_refused_not_overflowed() {
        for expression in [
            format!("{}true{}", "(".repeat(5000), ")".repeat(5000)),
            format!("{}1{}", "[".repeat(5000), "]".repeat(5000)),
            "true ? ".repeat(2000) + "true" + &" : false".repeat(2000),
        ] {
            let class = json!({"metadata": {"name": "c"}, "spec": {"selectors": [
                {"cel": {"expression": expression}}]}});
            let errs = device_class::device_class(&class);
            assert_eq!(errs.len(), 1, "{errs:?}");
            assert_eq!(errs[0].field, "spec.selectors[0].cel.expression");
        }
        // Long chains the parser reads in a loop (cel-go's depth limit may refuse them; the
        // crate does not): checked without overflow all the same.
        for expression in [
            format!("{}true", "!".repeat(10000)),
            "a.".repeat(5000) + "b",
        ] {
            let class = json!({"metadata": {"name": "c"}, "spec": {"selectors": [
                {"cel": {"expression": expression}}]}});
            let _ = device_class::device_class(&class);
        }
        // Nesting the parser accepts, parsed on a stack that holds it.
        let nested = format!("{}true{}", "(".repeat(60), ")".repeat(60));
        let class = json!({"metadata": {"name": "c"}, "spec": {"selectors": [
            {"cel": {"expression": nested}}]}});
        assert!(device_class::device_class(&class).is_empty());
    }

    #[test]
    fn every_kind_has_its_scope() {
        let scope = |kind: &str| KINDS.iter().find(|r| r.kind == kind).map(|r| r.namespaced);
        assert_eq!(scope("DeviceClass"), Some(false));
        assert_eq!(scope("ResourceSlice"), Some(false));
        assert_eq!(scope("ResourceClaim"), Some(true));
        assert_eq!(scope("ResourceClaimTemplate"), Some(true));
    }

    #[test]
    fn a_valid_claim_passes_and_a_class_reference_is_checked() {
        let claim = json!({"metadata": {"name": "c", "namespace": "ns"}, "spec": {"devices": {
            "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com",
                "allocationMode": "ExactCount", "count": 1,
                "selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}}]}}});
        assert!(claim::resource_claim(&claim).is_empty());
        let mut bad = claim.clone();
        bad["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] = json!("Not_Valid");
        let errs = claim::resource_claim(&bad);
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].field,
            "spec.devices.requests[0].exactly.deviceClassName"
        );
    }
}
