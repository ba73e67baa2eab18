//! Tests of the OpenAPI loader.
use serde_json::json;

use super::*;
use crate::schema::{BaseStrategy, Node};

fn struct_name(node: Node<'_>) -> Option<&str> {
    match node.def() {
        TypeDef::Struct(s) => Some(&s.name),
        _ => None,
    }
}

#[test]
fn v2_document() {
    let doc = json!({
        "swagger": "2.0",
        "definitions": {
            "Pod": {
                "type": "object",
                "properties": {
                    "metadata": {"$ref": "#/definitions/Meta"},
                    "containers": {
                        "type": "array",
                        "items": {"$ref": "#/definitions/Container"},
                        "x-kubernetes-patch-strategy": "merge",
                        "x-kubernetes-patch-merge-key": "name"
                    },
                    "replicas": {"type": "integer", "format": "int32"},
                    "port": {"x-kubernetes-int-or-string": true},
                    "raw": {"x-kubernetes-preserve-unknown-fields": true},
                    "anything": {"description": "no type at all"},
                    "free": {"type": "object", "additionalProperties": true},
                    "inline": {
                        "properties": {"deep": {"type": "array"}}
                    }
                }
            },
            "Meta": {
                "properties": {
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "finalizers": {
                        "type": "array",
                        "items": {"type": "string"},
                        "x-kubernetes-patch-strategy": "merge"
                    }
                }
            },
            "Container": {
                "properties": {"name": {"type": "string"}}
            }
        }
    });
    let schema = load(&doc, "Pod").unwrap();
    let root = schema.root();
    assert_eq!(struct_name(root), Some("Pod"));

    let containers = root.field("containers");
    assert!(containers.declared);
    assert_eq!(containers.strategy, Strategy::MERGE);
    assert_eq!(containers.merge_key, Some("name"));
    assert!(matches!(containers.node.def(), TypeDef::List(_)));
    assert_eq!(struct_name(containers.node.items()), Some("Container"));
    assert!(matches!(
        containers.node.items().field("name").node.def(),
        TypeDef::Primitive
    ));

    let meta = root.field("metadata");
    assert_eq!(struct_name(meta.node), Some("Meta"));
    assert_eq!(meta.strategy, Strategy::DEFAULT);
    assert!(matches!(
        meta.node.field("labels").node.def(),
        TypeDef::Map(_)
    ));
    assert!(matches!(
        meta.node.field("labels").node.field("app").node.def(),
        TypeDef::Primitive
    ));
    assert_eq!(meta.node.field("finalizers").strategy, Strategy::MERGE);

    assert!(matches!(
        root.field("replicas").node.def(),
        TypeDef::Primitive
    ));
    assert!(matches!(root.field("port").node.def(), TypeDef::Primitive));
    assert!(root.field("raw").node.is_opaque());
    assert!(root.field("anything").node.is_opaque());
    let free = root.field("free").node;
    assert!(matches!(free.def(), TypeDef::Map(_)));
    assert!(free.field("x").node.is_opaque());

    let inline = root.field("inline").node;
    assert_eq!(struct_name(inline), Some("Pod.inline"));
    let deep = inline.field("deep").node;
    assert!(matches!(deep.def(), TypeDef::List(_)));
    assert!(deep.items().is_opaque());

    // One table entry per definition, however often it is referenced.
    let structs: Vec<&str> = schema
        .types()
        .iter()
        .filter_map(|t| match t {
            TypeDef::Struct(s) => Some(&*s.name),
            _ => None,
        })
        .collect();
    assert_eq!(structs.iter().filter(|n| **n == "Container").count(), 1);
    assert!(!root.field("nope").declared);
}

#[test]
fn v3_document_with_all_of() {
    let doc = json!({
        "openapi": "3.0.0",
        "components": {"schemas": {
            "Spec": {
                "type": "object",
                "properties": {
                    "template": {
                        "description": "wrapped",
                        "default": {},
                        "allOf": [{"$ref": "#/components/schemas/Template"}],
                        "x-kubernetes-patch-strategy": "retainKeys"
                    },
                    "volumes": {
                        "type": "array",
                        "items": {
                            "default": {},
                            "allOf": [{"$ref": "#/components/schemas/Volume"}]
                        },
                        "x-kubernetes-patch-strategy": "merge,retainKeys",
                        "x-kubernetes-patch-merge-key": "name"
                    }
                }
            },
            "Template": {"type": "object", "properties": {"x": {"type": "string"}}},
            "Volume": {"type": "object", "properties": {"name": {"type": "string"}}}
        }}
    });
    let schema = Schema::from_openapi(&doc, "Spec").unwrap();
    let root = schema.root();
    let template = root.field("template");
    assert_eq!(template.strategy, Strategy::RETAIN_KEYS);
    assert_eq!(struct_name(template.node), Some("Template"));
    let volumes = root.field("volumes");
    assert_eq!(volumes.strategy, Strategy::MERGE_RETAIN_KEYS);
    assert_eq!(volumes.strategy.base, BaseStrategy::Merge);
    assert!(volumes.strategy.retain_keys);
    assert_eq!(volumes.merge_key, Some("name"));
    assert_eq!(struct_name(volumes.node.items()), Some("Volume"));
    // A full reference is accepted as the root name too.
    assert!(load(&doc, "#/components/schemas/Volume").is_ok());
}

#[test]
fn recursion_terminates_and_aliases_share_a_slot() {
    let doc = json!({"definitions": {
        "item": {"properties": {
            "kids": {
                "type": "array",
                "items": {"$ref": "#/definitions/item"},
                "x-kubernetes-patch-strategy": "merge",
                "x-kubernetes-patch-merge-key": "name"
            },
            "alias": {"$ref": "#/definitions/Alias"},
            "self": {"$ref": "#/definitions/item"}
        }},
        "Alias": {"$ref": "#/definitions/item", "description": "same type"}
    }});
    let schema = load(&doc, "item").unwrap();
    let root = schema.root();
    let grand = root.field("kids").node.items().field("kids").node.items();
    assert_eq!(grand.field("kids").merge_key, Some("name"));
    assert_eq!(struct_name(root.field("alias").node), Some("item"));
    assert_eq!(struct_name(root.field("self").node), Some("item"));
    // item itself, and its anonymous `kids` list.
    assert_eq!(schema.types().len(), 2);

    let cycle = json!({"definitions": {
        "A": {"$ref": "#/definitions/B"},
        "B": {"$ref": "#/definitions/A"}
    }});
    assert!(matches!(
        load(&cycle, "A"),
        Err(SchemaError::BadShape { .. })
    ));
}

#[test]
fn unresolved_reference_names_reference_and_place() {
    let doc = json!({"definitions": {
        "A": {"properties": {"b": {"$ref": "#/definitions/Missing"}}}
    }});
    let err = load(&doc, "A").unwrap_err();
    assert_eq!(
        err,
        SchemaError::UnresolvedRef {
            reference: "#/definitions/Missing".into(),
            at: "#/definitions/A/properties/b".into(),
        }
    );
    assert!(err.to_string().contains("#/definitions/Missing"));

    // A v3-style reference in a v2 document does not resolve either.
    let doc = json!({"definitions": {
        "A": {"properties": {"b": {"$ref": "#/components/schemas/A"}}}
    }});
    assert!(matches!(
        load(&doc, "A"),
        Err(SchemaError::UnresolvedRef { .. })
    ));
}

#[test]
fn unknown_definition_lists_close_names() {
    let doc = json!({"definitions": {
        "io.k8s.api.core.v1.Pod": {"properties": {}},
        "io.k8s.api.core.v1.PodSpec": {"properties": {}},
        "io.k8s.api.apps.v1.Deployment": {"properties": {}}
    }});
    let SchemaError::UnknownDefinition {
        name,
        available_hint,
    } = load(&doc, "pod").unwrap_err()
    else {
        panic!("wrong error kind");
    };
    assert_eq!(name, "pod");
    assert!(
        available_hint.contains("io.k8s.api.core.v1.Pod"),
        "{available_hint}"
    );
    assert!(!available_hint.contains("Deployment"), "{available_hint}");

    let err = load(&doc, "Deploymnet").unwrap_err();
    assert!(
        err.to_string().contains("io.k8s.api.apps.v1.Deployment"),
        "{err}"
    );

    let err = load(&doc, "zzzzzzzzzzzz").unwrap_err();
    assert!(err.to_string().contains("defines 3 types"), "{err}");
}

#[test]
fn bad_documents() {
    assert_eq!(load(&json!([]), "A").unwrap_err(), SchemaError::NotOpenApi);
    assert_eq!(
        load(&json!({"swagger": "2.0"}), "A").unwrap_err(),
        SchemaError::NotOpenApi
    );
    let doc = json!({"definitions": {"A": {"properties": {
        "f": {"type": "array", "x-kubernetes-patch-strategy": "merge,replace"}
    }}}});
    let err = load(&doc, "A").unwrap_err();
    assert!(
        matches!(&err, SchemaError::BadStrategy { at, .. } if at == "#/definitions/A/properties/f"),
        "{err:?}"
    );
    assert!(err.to_string().contains("merge,replace"));
    let doc = json!({"definitions": {"A": {"properties": {"f": {"type": 3}}}}});
    assert!(matches!(load(&doc, "A"), Err(SchemaError::BadShape { .. })));
    let doc = json!({"definitions": {"A": {"properties": []}}});
    assert!(matches!(load(&doc, "A"), Err(SchemaError::BadShape { .. })));
    let doc = json!({"definitions": {"A": {"properties": {
        "f": {"x-kubernetes-patch-merge-key": 7}
    }}}});
    assert!(matches!(load(&doc, "A"), Err(SchemaError::BadShape { .. })));
}

#[test]
fn recommended_merge_keys() {
    let doc = json!({"definitions": {"A": {"properties": {
        "ports": {
            "type": "array",
            "items": {"properties": {"port": {"type": "integer"}}},
            "x-kubernetes-patch-strategy": "merge",
            "x-kubernetes-patch-merge-key": "port",
            "x-kubernetes-recommended-patch-merge-key": "port, protocol"
        }
    }}}});
    let schema = load(&doc, "A").unwrap();
    let TypeDef::Struct(a) = schema.root().def() else {
        panic!("not a struct");
    };
    let ports = a.fields.iter().find(|f| f.name == "ports").unwrap();
    assert_eq!(ports.recommended.as_ref(), ["port", "protocol"]);
    assert_eq!(
        struct_name(schema.root().field("ports").node.items()),
        Some("A.ports[]")
    );
}

/// The proposal's backward-compatibility rule: the merge key comes first; and keys are distinct.
#[test]
fn recommended_merge_keys_are_checked() {
    let with = |merge_key: Value, recommended: &str| {
        json!({"definitions": {"A": {"properties": {
            "ports": {
                "type": "array",
                "items": {"properties": {"port": {"type": "integer"}}},
                "x-kubernetes-patch-merge-key": merge_key,
                "x-kubernetes-recommended-patch-merge-key": recommended
            }
        }}}})
    };
    for bad in [
        with(json!("port"), "protocol,port"),
        with(json!("port"), "port,protocol,port"),
        with(json!("port"), "port,,protocol"),
    ] {
        match load(&bad, "A") {
            Err(SchemaError::BadShape { at, .. }) => {
                assert!(
                    at.ends_with("x-kubernetes-recommended-patch-merge-key"),
                    "{at}"
                );
            }
            other => panic!("expected BadShape, got {other:?}"),
        }
    }
    // Moved keys: no merge key, any first key.
    let moved = load(&with(Value::Null, "key,effect"), "A").unwrap();
    assert_eq!(moved.root().field("ports").recommended, ["key", "effect"]);
}

#[test]
fn deep_inline_nesting_is_an_error_not_a_crash() {
    let mut schema = json!({"type": "string"});
    for _ in 0..400 {
        schema = json!({"properties": {"x": schema}});
    }
    let doc = json!({"definitions": {"A": schema}});
    assert!(matches!(load(&doc, "A"), Err(SchemaError::BadShape { .. })));
}

// ---- upstream test schemas (FORMAT.md §8): shared data, skipped (and said) without it ----

fn upstream(file: &str) -> Option<Value> {
    let path = smp_testdata::file(&format!("conformance/upstream/{file}"))?;
    let mut text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if file == "swagger-merge-item.json" {
        // The upstream v2 file is not strict JSON: one trailing comma after the description
        // of `jsonItem` (FORMAT.md §1). Drop exactly that comma.
        let bad = "\"description\": \"JSON field\",";
        assert_eq!(text.matches(bad).count(), 1, "upstream file changed");
        text = text.replace(bad, "\"description\": \"JSON field\"");
    }
    Some(serde_json::from_str(&text).expect("upstream schema parses"))
}

fn check_merge_item(schema: &Schema) {
    let root = schema.root();
    assert_eq!(struct_name(root), Some("mergeItem"));
    for name in ["name", "value", "other"] {
        let f = root.field(name);
        assert!(matches!(f.node.def(), TypeDef::Primitive), "{name}");
        assert_eq!(f.strategy, Strategy::DEFAULT, "{name}");
    }

    let f = root.field("mergingList");
    assert_eq!((f.strategy, f.merge_key), (Strategy::MERGE, Some("name")));
    assert!(matches!(f.node.def(), TypeDef::List(_)));
    assert_eq!(struct_name(f.node.items()), Some("mergeItem"));

    let f = root.field("nonMergingList");
    assert_eq!((f.strategy, f.merge_key), (Strategy::DEFAULT, None));
    assert!(matches!(f.node.def(), TypeDef::List(_)));
    assert_eq!(struct_name(f.node.items()), Some("mergeItem"));

    let f = root.field("mergingIntList");
    assert_eq!((f.strategy, f.merge_key), (Strategy::MERGE, None));
    assert!(matches!(f.node.items().def(), TypeDef::Primitive));

    let f = root.field("nonMergingIntList");
    assert_eq!((f.strategy, f.merge_key), (Strategy::DEFAULT, None));
    assert!(matches!(f.node.items().def(), TypeDef::Primitive));

    // A single mergeItem in the schema, used as a list of them by the data.
    let f = root.field("mergeItemPtr");
    assert_eq!((f.strategy, f.merge_key), (Strategy::MERGE, Some("name")));
    assert_eq!(struct_name(f.node), Some("mergeItem"));
    assert_eq!(struct_name(f.node.items()), Some("mergeItem"));

    let f = root.field("replacingItem");
    assert_eq!((f.strategy, f.merge_key), (Strategy::REPLACE, None));
    assert_eq!(
        struct_name(f.node),
        Some("io.k8s.apimachinery.pkg.runtime.RawExtension")
    );

    let f = root.field("retainKeysMap");
    assert_eq!((f.strategy, f.merge_key), (Strategy::RETAIN_KEYS, None));
    assert_eq!(struct_name(f.node), Some("retainKeysMergeItem"));
    let inner = f.node;
    let g = inner.field("mergingList");
    assert_eq!((g.strategy, g.merge_key), (Strategy::MERGE, Some("name")));
    assert_eq!(inner.field("mergingIntList").strategy, Strategy::MERGE);
    assert_eq!(inner.field("nonMergingList").strategy, Strategy::DEFAULT);
    assert!(inner.field("simpleMap").declared);

    let f = root.field("retainKeysMergingList");
    assert_eq!(
        (f.strategy, f.merge_key),
        (Strategy::MERGE_RETAIN_KEYS, Some("name"))
    );
    assert_eq!(struct_name(f.node.items()), Some("mergeItem"));

    let f = root.field("simpleMap");
    assert_eq!(f.strategy, Strategy::DEFAULT);
    assert!(matches!(f.node.def(), TypeDef::Map(_)));
    assert!(matches!(f.node.field("k").node.def(), TypeDef::Primitive));

    let f = root.field("jsonItem");
    assert!(f.declared);
    assert_eq!(f.strategy, Strategy::DEFAULT);
    assert!(f.node.is_opaque());
}

#[test]
fn upstream_merge_item_v3() {
    let Some(doc) = upstream("swagger-merge-item-v3.json") else {
        return;
    };
    let schema = load(&doc, "mergeItem").unwrap();
    check_merge_item(&schema);
    // v3's retainKeysMergeItem.simpleMap has only `items`: a list of strings.
    let simple = schema.root().field("retainKeysMap").node.field("simpleMap");
    assert!(matches!(simple.node.def(), TypeDef::List(_)));
}

#[test]
fn upstream_merge_item_v2() {
    let Some(doc) = upstream("swagger-merge-item.json") else {
        return;
    };
    let schema = load(&doc, "mergeItem").unwrap();
    check_merge_item(&schema);
    // v2's retainKeysMergeItem.simpleMap has `additionalProperties: "object"`, not a schema.
    let simple = schema.root().field("retainKeysMap").node.field("simpleMap");
    assert!(matches!(simple.node.def(), TypeDef::Map(_)));
    assert!(simple.node.field("k").node.is_opaque());
}

#[test]
fn upstream_precision_item() {
    for file in [
        "swagger-precision-item.json",
        "swagger-precision-item-v3.json",
    ] {
        let Some(doc) = upstream(file) else { return };
        let schema = load(&doc, "precisionItem").unwrap();
        let root = schema.root();
        assert_eq!(struct_name(root), Some("precisionItem"));
        for name in ["name", "int32", "int64", "float32", "float64"] {
            let f = root.field(name);
            assert!(f.declared, "{file}: {name}");
            assert!(matches!(f.node.def(), TypeDef::Primitive), "{file}: {name}");
            assert_eq!(f.strategy, Strategy::DEFAULT);
            assert_eq!(f.merge_key, None);
        }
        assert!(matches!(
            load(&doc, "mergeItem"),
            Err(SchemaError::UnknownDefinition { .. })
        ));
    }
}

#[test]
fn unions_are_read() {
    let doc = json!({"definitions": {"Strategy": {
        "type": "object",
        "properties": {
            "type": {"type": "string"},
            "rollingUpdate": {"type": "object", "properties": {}},
            "recreate": {"type": "object", "properties": {}}
        },
        "x-kubernetes-unions": [{
            "discriminator": "type",
            "fields-to-discriminateBy": {"rollingUpdate": "RollingUpdate", "recreate": "Recreate"}
        }]
    }}});
    let schema = Schema::from_openapi(&doc, "Strategy").unwrap();
    let unions = schema.root().unions();
    assert_eq!(unions.len(), 1);
    assert_eq!(unions[0].discriminator.as_deref(), Some("type"));
    assert_eq!(
        unions[0]
            .selected("Recreate")
            .map(|i| &*unions[0].members[i].field),
        Some("recreate")
    );
}

#[test]
fn bad_unions_are_refused() {
    let with = |unions: Value| {
        let doc = json!({"definitions": {"U": {
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "x-kubernetes-unions": unions
        }}});
        Schema::from_openapi(&doc, "U").unwrap_err().to_string()
    };
    assert!(with(json!({})).contains("a list of unions"));
    assert!(with(json!([{"discriminator": "a"}])).contains("fields-to-discriminateBy"));
    assert!(with(json!([{"fields-to-discriminateBy": {"a": "A", "c": "C"}}])).contains("/c"));
    assert!(with(json!([{"fields-to-discriminateBy": {"a": 1}}])).contains("a string"));
    assert!(
        with(json!([{"discriminator": "zz", "fields-to-discriminateBy": {"a": "A"}}]))
            .contains("discriminator")
    );
}

/// A merge key that is a directive name (`$patch`) would turn every patch item into a
/// directive: refused, as recommended keys starting with `$` are.
#[test]
fn directive_names_are_not_merge_keys() {
    for (key, value) in [
        ("x-kubernetes-patch-merge-key", json!("$patch")),
        (
            "x-kubernetes-recommended-patch-merge-key",
            json!("name,$retainKeys"),
        ),
    ] {
        let mut list = json!({"type": "array", "items": {"$ref": "#/definitions/I"},
                              "x-kubernetes-patch-strategy": "merge"});
        list[key] = value;
        let doc = json!({"definitions": {"A": {"properties": {"l": list}},
                                         "I": {"properties": {"name": {"type": "string"}}}}});
        assert!(
            matches!(load(&doc, "A"), Err(SchemaError::BadShape { .. })),
            "{key}"
        );
    }
}
