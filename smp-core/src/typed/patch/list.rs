//! The patches of merged lists: [`KeyedList`] (lists of objects merged by a key) and
//! [`SetList`] (lists of scalars merged as a set).

use std::fmt;

use serde_json::{Map, Value};

use super::{ValuePatch, wrong_type};
use crate::apply::Path;
use crate::error::PatchError;

/// Which item of a list merged by key a patch item means: the value of each key field, in the
/// order of the list's keys (its merge key, or the recommended keys of `$patchMergeKey`).
#[derive(Clone, PartialEq)]
pub struct Identity(Vec<(String, Value)>);

impl Identity {
    /// The fields and values, in order.
    pub fn fields(&self) -> &[(String, Value)] {
        &self.0
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for (k, v) in &self.0 {
            map.entry(k, v);
        }
        map.finish()
    }
}

/// A value a list item is identified by: a string, a number or a boolean. `From` lets builders
/// take `"app"`, `8080` or `true` as they are.
#[derive(Debug, Clone, PartialEq)]
pub struct Key(pub Value);

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key(Value::String(s.to_owned()))
    }
}

impl From<String> for Key {
    fn from(s: String) -> Key {
        Key(Value::String(s))
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Key {
        Key(Value::String(s.clone()))
    }
}

impl From<bool> for Key {
    fn from(b: bool) -> Key {
        Key(Value::Bool(b))
    }
}

macro_rules! int_key {
    ($($t:ty),*) => {$(
        impl From<$t> for Key {
            fn from(n: $t) -> Key {
                Key(Value::from(n))
            }
        }
    )*};
}

int_key!(i8, i16, i32, i64, u8, u16, u32, u64);

/// One item of a [`KeyedList`] patch.
#[derive(Debug, Clone, PartialEq)]
enum Item<P> {
    /// Merge `patch` into the item with this identity, or add it.
    Merge(Identity, P),
    /// `$patch: delete`: delete the item with this identity.
    Delete(Identity),
    /// `{"$patch": "replace"}`: the list becomes the patch's items. Kept where it stands, as
    /// a `$setElementOrder` check sees it among the items.
    Replace,
}

/// The patch of a list of objects merged by a key (`patchStrategy: merge`,
/// `patchMergeKey: name`): items merged into the item with the same key or added, items
/// deleted by key, the list's order (`$setElementOrder`), or the list replaced whole
/// (`$patch: replace`).
///
/// Every item is made with its key: [`item`](KeyedList::item) takes it, and reading a patch
/// whose item lacks it is an error naming the item.
#[derive(Clone, PartialEq)]
pub struct KeyedList<P> {
    key: &'static str,
    recommended: &'static [&'static str],
    items: Vec<Item<P>>,
    /// Whether the patch holds the list member (with `$setElementOrder` alone it does not;
    /// an empty list member is not the same patch as none).
    listed: bool,
    order: Option<Vec<Identity>>,
    /// `$patchMergeKey`: items are identified by these fields (the recommended keys).
    by_recommended: bool,
}

impl<P: fmt::Debug> fmt::Debug for KeyedList<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("KeyedList");
        s.field("key", &self.key);
        if self.listed {
            s.field("items", &self.items);
        }
        if let Some(order) = &self.order {
            s.field("order", order);
        }
        if self.by_recommended {
            s.field("patch_merge_key", &self.recommended);
        }
        s.finish()
    }
}

impl<P: Default> KeyedList<P> {
    /// An empty patch of a list merged by `key`, whose recommended keys (for `$patchMergeKey`)
    /// are `recommended` (empty when it has none). Generated builders make it; users get it
    /// from them.
    #[doc(hidden)]
    pub fn new(key: &'static str, recommended: &'static [&'static str]) -> KeyedList<P> {
        KeyedList {
            key,
            recommended,
            items: Vec::new(),
            listed: false,
            order: None,
            by_recommended: false,
        }
    }

    /// The list's merge key.
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// Merges `f(item patch)` into the item whose merge key is `key` (or adds it). The key is
    /// written into the item: the patch must not set the key field itself.
    pub fn item(mut self, key: impl Into<Key>, f: impl FnOnce(P) -> P) -> Self {
        let id = Identity(vec![(self.key.to_owned(), key.into().0)]);
        self.items.push(Item::Merge(id, f(P::default())));
        self.listed = true;
        self
    }

    /// Deletes the item whose merge key is `key` (`$patch: delete`).
    pub fn delete(mut self, key: impl Into<Key>) -> Self {
        let id = Identity(vec![(self.key.to_owned(), key.into().0)]);
        self.items.push(Item::Delete(id));
        self.listed = true;
        self
    }

    /// The order of the list after the patch (`$setElementOrder`), by merge key.
    pub fn order<K: Into<Key>>(mut self, keys: impl IntoIterator<Item = K>) -> Self {
        let key = self.key;
        self.order = Some(
            keys.into_iter()
                .map(|k| Identity(vec![(key.to_owned(), k.into().0)]))
                .collect(),
        );
        self
    }

    /// Replaces the list whole (`$patch: replace`): the list becomes the patch's items.
    pub fn replacing(mut self) -> Self {
        if !self.items.iter().any(|i| matches!(i, Item::Replace)) {
            self.items.insert(0, Item::Replace);
        }
        self.listed = true;
        self
    }

    /// Identifies items by the recommended keys instead of the merge key, with the
    /// `$patchMergeKey` directive (the proposal's multi-field keys: 53/TCP and 53/UDP are two
    /// ports). Use [`item_by`](KeyedList::item_by) and [`delete_by`](KeyedList::delete_by)
    /// then. Only for an applier that implements the proposal, such as smp.
    pub fn by_recommended_keys(mut self) -> Self {
        self.by_recommended = true;
        self
    }

    /// Merges `f(item patch)` into the item whose recommended keys have these values, in the
    /// order of the field's recommended keys (`[53.into(), "UDP".into()]` for `port,protocol`).
    pub fn item_by(mut self, keys: impl IntoIterator<Item = Key>, f: impl FnOnce(P) -> P) -> Self {
        let id = self.recommended_identity(keys);
        self.items.push(Item::Merge(id, f(P::default())));
        self.listed = true;
        self
    }

    /// Deletes the item whose recommended keys have these values.
    pub fn delete_by(mut self, keys: impl IntoIterator<Item = Key>) -> Self {
        let id = self.recommended_identity(keys);
        self.items.push(Item::Delete(id));
        self.listed = true;
        self
    }

    fn recommended_identity<K: Into<Key>>(
        &mut self,
        keys: impl IntoIterator<Item = K>,
    ) -> Identity {
        self.by_recommended = true;
        Identity(
            self.recommended
                .iter()
                .zip(keys)
                .map(|(name, k)| ((*name).to_owned(), k.into().0))
                .collect(),
        )
    }

    /// The items when every one merges into the item with its merge key (no deletion, no
    /// order, no replacement, no `$patchMergeKey`): (key value, patch) pairs.
    pub(crate) fn plain_merges(&self) -> Option<Vec<(&Value, &P)>> {
        if self.order.is_some() || self.by_recommended || !self.listed {
            return None;
        }
        self.items
            .iter()
            .map(|item| match item {
                Item::Merge(id, patch) => match id.0.as_slice() {
                    [(name, value)] if name == self.key => Some((value, patch)),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    /// Whether the patch says nothing of the list.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.order.is_none() && !self.listed
    }
}

impl<P: Default + ValuePatch> KeyedList<P> {
    /// The `$patchMergeKey` value items carry, when they are identified by recommended keys.
    fn directive_keys(&self) -> Option<Value> {
        self.by_recommended.then(|| {
            Value::Array(
                self.recommended
                    .iter()
                    .map(|k| Value::String((*k).to_owned()))
                    .collect(),
            )
        })
    }

    /// Reads the list member (`value`) and its `$setElementOrder` (`order`).
    pub(crate) fn read(
        key: &'static str,
        recommended: &'static [&'static str],
        value: Option<Value>,
        order: Option<Value>,
        path: &Path<'_>,
    ) -> Result<KeyedList<P>, PatchError> {
        path.check_depth()?;
        let mut list = KeyedList::new(key, recommended);
        let mut keys: Option<Vec<String>> = None;
        list.listed = value.is_some();
        if let Some(value) = value {
            let Value::Array(items) = value else {
                return Err(wrong_type(path, "list", &value));
            };
            for (i, item) in items.into_iter().enumerate() {
                let at = path.index(i);
                let Value::Object(mut object) = item else {
                    return Err(PatchError::NotAnObjectItem {
                        path: at.to_json_path(),
                        key: key.to_owned(),
                        found: crate::error::kind_of(&item),
                    });
                };
                let directive = object.remove("$patch");
                if directive.as_ref().and_then(Value::as_str) == Some("replace") {
                    if !object.is_empty() {
                        return Err(PatchError::BadDirective {
                            path: at.to_json_path(),
                            directive: "$patch".to_owned(),
                            expected: "`$patch: replace` alone in its list item",
                        });
                    }
                    list.items.push(Item::Replace);
                    continue;
                }
                let names = list_keys(&mut object, key, recommended, &mut keys, &at)?;
                let id = take_identity(&mut object, &names, &at)?;
                match directive {
                    None => {
                        let patch = P::read_value(Value::Object(object), &at)?;
                        list.items.push(Item::Merge(id, patch));
                    }
                    Some(d) if d.as_str() == Some("delete") => {
                        if let Some((name, _)) = object.into_iter().next() {
                            return Err(PatchError::BadDirective {
                                path: at.field(&name).to_json_path(),
                                directive: "$patch".to_owned(),
                                expected: "nothing but the key beside `$patch: delete`",
                            });
                        }
                        list.items.push(Item::Delete(id));
                    }
                    Some(other) => {
                        return Err(PatchError::UnknownPatchType {
                            path: at.field("$patch").to_json_path(),
                            value: other.to_string(),
                        });
                    }
                }
            }
        }
        if let Some(order) = order {
            let at = path.field("$setElementOrder");
            let Value::Array(entries) = order else {
                return Err(PatchError::BadDirective {
                    path: at.to_json_path(),
                    directive: "$setElementOrder".to_owned(),
                    expected: "a list",
                });
            };
            let mut ids = Vec::with_capacity(entries.len());
            for (i, entry) in entries.into_iter().enumerate() {
                let at = at.index(i);
                let Value::Object(mut object) = entry else {
                    return Err(PatchError::NotAnObjectItem {
                        path: at.to_json_path(),
                        key: key.to_owned(),
                        found: crate::error::kind_of(&entry),
                    });
                };
                let names = list_keys(&mut object, key, recommended, &mut keys, &at)?;
                let id = take_identity(&mut object, &names, &at)?;
                if let Some((name, _)) = object.into_iter().next() {
                    return Err(PatchError::BadDirective {
                        path: at.field(&name).to_json_path(),
                        directive: "$setElementOrder".to_owned(),
                        expected: "entries holding the item's key only",
                    });
                }
                ids.push(id);
            }
            list.order = Some(ids);
        }
        list.by_recommended = keys.is_some_and(|k| k.len() != 1 || k[0] != key);
        Ok(list)
    }
}

/// The key fields of one item: its `$patchMergeKey` (which must name the field's recommended
/// keys, the same for every item), or the merge key.
fn list_keys(
    object: &mut Map<String, Value>,
    key: &'static str,
    recommended: &'static [&'static str],
    seen: &mut Option<Vec<String>>,
    path: &Path<'_>,
) -> Result<Vec<String>, PatchError> {
    let names: Vec<String> = match object.remove("$patchMergeKey") {
        None => vec![key.to_owned()],
        Some(Value::Array(names)) => {
            let names: Option<Vec<String>> = names
                .iter()
                .map(|n| n.as_str().map(str::to_owned))
                .collect();
            match names {
                Some(names) if !recommended.is_empty() && names == recommended => names,
                _ => {
                    return Err(PatchError::BadDirective {
                        path: path.field("$patchMergeKey").to_json_path(),
                        directive: "$patchMergeKey".to_owned(),
                        expected: "the field's recommended keys, in their order",
                    });
                }
            }
        }
        Some(_) => {
            return Err(PatchError::BadDirective {
                path: path.field("$patchMergeKey").to_json_path(),
                directive: "$patchMergeKey".to_owned(),
                expected: "a list of field names",
            });
        }
    };
    match seen {
        Some(first) if *first != names => Err(PatchError::BadDirective {
            path: path.field("$patchMergeKey").to_json_path(),
            directive: "$patchMergeKey".to_owned(),
            expected: "the same keys on every item of the list",
        }),
        Some(_) => Ok(names),
        None => {
            *seen = Some(names.clone());
            Ok(names)
        }
    }
}

/// Takes the key fields out of an item object.
fn take_identity(
    object: &mut Map<String, Value>,
    names: &[String],
    path: &Path<'_>,
) -> Result<Identity, PatchError> {
    names
        .iter()
        .map(|name| match object.remove(name) {
            Some(value) => Ok((name.clone(), value)),
            None => Err(PatchError::MissingMergeKey {
                path: path.to_json_path(),
                key: name.clone(),
            }),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Identity)
}

/// The patch of a list of scalars merged as a set (`patchStrategy: merge` on `[]string`):
/// values added, values deleted (`$deleteFromPrimitiveList`), and the list's order
/// (`$setElementOrder`).
#[derive(Debug, Clone, PartialEq)]
pub struct SetList<T> {
    add: Option<Vec<T>>,
    delete: Option<Vec<T>>,
    order: Option<Vec<T>>,
}

impl<T> Default for SetList<T> {
    fn default() -> Self {
        SetList {
            add: None,
            delete: None,
            order: None,
        }
    }
}

impl<T: ValuePatch> SetList<T> {
    /// An empty patch.
    pub fn new() -> SetList<T> {
        SetList::default()
    }

    /// Adds `value` (it is merged in: a value already in the list stays once).
    pub fn insert(mut self, value: impl Into<T>) -> Self {
        self.add.get_or_insert_with(Vec::new).push(value.into());
        self
    }

    /// Deletes `value` from the list (`$deleteFromPrimitiveList`).
    pub fn delete(mut self, value: impl Into<T>) -> Self {
        self.delete.get_or_insert_with(Vec::new).push(value.into());
        self
    }

    /// The order of the list after the patch (`$setElementOrder`).
    pub fn order<V: Into<T>>(mut self, values: impl IntoIterator<Item = V>) -> Self {
        self.order = Some(values.into_iter().map(Into::into).collect());
        self
    }

    /// The values inserted.
    pub fn inserted(&self) -> &[T] {
        self.add.as_deref().unwrap_or_default()
    }

    /// The values deleted.
    pub fn deleted(&self) -> &[T] {
        self.delete.as_deref().unwrap_or_default()
    }

    pub(crate) fn read(
        value: Option<Value>,
        delete: Option<Value>,
        order: Option<Value>,
        path: &Path<'_>,
    ) -> Result<SetList<T>, PatchError> {
        let values = |v: Value, directive: &str, path: &Path<'_>| -> Result<Vec<T>, PatchError> {
            let Value::Array(items) = v else {
                return Err(PatchError::BadDirective {
                    path: path.to_json_path(),
                    directive: directive.to_owned(),
                    expected: "a list",
                });
            };
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| {
                    let at = path.index(i);
                    if matches!(item, Value::Object(_) | Value::Array(_) | Value::Null) {
                        return Err(wrong_type(&at, "a scalar of a set", &item));
                    }
                    T::read_value(item, &at)
                })
                .collect()
        };
        Ok(SetList {
            add: value.map(|v| values(v, "list", path)).transpose()?,
            delete: delete
                .map(|v| values(v, "$deleteFromPrimitiveList", path))
                .transpose()?,
            order: order
                .map(|v| values(v, "$setElementOrder", path))
                .transpose()?,
        })
    }
}

/// A list patch that writes itself beside its member: the list and the directives that go with
/// it (`$setElementOrder/<name>`, `$deleteFromPrimitiveList/<name>`).
pub(crate) trait ListWrite {
    /// Writes the list member `name` and its directives into `out`, the patch object holding
    /// it (at `parent`).
    fn write(
        &self,
        name: &str,
        out: &mut Map<String, Value>,
        parent: &Path<'_>,
    ) -> Result<(), PatchError>;
}

impl<P: Default + ValuePatch> ListWrite for KeyedList<P> {
    /// Writes the list member `name` and its `$setElementOrder/<name>` into `out`.
    fn write(
        &self,
        name: &str,
        out: &mut Map<String, Value>,
        parent: &Path<'_>,
    ) -> Result<(), PatchError> {
        let path = parent.field(name);
        path.check_depth()?;
        let by = self.directive_keys();
        let mut items = Vec::with_capacity(self.items.len());
        for (i, item) in self.items.iter().enumerate() {
            let at = path.index(i);
            let (id, mut object) = match item {
                Item::Replace => {
                    let mut directive = Map::new();
                    directive.insert("$patch".to_owned(), Value::String("replace".to_owned()));
                    items.push(Value::Object(directive));
                    continue;
                }
                Item::Merge(id, patch) => match patch.write_value(&at)? {
                    Value::Object(map) => (id, map),
                    other => return Err(wrong_type(&at, "object", &other)),
                },
                Item::Delete(id) => {
                    let mut map = Map::new();
                    map.insert("$patch".to_owned(), Value::String("delete".to_owned()));
                    (id, map)
                }
            };
            for (field, value) in &id.0 {
                match object.get(field) {
                    Some(set) if set != value => {
                        return Err(PatchError::BadDirective {
                            path: at.field(field).to_json_path(),
                            directive: field.clone(),
                            expected: "the item's key, not another value (the key is given to `item`)",
                        });
                    }
                    _ => {
                        object.insert(field.clone(), value.clone());
                    }
                }
            }
            if let Some(by) = &by {
                object.insert("$patchMergeKey".to_owned(), by.clone());
            }
            items.push(Value::Object(object));
        }
        if self.listed || self.order.is_none() {
            out.insert(name.to_owned(), Value::Array(items));
        }
        if let Some(order) = &self.order {
            let order = order
                .iter()
                .map(|id| {
                    let mut object: Map<String, Value> = id.0.iter().cloned().collect();
                    if let Some(by) = &by {
                        object.insert("$patchMergeKey".to_owned(), by.clone());
                    }
                    Value::Object(object)
                })
                .collect();
            out.insert(format!("$setElementOrder/{name}"), Value::Array(order));
        }
        Ok(())
    }
}

impl<T: ValuePatch> ListWrite for SetList<T> {
    fn write(
        &self,
        name: &str,
        out: &mut Map<String, Value>,
        parent: &Path<'_>,
    ) -> Result<(), PatchError> {
        let path = parent.field(name);
        let values = |list: &[T], path: &Path<'_>| -> Result<Value, PatchError> {
            list.iter()
                .enumerate()
                .map(|(i, v)| v.write_value(&path.index(i)))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array)
        };
        let nothing = self.add.is_none() && self.delete.is_none() && self.order.is_none();
        if let Some(add) = &self.add {
            out.insert(name.to_owned(), values(add, &path)?);
        } else if nothing {
            out.insert(name.to_owned(), Value::Array(Vec::new()));
        }
        if let Some(delete) = &self.delete {
            let at = parent.field("$deleteFromPrimitiveList");
            out.insert(
                format!("$deleteFromPrimitiveList/{name}"),
                values(delete, &at)?,
            );
        }
        if let Some(order) = &self.order {
            let at = parent.field("$setElementOrder");
            out.insert(format!("$setElementOrder/{name}"), values(order, &at)?);
        }
        Ok(())
    }
}
