//! The OpenAPI writer: a derived type's schema, written as an OpenAPI v2 document and loaded
//! back, equals the derived one (`schema::compare`, which also compares unions), on the
//! typed twins of the upstream test schemas, the Pod-like types and the union types.

use crate::support;
use crate::union_types;

use crate::pod;

use serde_json::json;
use smp_core::openapi::write;
use smp_core::schema::compare;
use smp_core::{Node, Schema, StrategicMerge};
use support::merge_item::{MergeItem, PrecisionItem};

fn round_trip(node: Node<'static>) {
    let written = write(node);
    let loaded = Schema::from_openapi(&written.document, &written.root)
        .unwrap_or_else(|e| panic!("the written document does not load: {e}"));
    assert_eq!(
        compare(node, loaded.root()),
        Ok(()),
        "{:#}",
        written.document
    );
    assert_eq!(compare(loaded.root(), node), Ok(()));
}

#[test]
fn twins_round_trip() {
    round_trip(MergeItem::schema());
    round_trip(PrecisionItem::schema());
    round_trip(pod::Pod::schema());
    // The pass case's own checks still hold (and its `main` is used).
    pod::main();
}

#[test]
fn union_types_round_trip() {
    round_trip(union_types::Deployment::schema());
    round_trip(union_types::InlinedUnion::schema());
    round_trip(union_types::TopLevelUnion::schema());
    round_trip(union_types::TwoGroups::schema());
}

#[test]
fn the_document_carries_the_kubernetes_extensions() {
    let written = write(union_types::Deployment::schema());
    assert_eq!(written.root, "Deployment");
    let defs = &written.document["definitions"];
    let volumes = &defs["Deployment"]["properties"]["volumes"];
    assert_eq!(
        volumes["x-kubernetes-patch-strategy"],
        json!("merge,retainKeys")
    );
    assert_eq!(volumes["x-kubernetes-patch-merge-key"], json!("name"));
    // `Volume` flattens its `VolumeSource`: the members and the union join `Volume`.
    assert_eq!(
        defs["Volume"]["x-kubernetes-unions"],
        json!([{"fields-to-discriminateBy": {
            "hostPath": "HostPath", "emptyDir": "EmptyDir", "configMap": "ConfigMap"
        }}])
    );
    assert!(defs["Volume"]["properties"]["hostPath"].is_object());
    assert_eq!(
        defs["Strategy"]["x-kubernetes-unions"],
        json!([{"discriminator": "type", "fields-to-discriminateBy": {
            "rollingUpdate": "RollingUpdate", "recreateParams": "Recreate"
        }}])
    );
}

#[test]
fn compare_sees_a_missing_union() {
    let mut written = write(union_types::Union::schema());
    let def = written.document["definitions"]["Union"]
        .as_object_mut()
        .unwrap();
    def.remove("x-kubernetes-unions");
    let loaded = Schema::from_openapi(&written.document, &written.root).unwrap();
    let err = compare(union_types::Union::schema(), loaded.root()).unwrap_err();
    assert!(err.contains("unions differ"), "{err}");
}
