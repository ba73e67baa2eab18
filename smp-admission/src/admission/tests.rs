//! The plugins on the cases their upstream tests check (`admission_test.go` of each plugin,
//! v1.34), as this crate's own examples.

use serde_json::{Value, json};

use super::*;

fn pod(spec: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"}, "spec": spec})
}

fn admit(obj: &mut Value, cluster: &OfflineCluster) -> Result<(), Forbidden> {
    admit_create(obj, "ns", cluster, &Plugins::all())
}

#[test]
fn a_pod_gets_its_service_account_token_priority_and_tolerations() {
    let mut p = pod(json!({"containers": [{"name": "c", "image": "i"}],
        "initContainers": [{"name": "i", "image": "i"}]}));
    admit(&mut p, &OfflineCluster::new()).unwrap();
    let spec = &p["spec"];
    assert_eq!(spec["serviceAccountName"], "default");
    let volume = &spec["volumes"][0];
    let name = volume["name"].as_str().unwrap();
    assert!(
        name.starts_with("kube-api-access-") && name.len() == 21,
        "{name}"
    );
    assert_eq!(volume["projected"]["defaultMode"], 420);
    assert_eq!(
        volume["projected"]["sources"][0]["serviceAccountToken"]["expirationSeconds"],
        3607
    );
    for list in ["containers", "initContainers"] {
        assert_eq!(
            spec[list][0]["volumeMounts"],
            json!([{"name": name, "readOnly": true, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}])
        );
    }
    assert_eq!(spec["priority"], 0);
    assert_eq!(spec["preemptionPolicy"], "PreemptLowerPriority");
    assert!(spec.get("priorityClassName").is_none());
    assert_eq!(
        spec["tolerations"],
        json!([
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
        ])
    );
}

#[test]
fn automounting_off_and_existing_mounts_leave_the_token_out() {
    let mut p = pod(json!({"automountServiceAccountToken": false, "containers": [{"name": "c"}]}));
    admit(&mut p, &OfflineCluster::new()).unwrap();
    assert!(p["spec"].get("volumes").is_none());
    let mut cluster = OfflineCluster::new();
    cluster.add(json!({"apiVersion": "v1", "kind": "ServiceAccount",
        "metadata": {"name": "builder", "namespace": "ns"}, "automountServiceAccountToken": false,
        "imagePullSecrets": [{"name": "registry"}]}));
    let mut p = pod(json!({"serviceAccountName": "builder", "containers": [{"name": "c"}]}));
    admit(&mut p, &cluster).unwrap();
    assert!(p["spec"].get("volumes").is_none());
    assert_eq!(p["spec"]["imagePullSecrets"], json!([{"name": "registry"}]));
}

#[test]
fn a_missing_service_account_or_class_is_forbidden() {
    let mut p = pod(json!({"serviceAccountName": "nobody", "containers": [{"name": "c"}]}));
    assert_eq!(
        admit(&mut p, &OfflineCluster::new())
            .unwrap_err()
            .to_string(),
        "pods \"p\" is forbidden: error looking up service account ns/nobody: serviceaccount \"nobody\" not found"
    );
    let mut p = pod(json!({"priorityClassName": "gold", "containers": [{"name": "c"}]}));
    assert_eq!(
        admit(&mut p, &OfflineCluster::new()).unwrap_err().reason,
        "no PriorityClass with name gold was found"
    );
    let mut p = pod(
        json!({"priorityClassName": "system-node-critical", "priority": 5, "containers": [{"name": "c"}]}),
    );
    assert_eq!(
        admit(&mut p, &OfflineCluster::new()).unwrap_err().reason,
        "the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 2000001000 from the given PriorityClass name"
    );
}

#[test]
fn a_global_default_class_names_the_priority() {
    let mut cluster = OfflineCluster::new();
    cluster.add(json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
        "metadata": {"name": "normal"}, "value": 1000, "globalDefault": true, "preemptionPolicy": "Never"}));
    let mut p = pod(json!({"containers": [{"name": "c"}]}));
    admit(&mut p, &cluster).unwrap();
    assert_eq!(p["spec"]["priorityClassName"], "normal");
    assert_eq!(p["spec"]["priority"], 1000);
    assert_eq!(p["spec"]["preemptionPolicy"], "Never");
}

#[test]
fn tolerating_everything_adds_nothing() {
    let mut p =
        pod(json!({"tolerations": [{"operator": "Exists"}], "containers": [{"name": "c"}]}));
    admit(&mut p, &OfflineCluster::new()).unwrap();
    assert_eq!(p["spec"]["tolerations"], json!([{"operator": "Exists"}]));
}

#[test]
fn limit_ranges_default_resources_and_say_so() {
    let mut cluster = OfflineCluster::new();
    cluster.add(json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "lr", "namespace": "ns"},
        "spec": {"limits": [{"type": "Container", "default": {"memory": "512Mi", "cpu": "1"},
            "defaultRequest": {"cpu": "100m"}}]}}));
    let mut p =
        pod(json!({"containers": [{"name": "app", "resources": {"limits": {"cpu": "2"}}}]}));
    admit(&mut p, &cluster).unwrap();
    assert_eq!(
        p["spec"]["containers"][0]["resources"],
        json!({"limits": {"cpu": "2", "memory": "512Mi"}, "requests": {"cpu": "100m"}})
    );
    assert_eq!(
        p["metadata"]["annotations"]["kubernetes.io/limit-ranger"],
        "LimitRanger plugin set: cpu request for container app; memory limit for container app"
    );
}

#[test]
fn claims_and_ingresses_get_the_default_class() {
    let mut cluster = OfflineCluster::new();
    for (name, created) in [
        ("old", "2020-01-01T00:00:00Z"),
        ("new", "2024-01-01T00:00:00Z"),
    ] {
        cluster.add(
            json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
            "metadata": {"name": name, "creationTimestamp": created,
                "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}}}),
        );
    }
    cluster.add(json!({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
        "metadata": {"name": "nginx", "annotations": {"ingressclass.kubernetes.io/is-default-class": "true"}}}));
    let mut pvc = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c"}, "spec": {}});
    admit(&mut pvc, &cluster).unwrap();
    assert_eq!(pvc["spec"]["storageClassName"], "new");
    assert_eq!(
        pvc["metadata"]["finalizers"],
        json!(["kubernetes.io/pvc-protection"])
    );
    let mut none = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c"}, "spec": {"storageClassName": ""}});
    admit(&mut none, &cluster).unwrap();
    assert_eq!(none["spec"]["storageClassName"], "");
    let mut ing = json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "i"}, "spec": {}});
    admit(&mut ing, &cluster).unwrap();
    assert_eq!(ing["spec"]["ingressClassName"], "nginx");
}

#[test]
fn plugins_left_out_do_nothing_and_odd_shapes_do_not_panic() {
    let mut p = pod(json!({"containers": [{"name": "c"}]}));
    let before = p.clone();
    admit_create(&mut p, "ns", &OfflineCluster::new(), &Plugins::none()).unwrap();
    assert_eq!(p, before);
    for odd in [
        json!({"apiVersion": "v1", "kind": "Pod", "spec": 3}),
        json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": 1, "tolerations": "x", "volumes": {}}}),
        json!({"apiVersion": "v1", "kind": "Node", "spec": []}),
        json!("text"),
    ] {
        let mut odd = odd;
        let _ = admit(&mut odd, &OfflineCluster::new());
    }
}

/// LimitRanger's validation: each message of `minConstraint`, `maxConstraint`,
/// `limitRequestRatioConstraint` and `maxRequestConstraint` (limitranger `admission.go`),
/// the quantities printed as Go prints them, several errors of one range in brackets.
#[test]
fn limit_ranges_refuse_what_breaks_them() {
    let mut cluster = OfflineCluster::new();
    cluster.add(json!({"apiVersion": "v1", "kind": "LimitRange",
        "metadata": {"name": "limits", "namespace": "ns"},
        "spec": {"limits": [
            {"type": "Container", "max": {"cpu": "1"}, "min": {"memory": "64Mi"},
                "maxLimitRequestRatio": {"cpu": "2"}},
            {"type": "Pod", "max": {"memory": "1Gi"}},
            {"type": "PersistentVolumeClaim", "min": {"storage": "1Gi"}, "max": {"storage": "10Gi"}}]}}));
    let check = |object: &Value| {
        validate_limits(object, None, "ns", "", &cluster).map_err(|e| e.to_string())
    };
    let with = |resources: Value| {
        let mut p =
            pod(json!({"containers": [{"name": "app", "image": "app", "resources": resources}]}));
        p["metadata"]["name"] = json!("web");
        p
    };
    let fits = with(json!({"limits": {"cpu": "1", "memory": "512Mi"},
        "requests": {"cpu": "500m", "memory": "128Mi"}}));
    assert_eq!(check(&fits), Ok(()));
    assert_eq!(
        check(&with(
            json!({"limits": {"cpu": "2", "memory": "512Mi"}, "requests": {"cpu": "1500m", "memory": "128Mi"}})
        )),
        Err(
            r#"pods "web" is forbidden: maximum cpu usage per Container is 1, but limit is 2"#
                .to_owned()
        )
    );
    assert_eq!(
        check(&with(json!({"limits": {"memory": "2Gi"}, "requests": {"memory": "32Mi"}}))),
        Err(concat!(
            r#"pods "web" is forbidden: [minimum memory usage per Container is 64Mi, but request is 32Mi, "#,
            "maximum cpu usage per Container is 1.  No limit is specified, ",
            "cpu max limit to request ratio per Container is 2, but no request is specified or request is 0, ",
            "maximum memory usage per Pod is 1Gi, but limit is 2Gi]"
        )
        .to_owned())
    );
    assert_eq!(
        check(&with(json!({"limits": {"cpu": "1", "memory": "512Mi"}, "requests": {"cpu": "300m", "memory": "128Mi"}}))),
        Err(r#"pods "web" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 3.333333"#.to_owned())
    );
    // A pod's total: the containers' sum, at least each init container's need.
    let mut two = pod(json!({
        "initContainers": [{"name": "init", "image": "i", "resources": {"limits": {"cpu": "1", "memory": "900Mi"}, "requests": {"cpu": "1", "memory": "128Mi"}}}],
        "containers": [
            {"name": "a", "image": "a", "resources": {"limits": {"cpu": "1", "memory": "600Mi"}, "requests": {"cpu": "1", "memory": "128Mi"}}},
            {"name": "b", "image": "b", "resources": {"limits": {"cpu": "1", "memory": "600Mi"}, "requests": {"cpu": "1", "memory": "128Mi"}}}]}));
    two["metadata"]["name"] = json!("two");
    assert_eq!(
        check(&two),
        Err(
            r#"pods "two" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1200Mi"#
                .to_owned()
        )
    );
    let claim = |storage: &str| {
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": "data", "namespace": "ns"},
        "spec": {"resources": {"requests": {"storage": storage}}}})
    };
    assert_eq!(check(&claim("5Gi")), Ok(()));
    assert_eq!(
        check(&claim("20Gi")),
        Err(r#"persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi"#.to_owned())
    );
    assert_eq!(
        check(&claim("500Mi")),
        Err(r#"persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi"#.to_owned())
    );
    // Pod updates other than a resize are not checked; nor are namespaces without ranges.
    let big = with(json!({"limits": {"cpu": "8"}}));
    assert_eq!(
        validate_limits(&big, Some(&fits), "ns", "", &cluster),
        Ok(())
    );
    assert!(validate_limits(&big, Some(&fits), "ns", "resize", &cluster).is_err());
    assert_eq!(validate_limits(&big, None, "other", "", &cluster), Ok(()));
}

/// PersistentVolumeClaimResize (`resize/admission_test.go`'s cases, as its messages say them):
/// growing needs a bound claim and a class that allows expansion; shrinking or keeping the
/// size is left to validation.
#[test]
fn claims_grow_only_when_bound_and_their_class_allows_it() {
    let mut cluster = OfflineCluster::new();
    cluster.add(
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
        "metadata": {"name": "gold"}, "provisioner": "p", "allowVolumeExpansion": true}),
    );
    cluster.add(
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
        "metadata": {"name": "silver"}, "provisioner": "p"}),
    );
    let claim = |size: &str, class: &str, phase: &str| {
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": "data", "namespace": "ns"},
            "spec": {"storageClassName": class, "resources": {"requests": {"storage": size}}},
            "status": {"phase": phase}})
    };
    let check = |new: &Value, old: &Value| {
        validate_claim_resize(new, old, "", &cluster).map_err(|e| e.to_string())
    };
    assert_eq!(
        check(
            &claim("2Gi", "gold", "Bound"),
            &claim("1Gi", "gold", "Bound")
        ),
        Ok(())
    );
    assert_eq!(
        check(
            &claim("1Gi", "silver", "Bound"),
            &claim("1Gi", "silver", "Bound")
        ),
        Ok(())
    );
    assert_eq!(
        check(&claim("2Gi", "gold", "Pending"), &claim("1Gi", "gold", "Pending")),
        Err(r#"persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded"#.to_owned())
    );
    let refused = r#"persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"#;
    assert_eq!(
        check(
            &claim("2Gi", "silver", "Bound"),
            &claim("1Gi", "silver", "Bound")
        ),
        Err(refused.to_owned())
    );
    assert_eq!(
        check(&claim("2Gi", "", "Bound"), &claim("1Gi", "", "Bound")),
        Err(refused.to_owned())
    );
    assert_eq!(
        check(
            &claim("2Gi", "gold", "Bound"),
            &claim("1Gi", "silver", "Bound")
        ),
        Err(refused.to_owned())
    );
    // The status subresource is not checked.
    let status = validate_claim_resize(
        &claim("2Gi", "silver", "Bound"),
        &claim("1Gi", "silver", "Bound"),
        "status",
        &cluster,
    );
    assert_eq!(status, Ok(()));
}
