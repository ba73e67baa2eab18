//! Properties of validation and admission over generated objects: every covered kind is
//! validated (as create and as update) without a panic whatever the shape of its members, and
//! a well-formed Deployment, Pod or Job, once defaulted, admitted and prepared as the server
//! does, is valid (the defaults give validation everything it requires).

use proptest::prelude::*;
use serde_json::{Value, json};
use smp_admission::admission::{OfflineCluster, Plugins, admit_create};
use smp_admission::validation::{errors_on_create, errors_on_update};

/// Any JSON, a few levels deep, with the member names validation reads most.
fn anything() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-zA-Z0-9./-]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                "metadata|name|spec|template|containers|selector|matchLabels|ports|port|rules|\
                 subjects|roleRef|data|type|labels|resources|limits|volumes|[a-z]{1,5}",
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const KINDS: &[(&str, &str)] = &[
    ("v1", "Pod"),
    ("v1", "Service"),
    ("v1", "ConfigMap"),
    ("v1", "Secret"),
    ("v1", "Namespace"),
    ("v1", "PersistentVolumeClaim"),
    ("v1", "Event"),
    ("v1", "Endpoints"),
    ("v1", "ReplicationController"),
    ("v1", "LimitRange"),
    ("v1", "ResourceQuota"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "DaemonSet"),
    ("batch/v1", "Job"),
    ("batch/v1", "CronJob"),
    ("networking.k8s.io/v1", "Ingress"),
    ("networking.k8s.io/v1", "NetworkPolicy"),
    ("policy/v1", "PodDisruptionBudget"),
    ("rbac.authorization.k8s.io/v1", "ClusterRole"),
    ("rbac.authorization.k8s.io/v1", "RoleBinding"),
    ("coordination.k8s.io/v1", "Lease"),
    ("autoscaling/v2", "HorizontalPodAutoscaler"),
    ("autoscaling/v1", "HorizontalPodAutoscaler"),
    ("events.k8s.io/v1", "Event"),
    ("scheduling.k8s.io/v1", "PriorityClass"),
    ("storage.k8s.io/v1", "StorageClass"),
    ("storage.k8s.io/v1", "CSIDriver"),
    ("storage.k8s.io/v1", "CSINode"),
    ("storage.k8s.io/v1", "VolumeAttachment"),
    ("storage.k8s.io/v1", "CSIStorageCapacity"),
    ("storage.k8s.io/v1", "VolumeAttributesClass"),
    ("flowcontrol.apiserver.k8s.io/v1", "FlowSchema"),
    (
        "flowcontrol.apiserver.k8s.io/v1",
        "PriorityLevelConfiguration",
    ),
    (
        "admissionregistration.k8s.io/v1",
        "ValidatingWebhookConfiguration",
    ),
    (
        "admissionregistration.k8s.io/v1",
        "MutatingWebhookConfiguration",
    ),
    (
        "admissionregistration.k8s.io/v1",
        "ValidatingAdmissionPolicy",
    ),
    (
        "admissionregistration.k8s.io/v1",
        "ValidatingAdmissionPolicyBinding",
    ),
];

fn typed(kind: (&str, &str), body: Value) -> Value {
    let mut object = match body {
        Value::Object(map) => Value::Object(map),
        other => json!({"spec": other}),
    };
    object["apiVersion"] = json!(kind.0);
    object["kind"] = json!(kind.1);
    object
}

/// A container that is well formed: a unique name, an image, requests within limits.
fn container(i: usize) -> impl Strategy<Value = Value> {
    (
        prop::option::of((1u32..4000, 1u32..4)),
        prop::option::of(1u16..65535),
        any::<bool>(),
    )
        .prop_map(move |(cpu, port, probe)| {
            let mut c =
                json!({"name": format!("c{i}"), "image": format!("registry.example/app{i}:1.{i}")});
            if let Some((millis, factor)) = cpu {
                c["resources"] = json!({"requests": {"cpu": format!("{millis}m")},
                    "limits": {"cpu": format!("{}m", millis * factor), "memory": "64Mi"}});
            }
            if let Some(port) = port {
                c["ports"] = json!([{"containerPort": port, "name": "main"}]);
            }
            if probe {
                c["readinessProbe"] = json!({"httpGet": {"path": "/healthz", "port": 8080}});
            }
            c
        })
}

fn pod_spec() -> impl Strategy<Value = Value> {
    (1usize..4)
        .prop_flat_map(|n| (0..n).map(container).collect::<Vec<_>>())
        .prop_map(|containers| json!({"containers": containers}))
}

fn valid_object() -> impl Strategy<Value = Value> {
    (pod_spec(), "[a-z]{1,10}", 0i64..5).prop_flat_map(|(spec, name, replicas)| {
        let labels = json!({"app": name});
        prop_oneof![
            Just(json!({"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": "default"}, "spec": spec.clone()})),
            Just(json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "namespace": "default"},
                "spec": {"replicas": replicas, "selector": {"matchLabels": labels},
                    "template": {"metadata": {"labels": labels}, "spec": spec.clone()}}})),
            Just(json!({"apiVersion": "batch/v1", "kind": "Job",
                "metadata": {"name": name, "namespace": "default", "uid": "7c9e6679-7425-40de-944b-e07fc1f90ae7"},
                "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": spec["containers"]}}}})),
        ]
    })
}

proptest! {
    #[test]
    fn objects_of_any_shape_are_validated_without_panic(
        kind in prop::sample::select(KINDS.to_vec()),
        body in anything(),
        old in anything(),
    ) {
        let object = typed(kind, body);
        let old = typed(kind, old);
        let _ = errors_on_create(&object);
        let _ = errors_on_update(&object, &old);
    }

    #[test]
    fn well_formed_objects_are_valid_once_the_server_has_completed_them(object in valid_object()) {
        let mut object = object;
        smp_admission::defaulting::default_object(&mut object).unwrap();
        admit_create(&mut object, "default", &OfflineCluster::new(), &Plugins::all()).unwrap();
        smp_admission::strategy::prepare_for_create(&mut object);
        let errors = errors_on_create(&object).unwrap();
        prop_assert!(errors.is_empty(), "{object:#}\n{errors:#?}");
        // An update that changes nothing is valid too.
        let mut stored = object.clone();
        stored["metadata"]["resourceVersion"] = json!("1");
        let errors = errors_on_update(&stored, &stored).unwrap();
        prop_assert!(errors.is_empty(), "{errors:#?}");
    }
}
