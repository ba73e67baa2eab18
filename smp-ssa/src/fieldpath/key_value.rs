//! The value of one field of a list-map item's key, held so that a short string (a name, which
//! nearly every key is) takes no allocation: a field set read from `FieldsV1`, and every
//! item element a walk builds, would otherwise allocate for each key.

use std::cmp::Ordering;

use compact_str::CompactString;
use serde_json::{Number, Value};

use super::value;

/// The value of a key field: a scalar, or (in hand-written documents only) a list or an object.
///
/// It orders, compares and prints as the same `serde_json::Value` does in a field path
/// ([`KeyValue::to_value`] gives that value).
#[derive(Debug, Clone)]
pub enum KeyValue {
    /// A number: an integer or a float (every number read from `FieldsV1` is a float).
    Number(Number),
    /// A string, inline up to 24 bytes.
    String(CompactString),
    /// A boolean.
    Bool(bool),
    /// `null`.
    Null,
    /// A list or an object (never a scalar: those are held as themselves).
    Json(Box<Value>),
}

impl KeyValue {
    /// The empty string.
    pub(crate) const EMPTY: KeyValue = KeyValue::String(CompactString::const_new(""));

    /// The value as JSON.
    pub fn to_value(&self) -> Value {
        match self {
            KeyValue::Number(n) => Value::Number(n.clone()),
            KeyValue::String(s) => Value::String(s.to_string()),
            KeyValue::Bool(b) => Value::Bool(*b),
            KeyValue::Null => Value::Null,
            KeyValue::Json(v) => (**v).clone(),
        }
    }

    /// The value into JSON.
    pub fn into_value(self) -> Value {
        match self {
            KeyValue::String(s) => Value::String(s.into_string()),
            KeyValue::Json(v) => *v,
            scalar => scalar.to_value(),
        }
    }

    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            KeyValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The rank of the value's kind in the order of [`value::compare`].
    fn rank(&self) -> u8 {
        match self {
            KeyValue::Number(_) => 0,
            KeyValue::String(_) => 1,
            KeyValue::Bool(_) => 2,
            KeyValue::Json(v) if v.is_object() => 4,
            KeyValue::Json(_) => 3,
            KeyValue::Null => 5,
        }
    }

    /// The order of [`value::compare`] on the same values.
    pub(crate) fn compare(&self, other: &KeyValue) -> Ordering {
        match (self, other) {
            (KeyValue::String(a), KeyValue::String(b)) => {
                value::compare_bytes(a.as_bytes(), b.as_bytes())
            }
            (KeyValue::Number(a), KeyValue::Number(b)) => value::compare_numbers(a, b),
            (KeyValue::Bool(a), KeyValue::Bool(b)) => a.cmp(b),
            (KeyValue::Null, KeyValue::Null) => Ordering::Equal,
            (KeyValue::Json(a), KeyValue::Json(b)) => value::compare(a, b),
            _ => self.rank().cmp(&other.rank()),
        }
    }

    /// Appends the value as the field manager writes it inside a `FieldsV1` key.
    pub(crate) fn write_json(&self, out: &mut String) {
        match self {
            KeyValue::String(s) => value::write_string(s, out),
            KeyValue::Json(v) => value::write_json(v, out),
            scalar => value::write_json(&scalar.to_value(), out),
        }
    }

    /// Appends the value as the server writes it in a path of a message (`"a"`, `80`).
    pub(crate) fn write_text(&self, out: &mut String) {
        match self {
            KeyValue::String(s) => value::go_quote(s, out),
            KeyValue::Json(v) => value::write_text(v, out),
            scalar => value::write_text(&scalar.to_value(), out),
        }
    }
}

impl From<Value> for KeyValue {
    fn from(v: Value) -> KeyValue {
        match v {
            Value::Number(n) => KeyValue::Number(n),
            Value::String(s) => KeyValue::String(CompactString::from(s)),
            Value::Bool(b) => KeyValue::Bool(b),
            Value::Null => KeyValue::Null,
            list_or_object => KeyValue::Json(Box::new(list_or_object)),
        }
    }
}

/// A copy of the value: a short string is copied inline, never into a `String` first.
impl From<&Value> for KeyValue {
    fn from(v: &Value) -> KeyValue {
        match v {
            Value::Number(n) => KeyValue::Number(n.clone()),
            Value::String(s) => KeyValue::String(CompactString::from(s.as_str())),
            Value::Bool(b) => KeyValue::Bool(*b),
            Value::Null => KeyValue::Null,
            list_or_object => KeyValue::Json(Box::new(list_or_object.clone())),
        }
    }
}

impl From<&str> for KeyValue {
    fn from(s: &str) -> KeyValue {
        KeyValue::String(CompactString::from(s))
    }
}

/// Equal when the order says so: `80` and `80.0` are the same key.
impl PartialEq for KeyValue {
    fn eq(&self, other: &KeyValue) -> bool {
        self.compare(other).is_eq()
    }
}

/// A key value equals the JSON value it holds.
impl PartialEq<Value> for KeyValue {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (KeyValue::String(a), Value::String(b)) => a == b,
            _ => value::compare(&self.to_value(), other).is_eq(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Key values order as the JSON values they hold, across every kind.
    #[test]
    fn the_order_is_the_json_values_order() {
        let values = [
            json!(-1),
            json!(2.5),
            json!(3),
            json!(u64::MAX),
            json!(""),
            json!("a"),
            json!("a!"),
            json!("this string is longer than twenty-four bytes"),
            json!(false),
            json!(true),
            json!([1]),
            json!({"a": 1}),
            json!(null),
        ];
        for a in &values {
            for b in &values {
                let (x, y) = (KeyValue::from(a.clone()), KeyValue::from(b.clone()));
                assert_eq!(x.compare(&y), value::compare(a, b), "{a} {b}");
                assert_eq!(x == *b, value::compare(a, b).is_eq(), "{a} {b}");
                let (mut written, mut expected) = (String::new(), String::new());
                x.write_json(&mut written);
                value::write_json(a, &mut expected);
                assert_eq!(written, expected);
                let (mut written, mut expected) = (String::new(), String::new());
                x.write_text(&mut written);
                value::write_text(a, &mut expected);
                assert_eq!(written, expected);
            }
            assert_eq!(&KeyValue::from(a.clone()).into_value(), a);
        }
    }
}
