//! Typed diff of a list merged by key.
//!
//! What a controller's diff of two objects usually meets: two lists of structs with distinct
//! keys, mostly equal. The engine serializes both lists whole to compare them; here items are
//! paired by key, equal items are skipped after a field-by-field comparison, and only changed
//! items build JSON. The output follows the engine's rules exactly (see
//! [`crate::diff`]'s list diff): changed and added items in the modified list's order, then
//! `$patch: delete` items sorted by upstream's printed key, then `$setElementOrder`.
//! Anything else — duplicate or missing keys, `retainKeys` items, recommended keys, an empty
//! original, types that do not diff natively — goes through the engine for this one list.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::apply::directive::directive_key;
use crate::diff::SET_ELEMENT_ORDER;
use crate::error::PatchError;
use crate::schema::{Node, TypeDef};

use super::list::{Keys, distinct_keys};
use super::out::ListOut;
use super::{KeyRef, Out, PatchField, to_value};

/// `None`: not a case handled natively, and nothing was written to `out`.
pub(super) fn diff<T: PatchField>(
    original: &[T],
    modified: &[T],
    name: &str,
    parent: Node<'static>,
    out: &mut Out<'_>,
    path: &Path<'_>,
) -> Option<Result<(), PatchError>> {
    if original.is_empty() {
        return None;
    }
    let meta = parent.field(name);
    // Recommended keys: identities of several fields, which the engine handles.
    if !meta.recommended.is_empty() {
        return None;
    }
    let (true, false, Some(mk), TypeDef::Struct(_)) = (
        meta.strategy.merges_lists(),
        meta.strategy.retain_keys,
        meta.merge_key,
        T::DEF,
    ) else {
        return None;
    };
    let old = Keys::of(original, mk)?;
    let old_keys = &old.keys;
    let new_keys = distinct_keys(modified, mk)?;

    let here = path.field(name);
    if let Err(e) = here.check_depth() {
        return Some(Err(e));
    }
    // `$setElementOrder/name` sorts before `name`: written first when the list may need it
    // (the text is then in key order as it is written), and taken back if it does not.
    let options = out.options();
    let early =
        (options.set_element_order && (out.changes() || out.deletions()) && !new_keys.is_empty())
            .then(|| {
                let order_key = directive_key(SET_ELEMENT_ORDER, name);
                let retract = out.early_key_list(&order_key, mk, &new_keys);
                (order_key, retract)
            });
    let mut patch = out.begin_list(name);
    let written = items(
        original, modified, &old, &new_keys, mk, &here, out, &mut patch,
    );
    let kept = match written {
        Some(Ok(kept)) => kept,
        Some(Err(e)) => return Some(Err(e)),
        None => {
            out.abandon_list(patch);
            if let Some((order_key, retract)) = early {
                out.retract(&order_key, retract);
            }
            return None;
        }
    };

    let deletions = out.deletions();
    let mut deleted: Vec<(Cow<'_, str>, usize)> = if deletions {
        (0..original.len())
            .filter(|&oi| !kept.get(oi))
            .map(|oi| (old_keys[oi].printed(), oi))
            .collect()
    } else {
        Vec::new()
    };
    deleted.sort();
    for (_, oi) in deleted {
        let mut d = Map::new();
        d.insert(mk.to_owned(), old_keys[oi].to_value());
        d.insert(
            crate::apply::directive::PATCH.to_owned(),
            Value::String("delete".to_owned()),
        );
        out.push_item(&mut patch, Value::Object(d));
    }

    let order_same = *old_keys == new_keys;
    // The engine's rule (`diff::lists`); an empty order says nothing, and the engine leaves it
    // out.
    let order = options.set_element_order
        && ((out.changes() && (!patch.is_empty() || !order_same))
            || (deletions && !patch.is_empty()));
    // The order was written early whenever the rule can hold (it needs changes or deletions)
    // and there are keys to list.
    match early {
        // Written early only with changes or deletions, so an order not needed means an empty
        // list patch: nothing written since the order is lost.
        Some((order_key, retract)) if !order => {
            out.abandon_list(patch);
            out.retract(&order_key, retract);
        }
        _ => out.end_list(name, patch),
    }
    Some(Ok(()))
}

/// Writes the changed and added items of `modified` to `patch`, in its order; returns which
/// items of `original` it keeps. `None` when an item type does not diff natively.
#[allow(clippy::too_many_arguments)]
fn items<T: PatchField>(
    original: &[T],
    modified: &[T],
    old: &Keys<'_>,
    new_keys: &[KeyRef<'_>],
    mk: &str,
    here: &Path<'_>,
    out: &mut Out<'_>,
    patch: &mut ListOut,
) -> Option<Result<Kept, PatchError>> {
    let old_keys = &old.keys;
    let mut kept = Kept::new(original.len());
    // The position after the last item found: where the next one is when items were removed
    // or added before it and the rest kept their order.
    let mut after_last = 0;
    for (mi, (b, &key)) in modified.iter().zip(new_keys).enumerate() {
        let item_path = here.typed_item(mk, key);
        // Lists are mostly in the same order: look at the same position first, then after the
        // last item found (or one further, past a removed item), and only then in the index.
        let at = |i: usize| old_keys.get(i).is_some_and(|k| *k == key).then_some(i);
        let found = at(mi)
            .or_else(|| at(after_last))
            .or_else(|| at(after_last + 1))
            .or_else(|| old.position(key));
        let Some(oi) = found else {
            if out.changes() && !out.push_serialized(patch, b) {
                match to_value(b, &item_path) {
                    Ok(v) => out.push_item(patch, v),
                    Err(e) => return Some(Err(e)),
                }
            }
            continue;
        };
        kept.set(oi);
        after_last = oi + 1;
        let a = &original[oi];
        if a.same(b) && a.quiet() {
            continue;
        }
        if let Err(e) = item_path.check_depth() {
            return Some(Err(e));
        }
        match out.push_object(patch, (mk, key), |sub| a.diff_item(b, sub, &item_path))? {
            Ok(()) => {}
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(kept))
}

/// Which items of the original list the modified list keeps: bits in a word for lists of up
/// to 64 items (no allocation), flags beyond.
enum Kept {
    Word(u64),
    Flags(Vec<bool>),
}

impl Kept {
    fn new(len: usize) -> Kept {
        if len <= 64 {
            Kept::Word(0)
        } else {
            Kept::Flags(vec![false; len])
        }
    }

    fn set(&mut self, i: usize) {
        match self {
            Kept::Word(w) => *w |= 1 << i,
            Kept::Flags(f) => {
                if let Some(flag) = f.get_mut(i) {
                    *flag = true;
                }
            }
        }
    }

    fn get(&self, i: usize) -> bool {
        match self {
            Kept::Word(w) => i < 64 && w & (1 << i) != 0,
            Kept::Flags(f) => f.get(i).copied().unwrap_or(false),
        }
    }
}
