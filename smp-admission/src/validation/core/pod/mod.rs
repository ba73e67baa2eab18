//! Pod validation is being merged in; until then pod templates are not checked (the cases
//! that need it carry a `gap`).

use serde_json::Value;

use crate::validation::field::{ErrorList, Path};

/// The options a create or update passes to pod validation (`PodValidationOptions`); the
/// `Default` is what a create of v1.34 with default feature gates passes.
#[derive(Debug, Clone, Default)]
pub(crate) struct PodOptions {}

/// `ValidatePodTemplateSpec`: `template` is the `template` member (metadata and spec) and
/// `path` its path (`spec.template`).
pub(crate) fn validate_pod_template_spec(
    _template: Option<&Value>,
    _path: &Path,
    _options: &PodOptions,
) -> ErrorList {
    ErrorList::new()
}
