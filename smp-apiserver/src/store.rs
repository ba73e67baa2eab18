//! The objects, in memory, with one revision counter for all of them (what etcd's revision is
//! to the API server: every write gets the next one, and it is the object's
//! `resourceVersion`).
//!
//! Writes are compare-and-swap on an object's revision: a writer reads the object, computes the
//! new one without holding the store, and commits only if the object is still at the revision it
//! read (else it reads again, or answers Conflict), so that no write is lost and no writer waits
//! on another's computation.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;

/// Where an object is kept: its resource (`apps/deployments`), namespace (empty when cluster
/// scoped) and name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectKey {
    /// `group/plural` (`/pods` for the core group).
    pub resource: String,
    /// The namespace, or empty.
    pub namespace: String,
    /// The name.
    pub name: String,
}

/// A stored object and the revision it was written at.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The object, `metadata.resourceVersion` included.
    pub object: Arc<Value>,
    /// The revision of its last write.
    pub revision: u64,
}

/// Why a write did not happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// An object of that key exists (on create).
    Exists,
    /// The object is not at the revision the write was based on, or is gone.
    Changed,
}

#[derive(Default)]
struct Inner {
    revision: u64,
    objects: BTreeMap<ObjectKey, Stored>,
}

/// The store.
#[derive(Default)]
pub struct Store {
    inner: Mutex<Inner>,
}

impl Store {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves the map consistent (every change is one
        // insert or remove), so a poisoned lock is taken over.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The latest revision.
    pub fn revision(&self) -> u64 {
        self.lock().revision
    }

    /// The object at `key`.
    pub fn get(&self, key: &ObjectKey) -> Option<Stored> {
        self.lock().objects.get(key).cloned()
    }

    /// The objects of `resource` (in `namespace` if given), in key order, after `after` (a
    /// key, for paging), and the revision they were read at.
    pub fn list(
        &self,
        resource: &str,
        namespace: Option<&str>,
        after: Option<&ObjectKey>,
    ) -> (Vec<(ObjectKey, Stored)>, u64) {
        let inner = self.lock();
        let start = ObjectKey {
            resource: resource.to_owned(),
            namespace: namespace.unwrap_or("").to_owned(),
            name: String::new(),
        };
        let from = match after {
            Some(after) if *after >= start => std::ops::Bound::Excluded(after.clone()),
            _ => std::ops::Bound::Included(start),
        };
        let items = inner
            .objects
            .range((from, std::ops::Bound::Unbounded))
            .take_while(|(k, _)| {
                k.resource == resource && namespace.is_none_or(|ns| k.namespace == ns)
            })
            .map(|(k, s)| (k.clone(), s.clone()))
            .collect();
        (items, inner.revision)
    }

    /// Stores a new object; its `resourceVersion` is set to the write's revision.
    pub fn create(&self, key: ObjectKey, mut object: Value) -> Result<Stored, WriteError> {
        let mut inner = self.lock();
        if inner.objects.contains_key(&key) {
            return Err(WriteError::Exists);
        }
        inner.revision += 1;
        let revision = inner.revision;
        set_resource_version(&mut object, revision);
        let stored = Stored {
            object: Arc::new(object),
            revision,
        };
        inner.objects.insert(key, stored.clone());
        Ok(stored)
    }

    /// Replaces the object at `key` if it is still at revision `expected`.
    pub fn replace(
        &self,
        key: &ObjectKey,
        expected: u64,
        mut object: Value,
    ) -> Result<Stored, WriteError> {
        let mut inner = self.lock();
        match inner.objects.get(key) {
            Some(current) if current.revision == expected => {}
            _ => return Err(WriteError::Changed),
        }
        inner.revision += 1;
        let revision = inner.revision;
        set_resource_version(&mut object, revision);
        let stored = Stored {
            object: Arc::new(object),
            revision,
        };
        inner.objects.insert(key.clone(), stored.clone());
        Ok(stored)
    }

    /// Removes the object at `key` if it is still at revision `expected`.
    pub fn remove(&self, key: &ObjectKey, expected: u64) -> Result<Stored, WriteError> {
        let mut inner = self.lock();
        match inner.objects.get(key) {
            Some(current) if current.revision == expected => {}
            _ => return Err(WriteError::Changed),
        }
        inner.revision += 1;
        inner.objects.remove(key).ok_or(WriteError::Changed)
    }
}

fn set_resource_version(object: &mut Value, revision: u64) {
    if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        metadata.insert(
            "resourceVersion".into(),
            Value::String(revision.to_string()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(ns: &str, name: &str) -> ObjectKey {
        ObjectKey {
            resource: "/pods".into(),
            namespace: ns.into(),
            name: name.into(),
        }
    }

    #[test]
    fn writes_compare_and_swap_on_the_revision() {
        let store = Store::default();
        let a = store
            .create(key("d", "a"), json!({"metadata": {"name": "a"}}))
            .unwrap();
        assert_eq!(a.object["metadata"]["resourceVersion"], "1");
        assert_eq!(
            store.create(key("d", "a"), json!({})).map(|_| ()),
            Err(WriteError::Exists)
        );
        let b = store
            .replace(&key("d", "a"), 1, json!({"metadata": {}}))
            .unwrap();
        assert_eq!(b.revision, 2);
        assert_eq!(
            store.replace(&key("d", "a"), 1, json!({})).map(|_| ()),
            Err(WriteError::Changed)
        );
        store
            .create(key("e", "b"), json!({"metadata": {}}))
            .unwrap();
        let (all, revision) = store.list("/pods", None, None);
        assert_eq!((all.len(), revision), (2, 3));
        let (in_d, _) = store.list("/pods", Some("d"), None);
        assert_eq!(in_d.len(), 1);
        let (after, _) = store.list("/pods", None, Some(&key("d", "a")));
        assert_eq!(after[0].0, key("e", "b"));
        assert!(store.remove(&key("d", "a"), 2).is_ok());
        assert!(store.get(&key("d", "a")).is_none());
    }
}
