//! Go's zero values over JSON: the scheme's defaulting functions test a field against its Go
//! zero value (`""`, `0`, `nil`), and a member that is absent, `null` or the zero decodes to
//! exactly that. These helpers read and fill members with the same meaning.

use serde_json::{Map, Value};

pub(crate) type Object = Map<String, Value>;

/// Whether `key` decodes to a nil pointer, map or slice: absent or `null`.
pub(crate) fn is_nil(object: &Object, key: &str) -> bool {
    object.get(key).is_none_or(Value::is_null)
}

/// Whether `key` decodes to an empty string: absent, `null` or `""`.
pub(crate) fn is_empty_string(object: &Object, key: &str) -> bool {
    match object.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(_) => false,
    }
}

/// Whether `key` decodes to zero: absent, `null` or `0`.
pub(crate) fn is_zero(object: &Object, key: &str) -> bool {
    match object.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::Number(n)) => n.as_f64() == Some(0.0),
        Some(_) => false,
    }
}

/// Whether `key` decodes to an empty map or slice: absent, `null`, `{}` or `[]`.
pub(crate) fn is_empty_collection(object: &Object, key: &str) -> bool {
    match object.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::Object(o)) => o.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    }
}

/// The string at `key`, or `""`.
pub(crate) fn text<'a>(object: &'a Object, key: &str) -> &'a str {
    object.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Sets `key` to `value` when it is nil.
pub(crate) fn default_nil(object: &mut Object, key: &str, value: Value) {
    if is_nil(object, key) {
        object.insert(key.to_owned(), value);
    }
}

/// Sets `key` to the string `value` when it is empty.
pub(crate) fn default_string(object: &mut Object, key: &str, value: &str) {
    if is_empty_string(object, key) {
        object.insert(key.to_owned(), Value::from(value));
    }
}

/// Sets `key` to the number `value` when it is zero.
pub(crate) fn default_zero(object: &mut Object, key: &str, value: i64) {
    if is_zero(object, key) {
        object.insert(key.to_owned(), Value::from(value));
    }
}

/// The object at `key`, if there is one.
pub(crate) fn child<'a>(object: &'a mut Object, key: &str) -> Option<&'a mut Object> {
    object.get_mut(key).and_then(Value::as_object_mut)
}

/// The object at `key`, made an empty one when nil (a Go struct the defaults write into).
/// `None` when the member holds something else, which decoding would refuse.
pub(crate) fn child_or_new<'a>(object: &'a mut Object, key: &str) -> Option<&'a mut Object> {
    if is_nil(object, key) {
        object.insert(key.to_owned(), Value::Object(Map::new()));
    }
    child(object, key)
}

/// The objects of the list at `key`.
pub(crate) fn items<'a>(object: &'a mut Object, key: &str) -> impl Iterator<Item = &'a mut Object> {
    object
        .get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// Every quantity of the resource list at `key` rounded up to thousandths and written as
/// the server prints it (`SetDefaults_ResourceList`, then the quantity's own printing). A
/// JSON number is a quantity too; what is not one is left for validation.
pub(crate) fn resource_list(object: &mut Object, key: &str) {
    let Some(list) = child(object, key) else {
        return;
    };
    for quantity in list.values_mut() {
        reprint(quantity, crate::quantity::printed_milli);
    }
}

/// The quantity at `key` written as the server prints it.
pub(crate) fn quantity(object: &mut Object, key: &str) {
    if let Some(value) = object.get_mut(key) {
        reprint(value, crate::quantity::printed);
    }
}

/// Replaces a quantity's text by `print`'s, when that differs.
fn reprint(value: &mut Value, print: fn(&str) -> Option<std::borrow::Cow<'_, str>>) {
    let replacement = match value {
        Value::String(s) => match print(s) {
            Some(std::borrow::Cow::Owned(printed)) if printed != *s => printed,
            _ => return,
        },
        Value::Number(n) => match print(&n.to_string()) {
            Some(printed) => printed.into_owned(),
            None => return,
        },
        _ => return,
    };
    *value = Value::String(replacement);
}

/// Both lists of the requirements at `key` (`limits`, `requests`).
pub(crate) fn requirements(object: &mut Object, key: &str) {
    if let Some(resources) = child(object, key) {
        resource_list(resources, "limits");
        resource_list(resources, "requests");
    }
}
