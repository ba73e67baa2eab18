use serde_json::{Value, json};

use super::*;

fn widget_crd(schema: Value) -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets",
                "singular": "widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema}}]}})
}

fn create_lines(mut crd: Value) -> Vec<String> {
    prepare_for_create(&mut crd);
    validate_create(&crd)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn a_valid_crd_is_admitted() {
    let crd = widget_crd(
        json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"replicas": {"type": "integer", "default": 1, "minimum": 0}},
        "x-kubernetes-validations": [{"rule": "self.replicas >= 0"}]}}}),
    );
    assert_eq!(create_lines(crd), Vec::<String>::new());
}

#[test]
fn the_name_is_the_plural_and_the_group() {
    let mut crd = widget_crd(json!({"type": "object"}));
    crd["metadata"]["name"] = json!("gadgets.example.com");
    assert_eq!(
        create_lines(crd),
        [
            r#"metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group"#
        ]
    );
}

#[test]
fn spec_level_mistakes_are_named() {
    let mut crd = widget_crd(json!({"type": "object"}));
    crd["spec"]["group"] = json!("example");
    crd["spec"]["scope"] = json!("Cluster-wide");
    crd["spec"]["versions"][0]["storage"] = json!(false);
    crd["metadata"]["name"] = json!("widgets.example");
    let lines = create_lines(crd);
    assert_eq!(
        lines[0],
        r#"spec.group: Invalid value: "example": should be a domain with at least one dot"#
    );
    assert_eq!(
        lines[1],
        r#"spec.scope: Unsupported value: "Cluster-wide": supported values: "Cluster", "Namespaced""#
    );
    assert!(
        lines[2].starts_with(
            r#"spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"#
        ),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with("must have exactly one version marked as storage version"));
    assert_eq!(
        lines[3],
        "status.storedVersions: Invalid value: null: must have at least one stored version"
    );
}

#[test]
fn a_rule_that_does_not_parse_is_refused() {
    let crd = widget_crd(
        json!({"type": "object", "properties": {"spec": {"type": "object",
        "x-kubernetes-validations": [{"rule": "self.a >"}]}}}),
    );
    let lines = create_lines(crd);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with(r#"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.a \u003e","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: "#), "{}", lines[0]);
}

#[test]
fn old_self_is_refused_where_the_old_value_cannot_be_found() {
    let crd = widget_crd(
        json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"items": {"type": "array", "items": {"type": "object",
            "properties": {"a": {"type": "string"}},
            "x-kubernetes-validations": [{"rule": "self.a == oldSelf.a"}]}}}}}}),
    );
    assert_eq!(
        create_lines(crd),
        [
            r#"spec.validation.openAPIV3Schema.properties[spec].properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self.a == oldSelf.a": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[items]"#
        ]
    );
}

#[test]
fn list_types_are_checked() {
    let crd = widget_crd(
        json!({"type": "object", "properties": {"ports": {"type": "array",
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
        "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}),
    );
    assert_eq!(
        create_lines(crd),
        [
            "spec.validation.openAPIV3Schema.properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"
        ]
    );
}

#[test]
fn per_version_schemas_are_named_by_their_version() {
    let mut crd = widget_crd(json!({"type": "object"}));
    let mut second = crd["spec"]["versions"][0].clone();
    second["name"] = json!("v2");
    second["storage"] = json!(false);
    second["schema"]["openAPIV3Schema"] = json!({"type": "object", "properties": {"a": {}}});
    crd["spec"]["versions"].as_array_mut().unwrap().push(second);
    assert_eq!(
        create_lines(crd),
        [
            "spec.versions[1].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields"
        ]
    );
}

#[test]
fn the_status_subresource_restricts_the_root() {
    let mut crd = widget_crd(json!({"type": "object", "anyOf": [{"required": ["spec"]}],
        "properties": {"spec": {"type": "object"}}}));
    crd["spec"]["versions"][0]["subresources"] = json!({"status": {}});
    let lines = create_lines(crd);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with(r#"spec.validation.openAPIV3Schema: Invalid value: {"ID":"","#));
    assert!(lines[0].ends_with("only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled"));
}

#[test]
fn protected_groups_need_approval() {
    let mut crd = widget_crd(json!({"type": "object"}));
    crd["spec"]["group"] = json!("things.k8s.io");
    crd["metadata"]["name"] = json!("widgets.things.k8s.io");
    assert_eq!(
        create_lines(crd.clone()),
        [
            r#"metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111"#
        ]
    );
    crd["metadata"]["annotations"] =
        json!({"api-approved.kubernetes.io": "https://github.com/kubernetes/kubernetes/pull/1"});
    assert_eq!(create_lines(crd), Vec::<String>::new());
}

#[test]
fn updates_keep_the_group_and_plural() {
    let mut old = widget_crd(json!({"type": "object"}));
    prepare_for_create(&mut old);
    let mut new = old.clone();
    new["spec"]["group"] = json!("example.org");
    new["metadata"]["name"] = json!("widgets.example.org");
    prepare_for_update(&mut new, &old);
    let lines: Vec<String> = validate_update(&new, &old)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        lines.contains(
            &r#"spec.group: Invalid value: "example.org": field is immutable"#.to_owned()
        ),
        "{lines:?}"
    );
}
