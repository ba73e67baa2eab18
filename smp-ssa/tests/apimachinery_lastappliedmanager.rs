//! Facts from k8s.io/apimachinery v0.32.13,
//! `pkg/util/managedfields/internal/lastappliedmanager_test.go`, checked against our field
//! manager on real Deployments, Services, ReplicationControllers and Pods (v1.34 OpenAPI v3,
//! shared data).
//!
//! Each case writes an object by a client-side apply (an update by `test_client_side_apply`
//! carrying the last-applied annotation), then applies a configuration over it. `kubectl`
//! moving to server-side apply takes, without conflict, the fields the annotation still
//! describes as they are in the object; it still conflicts on the rest, and on everything when
//! the annotation is missing, empty, not an object, or of another API version. Any other
//! manager conflicts on every field it changes. The conflicts (fields, in order, and the
//! message) are the ones apimachinery reports; a forced apply then succeeds, and the object
//! ends up holding every value the configuration gives (a configuration's empty values, like
//! `{}`, match anything).

use serde_json::{Value, json};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, FieldManagerError, LAST_APPLIED};
use smp_ssa::schema::Schema;

/// The built-in v1.34 types the crate carries (generated from the official documents).
fn schema() -> Option<&'static Schema> {
    Some(smp_ssa::builtin::schema())
}

/// The last-applied annotation of a case.
enum LastApplied {
    /// The original object itself (apimachinery's default).
    Original,
    /// This configuration, written as JSON.
    Config(Value),
    /// This text as it is.
    Text(&'static str),
}

struct Case {
    api_version: &'static str,
    kind: &'static str,
    field_manager: &'static str,
    last_applied: LastApplied,
    original: Value,
    applied: Value,
    /// The fields apimachinery reports conflicts on, in its order; none: the apply succeeds.
    conflicts: &'static [&'static str],
}

/// Whether `live` holds every value `applied` gives, as apimachinery's semantic "deep
/// derivative" sees it: a null, an empty object, list or string in `applied` matches anything;
/// an object's keys must all be in `live` with matching values; a list's items must match
/// `live`'s first items.
fn derivative(applied: &Value, live: &Value) -> bool {
    match (applied, live) {
        (Value::Null, _) => true,
        (Value::Object(a), _) if a.is_empty() => true,
        (Value::Array(a), _) if a.is_empty() => true,
        (Value::String(a), _) if a.is_empty() => true,
        (Value::Object(a), Value::Object(l)) => {
            a.len() <= l.len()
                && a.iter()
                    .all(|(k, v)| l.get(k).is_some_and(|w| derivative(v, w)))
        }
        (Value::Array(a), Value::Array(l)) => {
            a.len() <= l.len() && a.iter().zip(l).all(|(v, w)| derivative(v, w))
        }
        (a, l) => a == l,
    }
}

fn check(case: Case) {
    let Some(schema) = schema() else { return };
    let fm = FieldManager::new(schema, case.api_version, case.kind)
        .unwrap()
        .clock(Clock::fixed("2026-03-01T10:00:00Z").unwrap());
    let empty = json!({"apiVersion": case.api_version, "kind": case.kind});

    let mut original = case.original.clone();
    let annotation = match case.last_applied {
        LastApplied::Original => serde_json::to_string(&case.original).unwrap(),
        LastApplied::Config(config) => serde_json::to_string(&config).unwrap(),
        LastApplied::Text(text) => text.to_owned(),
    };
    original["metadata"]["annotations"] = json!({LAST_APPLIED: annotation});
    let live = fm
        .update(Some(&empty), original.clone(), "test_client_side_apply")
        .unwrap();

    let result = fm.apply(
        Some(&live),
        &case.applied,
        case.field_manager,
        ApplyOptions { force: false },
    );
    let live = if case.conflicts.is_empty() {
        result.unwrap_or_else(|e| panic!("expected no error, got {e}"))
    } else {
        let err = result.expect_err("expected conflicts");
        let FieldManagerError::Conflict(conflict) = &err else {
            panic!("expected conflicts, got {err}")
        };
        let manager = format!(r#""test_client_side_apply" using {}"#, case.api_version);
        let causes: Vec<(String, String)> = case
            .conflicts
            .iter()
            .map(|f| (format!("conflict with {manager}"), (*f).to_owned()))
            .collect();
        assert_eq!(conflict.causes(), causes);
        let message = match case.conflicts {
            [only] => format!("Apply failed with 1 conflict: conflict with {manager}: {only}"),
            all => format!(
                "Apply failed with {} conflicts: conflicts with {manager}:\n{}",
                all.len(),
                all.iter()
                    .map(|f| format!("- {f}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        };
        assert_eq!(err.to_string(), message);
        // Forced, the same apply goes through.
        fm.apply(
            Some(&live),
            &case.applied,
            case.field_manager,
            ApplyOptions { force: true },
        )
        .unwrap_or_else(|e| panic!("unexpected error of a forced apply: {e}"))
    };
    assert!(
        derivative(&case.applied, &live),
        "expected the applied values in\n{live:#}"
    );
}

fn deployment(case: Case) -> Case {
    Case {
        api_version: "apps/v1",
        kind: "Deployment",
        ..case
    }
}

/// A Deployment named `my-deployment` with these labels (none: no labels), replicas,
/// selector label, template label and containers (name, image).
fn deployment_object(
    labels: Option<&str>,
    replicas: i64,
    selector: Option<&str>,
    template: &str,
    containers: &[(&str, &str)],
) -> Value {
    let mut object = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "my-deployment"},
        "spec": {
            "replicas": replicas,
            "template": {
                "metadata": {"labels": {"app": template}},
                "spec": {"containers": containers
                    .iter()
                    .map(|(name, image)| json!({"name": name, "image": image}))
                    .collect::<Vec<_>>()}
            }
        }
    });
    if let Some(app) = labels {
        object["metadata"]["labels"] = json!({"app": app});
    }
    if let Some(app) = selector {
        object["spec"]["selector"] = json!({"matchLabels": {"app": app}});
    }
    object
}

/// The small Deployment of the last cases: a name and replicas.
fn small_deployment(api_version: &str, replicas: i64) -> Value {
    json!({
        "apiVersion": api_version,
        "kind": "Deployment",
        "metadata": {"name": "my-deployment"},
        "spec": {"replicas": replicas}
    })
}

const DEFAULTS: Case = Case {
    api_version: "",
    kind: "",
    field_manager: "kubectl",
    last_applied: LastApplied::Original,
    original: Value::Null,
    applied: Value::Null,
    conflicts: &[],
};

#[test]
fn deployment_0_kubectl_conflicts_on_fields_the_annotation_does_not_describe_as_they_are() {
    check(deployment(Case {
        last_applied: LastApplied::Config(deployment_object(
            None,
            3,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image-v1"), ("my-c2", "my-image2")],
        )),
        // The label is not in the annotation; replicas and the image differ from it; the
        // second container is gone.
        original: deployment_object(
            Some("my-app"),
            100,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image-v2")],
        ),
        applied: deployment_object(
            Some("my-new-label"),
            333,
            Some("my-new-label"),
            "my-new-label",
            &[("my-c", "my-image-new")],
        ),
        conflicts: &[
            ".metadata.labels.app",
            ".spec.replicas",
            ".spec.template.spec.containers[name=\"my-c\"].image",
        ],
        ..DEFAULTS
    }));
}

#[test]
fn deployment_1_kubectl_conflicts_on_replicas_changed_since_the_annotation() {
    // The configuration gives no selector.
    let applied = deployment_object(
        Some("my-new-label"),
        3,
        None,
        "my-app",
        &[("my-c", "my-image")],
    );
    check(deployment(Case {
        last_applied: LastApplied::Config(deployment_object(
            Some("my-app"),
            3,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image")],
        )),
        original: deployment_object(
            Some("my-app"),
            100,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image")],
        ),
        applied,
        conflicts: &[".spec.replicas"],
        ..DEFAULTS
    }));
}

#[test]
fn deployment_2_kubectl_applies_the_original_again() {
    let original = deployment_object(
        Some("my-app"),
        100,
        Some("my-app"),
        "my-app",
        &[("my-c", "my-image")],
    );
    check(deployment(Case {
        applied: original.clone(),
        original,
        ..DEFAULTS
    }));
}

#[test]
fn deployment_3_kubectl_changes_what_the_annotation_describes() {
    check(deployment(Case {
        original: deployment_object(
            Some("my-app"),
            3,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image")],
        ),
        applied: deployment_object(
            Some("my-new-label"),
            333,
            Some("my-new-label"),
            "my-new-label",
            &[("my-c", "my-image")],
        ),
        ..DEFAULTS
    }));
}

#[test]
fn deployment_4_another_manager_conflicts_on_every_change() {
    check(deployment(Case {
        field_manager: "not_kubectl",
        last_applied: LastApplied::Config(deployment_object(
            Some("my-app"),
            3,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image-v1")],
        )),
        original: deployment_object(
            Some("my-app"),
            100,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image-v2")],
        ),
        applied: deployment_object(
            Some("my-new-label"),
            333,
            Some("my-new-label"),
            "my-new-label",
            &[("my-c", "my-image-new")],
        ),
        // The selector is atomic: owned, and in conflict, as a whole.
        conflicts: &[
            ".metadata.labels.app",
            ".spec.replicas",
            ".spec.selector",
            ".spec.template.metadata.labels.app",
            ".spec.template.spec.containers[name=\"my-c\"].image",
        ],
        ..DEFAULTS
    }));
}

#[test]
fn deployment_5_kubectl_changes_a_label_and_an_image() {
    check(deployment(Case {
        original: deployment_object(
            Some("my-app"),
            3,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image")],
        ),
        applied: deployment_object(
            Some("my-new-label"),
            3,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-new-image")],
        ),
        ..DEFAULTS
    }));
}

#[test]
fn deployment_6_another_manager_conflicts_on_label_replicas_and_image() {
    check(deployment(Case {
        field_manager: "not_kubectl",
        original: deployment_object(
            Some("my-app"),
            100,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-image")],
        ),
        applied: deployment_object(
            Some("my-new-label"),
            3,
            Some("my-app"),
            "my-app",
            &[("my-c", "my-new-image")],
        ),
        conflicts: &[
            ".metadata.labels.app",
            ".spec.replicas",
            ".spec.template.spec.containers[name=\"my-c\"].image",
        ],
        ..DEFAULTS
    }));
}

#[test]
fn deployment_7_kubectl_changes_replicas_of_a_small_deployment() {
    check(deployment(Case {
        original: small_deployment("apps/v1", 3),
        applied: small_deployment("apps/v1", 100),
        ..DEFAULTS
    }));
}

#[test]
fn deployment_8_kubectl_conflicts_when_the_annotation_is_of_another_version() {
    check(deployment(Case {
        last_applied: LastApplied::Config(small_deployment("extensions/v1beta1", 3)),
        original: small_deployment("apps/v1", 3),
        applied: small_deployment("apps/v1", 100),
        conflicts: &[".spec.replicas"],
        ..DEFAULTS
    }));
}

#[test]
fn deployment_9_kubectl_conflicts_when_the_annotation_is_not_an_object_of_the_type() {
    check(deployment(Case {
        last_applied: LastApplied::Config(json!({
            "apiVerison": "foo",
            "kind": "bar",
            "spec": "expect conflict due to invalid object"
        })),
        original: small_deployment("apps/v1", 3),
        applied: small_deployment("apps/v1", 100),
        conflicts: &[".spec.replicas"],
        ..DEFAULTS
    }));
}

#[test]
fn deployment_10_kubectl_conflicts_when_the_annotation_is_empty() {
    check(deployment(Case {
        // apimachinery's empty document, written as JSON.
        last_applied: LastApplied::Text("null"),
        original: small_deployment("apps/v1", 3),
        applied: small_deployment("apps/v1", 100),
        conflicts: &[".spec.replicas"],
        ..DEFAULTS
    }));
}

fn service(target_port: i64, selector: Value) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "test"},
        "spec": {
            "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": target_port}],
            "selector": selector
        }
    })
}

fn service_case(case: Case) -> Case {
    Case {
        api_version: "v1",
        kind: "Service",
        ..case
    }
}

#[test]
fn service_0_kubectl_changes_target_port_and_selector() {
    check(service_case(Case {
        original: service(8443, json!({"old": "test"})),
        applied: service(8444, json!({"new": "test"})),
        ..DEFAULTS
    }));
}

#[test]
fn service_1_kubectl_empties_the_selector() {
    check(service_case(Case {
        original: service(8443, json!({"old": "test"})),
        applied: service(8444, json!({})),
        ..DEFAULTS
    }));
}

#[test]
fn service_2_another_manager_conflicts_on_selector_and_target_port() {
    check(service_case(Case {
        field_manager: "not_kubectl",
        original: service(8443, json!({"old": "test"})),
        applied: service(8444, json!({"new": "test"})),
        conflicts: &[
            ".spec.selector",
            ".spec.ports[port=443,protocol=\"TCP\"].targetPort",
        ],
        ..DEFAULTS
    }));
}

fn replication_controller(replicas: i64, selector: Value) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ReplicationController",
        "metadata": {"name": "test"},
        "spec": {"replicas": replicas, "selector": selector}
    })
}

fn replication_controller_case(case: Case) -> Case {
    Case {
        api_version: "v1",
        kind: "ReplicationController",
        ..case
    }
}

#[test]
fn replication_controller_0_kubectl_changes_replicas_and_selector() {
    check(replication_controller_case(Case {
        original: replication_controller(0, json!({"old": "test"})),
        applied: replication_controller(3, json!({"new": "test"})),
        ..DEFAULTS
    }));
}

#[test]
fn replication_controller_1_another_manager_conflicts_on_replicas_and_selector() {
    check(replication_controller_case(Case {
        field_manager: "not_kubectl",
        original: replication_controller(0, json!({"old": "test"})),
        applied: replication_controller(3, json!({"new": "test"})),
        conflicts: &[".spec.replicas", ".spec.selector"],
        ..DEFAULTS
    }));
}

/// A Pod with one container, this node name (none: unset) and node selector.
fn pod(node_name: Option<&str>, node_selector: Value) -> Value {
    let mut object = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "test", "namespace": "test"},
        "spec": {
            "containers": [{
                "args": ["-v=2"],
                "command": ["controller"],
                "image": "some.registry/app:latest",
                "name": "doJob"
            }],
            "nodeSelector": node_selector
        }
    });
    if let Some(node_name) = node_name {
        object["spec"]["nodeName"] = json!(node_name);
    }
    object
}

fn pod_case(case: Case) -> Case {
    Case {
        api_version: "v1",
        kind: "Pod",
        ..case
    }
}

fn original_pod() -> Value {
    pod(
        Some("definetlyControlPlane"),
        json!({"node-role.kubernetes.io/master": ""}),
    )
}

#[test]
fn pod_0_kubectl_drops_node_name_and_changes_node_selector() {
    check(pod_case(Case {
        original: original_pod(),
        applied: pod(None, json!({"node-role.kubernetes.io/worker": ""})),
        ..DEFAULTS
    }));
}

#[test]
fn pod_1_another_manager_conflicts_on_the_atomic_node_selector() {
    check(pod_case(Case {
        field_manager: "not_kubectl",
        original: original_pod(),
        applied: pod(
            Some("definetlyControlPlane"),
            json!({"node-role.kubernetes.io/master": "", "otherNodeType": ""}),
        ),
        conflicts: &[".spec.nodeSelector"],
        ..DEFAULTS
    }));
}

#[test]
fn pod_2_another_manager_may_not_empty_the_node_selector() {
    check(pod_case(Case {
        field_manager: "not_kubectl",
        original: original_pod(),
        applied: pod(Some("another"), json!({})),
        conflicts: &[".spec.nodeName", ".spec.nodeSelector"],
        ..DEFAULTS
    }));
}

#[test]
fn pod_3_kubectl_empties_the_node_selector() {
    check(pod_case(Case {
        original: original_pod(),
        applied: pod(Some("another"), json!({})),
        ..DEFAULTS
    }));
}
