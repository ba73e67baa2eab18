//! The structured types of every Kubernetes v1.34 definition, converted from the official
//! OpenAPI v3 documents (shared data: `openapi/v3/`) as the API server converts them.

use serde_json::{Value, json};
use smp_ssa::schema::{Gvk, ListKind, Scalar, Schema, TypeRef, from_openapi_v3};

fn documents() -> Option<Vec<Value>> {
    let dir = smp_testdata::file("openapi/v3")?;
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    Some(
        paths
            .iter()
            .map(|p| serde_json::from_slice(&std::fs::read(p).expect("readable")).expect("JSON"))
            .collect(),
    )
}

/// The type at the end of `fields` from `ty`.
fn at(schema: &Schema, mut ty: TypeRef, fields: &[&str]) -> TypeRef {
    for field in fields {
        let atom = schema.resolve(ty);
        ty = match (atom.map, atom.list) {
            (Some(map), _) if map.type_of(field).is_some() => map.type_of(field).unwrap(),
            (_, Some(list)) if *field == "[]" => list.item,
            _ => panic!("no {field}"),
        };
    }
    ty
}

#[test]
fn every_definition_converts_and_lists_are_keyed_as_the_server_keys_them() {
    let Some(docs) = documents() else {
        return;
    };
    let schema = from_openapi_v3(&docs).expect("every definition converts");
    let deployment = schema
        .kind(&Gvk::of("apps/v1", "Deployment"))
        .expect("a kind");
    let list = |fields: &[&str]| {
        schema
            .resolve(at(&schema, deployment, fields))
            .list
            .unwrap()
            .kind
            .clone()
    };
    let pod = ["spec", "template", "spec"];
    let containers = [&pod[..], &["containers"]].concat();
    assert_eq!(list(&containers), ListKind::Map(vec!["name".into()]));
    // Ports: SMP merges by `containerPort`, the server keys by `containerPort` and `protocol`,
    // and an item without a protocol is keyed by its default.
    let ports = [&containers[..], &["[]", "ports"]].concat();
    assert_eq!(
        list(&ports),
        ListKind::Map(vec!["containerPort".into(), "protocol".into()])
    );
    let port = schema.resolve(at(&schema, deployment, &[&ports[..], &["[]"]].concat()));
    let protocol = port.map.unwrap().field("protocol").unwrap().clone();
    assert_eq!(protocol.default, Some(json!("TCP")));
    assert_eq!(
        list(&[&containers[..], &["[]", "env"]].concat()),
        ListKind::Map(vec!["name".into()])
    );
    assert_eq!(
        list(&[&containers[..], &["[]", "args"]].concat()),
        ListKind::Atomic
    );
    assert_eq!(list(&["metadata", "finalizers"]), ListKind::Set);
    assert_eq!(
        list(&["metadata", "ownerReferences"]),
        ListKind::Map(vec!["uid".into()])
    );
    // A label selector is owned whole; labels key by key.
    let selector = schema.resolve(at(&schema, deployment, &["spec", "selector"]));
    assert!(selector.map.unwrap().atomic);
    let labels = schema
        .resolve(at(&schema, deployment, &["metadata", "labels"]))
        .map
        .unwrap();
    assert!(!labels.atomic && labels.fields.is_empty());
    assert_eq!(
        schema.resolve(labels.rest.unwrap()).scalar,
        Some(Scalar::String)
    );
    // Quantities and int-or-strings are untyped scalars.
    let limits = at(
        &schema,
        deployment,
        &[&containers[..], &["[]", "resources", "limits"]].concat(),
    );
    let quantity = schema.resolve(schema.resolve(limits).map.unwrap().rest.unwrap());
    assert_eq!(quantity.scalar, Some(Scalar::Untyped));
    let surge = at(
        &schema,
        deployment,
        &["spec", "strategy", "rollingUpdate", "maxSurge"],
    );
    assert_eq!(schema.resolve(surge).scalar, Some(Scalar::Untyped));
    // Core kinds are found by their empty group.
    assert!(schema.kind(&Gvk::of("v1", "Pod")).is_some());
    assert!(
        schema
            .kind(&Gvk::of(
                "apiextensions.k8s.io/v1",
                "CustomResourceDefinition"
            ))
            .is_some()
    );
}

/// The fields of a Deployment as an apply configuration: what the server records for the
/// manager that applies it (before it drops `apiVersion`, `kind` and `metadata.name`, which it
/// never tracks). The selector is owned whole, the port by its key with the default protocol.
#[test]
fn a_deployments_fields() {
    use smp_ssa::fieldpath::fields_v1;
    use smp_ssa::typed::{ReadOptions, field_set, validate};

    let Some(docs) = documents() else {
        return;
    };
    let schema = from_openapi_v3(&docs).expect("every definition converts");
    let deployment = schema
        .kind(&Gvk::of("apps/v1", "Deployment"))
        .expect("a kind");
    let object = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [
                    {"name": "app", "image": "nginx", "ports": [{"containerPort": 80}]}
                ]}
            }
        }
    });
    let set = field_set(&schema, deployment, &object, ReadOptions::default()).expect("fits");
    assert_eq!(
        fields_v1::to_string(&set),
        concat!(
            r#"{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:app":{}},"f:name":{}},"#,
            r#""f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"#,
            r#""f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:name":{},"#,
            r#""f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}"#
        )
    );

    // What does not fit is reported with its path. A container without a name is keyed by
    // the name's default (`""` in the v3 documents), so two of them are one key twice.
    let bad = json!({"spec": {"replicas": "three", "template": {"spec": {"containers": [
        {"name": "a"}, {"image": "x"}, {"image": "y"}
    ]}}}});
    let err = validate(&schema, deployment, &bad, ReadOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "errors:\n  .spec.replicas: expected numeric (int or float), got string\n  \
         .spec.template.spec.containers: duplicate entries for key [name=\"\"]"
    );
    let dup =
        json!({"spec": {"template": {"spec": {"containers": [{"name": "a"}, {"name": "a"}]}}}});
    let err = validate(&schema, deployment, &dup, ReadOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#".spec.template.spec.containers: duplicate entries for key [name="a"]"#
    );
    // A stored object may hold them: the repeated item is owned as one field.
    let set = field_set(
        &schema,
        deployment,
        &dup,
        ReadOptions {
            allow_duplicates: true,
        },
    )
    .expect("allowed");
    assert_eq!(
        fields_v1::to_string(&set),
        r#"{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{}}}}}}"#
    );
}

#[test]
fn the_compact_form_reads_back_the_same() {
    let Some(docs) = documents() else {
        return;
    };
    let schema = from_openapi_v3(&docs).unwrap();
    let text = smp_ssa::schema::to_compact_json(&schema);
    let back = smp_ssa::schema::from_compact_json(&text).unwrap();
    assert_eq!(smp_ssa::schema::to_compact_json(&back), text);
    println!("compact schema: {} bytes", text.len());
}

/// The built-in schema the crate carries is what the official documents convert to.
#[test]
fn the_builtin_schema_is_the_documents() {
    let Some(docs) = documents() else {
        return;
    };
    let schema = from_openapi_v3(&docs).unwrap();
    assert!(
        smp_ssa::schema::to_compact_json(&schema) == smp_ssa::builtin::KUBERNETES,
        "smp-ssa/src/builtin/kubernetes.json is out of date: run `cargo run -p smp-codegen -- --ssa`"
    );
}
