//! Conflict predicates: with a schema ([`merging_maps_have_conflicts`]) and without
//! ([`has_conflicts`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::error::{JsonPath, PatchError};
use crate::schema::{BaseStrategy, Node, Strategy};

use super::lists::keyed;
use super::printed::{Kind, Pairing, dedup, item_kind, pairing, sort_by_pairing};
use super::two_way::{PATCH, RETAIN_KEYS};

/// Whether two patches disagree (upstream `MergingMapsHaveConflicts`): some member present in
/// both is changed differently. Fields the schema does not know are compared with the default
/// strategy. `null` counts as `{}`.
pub fn merging_maps_have_conflicts<'s>(
    left: &Value,
    right: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<bool, PatchError> {
    let empty = Value::Object(Map::new());
    let left = if left.is_null() { &empty } else { left };
    let right = if right.is_null() { &empty } else { right };
    Ok(first_conflict(left, right, schema.into())?.is_some())
}

/// Where two patches conflict, and what each says there.
pub(crate) struct Found {
    pub(crate) path: JsonPath,
    /// The left patch's value there, in JSON, shortened.
    pub(crate) left: String,
    /// The right patch's value there, in JSON, shortened.
    pub(crate) right: String,
}

/// The longest excerpt of a value a conflict message shows: the patches may be megabytes.
const EXCERPT: usize = 120;

fn excerpt(v: &Value) -> String {
    let text = v.to_string();
    if text.len() <= EXCERPT {
        return text;
    }
    let mut end = EXCERPT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &text[..end], text.len())
}

/// The first place where the two patches conflict, if any.
pub(crate) fn first_conflict(
    left: &Value,
    right: &Value,
    node: Node<'_>,
) -> Result<Option<Found>, PatchError> {
    conflict(left, right, node, Strategy::DEFAULT, None, &Path::root())
}

/// Where two values of one member conflict: the deepest member whose values conflict (inside
/// the items of lists merged by key and of lists compared by position; a list of a different
/// length at the list, a scalar at its member, an object whose `$patch` markers differ at
/// itself). `None` when they do not conflict.
fn conflict(
    left: &Value,
    right: &Value,
    node: Node<'_>,
    strategy: Strategy,
    merge_key: Option<&str>,
    path: &Path<'_>,
) -> Result<Option<Found>, PatchError> {
    path.check_depth()?;
    let here = || {
        Some(Found {
            path: path.to_json_path(),
            left: excerpt(left),
            right: excerpt(right),
        })
    };
    match (left, right) {
        (Value::Object(l), Value::Object(r)) => {
            let node = node.for_patches(l, r);
            let (lm, rm) = (l.get(PATCH), r.get(PATCH));
            if (lm.is_some() || rm.is_some()) && lm != rm {
                return Ok(here());
            }
            if strategy.base == BaseStrategy::Replace {
                return Ok(None);
            }
            for (key, lv) in l {
                if key == PATCH || key == RETAIN_KEYS {
                    continue;
                }
                let Some(rv) = r.get(key) else { continue };
                let meta = super::composite::effective(node.field(key));
                let found = conflict(
                    lv,
                    rv,
                    meta.node,
                    meta.strategy,
                    meta.merge_key,
                    &path.field(key),
                )?;
                if found.is_some() {
                    return Ok(found);
                }
            }
            Ok(None)
        }
        (Value::Array(l), Value::Array(r)) => match lists(l, r, node, strategy, merge_key, path)? {
            Lists::Agree => Ok(None),
            Lists::Differ => Ok(here()),
            Lists::At(found) => Ok(Some(found)),
        },
        (Value::Object(_), _) | (Value::Array(_), _) => Ok(here()),
        (_, _) => Ok(if scalar_eq(left, right) { None } else { here() }),
    }
}

/// What comparing two lists found.
enum Lists {
    Agree,
    /// They differ as lists (length, set members).
    Differ,
    /// A pair of items conflicts, there.
    At(Found),
}

fn lists(
    left: &[Value],
    right: &[Value],
    node: Node<'_>,
    strategy: Strategy,
    merge_key: Option<&str>,
    path: &Path<'_>,
) -> Result<Lists, PatchError> {
    let kind = item_kind(&[left, right], path)?;
    let items = node.items();
    if strategy.merges_lists() {
        if kind != Some(Kind::Object) {
            return Ok(Lists::Agree);
        }
        let Some(mk) = merge_key else {
            return Err(PatchError::WrongType {
                path: path.to_json_path(),
                expected: "a declared merge key for a merged list of objects",
                found: "none in the schema",
            });
        };
        let by_key = |list: &'_ [Value]| -> Result<BTreeMap<Pairing<'static>, usize>, PatchError> {
            let mut out = BTreeMap::new();
            for (i, item) in list.iter().enumerate() {
                let (_, k) = keyed(item, mk, path, i)?;
                out.insert(pairing(k).into_owned(), i);
            }
            Ok(out)
        };
        let (lm, rm) = (by_key(left)?, by_key(right)?);
        for (k, &li) in &lm {
            if let Some(&ri) = rm.get(k) {
                let here = path.item(Some(mk), &left[li], li);
                if let Some(found) =
                    conflict(&left[li], &right[ri], items, Strategy::DEFAULT, None, &here)?
                {
                    return Ok(Lists::At(found));
                }
            }
        }
        return Ok(Lists::Agree);
    }
    if left.len() != right.len() {
        return Ok(Lists::Differ);
    }
    let (mut l, mut r) = (left.to_vec(), right.to_vec());
    if kind != Some(Kind::Object) {
        l = dedup(l);
        r = dedup(r);
        sort_by_pairing(&mut l);
        sort_by_pairing(&mut r);
        // Upstream would index past the shorter list here; a different count is a conflict.
        if l.len() != r.len() {
            return Ok(Lists::Differ);
        }
    }
    for (i, (a, b)) in l.iter().zip(&r).enumerate() {
        if let Some(found) = conflict(a, b, items, Strategy::DEFAULT, None, &path.index(i))? {
            return Ok(Lists::At(found));
        }
    }
    Ok(Lists::Agree)
}

/// Scalars are equal when of the same kind and value; integers and floats are different kinds.
fn scalar_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.is_f64() || y.is_f64() {
                x.is_f64() && y.is_f64() && x.as_f64() == y.as_f64()
            } else {
                let int = |n: &serde_json::Number| {
                    n.as_i64()
                        .map(i128::from)
                        .or_else(|| n.as_u64().map(i128::from))
                };
                int(x) == int(y)
            }
        }
        _ => a == b,
    }
}

/// The schema-less conflict predicate (upstream `mergepatch.HasConflicts`): objects conflict
/// when a member present in both conflicts, lists when their lengths differ or a pair at the
/// same index conflicts, values of different shapes always, scalars unless equal in kind and
/// value (the integer `1` and the float `1.0` differ).
pub fn has_conflicts(left: &Value, right: &Value) -> bool {
    // Iterative, so any depth is safe.
    let mut stack = vec![(left, right)];
    while let Some((l, r)) = stack.pop() {
        match (l, r) {
            (Value::Object(a), Value::Object(b)) => {
                for (k, v) in a {
                    if let Some(w) = b.get(k) {
                        stack.push((v, w));
                    }
                }
            }
            (Value::Array(a), Value::Array(b)) => {
                if a.len() != b.len() {
                    return true;
                }
                stack.extend(a.iter().zip(b));
            }
            (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
                return true;
            }
            _ => {
                if !scalar_eq(l, r) {
                    return true;
                }
            }
        }
    }
    false
}
