//! Properties of defaulting over generated objects: defaulting twice changes nothing more,
//! and objects of any shape (members of the wrong type included) are defaulted without a
//! panic.

use proptest::prelude::*;
use serde_json::{Value, json};

fn quantity() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[0-9]{1,4}(\\.[0-9]{1,4})?(m|Ki|Mi|Gi|k|M|G|n|u|e3)?".prop_map(Value::from),
        (0u32..5000).prop_map(Value::from),
        Just(json!("not a quantity")),
    ]
}

fn container() -> impl Strategy<Value = Value> {
    (
        "[a-z]{1,8}",
        prop::option::of("[a-z]{1,8}(:[a-z0-9.]{1,6})?"),
        prop::option::of(prop::collection::btree_map(
            "cpu|memory|hugepages-2Mi",
            quantity(),
            0..3,
        )),
        prop::option::of(prop::collection::btree_map("cpu|memory", quantity(), 0..3)),
        prop::option::of(0i64..20),
        any::<bool>(),
    )
        .prop_map(|(name, image, limits, requests, period, grpc)| {
            let mut c = json!({"name": name, "ports": [{"containerPort": 80}]});
            if let Some(image) = image {
                c["image"] = json!(image);
            }
            c["resources"] = json!({});
            if let Some(limits) = limits {
                c["resources"]["limits"] = json!(limits);
            }
            if let Some(requests) = requests {
                c["resources"]["requests"] = json!(requests);
            }
            if let Some(period) = period {
                c["livenessProbe"] = if grpc {
                    json!({"periodSeconds": period, "grpc": {"port": 9}})
                } else {
                    json!({"periodSeconds": period, "httpGet": {"port": 8080}})
                };
            }
            c
        })
}

fn pod_spec() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(container(), 0..4),
        prop::collection::vec(container(), 0..2),
        any::<bool>(),
        prop::option::of(prop::collection::btree_map("cpu|memory", quantity(), 1..3)),
    )
        .prop_map(|(containers, init, host, pod_limits)| {
            let mut spec = json!({"containers": containers, "initContainers": init,
                "hostNetwork": host, "volumes": [{"name": "v"}, {"name": "s", "secret": {}}]});
            if let Some(limits) = pod_limits {
                spec["resources"] = json!({"limits": limits});
            }
            spec
        })
}

fn object() -> impl Strategy<Value = Value> {
    pod_spec().prop_flat_map(|spec| {
        prop_oneof![
            Just(json!({"apiVersion": "v1", "kind": "Pod", "spec": spec.clone()})),
            Just(json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "spec": {"template": {"spec": spec.clone()}}})),
            Just(json!({"apiVersion": "batch/v1", "kind": "CronJob",
                "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}}})),
        ]
    })
}

/// Any JSON, a few levels deep.
fn anything() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-zA-Z0-9]{0,6}".prop_map(Value::from),
    ];
    crate::common::json_tree(
        leaf.boxed(),
        "spec|template|containers|resources|limits|requests|status|volumes|ports|[a-z]{1,5}",
        4,
    )
}

proptest! {
    #[test]
    fn defaulting_twice_changes_nothing_more(object in object()) {
        let mut once = object;
        smp_admission::defaulting::default_object(&mut once).unwrap();
        let mut twice = once.clone();
        smp_admission::defaulting::default_object(&mut twice).unwrap();
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn objects_of_any_shape_are_defaulted_without_panic(
        kind in prop::sample::select(vec![("v1", "Pod"), ("apps/v1", "Deployment"),
            ("v1", "Service"), ("batch/v1", "Job"), ("autoscaling/v2", "HorizontalPodAutoscaler"),
            ("v1", "LimitRange"), ("networking.k8s.io/v1", "NetworkPolicy")]),
        body in anything(),
    ) {
        let mut object = match body {
            Value::Object(map) => Value::Object(map),
            other => json!({"spec": other}),
        };
        object["apiVersion"] = json!(kind.0);
        object["kind"] = json!(kind.1);
        let _ = smp_admission::defaulting::default_object(&mut object);
        smp_admission::strategy::prepare_for_create(&mut object);
    }
}
