//! The field manager as the API server runs it on every write of an object, one step after
//! another:
//! - the applied object must be of the endpoint's kind and version, and hold no managedFields;
//! - an object with no managedFields yet, when applied to, first has its present fields
//!   recorded as the update of `before-first-apply`; an update of an existing object (one with
//!   a `uid`) that has none is not tracked;
//! - the manager is identified by its name, operation, version (for updates) and subresource;
//! - the merge ([`crate::merge::Updater`]) gives the new object and every manager's fields;
//!   an update goes through a temporary manager and is then joined to the manager's earlier
//!   fields; the writer's time stamp is set unless an apply changed nothing;
//! - the fields no manager owns (`apiVersion`, `kind`, `metadata.name`, `uid`,
//!   `resourceVersion`, `managedFields` ...) are taken out of the writer's set;
//! - at most ten update managers are kept: the oldest are merged into `ancient-changes`;
//! - `kubectl` applying over its own client-side apply (the last-applied annotation) takes the
//!   fields that annotation still describes without conflict, and the annotation follows.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::conflict::ApplyConflict;
use super::entry::{self, Managed, ManagedFieldsError, Operation, ReadEntries, manager_identifier};
use super::time::Clock;
use crate::fieldpath::{Path, PathElement, Set};
use crate::merge::{ManagedFields, MergeError, Updater, VersionedSet};
use crate::schema::{Gvk, Schema, TypeRef};
use crate::typed::{ReadOptions, ValidationErrors, Walking, field_set};

/// The annotation client-side `kubectl apply` keeps its configuration in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// How many update managers an object keeps before the oldest are merged.
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// Why a write failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FieldManagerError {
    /// The apply would change fields other managers own (409 Conflict).
    #[error(transparent)]
    Conflict(#[from] ApplyConflict),
    /// The request is malformed (400 Bad Request): wrong kind or version, managedFields in
    /// an applied configuration.
    #[error("{0}")]
    BadRequest(String),
    /// An object does not fit its type.
    #[error("{0}")]
    Invalid(#[from] ValidationErrors),
    /// The live object's managedFields do not read.
    #[error("failed to decode managed fields: {0}")]
    ManagedFields(#[from] ManagedFieldsError),
    /// The schema has no such kind.
    #[error("no type for {0}")]
    UnknownKind(String),
    /// A typed object did not convert to or from its JSON form.
    #[error("JSON form of the object: {0}")]
    Json(String),
}

/// What an apply may do besides merging.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApplyOptions {
    /// Take fields other managers own rather than fail (`--force-conflicts`).
    pub force: bool,
}

/// The fields the API server never records for anyone.
fn untracked() -> Set {
    let meta = |name: &str| Path::fields(["metadata", name]);
    Set::from_paths([
        Path::fields(["apiVersion"]),
        Path::fields(["kind"]),
        Path::fields(["metadata"]),
        meta("name"),
        meta("namespace"),
        meta("creationTimestamp"),
        meta("selfLink"),
        meta("uid"),
        meta("clusterName"),
        meta("generation"),
        meta("managedFields"),
        meta("resourceVersion"),
    ])
}

/// The field manager of one kind at one version, for the main resource or a subresource.
#[derive(Debug, Clone)]
pub struct FieldManager<'s> {
    schema: &'s Schema,
    ty: TypeRef,
    api_version: String,
    kind: String,
    subresource: String,
    resets: Resets,
    clock: Clock,
    untracked: Set,
}

impl<'s> FieldManager<'s> {
    /// The field manager of `kind` at `api_version` (`apps/v1`, `Deployment`) of `schema`.
    pub fn new(
        schema: &'s Schema,
        api_version: &str,
        kind: &str,
    ) -> Result<FieldManager<'s>, FieldManagerError> {
        let ty = schema
            .kind(&Gvk::of(api_version, kind))
            .ok_or_else(|| FieldManagerError::UnknownKind(format!("{api_version}, Kind={kind}")))?;
        Ok(FieldManager::for_type(schema, ty, api_version, kind))
    }

    /// The field manager of objects of type `ty` (a type the schema has under no kind: a
    /// derived type's, a test's).
    pub fn for_type(schema: &'s Schema, ty: TypeRef, api_version: &str, kind: &str) -> Self {
        FieldManager {
            schema,
            ty,
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
            subresource: String::new(),
            resets: Resets::None,
            clock: Clock::System,
            untracked: untracked(),
        }
    }

    /// Writes through subresource `name` (`status`).
    pub fn subresource(mut self, name: &str) -> Self {
        self.subresource = name.to_owned();
        self
    }

    /// The field manager of a built-in kind, with the built-in types and, for each endpoint
    /// ([`FieldManager::subresource`]), the fields the API server resets there
    /// ([`crate::builtin::reset_fields`]: `status` on the main resource, `spec` on the
    /// `status` subresource, ...).
    pub fn builtin(
        api_version: &str,
        kind: &str,
    ) -> Result<FieldManager<'static>, FieldManagerError> {
        let mut fm = FieldManager::new(crate::builtin::schema(), api_version, kind)?;
        fm.resets = Resets::Builtin;
        Ok(fm)
    }

    /// Fields this endpoint does not write (the server resets them): not recorded for any
    /// manager, not conflicts, and kept as the live object has them (taken out when it is
    /// created), as the server's update strategies keep them.
    pub fn reset_fields(mut self, fields: Set) -> Self {
        self.resets = Resets::Given(fields);
        self
    }

    /// The fields this endpoint resets, if any.
    fn resets(&self) -> Option<&Set> {
        match &self.resets {
            Resets::None => None,
            Resets::Given(set) => Some(set),
            Resets::Builtin => {
                crate::builtin::reset_fields(&self.api_version, &self.kind, &self.subresource)
            }
        }
        .filter(|set| !set.is_empty())
    }

    /// Keeps the reset fields as `live` has them. An object being created starts with an
    /// empty status (a built-in kind's zero status, `{}`; a custom resource's none), its other
    /// fields as given; but a Node keeps the status it is created with (its registry strategy
    /// takes every field on create, `pkg/registry/core/node/strategy.go`).
    fn restore_resets(&self, object: &mut Value, live: Option<&Value>) {
        let Some(resets) = self.resets() else { return };
        let Some(live) = live else {
            let keeps_status = (self.api_version.as_str(), self.kind.as_str()) == ("v1", "Node");
            if resets.has(&Path::fields(["status"])) && !keeps_status {
                let empty = matches!(self.resets, Resets::Builtin).then(|| json!({}));
                put(object, &["status"], empty);
            }
            return;
        };
        for path in resets.paths() {
            let mut names = Vec::with_capacity(path.0.len());
            for element in &path.0 {
                match element {
                    PathElement::Field(name) => names.push(name.as_str()),
                    _ => break,
                }
            }
            if names.len() != path.0.len() {
                continue;
            }
            let kept = at(live, &names).cloned();
            put(object, &names, kept);
        }
    }

    /// Where time stamps come from.
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    fn updater(&self) -> Updater<'_> {
        let updater = Updater::new(self.schema, self.ty).over_objects();
        match self.resets() {
            Some(resets) => updater.ignoring(resets),
            None => updater,
        }
    }

    fn merge_error(e: MergeError) -> FieldManagerError {
        match e {
            MergeError::Invalid(e) => FieldManagerError::Invalid(e),
            MergeError::Conflicts(c) => FieldManagerError::Conflict(ApplyConflict::new(c.0)),
        }
    }

    /// Applies `applied` for `manager` over `live` (`None`: the object is created): the new
    /// object with its managedFields.
    pub fn apply(
        &self,
        live: Option<&Value>,
        applied: &Value,
        manager: &str,
        options: ApplyOptions,
    ) -> Result<Value, FieldManagerError> {
        let live_given = live;
        let empty = json!({});
        // The live object is read as it is: the walks pass over its managedFields.
        let live = live.unwrap_or(&empty);
        let read = ReadEntries::borrowed(live.pointer("/metadata/managedFields"))?;
        let managed = read.managed.clone();
        let (version, kind) = (text(applied, "apiVersion"), text(applied, "kind"));
        if version != self.api_version || kind != self.kind {
            let (group, v) = version.rsplit_once('/').unwrap_or(("", version));
            return Err(FieldManagerError::BadRequest(format!(
                "invalid object type: {group}/{v}, Kind={kind}"
            )));
        }
        let first = self.apply_tracked(live, applied, managed.clone(), manager, options.force);
        let (mut object, managed) = match first {
            Err(FieldManagerError::Conflict(conflict)) if manager == "kubectl" => {
                // Moving from client-side apply: what the last-applied annotation still
                // describes is kubectl's to take.
                let Some(allowed) = self.allowed_by_last_applied(live) else {
                    return Err(conflict.into());
                };
                // The conflicts at paths the annotation does not describe: one set difference,
                // then the conflicts looked up by path.
                let paths = Set::from_paths(conflict.conflicts.iter().map(|c| c.path.clone()));
                let left: std::collections::BTreeSet<Path> =
                    paths.difference(&allowed).paths().into_iter().collect();
                let rest: Vec<_> = conflict
                    .conflicts
                    .iter()
                    .filter(|c| left.contains(&c.path))
                    .cloned()
                    .collect();
                if !rest.is_empty() {
                    return Err(ApplyConflict::new(rest).into());
                }
                self.apply_tracked(live, applied, managed, manager, true)?
            }
            other => other?,
        };
        if manager == "kubectl" && last_applied(&object).is_some_and(|a| !a.is_empty()) {
            set_last_applied(&mut object, &build_last_applied(applied));
        }
        self.restore_resets(&mut object, live_given);
        set_managed_fields(&mut object, entry::encode_reusing(&managed, read));
        Ok(object)
    }

    /// Records a write of `new` (create, update or patch) by `manager` over `live` (`None`:
    /// the object is created): `new` with its managedFields. (`new` is taken, as the server
    /// takes the object written: the entries it brings that stay as they are go back into it
    /// unchanged.)
    pub fn update(
        &self,
        live: Option<&Value>,
        mut new: Value,
        manager: &str,
    ) -> Result<Value, FieldManagerError> {
        let live_given = live;
        let empty = json!({});
        let live = live.unwrap_or(&empty);
        let brought = take_managed_fields(&mut new);
        let read = self.live_or_new_managed(live, brought);
        if read.managed.fields.is_empty() && live.pointer("/metadata/uid").is_some_and(|u| u != "")
        {
            // An object that exists with no managedFields stays untracked.
            return Ok(new);
        }
        let managed = self.update_tracked(live, &new, read.managed.clone(), manager)?;
        self.restore_resets(&mut new, live_given);
        set_managed_fields(&mut new, entry::encode_reusing(&managed, read));
        Ok(new)
    }

    /// What `manager` applied to `object` through this endpoint (main resource or
    /// subresource): the fields its apply entry holds, taken from the object, with the
    /// object's `apiVersion`, `kind`, name and namespace (client-go's `ExtractDeployment` and
    /// the like). Applying it back as `manager` changes nothing. A manager with no apply entry
    /// gives only those four.
    pub fn extract(&self, object: &Value, manager: &str) -> Result<Value, FieldManagerError> {
        let entries = object.pointer("/metadata/managedFields");
        let mut set = None;
        for raw in entries.and_then(Value::as_array).into_iter().flatten() {
            let entry = entry::ManagedFieldsEntry::deserialize(raw)
                .map_err(|e| ManagedFieldsError(e.to_string()))?;
            if entry.manager == manager
                && entry.operation == Some(Operation::Apply)
                && entry.subresource == self.subresource
            {
                set = Some(entry.fields_v1.unwrap_or_default());
                break;
            }
        }
        let mut bare = object.clone();
        take_managed_fields(&mut bare);
        crate::typed::validate(self.schema, self.ty, &bare, ReadOptions::default())?;
        let mut out = match set {
            Some(set) => crate::typed::extract_items(self.schema, self.ty, &bare, &set.leaves()),
            None => Value::Null,
        };
        if !out.is_object() {
            out = json!({});
        }
        if let Some(o) = out.as_object_mut() {
            o.insert("apiVersion".into(), json!(self.api_version));
            o.insert("kind".into(), json!(self.kind));
            let metadata = o
                .entry("metadata")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(metadata) = metadata.as_object_mut() {
                for key in ["name", "namespace"] {
                    match object.pointer(&format!("/metadata/{key}")) {
                        Some(v) if v.as_str().is_some_and(|s| !s.is_empty()) => {
                            metadata.insert(key.into(), v.clone());
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(out)
    }

    /// The managers an update starts from: the new object's managedFields (`brought`) when it
    /// brings any (an empty list resets them), else the live object's; a subresource always
    /// uses the live object's. Unreadable managedFields count as none.
    fn live_or_new_managed<'v>(&self, live: &'v Value, brought: Option<Value>) -> ReadEntries<'v> {
        let from_live = || {
            ReadEntries::borrowed(live.pointer("/metadata/managedFields"))
                .unwrap_or_else(|_| ReadEntries::none())
        };
        if !self.subresource.is_empty() {
            return from_live();
        }
        let reset = match &brought {
            Some(Value::Array(entries)) => {
                entries.is_empty() || (entries.len() == 1 && entries[0] == json!({}))
            }
            _ => false,
        };
        if reset {
            return ReadEntries::none();
        }
        match ReadEntries::owned(brought) {
            Ok(read) if !read.managed.fields.is_empty() => read,
            _ => from_live(),
        }
    }

    /// An apply, after recording an untracked object's fields as `before-first-apply`.
    fn apply_tracked(
        &self,
        live: &Value,
        applied: &Value,
        mut managed: Managed,
        manager: &str,
        force: bool,
    ) -> Result<(Value, Managed), FieldManagerError> {
        if managed.fields.is_empty() {
            managed = self.update_tracked(&json!({}), live, managed, "before-first-apply")?;
        }
        let id = manager_identifier(
            name(manager),
            Operation::Apply,
            &self.api_version,
            &self.subresource,
        );
        // (The applied object's version and kind were checked by `apply`.)
        if applied.pointer("/metadata/managedFields").is_some() {
            return Err(FieldManagerError::BadRequest(
                "metadata.managedFields must be nil".into(),
            ));
        }
        let (new, fields) = self
            .updater()
            .apply(live, applied, &self.api_version, managed.fields, &id, force)
            .map_err(Self::merge_error)?;
        managed.fields = fields;
        self.strip(&mut managed.fields, &id);
        if same_but_managed_fields(&new, live) {
            // Nothing changed: the object stays as it was (`new` is it, without its
            // managedFields), the time stamp too.
            return Ok((new, managed));
        }
        managed.times.insert(id, self.clock.now());
        Ok((new, managed))
    }

    /// An update's managers: the write recorded as a temporary manager, then joined to the
    /// manager's earlier fields, stamped, and update managers capped.
    fn update_tracked(
        &self,
        live: &Value,
        new: &Value,
        mut managed: Managed,
        manager: &str,
    ) -> Result<Managed, FieldManagerError> {
        const CURRENT: &str = "current-operation";
        let id = manager_identifier(
            name(manager),
            Operation::Update,
            &self.api_version,
            &self.subresource,
        );
        let mut fields = self
            .updater()
            .update(live, new, &self.api_version, managed.fields, CURRENT)
            .map_err(Self::merge_error)?;
        self.strip(&mut fields, CURRENT);
        if let Some(current) = fields.remove(CURRENT) {
            let set = match fields.get(&id) {
                Some(previous) => current.set.union(&previous.set),
                None => current.set,
            };
            fields.insert(id.clone(), VersionedSet { set, ..current });
            managed.times.insert(id, self.clock.now());
        }
        managed.fields = fields;
        cap_update_managers(&mut managed);
        Ok(managed)
    }

    /// Takes the fields nobody owns out of `manager`'s set.
    fn strip(&self, fields: &mut ManagedFields, manager: &str) {
        if let Some(owned) = fields.get_mut(manager) {
            owned.set = owned.set.difference(&self.untracked);
            if owned.set.is_empty() {
                fields.remove(manager);
            }
        }
    }

    /// The fields of `live` its last-applied annotation still describes as they are.
    fn allowed_by_last_applied(&self, live: &Value) -> Option<Set> {
        let text = last_applied(live).filter(|a| !a.is_empty())?;
        let last: Value = serde_json::from_str(text).ok()?;
        if last.get("apiVersion").and_then(Value::as_str) != Some(self.api_version.as_str()) {
            return None;
        }
        let options = ReadOptions::default();
        let objects = Walking {
            skip_managed_fields: true,
            ..Walking::default()
        };
        crate::typed::field_set_with(self.schema, self.ty, live, options, objects).ok()?;
        let set = field_set(self.schema, self.ty, &last, options).ok()?;
        let c = crate::typed::compare_with(self.schema, self.ty, &last, live, objects).ok()?;
        Some(
            set.difference(&c.modified)
                .difference(&c.added)
                .difference(&c.removed),
        )
    }
}

/// Which fields an endpoint resets.
#[derive(Debug, Clone)]
enum Resets {
    None,
    Given(Set),
    /// The built-in table, for the kind and subresource.
    Builtin,
}

/// The value at the fields `names` of `object`.
fn at<'v>(object: &'v Value, names: &[&str]) -> Option<&'v Value> {
    names.iter().try_fold(object, |v, name| v.get(*name))
}

/// Sets (or, with `None`, removes) the value at the fields `names` of `object`, making the
/// objects on the way when there is a value to put.
fn put(object: &mut Value, names: &[&str], value: Option<Value>) {
    let Some((last, parents)) = names.split_last() else {
        return;
    };
    let mut here = object;
    for name in parents {
        let Some(o) = here.as_object_mut() else {
            return;
        };
        if value.is_none() && !o.contains_key(*name) {
            return;
        }
        here = o
            .entry((*name).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if let Some(o) = here.as_object_mut() {
        match value {
            Some(v) => {
                o.insert((*last).to_owned(), v);
            }
            None => {
                o.remove(*last);
            }
        }
    }
}

/// Keeps at most [`MAX_UPDATE_MANAGERS`] update managers: from the oldest on, each beyond the
/// cap is merged into `ancient-changes` of its version (the first of a version found becomes
/// that bucket when a second comes).
fn cap_update_managers(managed: &mut Managed) {
    let mut updaters: Vec<String> = managed
        .fields
        .iter()
        .filter(|(_, owned)| !owned.applied)
        .map(|(id, _)| id.clone())
        .collect();
    if updaters.len() <= MAX_UPDATE_MANAGERS {
        return;
    }
    let seconds = |id: &String| {
        managed
            .times
            .get(id)
            .and_then(|t| super::time::parse(t))
            .unwrap_or(0)
    };
    updaters.sort_by(|a, b| seconds(a).cmp(&seconds(b)).then_with(|| a.cmp(b)));
    let mut first_of_version: std::collections::HashMap<String, String> =
        std::collections::HashMap::new();
    let mut length = updaters.len();
    for id in updaters {
        if length <= MAX_UPDATE_MANAGERS {
            break;
        }
        let Some(owned) = managed.fields.get(&id).cloned() else {
            continue;
        };
        let time = managed.times.get(&id).cloned();
        let version = owned.api_version.clone();
        let bucket = manager_identifier("ancient-changes", Operation::Update, &version, "");
        match first_of_version.get(&version) {
            Some(first) => {
                if !managed.fields.contains_key(&bucket) {
                    if let Some(moved) = managed.fields.remove(first) {
                        managed.fields.insert(bucket.clone(), moved);
                    }
                }
                let joined = managed
                    .fields
                    .get(&bucket)
                    .map_or_else(|| owned.set.clone(), |b| owned.set.union(&b.set));
                managed.fields.insert(
                    bucket.clone(),
                    VersionedSet {
                        set: joined,
                        ..owned
                    },
                );
                managed.fields.remove(&id);
                length -= 1;
                match time {
                    Some(t) => managed.times.insert(bucket, t),
                    None => managed.times.remove(&bucket),
                };
            }
            None => {
                first_of_version.insert(version, id);
            }
        }
    }
}

fn name(manager: &str) -> &str {
    if manager.is_empty() {
        "unknown"
    } else {
        manager
    }
}

fn text<'v>(object: &'v Value, key: &str) -> &'v str {
    object.get(key).and_then(Value::as_str).unwrap_or("")
}

fn last_applied(object: &Value) -> Option<&str> {
    object
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str)
}

/// The most an object's annotations may hold, keys and values counted in bytes.
const ANNOTATIONS_SIZE_LIMIT: usize = 256 * 1024;

/// Sets the last-applied annotation, unless that would take the annotations past their size
/// limit: then it is left out (the rest stay).
fn set_last_applied(object: &mut Value, value: &str) {
    if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        let annotations = metadata
            .entry("annotations")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(annotations) = annotations.as_object_mut() {
            annotations.insert(LAST_APPLIED.to_owned(), Value::String(value.to_owned()));
            let size: usize = annotations
                .iter()
                .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
                .sum();
            if size > ANNOTATIONS_SIZE_LIMIT {
                annotations.remove(LAST_APPLIED);
            }
        }
    }
}

/// The last-applied annotation's text for `applied`: the object without that annotation, as
/// the server encodes an unstructured object.
fn build_last_applied(applied: &Value) -> String {
    let mut copy = applied.clone();
    if let Some(annotations) = copy
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        annotations.remove(LAST_APPLIED);
    }
    smp_core::gojson::to_string(&copy)
}

/// Whether two objects are equal but for their `metadata.managedFields`.
fn same_but_managed_fields(a: &Value, b: &Value) -> bool {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return a == b;
    };
    fn without<'a>(
        o: &'a Map<String, Value>,
        skip: &'static str,
    ) -> impl Iterator<Item = (&'a String, &'a Value)> {
        o.iter().filter(move |(k, _)| k.as_str() != skip)
    }
    if !without(a, "metadata").eq(without(b, "metadata")) {
        return false;
    }
    match (a.get("metadata"), b.get("metadata")) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            without(x, "managedFields").eq(without(y, "managedFields"))
        }
        (x, y) => x == y,
    }
}

/// Takes `metadata.managedFields` out of the object.
fn take_managed_fields(object: &mut Value) -> Option<Value> {
    object
        .get_mut("metadata")
        .and_then(Value::as_object_mut)
        .and_then(|metadata| metadata.remove("managedFields"))
}

/// Writes the managedFields list into the object's metadata (none: the member is removed).
fn set_managed_fields(object: &mut Value, entries: Option<Value>) {
    take_managed_fields(object);
    let Some(entries) = entries else {
        return;
    };
    if let Some(o) = object.as_object_mut() {
        let metadata = o
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(metadata) = metadata.as_object_mut() {
            metadata.insert("managedFields".into(), entries);
        }
    }
}
