use serde_json::json;

use super::*;

fn pod(containers: serde_json::Value) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": containers}})
}

#[test]
fn merges_by_the_documents_kind_or_the_given_one() {
    let live = pod(json!([{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]));
    let patch = json!({"spec": {"containers": [{"name": "b", "image": "b:2"}]}});
    let merged = merge(live.clone(), &patch, &Typing::default()).unwrap();
    assert_eq!(
        merged["spec"]["containers"][1],
        json!({"name": "b", "image": "b:2"})
    );
    let mut bare = live.clone();
    bare.as_object_mut().unwrap().retain(|k, _| k == "spec");
    let untyped = merge(bare.clone(), &patch, &Typing::default()).unwrap();
    assert_eq!(untyped["spec"]["containers"], patch["spec"]["containers"]);
    let typing = Typing {
        kind: Some(("v1".into(), "Pod".into())),
        ..Typing::default()
    };
    let typed = merge(bare, &patch, &typing).unwrap();
    assert_eq!(typed["spec"], merged["spec"]);
}

#[test]
fn three_way_conflicts_name_no_manager() {
    let last = json!({"data": {"a": "1"}});
    let config = json!({"data": {"a": "2"}});
    let live = json!({"data": {"a": "9"}});
    let e = three_way(&last, &config, &live, false, &Typing::default()).unwrap_err();
    let Error::Conflict { conflicts, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(conflicts, [(None, "data.a".to_owned())]);
}

#[test]
fn server_side_conflicts_name_the_manager_and_the_field() {
    let web = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"}, "spec": {"replicas": 3}});
    let scale = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"}, "spec": {"replicas": 5}});
    let as_manager = |m: &str| Ssa {
        manager: m.into(),
        now: Some(parse_time("2026-11-29T12:00:00Z").unwrap()),
        ..Ssa::default()
    };
    let typing = Typing::default();
    let live = server_side_apply(&json!({}), &web, false, &typing, &as_manager("kubectl")).unwrap();
    let e = server_side_apply(&live, &scale, false, &typing, &as_manager("hpa")).unwrap_err();
    assert_eq!(
        e,
        Error::Conflict {
            message: "Apply failed with 1 conflict: conflict with \"kubectl\": .spec.replicas"
                .into(),
            conflicts: vec![(Some("kubectl".into()), ".spec.replicas".into())],
        }
    );
    let forced = server_side_apply(&live, &scale, true, &typing, &as_manager("hpa")).unwrap();
    assert_eq!(forced["spec"]["replicas"], 5);
    let updated = update(&forced, forced.clone(), &typing, &as_manager("ctl")).unwrap();
    assert_eq!(updated["spec"], forced["spec"]);
}

#[test]
fn documents_must_be_objects_and_null_is_empty() {
    assert_eq!(object(json!(null), DocRole::Patch).unwrap(), json!({}));
    let e = object(json!([1]), DocRole::Original).unwrap_err();
    assert_eq!(e.message(), "the original must be an object, not list");
    assert_eq!(parse("a: 1", DocRole::Patch).unwrap(), json!({"a": 1}));
    assert_eq!(parse("", DocRole::Patch).unwrap(), json!({}));
    assert!(matches!(
        parse("a: [", DocRole::Patch),
        Err(Error::Patch { .. })
    ));
    assert!(matches!(parse_time("soon"), Err(Error::Patch { .. })));
}

#[test]
fn normalize_reads_the_kind_before_the_change() {
    let old = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}});
    let mut new = old.clone();
    new["spec"]["strategy"]["type"] = json!("Recreate");
    let normalized = normalize(new, Some(&old), &Typing::default()).unwrap();
    assert_eq!(normalized["spec"]["strategy"], json!({"type": "Recreate"}));
}

#[test]
fn crds_type_their_custom_resources() {
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object", "properties": {
                    "items": {"type": "array", "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["name"],
                        "items": {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}}}}}}}}}]}});
    let mut crds = Crds::new();
    crds.add_document(&crd, "test").unwrap();
    assert_eq!(
        crds.kinds(),
        [("example.com/v1".to_owned(), "Widget".to_owned())]
    );
    let typing = Typing {
        crds: Some(std::sync::Arc::new(crds)),
        ..Typing::default()
    };
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w"}, "spec": {"items": [{"name": "a", "size": 1}]}});
    let patch = json!({"spec": {"items": [{"name": "b", "size": 2}]}});
    let merged = merge(widget.clone(), &patch, &typing).unwrap();
    assert_eq!(merged["spec"]["items"].as_array().unwrap().len(), 2);
    let applied = server_side_apply(
        &json!({}),
        &widget,
        false,
        &typing,
        &Ssa {
            manager: "m".into(),
            ..Ssa::default()
        },
    )
    .unwrap();
    assert!(applied["metadata"]["managedFields"].is_array());
}
