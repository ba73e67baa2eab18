//! admissionregistration.k8s.io/v1's defaults (`pkg/apis/admissionregistration/v1/
//! defaults.go`): webhooks fail closed, match equivalent requests, select everything, wait 10
//! seconds and call port 443; policies fail closed.

use serde_json::json;

use crate::value::{Object, child, default_nil, items};

fn rules(holder: &mut Object, key: &str) {
    for rule in items(holder, key) {
        default_nil(rule, "scope", json!("*"));
    }
}

/// A ValidatingWebhookConfiguration or MutatingWebhookConfiguration (`mutating`: whether
/// its webhooks are reinvoked, never by default).
fn webhooks(configuration: &mut Object, mutating: bool) {
    for webhook in items(configuration, "webhooks") {
        default_nil(webhook, "failurePolicy", json!("Fail"));
        default_nil(webhook, "matchPolicy", json!("Equivalent"));
        default_nil(webhook, "namespaceSelector", json!({}));
        default_nil(webhook, "objectSelector", json!({}));
        default_nil(webhook, "timeoutSeconds", json!(10));
        if mutating {
            default_nil(webhook, "reinvocationPolicy", json!("Never"));
        }
        if let Some(service) = child(webhook, "clientConfig").and_then(|c| child(c, "service")) {
            default_nil(service, "port", json!(443));
        }
        rules(webhook, "rules");
    }
}

pub(super) fn validating_webhooks(configuration: &mut Object) {
    webhooks(configuration, false);
}

pub(super) fn mutating_webhooks(configuration: &mut Object) {
    webhooks(configuration, true);
}

fn match_resources(resources: &mut Object) {
    default_nil(resources, "matchPolicy", json!("Equivalent"));
    default_nil(resources, "namespaceSelector", json!({}));
    default_nil(resources, "objectSelector", json!({}));
    rules(resources, "resourceRules");
    rules(resources, "excludeResourceRules");
}

/// A ValidatingAdmissionPolicy.
pub(super) fn validating_policy(policy: &mut Object) {
    let Some(spec) = child(policy, "spec") else {
        return;
    };
    default_nil(spec, "failurePolicy", json!("Fail"));
    if let Some(constraints) = child(spec, "matchConstraints") {
        match_resources(constraints);
    }
}

/// A ValidatingAdmissionPolicyBinding: its match resources only (v1 leaves
/// `parameterNotFoundAction` as sent).
pub(super) fn validating_policy_binding(binding: &mut Object) {
    if let Some(resources) = child(binding, "spec").and_then(|s| child(s, "matchResources")) {
        match_resources(resources);
    }
}
