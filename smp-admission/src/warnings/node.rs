//! A Node's deprecated fields (the Node strategy's `fieldIsDeprecatedWarnings`).

use serde_json::Value;

use super::sink::Sink;
use crate::validation::read;

/// A Node's warnings. The strategy drops `spec.configSource` on create, and on update keeps it
/// only when the old Node had it, so only such an update can warn about it.
pub(super) fn node(obj: &Value, old: Option<&Value>, out: &mut Sink) {
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    let kept = old.is_some_and(|old| {
        old.get("spec")
            .is_some_and(|s| read::member(s, "configSource").set_object().is_some())
    });
    if kept && read::member(spec, "configSource").set_object().is_some() {
        out.push("spec.configSource: the feature is removed".to_owned());
    }
    if !read::text(spec, "externalID").is_empty() {
        out.push(
            "spec.externalID: this field is deprecated, and is unused by Kubernetes".to_owned(),
        );
    }
}
