//! Creating patches from JSON text to JSON text: [`diff_json`] and [`three_way_json`].
//!
//! Each gives byte for byte what the reference gives, and fails exactly when it fails, with the
//! same error:
//!
//! ```text
//! let o = input::parse_json(original, DocRole::Original)?;
//! let m = input::parse_json(modified, DocRole::Modified)?;
//! serde_json::to_string(&diff_with(&o, &m, schema, options)?)
//! ```
//!
//! (and for the three-way, `current` read third). The documents are read side by side (see
//! `sides`): what is the same in all of them is scanned, checked and never built, so the cost
//! is one pass over each text plus the parts that differ. The reference path runs when a root
//! is not an object (an error or `null`), when a text is not strict JSON (for the reader's
//! error), and, as a guard, if a created patch ever held a number of the stand-in's range.

use serde_json::Value;

use crate::diff::{DiffOptions, ThreeWayOptions, diff_with, three_way};
use crate::error::{DocRole, JsonPath, PatchError};
use crate::input::parse_json;
use crate::schema::Node;

use super::sides;
use super::write;

/// The two-way patch from `original` to `modified`, both JSON text, as compact JSON with
/// object keys sorted: what [`crate::diff_with`] creates from the parsed documents, printed by
/// `serde_json::to_string`, and the same error where it fails. Only the parts that differ are
/// built as `Value`s.
///
/// ```
/// use smp_core::{DiffOptions, Schema, diff_json};
///
/// let patch = diff_json(
///     r#"{"spec": {"replicas": 2, "paused": true}}"#,
///     r#"{"spec": {"replicas": 3, "paused": true}}"#,
///     &Schema::untyped(),
///     &DiffOptions::default(),
/// );
/// assert_eq!(patch.as_deref(), Ok(r#"{"spec":{"replicas":3}}"#));
/// ```
pub fn diff_json<'s>(
    original: &str,
    modified: &str,
    schema: impl Into<Node<'s>>,
    options: &DiffOptions,
) -> Result<String, PatchError> {
    let node = schema.into();
    let texts = [original, modified];
    let created = read(&texts, options.patch_merge_key.view(node))
        .map(|[o, m]| diff_with(&o, &m, node, options));
    finish(created, || {
        let o = parse_json(original, DocRole::Original)?;
        let m = parse_json(modified, DocRole::Modified)?;
        diff_with(&o, &m, node, options)
    })
}

/// The three-way patch (`kubectl apply`) from JSON text to JSON text: what [`crate::three_way`]
/// creates from the parsed documents, printed by `serde_json::to_string`, and the same error
/// where it fails (a conflict under [`crate::Conflicts::Refuse`] included). Only the parts
/// that differ between the three documents are built as `Value`s.
pub fn three_way_json<'s>(
    original: &str,
    modified: &str,
    current: &str,
    schema: impl Into<Node<'s>>,
    options: &ThreeWayOptions,
) -> Result<String, PatchError> {
    let node = schema.into();
    let texts = [original, modified, current];
    let created = read(&texts, options.patch_merge_key.view(node))
        .map(|[o, m, c]| three_way(&o, &m, &c, node, options));
    finish(created, || {
        let o = parse_json(original, DocRole::Original)?;
        let m = parse_json(modified, DocRole::Modified)?;
        let c = parse_json(current, DocRole::Current)?;
        three_way(&o, &m, &c, node, options)
    })
}

/// The documents side by side, when every root is an object and every text strict JSON.
fn read<const N: usize>(texts: &[&str; N], node: Node<'_>) -> Option<[Value; N]> {
    if !texts.iter().all(|t| super::starts_object(t)) {
        return None;
    }
    sides::read(texts, node).ok()
}

/// The sparse result printed, or the reference's when the sparse path could not answer.
fn finish(
    created: Option<Result<Value, PatchError>>,
    reference: impl FnOnce() -> Result<Value, PatchError>,
) -> Result<String, PatchError> {
    if let Some(created) = created {
        // A stand-in is only where every document is the same, so no patch holds one; the
        // number may be a document's own, though (then the reference path decides).
        if let Some(text) = write::created(&created?) {
            return Ok(text);
        }
    }
    print(&reference()?)
}

fn print(patch: &Value) -> Result<String, PatchError> {
    // Writing a `Value` to a string cannot fail; report it rather than panic if it ever did.
    // Sized for a patch of some size up front, rather than grown from serde_json's 128 bytes.
    let mut out = Vec::with_capacity(4096);
    serde_json::to_writer(&mut out, patch).map_err(|e| PatchError::Deserialize {
        path: JsonPath::root(),
        detail: e.to_string(),
    })?;
    String::from_utf8(out).map_err(|e| PatchError::Deserialize {
        path: JsonPath::root(),
        detail: e.to_string(),
    })
}
