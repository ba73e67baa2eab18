//! Strategic merge patch on any serde type, through its JSON form, with a schema given at run
//! time.
//!
//! This is the typed contract taken literally: serialize, run the `Value` engine with the
//! schema, deserialize. It serves types that cannot derive `StrategicMerge` because they belong
//! to another crate (k8s-openapi's, through smp-types' `k8s-openapi` feature, which supplies the
//! schema of the same definition) and types whose schema is only known at run time (a custom
//! resource described by its CRD). Each call converts the whole value, so it costs what a
//! round trip costs; a derived type touches only what the patch names.
//!
//! The conversions go through JSON text: `serde_json::to_vec` and `serde_json::from_str` of `T`,
//! which a program that talks to an API server (kube's client reads and writes objects so)
//! compiles for its types anyway, and non-generic code for the rest.
//! `serde_json::to_value`/`from_value` would compile every k8s-openapi type's serde impls once
//! more, for the `Value` serializer and deserializer: measured on a one-file kube program
//! patching a Deployment, 12.6 s of build for the program instead of 6.5 s, for a pod3 apply in
//! 22 µs instead of 40 µs (the guide's figures). Floats stay exact both ways: the text is read
//! back by smp's own reader (correctly rounded), and smp-core turns on serde_json's
//! `float_roundtrip` for `from_str`.

use serde_core::Serialize;
use serde_core::de::DeserializeOwned;
use serde_json::Value;

use crate::deep::MAX_DEPTH;
use crate::error::{JsonPath, PatchError};
use crate::patch::Patch;
use crate::schema::Node;
use crate::union_rules::UpdateError;

/// `value`'s JSON form: its text as `serde_json::to_vec` writes it, read by smp's reader.
/// Nesting deeper than [`MAX_DEPTH`] is [`PatchError::TooDeep`], as the engine says of any
/// value.
fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<Value, PatchError> {
    match serde_json::to_vec(value) {
        Ok(text) => read_text(&text),
        Err(e) => Err(conversion_error("cannot serialize the current value", &e)),
    }
}

/// The non-generic half of [`to_json`]: the text read with the engine's depth as the bound.
fn read_text(text: &[u8]) -> Result<Value, PatchError> {
    let text = std::str::from_utf8(text).map_err(|e| PatchError::Deserialize {
        path: JsonPath::root(),
        detail: format!("the serialized value is not UTF-8: {e}"),
    })?;
    match smp_yaml::json::parse_within(text, MAX_DEPTH) {
        Ok(value) => Ok(value),
        Err(_) => read_past_the_bound(text),
    }
}

/// serde_json's output stops the bounded read only where it nests past the bound (or holds a
/// key twice, which a `Serialize` impl can write): read it again without the bound (the
/// reader's stack is on the heap, so only memory in proportion to the text) and judge the
/// depth as the engine does, dropping a deep value without recursion.
#[cold]
fn read_past_the_bound(text: &str) -> Result<Value, PatchError> {
    let value =
        smp_yaml::json::parse_within(text, usize::MAX).map_err(|e| PatchError::Deserialize {
            path: JsonPath::root(),
            detail: format!("the serialized value is not a JSON document: {e}"),
        })?;
    if let Err(e) = crate::deep::check(&value) {
        crate::deep::dispose(value);
        return Err(e);
    }
    Ok(value)
}

/// `T` from a JSON form: its text, read by `serde_json::from_str`. serde_json's reader stops
/// at 128 levels of nesting, so a deeper value (which only code can build; no API server sends
/// one) is a [`PatchError::Deserialize`].
fn from_json<T: DeserializeOwned>(value: &Value) -> Result<T, PatchError> {
    let text = value_text(value)?;
    match serde_json::from_str(&text) {
        Ok(v) => Ok(v),
        Err(e) => Err(conversion_error(
            "the patched value does not fit the Rust type",
            &e,
        )),
    }
}

/// The non-generic half of [`from_json`]: `value` as compact JSON text.
fn value_text(value: &Value) -> Result<String, PatchError> {
    serde_json::to_string(value).map_err(|e| conversion_error("cannot write the patched value", &e))
}

/// The error of a conversion, at the root: serde's message without the line and column of the
/// intermediate text, which the caller never sees.
#[cold]
#[inline(never)]
fn conversion_error(what: &str, e: &serde_json::Error) -> PatchError {
    let message = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    let message = message.strip_suffix(&position).unwrap_or(&message);
    PatchError::Deserialize {
        path: JsonPath::root(),
        detail: format!("{what}: {message}"),
    }
}

/// Applies `patch` to `value`: [`smp_core::apply`](crate::apply()) of its JSON form, read back
/// into `T`. On error `value` is unchanged.
pub fn apply<'s, T>(
    value: &mut T,
    patch: &Patch,
    schema: impl Into<Node<'s>>,
) -> Result<(), PatchError>
where
    T: Serialize + DeserializeOwned,
{
    let json = to_json(value)?;
    let patched = crate::apply::apply_owned(json, patch.as_value(), schema)?;
    *value = from_json(&patched)?;
    Ok(())
}

/// The two-way patch from `original` to `modified`: `smp_core::diff` of their JSON forms.
pub fn diff<'s, T: Serialize>(
    original: &T,
    modified: &T,
    schema: impl Into<Node<'s>>,
    options: &crate::diff::DiffOptions,
) -> Result<Patch, PatchError> {
    let patch = crate::diff::diff_with(&to_json(original)?, &to_json(modified)?, schema, options)?;
    Patch::from_value(patch)
}

/// The three-way patch (`kubectl apply`'s): `smp_core::three_way` of the JSON forms.
pub fn three_way<'s, T: Serialize>(
    last_applied: &T,
    desired: &T,
    live: &T,
    schema: impl Into<Node<'s>>,
    options: &crate::diff::ThreeWayOptions,
) -> Result<Patch, PatchError> {
    let patch = crate::diff::three_way(
        &to_json(last_applied)?,
        &to_json(desired)?,
        &to_json(live)?,
        schema,
        options,
    )?;
    Patch::from_value(patch)
}

/// Normalizes the unions of `value` against `old` (KEP-1027), as
/// [`normalize`](crate::union::normalize) does on the JSON form. A value that no longer fits
/// its type after normalization (which only clears members) is an error, and leaves `value`
/// unchanged.
pub fn normalize<'s, T>(
    value: &mut T,
    old: Option<&T>,
    schema: impl Into<Node<'s>>,
) -> Result<(), PatchError>
where
    T: Serialize + DeserializeOwned,
{
    let mut json = to_json(value)?;
    let old = old.map(to_json).transpose()?;
    crate::union_rules::normalize(&mut json, old.as_ref(), schema);
    *value = from_json(&json)?;
    Ok(())
}

/// Checks the unions of `value`, as [`validate`](crate::union::validate) does on its JSON form.
pub fn validate<'s, T: Serialize>(
    value: &T,
    schema: impl Into<Node<'s>>,
) -> Result<(), UpdateError> {
    let json = to_json(value)?;
    crate::union_rules::validate(&json, schema).map_err(UpdateError::Invalid)
}

/// What an API server does with a patch: apply, normalize against the value before, validate.
/// On error `value` is unchanged.
pub fn apply_normalized<'s, T>(
    value: &mut T,
    patch: &Patch,
    schema: impl Into<Node<'s>>,
) -> Result<(), UpdateError>
where
    T: Serialize + DeserializeOwned,
{
    let before = to_json(value)?;
    let after = crate::union_rules::apply_normalized(&before, patch.as_value(), schema)?;
    *value = from_json(&after)?;
    Ok(())
}

/// Normalization of a member whose schema is `node` (the `Normalize` impl of a value patched
/// through its JSON form). Values that do not convert are left as they are: normalization
/// never fails, and validation reports what it could not repair.
#[doc(hidden)]
pub fn normalize_member<T>(value: &mut T, old: Option<&T>, node: Node<'_>, merge_key: Option<&str>)
where
    T: Serialize + DeserializeOwned,
{
    let (Ok(mut json), Ok(old)) = (to_json(&*value), old.map(to_json).transpose()) else {
        return;
    };
    crate::union_rules::value::normalize_at(&mut json, old.as_ref(), node, merge_key, 0);
    if let Ok(new) = from_json(&json) {
        *value = new;
    }
}

/// Validation of a member whose schema is `node`, at `path`.
#[doc(hidden)]
pub fn validate_member<T: Serialize>(
    value: &T,
    node: Node<'_>,
    merge_key: Option<&str>,
    path: &mut Vec<crate::error::Segment>,
    out: &mut Vec<crate::union_rules::UnionError>,
) {
    if let Ok(json) = to_json(value) {
        crate::union_rules::value::validate_at(&json, node, merge_key, path, out);
    }
}

/// The JSON form of `value`'s field `name`, to pair list items by merge key.
#[doc(hidden)]
pub fn key_of<T: Serialize>(value: &T, name: &str) -> Option<Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(mut map)) => map.remove(name),
        _ => None,
    }
}

/// Whether the JSON form of `value` is `null`.
#[doc(hidden)]
pub fn is_null<T: Serialize>(value: &T) -> bool {
    matches!(serde_json::to_value(value), Ok(Value::Null))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde::{Deserialize, Serialize};
    use serde_json::{Value, json};

    use super::*;
    use crate::deep::tests::nested;
    use crate::schema::TypeDef;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        ratio: f64,
        count: i32,
    }

    fn opaque() -> Node<'static> {
        Node::of_static(TypeDef::OPAQUE)
    }

    fn empty() -> Patch {
        Patch::from_value(json!({})).expect("patch")
    }

    proptest! {
        /// The trip through text keeps every finite float bit for bit (smp's reader one way,
        /// serde_json's `float_roundtrip` the other).
        #[test]
        fn floats_survive_the_text_form(bits in any::<u64>()) {
            let ratio = f64::from_bits(bits);
            prop_assume!(ratio.is_finite());
            let mut value = Sample { ratio, count: 1 };
            apply(&mut value, &empty(), opaque()).expect("applies");
            prop_assert_eq!(value.ratio.to_bits(), bits);
        }
    }

    /// Floats whose shortest form has 17 digits; the last is one that serde_json's reader,
    /// without `float_roundtrip`, reads one unit in the last place off.
    #[test]
    fn long_floats_are_kept() {
        let off_by_one_ulp = f64::from_bits(10_517_045_582_448_941_214);
        for ratio in [
            0.1 + 0.2,
            1.0 / 3.0,
            2.2250738585072014e-308,
            off_by_one_ulp,
        ] {
            let mut value = Sample { ratio, count: 1 };
            apply(&mut value, &empty(), opaque()).expect("applies");
            assert_eq!(value.ratio.to_bits(), ratio.to_bits(), "{ratio}");
        }
    }

    /// A patched value that does not fit is an error at the root with serde's message, and
    /// nothing of the intermediate text (no line and column).
    #[test]
    fn a_misfit_names_what_serde_said() {
        let mut value = Sample {
            ratio: 0.5,
            count: 1,
        };
        let patch = Patch::from_value(json!({"count": "many"})).expect("patch");
        let err = apply(&mut value, &patch, opaque()).expect_err("a string is no i32");
        assert_eq!(
            err,
            PatchError::Deserialize {
                path: JsonPath::root(),
                detail: "the patched value does not fit the Rust type: \
                         invalid type: string \"many\", expected i32"
                    .into(),
            }
        );
        assert_eq!(value.count, 1, "unchanged on error");
    }

    /// Deeper than the engine's limit is `TooDeep`, as the engine says of a deep `Value`;
    /// between serde_json's 128 levels and that limit, reading `T` back fails (documented on
    /// [`from_json`]).
    #[test]
    fn depth_limits() {
        let mut deep: Value = nested(MAX_DEPTH + 10);
        let err = apply(&mut deep, &empty(), opaque()).expect_err("too deep");
        assert!(matches!(err, PatchError::TooDeep { .. }), "{err}");
        crate::deep::dispose(deep);

        let mut value: Value = nested(200);
        let err = apply(&mut value, &empty(), opaque()).expect_err("deeper than serde_json reads");
        assert!(
            matches!(&err, PatchError::Deserialize { detail, .. } if detail.contains("recursion limit")),
            "{err}"
        );
        crate::deep::dispose(value);

        let mut shallow: Value = nested(100);
        apply(&mut shallow, &empty(), opaque()).expect("within both limits");
        crate::deep::dispose(shallow);
    }
}
