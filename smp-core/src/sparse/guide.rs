//! Which parts of the original the engine will look at, read off the patch and the schema.
//!
//! The invariant: the engine never inspects a placeholder beyond keeping it, removing it, or
//! dropping it with its parent. So a member is materialized when the patch names it (directly,
//! or through `$setElementOrder/<f>` / `$deleteFromPrimitiveList/<f>`) *and* the engine will
//! look inside it:
//! - a live object under a patch object merges (unless its strategy is `replace`, when the
//!   engine takes the patch value and only the object's type matters);
//! - a live list under a patch list is merged by key when the strategy says so: each item is an
//!   object shell whose merge key (and `$patch`, which `$setElementOrder` reads) is read in full,
//!   and an item the patch names by key is read as that patch item guides (when the engine will
//!   keep the list's order and touch only the named items, the other items are not even shells:
//!   see `runs`); other lists are taken from the patch whole, so only their type matters;
//! - a list named by a directive, a list without a merge key, and any list item that is not an
//!   object (primitive sets compare whole values; kinds decide errors) are read in full;
//! - so is an embedded resource the patch reaches (and a merged list of them): its own
//!   `apiVersion` and `kind`, wherever they sit in it, decide its type.
//!
//! Everything else is a placeholder: a member the engine replaces or removes whatever it holds,
//! and the members the patch does not name, which are copied together, one placeholder for all
//! of them in an object (see `scan::rest`; unless the patch has `$retainKeys`, which goes
//! through every member).

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::apply::directive::{
    DELETE_FROM_PRIMITIVE_LIST, PATCH, PATCH_MERGE_KEY, RETAIN_KEYS, SET_ELEMENT_ORDER,
};
use crate::schema::{BaseStrategy, FieldMeta, Node};

use super::runs;
use super::scan::{Invalid, Scanner};

/// The member by which an item shell says "I am the whole item, placeholder `n`": the item's
/// other members are never read, since the engine looks only at its merge key and `$patch`.
/// A live member of this name is always read in full, so it never holds a placeholder.
pub(super) const WHOLE_ITEM: &str = "\u{0}smp-sparse:whole-item";

/// The members by which a named item of a list read as runs (see `runs`) carries the run of
/// unnamed items before it, and (the last named item) the run after it.
pub(super) const RUN_BEFORE: &str = "\u{0}smp-sparse:run-before";
pub(super) const RUN_AFTER: &str = "\u{0}smp-sparse:run-after";

/// The member under which an object the patch reaches holds the members it does not name,
/// copied together (see `scan::rest`).
pub(super) const REST: &str = "\u{0}smp-sparse:rest";

/// Whether `key` is (or could be mistaken for) one of the hidden members above: a live member
/// of such a name is always read in full, so a placeholder under one is always ours.
pub(super) fn is_hidden(key: &str) -> bool {
    key.starts_with("\u{0}smp-sparse:")
}

/// Reads the whole original (an object) as `patch` guides, checking that nothing follows it.
pub(super) fn document(
    sc: &mut Scanner<'_>,
    patch: &Map<String, Value>,
    node: Node<'_>,
) -> Result<Value, Invalid> {
    sc.peek_value();
    let doc = object(sc, patch, node, None)?;
    sc.finish()?;
    Ok(doc)
}

/// The fields a patch object's list directives name, sorted (each original member looks
/// itself up: a search, not a scan of the directives).
#[derive(Default)]
struct Targets<'p> {
    /// `$deleteFromPrimitiveList/<f>`: compares whole items, read in full.
    full: Vec<&'p str>,
    /// `$setElementOrder/<f>`: merged and ordered by key; with the order list.
    ordered: Vec<(&'p str, &'p Value)>,
}

impl<'p> Targets<'p> {
    fn of(patch: &'p Map<String, Value>) -> Targets<'p> {
        let mut targets = Targets::default();
        for (key, value) in patch.iter().filter(|(k, _)| k.starts_with('$')) {
            // The engine's reading of `<directive>/<field>`; other spellings are its errors.
            match key.split_once('/') {
                Some((DELETE_FROM_PRIMITIVE_LIST, field)) => targets.full.push(field),
                Some((SET_ELEMENT_ORDER, field)) => targets.ordered.push((field, value)),
                _ => {}
            }
        }
        targets.full.sort_unstable();
        targets.ordered.sort_unstable_by_key(|(field, _)| *field);
        targets
    }

    /// Whether `$deleteFromPrimitiveList/<field>` is in the patch.
    fn deletes_from(&self, field: &str) -> bool {
        self.full.binary_search(&field).is_ok()
    }

    /// The order list of `$setElementOrder/<field>`, if the patch has one.
    fn order_of(&self, field: &str) -> Option<&'p Value> {
        let at = self.ordered.binary_search_by_key(&field, |(f, _)| f).ok()?;
        Some(self.ordered[at].1)
    }
}

/// Reads the object at the scanner as `patch` guides. `item_key` is the merge key when the
/// object is an item of a list merged by key.
pub(super) fn object(
    sc: &mut Scanner<'_>,
    patch: &Map<String, Value>,
    node: Node<'_>,
    item_key: Option<&str>,
) -> Result<Value, Invalid> {
    let targets = Targets::of(patch);
    let mut map = Map::new();
    if sc.open()? {
        return Ok(Value::Object(map));
    }
    // The engine goes through every member for `$retainKeys`, and reads an embedded
    // resource's kind: then each member stands on its own.
    let gather = !patch.contains_key(RETAIN_KEYS) && !node.is_embedded();
    let mut rest = sc.rest();
    loop {
        let key = sc.copy_key()?;
        let name = sc.key_text(&key)?;
        if gather && unnamed(&name, patch, &targets, item_key) {
            sc.copy_into(&mut rest, key)?;
        } else {
            sc.uncopy_key(&key);
            let value = member(sc, &name, patch, &targets, node, item_key)?;
            if map.insert(name.into_owned(), value).is_some() {
                return Err(Invalid);
            }
        }
        if !sc.next_or_close(b'}')? {
            break;
        }
    }
    sc.close_rest(rest, &mut map, REST)?;
    Ok(Value::Object(map))
}

/// Whether the engine never reads member `key` of a live object whose patch is `patch`: no
/// patch member or list directive names it, and it is not an item's merge key or `$patch`
/// (see [`member`], which reads every other member).
fn unnamed(
    key: &str,
    patch: &Map<String, Value>,
    targets: &Targets<'_>,
    item_key: Option<&str>,
) -> bool {
    let special = item_key == Some(key)
        || (item_key.is_some() && key == PATCH)
        || is_hidden(key)
        || targets.deletes_from(key)
        || targets.order_of(key).is_some();
    !special && (is_directive(key) || !patch.contains_key(key))
}

/// Whether patch key `key` is one the engine reads as a directive, naming no member.
fn is_directive(key: &str) -> bool {
    key.starts_with('$')
        && (key == PATCH
            || key == RETAIN_KEYS
            || key == PATCH_MERGE_KEY
            || key.starts_with(SET_ELEMENT_ORDER)
            || key.starts_with(DELETE_FROM_PRIMITIVE_LIST))
}

/// Reads the value of member `key` of a live object whose patch is `patch`.
fn member(
    sc: &mut Scanner<'_>,
    key: &str,
    patch: &Map<String, Value>,
    targets: &Targets<'_>,
    node: Node<'_>,
    item_key: Option<&str>,
) -> Result<Value, Invalid> {
    let is_item = item_key.is_some();
    if item_key == Some(key)
        || (is_item && key == PATCH)
        || is_hidden(key)
        || targets.deletes_from(key)
    {
        return sc.value_full();
    }
    // A list merged by `$patchMergeKey` compares items by several fields: read it whole.
    let carries = |v: Option<&Value>| {
        v.and_then(Value::as_array)
            .is_some_and(|items| items.iter().any(|i| i.get(PATCH_MERGE_KEY).is_some()))
    };
    let order = targets.order_of(key);
    if carries(patch.get(key)) || carries(order) {
        return sc.value_full();
    }
    let next = sc.peek_value();
    if order.is_some() {
        if next != Some(b'[') {
            // Not a list: the engine fails naming its type.
            return sc.value_full();
        }
        let patch_list = patch.get(key).and_then(Value::as_array);
        return list(sc, patch_list.map(Vec::as_slice), node.field(key));
    }
    // A patch key the engine reads as a directive names no member.
    let named = if is_directive(key) {
        None
    } else {
        patch.get(key)
    };
    match (named, next) {
        (Some(Value::Object(sub)), Some(b'{')) => {
            let meta = node.field(key);
            if meta.strategy.base == BaseStrategy::Replace {
                sc.skip_value()?;
                Ok(Value::Object(Map::new()))
            } else if meta.node.is_embedded() {
                // Typed by its own kind, which may come after any member: read in full.
                sc.value_full()
            } else {
                object(sc, sub, meta.node, None)
            }
        }
        (Some(Value::Array(items)), Some(b'[')) => {
            let meta = node.field(key);
            if meta.strategy.merges_lists() {
                if let Some(read) = runs_of(sc, items, meta)? {
                    return Ok(read);
                }
                list(sc, Some(items), meta)
            } else {
                sc.skip_value()?;
                Ok(Value::Array(Vec::new()))
            }
        }
        _ => sc.placeholder(),
    }
}

/// Reads the list at the scanner as runs and named items (see `runs`) when its metadata allows:
/// merged by one declared key, items typed by the schema.
fn runs_of(
    sc: &mut Scanner<'_>,
    patch: &[Value],
    meta: FieldMeta<'_>,
) -> Result<Option<Value>, Invalid> {
    let node = meta.node.items();
    match meta.merge_key {
        Some(merge_key)
            if !meta.composite
                && meta.recommended.is_empty()
                && !node.is_embedded()
                && !is_hidden(merge_key) =>
        {
            runs::list(sc, patch, merge_key, node)
        }
        _ => Ok(None),
    }
}

/// Reads the list at the scanner, to be merged with `patch` (if any) under `meta`.
fn list(
    sc: &mut Scanner<'_>,
    patch: Option<&[Value]>,
    meta: FieldMeta<'_>,
) -> Result<Value, Invalid> {
    let node = meta.node.items();
    // Items typed by their own kind (see `object`) are read in full.
    let (Some(merge_key), false) = (meta.merge_key, node.is_embedded()) else {
        return sc.value_full();
    };
    let mut claims = Claims::new(patch.unwrap_or_default(), merge_key);
    let mut items = Vec::new();
    if sc.open()? {
        return Ok(Value::Array(items));
    }
    loop {
        let item = if sc.peek_value() == Some(b'{') {
            item(sc, merge_key, &mut claims, node)?
        } else {
            sc.value_full()?
        };
        items.push(item);
        if !sc.next_or_close(b']')? {
            return Ok(Value::Array(items));
        }
    }
}

/// The patch list items with a merge key (those the engine may merge into a live item), and
/// which keys a live item has claimed.
struct Claims<'p> {
    keyed: Vec<(&'p Value, &'p Map<String, Value>, bool)>,
    /// For long patch lists, the positions in `keyed` of each string key.
    by_name: Option<HashMap<&'p str, Vec<usize>>>,
}

impl<'p> Claims<'p> {
    fn new(patch: &'p [Value], merge_key: &str) -> Claims<'p> {
        let keyed: Vec<_> = patch
            .iter()
            .filter_map(|item| {
                let map = item.as_object()?;
                Some((map.get(merge_key)?, map, false))
            })
            .collect();
        let by_name = (keyed.len() > 16).then(|| {
            let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
            for (i, (key, _, _)) in keyed.iter().enumerate() {
                if let Value::String(name) = key {
                    index.entry(name.as_str()).or_default().push(i);
                }
            }
            index
        });
        Claims { keyed, by_name }
    }

    /// Claims `key` for a live item unless an earlier one did: how many patch items have it,
    /// and one of them.
    fn claim(&mut self, key: &Value) -> (usize, Option<&'p Map<String, Value>>) {
        let (mut named, mut guide) = (0, None);
        let mut take = |entry: &mut (&'p Value, &'p Map<String, Value>, bool)| {
            if !entry.2 {
                entry.2 = true;
                named += 1;
                guide = Some(entry.1);
            }
        };
        match (&self.by_name, key) {
            (Some(index), Value::String(name)) => {
                for &i in index.get(name.as_str()).into_iter().flatten() {
                    self.keyed.get_mut(i).map(&mut take);
                }
            }
            _ => self
                .keyed
                .iter_mut()
                .filter(|entry| entry.0 == key)
                .for_each(&mut take),
        }
        (named, guide)
    }
}

/// Reads an object item of a list merged by `merge_key`.
///
/// The engine merges a patch item into the *first* live item with its key. That item is read as
/// the patch item guides and claims the key; it is read in full when several patch items have
/// the key. Every other item is copied whole and stands as a shell holding its merge key, its
/// `$patch` and [`WHOLE_ITEM`]: a later item with a claimed key must not be read
/// as guided, since guided reading leaves out what the merge would replace.
fn item(
    sc: &mut Scanner<'_>,
    merge_key: &str,
    claims: &mut Claims<'_>,
    node: Node<'_>,
) -> Result<Value, Invalid> {
    if merge_key == WHOLE_ITEM {
        return object(sc, &Map::new(), node, Some(merge_key));
    }
    // The key usually comes first: peek at it. Otherwise copy the item to learn its key, and
    // read it again if it is named. The shell's members are read into the map the item will
    // be (moving maps and values around costs more than building them in place).
    let mark = sc.mark();
    let early = sc.first_member(merge_key);
    let mut shell = Map::new();
    let copied = match early {
        Some(_) => None,
        None => Some(sc.whole_object([merge_key, PATCH], &mut shell)?),
    };
    let key = early.as_ref().or_else(|| shell.get(merge_key));
    let (named, guide) = match key {
        Some(key) => claims.claim(key),
        None => (0, None),
    };
    match (named, guide) {
        (1, Some(guide)) => {
            sc.reset(mark);
            object(sc, guide, node, Some(merge_key))
        }
        (0, _) => {
            let whole = match copied {
                Some(whole) => whole,
                None => sc.whole_object([PATCH, PATCH], &mut shell)?,
            };
            if let Some(key) = early {
                shell.insert(merge_key.to_owned(), key);
            }
            shell.insert(WHOLE_ITEM.to_owned(), whole);
            Ok(Value::Object(shell))
        }
        _ => {
            sc.reset(mark);
            sc.value_full()
        }
    }
}
