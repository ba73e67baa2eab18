//! ResourceClaim and ResourceClaimTemplate: the devices a claim asks for
//! (`validateDeviceClaim`), its constraints between them and its configuration.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::attributes::fully_qualified_name;
use super::config::device_configuration;
use super::requests::device_request;
use super::{
    DEVICE_CONFIG_MAX, DEVICE_CONSTRAINTS_MAX, DEVICE_REQUESTS_MAX, dns_label, each_item,
    each_unique_item, metadata, metadata_update, part,
};
use crate::validation::core::pod::validate_template_object_meta;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::validate_immutable;
use crate::validation::read;

/// `ValidateResourceClaim`.
pub(super) fn resource_claim(obj: &Value) -> ErrorList {
    if super::is_v1beta1(obj) {
        return ErrorList::new();
    }
    let mut errs = metadata(obj, true);
    claim_spec(part(obj, "spec"), false, &Path::new("spec"), &mut errs);
    errs
}

/// The strategy's update: `ValidateResourceClaim` of the new claim, then
/// `ValidateResourceClaimUpdate` (the spec may not change; it is validated again, its CEL
/// expressions as stored ones), so a bad spec is reported twice.
pub(super) fn resource_claim_update(new: &Value, old: &Value) -> ErrorList {
    if super::is_v1beta1(new) {
        return ErrorList::new();
    }
    let mut errs = resource_claim(new);
    errs.extend(metadata_update(new, old));
    let path = Path::new("spec");
    validate_immutable(new.get("spec"), old.get("spec"), &path, &mut errs);
    claim_spec(part(new, "spec"), true, &path, &mut errs);
    errs
}

/// `ValidateResourceClaimTemplate`: the claim's metadata as a template's, then its spec.
pub(super) fn resource_claim_template(obj: &Value) -> ErrorList {
    if super::is_v1beta1(obj) {
        return ErrorList::new();
    }
    let mut errs = metadata(obj, true);
    template_spec(part(obj, "spec"), false, &Path::new("spec"), &mut errs);
    errs
}

/// The strategy's update: `ValidateResourceClaimTemplate`, then
/// `ValidateResourceClaimTemplateUpdate` (as a claim's: the spec immutable and checked again).
pub(super) fn resource_claim_template_update(new: &Value, old: &Value) -> ErrorList {
    if super::is_v1beta1(new) {
        return ErrorList::new();
    }
    let mut errs = resource_claim_template(new);
    errs.extend(metadata_update(new, old));
    let path = Path::new("spec");
    validate_immutable(new.get("spec"), old.get("spec"), &path, &mut errs);
    template_spec(part(new, "spec"), true, &path, &mut errs);
    errs
}

fn template_spec(spec: &Value, stored: bool, path: &Path, errs: &mut ErrorList) {
    validate_template_object_meta(part(spec, "metadata"), &path.child("metadata"), errs);
    claim_spec(part(spec, "spec"), stored, &path.child("spec"), errs);
}

/// `validateResourceClaimSpec`: its devices.
fn claim_spec(spec: &Value, stored: bool, path: &Path, errs: &mut ErrorList) {
    device_claim(part(spec, "devices"), stored, &path.child("devices"), errs);
}

/// The names a constraint or a configuration may refer to: each request, and each
/// subrequest as `request/subrequest`.
pub(super) struct RequestNames<'a>(HashMap<&'a str, Option<HashSet<&'a str>>>);

impl<'a> RequestNames<'a> {
    pub(super) fn of(requests: &'a [Value]) -> Self {
        let mut names = HashMap::new();
        for request in requests {
            let subs = read::list(request, "firstAvailable");
            let subs =
                (!subs.is_empty()).then(|| subs.iter().map(|s| read::text(s, "name")).collect());
            names.insert(read::text(request, "name"), subs);
        }
        RequestNames(names)
    }

    /// Whether `reference` names a request, or a subrequest of one.
    fn has(&self, reference: &str) -> bool {
        let mut segments = reference.split('/');
        let (Some(request), sub, None) = (segments.next(), segments.next(), segments.next()) else {
            return false;
        };
        match (self.0.get(request), sub) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(subs), Some(sub)) => subs.as_ref().is_some_and(|s| s.contains(sub)),
        }
    }
}

const NOT_A_REQUEST: &str = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

/// `validateRequestNameRef`: one or two names separated by `/`, each a DNS label, that name
/// a request (or one of its subrequests) of this claim.
pub(super) fn request_reference(
    reference: &str,
    names: &RequestNames,
    path: &Path,
    errs: &mut ErrorList,
) {
    if reference.split('/').count() > 2 {
        errs.push(field::invalid(path, reference, NOT_A_REQUEST));
        return;
    }
    for segment in reference.split('/') {
        dns_label(segment, path, errs);
    }
    if !names.has(reference) {
        errs.push(field::invalid(path, reference, NOT_A_REQUEST));
    }
}

/// The `requests` a constraint or configuration applies to: a set of references.
pub(super) fn request_references(
    item: &Value,
    names: &RequestNames,
    path: &Path,
    errs: &mut ErrorList,
) {
    each_unique_item(
        read::list(item, "requests"),
        DEVICE_REQUESTS_MAX,
        |r| r.as_str().unwrap_or(""),
        None,
        &path.child("requests"),
        errs,
        |r, at, errs| request_reference(r.as_str().unwrap_or(""), names, at, errs),
    );
}

/// `validateDeviceClaim`: the requests (unique names), the constraints, the configuration.
fn device_claim(devices: &Value, stored: bool, path: &Path, errs: &mut ErrorList) {
    let requests = read::list(devices, "requests");
    let names = RequestNames::of(requests);
    each_unique_item(
        requests,
        DEVICE_REQUESTS_MAX,
        |r| read::text(r, "name"),
        Some("name"),
        &path.child("requests"),
        errs,
        device_request,
    );
    each_item(
        read::list(devices, "constraints"),
        DEVICE_CONSTRAINTS_MAX,
        &path.child("constraints"),
        errs,
        |constraint, at, errs| {
            request_references(constraint, &names, at, errs);
            device_constraint(constraint, at, errs);
        },
    );
    each_item(
        read::list(devices, "config"),
        DEVICE_CONFIG_MAX,
        &path.child("config"),
        errs,
        |config, at, errs| {
            request_references(config, &names, at, errs);
            device_configuration(config, stored, at, errs);
        },
    );
}

/// `validateDeviceConstraint`'s attribute: `matchAttribute` is required (the alternative,
/// `distinctAttribute`, belongs to `DRAConsumableCapacity`, off in v1.34).
fn device_constraint(constraint: &Value, path: &Path, errs: &mut ErrorList) {
    if let Some(name) = read::opt_text(constraint, "matchAttribute") {
        fully_qualified_name(name, &path.child("matchAttribute"), errs);
    } else if let Some(name) = read::opt_text(constraint, "distinctAttribute") {
        fully_qualified_name(name, &path.child("distinctAttribute"), errs);
    } else {
        errs.push(field::required(&path.child("matchAttribute"), ""));
    }
}
