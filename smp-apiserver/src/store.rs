//! The objects, in memory, with one revision counter for all of them (what etcd's revision is
//! to the API server: every write gets the next one, and it is the object's
//! `resourceVersion`).
//!
//! Writes are compare-and-swap on an object's revision: a writer reads the object, computes the
//! new one without holding the store, and commits only if the object is still at the revision it
//! read (else it reads again, or answers Conflict), so that no write is lost and no writer waits
//! on another's computation.
//!
//! Every write is also an event, kept in a window of the latest ones (a watch may start from any
//! revision still in it) and sent to the watchers on a channel that never waits for them: a
//! watcher that falls further behind than the channel holds is told it missed events, and
//! starts again from a list, as a client does when the server answers 410 Gone.
//!
//! The objects are a persistent map, so a reader takes the whole store as it is in constant
//! time and reads it without holding the lock ([`Store::snapshot`]); with the window, it reads
//! the store as it was at any revision the window still reaches back to, as etcd serves a
//! list at a past revision until it compacts it.
//!
//! Beside them the store keeps what the controllers need to find quickly: the objects each
//! namespace holds, and the objects whose `ownerReferences` name each uid.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::ops::Bound;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use imbl::OrdMap;
use serde_json::Value;
use tokio::sync::{broadcast, watch};

/// How many events the window keeps, and how many a watcher may fall behind.
const WINDOW: usize = 4096;

/// What a write did to an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// Created.
    Added,
    /// Changed.
    Modified,
    /// Removed.
    Deleted,
}

/// One write, as watchers see it.
#[derive(Debug, Clone)]
pub struct Event {
    /// The write's revision.
    pub revision: u64,
    /// What it did.
    pub kind: EventType,
    /// The object's key.
    pub key: ObjectKey,
    /// The object after the write (for a deletion, as it was last).
    pub object: Arc<Value>,
    /// The object before the write, if it existed.
    pub previous: Option<Arc<Value>>,
}

/// Why a watch cannot start where it was asked to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expired {
    /// The revision asked for.
    pub asked: u64,
    /// The oldest revision the window still has.
    pub oldest: u64,
}

/// Where a watch starts: the events after a revision still in the window, or the objects as they
/// are now (given as `Added` events) and what comes after.
#[derive(Debug)]
pub struct WatchStart {
    /// What the watcher is sent first.
    pub backlog: Vec<Arc<Event>>,
    /// The events after it.
    pub receiver: broadcast::Receiver<Arc<Event>>,
    /// The revision the watch started at.
    pub revision: u64,
}

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
    /// The object as JSON text, written the first time it is asked for (a stored object does
    /// not change, so every list and every read after that copies the text).
    text: Arc<OnceLock<Vec<u8>>>,
}

impl Stored {
    /// A stored object written at `revision`.
    pub fn new(object: Arc<Value>, revision: u64) -> Stored {
        Stored {
            object,
            revision,
            text: Arc::default(),
        }
    }

    /// The object as JSON text.
    pub fn json(&self) -> &[u8] {
        self.text
            .get_or_init(|| crate::serializer::to_vec(&self.object))
    }
}

/// Why a write did not happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// An object of that key exists (on create).
    Exists,
    /// The object is not at the revision the write was based on, or is gone.
    Changed,
}

struct Inner {
    revision: u64,
    objects: OrdMap<ObjectKey, Stored>,
    /// How many objects each namespace holds (only those that hold some), so that "the
    /// namespace is empty now" is one look-up, not a scan.
    per_namespace: HashMap<String, usize>,
    /// The objects whose `ownerReferences` name each uid (only uids named by some).
    dependents: HashMap<String, BTreeSet<ObjectKey>>,
    /// The latest events, oldest first.
    events: VecDeque<Arc<Event>>,
    sender: broadcast::Sender<Arc<Event>>,
    /// The writes the controllers have not seen yet, when they follow the store.
    changes: Option<Vec<Arc<Event>>>,
    /// The latest revision, for those who wait for one.
    revision_signal: watch::Sender<u64>,
}

impl Inner {
    /// `Changed` unless the object at `key` is at revision `expected`.
    fn at(&self, key: &ObjectKey, expected: u64) -> Result<(), WriteError> {
        match self.objects.get(key) {
            Some(current) if current.revision == expected => Ok(()),
            _ => Err(WriteError::Changed),
        }
    }

    /// The next revision, written into `object` as its `resourceVersion`.
    fn next(&mut self, object: &mut Value) -> u64 {
        self.revision += 1;
        set_resource_version(object, self.revision);
        self.revision
    }

    /// Stores `object` at `key` at the next revision, and emits the write's event.
    fn put(&mut self, key: ObjectKey, mut object: Value, kind: EventType) -> Stored {
        let revision = self.next(&mut object);
        let stored = Stored::new(Arc::new(object), revision);
        let previous = self.objects.insert(key.clone(), stored.clone());
        if previous.is_none() && !key.namespace.is_empty() {
            *self.per_namespace.entry(key.namespace.clone()).or_default() += 1;
        }
        self.index_owners(
            &key,
            previous.as_ref().map(|p| &*p.object),
            Some(&stored.object),
        );
        self.emit(Event {
            revision,
            kind,
            key,
            object: stored.object.clone(),
            previous: previous.map(|p| p.object),
        });
        stored
    }

    /// Records a write's event and sends it to the watchers (never waiting for them).
    fn emit(&mut self, event: Event) {
        let event = Arc::new(event);
        if self.events.len() == WINDOW {
            self.events.pop_front();
        }
        self.events.push_back(event.clone());
        if let Some(changes) = &mut self.changes {
            changes.push(event.clone());
        }
        self.revision_signal.send_replace(event.revision);
        // No watcher is not an error.
        let _ = self.sender.send(event);
    }

    /// Keeps [`Inner::dependents`] in step with a write of `key` from `before` to `after`.
    fn index_owners(&mut self, key: &ObjectKey, before: Option<&Value>, after: Option<&Value>) {
        let (before, after) = (owner_uids(before), owner_uids(after));
        for uid in before.difference(&after) {
            if let Some(keys) = self.dependents.get_mut(*uid) {
                keys.remove(key);
                if keys.is_empty() {
                    self.dependents.remove(*uid);
                }
            }
        }
        for uid in after.difference(&before) {
            self.dependents
                .entry((*uid).to_owned())
                .or_default()
                .insert(key.clone());
        }
    }

    /// The oldest revision the store can be read at: the one just before the oldest event the
    /// window holds (the current one when it holds none).
    fn oldest_readable(&self) -> u64 {
        self.events
            .front()
            .map_or(self.revision, |e| e.revision.saturating_sub(1))
    }
}

/// The uids an object's `ownerReferences` name.
fn owner_uids(object: Option<&Value>) -> BTreeSet<&str> {
    object
        .and_then(|o| o.pointer("/metadata/ownerReferences"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| r.get("uid").and_then(Value::as_str))
        .collect()
}

/// The store as it was at one revision, read without the store's lock.
pub struct Snapshot {
    objects: OrdMap<ObjectKey, Stored>,
    /// The revision it shows.
    revision: u64,
    /// The objects written since `revision`, as they were then (`None`: not there then).
    past: BTreeMap<ObjectKey, Option<Stored>>,
}

impl Snapshot {
    /// The revision the snapshot shows.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The objects of `resource` (in `namespace` if given) after the key `after`, in key order.
    pub fn range<'s>(
        &'s self,
        resource: &'s str,
        namespace: Option<&'s str>,
        after: Option<&ObjectKey>,
    ) -> impl Iterator<Item = (&'s ObjectKey, &'s Stored)> + 's {
        let start = ObjectKey {
            resource: resource.to_owned(),
            namespace: namespace.unwrap_or("").to_owned(),
            name: String::new(),
        };
        let from = match after {
            Some(after) if *after >= start => Bound::Excluded(after.clone()),
            _ => Bound::Included(start),
        };
        let within = move |k: &ObjectKey| {
            k.resource == resource && namespace.is_none_or(|ns| k.namespace == ns)
        };
        let now = self
            .objects
            .range((from.clone(), Bound::Unbounded))
            .take_while(move |(k, _)| within(k));
        let then = self
            .past
            .range((from, Bound::Unbounded))
            .take_while(move |(k, _)| within(k));
        Merge {
            now: now.peekable(),
            then: then.peekable(),
        }
    }
}

/// The current objects of a range, with those written since the snapshot's revision replaced
/// by what they were then: two ordered walks merged.
struct Merge<A: Iterator, B: Iterator> {
    now: std::iter::Peekable<A>,
    then: std::iter::Peekable<B>,
}

impl<'s, A, B> Iterator for Merge<A, B>
where
    A: Iterator<Item = (&'s ObjectKey, &'s Stored)>,
    B: Iterator<Item = (&'s ObjectKey, &'s Option<Stored>)>,
{
    type Item = (&'s ObjectKey, &'s Stored);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let order = match (self.now.peek(), self.then.peek()) {
                (None, None) => return None,
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some((a, _)), Some((b, _))) => a.cmp(b),
            };
            let past = match order {
                std::cmp::Ordering::Less => return self.now.next(),
                std::cmp::Ordering::Equal => {
                    self.now.next();
                    self.then.next()
                }
                std::cmp::Ordering::Greater => self.then.next(),
            };
            if let Some((key, Some(stored))) = past {
                return Some((key, stored));
            }
        }
    }
}

/// The store.
pub struct Store {
    inner: Mutex<Inner>,
}

impl Default for Store {
    fn default() -> Store {
        Store {
            inner: Mutex::new(Inner {
                revision: 0,
                objects: OrdMap::new(),
                per_namespace: HashMap::new(),
                dependents: HashMap::new(),
                events: VecDeque::with_capacity(WINDOW),
                sender: broadcast::channel(WINDOW).0,
                changes: None,
                revision_signal: watch::channel(0).0,
            }),
        }
    }
}

impl Store {
    /// Starts a watch: after revision `from` (`None`: from the objects of `resource` as they
    /// are now, in `namespace` if given), or `Expired` when the window no longer reaches back
    /// to it. Taken under the store's lock, so that nothing is missed or sent twice.
    pub fn watch(
        &self,
        resource: &str,
        namespace: Option<&str>,
        from: Option<u64>,
    ) -> Result<WatchStart, Expired> {
        let inner = self.lock();
        let receiver = inner.sender.subscribe();
        let backlog = match from {
            Some(from) => {
                let oldest = inner
                    .events
                    .front()
                    .map_or(inner.revision + 1, |e| e.revision);
                // Events after `from`: the window must hold the one right after it.
                if from + 1 < oldest && from < inner.revision {
                    return Err(Expired {
                        asked: from,
                        oldest: oldest.saturating_sub(1),
                    });
                }
                let start = inner.events.partition_point(|e| e.revision <= from);
                inner.events.range(start..).cloned().collect()
            }
            None => {
                let start = ObjectKey {
                    resource: resource.to_owned(),
                    namespace: namespace.unwrap_or("").to_owned(),
                    name: String::new(),
                };
                inner
                    .objects
                    .range(start..)
                    .take_while(|(k, _)| {
                        k.resource == resource && namespace.is_none_or(|ns| k.namespace == ns)
                    })
                    .map(|(k, s)| {
                        Arc::new(Event {
                            revision: s.revision,
                            kind: EventType::Added,
                            key: k.clone(),
                            object: s.object.clone(),
                            previous: None,
                        })
                    })
                    .collect()
            }
        };
        Ok(WatchStart {
            backlog,
            receiver,
            revision: inner.revision,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves the map consistent (every change is one
        // insert or remove), so a poisoned lock is taken over.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The latest revision.
    pub fn revision(&self) -> u64 {
        self.lock().revision
    }

    /// Waits until the store reaches `revision`, for at most `timeout`; whether it did.
    pub async fn wait_for(&self, revision: u64, timeout: std::time::Duration) -> bool {
        let mut signal = self.lock().revision_signal.subscribe();
        let reached = tokio::time::timeout(timeout, signal.wait_for(|r| *r >= revision)).await;
        matches!(reached, Ok(Ok(_)))
    }

    /// The store as it is now (`at` `None`), or as it was at revision `at`: `Expired` when the
    /// window no longer reaches back to it. A revision beyond the latest reads as the latest.
    pub fn snapshot(&self, at: Option<u64>) -> Result<Snapshot, Expired> {
        let inner = self.lock();
        let mut snapshot = Snapshot {
            objects: inner.objects.clone(),
            revision: inner.revision,
            past: BTreeMap::new(),
        };
        let Some(at) = at.filter(|at| *at < inner.revision) else {
            return Ok(snapshot);
        };
        let oldest = inner.oldest_readable();
        if at < oldest {
            return Err(Expired { asked: at, oldest });
        }
        let start = inner.events.partition_point(|e| e.revision <= at);
        for event in inner.events.range(start..) {
            // The first write since `at` tells what the object was then.
            snapshot.past.entry(event.key.clone()).or_insert_with(|| {
                event
                    .previous
                    .as_ref()
                    .map(|previous| Stored::new(previous.clone(), resource_version(previous)))
            });
        }
        snapshot.revision = at;
        Ok(snapshot)
    }

    /// The objects whose `ownerReferences` name `uid`.
    pub fn dependents_of(&self, uid: &str) -> Vec<ObjectKey> {
        self.lock()
            .dependents
            .get(uid)
            .map(|keys| keys.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Makes the store keep every write for [`Store::take_changes`] from now on.
    pub fn follow_changes(&self) {
        self.lock().changes.get_or_insert_with(Vec::new);
    }

    /// The writes since the last call (none unless [`Store::follow_changes`] was called).
    pub fn take_changes(&self) -> Vec<Arc<Event>> {
        self.lock()
            .changes
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
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
        let snapshot = self
            .snapshot(None)
            .unwrap_or_else(|_| unreachable!("now is readable"));
        let items = snapshot
            .range(resource, namespace, after)
            .map(|(k, s)| (k.clone(), s.clone()))
            .collect();
        (items, snapshot.revision)
    }

    /// Every object in `namespace`, of any resource (one pass over a snapshot).
    pub fn in_namespace(&self, namespace: &str) -> Vec<(ObjectKey, Stored)> {
        let objects = self.lock().objects.clone();
        objects
            .iter()
            .filter(|(k, _)| k.namespace == namespace)
            .map(|(k, s)| (k.clone(), s.clone()))
            .collect()
    }

    /// How many objects `namespace` holds, of every resource.
    pub fn count_in(&self, namespace: &str) -> usize {
        self.lock()
            .per_namespace
            .get(namespace)
            .copied()
            .unwrap_or(0)
    }

    /// Stores a new object; its `resourceVersion` is set to the write's revision.
    pub fn create(&self, key: ObjectKey, object: Value) -> Result<Stored, WriteError> {
        let mut inner = self.lock();
        if inner.objects.contains_key(&key) {
            return Err(WriteError::Exists);
        }
        Ok(inner.put(key, object, EventType::Added))
    }

    /// Replaces the object at `key` if it is still at revision `expected`.
    pub fn replace(
        &self,
        key: &ObjectKey,
        expected: u64,
        object: Value,
    ) -> Result<Stored, WriteError> {
        let mut inner = self.lock();
        inner.at(key, expected)?;
        Ok(inner.put(key.clone(), object, EventType::Modified))
    }

    /// Removes the object at `key` if it is still at revision `expected`.
    pub fn remove(&self, key: &ObjectKey, expected: u64) -> Result<Stored, WriteError> {
        let mut inner = self.lock();
        inner.at(key, expected)?;
        let removed = inner.objects.remove(key).ok_or(WriteError::Changed)?;
        inner.index_owners(key, Some(&removed.object), None);
        if let Some(count) = inner.per_namespace.get_mut(&key.namespace) {
            *count -= 1;
            if *count == 0 {
                inner.per_namespace.remove(&key.namespace);
            }
        }
        // The object as it was last, at the deletion's revision.
        let mut last = (*removed.object).clone();
        let revision = inner.next(&mut last);
        inner.emit(Event {
            revision,
            kind: EventType::Deleted,
            key: key.clone(),
            object: Arc::new(last),
            previous: Some(removed.object.clone()),
        });
        Ok(removed)
    }
}

/// The revision an object was written at: its `resourceVersion`.
fn resource_version(object: &Value) -> u64 {
    object
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
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

    /// However many writes, the store holds its objects and the window's events; a watcher
    /// that reads nothing holds no more (the channel keeps as many events as the window), and is
    /// told it fell behind.
    #[test]
    fn memory_is_bounded_by_the_objects_and_the_window() {
        let store = Store::default();
        store
            .create(key("d", "a"), json!({"metadata": {"name": "a"}}))
            .unwrap();
        let mut asleep = store.watch("/pods", None, None).unwrap().receiver;
        for revision in 1..3 * WINDOW as u64 {
            let data = json!({"metadata": {"name": "a"}, "data": {"n": revision}});
            store.replace(&key("d", "a"), revision, data).unwrap();
        }
        {
            let inner = store.lock();
            assert_eq!(inner.objects.len(), 1);
            assert_eq!(inner.events.len(), WINDOW);
            assert_eq!(inner.sender.len(), WINDOW);
        }
        assert_eq!(
            store.watch("/pods", None, Some(1)).map(|_| ()),
            Err(Expired {
                asked: 1,
                oldest: 2 * WINDOW as u64
            })
        );
        assert!(matches!(
            asleep.try_recv(),
            Err(broadcast::error::TryRecvError::Lagged(_))
        ));
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
        assert_eq!((store.count_in("d"), store.count_in("e")), (1, 1));
        assert!(store.remove(&key("d", "a"), 2).is_ok());
        assert!(store.get(&key("d", "a")).is_none());
        assert_eq!((store.count_in("d"), store.count_in("e")), (0, 1));
        assert!(!store.lock().per_namespace.contains_key("d"));
    }

    /// A snapshot at a past revision shows the objects as they were then: those created since
    /// missing, those changed since as they were, those deleted since still there.
    #[test]
    fn snapshots_read_the_store_as_it_was() {
        let store = Store::default();
        for name in ["a", "b", "c"] {
            store
                .create(key("d", name), json!({"metadata": {"name": name}}))
                .unwrap();
        }
        let at = store.revision();
        store
            .replace(
                &key("d", "b"),
                2,
                json!({"metadata": {"name": "b"}, "x": 1}),
            )
            .unwrap();
        store.remove(&key("d", "c"), 3).unwrap();
        store
            .create(key("d", "aa"), json!({"metadata": {"name": "aa"}}))
            .unwrap();
        let names = |snapshot: &Snapshot| -> Vec<(String, u64)> {
            snapshot
                .range("/pods", Some("d"), None)
                .map(|(k, s)| (k.name.clone(), s.revision))
                .collect()
        };
        let then = store.snapshot(Some(at)).unwrap();
        assert_eq!(then.revision(), 3);
        assert_eq!(
            names(&then),
            [("a".into(), 1), ("b".into(), 2), ("c".into(), 3)]
        );
        assert!(
            then.range("/pods", Some("d"), None)
                .all(|(_, s)| s.object.get("x").is_none())
        );
        let after_a: Vec<_> = then
            .range("/pods", None, Some(&key("d", "a")))
            .map(|(k, _)| k.name.clone())
            .collect();
        assert_eq!(after_a, ["b", "c"]);
        let now = store.snapshot(None).unwrap();
        assert_eq!(
            names(&now),
            [("a".into(), 1), ("aa".into(), 6), ("b".into(), 4)]
        );
        assert_eq!(store.snapshot(Some(100)).unwrap().revision(), 6);
    }

    #[test]
    fn snapshots_older_than_the_window_expire() {
        let store = Store::default();
        store
            .create(key("d", "a"), json!({"metadata": {"name": "a"}}))
            .unwrap();
        for revision in 1..WINDOW as u64 + 10 {
            store
                .replace(
                    &key("d", "a"),
                    revision,
                    json!({"metadata": {}, "n": revision}),
                )
                .unwrap();
        }
        let oldest = store.revision() - WINDOW as u64;
        assert!(store.snapshot(Some(oldest)).is_ok());
        assert_eq!(
            store
                .snapshot(Some(oldest - 1))
                .map(|s| s.revision())
                .unwrap_err(),
            Expired {
                asked: oldest - 1,
                oldest
            }
        );
    }

    #[test]
    fn dependents_are_indexed_by_owner_uid() {
        let store = Store::default();
        let owned = |uids: &[&str]| {
            let refs: Vec<Value> = uids.iter().map(|u| json!({"uid": u})).collect();
            json!({"metadata": {"ownerReferences": refs}})
        };
        store.create(key("d", "a"), owned(&["u1", "u2"])).unwrap();
        store.create(key("d", "b"), owned(&["u1"])).unwrap();
        assert_eq!(store.dependents_of("u1"), [key("d", "a"), key("d", "b")]);
        store.replace(&key("d", "a"), 1, owned(&["u2"])).unwrap();
        assert_eq!(store.dependents_of("u1"), [key("d", "b")]);
        assert_eq!(store.dependents_of("u2"), [key("d", "a")]);
        store.remove(&key("d", "b"), 2).unwrap();
        assert!(store.dependents_of("u1").is_empty());
        assert!(!store.lock().dependents.contains_key("u1"));
    }
}
