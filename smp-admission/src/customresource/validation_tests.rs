//! The value constraints, list uniqueness and ratcheting of custom resources, with the
//! messages kube-apiserver v1.34 gives: kube-openapi's message templates
//! (`pkg/validation/errors/schema.go`), turned into field errors as apiextensions-apiserver's
//! `pkg/apiserver/validation/validation.go` turns them (required, enum, maxLength, maxItems and
//! maxProperties become `Required value`, `Unsupported value`, `Too long`, `Too many`), and
//! `pkg/apiserver/schema/listtype/validation.go`. Objects and schemas are our own.

use serde_json::{Value, json};

use super::Definitions;
use super::structural::Structural;
use super::{listtype, openapi};

fn schema() -> Structural {
    Structural::from_schema(&json!({"type": "object", "properties": {
        "spec": {"type": "object", "required": ["size"], "properties": {
            "size": {"type": "integer"},
            "replicas": {"type": "integer", "minimum": 1, "maximum": 10.5, "multipleOf": 1},
            "even": {"type": "integer", "multipleOf": 2},
            "ratio": {"type": "number", "maximum": 1.5, "exclusiveMaximum": true},
            "mode": {"type": "string", "enum": ["fast", "safe"]},
            "name": {"type": "string", "minLength": 1, "maxLength": 3},
            "id": {"type": "string", "pattern": "^[a-z0-9]+$"},
            "when": {"type": "string", "format": "date-time"},
            "port": {"x-kubernetes-int-or-string": true},
            "tags": {"type": "array", "minItems": 1, "maxItems": 2,
                "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "labels": {"type": "object", "maxProperties": 2,
                "additionalProperties": {"type": "string"}},
            "ports": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string"}, "port": {"type": "integer", "minimum": 1}}}}}}}}))
    .unwrap()
}

fn lines(errors: &[crate::validation::FieldError]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

fn check(spec: Value, expected: &[&str]) {
    let object = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w"}, "spec": spec});
    assert_eq!(lines(&openapi::validate(&object, &schema())), expected);
}

#[test]
fn each_constraint_with_the_servers_message() {
    check(json!({"size": 1}), &[]);
    check(
        json!({"size": "three"}),
        &[
            r#"spec.size: Invalid value: "string": spec.size in body must be of type integer: "string""#,
        ],
    );
    check(json!({}), &["spec.size: Required value"]);
    check(
        json!({"size": 1, "replicas": 0}),
        &[
            "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
        ],
    );
    // An integer is held to the integer part of a fractional bound, printed so.
    check(
        json!({"size": 1, "replicas": 11}),
        &[
            "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
        ],
    );
    check(
        json!({"size": 1, "even": 3}),
        &["spec.even: Invalid value: 3: spec.even in body should be a multiple of 2"],
    );
    check(
        json!({"size": 1, "ratio": 1.5}),
        &["spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1.5"],
    );
    check(
        json!({"size": 1, "mode": "slow"}),
        &[r#"spec.mode: Unsupported value: "slow": supported values: "fast", "safe""#],
    );
    check(
        json!({"size": 1, "name": "long"}),
        &["spec.name: Too long: may not be more than 3 bytes"],
    );
    check(
        json!({"size": 1, "name": ""}),
        &[r#"spec.name: Invalid value: "": spec.name in body should be at least 1 chars long"#],
    );
    // Characters, not bytes, are counted.
    check(json!({"size": 1, "name": "ééé"}), &[]);
    check(
        json!({"size": 1, "id": "A1"}),
        &[r#"spec.id: Invalid value: "A1": spec.id in body should match '^[a-z0-9]+$'"#],
    );
    check(
        json!({"size": 1, "when": "yesterday"}),
        &[
            r#"spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday""#,
        ],
    );
    check(json!({"size": 1, "port": 80}), &[]);
    check(json!({"size": 1, "port": "http"}), &[]);
    check(
        json!({"size": 1, "port": true}),
        &[
            r#"spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean""#,
        ],
    );
    check(
        json!({"size": 1, "tags": []}),
        &["spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items"],
    );
    check(
        json!({"size": 1, "tags": ["a", "b", "c"]}),
        &["spec.tags: Too many: 3: must have at most 2 items"],
    );
    check(
        json!({"size": 1, "tags": [null]}),
        &[
            r#"spec.tags[0]: Invalid value: "null": spec.tags[0] in body must be of type string: "null""#,
        ],
    );
    check(
        json!({"size": 1, "labels": {"a": "1", "b": "2", "c": "3"}}),
        &["spec.labels: Too many: 3: must have at most 2 items"],
    );
    check(
        json!({"size": 1, "ports": [{"port": 0}]}),
        &[
            "spec.ports[0].port: Invalid value: 0: spec.ports[0].port in body should be greater than or equal to 1",
            "spec.ports[0].name: Required value",
        ],
    );
    // An integral float is an integer.
    check(json!({"size": 3.0}), &[]);
    check(
        json!({"size": 3.5}),
        &[
            r#"spec.size: Invalid value: "number": spec.size in body must be of type integer: "number""#,
        ],
    );
}

#[test]
fn sets_and_map_lists_report_each_values_first_repeat() {
    let object = json!({"spec": {"size": 1,
        "tags": ["a", "b", "a", "a", "b"],
        "ports": [{"name": "http", "port": 80}, {"name": "http", "port": 81}, {"port": 1}, {"port": 2}]}});
    assert_eq!(
        lines(&listtype::validate(&object, &schema())),
        [
            r#"spec.ports[1]: Duplicate value: {"name":"http"}"#,
            "spec.ports[3]: Duplicate value: {}",
            r#"spec.tags[2]: Duplicate value: "a""#,
            r#"spec.tags[4]: Duplicate value: "b""#,
        ]
    );
    let bad = json!({"spec": {"ports": [{"name": "a"}, "x", 3]}});
    assert_eq!(
        lines(&listtype::validate(&bad, &schema())),
        [r#"spec.ports[1]: Invalid value: "x": must be an object for an array of list-type map"#]
    );
    // 1 and 1.0 are different values to Go (int64 and float64).
    let numbers = Structural::from_schema(&json!({"type": "object", "properties": {"n": {
        "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "number"}}}}))
    .unwrap();
    assert!(listtype::validate(&json!({"n": [1, 1.0]}), &numbers).is_empty());
}

#[test]
fn an_update_is_not_refused_for_what_it_leaves_as_it_was() {
    let old = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {"size": 1, "replicas": 0, "mode": "slow",
            "ports": [{"name": "a", "port": 0}, {"name": "b", "port": 1}]}});
    // Another field changes; the invalid ones stay as they were, the map list reordered.
    let mut new = old.clone();
    new["spec"]["size"] = json!(2);
    new["spec"]["ports"] = json!([{"name": "b", "port": 1}, {"name": "a", "port": 0}]);
    assert!(openapi::validate_update(&new, &old, &schema()).is_empty());
    // A changed invalid value is refused.
    new["spec"]["replicas"] = json!(-1);
    assert_eq!(
        lines(&openapi::validate_update(&new, &old, &schema())),
        [
            "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 1"
        ]
    );
    // Created, the same object is refused for each.
    assert_eq!(openapi::validate(&old, &schema()).len(), 3);
}

#[test]
fn a_definition_gives_the_servers_422() {
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "required": ["size"], "properties": {
                        "size": {"type": "integer"},
                        "replicas": {"type": "integer", "minimum": 1}}}}}}}]}});
    let mut definitions = Definitions::new();
    definitions.add(&crd).unwrap();
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "Bad_Name", "namespace": "default"}, "spec": {"replicas": 0}});
    let definition = definitions.definition_of(&widget).unwrap();
    let Err(super::CustomResourceError::Invalid(invalid)) = definition.validate_create(&widget)
    else {
        panic!("invalid");
    };
    assert_eq!(
        invalid.to_string(),
        "Widget.example.com \"Bad_Name\" is invalid: [metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1, spec.size: Required value]"
    );
    assert_eq!(invalid.to_status()["code"], 422);
}

#[test]
fn junctors_give_upstreams_composite_messages() {
    let s = Structural::from_schema(&json!({"type": "object", "properties": {
        "one": {"type": "integer", "oneOf": [{"minimum": 0}, {"maximum": 10}]},
        "not": {"type": "string", "not": {"pattern": "^x"}}}}))
    .unwrap();
    let errors = |object: Value| lines(&openapi::validate(&object, &s));
    assert_eq!(errors(json!({"one": 20, "not": "a"})), Vec::<String>::new());
    assert_eq!(
        errors(json!({"one": 5})),
        [
            r#"<nil>: Invalid value: "": "one" must validate one and only one schema (oneOf). Found 2 valid alternatives"#
        ]
    );
    assert_eq!(
        errors(json!({"not": "xy"})),
        [r#"<nil>: Invalid value: "": "not" must not validate the schema (not)"#]
    );
}

#[test]
fn a_status_write_checks_the_status_as_its_own_root() {
    let s = Structural::from_schema(&json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {"size": {"type": "integer", "minimum": 1}}},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}}))
    .unwrap();
    let old = json!({"spec": {"size": 0}, "status": {"ready": true}});
    // The spec is not the status write's business; the status is named from its own root.
    let new = json!({"spec": {"size": 0}, "status": {"ready": "yes"}});
    assert_eq!(
        lines(&openapi::validate_status_update(&new, &old, &s)),
        [
            r#"status.ready: Invalid value: "string": ready in body must be of type boolean: "string""#
        ]
    );
    let new = json!({"spec": {"size": 0}, "status": "up"});
    assert_eq!(
        lines(&openapi::validate_status_update(&new, &old, &s)),
        [r#"status: Invalid value: "string":  in body must be of type object: "string""#]
    );
}

/// A rule that still fails over a part an update left as it was is not an error but a
/// warning, the error's text (apiextensions-apiserver `schema/cel/validation.go`, ratcheting);
/// once the part changes, it is an error again.
#[test]
fn ratcheted_rule_failures_are_warnings() {
    let schema = Structural::from_schema(&json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "a": {"type": "integer", "x-kubernetes-validations": [
                {"rule": "self > 0", "message": "must be positive"}]},
            "b": {"type": "string"}}}}}))
    .unwrap();
    let old = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "resourceVersion": "1"}, "spec": {"a": 0, "b": "x"}});
    let mut new = old.clone();
    new["spec"]["b"] = json!("y");
    let checked = super::validator::check_update(&new, &old, &schema, None);
    assert_eq!(checked.errors, vec![]);
    assert_eq!(
        checked.warnings,
        [r#"spec.a: Invalid value: "integer": must be positive"#]
    );
    new["spec"]["a"] = json!(-1);
    let checked = super::validator::check_update(&new, &old, &schema, None);
    assert_eq!(
        lines(&checked.errors),
        [r#"spec.a: Invalid value: "integer": must be positive"#]
    );
    assert!(checked.warnings.is_empty());
}
