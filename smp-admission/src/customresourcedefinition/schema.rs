//! A CRD version's `openAPIV3Schema` as the server checks it on create
//! (`validateCustomResourceDefinitionValidation` and `ValidateCustomResourceDefinitionOpenAPISchema`
//! of apiextensions-apiserver's `validation.go`): the root's restrictions, structural-ness
//! ([`super::structural`]), the `default`s ([`super::defaults`]), then a walk over every node
//! for the keywords a CRD may not use, the list and map types, and the
//! `x-kubernetes-validations` rules (written correctly, compiling, `oldSelf` only where the
//! old value can be found).
//!
//! Go walks `properties` in random order; they are walked here in key order.

use serde_json::Value;

use super::options::ValidationOptions;
use super::{defaults, internal, structural};
use crate::customresource::fieldpath;
use crate::customresource::rules::Rule;
use crate::customresource::structural::{MAX_DEPTH, Structural};
use crate::validation::field::{self, BadValue, ErrorList, Path};

/// The internal members, in declaration order, with their v1 names; `true` for those the root
/// may hold when the status subresource is on.
const ROOT_MEMBERS: [(&str, &str, bool); 44] = [
    ("ID", "id", false),
    ("Schema", "$schema", false),
    ("Ref", "$ref", false),
    ("Description", "description", true),
    ("Type", "type", true),
    ("Nullable", "nullable", false),
    ("Format", "format", true),
    ("Title", "title", true),
    ("Default", "default", false),
    ("Maximum", "maximum", true),
    ("ExclusiveMaximum", "exclusiveMaximum", true),
    ("Minimum", "minimum", true),
    ("ExclusiveMinimum", "exclusiveMinimum", true),
    ("MaxLength", "maxLength", true),
    ("MinLength", "minLength", true),
    ("Pattern", "pattern", true),
    ("MaxItems", "maxItems", true),
    ("MinItems", "minItems", true),
    ("UniqueItems", "uniqueItems", true),
    ("MultipleOf", "multipleOf", true),
    ("Enum", "enum", false),
    ("MaxProperties", "maxProperties", false),
    ("MinProperties", "minProperties", false),
    ("Required", "required", true),
    ("Items", "items", true),
    ("AllOf", "allOf", false),
    ("OneOf", "oneOf", false),
    ("AnyOf", "anyOf", false),
    ("Not", "not", false),
    ("Properties", "properties", true),
    ("AdditionalProperties", "additionalProperties", false),
    ("PatternProperties", "patternProperties", false),
    ("Dependencies", "dependencies", false),
    ("AdditionalItems", "additionalItems", false),
    ("Definitions", "definitions", false),
    ("ExternalDocs", "externalDocs", true),
    ("Example", "example", true),
    (
        "XPreserveUnknownFields",
        "x-kubernetes-preserve-unknown-fields",
        true,
    ),
    ("XEmbeddedResource", "x-kubernetes-embedded-resource", false),
    ("XIntOrString", "x-kubernetes-int-or-string", false),
    ("XListMapKeys", "x-kubernetes-list-map-keys", false),
    ("XListType", "x-kubernetes-list-type", false),
    ("XMapType", "x-kubernetes-map-type", false),
    ("XValidations", "x-kubernetes-validations", true),
];

/// Whether a member holds its Go zero value once converted (`false`, `""`, absent; an empty
/// list or map is not zero, as Go's decoding keeps it).
fn is_zero(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => true,
        Some(Value::String(s)) => s.is_empty(),
        _ => false,
    }
}

fn text<'v>(s: &'v Value, key: &str) -> &'v str {
    s.get(key).and_then(Value::as_str).unwrap_or("")
}

fn has(s: &Value, key: &str) -> bool {
    s.get(key).is_some_and(|v| !v.is_null())
}

/// Whether any node of `schema` has a `default`.
pub fn has_default(schema: &Value) -> bool {
    fn walk(s: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match s {
            Value::Object(node) => {
                node.contains_key("default")
                    || node.iter().any(|(k, v)| {
                        !matches!(k.as_str(), "enum" | "example" | "default") && walk(v, depth + 1)
                    })
            }
            Value::Array(items) => items.iter().any(|v| walk(v, depth + 1)),
            _ => false,
        }
    }
    walk(schema, 0)
}

/// `validateCustomResourceDefinitionValidation` of one `schema` (`{openAPIV3Schema: ...}`) at
/// `path` (`spec.validation` or `spec.versions[i].schema`).
pub fn validate_validation(
    container: &Value,
    status_enabled: bool,
    path: &Path,
    options: &ValidationOptions,
    out: &mut ErrorList,
) {
    let Some(schema) = container.get("openAPIV3Schema").filter(|s| !s.is_null()) else {
        return;
    };
    let mut errs = ErrorList::new();
    let root_path = path.child("openAPIV3Schema");
    if status_enabled {
        for (go_name, key, allowed) in ROOT_MEMBERS {
            let value = schema.get(key);
            if is_zero(value) {
                continue;
            }
            if go_name == "Type" {
                if text(schema, "type") != "object" {
                    errs.push(field::invalid(
                        &path.child("openAPIV3Schema.type"),
                        text(schema, "type"),
                        r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
                    ));
                    break;
                }
                continue;
            }
            if !allowed {
                let names: Vec<&str> = ROOT_MEMBERS.iter().filter(|m| m.2).map(|m| m.0).collect();
                errs.push(field::invalid(
                    &root_path,
                    BadValue::Printed(internal::schema(schema)),
                    &format!(
                        "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                        names.join(" ")
                    ),
                ));
                break;
            }
        }
    }
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        errs.push(field::forbidden(
            &path.child("openAPIV3Schema.nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let mut rules_compile = false;
    let mut held_back = None;
    let structural = Structural::from_schema(schema).ok();
    if options.require_structural {
        if let Some(e) = structural::new_structural_error(schema) {
            held_back = Some(field::invalid(&root_path, "", &e));
        } else {
            let invariants = structural::validate_structural(schema, &root_path);
            if !invariants.is_empty() {
                errs.extend(invariants);
            } else {
                let defaults = structural
                    .as_ref()
                    .map(|s| defaults::validate_defaults(s, &root_path))
                    .unwrap_or_default();
                if defaults.is_empty() {
                    rules_compile = true;
                } else {
                    errs.extend(defaults);
                }
            }
        }
    }
    let ssv = Ssv {
        allow_defaults: options.allow_defaults,
        disallow_reason: String::new(),
        inside_resource_meta: false,
        require_valid_property_type: options.require_valid_property_type,
        uncorrelatable: None,
    };
    let mut walked = Walked::default();
    walk(
        schema,
        structural.as_ref(),
        &root_path,
        &ssv,
        true,
        options,
        rules_compile,
        &mut walked,
        0,
    );
    errs.extend(walked.schema);
    errs.extend(walked.rules);
    if errs.is_empty() {
        errs.extend(held_back);
    }
    out.extend(errs);
}

/// `specStandardValidatorV3`: what a node may hold, by where it sits.
#[derive(Clone)]
struct Ssv {
    allow_defaults: bool,
    disallow_reason: String,
    inside_resource_meta: bool,
    require_valid_property_type: bool,
    /// The highest node above whose old value cannot be found (a list not of type `map`, or
    /// an object of a map type other than `granular`): `oldSelf` is refused below it.
    uncorrelatable: Option<String>,
}

impl Ssv {
    fn forbidding_defaults(&self, reason: &str) -> Ssv {
        Ssv {
            allow_defaults: false,
            disallow_reason: reason.to_owned(),
            ..self.clone()
        }
    }

    fn uncorrelatable_at(&self, path: &Path) -> Ssv {
        if self.uncorrelatable.is_some() {
            return self.clone();
        }
        Ssv {
            uncorrelatable: Some(path.render()),
            ..self.clone()
        }
    }

    /// `validate`: the keywords no CRD schema may use.
    fn check(&self, s: &Value, path: &Path, errs: &mut ErrorList) {
        let kind = text(s, "type");
        const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];
        if self.require_valid_property_type && !kind.is_empty() && !TYPES.contains(&kind) {
            errs.push(field::not_supported(&path.child("type"), kind, &TYPES));
        }
        if has(s, "default") && !self.allow_defaults {
            let mut detail = "must not be set".to_owned();
            if !self.disallow_reason.is_empty() {
                detail.push(' ');
                detail.push_str(&self.disallow_reason);
            }
            errs.push(field::forbidden(&path.child("default"), &detail));
        }
        if !text(s, "id").is_empty() {
            errs.push(field::forbidden(&path.child("id"), "id is not supported"));
        }
        for (key, detail) in [
            ("additionalItems", "additionalItems is not supported"),
            ("patternProperties", "patternProperties is not supported"),
            ("definitions", "definitions is not supported"),
            ("dependencies", "dependencies is not supported"),
            ("$ref", "$ref is not supported"),
        ] {
            let present = match s.get(key) {
                None | Some(Value::Null) => false,
                Some(Value::Object(m)) => !m.is_empty() || key == "dependencies",
                Some(_) => true,
            };
            if present {
                errs.push(field::forbidden(&path.child(key), detail));
            }
        }
        if kind == "null" {
            errs.push(field::forbidden(
                &path.child("type"),
                "type cannot be set to null, use nullable as an alternative",
            ));
        }
        if s.get("items")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            errs.push(field::forbidden(
                &path.child("items"),
                "items must be a schema object and not an array",
            ));
        }
        if self.inside_resource_meta
            && s.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true))
        {
            errs.push(field::forbidden(
                &path.child("x-kubernetes-embedded-resource"),
                "must not be used inside of resource meta",
            ));
        }
    }
}

/// The walk's two lists: the server reports schema errors before rule errors.
#[derive(Default)]
struct Walked {
    schema: ErrorList,
    rules: ErrorList,
}

#[allow(clippy::too_many_arguments)]
fn walk(
    s: &Value,
    st: Option<&Structural>,
    path: &Path,
    ssv: &Ssv,
    is_root: bool,
    options: &ValidationOptions,
    rules_compile: bool,
    out: &mut Walked,
    depth: usize,
) {
    if depth > MAX_DEPTH || !s.is_object() {
        return;
    }
    // Whether this node or one below it has a schema error: its rules are then not compiled.
    let errors_before = out.schema.len();
    ssv.check(s, path, &mut out.schema);
    if s.get("uniqueItems") == Some(&Value::Bool(true)) {
        out.schema.push(field::forbidden(
            &path.child("uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    let properties = s
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty());
    if let Some(additional) = s.get("additionalProperties").filter(|a| !a.is_null()) {
        if properties.is_some() && additional != &Value::Bool(true) {
            out.schema.push(field::forbidden(
                &path.child("additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        let sub = if ssv.inside_resource_meta {
            ssv.forbidding_defaults("inside additionalProperties applying to object metadata")
        } else {
            ssv.clone()
        };
        if additional.is_object() {
            let st_additional = st
                .and_then(|t| t.additional_properties.as_ref())
                .and_then(|a| a.schema());
            walk(
                additional,
                st_additional,
                &path.child("additionalProperties"),
                &sub,
                false,
                options,
                rules_compile,
                out,
                depth + 1,
            );
        }
    }
    let embedded = s.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
    if let Some(properties) = properties {
        let properties_path = path.child("properties");
        let map_type = text(s, "x-kubernetes-map-type");
        for (key, member) in properties {
            let mut sub = if matches!(map_type, "" | "granular" | "atomic") {
                ssv.clone()
            } else {
                ssv.uncorrelatable_at(path)
            };
            if (is_root || embedded) && matches!(key.as_str(), "metadata" | "kind" | "apiVersion") {
                sub.inside_resource_meta = true;
                if is_root {
                    sub = sub.forbidding_defaults(&format!("in top-level {key}"));
                }
            }
            let st_member = st.and_then(|t| t.properties.get(key));
            walk(
                member,
                st_member,
                &properties_path.key(key),
                &sub,
                false,
                options,
                rules_compile,
                out,
                depth + 1,
            );
        }
    }
    // Junctors: their rules are never compiled (a structural schema has none there).
    if let Some(not) = s.get("not") {
        walk_junctor(not, &path.child("not"), ssv, options, out, depth);
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        let at = path.child(key);
        for (i, clause) in s
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            walk_junctor(clause, &at.index(i), ssv, options, out, depth);
        }
    }
    if let Some(definitions) = s.get("definitions").and_then(Value::as_object) {
        let at = path.child("definitions");
        for (key, d) in definitions {
            walk_junctor(d, &at.key(key), ssv, options, out, depth);
        }
    }
    let list_type = s.get("x-kubernetes-list-type").and_then(Value::as_str);
    if let Some(items) = s.get("items").filter(|i| !i.is_null()) {
        let sub = if list_type != Some("map") {
            ssv.uncorrelatable_at(path)
        } else {
            ssv.clone()
        };
        let items_path = path.child("items");
        if items.is_object() {
            let st_items = st.and_then(|t| t.items.as_deref());
            walk(
                items,
                st_items,
                &items_path,
                &sub,
                false,
                options,
                rules_compile,
                out,
                depth + 1,
            );
        } else if let Some(list) = items.as_array() {
            for (i, item) in list.iter().enumerate() {
                walk(
                    item,
                    None,
                    &items_path.index(i),
                    &sub,
                    false,
                    options,
                    rules_compile,
                    out,
                    depth + 1,
                );
            }
        }
    }
    if let Some(dependencies) = s.get("dependencies").and_then(Value::as_object) {
        let at = path.child("dependencies");
        for (key, d) in dependencies {
            if d.is_object() {
                walk_junctor(d, &at.key(key), ssv, options, out, depth);
            }
        }
    }
    list_and_map_types(s, path, options, &mut out.schema);
    let rules = s
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .filter(|r| !r.is_empty());
    if let Some(rules) = rules {
        rule_texts(rules, st, path, &mut out.schema);
        if out.schema.len() == errors_before && rules_compile {
            compile_rules(rules, path, ssv, &mut out.rules);
        }
    }
}

/// The walk of a junctor's clause (or a definition, or a dependency): its rules are never
/// compiled (a structural schema has none there) and it has no structural counterpart.
fn walk_junctor(
    s: &Value,
    path: &Path,
    ssv: &Ssv,
    options: &ValidationOptions,
    out: &mut Walked,
    depth: usize,
) {
    walk(s, None, path, ssv, false, options, false, out, depth + 1);
}

/// The checks of `x-kubernetes-preserve-unknown-fields`, `x-kubernetes-map-type`,
/// `x-kubernetes-list-type` and `x-kubernetes-list-map-keys`.
fn list_and_map_types(s: &Value, path: &Path, options: &ValidationOptions, errs: &mut ErrorList) {
    if s.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        errs.push(field::invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            false,
            "must be true or undefined",
        ));
    }
    let kind = text(s, "type");
    let type_must_be = |errs: &mut ErrorList, wanted: &str, because: &str| {
        let detail = format!("must be {wanted} if {because} is specified");
        if kind.is_empty() {
            errs.push(field::required(&path.child("type"), &detail));
        } else {
            errs.push(field::invalid(&path.child("type"), kind, &detail));
        }
    };
    let map_type = s.get("x-kubernetes-map-type").and_then(Value::as_str);
    if let Some(map_type) = map_type {
        if kind != "object" {
            type_must_be(errs, "object", "x-kubernetes-map-type");
        }
        if map_type != "atomic" && map_type != "granular" {
            errs.push(field::not_supported(
                &path.child("x-kubernetes-map-type"),
                map_type,
                &["atomic", "granular"],
            ));
        }
    }
    let list_type = s.get("x-kubernetes-list-type").and_then(Value::as_str);
    let items = s.get("items").filter(|i| i.is_object());
    if let Some(list_type) = list_type {
        if kind != "array" {
            type_must_be(errs, "array", "x-kubernetes-list-type");
        } else if options.require_atomic_set_type
            && list_type == "set"
            && let Some(items) = items
        {
            let items_path = path.child("items");
            let item_list_type = items.get("x-kubernetes-list-type").and_then(Value::as_str);
            match text(items, "type") {
                "array" if item_list_type.is_some_and(|t| t != "atomic") => {
                    errs.push(field::invalid(
                        &items_path.child("x-kubernetes-list-type"),
                        BadValue::Json(Value::from(item_list_type.unwrap_or(""))),
                        "must be atomic as item of a list with x-kubernetes-list-type=set",
                    ));
                }
                "object"
                    if items.get("x-kubernetes-map-type").and_then(Value::as_str)
                        != Some("atomic") =>
                {
                    // The server prints the items' list type here, not their map type.
                    errs.push(field::invalid(
                        &items_path.child("x-kubernetes-map-type"),
                        BadValue::Json(item_list_type.map_or(Value::Null, Value::from)),
                        "must be atomic as item of a list with x-kubernetes-list-type=set",
                    ));
                }
                _ => {}
            }
        }
        if !matches!(list_type, "atomic" | "set" | "map") {
            errs.push(field::not_supported(
                &path.child("x-kubernetes-list-type"),
                list_type,
                &["atomic", "set", "map"],
            ));
        }
    }
    let keys: Vec<&str> = s
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|k| k.iter().map(|v| v.as_str().unwrap_or("")).collect())
        .unwrap_or_default();
    if !keys.is_empty() {
        match list_type {
            None => errs.push(field::required(
                &path.child("x-kubernetes-list-type"),
                "must be map if x-kubernetes-list-map-keys is non-empty",
            )),
            Some("map") => {}
            Some(other) => errs.push(field::invalid(
                &path.child("x-kubernetes-list-type"),
                other,
                "must be map if x-kubernetes-list-map-keys is non-empty",
            )),
        }
    }
    if list_type == Some("map") {
        if keys.is_empty() {
            errs.push(field::required(
                &path.child("x-kubernetes-list-map-keys"),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        let items_path = path.child("items");
        match s.get("items").filter(|i| !i.is_null()) {
            None => errs.push(field::required(
                &items_path,
                "must have a schema if x-kubernetes-list-type is map",
            )),
            Some(list) if !list.is_object() => {
                let mut printed = String::new();
                internal::items(list, &mut printed);
                errs.push(field::invalid(
                    &items_path,
                    BadValue::Printed(printed),
                    "must only have a single schema if x-kubernetes-list-type is map",
                ));
            }
            Some(item) if text(item, "type") != "object" => errs.push(field::invalid(
                &items_path.child("type"),
                text(item, "type"),
                "must be object if parent array's x-kubernetes-list-type is map",
            )),
            Some(item) => {
                let keys_value = || BadValue::Json(Value::from(keys.clone()));
                let item_properties = item.get("properties").and_then(Value::as_object);
                let mut seen = std::collections::HashSet::new();
                let properties_path = items_path.child("properties");
                for key in &keys {
                    match item_properties.and_then(|p| p.get(*key)) {
                        Some(p) if matches!(text(p, "type"), "array" | "object") => {
                            let at = properties_path.key(key);
                            errs.push(field::invalid(
                                &at.child("type"),
                                "object",
                                "must be a scalar type if parent array's x-kubernetes-list-type is map",
                            ));
                        }
                        Some(_) => {}
                        None => errs.push(field::invalid(
                            &path.child("x-kubernetes-list-map-keys"),
                            keys_value(),
                            "entries must all be names of item properties",
                        )),
                    }
                    if !seen.insert(*key) {
                        errs.push(field::invalid(
                            &path.child("x-kubernetes-list-map-keys"),
                            keys_value(),
                            "must not contain duplicate entries",
                        ));
                    }
                }
            }
        }
    }
    if options.require_map_list_keys_map_set {
        map_list_keys_map_set(s, list_type, &keys, path, errs);
    }
}

/// Whether a `set` list's items are not atomic (`hasNonAtomicSetType`).
pub(crate) fn has_non_atomic_set_items(s: &Value) -> bool {
    let Some(items) = s.get("items").filter(|i| i.is_object()) else {
        return false;
    };
    if s.get("x-kubernetes-list-type").and_then(Value::as_str) != Some("set") {
        return false;
    }
    match text(items, "type") {
        "array" => items
            .get("x-kubernetes-list-type")
            .and_then(Value::as_str)
            .is_some_and(|t| t != "atomic"),
        "object" => items.get("x-kubernetes-map-type").and_then(Value::as_str) != Some("atomic"),
        _ => false,
    }
}

/// Whether a node breaks `validateMapListKeysMapSet`.
pub(crate) fn has_invalid_map_list_keys_map_set(s: &Value) -> bool {
    let mut errs = ErrorList::new();
    let list_type = s.get("x-kubernetes-list-type").and_then(Value::as_str);
    let keys: Vec<&str> = s
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|k| k.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    map_list_keys_map_set(s, list_type, &keys, &Path::new(""), &mut errs);
    !errs.is_empty()
}

/// `validateMapListKeysMapSet`.
fn map_list_keys_map_set(
    s: &Value,
    list_type: Option<&str>,
    keys: &[&str],
    path: &Path,
    errs: &mut ErrorList,
) {
    let (Some(items), Some(list_type)) = (s.get("items").filter(|i| i.is_object()), list_type)
    else {
        return;
    };
    if list_type != "set" && list_type != "map" {
        return;
    }
    let items_path = path.child("items");
    if items.get("nullable") == Some(&Value::Bool(true)) {
        errs.push(field::forbidden(
            &items_path.child("nullable"),
            &format!("cannot be nullable when x-kubernetes-list-type is {list_type}"),
        ));
    }
    if list_type != "map" {
        return;
    }
    let required: Vec<&str> = items
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties_path = items_path.child("properties");
    for key in keys {
        let Some(p) = items.get("properties").and_then(|p| p.get(*key)) else {
            continue;
        };
        let at = properties_path.key(key);
        if !required.contains(key) && !has(p, "default") {
            errs.push(field::required(
                &at.child("default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if p.get("nullable") == Some(&Value::Bool(true)) {
            errs.push(field::forbidden(
                &at.child("nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// The rules' own members: a rule, a message without line breaks, a known reason, a
/// `fieldPath` that names a field of this node.
fn rule_texts(rules: &[Value], st: Option<&Structural>, path: &Path, errs: &mut ErrorList) {
    let at = path.child("x-kubernetes-validations");
    for (i, rule) in rules.iter().enumerate() {
        let here = at.index(i);
        let raw_rule = text(rule, "rule");
        let message = text(rule, "message");
        let trimmed_message = message.trim();
        if raw_rule.trim().is_empty() {
            errs.push(field::required(
                &here.child("rule"),
                "rule is not specified",
            ));
        } else if !message.is_empty() && trimmed_message.is_empty() {
            errs.push(field::invalid(
                &here.child("message"),
                message,
                "must be non-empty if specified",
            ));
        } else if has_newlines(trimmed_message) {
            errs.push(field::invalid(
                &here.child("message"),
                message,
                "must not contain line breaks",
            ));
        } else if has_newlines(raw_rule.trim()) && trimmed_message.is_empty() {
            errs.push(field::required(
                &here.child("message"),
                "message must be specified if rule contains line breaks",
            ));
        }
        let message_expression = text(rule, "messageExpression");
        if !message_expression.is_empty() && message_expression.trim().is_empty() {
            errs.push(field::required(
                &here.child("messageExpression"),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = rule.get("reason").and_then(Value::as_str) {
            const REASONS: [&str; 4] = [
                "FieldValueDuplicate",
                "FieldValueForbidden",
                "FieldValueInvalid",
                "FieldValueRequired",
            ];
            if !REASONS.contains(&reason) {
                errs.push(field::not_supported(
                    &here.child("reason"),
                    reason,
                    &REASONS,
                ));
            }
        }
        let field_path = text(rule, "fieldPath");
        if !field_path.is_empty() && field_path.trim().is_empty() {
            errs.push(field::invalid(
                &here.child("fieldPath"),
                field_path,
                "must be non-empty if specified",
            ));
        }
        if has_newlines(field_path) {
            errs.push(field::invalid(
                &here.child("fieldPath"),
                field_path,
                "must not contain line breaks",
            ));
        }
        if !field_path.is_empty() {
            // A node the server cannot read as structural takes any path.
            let valid = st.is_none_or(|st| fieldpath::resolve(field_path, st, true).is_ok());
            if !valid {
                errs.push(field::invalid(
                    &here.child("fieldPath"),
                    field_path,
                    "must be a valid path",
                ));
            }
        }
    }
}

/// The rules compiled: a rule or message expression that does not compile, `oldSelf` below a
/// node whose old value cannot be found, `optionalOldSelf` on a rule without `oldSelf`.
fn compile_rules(rules: &[Value], path: &Path, ssv: &Ssv, errs: &mut ErrorList) {
    let at = path.child("x-kubernetes-validations");
    for (i, value) in rules.iter().enumerate() {
        let here = at.index(i);
        let Some(rule) = Rule::from_value(value) else {
            continue;
        };
        let printed = || BadValue::Printed(internal::rule(value));
        if let Err(e) = &rule.program {
            errs.push(field::invalid(
                &here.child("rule"),
                printed(),
                &format!("compilation failed: {e}"),
            ));
        }
        if let Some(Err(e)) = &rule.message_program {
            errs.push(field::invalid(
                &here.child("messageExpression"),
                printed(),
                &format!("messageExpression compilation failed: {e}"),
            ));
        } else if rule.message_is_not_a_string() {
            errs.push(field::invalid(
                &here.child("messageExpression"),
                printed(),
                "messageExpression must evaluate to a string",
            ));
        }
        if rule.uses_old_self {
            if let Some(uncorrelatable) = &ssv.uncorrelatable {
                errs.push(field::invalid(
                    &here.child("rule"),
                    rule.rule.as_str(),
                    &format!(
                        "oldSelf cannot be used on the uncorrelatable portion of the schema within {uncorrelatable}"
                    ),
                ));
            }
        } else if let Some(optional) = value.get("optionalOldSelf").and_then(Value::as_bool) {
            errs.push(field::invalid(
                &here.child("optionalOldSelf"),
                optional,
                "may not be set if oldSelf is not used in rule",
            ));
        }
    }
}

/// `ValidateCustomResourceSelectableFields` of a version's (or the spec's) `selectableFields`,
/// `parent` being where they sit.
pub fn selectable_fields(fields: &[Value], schema: &Value, parent: &Path, errs: &mut ErrorList) {
    let path = parent.child("selectableFields");
    let Ok(structural) = Structural::from_schema(schema) else {
        if let Some(e) = structural::new_structural_error(schema) {
            errs.push(field::invalid(
                &parent.child("schema.openAPIV3Schema"),
                "",
                &e,
            ));
        }
        return;
    };
    let mut unique = std::collections::HashSet::new();
    for (i, selectable) in fields.iter().enumerate() {
        let at = path.index(i);
        let json_path = text(selectable, "jsonPath");
        let json_path_at = at.child("jsonPath");
        if json_path.is_empty() {
            errs.push(field::required(&json_path_at, ""));
            continue;
        }
        let (rendered, found) = match fieldpath::resolve(json_path, &structural, false) {
            Ok(found) => found,
            Err(e) => {
                errs.push(field::invalid(
                    &json_path_at,
                    json_path,
                    &format!("is an invalid path: {e}"),
                ));
                continue;
            }
        };
        let root = rendered.split(['.', '[']).next().unwrap_or("");
        if root == "metadata" {
            errs.push(field::invalid(
                &json_path_at,
                json_path,
                "must not point to fields in metadata",
            ));
        }
        if !matches!(found.type_.as_str(), "string" | "boolean" | "integer") {
            errs.push(field::invalid(
                &json_path_at,
                json_path,
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        if !unique.insert(rendered) {
            errs.push(field::duplicate(&json_path_at, json_path));
        }
    }
    if unique.len() > 8 {
        errs.push(field::too_many(&path, unique.len() as i64, 8));
    }
}
