//! The admissionregistration strategies (`pkg/registry/admissionregistration/*/strategy.go`):
//! every kind starts at generation 1, and a ValidatingAdmissionPolicy with an empty status
//! (its type checking is the controller's to report, through the status subresource).

use serde_json::{Value, json};

use crate::value::Object;

/// `PrepareForCreate` of the webhook configurations, policies and bindings.
pub(super) fn prepare_for_create(object: &mut Object) {
    if object.get("kind").and_then(Value::as_str) == Some("ValidatingAdmissionPolicy") {
        object.insert("status".to_owned(), json!({}));
    }
    if let Some(Value::Object(meta)) = object.get_mut("metadata") {
        meta.insert("generation".to_owned(), json!(1));
    }
}
