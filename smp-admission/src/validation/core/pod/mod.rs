//! Pod validation is being merged in; until then pod specs and templates are not checked
//! (the cases that need them carry a `gap`).
//!
//! apps-batch scratch additions (same names as the pod-spec helper's real module):
//! `PodOptions::for_template`, `PodOptions::allow_invalid_label_value_in_selector` and
//! `validate_pod_specific_annotations` (the real one is `annotations::validate_pod_specific_annotations`,
//! to be re-exported `pub(crate)` from this module).

use serde_json::Value;

use crate::validation::field::{ErrorList, Path};

/// The options a create or update passes to pod validation (`PodValidationOptions`); the
/// `Default` is what a create of v1.34 with default feature gates passes.
#[derive(Debug, Clone, Default)]
pub(crate) struct PodOptions {
    /// Label values in selectors are not checked (also read by DaemonSet and Job selectors).
    pub allow_invalid_label_value_in_selector: bool,
}

impl PodOptions {
    /// `GetValidationOptionsFromPodTemplate`: the old template's spec and metadata on update.
    pub(crate) fn for_template(_old_spec: Option<&Value>, _old_meta: Option<&Value>) -> PodOptions {
        PodOptions::default()
    }
}

/// `ValidatePodTemplateSpec`: `template` is the `template` member (metadata and spec) and
/// `path` its path (`spec.template`).
pub(crate) fn validate_pod_template_spec(
    _template: Option<&Value>,
    _path: &Path,
    _options: &PodOptions,
) -> ErrorList {
    ErrorList::new()
}

/// `ValidatePodSpecificAnnotations`; `path` is the annotations' path.
pub(crate) fn validate_pod_specific_annotations(
    _annotations: Option<&Value>,
    _spec: &Value,
    _path: &Path,
    _options: &PodOptions,
    _errs: &mut ErrorList,
) {
}
