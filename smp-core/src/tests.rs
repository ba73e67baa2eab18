//! Tests across the layers: the engine's entry points (apply, diff, patches) on inputs that
//! only a whole-crate view can build. A test of one layer stays beside its code.

use serde_json::json;

use crate::deep::dispose;
use crate::deep::tests::{nested, on_small_stack};
use crate::error::PatchError;

/// The cases a review found aborting with a stack overflow: values built in code, deeper
/// than any reader lets through, handed to the library directly.
#[test]
fn deep_values_built_in_code_are_errors_not_overflows() {
    on_small_stack(|| {
        let deep = || nested(100_000);
        let schema = crate::Schema::untyped();
        // Both sides deep: the engine stops at MAX_DEPTH and drops the document safely.
        let err = crate::apply_owned(deep(), &nested(300), &schema).unwrap_err();
        assert!(matches!(err, PatchError::TooDeep { .. }), "{err}");
        let patch = deep();
        let err = crate::apply_owned(deep(), &patch, &schema).unwrap_err();
        assert!(matches!(err, PatchError::TooDeep { .. }), "{err}");
        // A deep original is fine while the patch stays shallow; what it replaces goes.
        let out = crate::apply_owned(deep(), &json!({"a": null}), &schema).unwrap();
        assert_eq!(out, json!({}));
        let out = crate::apply_owned(deep(), &json!({"a": {"$patch": "delete"}}), &schema).unwrap();
        dispose(out);
        let original = deep();
        assert!(crate::apply(&original, &json!({}), &schema).is_err());
        assert!(crate::diff(&original, &json!({}), &schema).is_err());
        // (The test's own deep values go the same way: a plain drop would recurse.)
        dispose(original);
        dispose(patch);
        // A deep patch is refused where it is made.
        assert!(crate::Patch::from_value(deep()).is_err());
    });
}
