//! `spec.resources` (`validatePodResources`, PodLevelResources on in v1.34): not on Windows
//! pods, no claims; the quantities themselves and their consistency with the containers'
//! are the resource rules of the container half.

use serde_json::Value;

use super::PodOptions;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

pub(super) fn validate_pod_resources(
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let Some(resources) = spec.get("resources").filter(|r| r.is_object()) else {
        return;
    };
    let at = path.child("resources");
    if spec
        .get("os")
        .is_some_and(|os| read::text(os, "name") == "windows")
    {
        errs.push(field::forbidden(&at, "may not be set for a windows pod"));
        return;
    }
    if read::is_set(resources, "claims") {
        errs.push(field::forbidden(
            &at.child("claims"),
            "claims may not be set for Resources at pod-level",
        ));
    }
    errs.extend(
        super::pod_level_resources::validate_pod_resource_requirements(spec, path, options),
    );
}
