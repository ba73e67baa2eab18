//! The ValidatingAdmissionPolicy plugin over an offline cluster: which writes a policy and its
//! bindings apply to, the binding's actions, messages, reasons, parameters, variables and
//! match conditions, as apiserver's `pkg/admission/plugin/policy/validating` (v1.34) decides
//! them (`dispatcher.go`, `validator.go`, `generic/policy_dispatcher.go`'s `CollectParams`).

use serde_json::{Value, json};
use smp_admission::admission::OfflineCluster;
use smp_admission::validating_admission_policy::{self as vap, Request};

fn policy(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": name}, "spec": spec})
}

fn binding(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": name}, "spec": spec})
}

fn deployments_rule() -> Value {
    json!({"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"],
        "operations": ["CREATE", "UPDATE"], "resources": ["deployments"]}]})
}

fn deployment(replicas: i64, labels: Value) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "prod", "labels": labels},
        "spec": {"replicas": replicas}})
}

fn check(cluster: &OfflineCluster, object: &Value) -> vap::Decision {
    vap::validate(
        &Request::create(object, "apps", "v1", "deployments", "prod"),
        cluster,
    )
}

fn cluster_with(objects: &[Value]) -> OfflineCluster {
    let mut cluster = OfflineCluster::new();
    cluster.add(json!({"apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": "prod", "labels": {"env": "prod"}}}));
    for o in objects {
        cluster.add(o.clone());
    }
    cluster
}

#[test]
fn a_failed_validation_is_denied_warned_or_ignored_as_the_binding_says() {
    let spec = json!({"matchConstraints": deployments_rule(),
        "validations": [{"expression": "object.spec.replicas <= 5"},
            {"expression": "object.spec.replicas >= 1", "message": "  at least one replica  "}]});
    for (actions, denied, warned) in [
        (json!(["Deny"]), true, false),
        (json!(["Warn"]), false, true),
        (json!(["Deny", "Warn"]), true, true),
        (json!(["Audit"]), false, false),
    ] {
        let cluster = cluster_with(&[
            policy("replicas", spec.clone()),
            binding(
                "replicas-b",
                json!({"policyName": "replicas", "validationActions": actions}),
            ),
        ]);
        assert_eq!(
            check(&cluster, &deployment(3, json!({}))),
            vap::Decision::default()
        );
        let decision = check(&cluster, &deployment(9, json!({})));
        let why = "failed expression: object.spec.replicas <= 5";
        assert_eq!(
            decision.denial.map(|d| (d.code, d.reason, d.message)),
            denied.then(|| (422, "Invalid", format!("ValidatingAdmissionPolicy 'replicas' with binding 'replicas-b' denied request: {why}"))),
            "{actions}"
        );
        let warnings: Vec<String> = if warned {
            vec![format!(
                "Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas-b': {why}"
            )]
        } else {
            vec![]
        };
        assert_eq!(decision.warnings, warnings, "{actions}");
        // The message, trimmed, in place of the expression.
        let zero = check(&cluster, &deployment(0, json!({})));
        if denied {
            assert!(
                zero.denial
                    .unwrap()
                    .message
                    .ends_with("denied request: at least one replica")
            );
        }
    }
}

#[test]
fn message_expressions_and_reasons() {
    let cluster = cluster_with(&[
        policy(
            "replicas",
            json!({"matchConstraints": deployments_rule(),
            "validations": [{"expression": "object.spec.replicas <= 5", "reason": "Forbidden",
                "messageExpression": "'too many replicas: ' + string(object.spec.replicas)",
                "message": "unused"}]}),
        ),
        binding(
            "b",
            json!({"policyName": "replicas", "validationActions": ["Deny"]}),
        ),
    ]);
    let denial = check(&cluster, &deployment(9, json!({}))).denial.unwrap();
    assert_eq!((denial.code, denial.reason), (403, "Forbidden"));
    assert!(
        denial
            .message
            .ends_with("denied request: too many replicas: 9"),
        "{}",
        denial.message
    );
}

#[test]
fn selectors_rules_and_exclusions_choose_the_writes() {
    let constrained = |extra: Value| {
        let mut constraints = deployments_rule();
        for (k, v) in extra.as_object().unwrap() {
            constraints[k] = v.clone();
        }
        cluster_with(&[
            policy(
                "p",
                json!({"matchConstraints": constraints,
                "validations": [{"expression": "false"}]}),
            ),
            binding(
                "b",
                json!({"policyName": "p", "validationActions": ["Deny"]}),
            ),
        ])
    };
    let denied = |cluster: &OfflineCluster, labels: Value| {
        check(cluster, &deployment(1, labels)).denial.is_some()
    };
    assert!(denied(&constrained(json!({})), json!({})));
    assert!(denied(
        &constrained(json!({"namespaceSelector": {"matchLabels": {"env": "prod"}}})),
        json!({})
    ));
    assert!(!denied(
        &constrained(json!({"namespaceSelector": {"matchLabels": {"env": "dev"}}})),
        json!({})
    ));
    assert!(denied(
        &constrained(json!({"objectSelector": {"matchLabels": {"tier": "web"}}})),
        json!({"tier": "web"})
    ));
    assert!(!denied(
        &constrained(json!({"objectSelector": {"matchLabels": {"tier": "web"}}})),
        json!({})
    ));
    let excluded = json!({"excludeResourceRules": [{"apiGroups": ["*"], "apiVersions": ["*"],
        "operations": ["*"], "resources": ["deployments"], "resourceNames": ["web"]}]});
    assert!(!denied(&constrained(excluded), json!({})));
    // Another resource is not matched; the policy's own kinds never are.
    let cluster = constrained(json!({}));
    let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "namespace": "prod"}});
    assert!(
        vap::validate(
            &Request::create(&service, "", "v1", "services", "prod"),
            &cluster
        )
        .denial
        .is_none()
    );
    let own = policy("q", json!({}));
    let request = Request::create(
        &own,
        "admissionregistration.k8s.io",
        "v1",
        "validatingadmissionpolicies",
        "",
    );
    assert!(vap::validate(&request, &cluster).denial.is_none());
    // A binding's own match resources narrow the policy's.
    let narrowed = cluster_with(&[
        policy(
            "p",
            json!({"matchConstraints": deployments_rule(), "validations": [{"expression": "false"}]}),
        ),
        binding(
            "b",
            json!({"policyName": "p", "validationActions": ["Deny"],
            "matchResources": {"namespaceSelector": {"matchLabels": {"env": "dev"}}}}),
        ),
    ]);
    assert!(!denied(&narrowed, json!({})));
}

#[test]
fn parameters_variables_and_match_conditions() {
    let spec = json!({"matchConstraints": deployments_rule(),
        "paramKind": {"apiVersion": "v1", "kind": "ConfigMap"},
        "matchConditions": [{"name": "not-system", "expression": "request.userInfo.username != 'system:admin'"}],
        "variables": [{"name": "limit", "expression": "int(params.data.max)"}],
        "validations": [{"expression": "object.spec.replicas <= variables.limit",
            "messageExpression": "'at most ' + string(variables.limit)"}]});
    let limits = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "limits", "namespace": "prod"}, "data": {"max": "3"}});
    let cluster = cluster_with(&[
        policy("p", spec.clone()),
        binding(
            "b",
            json!({"policyName": "p", "validationActions": ["Deny"],
            "paramRef": {"name": "limits", "parameterNotFoundAction": "Deny"}}),
        ),
        limits,
    ]);
    let denial = check(&cluster, &deployment(4, json!({}))).denial.unwrap();
    assert!(
        denial.message.ends_with("denied request: at most 3"),
        "{}",
        denial.message
    );
    assert!(check(&cluster, &deployment(3, json!({}))).denial.is_none());
    // A match condition that is false leaves the write alone.
    let object = deployment(9, json!({}));
    let mut admin = Request::create(&object, "apps", "v1", "deployments", "prod");
    admin.user_info = json!({"username": "system:admin"});
    assert!(vap::validate(&admin, &cluster).denial.is_none());
    // Missing parameters refuse the write when the binding says `Deny`.
    let without = cluster_with(&[
        policy("p", spec),
        binding(
            "b",
            json!({"policyName": "p", "validationActions": ["Deny"],
            "paramRef": {"name": "limits", "parameterNotFoundAction": "Deny"}}),
        ),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "other", "namespace": "prod"}}),
    ]);
    assert_eq!(
        check(&without, &deployment(1, json!({})))
            .denial
            .unwrap()
            .message,
        "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction"
    );
}

#[test]
fn errors_follow_the_failure_policy() {
    let spec = |failure: &str| {
        json!({"matchConstraints": deployments_rule(), "failurePolicy": failure,
        "validations": [{"expression": "object.spec.missing.field == 1"}]})
    };
    for (failure, denied) in [("Fail", true), ("Ignore", false)] {
        let cluster = cluster_with(&[
            policy("p", spec(failure)),
            binding(
                "b",
                json!({"policyName": "p", "validationActions": ["Deny"]}),
            ),
        ]);
        let decision = check(&cluster, &deployment(1, json!({})));
        assert_eq!(decision.denial.is_some(), denied, "{failure}");
        if let Some(d) = decision.denial {
            assert!(
                d.message.contains("denied request: expression 'object.spec.missing.field == 1' resulted in error: no such key: missing"),
                "{}",
                d.message
            );
        }
    }
    // A policy without match constraints refuses every write under `Fail`.
    let cluster = cluster_with(&[
        policy("p", json!({"validations": [{"expression": "true"}]})),
        binding(
            "b",
            json!({"policyName": "p", "validationActions": ["Deny"]}),
        ),
    ]);
    assert_eq!(
        check(&cluster, &deployment(1, json!({})))
            .denial
            .unwrap()
            .message,
        "ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: policy contained no match constraints, a required field"
    );
}
