//! DeviceClass (`ValidateDeviceClass`, `ValidateDeviceClassUpdate`): selectors and
//! configuration that every claim for the class inherits.

use serde_json::Value;

use super::config::device_configuration;
use super::selectors::selector_one;
use super::{DEVICE_CONFIG_MAX, DEVICE_SELECTORS_MAX, each_item, metadata, metadata_update, part};
use crate::validation::core::resources::is_extended;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

/// `ValidateDeviceClass`.
pub(super) fn device_class(obj: &Value) -> ErrorList {
    if super::is_v1beta1(obj) {
        return ErrorList::new();
    }
    let mut errs = metadata(obj, false);
    class_spec(part(obj, "spec"), None, &Path::new("spec"), &mut errs);
    errs
}

/// The strategy's update: `ValidateDeviceClass` of the new class, then
/// `ValidateDeviceClassUpdate` (the spec checked again, its configuration as stored when it
/// did not change). The first check has no such allowance, so a stored configuration past
/// today's size limit is refused all the same, once.
pub(super) fn device_class_update(new: &Value, old: &Value) -> ErrorList {
    if super::is_v1beta1(new) {
        return ErrorList::new();
    }
    let mut errs = device_class(new);
    errs.extend(metadata_update(new, old));
    class_spec(
        part(new, "spec"),
        Some(part(old, "spec")),
        &Path::new("spec"),
        &mut errs,
    );
    errs
}

fn class_spec(spec: &Value, old: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let unchanged =
        |member: &str| old.is_some_and(|o| read::semantic_eq(spec.get(member), o.get(member)));
    // Selectors are compiled the same way, stored or not, as far as they are checked here.
    each_item(
        read::list(spec, "selectors"),
        DEVICE_SELECTORS_MAX,
        &path.child("selectors"),
        errs,
        selector_one,
    );
    let stored = unchanged("config");
    each_item(
        read::list(spec, "config"),
        DEVICE_CONFIG_MAX,
        &path.child("config"),
        errs,
        |config, at, errs| device_configuration(config, stored, at, errs),
    );
    if let Some(name) = read::opt_text(spec, "extendedResourceName")
        && !is_extended(name)
    {
        errs.push(field::invalid(
            &path.child("extendedResourceName"),
            name,
            "must be a valid extended resource name",
        ));
    }
}
