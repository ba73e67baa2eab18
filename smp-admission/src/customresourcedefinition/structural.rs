//! Whether a CRD's schema is structural, as the server decides it (apiextensions-apiserver
//! `pkg/apiserver/schema`: `NewStructural` in `convert.go`, `ValidateStructural` in
//! `validation.go`, completeness in `complete.go`), read from the v1 JSON.
//!
//! The structural part of a schema is its `type`, `properties`, `items`,
//! `additionalProperties` and extensions; `anyOf`, `allOf`, `oneOf` and `not` may only add
//! value constraints over fields the structural part declares. The server sorts these errors
//! by their text, and so does [`validate_structural`].

use serde_json::{Map, Value};

use crate::customresource::structural::{MAX_DEPTH, Pattern};
use crate::validation::field::{self, ErrorList, Path};

/// Where a node sits, which decides the words of a missing `type`.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Root,
    Item,
    Field,
}

fn members(s: &Value) -> Option<&Map<String, Value>> {
    s.get("properties").and_then(Value::as_object)
}

fn text<'v>(s: &'v Value, key: &str) -> &'v str {
    s.get(key).and_then(Value::as_str).unwrap_or("")
}

fn flag(s: &Value, key: &str) -> bool {
    s.get(key) == Some(&Value::Bool(true))
}

fn has(s: &Value, key: &str) -> bool {
    s.get(key).is_some_and(|v| !v.is_null())
}

/// The schema of `items` when it is one (not a list of them).
fn items(s: &Value) -> Option<&Value> {
    s.get("items").filter(|i| i.is_object())
}

/// The schema of `additionalProperties` when it is one (not `true` or `false`).
fn additional_schema(s: &Value) -> Option<&Value> {
    s.get("additionalProperties").filter(|a| a.is_object())
}

/// Why `NewStructural` cannot read the schema, if it cannot: a member no structural schema has
/// (`id`, `$schema`, `$ref`, `patternProperties`, `dependencies`, `additionalItems`,
/// `definitions`, anywhere), `items` written as a list, or
/// `x-kubernetes-preserve-unknown-fields: false`.
pub fn new_structural_error(s: &Value) -> Option<String> {
    convert(s, 0, true)
}

fn convert(s: &Value, depth: usize, structural: bool) -> Option<String> {
    if depth > MAX_DEPTH || !s.is_object() {
        return None;
    }
    for (key, name) in [
        ("id", "id"),
        ("$schema", "schema"),
        ("$ref", "$ref"),
        ("patternProperties", "patternProperties"),
        ("dependencies", "dependencies"),
        ("additionalItems", "additionalItems"),
        ("definitions", "definitions"),
    ] {
        let present = match s.get(key) {
            None | Some(Value::Null) => false,
            Some(Value::String(t)) => !t.is_empty(),
            Some(Value::Object(m)) => key == "dependencies" || !m.is_empty(),
            Some(_) => true,
        };
        if present {
            return Some(format!("OpenAPIV3Schema '{name}' is not supported"));
        }
    }
    if let Some(e) = s.get("not").and_then(|n| convert(n, depth + 1, false)) {
        return Some(e);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for clause in s.get(key).and_then(Value::as_array).into_iter().flatten() {
            if let Some(e) = convert(clause, depth + 1, false) {
                return Some(e);
            }
        }
    }
    if structural && s.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        return Some(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
                .to_owned(),
        );
    }
    if s.get("items").is_some_and(Value::is_array) {
        return Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned());
    }
    if let Some(e) = items(s).and_then(|i| convert(i, depth + 1, structural)) {
        return Some(e);
    }
    for member in members(s).into_iter().flat_map(|m| m.values()) {
        if let Some(e) = convert(member, depth + 1, structural) {
            return Some(e);
        }
    }
    additional_schema(s).and_then(|a| convert(a, depth + 1, structural))
}

/// `ValidateStructural` of a schema `NewStructural` reads, its errors sorted by their text.
pub fn validate_structural(schema: &Value, path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    invariants(schema, Level::Root, path, &mut errs, 0);
    completeness_of_junctors(schema, schema, path, path, &mut errs, 0);
    errs.sort_by_cached_key(|e| e.to_string());
    errs
}

fn invariants(s: &Value, level: Level, path: &Path, errs: &mut ErrorList, depth: usize) {
    if depth > MAX_DEPTH || !s.is_object() {
        return;
    }
    let kind = text(s, "type");
    if kind == "array" && items(s).is_none() {
        errs.push(field::required(&path.child("items"), "must be specified"));
    }
    if let Some(item) = items(s) {
        invariants(item, Level::Item, &path.child("items"), errs, depth + 1);
    }
    let properties_path = path.child("properties");
    for (key, member) in members(s).into_iter().flatten() {
        invariants(
            member,
            Level::Field,
            &properties_path.key(key),
            errs,
            depth + 1,
        );
    }
    if has(s, "additionalProperties") {
        if level == Level::Root {
            errs.push(field::forbidden(
                &path.child("additionalProperties"),
                "must not be used at the root",
            ));
        }
        if let Some(a) = additional_schema(s) {
            invariants(
                a,
                Level::Field,
                &path.child("additionalProperties"),
                errs,
                depth + 1,
            );
        }
    }
    let int_or_string = flag(s, "x-kubernetes-int-or-string");
    let preserve = flag(s, "x-kubernetes-preserve-unknown-fields");
    let embedded = flag(s, "x-kubernetes-embedded-resource");
    if int_or_string && preserve {
        errs.push(field::invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            true,
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if int_or_string && embedded {
        errs.push(field::invalid(
            &path.child("x-kubernetes-embedded-resource"),
            true,
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    value_validation(
        s,
        any_of_is_int_or_string(s),
        all_of_starts_int_or_string(s),
        level,
        path,
        errs,
        depth,
    );
    if embedded && kind != "object" {
        if kind.is_empty() {
            errs.push(field::required(
                &path.child("type"),
                "must be object if x-kubernetes-embedded-resource is true",
            ));
        } else {
            errs.push(field::invalid(
                &path.child("type"),
                kind,
                "must be object if x-kubernetes-embedded-resource is true",
            ));
        }
    } else if kind.is_empty() && !int_or_string && !preserve {
        let detail = match level {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(field::required(&path.child("type"), detail));
    }
    if embedded && has(s, "additionalProperties") {
        errs.push(field::forbidden(
            &path.child("additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if level == Level::Root && !kind.is_empty() && kind != "object" {
        errs.push(field::invalid(
            &path.child("type"),
            kind,
            "must be object at the root",
        ));
    }
    let check_metadata = level == Level::Root || embedded;
    let properties = members(s);
    if check_metadata {
        for key in ["kind", "apiVersion"] {
            if let Some(member) = properties.and_then(|p| p.get(key)) {
                let t = text(member, "type");
                if t != "string" {
                    let at = properties_path.key(key);
                    errs.push(field::invalid(&at.child("type"), t, "must be string"));
                }
            }
        }
    }
    if let Some(metadata) = properties.and_then(|p| p.get("metadata")) {
        let at = properties_path.key("metadata");
        let t = text(metadata, "type");
        if check_metadata && t != "object" {
            errs.push(field::invalid(&at.child("type"), t, "must be object"));
        }
        if level == Level::Root && !metadata_only_names(metadata) {
            errs.push(field::forbidden(
                &at,
                "must not specify anything other than name and generateName, but metadata is implicitly specified",
            ));
        }
    }
    if embedded && !preserve && properties.is_none_or(Map::is_empty) {
        errs.push(field::required(
            &path.child("properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// Whether the root's `metadata` schema holds nothing but its `type`, a `default`, and the
/// schemas of `name` and `generateName`.
fn metadata_only_names(metadata: &Value) -> bool {
    let Some(node) = metadata.as_object() else {
        return true;
    };
    node.iter().all(|(key, value)| match key.as_str() {
        "type" | "default" => true,
        "properties" => value
            .as_object()
            .is_none_or(|p| p.is_empty() || p.keys().all(|k| k == "name" || k == "generateName")),
        // Members that print as their zero value say nothing.
        _ => {
            matches!(value, Value::Null | Value::Bool(false))
                || value.as_str() == Some("")
                || value.as_array().is_some_and(Vec::is_empty) && key != "required"
        }
    })
}

/// `anyOf: [{type: integer}, {type: string}]`, the int-or-string pattern.
fn is_int_or_string_pair(clauses: Option<&Value>) -> bool {
    let Some(list) = clauses.and_then(Value::as_array) else {
        return false;
    };
    list.len() == 2
        && list[0].as_object().is_some_and(|o| o.len() == 1)
        && list[1].as_object().is_some_and(|o| o.len() == 1)
        && text(&list[0], "type") == "integer"
        && text(&list[1], "type") == "string"
}

fn any_of_is_int_or_string(s: &Value) -> bool {
    is_int_or_string_pair(s.get("anyOf"))
}

fn all_of_starts_int_or_string(s: &Value) -> bool {
    s.get("allOf")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .is_some_and(|first| is_int_or_string_pair(first.get("anyOf")))
}

/// `validateValueValidation`: the node's junctors, each a nested value validation, and its
/// `pattern`.
fn value_validation(
    s: &Value,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    level: Level,
    path: &Path,
    errs: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    if !skip_any_of {
        let at = path.child("anyOf");
        for (i, clause) in junctor(s, "anyOf").iter().enumerate() {
            nested(clause, false, level, &at.index(i), errs, depth + 1);
        }
    }
    let at = path.child("allOf");
    for (i, clause) in junctor(s, "allOf").iter().enumerate() {
        nested(
            clause,
            skip_first_all_of_any_of && i == 0,
            level,
            &at.index(i),
            errs,
            depth + 1,
        );
    }
    let at = path.child("oneOf");
    for (i, clause) in junctor(s, "oneOf").iter().enumerate() {
        nested(clause, false, level, &at.index(i), errs, depth + 1);
    }
    if let Some(not) = s.get("not").filter(|n| n.is_object()) {
        nested(not, false, level, &path.child("not"), errs, depth + 1);
    }
    let pattern = text(s, "pattern");
    if !pattern.is_empty()
        && let Err(e) = Pattern::new(pattern)
    {
        errs.push(field::invalid(
            &path.child("pattern"),
            pattern,
            &format!(
                "must be a valid regular expression, but isn't: {}",
                regex_error(&e)
            ),
        ));
    }
}

/// The regular expression library's complaint, on one line, after Go's prefix (the words
/// after it are the `regex` crate's, not RE2's).
fn regex_error(e: &str) -> String {
    let line = e
        .lines()
        .map(str::trim)
        .rfind(|l| l.starts_with("error:"))
        .map_or(e.trim(), |l| l.trim_start_matches("error:").trim());
    format!("error parsing regexp: {line}")
}

fn junctor<'v>(s: &'v Value, key: &str) -> &'v [Value] {
    s.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `validateNestedValueValidation`: a junctor's clause may constrain values, not declare them.
fn nested(
    v: &Value,
    skip_any_of: bool,
    level: Level,
    path: &Path,
    errs: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH || !v.is_object() {
        return;
    }
    value_validation(v, skip_any_of, false, level, path, errs, depth);
    if let Some(item) = items(v) {
        nested(item, false, level, &path.child("items"), errs, depth + 1);
    }
    let properties_path = path.child("properties");
    for (key, member) in members(v).into_iter().flatten() {
        nested(
            member,
            false,
            Level::Field,
            &properties_path.key(key),
            errs,
            depth + 1,
        );
    }
    let forbidden = |errs: &mut ErrorList, key: &str, detail: &str| {
        errs.push(field::forbidden(&path.child(key), detail));
    };
    if !text(v, "type").is_empty() {
        forbidden(errs, "type", "must be empty to be structural");
    }
    if has(v, "additionalProperties") {
        forbidden(
            errs,
            "additionalProperties",
            "must be undefined to be structural",
        );
    }
    if has(v, "default") {
        forbidden(errs, "default", "must be undefined to be structural");
    }
    if !text(v, "title").is_empty() {
        forbidden(errs, "title", "must be empty to be structural");
    }
    if !text(v, "description").is_empty() {
        forbidden(errs, "description", "must be empty to be structural");
    }
    if flag(v, "nullable") {
        forbidden(errs, "nullable", "must be false to be structural");
    }
    for key in [
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource",
        "x-kubernetes-int-or-string",
    ] {
        if flag(v, key) {
            forbidden(errs, key, "must be false to be structural");
        }
    }
    if !junctor(v, "x-kubernetes-list-map-keys").is_empty() {
        forbidden(
            errs,
            "x-kubernetes-list-map-keys",
            "must be empty to be structural",
        );
    }
    for key in ["x-kubernetes-list-type", "x-kubernetes-map-type"] {
        if has(v, key) {
            forbidden(errs, key, "must be undefined to be structural");
        }
    }
    if !junctor(v, "x-kubernetes-validations").is_empty() {
        forbidden(
            errs,
            "x-kubernetes-validations",
            "must be empty to be structural",
        );
    }
    if members(v).is_some_and(|m| m.contains_key("metadata")) {
        errs.push(field::forbidden(
            &properties_path.key("metadata"),
            "must not be specified in a nested context",
        ));
    }
}

/// `validateStructuralCompleteness`: what the root's junctors mention must be declared.
fn completeness_of_junctors(
    v: &Value,
    s: &Value,
    s_path: &Path,
    v_path: &Path,
    errs: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(not) = v.get("not").filter(|n| n.is_object()) {
        completeness(not, Some(s), s_path, &v_path.child("not"), errs, depth + 1);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        let at = v_path.child(key);
        for (i, clause) in junctor(v, key).iter().enumerate() {
            completeness(clause, Some(s), s_path, &at.index(i), errs, depth + 1);
        }
    }
}

fn completeness(
    v: &Value,
    s: Option<&Value>,
    s_path: &Path,
    v_path: &Path,
    errs: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH || !v.is_object() {
        return;
    }
    let Some(s) = s else {
        errs.push(field::required(
            s_path,
            &format!("because it is defined in {}", v_path.render()),
        ));
        return;
    };
    completeness_of_junctors(v, s, s_path, v_path, errs, depth);
    if let Some(item) = items(v) {
        completeness(
            item,
            items(s),
            &s_path.child("items"),
            &v_path.child("items"),
            errs,
            depth + 1,
        );
    }
    let s_properties = s_path.child("properties");
    let v_properties = v_path.child("properties");
    for (key, member) in members(v).into_iter().flatten() {
        match members(s).and_then(|m| m.get(key)) {
            None => errs.push(field::required(
                &s_properties.key(key),
                &format!(
                    "because it is defined in {}",
                    v_properties.key(key).render()
                ),
            )),
            Some(declared) => completeness(
                member,
                Some(declared),
                &s_properties.key(key),
                &v_properties.key(key),
                errs,
                depth + 1,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(schema: Value) -> Vec<String> {
        validate_structural(
            &schema,
            &Path::names(&["spec", "validation", "openAPIV3Schema"]),
        )
        .iter()
        .map(ToString::to_string)
        .collect()
    }

    #[test]
    fn a_field_without_a_type_is_not_structural() {
        assert_eq!(
            lines(
                json!({"type": "object", "properties": {"spec": {"type": "object",
                "properties": {"foo": {"description": "x"}}}}})
            ),
            [
                "spec.validation.openAPIV3Schema.properties[spec].properties[foo].type: Required value: must not be empty for specified object fields"
            ]
        );
    }

    #[test]
    fn junctors_may_not_declare_and_must_name_declared_fields() {
        assert_eq!(
            lines(json!({"type": "object", "anyOf": [{"type": "string",
                "properties": {"a": {"minLength": 1}}}]})),
            [
                "spec.validation.openAPIV3Schema.anyOf[0].type: Forbidden: must be empty to be structural",
                "spec.validation.openAPIV3Schema.properties[a]: Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[a]",
            ]
        );
    }

    #[test]
    fn int_or_string_patterns_are_allowed() {
        assert!(
            lines(json!({"type": "object", "properties": {"port": {
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "integer"}, {"type": "string"}]}}}))
            .is_empty()
        );
    }

    #[test]
    fn root_metadata_holds_only_names() {
        assert_eq!(
            lines(
                json!({"type": "object", "properties": {"metadata": {"type": "object",
                "properties": {"labels": {"type": "object"}}}}})
            ),
            [
                "spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"
            ]
        );
        assert!(
            lines(
                json!({"type": "object", "properties": {"metadata": {"type": "object",
            "properties": {"name": {"type": "string", "maxLength": 10}}}}})
            )
            .is_empty()
        );
    }

    #[test]
    fn unsupported_members_stop_the_conversion() {
        assert_eq!(
            new_structural_error(&json!({"type": "object", "$schema": "x"})).as_deref(),
            Some("OpenAPIV3Schema 'schema' is not supported")
        );
        assert_eq!(new_structural_error(&json!({"type": "object"})), None);
    }
}
