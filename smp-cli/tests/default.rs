//! End-to-end tests of `smp default`: a stream of documents and a List defaulted object by
//! object, kinds without defaults unchanged, and the error contract.

mod common;

use common::{assert_error, assert_success, smp, temp_file};
use serde_json::{Value, json};

#[test]
fn every_object_of_a_stream_is_defaulted() {
    let stream = "\
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  ports: [{port: 80}]
---
apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: CronJob
  metadata: {name: nightly}
  spec:
    schedule: '0 3 * * *'
    jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox}]}}}}
- apiVersion: rbac.authorization.k8s.io/v1
  kind: Role
  metadata: {name: reader}
";
    let out = smp(&["default", "-f", "-"], Some(stream));
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let objects: Vec<Value> = serde_json::Deserializer::from_str(&text)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(objects.len(), 3);
    assert_eq!(
        objects[0]["spec"],
        json!({"type": "ClusterIP", "sessionAffinity": "None", "internalTrafficPolicy": "Cluster",
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]})
    );
    let container = &objects[1]["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(
        container["imagePullPolicy"], "Always",
        "busybox is busybox:latest"
    );
    assert_eq!(objects[1]["spec"]["concurrencyPolicy"], "Allow");
    assert_eq!(
        objects[2],
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": {"name": "reader"}})
    );
}

#[test]
fn yaml_out_and_objects_that_cannot_be_defaulted() {
    let file = temp_file(
        "default-errors.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\nkind: Pod\n---\n- 1\n",
    );
    let out = smp(&["default", "-f", &file, "-o", "yaml"], None);
    // The good object is printed; each bad one is an `error: ` line naming it; status 1.
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(
        stdout,
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ntype: Opaque\n"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("error: ") && lines[0].contains("document 2"));
    assert!(lines[0].contains("no apiVersion"), "{stderr}");
    assert!(lines[1].contains("document 3") && lines[1].contains("expected an object"));
}

#[test]
fn an_unreadable_file_is_one_error() {
    let out = smp(&["default", "-f", "/nonexistent/objects.yaml"], None);
    assert_error(&out, &["/nonexistent/objects.yaml"]);
}

#[test]
fn pods_get_what_the_admission_plugins_add_unless_left_out() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: app:1}]\n";
    let cluster = temp_file(
        "cluster.yaml",
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: normal}\nvalue: 100\nglobalDefault: true\npreemptionPolicy: PreemptLowerPriority\n",
    );
    let out = smp(&["default", "-f", "-", "--cluster", &cluster], Some(pod));
    assert_success(&out);
    let pod_out: Value = serde_json::from_slice(&out.stdout).unwrap();
    let spec = &pod_out["spec"];
    assert_eq!(spec["serviceAccountName"], "default");
    assert_eq!(spec["priorityClassName"], "normal");
    assert_eq!(spec["priority"], 100);
    assert_eq!(spec["tolerations"].as_array().unwrap().len(), 2);
    assert!(
        spec["volumes"][0]["name"]
            .as_str()
            .unwrap()
            .starts_with("kube-api-access-")
    );

    let out = smp(&["default", "-f", "-", "--no-admission"], Some(pod));
    assert_success(&out);
    let plain: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(plain["spec"].get("serviceAccountName").is_none());
    assert!(plain["spec"].get("tolerations").is_none());
}

/// A custom resource of a real CRD (Gateway API v1.x's HTTPRoute, from the shared data) is
/// pruned and defaulted as its schema says, as kube-apiserver's custom resource handler does
/// (apiextensions-apiserver `customresource_handler.go`: pruning on decoding, then the
/// structural defaults): the `group`/`kind` of a parent reference, a backend reference's
/// `group`, `kind` and `weight`, and a rule's default path match; an undeclared field is
/// dropped and named on standard error.
#[test]
fn a_custom_resource_is_pruned_and_defaulted_by_its_crd() {
    let Some(crds) = smp_testdata::file("crds/gateway-api/crds") else {
        return;
    };
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: default}
spec:
  colour: red
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: web, port: 80}]
";
    let out = smp(
        &["default", "-f", "-", "--crd", crds.to_str().unwrap()],
        Some(route),
    );
    assert_success(&out);
    let object: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        object["spec"],
        json!({
            "parentRefs": [{"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "gw"}],
            "rules": [{
                "backendRefs": [{"group": "", "kind": "Service", "name": "web", "port": 80, "weight": 1}],
                "matches": [{"path": {"type": "PathPrefix", "value": "/"}}]
            }]
        })
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "Warning: <stdin> document 1: unknown field \"spec.colour\"\n"
    );
}
