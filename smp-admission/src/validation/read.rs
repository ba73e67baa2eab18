//! Reading a JSON object as validation reads the Go struct it decodes into: a member that is
//! absent or `null` is the Go zero value (`""`, `0`, `false`, an empty list or map), and a
//! member of another JSON type than the field's is treated as absent (decoding would have
//! refused it before validation runs).

use serde_json::{Map, Value};

/// A JSON object's members.
pub type Object = Map<String, Value>;

fn empty() -> &'static Object {
    static EMPTY: std::sync::OnceLock<Object> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

/// A member of an object as a check reads it: absent (`None`) or present, `null` included.
/// Its readers give the Go zero value for a member that is absent, `null` or of another JSON
/// type than the field's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Member<'a>(pub Option<&'a Value>);

impl<'a> Member<'a> {
    /// The member, if present (`null` included).
    pub fn value(self) -> Option<&'a Value> {
        self.0
    }

    /// The object, if the member is one.
    pub fn object(self) -> Option<&'a Object> {
        self.0.and_then(Value::as_object)
    }

    /// The member when it is an object (a pointer to a struct that is set).
    pub fn set_object(self) -> Option<&'a Value> {
        self.0.filter(|v| v.is_object())
    }

    /// The string, or `""`.
    pub fn text(self) -> &'a str {
        self.opt_text().unwrap_or("")
    }

    /// The string when the member is one (a `*string` that is set).
    pub fn opt_text(self) -> Option<&'a str> {
        self.0.and_then(Value::as_str)
    }

    /// The integer when the member is one.
    pub fn opt_int(self) -> Option<i64> {
        self.0.and_then(Value::as_i64)
    }

    /// The integer, or 0.
    pub fn int(self) -> i64 {
        self.opt_int().unwrap_or(0)
    }

    /// The boolean when the member is one.
    pub fn opt_bool(self) -> Option<bool> {
        self.0.and_then(Value::as_bool)
    }

    /// The boolean, or false.
    pub fn flag(self) -> bool {
        self.opt_bool().unwrap_or(false)
    }

    /// The list, or an empty one.
    pub fn list(self) -> &'a [Value] {
        self.0
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Whether the member is set: present, not `null`.
    pub fn is_set(self) -> bool {
        self.0.is_some_and(|m| !m.is_null())
    }
}

/// Declares a view of the members of an object that one check reads, gathered in a single walk
/// over the object. Each lookup in a `serde_json` map is a search that compares keys; a
/// check that reads twenty members of each of fifty containers spends most of its time
/// there, and one walk with a `match` on each key costs a fraction of it.
///
/// ```ignore
/// view! {
///     /// A container port.
///     struct Port { name: "name", container_port: "containerPort" }
/// }
/// let port = Port::of(&value);
/// port.name.text();
/// ```
macro_rules! view {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($field:ident: $key:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default)]
        $vis struct $name<'a> {
            $($vis $field: $crate::validation::read::Member<'a>,)*
        }

        impl<'a> $name<'a> {
            /// The members of `value` this view reads (none when it is not an object).
            $vis fn of(value: &'a serde_json::Value) -> Self {
                let mut view = Self::default();
                if let Some(object) = value.as_object() {
                    for (key, member) in object {
                        match key.as_str() {
                            $($key => view.$field = $crate::validation::read::Member(Some(member)),)*
                            _ => {}
                        }
                    }
                }
                view
            }
        }
    };
}
pub(crate) use view;

/// The member at `key` of `v`.
pub fn member<'a>(v: &'a Value, key: &str) -> Member<'a> {
    Member(v.get(key))
}

/// The object at `key`, if there is one.
pub fn object<'a>(v: &'a Value, key: &str) -> Option<&'a Object> {
    member(v, key).object()
}

/// The object at `key`, or an empty one (a Go struct that is not a pointer).
pub fn object_or_empty<'a>(v: &'a Value, key: &str) -> &'a Object {
    match object(v, key) {
        Some(o) => o,
        None => empty(),
    }
}

/// The string at `key`, or `""`.
pub fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    member(v, key).text()
}

/// The string at `key` when the member is present and a string (a `*string` that is set).
pub fn opt_text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    member(v, key).opt_text()
}

/// The integer at `key` when present (a pointer that is set, or a value that was written).
pub fn opt_int(v: &Value, key: &str) -> Option<i64> {
    member(v, key).opt_int()
}

/// The integer at `key`, or 0.
pub fn int(v: &Value, key: &str) -> i64 {
    member(v, key).int()
}

/// The boolean at `key` when present.
pub fn opt_bool(v: &Value, key: &str) -> Option<bool> {
    member(v, key).opt_bool()
}

/// The boolean at `key`, or false.
pub fn flag(v: &Value, key: &str) -> bool {
    member(v, key).flag()
}

/// The list at `key`, or an empty one.
pub fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    member(v, key).list()
}

/// The strings of the list at `key` (items of another type are skipped).
pub fn strings<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a str> {
    list(v, key).iter().filter_map(Value::as_str)
}

/// The string-to-string map at `key` as (key, value) pairs; values that are not strings read
/// as `""`.
pub fn string_map<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = (&'a str, &'a str)> {
    object_or_empty(v, key)
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
}

/// Whether the member at `key` is set: present, not `null`.
pub fn is_set(v: &Value, key: &str) -> bool {
    member(v, key).is_set()
}

/// Whether two members are equal as Go's semantic equality compares the values they decode
/// into: absent, `null`, `""`, `[]` and `{}` are all the zero value, and objects compare
/// member by member with the same rule.
pub fn semantic_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a.filter(|v| !is_zero(v)), b.filter(|v| !is_zero(v))) {
        (None, None) => true,
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            x.iter().all(|(k, v)| semantic_eq(Some(v), y.get(k)))
                && y.iter()
                    .filter(|(k, _)| !x.contains_key(k.as_str()))
                    .all(|(_, v)| is_zero(v))
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| semantic_eq(Some(p), Some(q)))
        }
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}
