//! A custom resource checked against its structural schema's value constraints, as
//! kube-apiserver v1.34 checks it (kube-openapi `pkg/validation/validate`, its results turned
//! into field errors by apiextensions-apiserver `pkg/apiserver/validation/validation.go`), with
//! ratcheting on update (`ratcheting.go`, `CRDValidationRatcheting`, on in v1.34).
//!
//! Each node runs the checks upstream runs, in its order: type, `allOf`/`anyOf`/`oneOf`/`not`
//! (each branch checked as a schema of its own; a failure adds upstream's composite message
//! on no field, with the best branch's errors), then (for a string) length,
//! pattern and format, (for a number) `multipleOf`, `minimum`, `maximum`, (for a list) its
//! items, `minItems`, `maxItems`, `uniqueItems`, then `enum`, then (for an object)
//! `minProperties`, `maxProperties`, forbidden properties, its members and the `required` ones
//! missing. A `null` is checked for its type and `enum` only.
//!
//! Where this differs from the server: upstream visits an object's properties in Go's random
//! map order, so the order of errors from several members varies from run to run there; here
//! members come in key order.

use serde_json::{Map, Value};

use super::formats;
use super::paths::child;
use super::structural::{AdditionalProperties, MAX_DEPTH, Structural};
use crate::validation::field::{BadValue, ErrorList, ErrorType, FieldError, go_float, go_quote};

/// The errors of `object` against `schema` on create.
pub fn validate(object: &Value, schema: &Structural) -> ErrorList {
    let mut errs = ErrorList::new();
    node(object, schema, "", None, true, &mut errs, 0);
    errs
}

/// The errors of any value (not a resource) against `schema`, named from the value's root.
pub fn validate_value(value: &Value, schema: &Structural) -> ErrorList {
    let mut errs = ErrorList::new();
    node(value, schema, "", None, false, &mut errs, 0);
    errs
}

/// The errors of `new` against `schema` on an update from `old`, ratcheted: errors of a part
/// that the update leaves as it was are dropped.
pub fn validate_update(new: &Value, old: &Value, schema: &Structural) -> ErrorList {
    let mut errs = ErrorList::new();
    node(new, schema, "", Some(old), true, &mut errs, 0);
    errs
}

/// The errors of a status write: `status` alone against the schema's `status` node, as the
/// status strategy validates it (its own root, so messages name members without `status.`,
/// while the fields keep it), ratcheted against the old status.
pub fn validate_status_update(new: &Value, old: &Value, schema: &Structural) -> ErrorList {
    let (Some(status), Some(status_schema)) = (new.get("status"), schema.properties.get("status"))
    else {
        return ErrorList::new();
    };
    let mut errs = ErrorList::new();
    node(
        status,
        status_schema,
        "",
        old.get("status"),
        false,
        &mut errs,
        0,
    );
    for e in &mut errs {
        e.field = if e.field == "<nil>" {
            "status".to_owned()
        } else {
            format!("status.{}", e.field)
        };
    }
    errs
}

/// The field of a kube-openapi name: the name itself, `<nil>` at the root.
fn field(name: &str) -> String {
    let name = name.strip_prefix('.').unwrap_or(name);
    if name.is_empty() {
        "<nil>".to_owned()
    } else {
        name.to_owned()
    }
}

fn error(kind: ErrorType, name: &str, value: BadValue, detail: String) -> FieldError {
    FieldError {
        kind,
        field: field(name),
        value,
        detail,
    }
}

/// How a JSON value prints as the Go value it decodes into (`int64`, `float64`, `string`...).
fn bad_value(v: &Value) -> BadValue {
    BadValue::from(v)
}

/// A JSON number as Go decodes it into an unstructured object: `int64` when it is integral
/// and fits, `float64` otherwise.
#[derive(Clone, Copy)]
enum Number {
    Int(i64),
    Float(f64),
}

fn number(n: &serde_json::Number) -> Number {
    match n.as_i64() {
        Some(i) => Number::Int(i),
        None => Number::Float(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// The JSON type kube-openapi names a value by.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::String(_) => "string",
        Value::Number(n) => match number(n) {
            Number::Int(_) => "integer",
            Number::Float(_) => "number",
        },
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether `v` is of the schema's type (an integral float is an integer; an integer is a
/// number); `None` when the schema names none.
fn type_matches(v: &Value, s: &Structural) -> Option<bool> {
    let actual = type_name(v);
    let accepts = |expected: &str| match (expected, v) {
        (_, _) if expected == actual => true,
        ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    };
    if s.int_or_string {
        return Some(accepts("integer") || accepts("string"));
    }
    if s.type_.is_empty() {
        return None;
    }
    Some(accepts(&s.type_))
}

fn expected_type(s: &Structural) -> &str {
    if s.int_or_string {
        "integer,string"
    } else {
        &s.type_
    }
}

/// Checks `value` against `s` at kube-openapi name `name`. `old` is the value it replaces when
/// the two correlate (ratcheting); `root` marks the resource itself.
fn node(
    value: &Value,
    s: &Structural,
    name: &str,
    old: Option<&Value>,
    root: bool,
    out: &mut ErrorList,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut errs = ErrorList::new();
    if value.is_null() {
        if !s.nullable && type_matches(value, s) == Some(false) {
            errs.push(type_error(name, "null", expected_type(s)));
        }
        enumeration(value, s, name, &mut errs);
    } else {
        if type_matches(value, s) == Some(false) {
            let actual = type_name(value);
            errs.push(type_error(name, actual, expected_type(s)));
        }
        junctors(value, s, name, &mut errs, depth);
        match value {
            Value::String(text) => string(text, s, name, &mut errs),
            Value::Number(n) => numeric(number(n), s, name, &mut errs),
            Value::Array(items) => array(items, s, name, old, &mut errs, depth),
            _ => {}
        }
        enumeration(value, s, name, &mut errs);
        if let Value::Object(members) = value {
            object(members, s, name, old, root, &mut errs, depth);
        }
    }
    if !errs.is_empty()
        && let Some(old) = old
        && unchanged(value, old, s, root, depth)
    {
        // Ratcheting: an update that leaves this part as it was is not refused for it.
        return;
    }
    out.append(&mut errs);
}

/// The errors of `value` against one branch of a junctor (no ratcheting inside).
fn branch(value: &Value, s: &Structural, name: &str, depth: usize) -> ErrorList {
    let mut errs = ErrorList::new();
    node(value, s, name, None, false, &mut errs, depth + 1);
    errs
}

/// What the junctors' failures say, on no field: `Invalid value: "": <message>`.
fn composite(message: String) -> FieldError {
    FieldError {
        kind: ErrorType::Invalid,
        field: "<nil>".to_owned(),
        value: BadValue::Str(String::new()),
        detail: message,
    }
}

/// The errors of the branch with fewest errors (the first of them), which kube-openapi adds
/// to a failed `anyOf` or `oneOf`.
fn best(results: Vec<ErrorList>) -> ErrorList {
    results
        .into_iter()
        .reduce(|a, b| if b.len() < a.len() { b } else { a })
        .unwrap_or_default()
}

/// `allOf`, `anyOf`, `oneOf` and `not` (kube-openapi's `schemaPropsValidator`).
fn junctors(value: &Value, s: &Structural, name: &str, errs: &mut ErrorList, depth: usize) {
    let v = &s.validation;
    if v.any_of.is_empty() && v.one_of.is_empty() && v.all_of.is_empty() && v.not.is_none() {
        return;
    }
    let quoted_name = format!("\"{name}\"");
    if !v.any_of.is_empty() {
        let results: Vec<ErrorList> = v
            .any_of
            .iter()
            .map(|b| branch(value, b, name, depth))
            .collect();
        if !results.iter().any(Vec::is_empty) {
            errs.push(composite(format!(
                "{quoted_name} must validate at least one schema (anyOf)"
            )));
            errs.extend(best(results));
        }
    }
    if !v.one_of.is_empty() {
        let results: Vec<ErrorList> = v
            .one_of
            .iter()
            .map(|b| branch(value, b, name, depth))
            .collect();
        let valid = results.iter().filter(|r| r.is_empty()).count();
        if valid == 0 {
            errs.push(composite(format!(
                "{quoted_name} must validate one and only one schema (oneOf). Found none valid"
            )));
            errs.extend(best(results));
        } else if valid > 1 {
            errs.push(composite(format!(
                "{quoted_name} must validate one and only one schema (oneOf). Found {valid} valid alternatives"
            )));
        }
    }
    if !v.all_of.is_empty() {
        let results: Vec<ErrorList> = v
            .all_of
            .iter()
            .map(|b| branch(value, b, name, depth))
            .collect();
        let valid = results.iter().filter(|r| r.is_empty()).count();
        if valid < results.len() {
            let none = if valid == 0 { ". None validated" } else { "" };
            errs.push(composite(format!(
                "{quoted_name} must validate all the schemas (allOf){none}"
            )));
            errs.extend(results.into_iter().flatten());
        }
    }
    if let Some(not) = &v.not
        && branch(value, not, name, depth).is_empty()
    {
        errs.push(composite(format!(
            "{quoted_name} must not validate the schema (not)"
        )));
    }
}

fn type_error(name: &str, actual: &str, expected: &str) -> FieldError {
    error(
        ErrorType::TypeInvalid,
        name,
        BadValue::Str(actual.to_owned()),
        format!(
            "{name} in body must be of type {expected}: {}",
            quoted(actual)
        ),
    )
}

/// The name as kube-openapi's messages print it.
fn shown(name: &str) -> &str {
    name
}

/// Go's `%q` of `text`.
fn quoted(text: &str) -> String {
    let mut out = String::new();
    go_quote(text, &mut out);
    out
}

fn string(text: &str, s: &Structural, name: &str, errs: &mut ErrorList) {
    let v = &s.validation;
    let runes = || i64::try_from(text.chars().count()).unwrap_or(i64::MAX);
    if let Some(max) = v.max_length
        && runes() > max
    {
        errs.push(crate::validation::field::too_long(
            &crate::validation::field::Path::new(""),
            max,
        ));
        if let Some(last) = errs.last_mut() {
            last.field = field(name);
        }
    } else if let Some(min) = v.min_length
        && runes() < min
    {
        errs.push(error(
            ErrorType::Invalid,
            name,
            BadValue::Str(text.to_owned()),
            format!(
                "{} in body should be at least {min} chars long",
                shown(name)
            ),
        ));
    } else if let Some(pattern) = &v.pattern
        && !pattern.is_match(text)
    {
        errs.push(error(
            ErrorType::Invalid,
            name,
            BadValue::Str(text.to_owned()),
            format!(
                "{} in body should match '{}'",
                shown(name),
                pattern.as_str()
            ),
        ));
    }
    if !v.format.is_empty() && !formats::conforms(&v.format, text) {
        errs.push(error(
            ErrorType::TypeInvalid,
            name,
            BadValue::Str(text.to_owned()),
            format!(
                "{} in body must be of type {}: {}",
                shown(name),
                v.format,
                quoted(text)
            ),
        ));
    }
}

fn numeric(n: Number, s: &Structural, name: &str, errs: &mut ErrorList) {
    let v = &s.validation;
    let value = match n {
        Number::Int(i) => BadValue::Int(i),
        Number::Float(f) => BadValue::Float(f),
    };
    // For an integer the bounds are cut to integers before they are compared and printed.
    let bound = |b: f64| match n {
        Number::Int(_) => format!("{}", b as i64),
        Number::Float(_) => go_float(b),
    };
    let below = |b: f64, exclusive: bool| match n {
        Number::Int(i) => {
            let b = b as i64;
            if exclusive { i <= b } else { i < b }
        }
        Number::Float(f) => {
            if exclusive {
                f <= b
            } else {
                f < b
            }
        }
    };
    let above = |b: f64, exclusive: bool| match n {
        Number::Int(i) => {
            let b = b as i64;
            if exclusive { i >= b } else { i > b }
        }
        Number::Float(f) => {
            if exclusive {
                f >= b
            } else {
                f > b
            }
        }
    };
    if let Some(factor) = v.multiple_of {
        let positive = match n {
            Number::Int(_) => (factor as i64) > 0,
            Number::Float(_) => factor > 0.0,
        };
        if !positive {
            errs.push(error(
                ErrorType::Invalid,
                name,
                BadValue::Float(factor),
                format!(
                    "factor MultipleOf declared for {} must be positive: {}",
                    shown(name),
                    go_float(factor)
                ),
            ));
        } else {
            let multiple = match n {
                Number::Int(i) => i % (factor as i64) == 0,
                Number::Float(f) => is_json_integer(f / factor),
            };
            if !multiple {
                errs.push(error(
                    ErrorType::Invalid,
                    name,
                    value.clone(),
                    format!(
                        "{} in body should be a multiple of {}",
                        shown(name),
                        bound(factor)
                    ),
                ));
            }
        }
    }
    if let Some(min) = v.minimum
        && below(min, v.exclusive_minimum)
    {
        let relation = if v.exclusive_minimum {
            "greater than"
        } else {
            "greater than or equal to"
        };
        errs.push(error(
            ErrorType::Invalid,
            name,
            value.clone(),
            format!(
                "{} in body should be {relation} {}",
                shown(name),
                bound(min)
            ),
        ));
    }
    if let Some(max) = v.maximum
        && above(max, v.exclusive_maximum)
    {
        let relation = if v.exclusive_maximum {
            "less than"
        } else {
            "less than or equal to"
        };
        errs.push(error(
            ErrorType::Invalid,
            name,
            value,
            format!(
                "{} in body should be {relation} {}",
                shown(name),
                bound(max)
            ),
        ));
    }
}

/// Whether a float quotient is a whole number, within the relative error go-openapi allows
/// (`swag.IsFloat64AJSONInteger`).
fn is_json_integer(f: f64) -> bool {
    if !f.is_finite() {
        return false;
    }
    let g = f.trunc();
    if f == g {
        return true;
    }
    let diff = (f - g).abs();
    diff / (f.abs() + g.abs()) < 1e-9
}

fn array(
    items: &[Value],
    s: &Structural,
    name: &str,
    old: Option<&Value>,
    errs: &mut ErrorList,
    depth: usize,
) {
    if let Some(item_schema) = s.items.as_deref() {
        let old_items = old
            .and_then(Value::as_array)
            .and_then(|o| MapListIndex::of(o, s));
        for (i, item) in items.iter().enumerate() {
            let correlated = old_items.as_ref().and_then(|o| o.get(item));
            let at = format!("{name}[{i}]");
            node(item, item_schema, &at, correlated, false, errs, depth + 1);
        }
    }
    let v = &s.validation;
    let len = i64::try_from(items.len()).unwrap_or(i64::MAX);
    if let Some(min) = v.min_items
        && len < min
    {
        errs.push(error(
            ErrorType::Invalid,
            name,
            BadValue::Int(len),
            format!("{} in body should have at least {min} items", shown(name)),
        ));
    }
    if let Some(max) = v.max_items
        && len > max
    {
        errs.push(too_many(name, len, max));
    }
    if v.unique_items && has_duplicates(items) {
        errs.push(error(
            ErrorType::Invalid,
            name,
            BadValue::Str(String::new()),
            format!("{} in body shouldn't contain duplicates", shown(name)),
        ));
    }
}

fn too_many(name: &str, actual: i64, max: i64) -> FieldError {
    let mut e =
        crate::validation::field::too_many(&crate::validation::field::Path::new(""), actual, max);
    e.field = field(name);
    e
}

fn has_duplicates(items: &[Value]) -> bool {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.iter().any(|i| !seen.insert(i.to_string()))
}

fn enumeration(value: &Value, s: &Structural, name: &str, errs: &mut ErrorList) {
    let allowed = &s.validation.enum_;
    if allowed.is_empty() || allowed.iter().any(|a| same(a, value)) {
        return;
    }
    let supported: Vec<String> = allowed
        .iter()
        .map(|a| match a {
            Value::String(t) => t.clone(),
            other => other.to_string(),
        })
        .collect();
    let supported: Vec<&str> = supported.iter().map(String::as_str).collect();
    let mut e = crate::validation::field::not_supported(
        &crate::validation::field::Path::new(""),
        bad_value(value),
        &supported,
    );
    e.field = field(name);
    errs.push(e);
}

/// Equality of JSON values with numbers compared by value (an enum of `1` takes `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn object(
    members: &Map<String, Value>,
    s: &Structural,
    name: &str,
    old: Option<&Value>,
    root: bool,
    errs: &mut ErrorList,
    depth: usize,
) {
    let v = &s.validation;
    let count = i64::try_from(members.len()).unwrap_or(i64::MAX);
    if let Some(min) = v.min_properties
        && count < min
    {
        errs.push(error(
            ErrorType::Invalid,
            name,
            BadValue::Int(count),
            format!(
                "{} in body should have at least {min} properties",
                shown(name)
            ),
        ));
    }
    if let Some(max) = v.max_properties
        && count > max
    {
        errs.push(too_many(name, count, max));
    }
    if matches!(
        s.additional_properties,
        Some(AdditionalProperties::Bool(false))
    ) {
        for key in members.keys().filter(|k| !s.properties.contains_key(*k)) {
            errs.push(error(
                ErrorType::Invalid,
                name,
                BadValue::Str(key.clone()),
                format!("{} in body is a forbidden property", child(name, key)),
            ));
        }
    }
    let old_members = old.and_then(Value::as_object);
    let additional = s.additional_properties.as_ref().and_then(|a| a.schema());
    for (key, member) in members {
        let schema = match s.properties.get(key) {
            Some(p) => p,
            None => match additional {
                Some(a) => a,
                None => continue,
            },
        };
        // The resource's own kind and apiVersion never correlate with the old object's.
        let correlated = if root && (key == "kind" || key == "apiVersion") {
            None
        } else {
            old_members.and_then(|o| o.get(key))
        };
        node(
            member,
            schema,
            &child(name, key),
            correlated,
            false,
            errs,
            depth + 1,
        );
    }
    for key in &v.required {
        if !members.contains_key(key) {
            errs.push(error(
                ErrorType::Required,
                &child(name, key),
                BadValue::Str(String::new()),
                String::new(),
            ));
        }
    }
}

/// The items of an old `map` list by their keys, which the items of the new list correlate
/// with (items of other lists correlate with none). Built once per list, so matching is
/// linear.
pub(super) struct MapListIndex<'a, 's> {
    keys: &'s [String],
    by_key: std::collections::HashMap<String, &'a Value>,
}

impl<'a, 's> MapListIndex<'a, 's> {
    pub(super) fn of(old: &'a [Value], s: &'s Structural) -> Option<MapListIndex<'a, 's>> {
        if s.list_type.as_deref() != Some("map") || s.list_map_keys.is_empty() {
            return None;
        }
        let mut by_key = std::collections::HashMap::with_capacity(old.len());
        for item in old {
            if let Some(key) = map_key(item, &s.list_map_keys) {
                by_key.entry(key).or_insert(item);
            }
        }
        Some(MapListIndex {
            keys: &s.list_map_keys,
            by_key,
        })
    }

    pub(super) fn get(&self, item: &Value) -> Option<&'a Value> {
        map_key(item, self.keys).and_then(|k| self.by_key.get(&k).copied())
    }
}

/// An item's key values, as one JSON text.
fn map_key(item: &Value, keys: &[String]) -> Option<String> {
    let object = item.as_object()?;
    let values: Vec<&Value> = keys
        .iter()
        .map(|k| object.get(k).unwrap_or(&Value::Null))
        .collect();
    serde_json::to_string(&values).ok()
}

/// Whether `new` is what `old` was, as ratcheting compares them: objects member by member,
/// `map` lists item by item matched by their keys (so in any order), other lists and scalars
/// as they are.
pub(super) fn unchanged(
    new: &Value,
    old: &Value,
    s: &Structural,
    root: bool,
    depth: usize,
) -> bool {
    if depth > MAX_DEPTH {
        return new == old;
    }
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => {
            if n.len() != o.len() {
                return false;
            }
            let additional = s.additional_properties.as_ref().and_then(|a| a.schema());
            n.iter().all(|(k, v)| {
                if root && (k == "kind" || k == "apiVersion") {
                    return o.get(k) == Some(v);
                }
                let Some(w) = o.get(k) else {
                    return false;
                };
                match s.properties.get(k).or(additional) {
                    Some(schema) => unchanged(v, w, schema, false, depth + 1),
                    None => v == w,
                }
            })
        }
        (Value::Array(n), Value::Array(o)) => {
            if n.len() != o.len() {
                return false;
            }
            match (s.items.as_deref(), MapListIndex::of(o, s)) {
                (Some(item_schema), Some(index)) => n.iter().all(|item| {
                    index
                        .get(item)
                        .is_some_and(|w| unchanged(item, w, item_schema, false, depth + 1))
                }),
                _ => new == old,
            }
        }
        _ => new == old,
    }
}
