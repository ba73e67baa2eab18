//! A ResourceClaim's status writes (`ValidateResourceClaimStatusUpdate`): who has the claim
//! reserved, the devices allocated to it (fixed once set) and what the drivers report of
//! each device.

use std::collections::HashSet;

use serde_json::Value;

use super::claim::request_reference;
use super::claim::{RequestNames, request_references};
use super::config::{device_configuration, raw_extension};
use super::{
    DEVICE_CONFIG_MAX, DEVICE_REQUESTS_MAX, dns_label, driver_name, each_item, each_unique_item,
    metadata_update, node_selector, part, pool_name,
};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::ip::validate_interface_address;
use crate::validation::meta::{validate_conditions, validate_immutable};
use crate::validation::read;

/// The most consumers that may have a claim reserved.
const RESERVED_FOR_MAX: usize = 256;
/// The most conditions of one device's status.
const DEVICE_STATUS_MAX_CONDITIONS: usize = 8;
/// The most bytes of a device status's driver data.
const DEVICE_STATUS_DATA_MAX_LENGTH: usize = 10 * 1024;
/// The most IPs of a device's network data.
const NETWORK_MAX_IPS: usize = 16;
const INTERFACE_NAME_MAX_LENGTH: usize = 256;
const HARDWARE_ADDRESS_MAX_LENGTH: usize = 128;

/// `ValidateResourceClaimStatusUpdate`: the metadata update, then the status against the
/// claim's requests.
pub(super) fn resource_claim_status_update(new: &Value, old: &Value) -> ErrorList {
    if super::is_v1beta1(new) {
        return ErrorList::new();
    }
    let mut errs = metadata_update(new, old);
    let devices = part(part(new, "spec"), "devices");
    let names = RequestNames::of(read::list(devices, "requests"));
    let deleted = new
        .get("metadata")
        .is_some_and(|m| read::is_set(m, "deletionTimestamp"));
    claim_status(
        part(new, "status"),
        part(old, "status"),
        deleted,
        &names,
        &Path::new("status"),
        &mut errs,
    );
    errs
}

fn claim_status(
    status: &Value,
    old: &Value,
    deleted: bool,
    names: &RequestNames,
    path: &Path,
    errs: &mut ErrorList,
) {
    let reserved_for = read::list(status, "reservedFor");
    let reserved_path = path.child("reservedFor");
    each_unique_item(
        reserved_for,
        RESERVED_FOR_MAX,
        |r| read::text(r, "uid"),
        Some("uid"),
        &reserved_path,
        errs,
        consumer_reference,
    );
    let allocation = status.get("allocation").filter(|a| a.is_object());
    let allocated: HashSet<String> = allocation
        .map(|a| read::list(part(a, "devices"), "results"))
        .unwrap_or(&[])
        .iter()
        .map(device_id)
        .collect();
    let devices = read::list(status, "devices");
    let devices_path = path.child("devices");
    each_item(
        devices,
        usize::MAX,
        &devices_path,
        errs,
        |device, at, errs| {
            device_status(device, &allocated, at, errs);
        },
    );
    // Each device's status is keyed by its ID.
    let mut seen = HashSet::new();
    for (i, device) in devices.iter().enumerate() {
        let id = device_id(device);
        if !seen.insert(id.clone()) {
            errs.push(field::duplicate(
                &devices_path.index(i).child("deviceID"),
                id.as_str(),
            ));
        }
    }
    if !reserved_for.is_empty() {
        if allocation.is_none() {
            errs.push(field::forbidden(
                &reserved_path,
                "may not be specified when `allocated` is not set",
            ));
        } else if deleted {
            let before: HashSet<String> = read::list(old, "reservedFor")
                .iter()
                .map(consumer_key)
                .collect();
            if reserved_for
                .iter()
                .any(|r| !before.contains(&consumer_key(r)))
            {
                errs.push(field::forbidden(
                    &reserved_path,
                    "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set",
                ));
            }
        }
    }
    let old_allocation = old.get("allocation").filter(|a| a.is_object());
    match (allocation, old_allocation) {
        (Some(new), Some(old)) => {
            validate_immutable(Some(new), Some(old), &path.child("allocation"), errs);
        }
        (Some(new), None) => allocation_result(new, names, &path.child("allocation"), errs),
        _ => {}
    }
}

/// A consumer as Go compares them in a set: all its members.
fn consumer_key(consumer: &Value) -> String {
    ["apiGroup", "resource", "name", "uid"]
        .iter()
        .map(|m| read::text(consumer, m))
        .collect::<Vec<_>>()
        .join("\u{0}")
}

/// `validateResourceClaimUserReference`: resource, name and uid are required.
fn consumer_reference(consumer: &Value, path: &Path, errs: &mut ErrorList) {
    for member in ["resource", "name", "uid"] {
        if read::text(consumer, member).is_empty() {
            errs.push(field::required(&path.child(member), ""));
        }
    }
}

/// A device's ID: `driver/pool/device`.
fn device_id(device: &Value) -> String {
    format!(
        "{}/{}/{}",
        read::text(device, "driver"),
        read::text(device, "pool"),
        read::text(device, "device")
    )
}

/// `validateAllocationResult`, for an allocation being set: each result, each
/// configuration, the node selector.
fn allocation_result(allocation: &Value, names: &RequestNames, path: &Path, errs: &mut ErrorList) {
    let devices = part(allocation, "devices");
    let devices_path = path.child("devices");
    each_item(
        read::list(devices, "results"),
        DEVICE_REQUESTS_MAX,
        &devices_path.child("results"),
        errs,
        |result, at, errs| {
            request_reference(
                read::text(result, "request"),
                names,
                &at.child("request"),
                errs,
            );
            driver_name(read::text(result, "driver"), &at.child("driver"), errs);
            pool_name(read::text(result, "pool"), &at.child("pool"), errs);
            dns_label(read::text(result, "device"), &at.child("device"), errs);
        },
    );
    each_item(
        read::list(devices, "config"),
        2 * DEVICE_CONFIG_MAX,
        &devices_path.child("config"),
        errs,
        |config, at, errs| {
            let source_path = at.child("source");
            match read::text(config, "source") {
                "" => errs.push(field::required(&source_path, "")),
                "FromClaim" | "FromClass" => {}
                other => errs.push(field::not_supported(
                    &source_path,
                    other,
                    &["FromClaim", "FromClass"],
                )),
            }
            request_references(config, names, at, errs);
            device_configuration(config, false, at, errs);
        },
    );
    if let Some(selector) = allocation.get("nodeSelector").filter(|s| s.is_object()) {
        node_selector(selector, &path.child("nodeSelector"), errs);
    }
}

/// `validateDeviceStatus`: the device's names, that it is allocated to the claim, its
/// conditions, its data and its network data.
fn device_status(device: &Value, allocated: &HashSet<String>, path: &Path, errs: &mut ErrorList) {
    driver_name(read::text(device, "driver"), &path.child("driver"), errs);
    pool_name(read::text(device, "pool"), &path.child("pool"), errs);
    dns_label(read::text(device, "device"), &path.child("device"), errs);
    let id = device_id(device);
    if !allocated.contains(&id) {
        errs.push(field::invalid(
            path,
            id.as_str(),
            "must be an allocated device in the claim",
        ));
    }
    let conditions = read::list(device, "conditions");
    let conditions_path = path.child("conditions");
    if conditions.len() > DEVICE_STATUS_MAX_CONDITIONS {
        errs.push(field::too_many(
            &conditions_path,
            conditions.len() as i64,
            DEVICE_STATUS_MAX_CONDITIONS as i64,
        ));
    }
    validate_conditions(conditions, &conditions_path, errs);
    if read::is_set(device, "data") {
        raw_extension(
            device.get("data"),
            false,
            DEVICE_STATUS_DATA_MAX_LENGTH,
            &path.child("data"),
            errs,
        );
    }
    if let Some(network) = device.get("networkData").filter(|n| n.is_object()) {
        network_data(network, &path.child("networkData"), errs);
    }
}

/// `validateNetworkDeviceData`: bounded names and addresses, the IPs distinct interface
/// addresses.
fn network_data(network: &Value, path: &Path, errs: &mut ErrorList) {
    if read::text(network, "interfaceName").len() > INTERFACE_NAME_MAX_LENGTH {
        errs.push(field::too_long(
            &path.child("interfaceName"),
            INTERFACE_NAME_MAX_LENGTH as i64,
        ));
    }
    if read::text(network, "hardwareAddress").len() > HARDWARE_ADDRESS_MAX_LENGTH {
        errs.push(field::too_long(
            &path.child("hardwareAddress"),
            HARDWARE_ADDRESS_MAX_LENGTH as i64,
        ));
    }
    each_unique_item(
        read::list(network, "ips"),
        NETWORK_MAX_IPS,
        |ip| ip.as_str().unwrap_or(""),
        None,
        &path.child("ips"),
        errs,
        |ip, at, errs| validate_interface_address(at, ip.as_str().unwrap_or(""), errs),
    );
}
