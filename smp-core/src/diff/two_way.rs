//! The two-way diff of two objects.

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::apply::directive::directive_key;
use crate::error::PatchError;
use crate::schema::embedded;
use crate::schema::{BaseStrategy, Node};

use super::composite;
use super::lists::diff_lists;
use super::printed::same_kind;
use super::{DiffOptions, lookup};

// One vocabulary for applying and creating patches.
pub(crate) use crate::apply::directive::{
    DELETE_FROM_PRIMITIVE_LIST, PATCH, RETAIN_KEYS, SET_ELEMENT_ORDER,
};

/// The patch turning `original` into `modified` at one object level. `retain_keys`: this level
/// belongs to a `retainKeys` field (or item of a `merge,retainKeys` list).
pub(crate) fn diff_maps(
    original: &Map<String, Value>,
    modified: &Map<String, Value>,
    node: Node<'_>,
    options: &DiffOptions,
    retain_keys: bool,
    path: &Path<'_>,
) -> Result<Map<String, Value>, PatchError> {
    path.check_depth()?;
    let embedded = node.is_embedded();
    let node = node.across(original, modified);
    let mut patch = Map::new();
    let changes = !options.ignore_changes_and_additions;
    let deletions = !options.ignore_deletions;
    join(original, modified, |key, old, new| {
        let (old, new) = match (old, new) {
            (Some(old), None) => {
                path.field(key).check_nesting(old)?;
                if deletions {
                    patch.insert(key.clone(), Value::Null);
                }
                return Ok(());
            }
            (None, Some(new)) => {
                path.field(key).check_nesting(new)?;
                if changes {
                    patch.insert(key.clone(), new.clone());
                }
                return Ok(());
            }
            (Some(old), Some(new)) => (old, new),
            (None, None) => return Ok(()),
        };
        member(key, old, new, node, options, path, &mut patch)
    })?;

    if retain_keys {
        let mut names: Vec<&String> = modified
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, _)| k)
            .collect();
        let extra = original
            .iter()
            .any(|(k, v)| !v.is_null() && !modified.contains_key(k));
        if !names.is_empty() && (!patch.is_empty() || extra) {
            names.sort();
            let list = names
                .into_iter()
                .map(|k| Value::String(k.clone()))
                .collect();
            patch.insert(RETAIN_KEYS.to_owned(), Value::Array(list));
        }
    }
    if embedded && !patch.is_empty() {
        embedded::stamp(&mut patch, modified);
    }
    Ok(patch)
}

/// The patch for member `key`, present on both sides, into `patch`.
fn member(
    key: &String,
    old: &Value,
    new: &Value,
    node: Node<'_>,
    options: &DiffOptions,
    path: &Path<'_>,
    patch: &mut Map<String, Value>,
) -> Result<(), PatchError> {
    let changes = !options.ignore_changes_and_additions;
    if key == PATCH {
        let (Some(a), Some(b)) = (old.as_str(), new.as_str()) else {
            return Err(PatchError::BadDirective {
                path: path.to_json_path(),
                directive: PATCH.to_owned(),
                expected: "a string",
            });
        };
        if a != b {
            patch.insert(key.clone(), new.clone());
        }
        return Ok(());
    }
    if !same_kind(old, new) {
        whole(key, old, new, path)?;
        if changes {
            patch.insert(key.clone(), new.clone());
        }
        return Ok(());
    }
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let Some(meta) = lookup(node, key, old, new, path)? else {
                return Ok(());
            };
            if meta.strategy.base == BaseStrategy::Replace {
                whole(key, old, new, path)?;
                if changes && !(meta.omit_unchanged && a == b) {
                    patch.insert(key.clone(), new.clone());
                }
            } else {
                let sub = diff_maps(
                    a,
                    b,
                    meta.node,
                    options,
                    meta.strategy.retain_keys,
                    &path.field(key),
                )?;
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            let Some(meta) = lookup(node, key, old, new, path)? else {
                return Ok(());
            };
            if meta.strategy.merges_lists() {
                let here = path.field(key);
                let tagged = if composite::by_identity(&meta) {
                    whole(key, old, new, path)?;
                    let directive = meta.directive;
                    composite::tag(a, meta.recommended, directive).zip(composite::tag(
                        b,
                        meta.recommended,
                        directive,
                    ))
                } else {
                    None
                };
                let lists = match &tagged {
                    Some((a, b)) => diff_lists(a, b, composite::effective(meta), options, &here)?,
                    None => diff_lists(a, b, meta, options, &here)?,
                };
                if !lists.patch.is_empty() {
                    patch.insert(key.clone(), Value::Array(lists.patch));
                }
                if !lists.deletions.is_empty() {
                    patch.insert(
                        directive_key(DELETE_FROM_PRIMITIVE_LIST, key),
                        Value::Array(lists.deletions),
                    );
                }
                if !lists.order.is_empty() {
                    patch.insert(
                        directive_key(SET_ELEMENT_ORDER, key),
                        Value::Array(lists.order),
                    );
                }
            } else {
                whole(key, old, new, path)?;
                if changes && old != new {
                    let whole = if meta.recommended.is_empty() {
                        new.clone()
                    } else {
                        composite::whole(a, b, meta.recommended, meta.node.items())
                    };
                    patch.insert(key.clone(), whole);
                }
            }
        }
        _ => {
            if changes && old != new {
                patch.insert(key.clone(), new.clone());
            }
        }
    }
    Ok(())
}

/// Checks the nesting of member `key`'s two values, which the caller compares or copies whole
/// (the diff's own walk checks the depth level by level).
pub(super) fn whole(
    key: &str,
    old: &Value,
    new: &Value,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let here = path.field(key);
    here.check_nesting(old)?;
    here.check_nesting(new)
}

/// The order of two keys, equal ones found without a `memcmp` call.
fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    if crate::json_text::same_bytes(a.as_bytes(), b.as_bytes()) {
        std::cmp::Ordering::Equal
    } else {
        a.cmp(b)
    }
}

/// Visits every key of either map with its value on each side. Maps are sorted by key (the
/// default `serde_json::Map`), which makes this one merge walk; a map in insertion order
/// (serde_json's `preserve_order`, which another crate may switch on) is visited with lookups.
fn join<'a>(
    original: &'a Map<String, Value>,
    modified: &'a Map<String, Value>,
    mut visit: impl FnMut(&'a String, Option<&'a Value>, Option<&'a Value>) -> Result<(), PatchError>,
) -> Result<(), PatchError> {
    if !crate::json_text::maps_are_sorted() {
        for (key, new) in modified {
            visit(key, original.get(key), Some(new))?;
        }
        for (key, old) in original {
            if !modified.contains_key(key) {
                visit(key, Some(old), None)?;
            }
        }
        return Ok(());
    }
    let mut a = original.iter().peekable();
    let mut b = modified.iter().peekable();
    loop {
        match (a.peek(), b.peek()) {
            (None, None) => return Ok(()),
            (Some(&(ka, va)), None) => {
                a.next();
                visit(ka, Some(va), None)?;
            }
            (None, Some(&(kb, vb))) => {
                b.next();
                visit(kb, None, Some(vb))?;
            }
            // Keys mostly pair up: equality is tested in place first, the order only if not.
            (Some(&(ka, va)), Some(&(kb, vb))) => match key_order(ka, kb) {
                std::cmp::Ordering::Less => {
                    a.next();
                    visit(ka, Some(va), None)?;
                }
                std::cmp::Ordering::Greater => {
                    b.next();
                    visit(kb, None, Some(vb))?;
                }
                std::cmp::Ordering::Equal => {
                    a.next();
                    b.next();
                    visit(kb, Some(va), Some(vb))?;
                }
            },
        }
    }
}
