//! The patch of a string map (`labels`, `annotations`, `data`, a map of structs).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::object::ObjectDirective;
use super::{Change, ValuePatch, wrong_type};
use crate::apply::Path;
use crate::error::PatchError;

/// The patch of a map: entries set (or, for a map of objects, merged into), entries deleted
/// (`null`), or the map replaced whole or deleted (`$patch: replace`, `$patch: delete`).
#[derive(Debug, Clone, PartialEq)]
pub struct MapPatch<P> {
    entries: BTreeMap<String, Change<P>>,
    directive: ObjectDirective,
}

impl<P> Default for MapPatch<P> {
    fn default() -> Self {
        MapPatch {
            entries: BTreeMap::new(),
            directive: ObjectDirective::Merge,
        }
    }
}

impl<P> MapPatch<P> {
    /// An empty patch.
    pub fn new() -> MapPatch<P> {
        MapPatch::default()
    }

    /// Sets entry `key` to `value` (for a map of objects: merges `value` into it).
    pub fn set(mut self, key: impl Into<String>, value: impl Into<P>) -> Self {
        self.entries.insert(key.into(), Change::Set(value.into()));
        self
    }

    /// Merges `f(patch)` into entry `key` (a map of objects).
    pub fn set_with(mut self, key: impl Into<String>, f: impl FnOnce(P) -> P) -> Self
    where
        P: Default,
    {
        self.entries
            .insert(key.into(), Change::Set(f(P::default())));
        self
    }

    /// Deletes entry `key` (`null`).
    pub fn delete(mut self, key: impl Into<String>) -> Self {
        self.entries.insert(key.into(), Change::Delete);
        self
    }

    /// Replaces the map whole (`$patch: replace`): it becomes exactly the entries set.
    pub fn replacing(mut self) -> Self {
        self.directive = ObjectDirective::Replace;
        self
    }

    /// Deletes the map (`$patch: delete`).
    pub fn deleting(mut self) -> Self {
        self.directive = ObjectDirective::Delete;
        self
    }

    /// What the patch says of the map itself.
    pub fn directive(&self) -> ObjectDirective {
        self.directive
    }

    /// The entries the patch names.
    pub fn entries(&self) -> &BTreeMap<String, Change<P>> {
        &self.entries
    }
}

impl<K: Into<String>, V: Into<P>, P> FromIterator<(K, V)> for MapPatch<P> {
    /// A patch that sets these entries.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        MapPatch {
            entries: iter
                .into_iter()
                .map(|(k, v)| (k.into(), Change::Set(v.into())))
                .collect(),
            directive: ObjectDirective::Merge,
        }
    }
}

impl<P: ValuePatch> ValuePatch for MapPatch<P> {
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        path.check_depth()?;
        let mut map = Map::new();
        match self.directive {
            ObjectDirective::Merge => {}
            ObjectDirective::Replace => {
                map.insert("$patch".to_owned(), Value::String("replace".to_owned()));
            }
            ObjectDirective::Delete => {
                map.insert("$patch".to_owned(), Value::String("delete".to_owned()));
            }
        }
        for (key, change) in &self.entries {
            map.insert(key.clone(), change.write_value(&path.field(key))?);
        }
        Ok(Value::Object(map))
    }

    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        path.check_depth()?;
        let Value::Object(map) = value else {
            return Err(wrong_type(path, "object", &value));
        };
        let mut patch = MapPatch::default();
        for (key, value) in map {
            let at = path.field(&key);
            if key == "$patch" {
                patch.directive = ObjectDirective::read(&value, path)?;
                continue;
            }
            if is_directive(&key) {
                return Err(PatchError::BadDirective {
                    path: at.to_json_path(),
                    directive: key.clone(),
                    expected: "no directive but `$patch` in a map",
                });
            }
            let change = Change::read_value(value, &at)?;
            patch.entries.insert(key, change);
        }
        Ok(patch)
    }
}

/// The directives a patch object may hold besides `$patch` (a map holds none of them).
fn is_directive(key: &str) -> bool {
    key == "$retainKeys"
        || key == "$patchMergeKey"
        || key.starts_with("$setElementOrder/")
        || key.starts_with("$deleteFromPrimitiveList/")
}
