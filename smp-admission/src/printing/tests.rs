use serde_json::{Value, json};

use super::{index, print_as_go};

fn printed(mut object: Value) -> Value {
    print_as_go(&mut object);
    object
}

#[test]
fn the_index_reads_and_knows_the_built_in_kinds() {
    let index = index().expect("types.json reads");
    for (api_version, kind) in [
        ("v1", "Pod"),
        ("v1", "Service"),
        ("v1", "ConfigMap"),
        ("apps/v1", "Deployment"),
        ("batch/v1", "Job"),
        ("storage.k8s.io/v1", "CSIStorageCapacity"),
    ] {
        assert!(
            index
                .kinds
                .get(api_version)
                .and_then(|k| k.get(kind))
                .is_some(),
            "{api_version} {kind}"
        );
    }
    let always = index
        .definitions
        .iter()
        .flat_map(|d| &d.encoded_when_unset)
        .filter(|(_, zero)| zero.is_object())
        .count();
    assert_eq!(always, 370);
}

#[test]
fn a_new_deployment_gets_the_structs_go_always_encodes() {
    let deployment = printed(json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
                 "template": {"spec": {"containers": [{"name": "app", "image": "nginx"}]}}}}));
    assert_eq!(
        deployment,
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"selector": {"matchLabels": {"app": "web"}},
                     "strategy": {},
                     "template": {"metadata": {},
                                  "spec": {"containers": [{"name": "app", "image": "nginx", "resources": {}}]}}},
            "status": {}})
    );
}

#[test]
fn pointers_stay_unset() {
    // PodSpec.securityContext, Container.securityContext, probes and a pod's own resources
    // are pointers: nothing is encoded for them.
    let pod = printed(json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "a", "livenessProbe": {"httpGet": {"port": 80}}}]}}));
    let spec = &pod["spec"];
    assert!(spec.get("securityContext").is_none());
    assert!(spec.get("resources").is_none());
    assert!(spec["containers"][0].get("securityContext").is_none());
    assert_eq!(spec["containers"][0]["resources"], json!({}));
    assert_eq!(pod["status"], json!({}));
    // Created objects carry no creation time yet, and v1.34 no longer prints a null one.
    assert!(pod["metadata"].get("creationTimestamp").is_none());
}

#[test]
fn members_of_other_kinds_checked_by_hand() {
    let service = printed(
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
        "spec": {"ports": [{"port": 80, "targetPort": 8080}]}}),
    );
    // ServiceStatus.loadBalancer is a struct held by value inside the status just added, as
    // `kubectl get service -o yaml` shows on any new Service.
    assert_eq!(service["status"], json!({"loadBalancer": {}}));

    let job = printed(
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
        "spec": {}}),
    );
    assert_eq!(job["spec"]["template"], json!({"metadata": {}, "spec": {}}));

    // An absent spec is encoded as an empty one, and what it holds by value inside too.
    let job = printed(json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}}));
    assert_eq!(job["spec"]["template"]["spec"], json!({}));

    // A null struct decodes to the empty one.
    let deployment = printed(json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": null, "spec": {"strategy": null}}));
    assert_eq!(deployment["metadata"], json!({}));
    assert_eq!(deployment["spec"]["strategy"], json!({}));
}

#[test]
fn quantities_print_canonical_wherever_they_are() {
    let pod = printed(json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {
            "containers": [{"name": "a", "resources": {
                "requests": {"cpu": "0.5", "memory": "1000M", "example.com/gpu": 2, "pods": " 3 "},
                "limits": {"cpu": 1.5, "memory": "1024Mi", "odd": "lots"}}}],
            "overhead": {"cpu": "1000m"},
            "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1.5Gi"}}]}}));
    let resources = &pod["spec"]["containers"][0]["resources"];
    assert_eq!(
        resources["requests"],
        json!({"cpu": "500m", "memory": "1G", "example.com/gpu": "2", "pods": "3"})
    );
    // Not a quantity: left for validation to refuse.
    assert_eq!(
        resources["limits"],
        json!({"cpu": "1500m", "memory": "1Gi", "odd": "lots"})
    );
    assert_eq!(pod["spec"]["overhead"], json!({"cpu": "1"}));
    assert_eq!(pod["spec"]["volumes"][0]["emptyDir"]["sizeLimit"], "1536Mi");

    let capacity = printed(
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity",
        "metadata": {"name": "c"}, "storageClassName": "s",
        "capacity": "2048Mi", "maximumVolumeSize": "1000k"}),
    );
    assert_eq!(capacity["capacity"], "2Gi");
    assert_eq!(capacity["maximumVolumeSize"], "1M");
}

#[test]
fn a_null_quantity_in_a_list_is_zero_and_a_null_pointer_is_left() {
    let quota = printed(json!({"apiVersion": "v1", "kind": "ResourceQuota",
        "metadata": {"name": "q"}, "spec": {"hard": {"pods": null}}}));
    assert_eq!(quota["spec"]["hard"], json!({"pods": "0"}));
    let pod = printed(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"volumes": [{"name": "v", "emptyDir": {"sizeLimit": null}}]}}),
    );
    assert_eq!(
        pod["spec"]["volumes"][0]["emptyDir"]["sizeLimit"],
        Value::Null
    );
}

#[test]
fn by_value_scalar_like_members_print_their_zero() {
    let pod = printed(json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "a", "env": [{"name": "CPU", "valueFrom":
            {"resourceFieldRef": {"resource": "limits.cpu"}}}]}]},
        "status": {"conditions": [{"type": "PodScheduled", "status": "True"}],
                   "containerStatuses": [{"name": "a", "state": {"running": {}}}]}}));
    assert_eq!(
        pod["spec"]["containers"][0]["env"][0]["valueFrom"]["resourceFieldRef"]["divisor"],
        "0"
    );
    assert_eq!(
        pod["status"]["conditions"][0],
        json!({"type": "PodScheduled", "status": "True",
               "lastProbeTime": null, "lastTransitionTime": null})
    );
    assert_eq!(
        pod["status"]["containerStatuses"][0]["state"]["running"],
        json!({"startedAt": null})
    );
}

#[test]
fn raw_json_held_by_value_prints_null() {
    let revision = printed(
        json!({"apiVersion": "apps/v1", "kind": "ControllerRevision",
        "metadata": {"name": "r"}, "revision": 1}),
    );
    assert_eq!(revision["data"], Value::Null);
    assert!(revision.as_object().expect("object").contains_key("data"));
    let kept = json!({"apiVersion": "apps/v1", "kind": "ControllerRevision",
        "metadata": {"name": "r"}, "revision": 1, "data": {"spec": {"resources": {}}}});
    assert_eq!(printed(kept.clone()), kept);
}

#[test]
fn printing_twice_changes_nothing() {
    let once = printed(json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"template": {"spec": {
            "containers": [{"name": "app", "resources": {"limits": {"memory": "0.5Gi", "cpu": 2}}}],
            "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1000Mi"}}]}}},
        "status": {"conditions": [{"type": "Available"}]}}));
    assert_eq!(
        once["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"],
        json!({"memory": "512Mi", "cpu": "2"})
    );
    assert_eq!(printed(once.clone()), once);
}

#[test]
fn objects_of_other_kinds_are_untouched() {
    for object in [
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"resources": {"cpu": "1000m"}}}),
        json!({"apiVersion": "apps/v1", "kind": "Widget", "spec": {}}),
        json!({"kind": "Deployment", "spec": {}}),
        json!({"apiVersion": "apps/v1", "spec": {}}),
        json!({"apiVersion": 1, "kind": "Deployment"}),
        json!({"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod"}]}),
        json!("apps/v1"),
        json!([{"apiVersion": "apps/v1", "kind": "Deployment"}]),
        Value::Null,
    ] {
        assert_eq!(printed(object.clone()), object);
    }
}

#[test]
fn wrong_json_types_are_left_and_do_not_panic() {
    let wrong = json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": "web",
        "spec": {"strategy": 3, "template": {"metadata": [], "spec": {
            "containers": {"name": "app"},
            "initContainers": [null, 1, "x", [], {"name": "i", "resources": "big"}],
            "overhead": ["1000m"],
            "volumes": [{"name": "v", "emptyDir": {"sizeLimit": {"value": "1000Mi"}}}]}}},
        "status": true});
    let out = printed(wrong.clone());
    // Every member here is set, to a value decoding would refuse: none is filled or rewritten.
    assert_eq!(out, wrong);
    // Every member of the wrong type, one at a time, on an otherwise good Deployment.
    for (path, bad) in [
        ("/spec", json!("x")),
        ("/spec/template", json!(5)),
        ("/spec/template/spec", json!(null)),
        ("/spec/template/spec/containers", json!("x")),
        (
            "/spec/template/spec/containers/0/resources/limits",
            json!([1, 2]),
        ),
        (
            "/spec/template/spec/containers/0/resources/limits/cpu",
            json!({"a": 1}),
        ),
        (
            "/spec/template/spec/containers/0/resources/limits/cpu",
            json!(true),
        ),
    ] {
        let mut object = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "spec": {"template": {"spec": {"containers": [{"name": "a", "resources": {"limits": {"cpu": "1"}}}]}}}});
        *object.pointer_mut(path).expect(path) = bad;
        print_as_go(&mut object);
    }
}

#[test]
fn large_objects_are_walked_once() {
    let containers: Vec<Value> = (0..20_000)
        .map(|i| json!({"name": format!("c{i}"), "resources": {"requests": {"cpu": "1000m"}}}))
        .collect();
    let pod =
        printed(json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": containers}}));
    let containers = pod["spec"]["containers"].as_array().expect("containers");
    assert!(
        containers
            .iter()
            .all(|c| c["resources"]["requests"]["cpu"] == "1")
    );
}
