//! JSON merge patch as the library's `MergePatch` computes it.

use serde_json::{Map, Value};

use super::PatchError;

/// Applies a JSON merge patch to `document` as kube-apiserver does: RFC 7386, except that
///
/// - a patch that is an array replaces the document (whose kind then refuses it), one that is
///   any other non-object (a string, a number, `null`) is refused as `Invalid JSON Patch`;
/// - the `null`s of an object the patch adds are dropped at every depth, inside arrays too
///   (`{"a": [{"b": null}]}` adds `a: [{}]`), while the RFC keeps arrays as they are; `null`
///   items of arrays stay;
/// - a member that is `null` in the document counts as missing.
///
/// `document` is an object (the stored object).
pub fn merge(document: &Value, patch: &str) -> Result<Value, PatchError> {
    let bad = || PatchError::Malformed("Invalid JSON Patch".into());
    let patch: Value = serde_json::from_str(patch).map_err(|_| bad())?;
    match (document, patch) {
        (_, Value::Array(mut items)) => {
            items.iter_mut().for_each(prune_nulls);
            Ok(Value::Array(items))
        }
        (Value::Object(doc), Value::Object(patch)) => {
            let mut doc = doc.clone();
            merge_members(&mut doc, patch);
            Ok(Value::Object(doc))
        }
        (_, mut patch @ Value::Object(_)) => {
            prune_nulls(&mut patch);
            Ok(patch)
        }
        _ => Err(bad()),
    }
}

fn merge_members(doc: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (key, value) in patch {
        if value.is_null() {
            doc.remove(&key);
            continue;
        }
        match doc.get_mut(&key) {
            None | Some(Value::Null) => {
                let mut value = value;
                prune_nulls(&mut value);
                doc.insert(key, value);
            }
            Some(Value::Object(current)) => match value {
                Value::Object(members) => merge_members(current, members),
                // An object replaced by anything else: that value, its `null`s kept.
                other => {
                    doc.insert(key, other);
                }
            },
            Some(current) => {
                let mut value = value;
                prune_nulls(&mut value);
                *current = value;
            }
        }
    }
}

/// Drops the `null` members of every object in `value`, inside arrays too (their `null` items
/// stay).
fn prune_nulls(value: &mut Value) {
    match value {
        Value::Object(members) => {
            members.retain(|_, v| !v.is_null());
            members.values_mut().for_each(prune_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(prune_nulls),
        _ => {}
    }
}
