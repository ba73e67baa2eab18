//! Strategic merge patch from JSON text to JSON text, reading only what the patch touches.
//!
//! [`apply_json`] gives byte for byte what the reference gives:
//!
//! ```text
//! let o = input::parse_json(original, DocRole::Original)?;
//! let p = input::parse_json(patch, DocRole::Patch)?;
//! serde_json::to_string(&apply_owned(o, &p, schema)?)
//! ```
//!
//! and fails exactly when it fails, with the same error. Most of the reference's time goes into
//! building and dropping `Value`s for parts of the document the patch never touches. Here the
//! original is scanned once, strictly: the parts the engine will look at (see `guide`) become
//! `Value`s, and every other value is copied as canonical JSON text and stands in the tree as a
//! placeholder. The reference engine runs on that tree, and the output splices the copied text
//! back in.
//!
//! The reference path itself runs (see [`Route`]) when the original's root is not an object or
//! the patch is not an object or `null` (both are errors or trivial), and when a number that a
//! placeholder could be mistaken for (at least `0xFFFF_FFFF_0000_0000`) is in the patch or in a
//! part of the original that had to be read in full. Parse errors are the strict reader's own.

mod canon;
mod create;
mod guide;
mod runs;
mod scan;
mod sides;
mod sink;
mod split;
#[cfg(test)]
mod tests;
mod write;

use serde_json::{Map, Value};

use crate::apply::apply_owned;
use crate::error::{DocRole, JsonPath, PatchError};
use crate::input::parse_json;
use crate::schema::Node;

use canon::{MAX_TEXT, PLACEHOLDER_BASE};
pub use create::{diff_json, three_way_json};
use scan::Scanner;
pub use split::{JsonObjects, JsonTypeMeta, json_objects, json_type_meta};

/// Applies the strategic merge patch `patch` to `original`, both JSON text, and returns the
/// result as compact JSON with object keys sorted.
///
/// Both documents are read as [`crate::input::parse_json`] reads them (strict JSON: duplicate
/// keys and nesting deeper than 128 levels are errors). The result and any error are those of
/// parsing both and calling [`crate::apply_owned`], then `serde_json::to_string`; only the parts
/// of `original` the patch touches are ever built as `Value`s, so the cost follows the patch
/// plus one pass over the original's text.
pub fn apply_json<'s>(
    original: &str,
    patch: &str,
    schema: impl Into<Node<'s>>,
) -> Result<String, PatchError> {
    apply_json_routed(original, patch, schema).0
}

/// Which way [`apply_json_routed`] produced its answer. Not a public API: tests use it to check
/// that the fast path is the one taken.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The sparse path: its result, or the engine's error on the sparse tree.
    Sparse,
    /// An input is not strict JSON; the strict reader's error is returned.
    Invalid,
    /// The reference path ran, for the reason given.
    Reference(&'static str),
}

/// [`apply_json`], also saying which way the answer was produced.
#[doc(hidden)]
pub fn apply_json_routed<'s>(
    original: &str,
    patch: &str,
    schema: impl Into<Node<'s>>,
) -> (Result<String, PatchError>, Route) {
    let node = schema.into();
    let patch = match parse_json(patch, DocRole::Patch) {
        Ok(patch) => patch,
        // The reference reads the original first, so its error comes first.
        Err(e) => {
            return (
                parse_json(original, DocRole::Original).and(Err(e)),
                Route::Invalid,
            );
        }
    };
    routed(original, &patch, node)
}

/// [`apply_json`] of a patch parsed already (by [`crate::input::parse_json`] or built in code):
/// for one patch applied to many documents, as `smp patch` applies it to each item of a List.
pub fn apply_text<'s>(
    original: &str,
    patch: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<String, PatchError> {
    routed(original, patch, schema.into()).0
}

fn routed(original: &str, patch: &Value, node: Node<'_>) -> (Result<String, PatchError>, Route) {
    let unguided = Map::new();
    let guide = match patch {
        Value::Object(map) => map,
        Value::Null => &unguided,
        _ => return reference(original, patch, node, "the patch is not an object"),
    };
    if has_reserved_number(patch) {
        return reference(
            original,
            patch,
            node,
            "the patch holds a placeholder-range number",
        );
    }
    if !starts_object(original) {
        return reference(original, patch, node, "the original is not an object");
    }
    if original.len() > MAX_TEXT {
        return reference(original, patch, node, "the original is longer than 1 GiB");
    }

    let mut scanner = Scanner::new(original);
    let doc = match guide::document(&mut scanner, guide, node) {
        Ok(doc) => doc,
        Err(_) => {
            return match parse_json(original, DocRole::Original) {
                Err(e) => (Err(e), Route::Invalid),
                // Cannot happen: the scanner accepts what the reader accepts.
                Ok(doc) => (
                    finish(doc, patch, node),
                    Route::Reference("the scanner rejected a document the reader accepts"),
                ),
            };
        }
    };
    if scanner.collision {
        return reference(
            original,
            patch,
            node,
            "the original holds a placeholder-range number",
        );
    }
    let out = match apply_owned(doc, patch, node) {
        Ok(out) => out,
        Err(e) => return (Err(e), Route::Sparse),
    };
    // The original's length: its copy is compact, and patches are small.
    match write::document(&out, &scanner.canon, original.len()) {
        Some(text) => (Ok(text), Route::Sparse),
        // Cannot happen: every placeholder in the tree came from the scanner.
        None => reference(original, patch, node, "a placeholder was not found"),
    }
}

/// Whether JSON text starts (after JSON whitespace) as an object.
fn starts_object(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
}

/// The reference path, for inputs the sparse path does not take.
fn reference(
    original: &str,
    patch: &Value,
    node: Node<'_>,
    why: &'static str,
) -> (Result<String, PatchError>, Route) {
    let result = parse_json(original, DocRole::Original).and_then(|doc| finish(doc, patch, node));
    (result, Route::Reference(why))
}

fn finish(original: Value, patch: &Value, node: Node<'_>) -> Result<String, PatchError> {
    let out = apply_owned(original, patch, node)?;
    // Writing a `Value` to a string cannot fail; report it rather than panic if it ever did.
    serde_json::to_string(&out).map_err(|e| PatchError::Deserialize {
        path: JsonPath::root(),
        detail: e.to_string(),
    })
}

/// Whether `value` holds a number a placeholder could be mistaken for.
fn has_reserved_number(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.as_u64().is_some_and(|u| u >= PLACEHOLDER_BASE),
        Value::Array(items) => items.iter().any(has_reserved_number),
        Value::Object(map) => map.values().any(has_reserved_number),
        _ => false,
    }
}
