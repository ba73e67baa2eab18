//! End-to-end tests of `smp normalize`: the three union shapes through an OpenAPI schema with
//! `x-kubernetes-unions`, the creation case, and the error contract.

mod common;

use common::{assert_error, assert_usage_error, smp, stdout_json, temp_file};
use serde_json::json;

/// A Deployment-like schema: a discriminated `strategy`, volumes whose sources form a union
/// without a discriminator, and env vars with the inline `value`/`valueFrom` union.
///
/// Written to a file named after the test (`file`): tests run in parallel.
fn schema(file: &str) -> String {
    let doc = json!({"swagger": "2.0", "definitions": {
        "Deployment": {"type": "object", "properties": {
            "strategy": {"$ref": "#/definitions/Strategy"},
            "volumes": {
                "type": "array", "items": {"$ref": "#/definitions/Volume"},
                "x-kubernetes-patch-strategy": "merge,retainKeys",
                "x-kubernetes-patch-merge-key": "name"
            },
            "env": {
                "type": "array", "items": {"$ref": "#/definitions/EnvVar"},
                "x-kubernetes-patch-strategy": "merge",
                "x-kubernetes-patch-merge-key": "name"
            }
        }},
        "Strategy": {
            "type": "object",
            "properties": {
                "type": {"type": "string"},
                "rollingUpdate": {"type": "object", "properties": {"maxSurge": {"type": "integer"}}},
                "recreate": {"type": "object", "properties": {}}
            },
            "x-kubernetes-unions": [{
                "discriminator": "type",
                "fields-to-discriminateBy": {"rollingUpdate": "RollingUpdate", "recreate": "Recreate"}
            }]
        },
        "Volume": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "hostPath": {"type": "object", "properties": {"path": {"type": "string"}}},
                "emptyDir": {"type": "object", "properties": {}}
            },
            "x-kubernetes-unions": [{
                "fields-to-discriminateBy": {"hostPath": "HostPath", "emptyDir": "EmptyDir"}
            }]
        },
        "EnvVar": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "value": {"type": "string"},
                "valueFrom": {"type": "object", "properties": {}}
            },
            "x-kubernetes-unions": [{
                "fields-to-discriminateBy": {"value": "Value", "valueFrom": "ValueFrom"}
            }]
        }
    }});
    format!(
        "{}#Deployment",
        temp_file(&format!("normalize-schema-{file}.json"), &doc.to_string())
    )
}

#[test]
fn normalizes_the_three_shapes_against_old() {
    let old = temp_file(
        "normalize-old.yaml",
        "strategy:\n  type: RollingUpdate\n  rollingUpdate: {maxSurge: 1}\n\
         volumes:\n- name: v\n  hostPath: {path: /a}\n\
         env:\n- name: A\n  value: x\n",
    );
    let new = temp_file(
        "normalize-new.json",
        &json!({
            "strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}},
            "volumes": [{"name": "v", "hostPath": {"path": "/a"}, "emptyDir": {}}],
            "env": [{"name": "A", "value": "x", "valueFrom": {}}]
        })
        .to_string(),
    );
    let schema = schema("three-shapes");
    let out = smp(&["normalize", "--schema", &schema, &new, &old], None);
    assert_eq!(
        stdout_json(&out),
        json!({
            "strategy": {"type": "Recreate"},
            "volumes": [{"name": "v", "emptyDir": {}}],
            "env": [{"name": "A", "valueFrom": {}}]
        })
    );
}

#[test]
fn without_old_is_a_creation_and_new_may_come_from_stdin() {
    let schema = schema("creation");
    let out = smp(
        &["normalize", "--schema", &schema, "-", "-o", "json"],
        Some(r#"{"strategy": {"rollingUpdate": {}}}"#),
    );
    assert_eq!(
        stdout_json(&out),
        json!({"strategy": {"type": "RollingUpdate", "rollingUpdate": {}}})
    );
}

#[test]
fn a_union_left_ambiguous_fails_naming_the_path_and_members() {
    let schema = schema("ambiguous");
    let out = smp(
        &["normalize", "--schema", &schema, "-"],
        Some(r#"{"volumes": [{"name": "v", "hostPath": {}, "emptyDir": {}}]}"#),
    );
    assert_error(
        &out,
        &[
            "normalizing <stdin>",
            "at volumes[name=v]",
            "more than one member",
            "`emptyDir`, `hostPath`",
        ],
    );
}

#[test]
fn usage_and_input_errors() {
    let schema = schema("usage");
    assert_usage_error(&smp(
        &["normalize", "--schema", &schema, "-", "-"],
        Some("{}"),
    ));
    assert_usage_error(&smp(&["normalize"], None));
    assert_error(
        &smp(&["normalize", "--schema", &schema, "-"], Some("[1]")),
        &["expected an object, found list"],
    );
}
