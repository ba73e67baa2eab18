//! Which of a type's shapes a value takes, for the walks that compare two values (merge and
//! compare): a value of a kind the type allows takes that shape; a missing or `null` value, or
//! one the type does not allow, leaves the type whole, to be picked from objects first, then
//! scalars, then lists.

use serde_json::Value;

use crate::schema::{List, MapView, Resolved, Scalar};

/// A shape of a type.
#[derive(Clone, Copy)]
pub(crate) enum Shape<'s> {
    Map(MapView<'s>),
    Scalar(Scalar),
    List(&'s List),
    /// The type has no shape at all (a broken reference).
    None,
}

impl Shape<'_> {
    /// Whether two shapes of one type are the same one (they come from the same type, so
    /// their kind says it).
    pub(crate) fn same(self, other: Shape<'_>) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }
}

/// What a value deduces of its type: one shape, or the type whole.
#[derive(Clone, Copy)]
pub(crate) enum Deduced<'s> {
    One(Shape<'s>),
    Whole(Resolved<'s>),
}

impl<'s> Deduced<'s> {
    pub(crate) fn of(atom: Resolved<'s>, value: Option<&Value>) -> Deduced<'s> {
        let one = match value {
            Some(Value::Object(_)) => atom.map.map(Shape::Map),
            Some(Value::Array(_)) => atom.list.map(Shape::List),
            Some(Value::Null) | None => None,
            Some(_) => atom.scalar.map(Shape::Scalar),
        };
        one.map_or(Deduced::Whole(atom), Deduced::One)
    }

    /// The shape a walk handles.
    pub(crate) fn shape(self) -> Shape<'s> {
        match self {
            Deduced::One(shape) => shape,
            Deduced::Whole(atom) => atom
                .map
                .map(Shape::Map)
                .or(atom.scalar.map(Shape::Scalar))
                .or(atom.list.map(Shape::List))
                .unwrap_or(Shape::None),
        }
    }

    /// Whether two values of one type deduced the same (both come from the same type, so the
    /// kind of deduction says it).
    pub(crate) fn same(self, other: Deduced<'s>) -> bool {
        let kind = |d: Deduced<'_>| match d {
            Deduced::Whole(_) => 0,
            Deduced::One(Shape::Map(_)) => 1,
            Deduced::One(Shape::Scalar(_)) => 2,
            Deduced::One(Shape::List(_)) => 3,
            Deduced::One(Shape::None) => 4,
        };
        kind(self) == kind(other)
    }
}

/// Whether `value` (absent or `null` always do) fits scalar kind `kind`; the error otherwise.
pub(crate) fn check_scalar(kind: Scalar, value: Option<&Value>) -> Result<(), String> {
    let fits = match (kind, value) {
        (_, None | Some(Value::Null)) => true,
        (Scalar::Numeric, Some(Value::Number(_))) => true,
        (Scalar::String, Some(Value::String(_))) => true,
        (Scalar::Boolean, Some(Value::Bool(_))) => true,
        (Scalar::Untyped, Some(v)) => !v.is_array() && !v.is_object(),
        _ => false,
    };
    if fits {
        return Ok(());
    }
    let expected = match kind {
        Scalar::Numeric => "numeric (int or float)",
        Scalar::String => "string",
        Scalar::Boolean => "boolean",
        Scalar::Untyped => "any scalar",
    };
    Err(format!(
        "expected {expected}, got {}",
        kind_of(value.unwrap_or(&Value::Null))
    ))
}

/// A value's kind, as errors name it.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

/// A value as a list: `None` when absent, `null` or not a list.
pub(crate) fn as_list(value: Option<&Value>) -> Option<&[Value]> {
    match value {
        Some(Value::Array(items)) => Some(items),
        _ => None,
    }
}

/// A value as an object: `None` when absent, `null` or not an object.
pub(crate) fn as_map(value: Option<&Value>) -> Option<&serde_json::Map<String, Value>> {
    match value {
        Some(Value::Object(map)) => Some(map),
        _ => None,
    }
}
