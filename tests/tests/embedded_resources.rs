//! Embedded resources (`x-kubernetes-embedded-resource`) and open objects
//! (`x-kubernetes-preserve-unknown-fields`) of custom resources, as the custom_resources guide
//! table says: an embedded object is typed by its own `apiVersion` and `kind` (built-in kinds
//! from smp-types, custom resources from a CRD catalog), by its declared properties with an
//! `ObjectMeta` `metadata` when the kind is unknown, and a change of kind is a JSON merge patch;
//! members an open object does not declare are data that diff compares without metadata.

use serde_json::{Value, json};
use smp_core::openapi::crd::{CrdCatalog, from_crd};
use smp_core::{
    Conflicts, KindSchemas, Node, Schema, ThreeWayOptions, apply, apply_json, diff, three_way,
};
use smp_types::BuiltInKinds;

/// A `Widget` whose `spec.template` is an embedded resource, `spec.templates` a list of them,
/// and `spec.extra` an open object declaring one property.
fn widget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {
                    "spec": {"type": "object", "properties": {
                        "template": {
                            "type": "object",
                            "x-kubernetes-embedded-resource": true,
                            "x-kubernetes-preserve-unknown-fields": true
                        },
                        "declared": {
                            "type": "object",
                            "x-kubernetes-embedded-resource": true,
                            "properties": {
                                "apiVersion": {"type": "string"},
                                "kind": {"type": "string"},
                                "metadata": {"type": "object"},
                                "ports": {
                                    "type": "array",
                                    "x-kubernetes-list-type": "map",
                                    "x-kubernetes-list-map-keys": ["name"],
                                    "items": {"type": "object", "properties": {
                                        "name": {"type": "string"}, "port": {"type": "integer"}}}
                                }
                            }
                        },
                        "templates": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "x-kubernetes-embedded-resource": true,
                                "x-kubernetes-preserve-unknown-fields": true
                            }
                        },
                        "extra": {
                            "type": "object",
                            "x-kubernetes-preserve-unknown-fields": true,
                            "properties": {"size": {"type": "integer"}}
                        },
                        "closed": {"type": "object", "properties": {"size": {"type": "integer"}}}
                    }}
                }
            }}}]
        }
    })
}

/// A `Gadget` custom resource whose `spec.parts` merge by `name`.
fn gadget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Gadget", "plural": "gadgets"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "properties": {"parts": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {
                        "name": {"type": "string"}, "size": {"type": "integer"}}}
                }}}}
            }}}]
        }
    })
}

/// The Widget schema and a catalog knowing Widget and Gadget.
fn schemas() -> (Schema, CrdCatalog) {
    let mut catalog = CrdCatalog::new();
    catalog.add_crd(&widget_crd()).expect("Widget loads");
    catalog.add_crd(&gadget_crd()).expect("Gadget loads");
    (
        from_crd(&widget_crd(), "v1").expect("Widget loads"),
        catalog,
    )
}

fn widget(spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec})
}

fn pod(containers: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": containers}})
}

/// `apply(a, diff(a, b)) == b`, `diff(a, a)` empty, and three-way with original == current
/// equal to the two-way patch, under `node`; returns the two-way patch.
fn round_trip(a: &Value, b: &Value, node: Node<'_>) -> Value {
    let patch = diff(a, b, node).expect("diff");
    assert_eq!(apply(a, &patch, node).expect("apply"), *b, "patch {patch}");
    assert_eq!(diff(a, a, node).expect("diff"), json!({}));
    let three = three_way(a, b, a, node, &ThreeWayOptions::default()).expect("three-way");
    assert_eq!(three, patch);
    patch
}

#[test]
fn a_built_in_kind_types_an_embedded_resource() {
    let (schema, catalog) = schemas();
    let kinds = (BuiltInKinds, &catalog);
    let node = schema.root().with_kinds(&kinds);
    let template = node.field("spec").node.field("template").node;
    assert!(template.is_embedded());
    let live = widget(
        json!({"template": pod(json!([{"name": "a", "image": "a"}, {"name": "b", "image": "b"}]))}),
    );

    // Containers merge by name, as in a Pod.
    let patch =
        json!({"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "a2"}]}}}});
    let out = apply(&live, &patch, node).expect("applies");
    assert_eq!(
        out["spec"]["template"]["spec"]["containers"],
        json!([{"name": "a", "image": "a2"}, {"name": "b", "image": "b"}])
    );
    // Without the kinds, the embedded object is merged by what the CRD declares: nothing, so
    // the list is replaced.
    let untyped = apply(&live, &patch, &schema).expect("applies");
    assert_eq!(
        untyped["spec"]["template"]["spec"]["containers"],
        json!([{"name": "a", "image": "a2"}])
    );

    // Diff by the kind; the sub-patch carries apiVersion and kind, as an item carries its key.
    let changed = apply(&live, &patch, node).expect("applies");
    let created = round_trip(&live, &changed, node);
    assert_eq!(
        created,
        json!({"spec": {"template": {"apiVersion": "v1", "kind": "Pod", "spec": {
            "$setElementOrder/containers": [{"name": "a"}, {"name": "b"}],
            "containers": [{"name": "a", "image": "a2"}]
        }}}})
    );
    // The text path reads an embedded resource in full and agrees.
    let text = apply_json(&live.to_string(), &patch.to_string(), node).expect("applies");
    assert_eq!(serde_json::from_str::<Value>(&text).expect("JSON"), out);
}

#[test]
fn a_custom_resource_kind_types_an_embedded_resource_and_lists_of_them() {
    let (schema, catalog) = schemas();
    let node = schema.root().with_kinds(&catalog);
    let gadget = |parts: Value| json!({"apiVersion": "example.com/v1", "kind": "Gadget", "spec": {"parts": parts}});
    let live = widget(json!({
        "template": gadget(json!([{"name": "x", "size": 1}, {"name": "y", "size": 2}])),
        "templates": [gadget(json!([{"name": "x", "size": 1}]))]
    }));
    let patch = json!({"spec": {"template": {"spec": {"parts": [{"name": "y", "size": 3}]}}}});
    let out = apply(&live, &patch, node).expect("applies");
    assert_eq!(
        out["spec"]["template"]["spec"]["parts"],
        json!([{"name": "x", "size": 1}, {"name": "y", "size": 3}])
    );
    round_trip(&live, &out, node);

    // A list of embedded resources without a marker is replaced whole, like any unmarked list.
    let patch = json!({"spec": {"templates": [gadget(json!([{"name": "z", "size": 9}]))]}});
    let out = apply(&live, &patch, node).expect("applies");
    assert_eq!(out["spec"]["templates"], patch["spec"]["templates"]);
    round_trip(&live, &out, node);
}

#[test]
fn an_unknown_kind_keeps_the_declared_type_with_object_meta() {
    let (schema, catalog) = schemas();
    let node = schema.root().with_kinds(&catalog);
    let live = widget(json!({"declared": {
        "apiVersion": "example.com/v9", "kind": "Unknown",
        "metadata": {"finalizers": ["a"]},
        "ports": [{"name": "http", "port": 80}]
    }}));
    let patch = json!({"spec": {"declared": {
        "metadata": {"finalizers": ["b"]},
        "ports": [{"name": "https", "port": 443}]
    }}});
    let out = apply(&live, &patch, node).expect("applies");
    // metadata is ObjectMeta (finalizers a set), ports merge by the declared key (upstream
    // puts items the live list lacks first when the patch gives no order).
    assert_eq!(
        out["spec"]["declared"]["metadata"]["finalizers"],
        json!(["b", "a"])
    );
    assert_eq!(
        out["spec"]["declared"]["ports"],
        json!([{"name": "https", "port": 443}, {"name": "http", "port": 80}])
    );
    round_trip(&live, &out, node);
}

#[test]
fn a_change_of_kind_is_a_json_merge_patch() {
    let (schema, catalog) = schemas();
    let kinds = (BuiltInKinds, &catalog);
    let node = schema.root().with_kinds(&kinds);
    let live = widget(
        json!({"template": pod(json!([{"name": "a", "image": "a"}, {"name": "b", "image": "b"}]))}),
    );
    let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "p"},
        "spec": {"template": {"spec": {"containers": [{"name": "a", "image": "a2"}]}}}});
    let wanted = widget(json!({"template": deployment}));

    // A patch that changes the kind replaces lists instead of merging them by a Pod's keys.
    let patch = json!({"spec": {"template": {"kind": "ReplicaSet", "apiVersion": "apps/v1",
        "spec": {"containers": [{"name": "c", "image": "c"}]}}}});
    let out = apply(&live, &patch, node).expect("applies");
    assert_eq!(
        out["spec"]["template"]["spec"]["containers"],
        json!([{"name": "c", "image": "c"}])
    );

    // Diff across kinds is the JSON merge patch between them; three-way agrees.
    let created = round_trip(&live, &wanted, node);
    assert_eq!(
        created,
        json!({"spec": {"template": {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {
            "containers": null,
            "template": {"spec": {"containers": [{"name": "a", "image": "a2"}]}}
        }}}})
    );
    // Three-way where the live object still holds the old kind and more.
    let current = widget(
        json!({"template": pod(json!([{"name": "a", "image": "a"}, {"name": "z", "image": "z"}]))}),
    );
    let patch =
        three_way(&live, &wanted, &current, node, &ThreeWayOptions::default()).expect("three-way");
    assert_eq!(apply(&current, &patch, node).expect("applies"), wanted);
}

#[test]
fn three_way_merges_and_checks_conflicts_by_the_embedded_kind() {
    let (schema, catalog) = schemas();
    let kinds = (BuiltInKinds, &catalog);
    let node = schema.root().with_kinds(&kinds);
    let original = widget(json!({"template": pod(json!([{"name": "a", "image": "a"}]))}));
    let modified = widget(json!({"template": pod(json!([{"name": "a", "image": "a2"}]))}));
    // Someone else added a container: the three-way patch keeps it (merged by name).
    let current = widget(
        json!({"template": pod(json!([{"name": "a", "image": "a"}, {"name": "s", "image": "s"}]))}),
    );
    let patch = three_way(
        &original,
        &modified,
        &current,
        node,
        &ThreeWayOptions::default(),
    )
    .expect("three-way");
    let out = apply(&current, &patch, node).expect("applies");
    assert_eq!(
        out["spec"]["template"]["spec"]["containers"],
        json!([{"name": "a", "image": "a2"}, {"name": "s", "image": "s"}])
    );
    // A change by others to the same container's image is a conflict named by its key.
    let raced = widget(json!({"template": pod(json!([{"name": "a", "image": "theirs"}]))}));
    let refuse = ThreeWayOptions {
        conflicts: Conflicts::Refuse,
        ..ThreeWayOptions::default()
    };
    let err = three_way(&original, &modified, &raced, node, &refuse).expect_err("conflict");
    assert!(
        err.to_string()
            .contains("spec.template.spec.containers[name=a].image"),
        "{err}"
    );
}

#[test]
fn open_objects_diff_their_undeclared_members() {
    let (schema, _) = schemas();
    let a = widget(json!({"extra": {"size": 1, "free": {"l": [1], "m": {"x": 1}}}}));
    let b = widget(json!({"extra": {"size": 1, "free": {"l": [2], "m": {"y": 2}}}}));
    let patch = round_trip(&a, &b, schema.root());
    assert_eq!(
        patch,
        json!({"spec": {"extra": {"free": {"l": [2], "m": {"x": null, "y": 2}}}}})
    );
    // An object without the marker declares all it holds: as upstream, an undeclared object
    // member that differs has no metadata to diff it by.
    let a = widget(json!({"closed": {"free": {"x": 1}}}));
    let b = widget(json!({"closed": {"free": {"x": 2}}}));
    let err = diff(&a, &b, &schema).expect_err("undeclared");
    assert!(err.to_string().contains("spec.closed"), "{err}");
}

#[test]
fn written_schemas_keep_embedded_and_open_objects() {
    let (schema, _) = schemas();
    let written = smp_core::openapi::write(schema.root());
    let loaded = Schema::from_openapi(&written.document, &written.root).expect("loads back");
    smp_core::schema::compare(schema.root(), loaded.root()).expect("the same schema");
    let spec = loaded.root().field("spec").node;
    assert!(spec.field("template").node.is_embedded());
    assert!(spec.field("extra").node.keeps_unknown_members());
    assert!(!spec.field("closed").node.keeps_unknown_members());
}

#[test]
fn kind_sources_compose() {
    let (_, catalog) = schemas();
    let both = (BuiltInKinds, &catalog);
    assert!(both.schema_of("v1", "Pod").is_some());
    assert!(both.schema_of("example.com/v1", "Gadget").is_some());
    assert!(both.schema_of("example.com/v1", "Nothing").is_none());
}
