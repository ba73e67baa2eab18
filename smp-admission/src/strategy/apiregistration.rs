//! An APIService as its strategy creates it (`PrepareForCreate` of kube-aggregator's
//! `pkg/registry/apiservice/strategy.go`, v0.34): the status cleared, and a local APIService
//! (one without `spec.service`) marked available at once, since the apiserver serves it
//! itself.

use serde_json::{Map, Value, json};

pub(super) fn prepare_api_service(service: &mut Map<String, Value>) {
    let local = service
        .get("spec")
        .and_then(|spec| spec.get("service"))
        .is_none_or(Value::is_null);
    let status = if local {
        let now = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
        json!({"conditions": [{"type": "Available", "status": "True",
            "lastTransitionTime": now, "reason": "Local",
            "message": "Local APIServices are always available"}]})
    } else {
        json!({})
    };
    service.insert("status".to_owned(), status);
}
