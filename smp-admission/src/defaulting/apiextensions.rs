//! The defaults of a CustomResourceDefinition (apiextensions-apiserver's `pkg/apis/
//! apiextensions/v1/defaults.go`) and of an APIService (kube-aggregator's).

use serde_json::{Value, json};

use crate::value::{
    Object, child, child_or_new, default_nil, default_string, is_empty_collection, items, text,
};

/// A CustomResourceDefinition: its singular and list kind from its kind, no conversion, and
/// the stored versions its storage version.
pub(super) fn custom_resource_definition(crd: &mut Object) {
    let Some(spec) = child_or_new(crd, "spec") else {
        return;
    };
    if let Some(names) = child(spec, "names") {
        let kind = text(names, "kind").to_owned();
        default_string(names, "singular", &kind.to_lowercase());
        if !kind.is_empty() {
            default_string(names, "listKind", &format!("{kind}List"));
        }
    }
    default_nil(spec, "conversion", json!({"strategy": "None"}));
    if let Some(service) = child(spec, "conversion")
        .and_then(|c| child(c, "webhook"))
        .and_then(|w| child(w, "clientConfig"))
        .and_then(|c| child(c, "service"))
    {
        default_nil(service, "port", json!(443));
    }
    let storage = items(spec, "versions")
        .find(|v| v.get("storage") == Some(&Value::Bool(true)))
        .map(|v| text(v, "name").to_owned());
    if let Some(storage) = storage
        && let Some(status) = child_or_new(crd, "status")
        && is_empty_collection(status, "storedVersions")
    {
        status.insert("storedVersions".into(), json!([storage]));
    }
}

/// An APIService: its service's port, 443.
pub(super) fn api_service(service: &mut Object) {
    if let Some(reference) = child(service, "spec").and_then(|s| child(s, "service")) {
        default_nil(reference, "port", json!(443));
    }
}
