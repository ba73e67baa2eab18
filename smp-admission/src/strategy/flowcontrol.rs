//! The flowcontrol strategies (`pkg/registry/flowcontrol/{flowschema,
//! prioritylevelconfiguration}/strategy.go`): a FlowSchema or PriorityLevelConfiguration is
//! created with an empty status (the apiserver's configuration controller writes it through
//! the status subresource) and at generation 1.

use serde_json::{Value, json};

use crate::value::Object;

/// `PrepareForCreate` of both kinds.
pub(super) fn prepare_for_create(object: &mut Object) {
    object.insert("status".to_owned(), json!({}));
    if let Some(Value::Object(meta)) = object.get_mut("metadata") {
        meta.insert("generation".to_owned(), json!(1));
    }
}
