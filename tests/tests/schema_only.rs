//! `#[patch(schema_only)]`: a type that only describes a JSON form. Its schema must be the one
//! the full derive gives the same declaration (field names from serde's attributes, strategies,
//! merge keys, unions), and it must need nothing else: no serde, no `PatchField`.

use serde_json::json;
use smp_core::schema::compare;
use smp_core::{Node, Patch, PatchSchema, StrategicMerge};

/// The same declarations twice: once patchable, once only described (no serde derive).
macro_rules! declare {
    ($module:ident, [$($derive:path),*], $($mode:tt)*) => {
        mod $module {
            // The described types are never built: they only carry their schema.
            #![allow(dead_code)]
            #[allow(unused_imports)]
            use serde::{Deserialize, Serialize};
            use smp_core::StrategicMerge;

            #[derive(Default, $($derive,)* StrategicMerge)]
            #[serde(rename_all = "camelCase")]
            #[patch(no_patch_type)]
            $($mode)*
            pub struct Spec {
                #[patch(strategy = "merge", merge_key = "name")]
                #[serde(skip_serializing_if = "Option::is_none")]
                pub init_containers: Option<Vec<Container>>,
                #[patch(strategy = "merge", merge_key = "containerPort", recommended = "containerPort,protocol")]
                #[serde(default)]
                pub ports: Vec<Port>,
                #[patch(strategy = "merge")]
                #[serde(skip_serializing_if = "Option::is_none")]
                pub finalizers: Option<Vec<String>>,
                #[serde(rename = "handler", skip_serializing_if = "Option::is_none")]
                pub handler: Option<Handler>,
                #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
                pub labels: std::collections::BTreeMap<String, String>,
            }

            #[derive(Default, $($derive,)* StrategicMerge)]
            #[patch(no_patch_type)]
            $($mode)*
            pub struct Container {
                pub name: String,
                #[serde(skip_serializing_if = "Option::is_none")]
                pub image: Option<String>,
            }

            #[derive(Default, $($derive,)* StrategicMerge)]
            #[serde(rename_all = "camelCase")]
            #[patch(no_patch_type)]
            $($mode)*
            pub struct Port {
                pub container_port: i32,
                #[serde(skip_serializing_if = "Option::is_none")]
                pub protocol: Option<String>,
            }

            #[derive(Default, $($derive,)* StrategicMerge)]
            #[serde(rename_all = "camelCase")]
            #[union]
            #[patch(no_patch_type)]
            $($mode)*
            pub struct Handler {
                #[serde(skip_serializing_if = "Option::is_none")]
                pub exec: Option<Container>,
                #[serde(skip_serializing_if = "Option::is_none")]
                pub http_get: Option<Port>,
            }
        }
    };
}

declare!(full, [Serialize, Deserialize, Clone, PartialEq, Debug],);
declare!(described, [], #[patch(schema_only)]);

#[test]
fn the_schema_is_the_full_derives() {
    let full = Node::of_static(<full::Spec as PatchSchema>::DEF);
    let described = Node::of_static(<described::Spec as PatchSchema>::DEF);
    assert_eq!(compare(full, described), Ok(()));
    assert_eq!(
        compare(
            Node::of_static(<full::Handler as PatchSchema>::DEF),
            Node::of_static(<described::Handler as PatchSchema>::DEF)
        ),
        Ok(())
    );
}

#[test]
fn the_schema_alone_patches_json_as_the_typed_value_does() {
    let live = json!({
        "initContainers": [{"name": "a", "image": "a:1"}, {"name": "b"}],
        "ports": [{"containerPort": 80}],
        "finalizers": ["x"],
        "handler": {"exec": {"name": "sh"}},
    });
    let patch: Patch = json!({
        "initContainers": [{"name": "b", "image": "b:2"}],
        "ports": [{"containerPort": 443, "protocol": "TCP"}],
        "finalizers": ["y"],
        "handler": {"httpGet": {"containerPort": 8080}, "exec": null},
    })
    .to_string()
    .parse()
    .unwrap_or_else(|e| panic!("{e}"));
    let by_schema = smp_core::apply(
        &live,
        patch.as_value(),
        Node::of_static(<described::Spec as PatchSchema>::DEF),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut typed: full::Spec = serde_json::from_value(live).unwrap_or_else(|e| panic!("{e}"));
    typed.apply(&patch).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        serde_json::to_value(&typed).unwrap_or_else(|e| panic!("{e}")),
        by_schema
    );
}
