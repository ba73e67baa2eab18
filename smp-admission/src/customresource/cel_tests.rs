//! `x-kubernetes-validations` rules over custom resources, with the errors kube-apiserver
//! v1.34 gives (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`: the value is
//! the node's schema type, the message the rule's own or `failed rule: <rule>`, the type its
//! `reason`), transition rules, the blocking-error gate and ratcheting. Schemas and objects
//! are our own.

use serde_json::{Value, json};

use super::structural::Structural;
use super::validator;

fn schema() -> Structural {
    Structural::from_schema(&json!({
        "type": "object",
        "x-kubernetes-validations": [
            {"rule": "!has(self.spec) || !has(self.spec.max) || self.spec.replicas <= self.spec.max",
             "message": "replicas must not exceed max"}],
        "properties": {"spec": {"type": "object",
            "x-kubernetes-validations": [
                {"rule": "self.replicas != 13", "fieldPath": ".replicas",
                 "reason": "FieldValueForbidden", "message": "unlucky"},
                {"rule": "self.replicas != 7"},
                {"rule": "self.replicas != 8", "reason": "FieldValueDuplicate"},
                {"rule": "self.replicas != 9",
                 "messageExpression": "'replicas is ' + string(self.replicas)"},
                {"rule": "!has(self.size) || quantity(self.size).compareTo(quantity('1Gi')) <= 0",
                 "message": "at most 1Gi"},
                {"rule": "!has(self.timeout) || self.timeout < duration('1h')",
                 "message": "under an hour"},
                {"rule": "!has(self.__namespace__) || self.__namespace__ != 'kube-system'",
                 "message": "not kube-system"}],
            "required": ["replicas"],
            "properties": {
                "replicas": {"type": "integer"},
                "max": {"type": "integer"},
                "size": {"type": "string"},
                "timeout": {"type": "string", "format": "duration"},
                "namespace": {"type": "string"},
                "name": {"type": "string",
                    "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]},
                "ports": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {
                        "name": {"type": "string"},
                        "port": {"type": "integer",
                            "x-kubernetes-validations": [
                                {"rule": "self >= oldSelf", "message": "may not go down"}]}}}}}}}}))
    .unwrap()
}

fn widget(spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default"}, "spec": spec})
}

fn on_create(spec: Value) -> Vec<String> {
    validator::errors_on_create(&widget(spec), &schema(), true, None)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn on_update(old: Value, new: Value) -> Vec<String> {
    let mut old = widget(old);
    old["metadata"]["resourceVersion"] = json!("1");
    let mut new = widget(new);
    new["metadata"]["resourceVersion"] = json!("1");
    validator::errors_on_update(&new, &old, &schema(), None)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn failed_rules_are_the_servers_field_errors() {
    assert_eq!(
        on_create(json!({"replicas": 1, "name": "a"})),
        Vec::<String>::new()
    );
    assert_eq!(
        on_create(json!({"replicas": 5, "max": 3})),
        [r#"<nil>: Invalid value: "object": replicas must not exceed max"#]
    );
    assert_eq!(
        on_create(json!({"replicas": 13})),
        ["spec.replicas: Forbidden: unlucky"]
    );
    assert_eq!(
        on_create(json!({"replicas": 7})),
        [r#"spec: Invalid value: "object": failed rule: self.replicas != 7"#]
    );
    assert_eq!(
        on_create(json!({"replicas": 8})),
        [r#"spec: Duplicate value: "object""#]
    );
    assert_eq!(
        on_create(json!({"replicas": 9})),
        [r#"spec: Invalid value: "object": replicas is 9"#]
    );
    assert_eq!(
        on_create(json!({"replicas": 1, "size": "2Gi"})),
        [r#"spec: Invalid value: "object": at most 1Gi"#]
    );
    assert_eq!(
        on_create(json!({"replicas": 1, "timeout": "90m"})),
        [r#"spec: Invalid value: "object": under an hour"#]
    );
    assert_eq!(
        on_create(json!({"replicas": 1, "namespace": "kube-system"})),
        [r#"spec: Invalid value: "object": not kube-system"#]
    );
}

#[test]
fn an_earlier_blocking_error_stops_the_rules() {
    assert_eq!(
        on_create(json!({"max": 3, "name": 1})),
        [
            r#"spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer""#,
            "spec.replicas: Required value",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
}

#[test]
fn transition_rules_run_where_there_is_an_old_value() {
    // Not on create; on update when the value changes.
    assert_eq!(
        on_create(json!({"replicas": 1, "name": "a"})),
        Vec::<String>::new()
    );
    assert_eq!(
        on_update(
            json!({"replicas": 1, "name": "a"}),
            json!({"replicas": 1, "name": "b"})
        ),
        [r#"spec.name: Invalid value: "string": immutable"#]
    );
    // Map list items correlate by key, whatever their order; a new item has no old value.
    let old =
        json!({"replicas": 1, "ports": [{"name": "a", "port": 80}, {"name": "b", "port": 90}]});
    let new = json!({"replicas": 1, "ports": [
        {"name": "b", "port": 91}, {"name": "a", "port": 79}, {"name": "c", "port": 1}]});
    assert_eq!(
        on_update(old, new),
        [r#"spec.ports[1].port: Invalid value: "integer": may not go down"#]
    );
}

#[test]
fn an_unchanged_value_is_not_refused_for_a_rule_it_already_failed() {
    // Stored before the rule existed, say: an update of something else passes.
    assert_eq!(
        on_update(
            json!({"replicas": 7, "max": 9}),
            json!({"replicas": 7, "max": 9, "name": "x"})
        ),
        [r#"spec: Invalid value: "object": failed rule: self.replicas != 7"#],
        "spec changed (a member was added), so its rules count"
    );
    assert_eq!(
        on_update(
            json!({"replicas": 7, "ports": [{"name": "a", "port": 1}]}),
            json!({"replicas": 7, "ports": [{"name": "a", "port": 1}]})
        ),
        Vec::<String>::new()
    );
}

#[test]
fn two_variable_comprehensions_bind_the_index_or_key_and_the_value() {
    use super::cel::evaluate_rule;
    let this = json!({"a": [1, 2], "m": {"x": 1}});
    for rule in [
        "self.a.all(i, v, v > 0)",
        "self.a.exists(i, v, i == 1 && v == 2)",
        "self.a.existsOne(i, v, v == 2)",
        "self.m.all(k, v, k == 'x' && v == 1)",
        "self.a.transformList(i, v, v * 2) == [2, 4]",
        "self.a.transformList(i, v, i > 0, v) == [2]",
        "self.m.transformMap(k, v, v + 1) == {'x': 2}",
        "self.m.transformMapEntry(k, v, {k + '2': v}) == {'x2': 1}",
        "[3, 1, 2].sortBy(e, -e) == [3, 2, 1]",
    ] {
        assert_eq!(evaluate_rule(rule, &this), Ok(true), "{rule}");
    }
    // `all` is decided by a false element even when another errs.
    assert_eq!(
        evaluate_rule("self.a.all(i, v, v == 1 && 1 / (v - 1) == 0)", &this),
        Ok(false)
    );
}

#[test]
fn a_message_construction_is_refused_when_compiled_not_when_run() {
    // The `cel` crate cannot evaluate one (it would panic), and cel-go's checker refuses it.
    let refused = super::cel::evaluate_rule("self == Foo{a: 1}", &json!({})).unwrap_err();
    assert!(
        refused.starts_with("ERROR: <input>:1:9: undeclared reference to 'Foo'"),
        "{refused}"
    );
}

#[test]
fn a_member_named_by_a_reserved_word_reads_under_both_spellings() {
    use super::cel::evaluate_rule;
    let this = json!({"spec": {"if": "x", "namespace": "n"}});
    for rule in [
        "self.spec.if == 'x'",
        "self.spec.__if__ == 'x'",
        "has(self.spec.namespace) && self.spec.__namespace__ == 'n'",
    ] {
        assert_eq!(evaluate_rule(rule, &this), Ok(true), "{rule}");
    }
}

/// Optionals compare as cel-go compares them, whichever library made them: two empty ones are
/// equal, two holding equal values are equal, and an optional never equals a plain value.
#[test]
fn optionals_compare_as_cel_go_compares_them() {
    use super::cel::evaluate_rule;
    let holds = |rule: &str| evaluate_rule(rule, &json!({}));
    for rule in [
        "optional.none() == optional.none()",
        "optional.of(1) == optional.of(1)",
        "optional.of(1) != optional.of(2)",
        "optional.of(1) != optional.none()",
        "optional.ofNonZeroValue('') == optional.none()",
        "format.dns1123Label().validate('web') == optional.none()",
        "format.dns1123Label().validate('Not A Label') != optional.none()",
        "optional.none() == format.dns1123Label().validate('web')",
    ] {
        assert_eq!(holds(rule), Ok(true), "{rule}");
    }
    assert_eq!(holds("optional.of(1) == 1"), Ok(false));
}

/// Optional syntax parses and runs as in the server's environment: `x.?f`, `m[?k]`, `l[?i]`,
/// and optional entries in list and map literals.
#[test]
fn optional_syntax_reads_what_may_be_absent() {
    use super::cel::evaluate_rule;
    let this = json!({"m": {"k": "v"}, "l": ["a"], "o": {"s": "x"}});
    for rule in [
        "self.m[?'k'].orValue('') == 'v'",
        "!self.m[?'missing'].hasValue()",
        "self.l[?0] == optional.of('a')",
        "self.l[?5].orValue('none') == 'none'",
        "self.o.?s == optional.of('x')",
        "['a', ?optional.none(), 'c'] == ['a', 'c']",
        "{?'k': optional.of(1), 'j': 2} == {'k': 1, 'j': 2}",
    ] {
        assert_eq!(evaluate_rule(rule, &this), Ok(true), "{rule}");
    }
}

/// `optMap` maps what an optional holds and leaves an empty one empty.
#[test]
fn opt_map_maps_what_an_optional_holds() {
    use super::cel::evaluate_rule;
    let this = json!({"l": ["a"]});
    for rule in [
        "self.l[?0].optMap(v, v + 'b') == optional.of('ab')",
        "!self.l[?3].optMap(v, v + 'b').hasValue()",
        "optional.of(2).optMap(x, x * 3).value() == 6",
    ] {
        assert_eq!(evaluate_rule(rule, &this), Ok(true), "{rule}");
    }
}
