//! Pruning: members a structural schema does not declare are dropped from a custom resource
//! (apiextensions-apiserver `pkg/apiserver/schema/pruning`), unless the schema keeps unknown
//! fields there (`x-kubernetes-preserve-unknown-fields`). The paths dropped are returned,
//! sorted, as the server lists them for `fieldValidation=Strict` (`unknown field "spec.foo"`)
//! and `Warn`.
//!
//! The walk follows the object, so it carries a depth count and stops at
//! [`super::structural::MAX_DEPTH`] (a value nested deeper is left as it is there).

use serde_json::Value;

use super::structural::{MAX_DEPTH, Structural};

/// The members an embedded resource (and the resource itself) always keeps.
fn is_meta_field(key: &str) -> bool {
    matches!(key, "apiVersion" | "kind" | "metadata")
}

/// Prunes the custom resource `object` by `schema` (its version's schema; the root is an
/// embedded resource, whatever the schema says). Returns the dropped paths, sorted (Go's
/// `sort.Strings`: byte order).
pub fn prune(object: &mut Value, schema: &Structural) -> Vec<String> {
    prune_with(object, Some(schema), true)
}

/// Prunes any value by `schema` (`None`: no schema, so every member of every object goes);
/// `resource_root` treats the value as a resource, which keeps its `apiVersion`, `kind` and
/// `metadata` (`PruneWithOptions`'s `isResourceRoot`).
pub fn prune_with(
    value: &mut Value,
    schema: Option<&Structural>,
    resource_root: bool,
) -> Vec<String> {
    let mut walk = Walk {
        path: String::new(),
        unknown: Vec::new(),
    };
    let empty = Structural::default();
    let schema = match (schema, resource_root) {
        (None, true) => Some(&empty),
        (s, _) => s,
    };
    walk.prune(value, schema, resource_root, 0);
    walk.unknown.sort();
    walk.unknown
}

struct Walk {
    /// Where the walk is, as the server spells it (`spec.ports[0].name`).
    path: String,
    unknown: Vec<String>,
}

impl Walk {
    fn record(&mut self, key: &str) {
        let mut path = self.path.clone();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        self.unknown.push(path);
    }

    /// Runs `f` with `key` appended to the path.
    fn at_key(&mut self, key: &str, f: impl FnOnce(&mut Walk)) {
        let len = self.path.len();
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
        f(self);
        self.path.truncate(len);
    }

    /// Runs `f` with `[index]` appended to the path.
    fn at_index(&mut self, index: usize, f: impl FnOnce(&mut Walk)) {
        let len = self.path.len();
        self.path.push('[');
        self.path.push_str(&index.to_string());
        self.path.push(']');
        f(self);
        self.path.truncate(len);
    }

    /// Prunes `value` by `schema`; `root` marks the resource itself, an embedded resource
    /// whatever its schema says.
    fn prune(&mut self, value: &mut Value, schema: Option<&Structural>, root: bool, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(s) = schema
            && s.preserve_unknown_fields
        {
            self.skip_prune(value, s, root, depth);
            return;
        }
        match value {
            Value::Object(members) => {
                let Some(s) = schema else {
                    let keys: Vec<String> = members.keys().cloned().collect();
                    for key in keys {
                        self.record(&key);
                    }
                    members.clear();
                    return;
                };
                self.members(members, s, root, false, depth);
            }
            Value::Array(items) => {
                let inner = schema.and_then(|s| s.items.as_deref());
                for (i, item) in items.iter_mut().enumerate() {
                    self.at_index(i, |w| w.prune(item, inner, false, depth + 1));
                }
            }
            _ => {}
        }
    }

    /// An object's members under its schema `s`: declared ones and those of
    /// `additionalProperties` pruned by their own schemas; others dropped and recorded, unless
    /// `preserve` (`x-kubernetes-preserve-unknown-fields`) keeps them. A resource's (`root`) or
    /// an embedded resource's `apiVersion`, `kind` and `metadata` are left alone.
    fn members(
        &mut self,
        members: &mut serde_json::Map<String, Value>,
        s: &Structural,
        root: bool,
        preserve: bool,
        depth: usize,
    ) {
        let mut dropped = Vec::new();
        for (key, member) in members.iter_mut() {
            if (root || s.embedded_resource) && is_meta_field(key) {
                continue;
            }
            if let Some(property) = s.properties.get(key) {
                self.at_key(key, |w| w.prune(member, Some(property), false, depth + 1));
            } else if let Some(additional) = &s.additional_properties {
                let inner = additional.schema();
                self.at_key(key, |w| w.prune(member, inner, false, depth + 1));
            } else if !preserve {
                if !is_meta_field(key) || !self.path.is_empty() {
                    self.record(key);
                }
                dropped.push(key.clone());
            }
        }
        for key in dropped {
            members.remove(&key);
        }
    }

    /// Under `x-kubernetes-preserve-unknown-fields`: unknown members stay, declared ones are
    /// pruned by their own schemas.
    fn skip_prune(&mut self, value: &mut Value, s: &Structural, root: bool, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match value {
            Value::Object(members) => self.members(members, s, root, true, depth),
            Value::Array(items) => {
                if let Some(inner) = s.items.as_deref() {
                    for (i, item) in items.iter_mut().enumerate() {
                        self.at_index(i, |w| w.skip_prune(item, inner, false, depth + 1));
                    }
                }
            }
            _ => {}
        }
    }
}
