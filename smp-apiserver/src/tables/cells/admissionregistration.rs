//! The admissionregistration.k8s.io group's rows: webhook configurations, admission
//! policies and their bindings.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, name};
use crate::tables::duration::Now;
use crate::tables::format::{items, text};

/// A Mutating- or ValidatingWebhookConfiguration: how many webhooks it declares.
pub(super) fn webhook_configuration(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(items(object, "/webhooks").len()),
        age(object, now),
    ]
    .into()
}

/// A ValidatingAdmissionPolicy: how many validations it runs, and the kind of its
/// parameters.
pub(super) fn validating_admission_policy(object: &Value, now: Now) -> Row {
    policy(object, "/spec/validations", now)
}

/// A MutatingAdmissionPolicy: how many mutations it applies, and the kind of its parameters.
pub(super) fn mutating_admission_policy(object: &Value, now: Now) -> Row {
    policy(object, "/spec/mutations", now)
}

fn policy(object: &Value, rules: &str, now: Now) -> Row {
    let param_kind = match object.pointer("/spec/paramKind") {
        Some(kind) if !kind.is_null() => {
            format!("{}/{}", text(kind, "/apiVersion"), text(kind, "/kind"))
        }
        _ => "<unset>".to_owned(),
    };
    vec![
        name(object),
        json!(items(object, rules).len()),
        json!(param_kind),
        age(object, now),
    ]
    .into()
}

/// A Validating- or MutatingAdmissionPolicyBinding: the policy it binds and where its
/// parameters come from.
pub(super) fn policy_binding(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(text(object, "/spec/policyName")),
        json!(param_ref(object)),
        age(object, now),
    ]
    .into()
}

/// The parameter object a binding names (`namespace/name`, `*/name` in every namespace),
/// or the selector that finds them, written as Go's debug form of a LabelSelector.
fn param_ref(binding: &Value) -> String {
    let Some(reference) = binding.pointer("/spec/paramRef").filter(|r| !r.is_null()) else {
        return "<unset>".to_owned();
    };
    match (text(reference, "/name"), text(reference, "/namespace")) {
        ("", _) => match reference.get("selector").filter(|s| !s.is_null()) {
            Some(selector) => debug_selector(selector),
            None => "<unset>".to_owned(),
        },
        (name, "") => format!("*/{name}"),
        (name, namespace) => format!("{namespace}/{name}"),
    }
}

/// `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]...{...},}`.
fn debug_selector(selector: &Value) -> String {
    let mut labels: Vec<(&String, &str)> = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k, v.as_str().unwrap_or("")))
        .collect();
    labels.sort_unstable();
    let labels: String = labels.iter().map(|(k, v)| format!("{k}: {v},")).collect();
    let expressions: String = items(selector, "/matchExpressions")
        .iter()
        .map(|e| {
            let values: Vec<&str> = items(e, "/values")
                .iter()
                .map(|v| v.as_str().unwrap_or(""))
                .collect();
            format!(
                "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
                text(e, "/key"),
                text(e, "/operator"),
                values.join(" ")
            )
        })
        .collect();
    format!(
        "&LabelSelector{{MatchLabels:map[string]string{{{labels}}},MatchExpressions:[]LabelSelectorRequirement{{{expressions}}},}}"
    )
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn webhook_configurations() {
        let hooks = json!({"metadata": {"name": "cert-manager-webhook", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "webhooks": [{"name": "webhook.cert-manager.io"}]});
        assert_eq!(
            webhook_configuration(&hooks, now()).cells,
            vec![json!("cert-manager-webhook"), json!(1), json!("60m")]
        );
    }

    #[test]
    fn admission_policies() {
        let vap = json!({"metadata": {"name": "replica-limit"},
            "spec": {"paramKind": {"apiVersion": "rules.example.com/v1", "kind": "ReplicaLimit"},
                "validations": [{"expression": "object.spec.replicas <= params.maxReplicas"}]}});
        assert_eq!(
            validating_admission_policy(&vap, now()).cells,
            vec![
                json!("replica-limit"),
                json!(1),
                json!("rules.example.com/v1/ReplicaLimit"),
                json!("<unknown>")
            ]
        );
        let map = json!({"metadata": {"name": "add-label"},
            "spec": {"mutations": [{"patchType": "ApplyConfiguration"}, {"patchType": "JSONPatch"}]}});
        assert_eq!(
            mutating_admission_policy(&map, now()).cells[1..3],
            [json!(2), json!("<unset>")]
        );
    }

    #[test]
    fn policy_bindings() {
        let binding = |param_ref: Value| json!({"metadata": {"name": "b"}, "spec": {"policyName": "replica-limit", "paramRef": param_ref}});
        let named = binding(json!({"name": "limits", "namespace": "team-a"}));
        assert_eq!(
            policy_binding(&named, now()).cells,
            vec![
                json!("b"),
                json!("replica-limit"),
                json!("team-a/limits"),
                json!("<unknown>")
            ]
        );
        assert_eq!(
            policy_binding(&binding(json!({"name": "limits"})), now()).cells[2],
            json!("*/limits")
        );
        let selected = binding(
            json!({"selector": {"matchLabels": {"tier": "b", "env": "prod"},
            "matchExpressions": [{"key": "team", "operator": "In", "values": ["x", "y"]},
                {"key": "legacy", "operator": "DoesNotExist"}]}}),
        );
        assert_eq!(
            policy_binding(&selected, now()).cells[2],
            json!(
                "&LabelSelector{MatchLabels:map[string]string{env: prod,tier: b,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:team,Operator:In,Values:[x y],},LabelSelectorRequirement{Key:legacy,Operator:DoesNotExist,Values:[],},},}"
            )
        );
        assert_eq!(
            policy_binding(&binding(json!({"selector": {}})), now()).cells[2],
            json!(
                "&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}"
            )
        );
        assert_eq!(
            policy_binding(&binding(json!({})), now()).cells[2],
            json!("<unset>")
        );
        assert_eq!(policy_binding(&json!({}), now()).cells[2], json!("<unset>"));
    }
}
