//! A list merge key's value as the typed code and the engine both compare it: a ground-floor
//! item, so that the engine's paths (`apply::path`) name typed keys without importing the
//! typed layer above them.

use serde_json::Value;

#[doc(hidden)]
/// A list merge key's value, borrowed from a typed item, comparable with patch values.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub enum KeyRef<'a> {
    /// A string.
    Str(&'a str),
    /// An integer.
    Int(i64),
    /// An unsigned integer beyond `i64`.
    UInt(u64),
    /// A boolean.
    Bool(bool),
    /// JSON `null`.
    Null,
}

impl PartialEq for KeyRef<'_> {
    /// As the derived `==`; strings compared with `same_bytes` (lists are paired by key on
    /// every diff).
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (KeyRef::Str(a), KeyRef::Str(b)) => {
                crate::json_text::same_bytes(a.as_bytes(), b.as_bytes())
            }
            (KeyRef::Int(a), KeyRef::Int(b)) => a == b,
            (KeyRef::UInt(a), KeyRef::UInt(b)) => a == b,
            (KeyRef::Bool(a), KeyRef::Bool(b)) => a == b,
            (KeyRef::Null, KeyRef::Null) => true,
            _ => false,
        }
    }
}

impl<'a> KeyRef<'a> {
    /// The key as JSON.
    pub fn to_value(self) -> Value {
        match self {
            KeyRef::Str(s) => Value::String(s.to_owned()),
            KeyRef::Int(i) => Value::from(i),
            KeyRef::UInt(u) => Value::from(u),
            KeyRef::Bool(b) => Value::Bool(b),
            KeyRef::Null => Value::Null,
        }
    }

    /// Go's `%v` of the key, which upstream sorts list items by; equal to the engine's printing
    /// of [`KeyRef::to_value`] (`Str` is not quoted, as in JSON paths).
    pub fn printed(self) -> std::borrow::Cow<'a, str> {
        match self {
            KeyRef::Str(s) => std::borrow::Cow::Borrowed(s),
            KeyRef::Int(i) => i.to_string().into(),
            KeyRef::UInt(u) => u.to_string().into(),
            KeyRef::Bool(b) => b.to_string().into(),
            KeyRef::Null => "<nil>".into(),
        }
    }

    /// Whether the patch value `v` names the same key, with JSON equality (`1` is not `"1"`).
    pub fn matches(self, v: &Value) -> bool {
        match (self, v) {
            (KeyRef::Str(a), Value::String(b)) => a == b,
            (KeyRef::Int(a), Value::Number(n)) => !n.is_f64() && n.as_i64() == Some(a),
            (KeyRef::UInt(a), Value::Number(n)) => !n.is_f64() && n.as_u64() == Some(a),
            (KeyRef::Bool(a), Value::Bool(b)) => a == *b,
            (KeyRef::Null, Value::Null) => true,
            _ => false,
        }
    }
}
