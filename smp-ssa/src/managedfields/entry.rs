//! `metadata.managedFields` entries, read into managers' sets and written back as the API server
//! writes them: one entry per manager, identified by its name, operation, API version (for
//! updates) and subresource; entries sorted by operation, time, manager, version, subresource.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::time;
use crate::fieldpath::{Set, fields_v1};
use crate::merge::{ManagedFields, VersionedSet};

/// How a manager wrote its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Operation {
    /// A server-side apply.
    Apply,
    /// Any other write: create, update, a JSON, merge or strategic merge patch.
    Update,
}

/// One entry of `metadata.managedFields`, its members in the server's order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManagedFieldsEntry {
    /// The manager's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub manager: String,
    /// How it wrote the fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<Operation>,
    /// The API version of the object it wrote.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// When it last wrote them (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// The form of `fieldsV1`: always `FieldsV1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fields_type: String,
    /// The fields.
    #[serde(default, rename = "fieldsV1", skip_serializing_if = "Option::is_none")]
    pub fields_v1: Option<Set>,
    /// The subresource it wrote through (`status`), if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subresource: String,
}

/// A managedFields list that does not read: the API server refuses it the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ManagedFieldsError(pub String);

/// Every manager's fields and when it wrote them, by manager identifier.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Managed {
    /// The fields.
    pub fields: ManagedFields,
    /// The time of each manager's last write, where known.
    pub times: BTreeMap<String, String>,
}

/// The identifier the field manager knows a manager by: the entry without its fields and time
/// (and, for an apply, without its API version), as JSON.
pub fn manager_identifier(
    manager: &str,
    operation: Operation,
    api_version: &str,
    subresource: &str,
) -> String {
    let entry = ManagedFieldsEntry {
        manager: manager.to_owned(),
        operation: Some(operation),
        api_version: match operation {
            Operation::Apply => String::new(),
            Operation::Update => api_version.to_owned(),
        },
        subresource: subresource.to_owned(),
        ..ManagedFieldsEntry::default()
    };
    serde_json::to_string(&entry).unwrap_or_default()
}

/// The managers of a managedFields list (`metadata.managedFields`, or nothing).
pub fn decode(entries: Option<&Value>) -> Result<Managed, ManagedFieldsError> {
    Ok(match entries {
        None | Some(Value::Null) => Managed::default(),
        Some(Value::Array(entries)) => read(entries)?.0,
        Some(_) => return Err(ManagedFieldsError("managedFields must be a list".into())),
    })
}

/// Entries as read from an object, kept so that the field manager can pass on those it did not
/// change as they came instead of writing them again.
pub(crate) struct ReadEntries<'v> {
    /// The managers as read.
    pub(crate) managed: Managed,
    /// The entries.
    raw: Raw<'v>,
    /// The entries in the server's form (passing one on writes what the server writes), by
    /// their manager identifier.
    reusable: BTreeMap<String, usize>,
}

/// Where the entries are: borrowed from the live object, or owned (taken out of the object
/// being written), so that those passed on are moved rather than copied.
enum Raw<'v> {
    Borrowed(&'v [Value]),
    Owned(Vec<Value>),
}

impl<'v> ReadEntries<'v> {
    /// No entries.
    pub(crate) fn none() -> ReadEntries<'v> {
        ReadEntries {
            managed: Managed::default(),
            raw: Raw::Owned(Vec::new()),
            reusable: BTreeMap::new(),
        }
    }

    /// Reads a managedFields list borrowed from an object.
    pub(crate) fn borrowed(
        entries: Option<&'v Value>,
    ) -> Result<ReadEntries<'v>, ManagedFieldsError> {
        match entries {
            None | Some(Value::Null) => Ok(ReadEntries::none()),
            Some(Value::Array(entries)) => {
                let (managed, reusable) = read(entries)?;
                Ok(ReadEntries {
                    managed,
                    raw: Raw::Borrowed(entries),
                    reusable,
                })
            }
            Some(_) => Err(ManagedFieldsError("managedFields must be a list".into())),
        }
    }

    /// Reads a managedFields list taken out of an object.
    pub(crate) fn owned(entries: Option<Value>) -> Result<ReadEntries<'v>, ManagedFieldsError> {
        match entries {
            None | Some(Value::Null) => Ok(ReadEntries::none()),
            Some(Value::Array(entries)) => {
                let (managed, reusable) = read(&entries)?;
                Ok(ReadEntries {
                    managed,
                    raw: Raw::Owned(entries),
                    reusable,
                })
            }
            Some(_) => Err(ManagedFieldsError("managedFields must be a list".into())),
        }
    }

    /// The `fieldsV1` of entry `i` as read, taken out (a borrowed one copied).
    fn take_fields(&mut self, i: usize) -> Option<Value> {
        match &mut self.raw {
            Raw::Borrowed(entries) => entries.get(i)?.get("fieldsV1").cloned(),
            Raw::Owned(entries) => entries.get_mut(i)?.get_mut("fieldsV1").map(Value::take),
        }
    }

    /// Entry `i` as read, taken out (a borrowed one copied).
    fn take(&mut self, i: usize) -> Option<Value> {
        match &mut self.raw {
            Raw::Borrowed(entries) => entries.get(i).cloned(),
            Raw::Owned(entries) => entries.get_mut(i).map(Value::take),
        }
    }
}

/// The managers of managedFields entries, with the entries in the server's form by manager
/// identifier.
fn read(entries: &[Value]) -> Result<(Managed, BTreeMap<String, usize>), ManagedFieldsError> {
    let mut managed = Managed::default();
    let mut reusable = BTreeMap::new();
    for (i, raw) in entries.iter().enumerate() {
        let Value::Object(entry) = raw else {
            return Err(ManagedFieldsError(format!(
                "managed fields entry {i} is not an object"
            )));
        };
        let text = |key: &str| -> Result<&str, ManagedFieldsError> {
            match entry.get(key) {
                None | Some(Value::Null) => Ok(""),
                Some(Value::String(s)) => Ok(s),
                Some(_) => Err(ManagedFieldsError(format!(
                    "managed fields entry {i}: {key} is not a string"
                ))),
            }
        };
        let operation = match text("operation")? {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => {
                return Err(ManagedFieldsError(
                    "operation must be `Apply` or `Update`".into(),
                ));
            }
        };
        let api_version = text("apiVersion")?;
        if api_version.is_empty() {
            return Err(ManagedFieldsError("apiVersion must not be empty".into()));
        }
        match text("fieldsType")? {
            "FieldsV1" => {}
            "" => {
                return Err(ManagedFieldsError(format!(
                    "missing fieldsType in managed fields entry {i}"
                )));
            }
            other => {
                return Err(ManagedFieldsError(format!(
                    "invalid fieldsType {other:?} in managed fields entry {i}"
                )));
            }
        }
        let (set, canonical_fields) = match entry.get("fieldsV1") {
            None | Some(Value::Null) => (Set::new(), false),
            Some(fields) => fields_v1::read_value(fields)
                .map_err(|e| ManagedFieldsError(format!("managed fields entry {i}: {e}")))?,
        };
        let id = manager_identifier(
            text("manager")?,
            operation,
            api_version,
            text("subresource")?,
        );
        let time = text("time")?;
        if canonical_fields && in_servers_form(entry) {
            reusable.insert(id.clone(), i);
        }
        if !time.is_empty() {
            // Read as the server reads a `metav1.Time`: any RFC 3339 form, written back in UTC
            // to the second (`+00:00` is `Z`).
            let canonical = time::parse(time).map_or_else(|| time.to_owned(), time::format);
            managed.times.insert(id.clone(), canonical);
        }
        managed.fields.insert(
            id,
            VersionedSet {
                set,
                api_version: api_version.to_owned(),
                applied: operation == Operation::Apply,
            },
        );
    }
    Ok((managed, reusable))
}

/// Whether a readable entry's members are as the server writes them (its `fieldsV1` aside):
/// only the entry's own members, a time in the server's form, and no empty strings (the server
/// leaves them out).
fn in_servers_form(entry: &serde_json::Map<String, Value>) -> bool {
    const MEMBERS: [&str; 7] = [
        "manager",
        "operation",
        "apiVersion",
        "time",
        "fieldsType",
        "fieldsV1",
        "subresource",
    ];
    if !entry.keys().all(|k| MEMBERS.contains(&k.as_str())) {
        return false;
    }
    if let Some(t) = entry.get("time") {
        let Some(t) = t.as_str() else {
            return false;
        };
        if time::parse(t).map(time::format).as_deref() != Some(t) {
            return false;
        }
    }
    ["manager", "apiVersion", "subresource"]
        .iter()
        .all(|k| entry.get(*k).is_none_or(|v| v.as_str() != Some("")))
}

/// The managedFields list of `managed`, sorted as the server sorts it; `None` when there is no
/// manager.
pub fn encode(managed: &Managed) -> Option<Vec<ManagedFieldsEntry>> {
    if managed.fields.is_empty() {
        return None;
    }
    let mut entries: Vec<ManagedFieldsEntry> = managed
        .fields
        .iter()
        .map(|(id, owned)| entry_of(id, owned, managed.times.get(id)))
        .collect();
    entries.sort_by(|p, q| order(&sort_key(p), &sort_key(q)));
    Some(entries)
}

/// The entry of manager `id`.
fn entry_of(id: &str, owned: &VersionedSet, time: Option<&String>) -> ManagedFieldsEntry {
    let mut entry = entry_head(id, owned, time);
    entry.fields_type = "FieldsV1".into();
    entry.fields_v1 = Some(owned.set.clone());
    entry
}

/// The entry of manager `id` without its fields: what it is sorted by.
fn entry_head(id: &str, owned: &VersionedSet, time: Option<&String>) -> ManagedFieldsEntry {
    let mut entry: ManagedFieldsEntry = serde_json::from_str(id).unwrap_or_default();
    entry.api_version = owned.api_version.clone();
    if owned.applied {
        entry.operation = Some(Operation::Apply);
    }
    entry.time = time.cloned();
    entry
}

/// What entries are sorted by: operation, time (to the second), manager, version, subresource.
type SortKey<'a> = (Option<Operation>, i64, &'a str, &'a str, &'a str);

fn sort_key(e: &ManagedFieldsEntry) -> SortKey<'_> {
    let seconds = e.time.as_deref().and_then(time::parse).unwrap_or(0);
    (
        e.operation,
        seconds,
        &e.manager,
        &e.api_version,
        &e.subresource,
    )
}

fn order(p: &SortKey<'_>, q: &SortKey<'_>) -> std::cmp::Ordering {
    p.cmp(q)
}

/// The managedFields of `managed` as the object carries them, passing on the entries `read`
/// holds for managers whose fields and time did not change and which are in the server's form:
/// only the other entries are written again. `None`: no manager.
pub(crate) fn encode_reusing(managed: &Managed, mut read: ReadEntries<'_>) -> Option<Value> {
    if managed.fields.is_empty() {
        return None;
    }
    let mut out: Vec<(ManagedFieldsEntry, Option<Value>)> =
        Vec::with_capacity(managed.fields.len());
    for (id, owned) in &managed.fields {
        let time = managed.times.get(id);
        let before = read.managed.fields.get(id);
        let raw = read.reusable.remove(id);
        let (Some(before), Some(raw)) = (before, raw) else {
            out.push((entry_of(id, owned, time), None));
            continue;
        };
        if before == owned && read.managed.times.get(id) == time {
            // Only what the order needs is read back; the value goes out as it came.
            let value = read.take(raw);
            out.push((entry_head(id, owned, time), value));
            continue;
        }
        // A new time, or fewer fields: the document as read, less what the manager lost.
        let fields = if before.set == owned.set {
            read.take_fields(raw)
        } else if owned.set.difference(&before.set).is_empty() {
            let lost = before.set.difference(&owned.set);
            read.take_fields(raw)
                .and_then(|mut v| fields_v1::remove(&mut v, &lost).then_some(v))
        } else {
            None
        };
        match fields {
            Some(fields) => {
                let mut head = entry_head(id, owned, time);
                head.fields_type = "FieldsV1".into();
                let value = entry_value_with(&head, Some(fields));
                out.push((head, Some(value)));
            }
            None => out.push((entry_of(id, owned, time), None)),
        }
    }
    out.sort_by(|p, q| order(&sort_key(&p.0), &sort_key(&q.0)));
    Some(Value::Array(
        out.into_iter()
            .map(|(entry, value)| value.unwrap_or_else(|| entry_value(&entry)))
            .collect(),
    ))
}

/// An entry as the JSON the object carries.
fn entry_value(entry: &ManagedFieldsEntry) -> Value {
    entry_value_with(entry, entry.fields_v1.as_ref().map(fields_v1::to_value))
}

/// An entry as the JSON the object carries, with `fields` as its `fieldsV1`.
fn entry_value_with(entry: &ManagedFieldsEntry, fields: Option<Value>) -> Value {
    let mut o = serde_json::Map::new();
    let mut text = |k: &str, v: &str| {
        if !v.is_empty() {
            o.insert(k.to_owned(), Value::String(v.to_owned()));
        }
    };
    text("manager", &entry.manager);
    text(
        "operation",
        match entry.operation {
            Some(Operation::Apply) => "Apply",
            Some(Operation::Update) => "Update",
            None => "",
        },
    );
    text("apiVersion", &entry.api_version);
    text("time", entry.time.as_deref().unwrap_or(""));
    text("fieldsType", &entry.fields_type);
    text("subresource", &entry.subresource);
    if let Some(fields) = fields {
        o.insert("fieldsV1".into(), fields);
    }
    Value::Object(o)
}

/// The entries as the JSON the object carries.
pub fn to_value(entries: &[ManagedFieldsEntry]) -> Value {
    Value::Array(entries.iter().map(entry_value).collect())
}
