//! When `metadata.generation` is set and when it moves.
//!
//! The generic registry never sets it: on create, the kinds whose strategy's
//! `PrepareForCreate` sets it start at 1 (a value the client sent is discarded); every other
//! kind keeps what the client sent, usually nothing. On update the registry puts the stored
//! generation back first (`rest.BeforeUpdate`), so no client moves it; the strategy's
//! `PrepareForUpdate` then adds one when what it watches changed, compared as
//! `apiequality.Semantic.DeepEqual` compares (an empty list or map is the same as none). Status
//! subresources never move it; the scale subresource moves it through the spec.

use serde_json::Value;

/// What a create does with `generation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnCreate {
    /// Set to 1.
    One,
    /// Kept as the client sent it.
    Kept,
}

/// What an update of the main resource (or of a subresource that writes the spec) compares to
/// decide whether `generation` moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnUpdate {
    /// It never moves.
    Never,
    /// `spec`.
    Spec,
    /// `spec` or `metadata.annotations` (Deployments: the controller's revision annotation
    /// counts as a change).
    SpecOrAnnotations,
    /// `webhooks` (webhook configurations).
    Webhooks,
    /// Everything but `metadata`, or the labels (EndpointSlices).
    AllButMetadataOrLabels,
    /// Everything but `metadata` (custom resources without a status subresource).
    AllButMetadata,
    /// Everything but `metadata` and `status` (custom resources with a status subresource,
    /// whose status an update of the main resource cannot change).
    AllButMetadataAndStatus,
}

/// The rule of a built-in resource (`pkg/registry/<group>/<resource>/strategy.go`).
pub(crate) fn builtin(group: &str, plural: &str) -> (OnCreate, OnUpdate) {
    use OnCreate::*;
    use OnUpdate::*;
    match (group, plural) {
        ("apps", "deployments") => (One, SpecOrAnnotations),
        ("admissionregistration.k8s.io", "mutatingwebhookconfigurations")
        | ("admissionregistration.k8s.io", "validatingwebhookconfigurations") => (One, Webhooks),
        ("discovery.k8s.io", "endpointslices") => (One, AllButMetadataOrLabels),
        ("", "pods" | "replicationcontrollers")
        | ("apps", "daemonsets" | "replicasets" | "statefulsets")
        | ("batch", "cronjobs" | "jobs")
        | ("policy", "poddisruptionbudgets")
        | ("networking.k8s.io", "ingresses" | "ingressclasses" | "networkpolicies")
        | ("apiextensions.k8s.io", "customresourcedefinitions")
        | ("flowcontrol.apiserver.k8s.io", "flowschemas" | "prioritylevelconfigurations")
        | ("resource.k8s.io", "deviceclasses" | "resourceslices" | "devicetaintrules")
        | (
            "admissionregistration.k8s.io",
            "validatingadmissionpolicies"
            | "validatingadmissionpolicybindings"
            | "mutatingadmissionpolicies"
            | "mutatingadmissionpolicybindings",
        ) => (One, Spec),
        _ => (Kept, Never),
    }
}

/// The rule of a custom resource (apiextensions-apiserver's `customResourceStrategy`).
pub(crate) fn custom(status_subresource: bool) -> (OnCreate, OnUpdate) {
    if status_subresource {
        (OnCreate::One, OnUpdate::AllButMetadataAndStatus)
    } else {
        (OnCreate::One, OnUpdate::AllButMetadata)
    }
}

/// Whether an update from `old` to `new` moves the generation under `rule`.
pub(crate) fn moves(rule: OnUpdate, old: &Value, new: &Value) -> bool {
    let member = |v: &'_ Value, path: &str| v.pointer(path).cloned();
    let differ = |path: &str| !same(member(old, path).as_ref(), member(new, path).as_ref());
    let rest_differs = |skip: &[&str]| {
        let keys = |v: &'_ Value| -> Vec<String> {
            v.as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k.clone())
                .filter(|k| !skip.contains(&k.as_str()))
                .collect()
        };
        let mut all = keys(old);
        all.extend(keys(new));
        all.sort_unstable();
        all.dedup();
        all.iter().any(|k| !same(old.get(k), new.get(k)))
    };
    match rule {
        OnUpdate::Never => false,
        OnUpdate::Spec => differ("/spec"),
        OnUpdate::SpecOrAnnotations => differ("/spec") || differ("/metadata/annotations"),
        OnUpdate::Webhooks => differ("/webhooks"),
        OnUpdate::AllButMetadataOrLabels => {
            rest_differs(&["metadata"]) || differ("/metadata/labels")
        }
        OnUpdate::AllButMetadata => rest_differs(&["metadata"]),
        OnUpdate::AllButMetadataAndStatus => rest_differs(&["metadata", "status"]),
    }
}

/// Equality as `Semantic.DeepEqual` sees decoded objects: a missing value, `null`, an empty
/// list and an object of nothing but such members are all "nothing" (a decoded struct holds
/// the same zero values either way); the rest compares as JSON.
pub(crate) fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    fn nothing(v: Option<&Value>) -> bool {
        match v {
            None | Some(Value::Null) => true,
            Some(Value::Array(a)) => a.is_empty(),
            Some(Value::Object(o)) => o.values().all(|v| nothing(Some(v))),
            _ => false,
        }
    }
    if nothing(a) || nothing(b) {
        return nothing(a) && nothing(b);
    }
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            x.iter().all(|(k, v)| same(Some(v), y.get(k)))
                && y.iter()
                    .all(|(k, v)| x.contains_key(k) || same(None, Some(v)))
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(Some(p), Some(q)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_kind_watches_its_own_fields() {
        let d = json!({"metadata": {"annotations": {"a": "1"}}, "spec": {"replicas": 1}});
        let annotated = json!({"metadata": {"annotations": {"a": "2"}}, "spec": {"replicas": 1}});
        assert!(moves(builtin("apps", "deployments").1, &d, &annotated));
        assert!(!moves(builtin("apps", "replicasets").1, &d, &annotated));
        assert!(!moves(
            builtin("", "configmaps").1,
            &d,
            &json!({"data": {"x": "y"}})
        ));
        let s = json!({"metadata": {}, "spec": {"a": 1}, "status": {"b": 1}});
        let status = json!({"metadata": {}, "spec": {"a": 1}, "status": {"b": 2}});
        assert!(moves(custom(false).1, &s, &status));
        assert!(!moves(custom(true).1, &s, &status));
        let slice = json!({"metadata": {"labels": {"x": "1"}}, "endpoints": []});
        let relabelled = json!({"metadata": {"labels": {"x": "2"}}, "endpoints": []});
        assert!(moves(
            builtin("discovery.k8s.io", "endpointslices").1,
            &slice,
            &relabelled
        ));
    }

    #[test]
    fn nothing_is_nothing() {
        assert!(same(Some(&json!({"a": [], "b": {}})), Some(&json!({}))));
        assert!(same(None, Some(&json!({"x": null}))));
        assert!(!same(Some(&json!({"a": 0})), Some(&json!({}))));
        assert!(!same(Some(&json!([1, 2])), Some(&json!([2, 1]))));
    }
}
