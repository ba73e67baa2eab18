//! The create side through the typed twins: documents deserialized into `MergeItem` /
//! `PrecisionItem`, patches created with `StrategicMerge::diff` / `three_way` and applied with
//! `StrategicMerge::apply`. A document the twin cannot hold exactly (it would not read back as
//! the same JSON) is a failure of the step, not a skip.

use serde_json::{Map, Value};
use smp_core::{Patch, PatchError, StrategicMerge};

use super::merge_item::{MergeItem, PrecisionItem};

type Outcome = Result<Result<Value, PatchError>, String>;

/// The twin of the case's schema, or `Err` naming the schema.
fn dispatch<R>(
    schema: &str,
    merge_item: impl FnOnce() -> R,
    precision_item: impl FnOnce() -> R,
) -> Result<R, String> {
    match schema {
        "mergeItem" => Ok(merge_item()),
        "precisionItem" => Ok(precision_item()),
        other => Err(format!("    no typed twin for schema {other:?}")),
    }
}

/// A document as the twin `T`. The engine reads `null` as `{}`; other non-objects are not
/// documents a typed API could be handed.
fn typed<T: StrategicMerge>(doc: &Value, role: &str) -> Result<T, String> {
    let doc = match doc {
        Value::Null => &Value::Object(Map::new()),
        other => other,
    };
    let not_representable = |why: String| {
        format!(
            "    {role} not representable in the typed twin: {why}\n    {role}: {}",
            super::short(doc, 400)
        )
    };
    let object: T =
        serde_json::from_value(doc.clone()).map_err(|e| not_representable(e.to_string()))?;
    let back = to_json(&object)?;
    if !super::json_eq(doc, &back) {
        return Err(not_representable(format!(
            "it reads back as {}",
            super::short(&back, 400)
        )));
    }
    Ok(object)
}

fn to_json<T: serde::Serialize>(object: &T) -> Result<Value, String> {
    serde_json::to_value(object).map_err(|e| format!("    cannot serialize the typed object: {e}"))
}

fn two_way_as<T: StrategicMerge>(original: &Value, modified: &Value) -> Outcome {
    let a: T = typed(original, "original")?;
    let b: T = typed(modified, "modified")?;
    Ok(a.diff(&b).map(Patch::into_value))
}

fn three_way_as<T: StrategicMerge>(
    original: &Value,
    modified: &Value,
    current: &Value,
    overwrite: bool,
) -> Outcome {
    let a: T = typed(original, "original")?;
    let b: T = typed(modified, "modified")?;
    let c: T = typed(current, "current")?;
    Ok(T::three_way(
        &a,
        &b,
        &c,
        &smp_core::ThreeWayOptions::with_conflicts(smp_core::Conflicts::from_overwrite_flag(
            overwrite,
        )),
    )
    .map(Patch::into_value))
}

fn apply_as<T: StrategicMerge>(doc: &Value, patch: &Value) -> Outcome {
    let mut object: T = typed(doc, "document")?;
    let patch = match Patch::from_value(patch.clone()) {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    match object.apply(&patch) {
        Ok(()) => Ok(Ok(to_json(&object)?)),
        Err(e) => Ok(Err(e)),
    }
}

/// `a.diff(&b)` on the twin of `schema`.
pub fn two_way(schema: &str, original: &Value, modified: &Value) -> Outcome {
    dispatch(
        schema,
        || two_way_as::<MergeItem>(original, modified),
        || two_way_as::<PrecisionItem>(original, modified),
    )?
}

/// `T::three_way` on the twin of `schema`.
pub fn three_way(
    schema: &str,
    original: &Value,
    modified: &Value,
    current: &Value,
    overwrite: bool,
) -> Outcome {
    dispatch(
        schema,
        || three_way_as::<MergeItem>(original, modified, current, overwrite),
        || three_way_as::<PrecisionItem>(original, modified, current, overwrite),
    )?
}

/// `doc.apply(&patch)` on the twin of `schema`.
pub fn apply(schema: &str, doc: &Value, patch: &Value) -> Outcome {
    dispatch(
        schema,
        || apply_as::<MergeItem>(doc, patch),
        || apply_as::<PrecisionItem>(doc, patch),
    )?
}
