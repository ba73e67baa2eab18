//! Go's `%v` rendering of decoded JSON values, which upstream uses to sort and match list
//! items, and the item kinds of lists.

use std::borrow::Cow;

use serde_json::Value;

use crate::apply::order::KeyIndex;

use crate::apply::Path;
use crate::error::{PatchError, kind_of};

/// The printed form of a scalar (containers print Go-style, for completeness).
pub(crate) fn printed(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.to_string()
            } else if let Some(u) = n.as_u64() {
                u.to_string()
            } else {
                n.as_f64().map(float).unwrap_or_default()
            }
        }
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(printed).collect();
            format!("[{}]", inner.join(" "))
        }
        Value::Object(map) => {
            let mut entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", printed(v)))
                .collect();
            entries.sort();
            format!("map[{}]", entries.join(" "))
        }
    }
}

/// `%v` of a float64: shortest digits; exponent form below 1e-4 and from 1e21 on.
fn float(f: f64) -> String {
    if f == 0.0 || !f.is_finite() {
        return if f.is_nan() {
            "NaN".to_owned()
        } else if f.is_infinite() {
            if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned()
        } else {
            "0".to_owned()
        };
    }
    let sci = format!("{f:e}");
    let Some((mantissa, exp)) = sci.split_once('e') else {
        return f.to_string();
    };
    match exp.parse::<i32>() {
        Ok(exp) if !(-4..21).contains(&exp) => {
            let sign = if exp < 0 { '-' } else { '+' };
            format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
        }
        _ => f.to_string(),
    }
}

/// How diff sorts and pairs list items (by merge key, or by value in a set): upstream's order,
/// the printed form (byte order) first, but two values pair only when apply would find one by
/// the other, i.e. when they are equal JSON values.
///
/// Upstream pairs by printed form alone, so its diff pairs `1` with `"1"` (and, here, where
/// serde_json keeps number kinds, `80` with `80.0`), and creates patches that its apply does
/// not map back to the modified document. The kind and, for numbers and containers, the exact
/// JSON text break such ties; values that print differently keep upstream's order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Pairing<'v> {
    /// A string's printed form is the string: borrowed, not copied.
    printed: Cow<'v, str>,
    kind: u8,
    /// The JSON text, where the printed form may hide a difference (floats, containers). An
    /// integer's text is its printed form, and a float printed the same way has more text
    /// (`80` before `80.0`), so `None` there keeps the order and the ties.
    exact: Option<String>,
}

impl Pairing<'_> {
    /// Whether two values print alike and are of one kind. Equal values always are (so among
    /// items sorted by pairing, equal keys are next to each other), and so are a few values
    /// that are not equal (`0.0`, `-0.0` and `0`).
    pub(crate) fn prints_like(&self, other: &Pairing<'_>) -> bool {
        self.kind == other.kind && self.printed == other.printed
    }

    /// The same, owning its text.
    pub(crate) fn into_owned(self) -> Pairing<'static> {
        Pairing {
            printed: Cow::Owned(self.printed.into_owned()),
            kind: self.kind,
            exact: self.exact,
        }
    }
}

/// The [`Pairing`] of a value.
pub(crate) fn pairing(v: &Value) -> Pairing<'_> {
    let kind = Kind::of(v) as u8;
    let exact = match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => None,
        Value::Number(_) | Value::Array(_) | Value::Object(_) => Some(v.to_string()),
        _ => None,
    };
    let printed = match v {
        Value::String(s) => Cow::Borrowed(s.as_str()),
        other => Cow::Owned(printed(other)),
    };
    Pairing {
        printed,
        kind,
        exact,
    }
}

/// Sorts values by [`Pairing`], stably.
pub(crate) fn sort_by_pairing(values: &mut [Value]) {
    values.sort_by_cached_key(|v| pairing(v).into_owned());
}

/// The common kind of the items of the given lists (`None` when all are empty): lists of lists
/// and mixed kinds are errors.
pub(crate) fn item_kind(lists: &[&[Value]], path: &Path<'_>) -> Result<Option<Kind>, PatchError> {
    let mut seen: Option<(Kind, &Value)> = None;
    for item in lists.iter().flat_map(|l| l.iter()) {
        let kind = Kind::of(item);
        if kind == Kind::List {
            return Err(PatchError::ListOfLists {
                path: path.to_json_path(),
            });
        }
        match seen {
            None => seen = Some((kind, item)),
            Some((k, first)) if k != kind => {
                return Err(PatchError::MixedList {
                    path: path.to_json_path(),
                    first: kind_of(first),
                    second: kind_of(item),
                });
            }
            Some(_) => {}
        }
    }
    Ok(seen.map(|(k, _)| k))
}

/// The JSON kind of a list item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool,
    Number,
    String,
    List,
    Object,
}

impl Kind {
    pub(crate) fn of(v: &Value) -> Kind {
        match v {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::List,
            Value::Object(_) => Kind::Object,
        }
    }
}

/// Whether two values have the same JSON kind (upstream compares Go types).
pub(crate) fn same_kind(a: &Value, b: &Value) -> bool {
    Kind::of(a) == Kind::of(b)
}

/// Removes repeated values, keeping the first of each.
pub(crate) fn dedup(values: Vec<Value>) -> Vec<Value> {
    let first = {
        let index = KeyIndex::new(values.iter().collect());
        let keep: Vec<bool> = values
            .iter()
            .enumerate()
            .map(|(i, v)| index.position(v) == Some(i))
            .collect();
        keep
    };
    values
        .into_iter()
        .zip(first)
        .filter_map(|(v, keep)| keep.then_some(v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn printed_forms() {
        assert_eq!(printed(&json!(10)), "10");
        assert_eq!(printed(&json!(null)), "<nil>");
        assert_eq!(printed(&json!(1.5)), "1.5");
        assert_eq!(printed(&json!(1e21)), "1e+21");
        assert_eq!(printed(&json!(0.00001)), "1e-05");
        assert_eq!(printed(&json!(1e20)), "100000000000000000000");
    }
}
