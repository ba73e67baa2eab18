//! Applying a strategic merge patch to a JSON document.
//!
//! This is the server side of SMP, with upstream's semantics (kubernetes apimachinery
//! `StrategicMergePatch`): directive lists are consumed, and `null`s with nothing to delete are
//! dropped. The engine mutates the document in place and never clones what the patch does not
//! touch, so its cost follows the size of the patch, not of the document.

mod clean;
pub(crate) mod composite;
pub(crate) mod directive;
mod list;
pub(crate) mod members;
pub(crate) mod object;
pub(crate) mod order;
pub(crate) mod path;

use serde_json::{Map, Value};

use crate::error::{DocRole, PatchError, kind_of};
use crate::schema::Node;

/// Where the engine is in a document, for error paths (used by generated code).
#[doc(hidden)]
pub use path::Path;

pub use crate::deep::MAX_DEPTH;

/// Applies `patch` to `original` and returns the result; the inputs are not modified, so a
/// failed apply leaves nothing half-done.
///
/// `null` for either document means `{}`; anything else that is not an object is an error.
pub fn apply<'s>(
    original: &Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, PatchError> {
    check_roots(original, patch)?;
    // Cloning recurses without bound, so refuse what the engine would refuse anyway first.
    crate::deep::check(original)?;
    apply_owned(original.clone(), patch, schema)
}

/// Like [`apply`], consuming `original` instead of copying it. On error the partly patched
/// document is dropped: use this when the caller owns a throw-away copy (a freshly parsed
/// document), [`apply`] otherwise.
pub fn apply_owned<'s>(
    original: Value,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, PatchError> {
    if let Err(e) = check_roots(&original, patch).and_then(|()| crate::deep::check(patch)) {
        crate::deep::dispose(original);
        return Err(e);
    }
    let mut target = match original {
        Value::Null => Value::Object(Map::new()),
        object => object,
    };
    if let Value::Object(patch) = patch {
        // The engine follows the patch, which is checked, and stops at `MAX_DEPTH`; the parts
        // of the document it drops, and the document itself on error, may be deeper (values
        // built in code), so they go without recursion.
        if let Err(e) = object::merge(&mut target, patch, schema.into(), &Path::root()) {
            crate::deep::dispose(target);
            return Err(e);
        }
    }
    Ok(target)
}

fn check_roots(original: &Value, patch: &Value) -> Result<(), PatchError> {
    for (doc, role) in [(original, DocRole::Original), (patch, DocRole::Patch)] {
        if !matches!(doc, Value::Null | Value::Object(_)) {
            return Err(PatchError::InvalidDocument {
                role,
                detail: format!("expected a JSON object, found {}", kind_of(doc)),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Schema;

    fn nested(levels: usize) -> Value {
        let mut v = json!(1);
        for _ in 0..levels {
            v = Value::Array(vec![v]);
        }
        v
    }

    /// A scalar the patch repeats is kept, not copied: only where it is the same text. `0.0`
    /// equals `-0.0` but is written differently, so it is written.
    #[test]
    fn equal_floats_of_other_text_are_written() {
        let out = apply(
            &json!({"a": -0.0, "b": "x", "c": 1}),
            &json!({"a": 0.0, "b": "x", "c": 1}),
            Node::opaque(),
        )
        .unwrap();
        assert_eq!(out.to_string(), r#"{"a":0.0,"b":"x","c":1}"#);
    }

    fn conditions() -> Schema {
        let doc = json!({"definitions": {"S": {"properties": {
            "conditions": {"type": "array", "items": {"properties": {"type": {"type": "string"}}},
                "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "type"},
            "finalizers": {"type": "array", "items": {"type": "string"},
                "x-kubernetes-patch-strategy": "merge"}
        }}}});
        Schema::from_openapi(&doc, "S").unwrap()
    }

    /// Cases the kubectl differential test found, each as kubectl v1.33 behaves.
    #[test]
    fn kubectl_parity() {
        let s = conditions();
        // An appended item keeps its nulls, as upstream appends it as it is; new content
        // elsewhere does not.
        let got = apply(
            &json!({"conditions": []}),
            &json!({"conditions": [{"type": "d", "reason": null}]}),
            &s,
        );
        assert_eq!(
            got.unwrap(),
            json!({"conditions": [{"type": "d", "reason": null}]})
        );
        let got = apply(
            &json!({}),
            &json!({"conditions": [{"type": "d", "reason": null}]}),
            &s,
        );
        assert_eq!(got.unwrap(), json!({"conditions": [{"type": "d"}]}));
        // Ordering a list that has no element anywhere fails.
        let err = apply(
            &json!({"finalizers": []}),
            &json!({"$setElementOrder/finalizers": []}),
            &s,
        )
        .unwrap_err();
        assert!(err.to_string().contains("no elements"), "{err}");
        // A `$patch: replace` marker after the last ordered item fails the order check; one
        // before it is skipped.
        let late = json!({
            "$setElementOrder/conditions": [{"type": "d"}],
            "conditions": [{"type": "d", "reason": "b"}, {"$patch": "replace"}]
        });
        let err = apply(&json!({"conditions": []}), &late, &s).unwrap_err();
        assert!(matches!(err, PatchError::OrderMismatch { .. }), "{err}");
        let early = json!({
            "$setElementOrder/conditions": [{"type": "b"}, {"type": "d"}],
            "conditions": [{"type": "b"}, {"$patch": "replace"}]
        });
        let got = apply(&json!({"conditions": [{"type": "d"}]}), &early, &s).unwrap();
        assert_eq!(got, json!({"conditions": [{"type": "b"}]}));
    }

    use crate::deep::nests_deeper_than;

    #[test]
    fn nesting_check_counts_containers_only() {
        assert!(!nests_deeper_than(&json!(1), 0));
        assert!(nests_deeper_than(&json!([]), 0));
        // `levels` arrays: the innermost container is at depth levels - 1.
        assert!(!nests_deeper_than(&nested(10), 10));
        assert!(nests_deeper_than(&nested(11), 10));
        assert!(!nests_deeper_than(&json!({"a": [1, {"b": "c"}]}), 3));
        assert!(nests_deeper_than(&json!({"a": [1, {"b": []}]}), 3));
    }
}
