//! Field errors as apimachinery's `field.Error` reports them: a type, the path of the field,
//! the value found and a detail. Their text is what a 422's `causes[].message` and the
//! aggregated message show, so [`FieldError::body`] prints the value exactly as Go's
//! `ErrorBody` does (`%q` for strings, `%v` for numbers and booleans, JSON for anything else).

use std::fmt;

use serde_json::Value;

/// The kind of a field error; its [`reason`](ErrorType::reason) is the `CauseType` of the
/// 422's causes and its [`text`](ErrorType::text) opens the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// `FieldValueNotFound`: a value that must name something that exists does not.
    NotFound,
    /// `FieldValueRequired`: a required value is empty.
    Required,
    /// `FieldValueDuplicate`: a value that must be unique is not.
    Duplicate,
    /// `FieldValueInvalid`: a malformed value.
    Invalid,
    /// `FieldValueNotSupported`: a value outside an enumeration.
    NotSupported,
    /// `FieldValueForbidden`: a well-formed value not allowed here.
    Forbidden,
    /// `FieldValueTooLong`: a value longer than its limit.
    TooLong,
    /// `FieldValueTooMany`: a list with more items than its limit.
    TooMany,
    /// `InternalError`: the check itself failed.
    Internal,
    /// `FieldValueTypeInvalid`: a value of the wrong type.
    TypeInvalid,
}

impl ErrorType {
    /// The cause type the 422 `Status` carries (`FieldValueRequired`...).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// The type read back from its cause type.
    pub fn from_reason(reason: &str) -> Option<ErrorType> {
        Some(match reason {
            "FieldValueNotFound" => ErrorType::NotFound,
            "FieldValueRequired" => ErrorType::Required,
            "FieldValueDuplicate" => ErrorType::Duplicate,
            "FieldValueInvalid" => ErrorType::Invalid,
            "FieldValueNotSupported" => ErrorType::NotSupported,
            "FieldValueForbidden" => ErrorType::Forbidden,
            "FieldValueTooLong" => ErrorType::TooLong,
            "FieldValueTooMany" => ErrorType::TooMany,
            "InternalError" => ErrorType::Internal,
            "FieldValueTypeInvalid" => ErrorType::TypeInvalid,
            _ => return None,
        })
    }

    /// The words the message opens with (`Required value`, `Invalid value`...).
    pub fn text(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::Internal => "Internal error",
        }
    }
}

/// The value a field error reports, kept in the Go type that decides how it prints.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// No value is printed (`Required`, `Forbidden`, `TooLong`, or a value left out on purpose).
    Omit,
    /// A string, printed quoted as Go's `%q` does.
    Str(String),
    /// An integer, printed as it is.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A float, printed as Go's `%v`.
    Float(f64),
    /// Anything else (lists, maps, structs, `nil`), printed as its JSON.
    Json(Value),
    /// A value printed ahead of time, written as it is: Go's JSON of a struct whose members
    /// print in declaration order under their Go names (`{"Rule":"self.a","Message":""}`),
    /// which a sorted JSON map cannot spell.
    Printed(String),
}

impl From<&str> for BadValue {
    fn from(s: &str) -> Self {
        BadValue::Str(s.to_owned())
    }
}
impl From<String> for BadValue {
    fn from(s: String) -> Self {
        BadValue::Str(s)
    }
}
impl From<i64> for BadValue {
    fn from(n: i64) -> Self {
        BadValue::Int(n)
    }
}
impl From<i32> for BadValue {
    fn from(n: i32) -> Self {
        BadValue::Int(n.into())
    }
}
impl From<bool> for BadValue {
    fn from(b: bool) -> Self {
        BadValue::Bool(b)
    }
}
impl From<&Value> for BadValue {
    /// A JSON value as the Go field it decodes into would print: strings quoted, integers and
    /// booleans bare, the rest as JSON.
    fn from(v: &Value) -> Self {
        match v {
            Value::String(s) => BadValue::Str(s.clone()),
            Value::Bool(b) => BadValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => BadValue::Int(i),
                None => BadValue::Float(n.as_f64().unwrap_or(0.0)),
            },
            other => BadValue::Json(other.clone()),
        }
    }
}

/// One field error: what `field.Error` holds.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// What is wrong.
    pub kind: ErrorType,
    /// The field's path as Go prints it (`spec.template.spec.containers[0].image`).
    pub field: String,
    /// The value found.
    pub value: BadValue,
    /// Why it is wrong; may be empty.
    pub detail: String,
}

/// A list of field errors in the order the checks found them.
pub type ErrorList = Vec<FieldError>;

impl FieldError {
    /// The message without the field: `Invalid value: "Bad_Name": a lowercase RFC 1123 ...`.
    pub fn body(&self) -> String {
        let mut s = String::from(self.kind.text());
        let prints_value = !matches!(
            self.kind,
            ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::Internal
        );
        if prints_value {
            match &self.value {
                BadValue::Omit => {}
                BadValue::Str(v) => {
                    s.push_str(": ");
                    go_quote(v, &mut s);
                }
                BadValue::Int(n) => s.push_str(&format!(": {n}")),
                BadValue::Bool(b) => s.push_str(&format!(": {b}")),
                BadValue::Float(f) => s.push_str(&format!(": {}", go_float(*f))),
                BadValue::Json(v) => {
                    s.push_str(": ");
                    go_json(v, &mut s);
                }
                BadValue::Printed(text) => {
                    s.push_str(": ");
                    s.push_str(text);
                }
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl std::error::Error for FieldError {}

/// A field path built without allocating: each step borrows its parent, and the text is only
/// made when an error needs it. `Path::new("spec").child("containers").index(0)` prints
/// `spec.containers[0]`; `.key("app")` prints `[app]`.
#[derive(Debug, Clone, Copy)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
}

#[derive(Debug, Clone, Copy)]
enum Step<'a> {
    Name(&'a str),
    Names(&'a [&'a str]),
    Index(usize),
    Key(&'a str),
}

impl<'a> Path<'a> {
    /// A path that starts at `name`. An empty name prints as `[]`, as Go's `NewPath("")` does.
    pub const fn new(name: &'a str) -> Path<'a> {
        Path {
            parent: None,
            step: Step::Name(name),
        }
    }

    /// A path of several members at once: `Path::names(&["spec", "template"])` is
    /// `spec.template` (handy where a chain of `child` calls would borrow temporaries).
    pub const fn names(names: &'a [&'a str]) -> Path<'a> {
        Path {
            parent: None,
            step: Step::Names(names),
        }
    }

    /// The member `name` of this path.
    pub fn child<'b>(&'b self, name: &'b str) -> Path<'b> {
        Path {
            parent: Some(self),
            step: Step::Name(name),
        }
    }

    /// The item `index` of this list.
    pub fn index(&self, index: usize) -> Path<'_> {
        Path {
            parent: Some(self),
            step: Step::Index(index),
        }
    }

    /// The entry `key` of this map.
    pub fn key<'b>(&'b self, key: &'b str) -> Path<'b> {
        Path {
            parent: Some(self),
            step: Step::Key(key),
        }
    }

    /// The path as Go's `field.Path.String` prints it.
    pub fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            steps.push(p);
            at = p.parent;
        }
        let mut out = String::new();
        for p in steps.iter().rev() {
            match p.step {
                Step::Name(name) if !name.is_empty() => {
                    if p.parent.is_some() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                Step::Name(_) => out.push_str("[]"),
                Step::Names(names) => {
                    for (i, name) in names.iter().enumerate() {
                        if i > 0 || p.parent.is_some() {
                            out.push('.');
                        }
                        out.push_str(name);
                    }
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
                Step::Key(k) => {
                    out.push('[');
                    out.push_str(k);
                    out.push(']');
                }
            }
        }
        out
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// `field.Required`.
pub fn required(path: &Path, detail: &str) -> FieldError {
    error(
        ErrorType::Required,
        path,
        BadValue::Str(String::new()),
        detail,
    )
}

/// `field.Invalid`.
pub fn invalid(path: &Path, value: impl Into<BadValue>, detail: &str) -> FieldError {
    error(ErrorType::Invalid, path, value.into(), detail)
}

/// `field.Forbidden`.
pub fn forbidden(path: &Path, detail: &str) -> FieldError {
    error(
        ErrorType::Forbidden,
        path,
        BadValue::Str(String::new()),
        detail,
    )
}

/// `field.Duplicate`.
pub fn duplicate(path: &Path, value: impl Into<BadValue>) -> FieldError {
    error(ErrorType::Duplicate, path, value.into(), "")
}

/// `field.NotFound`.
pub fn not_found(path: &Path, value: impl Into<BadValue>) -> FieldError {
    error(ErrorType::NotFound, path, value.into(), "")
}

/// `field.NotSupported`: the detail lists the supported values, each quoted.
pub fn not_supported(path: &Path, value: impl Into<BadValue>, supported: &[&str]) -> FieldError {
    let mut detail = String::new();
    if !supported.is_empty() {
        detail.push_str("supported values: ");
        for (i, v) in supported.iter().enumerate() {
            if i > 0 {
                detail.push_str(", ");
            }
            go_quote(v, &mut detail);
        }
    }
    error(ErrorType::NotSupported, path, value.into(), &detail)
}

/// `field.TooLong`: the value is never printed.
pub fn too_long(path: &Path, max_length: i64) -> FieldError {
    let detail = if max_length >= 0 {
        let unit = if max_length == 1 { "byte" } else { "bytes" };
        format!("may not be more than {max_length} {unit}")
    } else {
        "value is too long".to_owned()
    };
    error(
        ErrorType::TooLong,
        path,
        BadValue::Str("<value omitted>".to_owned()),
        &detail,
    )
}

/// `field.TooMany`.
pub fn too_many(path: &Path, actual: i64, max: i64) -> FieldError {
    let detail = if max >= 0 {
        let unit = if max == 1 { "item" } else { "items" };
        format!("must have at most {max} {unit}")
    } else {
        "has too many items".to_owned()
    };
    let value = if actual >= 0 {
        BadValue::Int(actual)
    } else {
        BadValue::Omit
    };
    error(ErrorType::TooMany, path, value, &detail)
}

/// `field.InternalError`.
pub fn internal(path: &Path, detail: &str) -> FieldError {
    error(
        ErrorType::Internal,
        path,
        BadValue::Json(Value::Null),
        detail,
    )
}

fn error(kind: ErrorType, path: &Path, value: BadValue, detail: &str) -> FieldError {
    FieldError {
        kind,
        field: path.render(),
        value,
        detail: detail.to_owned(),
    }
}

/// Go's `%q` of a string: printable characters kept, the rest escaped.
pub(crate) fn go_quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => {
                let n = c as u32;
                if n < 0x10000 {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's `%v` of a float64: the shortest digits, with an exponent below 1e-4 and from 1e21.
pub(crate) fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e21).contains(&abs) {
        let sci = format!("{f:e}");
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    format!("{f}")
}

/// JSON as Go's `encoding/json` writes it: compact, with `<`, `>` and `&` escaped.
pub(crate) fn go_json(v: &Value, out: &mut String) {
    let text = serde_json::to_string(v).unwrap_or_default();
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_print_as_go_prints_them() {
        let spec = Path::new("spec");
        let containers = spec.child("containers");
        let first = containers.index(0);
        assert_eq!(first.child("name").render(), "spec.containers[0].name");
        let labels = Path::names(&["metadata", "labels"]);
        assert_eq!(labels.key("a/b").render(), "metadata.labels[a/b]");
        assert_eq!(Path::new("").render(), "[]");
    }

    #[test]
    fn bodies_print_values_by_their_go_type() {
        let p = Path::names(&["metadata", "name"]);
        let e = invalid(&p, "Bad_Name", "oops");
        assert_eq!(
            e.to_string(),
            "metadata.name: Invalid value: \"Bad_Name\": oops"
        );
        assert_eq!(
            required(&Path::new("spec").child("selector"), "").to_string(),
            "spec.selector: Required value"
        );
        assert_eq!(
            invalid(&p, -1i64, "must be greater than or equal to 0").body(),
            "Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(
            invalid(&p, &json!({"a": "<b>"}), "x").body(),
            "Invalid value: {\"a\":\"\\u003cb\\u003e\"}: x"
        );
        assert_eq!(
            not_supported(&p, "Sometimes", &["Always", "Never"]).body(),
            "Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\""
        );
        assert_eq!(
            too_long(&p, 262144).body(),
            "Too long: may not be more than 262144 bytes"
        );
        assert_eq!(
            too_many(&p, 3, 1).body(),
            "Too many: 3: must have at most 1 item"
        );
        assert_eq!(
            invalid(&p, BadValue::Json(Value::Null), "x").body(),
            "Invalid value: null: x"
        );
    }

    #[test]
    fn go_quote_escapes_what_strconv_quote_escapes() {
        let mut s = String::new();
        go_quote("a\"b\\c\nd\u{1}é", &mut s);
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\x01é\"");
    }

    #[test]
    fn floats_print_as_go_v() {
        assert_eq!(go_float(0.5), "0.5");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(0.00001), "1e-05");
        assert_eq!(go_float(3.0), "3");
    }
}
