//! A CRD version's `openAPIV3Schema` read into the structural form the API server works with
//! (apiextensions-apiserver's `schema.Structural`): per node its type, nullability, default,
//! properties, items, additional properties, the `x-kubernetes-*` extensions and the value
//! constraints.
//!
//! Reading follows the schema, so it stops at [`MAX_DEPTH`] levels instead of overflowing
//! the stack on a schema nested beyond reason.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::rules::Rule;

/// The most levels of nesting a schema may have here, and the deepest an object is walked:
/// the CRDs of Gateway API, cert-manager and Argo CD nest at most 18 levels, and the limit
/// keeps the recursive walks well inside a thread's stack.
pub const MAX_DEPTH: usize = 64;

/// One node of a structural schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structural {
    /// `type`: `object`, `array`, `string`, `integer`, `number`, `boolean`, or empty (with
    /// `x-kubernetes-int-or-string` or `x-kubernetes-preserve-unknown-fields`).
    pub type_: String,
    /// `nullable`.
    pub nullable: bool,
    /// `default`, if given.
    pub default: Option<Value>,
    /// `properties`.
    pub properties: BTreeMap<String, Structural>,
    /// `items`.
    pub items: Option<Box<Structural>>,
    /// `additionalProperties`.
    pub additional_properties: Option<AdditionalProperties>,
    /// `x-kubernetes-preserve-unknown-fields: true`.
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource: true`.
    pub embedded_resource: bool,
    /// `x-kubernetes-int-or-string: true`.
    pub int_or_string: bool,
    /// `x-kubernetes-list-type`.
    pub list_type: Option<String>,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-map-type`.
    pub map_type: Option<String>,
    /// The value constraints.
    pub validation: ValueValidation,
    /// `x-kubernetes-validations`, compiled.
    pub rules: Vec<Rule>,
    /// What this node's rules read of `self` and of `oldSelf`, together (bound once for all).
    pub(crate) rule_reads: (super::rules::Reads, super::rules::Reads),
    /// Whether this node or one below it has rules (the server runs its rule validator, and
    /// reports skipping it, only for a schema with some).
    pub has_rules: bool,
}

/// `additionalProperties`: a schema for every other member, or `true`/`false`.
#[derive(Debug, Clone, PartialEq)]
pub enum AdditionalProperties {
    /// Other members follow this schema.
    Schema(Box<Structural>),
    /// `additionalProperties: true` or `false`.
    Bool(bool),
}

impl AdditionalProperties {
    /// The schema, when it is one.
    pub fn schema(&self) -> Option<&Structural> {
        match self {
            AdditionalProperties::Schema(s) => Some(s),
            AdditionalProperties::Bool(_) => None,
        }
    }
}

/// The constraints of a node on its value (`ValueValidation`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValueValidation {
    /// `format`.
    pub format: String,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `maxLength`.
    pub max_length: Option<i64>,
    /// `minLength`.
    pub min_length: Option<i64>,
    /// `pattern`, compiled.
    pub pattern: Option<Pattern>,
    /// `maxItems`.
    pub max_items: Option<i64>,
    /// `minItems`.
    pub min_items: Option<i64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `enum`.
    pub enum_: Vec<Value>,
    /// `maxProperties`.
    pub max_properties: Option<i64>,
    /// `minProperties`.
    pub min_properties: Option<i64>,
    /// `required`.
    pub required: Vec<String>,
    /// `allOf`: schemas the value must all satisfy (their `type`s included, as in the
    /// int-or-string pattern).
    pub all_of: Vec<Structural>,
    /// `oneOf`.
    pub one_of: Vec<Structural>,
    /// `anyOf`.
    pub any_of: Vec<Structural>,
    /// `not`.
    pub not: Option<Box<Structural>>,
}

/// A `pattern`, as written and compiled. Go's `regexp` (RE2) gives `\d`, `\w`, `\s` and `\b`
/// their ASCII meanings, where the `regex` crate's are Unicode; the pattern is compiled with
/// those classes spelled out in ASCII, so that `\d` does not match `٣`.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    regex: regex::Regex,
}

impl Pattern {
    /// Compiles `source`.
    pub fn new(source: &str) -> Result<Pattern, String> {
        let regex = regex::Regex::new(&ascii_perl_classes(source)).map_err(|e| e.to_string())?;
        Ok(Pattern {
            source: source.to_owned(),
            regex,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `text` has a match anywhere (patterns are not anchored).
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

/// `source` with RE2's ASCII Perl classes (`\d \D \w \W \s \S`) and word boundaries
/// (`\b \B`) written so that the `regex` crate reads them as RE2 does.
fn ascii_perl_classes(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 8);
    let mut in_class = false;
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push(c);
                    break;
                };
                let (bare, negated) = match next {
                    'd' => ("0-9", false),
                    'D' => ("0-9", true),
                    'w' => ("0-9A-Za-z_", false),
                    'W' => ("0-9A-Za-z_", true),
                    's' => ("\\t\\n\\f\\r ", false),
                    'S' => ("\\t\\n\\f\\r ", true),
                    'b' if !in_class => {
                        out.push_str("(?-u:\\b)");
                        continue;
                    }
                    'B' if !in_class => {
                        out.push_str("(?-u:\\B)");
                        continue;
                    }
                    other => {
                        out.push('\\');
                        out.push(other);
                        continue;
                    }
                };
                match (in_class, negated) {
                    (false, false) => {
                        out.push('[');
                        out.push_str(bare);
                        out.push(']');
                    }
                    (false, true) => {
                        out.push_str("[^");
                        out.push_str(bare);
                        out.push(']');
                    }
                    (true, false) => out.push_str(bare),
                    // A negated class inside a class: left to the crate's (Unicode) reading.
                    (true, true) => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` first in the class (after an optional `^`) is a literal.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Why a schema could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// A node, or a member of one, is not of the JSON type the schema language gives it.
    #[error("{path}: must be {expected}")]
    WrongType {
        /// Where, as `properties[spec].type`.
        path: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A `pattern` is not a regular expression (of the RE2 syntax Go's `regexp` reads).
    #[error("{path}: {pattern:?} is not a valid regular expression: {detail}")]
    Pattern {
        /// Where.
        path: String,
        /// The pattern.
        pattern: String,
        /// What the regular expression library said.
        detail: String,
    },
    /// The schema nests deeper than [`MAX_DEPTH`].
    #[error("{path}: the schema nests deeper than {MAX_DEPTH} levels")]
    TooDeep {
        /// Where it went past the limit.
        path: String,
    },
}

impl Structural {
    /// Reads `openAPIV3Schema` (or any node of it).
    pub fn from_schema(schema: &Value) -> Result<Structural, SchemaError> {
        read(schema, "", 0)
    }
}

fn wrong(path: &str, member: &str, expected: &'static str) -> SchemaError {
    SchemaError::WrongType {
        path: join(path, member),
        expected,
    }
}

fn join(path: &str, member: &str) -> String {
    if path.is_empty() {
        member.to_owned()
    } else {
        format!("{path}.{member}")
    }
}

fn read(schema: &Value, path: &str, depth: usize) -> Result<Structural, SchemaError> {
    if depth > MAX_DEPTH {
        return Err(SchemaError::TooDeep {
            path: path.to_owned(),
        });
    }
    let Some(node) = schema.as_object() else {
        return Err(SchemaError::WrongType {
            path: path.to_owned(),
            expected: "an object",
        });
    };
    // The node's own members are read in a function of their own, so that the frame this
    // recursion repeats holds little more than the node.
    let mut s = read_node(node, path)?;
    read_children(node, path, depth, &mut s)?;
    read_junctors(node, path, depth, &mut s)?;
    s.has_rules = !s.rules.is_empty()
        || s.properties.values().any(|p| p.has_rules)
        || s.items.as_ref().is_some_and(|i| i.has_rules)
        || s.additional_properties
            .as_ref()
            .and_then(AdditionalProperties::schema)
            .is_some_and(|a| a.has_rules);
    Ok(s)
}

#[inline(never)]
fn read_children(
    node: &Map<String, Value>,
    path: &str,
    depth: usize,
    s: &mut Structural,
) -> Result<(), SchemaError> {
    if let Some(properties) = node.get("properties").filter(|p| !p.is_null()) {
        let properties: &Map<String, Value> = properties
            .as_object()
            .ok_or_else(|| wrong(path, "properties", "an object"))?;
        for (name, property) in properties {
            let at = format!("{}[{name}]", join(path, "properties"));
            let child = read(property, &at, depth + 1)?;
            s.properties.insert(name.clone(), child);
        }
    }
    if let Some(items) = node.get("items").filter(|i| !i.is_null()) {
        s.items = Some(Box::new(read(items, &join(path, "items"), depth + 1)?));
    }
    s.additional_properties = match node.get("additionalProperties") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(AdditionalProperties::Bool(*b)),
        Some(schema) => Some(AdditionalProperties::Schema(Box::new(read(
            schema,
            &join(path, "additionalProperties"),
            depth + 1,
        )?))),
    };
    Ok(())
}

/// `allOf`, `oneOf`, `anyOf` and `not`, each branch read as a schema.
#[inline(never)]
fn read_junctors(
    node: &Map<String, Value>,
    path: &str,
    depth: usize,
    s: &mut Structural,
) -> Result<(), SchemaError> {
    for (key, into) in [
        ("allOf", &mut s.validation.all_of),
        ("oneOf", &mut s.validation.one_of),
        ("anyOf", &mut s.validation.any_of),
    ] {
        match node.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::Array(branches)) => {
                for (i, branch) in branches.iter().enumerate() {
                    into.push(read(
                        branch,
                        &format!("{}[{i}]", join(path, key)),
                        depth + 1,
                    )?);
                }
            }
            Some(_) => return Err(wrong(path, key, "a list")),
        }
    }
    if let Some(not) = node.get("not").filter(|n| !n.is_null()) {
        s.validation.not = Some(Box::new(read(not, &join(path, "not"), depth + 1)?));
    }
    Ok(())
}

#[inline(never)]
fn read_node(node: &Map<String, Value>, path: &str) -> Result<Structural, SchemaError> {
    let mut s = Structural::default();
    let text = |key: &str| -> Result<String, SchemaError> {
        match node.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(t)) => Ok(t.clone()),
            Some(_) => Err(wrong(path, key, "a string")),
        }
    };
    let flag = |key: &str| -> Result<bool, SchemaError> {
        match node.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(wrong(path, key, "a boolean")),
        }
    };
    let int = |key: &str| -> Result<Option<i64>, SchemaError> {
        match node.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| wrong(path, key, "an integer")),
        }
    };
    let number = |key: &str| -> Result<Option<f64>, SchemaError> {
        match node.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| wrong(path, key, "a number")),
        }
    };
    let list = |key: &str| -> Result<Vec<Value>, SchemaError> {
        match node.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items.clone()),
            Some(_) => Err(wrong(path, key, "a list")),
        }
    };
    let strings = |key: &str| -> Result<Vec<String>, SchemaError> {
        list(key)?
            .into_iter()
            .map(|v| match v {
                Value::String(t) => Ok(t),
                _ => Err(wrong(path, key, "a list of strings")),
            })
            .collect()
    };
    s.type_ = text("type")?;
    s.nullable = flag("nullable")?;
    s.default = node.get("default").cloned();
    s.preserve_unknown_fields = flag("x-kubernetes-preserve-unknown-fields")?;
    s.embedded_resource = flag("x-kubernetes-embedded-resource")?;
    s.int_or_string = flag("x-kubernetes-int-or-string")?;
    s.list_type = Some(text("x-kubernetes-list-type")?).filter(|t| !t.is_empty());
    s.list_map_keys = strings("x-kubernetes-list-map-keys")?;
    s.map_type = Some(text("x-kubernetes-map-type")?).filter(|t| !t.is_empty());
    s.rules = list("x-kubernetes-validations")?
        .iter()
        .filter_map(Rule::from_value)
        .collect();
    s.rule_reads = (
        super::rules::Reads::union(s.rules.iter().map(|r| &r.reads_self)),
        super::rules::Reads::union(s.rules.iter().map(|r| &r.reads_old_self)),
    );
    let v = &mut s.validation;
    v.format = text("format")?;
    v.maximum = number("maximum")?;
    v.exclusive_maximum = flag("exclusiveMaximum")?;
    v.minimum = number("minimum")?;
    v.exclusive_minimum = flag("exclusiveMinimum")?;
    v.max_length = int("maxLength")?;
    v.min_length = int("minLength")?;
    let pattern = text("pattern")?;
    if !pattern.is_empty() {
        v.pattern = Some(
            Pattern::new(&pattern).map_err(|detail| SchemaError::Pattern {
                path: join(path, "pattern"),
                pattern: pattern.clone(),
                detail,
            })?,
        );
    }
    v.max_items = int("maxItems")?;
    v.min_items = int("minItems")?;
    v.unique_items = flag("uniqueItems")?;
    v.multiple_of = number("multipleOf")?;
    v.enum_ = list("enum")?;
    v.max_properties = int("maxProperties")?;
    v.min_properties = int("minProperties")?;
    v.required = strings("required")?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_a_schema() {
        let s = Structural::from_schema(&json!({
            "type": "object",
            "properties": {
                "spec": {"type": "object", "required": ["replicas"], "properties": {
                    "replicas": {"type": "integer", "minimum": 1, "default": 1},
                    "ports": {"type": "array", "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["port"],
                        "items": {"type": "object", "properties": {"port": {"type": "integer"}}}},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}))
        .unwrap();
        let spec = &s.properties["spec"];
        assert_eq!(spec.validation.required, ["replicas"]);
        assert_eq!(spec.properties["replicas"].validation.minimum, Some(1.0));
        assert_eq!(spec.properties["replicas"].default, Some(json!(1)));
        assert_eq!(spec.properties["ports"].list_map_keys, ["port"]);
        assert_eq!(
            spec.properties["labels"]
                .additional_properties
                .as_ref()
                .and_then(AdditionalProperties::schema)
                .map(|s| s.type_.as_str()),
            Some("string")
        );
    }

    #[test]
    fn patterns_read_perl_classes_as_re2_does() {
        let p = Pattern::new(r"^\d+$").unwrap();
        assert!(p.is_match("123"));
        assert!(!p.is_match("١٢٣"), "Arabic-Indic digits are not RE2's \\d");
        let p = Pattern::new(r"^[\w.-]+\s?\b$").unwrap();
        assert!(p.is_match("a.b-c_d"));
        assert!(!p.is_match("é"));
        assert!(Pattern::new(r"^[^\d]x").unwrap().is_match("ax"));
        assert!(Pattern::new(r"[]a]").unwrap().is_match("]"));
        assert!(Pattern::new("(").is_err());
        let err = Structural::from_schema(&json!({"pattern": "("})).unwrap_err();
        assert!(matches!(err, SchemaError::Pattern { .. }));
    }

    #[test]
    fn refuses_what_is_not_a_schema() {
        let err = Structural::from_schema(&json!({"properties": {"a": {"type": 3}}})).unwrap_err();
        assert_eq!(err.to_string(), "properties[a].type: must be a string");
        let mut deep = json!({"type": "string"});
        for _ in 0..=MAX_DEPTH {
            deep = json!({"type": "array", "items": deep});
        }
        assert!(matches!(
            Structural::from_schema(&deep),
            Err(SchemaError::TooDeep { .. })
        ));
    }
}
