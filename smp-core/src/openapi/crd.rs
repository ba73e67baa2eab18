//! Schemas of custom resources, from their CustomResourceDefinitions.
//!
//! No Kubernetes client or server patches custom resources strategically: a CRD's schema has no
//! `x-kubernetes-patch-strategy`. It has the markers server-side apply merges by, and they say
//! the same things, so smp reads them as patch metadata:
//!
//! The mapping is the table of the [custom_resources](crate::guide::custom_resources) guide (each row tested in this
//! module). In short: `x-kubernetes-list-type: map` merges by its keys (several keys: items
//! that differ in any of them are different items, [`FieldDef::composite`](crate::FieldDef)),
//! `set` of scalars merges as a set, `atomic` and `x-kubernetes-map-type: atomic` replace, the
//! patch extensions win where a schema has them, and the root's `metadata` is `ObjectMeta`'s.
//! An `x-kubernetes-embedded-resource` becomes [`TypeDef::Embedded`](crate::TypeDef), typed by
//! its own kind through the [`KindSchemas`] attached to the node (this catalog is one), and
//! `x-kubernetes-preserve-unknown-fields` an open [`StructDef`](crate::StructDef).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::{SchemaError, declared_type, flag, load_with};
use crate::error::DocRole;
use crate::schema::{KindSchemas, Node, Schema, Str, Strategy};

/// The patch metadata the server-side apply markers of a property give: `None` when it has
/// none (the field keeps the default strategy).
pub(super) fn markers(meta: &Map<String, Value>, at: &str) -> Result<Option<Marked>, SchemaError> {
    let bad = |key: &str, expected: &'static str| SchemaError::BadShape {
        at: format!("{at}/{key}"),
        expected,
    };
    match meta.get("x-kubernetes-list-type") {
        None | Some(Value::Null) => {}
        Some(Value::String(kind)) => {
            return match kind.as_str() {
                "map" => {
                    let keys = list_map_keys(meta, at)?;
                    // One key: the merge key. Several: the identity of every item, which the
                    // engine uses without `$patchMergeKey`, the merge key being the first.
                    Ok(Some(Marked {
                        strategy: Strategy::MERGE,
                        merge_key: keys.first().map(|k| Str::Owned(k.clone())),
                        composite: if keys.len() > 1 {
                            keys.into_iter().map(Str::Owned).collect()
                        } else {
                            Vec::new()
                        },
                        atomic_map: false,
                    }))
                }
                "set" if scalar_items(meta, at)? => Ok(Some(Marked::strategy(Strategy::MERGE))),
                "set" | "atomic" => Ok(Some(Marked::strategy(Strategy::REPLACE))),
                _ => Err(bad(
                    "x-kubernetes-list-type",
                    "\"atomic\", \"set\" or \"map\"",
                )),
            };
        }
        Some(_) => {
            return Err(bad(
                "x-kubernetes-list-type",
                "\"atomic\", \"set\" or \"map\"",
            ));
        }
    }
    match meta.get("x-kubernetes-map-type") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(kind)) if kind == "atomic" => Ok(Some(Marked {
            atomic_map: true,
            ..Marked::strategy(Strategy::REPLACE)
        })),
        Some(Value::String(kind)) if kind == "granular" => Ok(None),
        Some(_) => Err(bad("x-kubernetes-map-type", "\"atomic\" or \"granular\"")),
    }
}

/// What the markers of a property say.
pub(super) struct Marked {
    pub strategy: Strategy,
    pub merge_key: Option<Str>,
    /// The keys of a list keyed by several fields (empty otherwise).
    pub composite: Vec<Str>,
    /// `x-kubernetes-map-type: atomic`: replaced, and left out of created patches when
    /// unchanged.
    pub atomic_map: bool,
}

impl Marked {
    fn strategy(strategy: Strategy) -> Marked {
        Marked {
            strategy,
            merge_key: None,
            composite: Vec::new(),
            atomic_map: false,
        }
    }
}

/// `x-kubernetes-list-map-keys`: at least one field name.
fn list_map_keys(meta: &Map<String, Value>, at: &str) -> Result<Vec<String>, SchemaError> {
    let bad = || SchemaError::BadShape {
        at: format!("{at}/x-kubernetes-list-map-keys"),
        expected: "a non-empty list of field names (none starting with `$`) beside `x-kubernetes-list-type: map`",
    };
    let Some(Value::Array(keys)) = meta.get("x-kubernetes-list-map-keys") else {
        return Err(bad());
    };
    let keys: Vec<String> = keys
        .iter()
        .map(|k| match k {
            Value::String(k) if !k.is_empty() && !k.starts_with('$') => Ok(k.clone()),
            _ => Err(bad()),
        })
        .collect::<Result<_, _>>()?;
    if keys.is_empty() {
        return Err(bad());
    }
    // Apply indexes the identities of a list per subset of its keys.
    if keys.len() > 8 {
        return Err(SchemaError::BadShape {
            at: format!("{at}/x-kubernetes-list-map-keys"),
            expected: "at most 8 keys",
        });
    }
    Ok(keys)
}

/// Whether a list's items are scalars (a set of them merges as strategic merge patch merges a
/// list of primitives).
fn scalar_items(meta: &Map<String, Value>, at: &str) -> Result<bool, SchemaError> {
    let Some(Value::Object(items)) = meta.get("items") else {
        return Ok(false);
    };
    let items_at = format!("{at}/items");
    if flag(items, "x-kubernetes-int-or-string", &items_at)? {
        return Ok(true);
    }
    Ok(matches!(
        declared_type(items, &items_at)?,
        Some("string" | "integer" | "number" | "boolean")
    ))
}

/// The schema of version `version` of a CustomResourceDefinition (`apiextensions.k8s.io/v1`:
/// `spec.versions[].schema.openAPIV3Schema`; `v1beta1`: also a top-level
/// `spec.validation.openAPIV3Schema`), with the markers read as in the [module](self) table.
pub fn from_crd(crd: &Value, version: &str) -> Result<Schema, SchemaError> {
    let kind = crd
        .pointer("/spec/names/kind")
        .and_then(Value::as_str)
        .ok_or(SchemaError::BadShape {
            at: "#/spec/names/kind".to_owned(),
            expected: "the kind of the custom resource (a string)",
        })?;
    let versions = crd.pointer("/spec/versions").and_then(Value::as_array);
    let entry = versions.and_then(|vs| {
        vs.iter()
            .find(|v| v.get("name").and_then(Value::as_str) == Some(version))
    });
    let Some(entry) = entry else {
        let names: Vec<&str> = versions
            .into_iter()
            .flatten()
            .filter_map(|v| v.get("name").and_then(Value::as_str))
            .collect();
        return Err(SchemaError::UnknownDefinition {
            name: format!("{kind} {version}"),
            available_hint: format!("the CRD defines versions {names:?}"),
        });
    };
    let schema = entry
        .pointer("/schema/openAPIV3Schema")
        .or_else(|| crd.pointer("/spec/validation/openAPIV3Schema"))
        .ok_or(SchemaError::BadShape {
            at: "#/spec/versions/schema/openAPIV3Schema".to_owned(),
            expected: "the version's schema (openAPIV3Schema)",
        })?;
    // Every object's metadata is an ObjectMeta, which CRDs declare as a bare object.
    let mut schema = schema.clone();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.insert("metadata".to_owned(), object_meta().clone());
    }
    // The loader reads OpenAPI v3 documents: the CRD's schema becomes its one definition.
    let doc = json!({"components": {"schemas": {kind: schema}}});
    load_with(&doc, kind, true)
}

/// Deepest directory nesting [`CrdCatalog::add_path`] descends into.
const MAX_DIR_DEPTH: usize = 32;

/// Whether a file name looks like a manifest (`.yaml`, `.yml`, `.json`).
fn is_manifest(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
}

/// The patch metadata of `ObjectMeta` (Kubernetes v1.34): the members whose strategy is not the
/// default. The metadata of a custom resource and of every embedded resource.
pub(super) fn object_meta() -> &'static Value {
    static OBJECT_META: std::sync::LazyLock<Value> = std::sync::LazyLock::new(object_meta_schema);
    &OBJECT_META
}

fn object_meta_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "finalizers": {
                "type": "array",
                "items": {"type": "string"},
                "x-kubernetes-patch-strategy": "merge"
            },
            "ownerReferences": {
                "type": "array",
                "items": {"type": "object", "properties": {"uid": {"type": "string"}}},
                "x-kubernetes-patch-strategy": "merge",
                "x-kubernetes-patch-merge-key": "uid"
            },
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "annotations": {"type": "object", "additionalProperties": {"type": "string"}}
        }
    })
}

/// The schemas of many custom resources, by `apiVersion` and `kind`: every served version of
/// every CRD added.
#[derive(Debug, Default)]
pub struct CrdCatalog {
    kinds: BTreeMap<(String, String), Schema>,
    /// The CRDs added, as read (another semantics, server-side apply, builds its own types
    /// from them).
    documents: Vec<Value>,
}

/// Why CRDs could not be loaded: which file or document, and what went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum CrdError {
    /// A file or directory could not be read.
    Io {
        /// The file or directory.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A file is not JSON or YAML.
    Parse {
        /// The file.
        origin: String,
        /// The parser's error, with line and column.
        source: crate::error::PatchError,
    },
    /// A CRD's schema could not be read.
    Schema {
        /// The file (and document).
        origin: String,
        /// The CRD's `metadata.name`.
        name: String,
        /// What was wrong in it.
        source: SchemaError,
    },
}

impl std::fmt::Display for CrdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CrdError::Io { path, source } => write!(f, "reading {path}: {source}"),
            CrdError::Parse { origin, source } => write!(f, "{origin}: {source}"),
            CrdError::Schema {
                origin,
                name,
                source,
            } => write!(f, "{origin}: CustomResourceDefinition {name}: {source}"),
        }
    }
}

impl std::error::Error for CrdError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CrdError::Io { source, .. } => Some(source),
            CrdError::Parse { source, .. } => Some(source),
            CrdError::Schema { source, .. } => Some(source),
        }
    }
}

impl CrdCatalog {
    /// An empty catalog.
    pub fn new() -> CrdCatalog {
        CrdCatalog::default()
    }

    /// Adds every served version of a CRD (a document whose `kind` is
    /// `CustomResourceDefinition`). Returns how many versions were added.
    pub fn add_crd(&mut self, crd: &Value) -> Result<usize, SchemaError> {
        let group =
            crd.pointer("/spec/group")
                .and_then(Value::as_str)
                .ok_or(SchemaError::BadShape {
                    at: "#/spec/group".to_owned(),
                    expected: "the API group (a string)",
                })?;
        let kind = crd
            .pointer("/spec/names/kind")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut added = 0;
        for version in crd
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let served = version.get("served").and_then(Value::as_bool) != Some(false);
            let Some(name) = version.get("name").and_then(Value::as_str) else {
                continue;
            };
            if !served {
                continue;
            }
            let schema = from_crd(crd, name)?;
            self.kinds
                .insert((format!("{group}/{name}"), kind.to_owned()), schema);
            added += 1;
        }
        if added > 0 {
            self.documents.push(crd.clone());
        }
        Ok(added)
    }

    /// The CRDs added (those with a served version), in the order they came.
    pub fn documents(&self) -> &[Value] {
        &self.documents
    }

    /// Adds the CRDs of a parsed document: a CRD, or a `List` of them. Other kinds are not
    /// CRDs and are skipped (a directory of manifests may hold both). Returns how many
    /// versions were added.
    pub fn add_document(&mut self, doc: &Value, origin: &str) -> Result<usize, CrdError> {
        let schema_error = |doc: &Value, source| CrdError::Schema {
            origin: origin.to_owned(),
            name: doc
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("(unnamed)")
                .to_owned(),
            source,
        };
        match doc.get("kind").and_then(Value::as_str) {
            Some("CustomResourceDefinition") => self.add_crd(doc).map_err(|e| schema_error(doc, e)),
            Some(kind) if kind.ends_with("List") => {
                let mut added = 0;
                for item in doc
                    .get("items")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    added += self.add_document(item, origin)?;
                }
                Ok(added)
            }
            _ => Ok(0),
        }
    }

    /// Adds the CRDs of JSON or YAML text (several YAML documents, `List`s).
    pub fn add_text(&mut self, text: &str, origin: &str) -> Result<usize, CrdError> {
        let docs = crate::input::parse_documents(text, DocRole::Schema).map_err(|source| {
            CrdError::Parse {
                origin: origin.to_owned(),
                source,
            }
        })?;
        let mut added = 0;
        for (i, doc) in docs.iter().enumerate() {
            let here = if docs.len() > 1 {
                format!("{origin} document {}", i + 1)
            } else {
                origin.to_owned()
            };
            added += self.add_document(doc, &here)?;
        }
        Ok(added)
    }

    /// Adds the CRDs of a file, or of every `.yaml`, `.yml` and `.json` file of a directory and
    /// its subdirectories (in name order; symbolic links to directories are not followed, so a
    /// link cycle cannot loop). Returns how many versions were added.
    pub fn add_path(&mut self, path: &Path) -> Result<usize, CrdError> {
        if path.is_dir() {
            self.add_dir(path, 0)
        } else {
            self.add_file(path)
        }
    }

    fn add_file(&mut self, path: &Path) -> Result<usize, CrdError> {
        let text = std::fs::read_to_string(path).map_err(|source| CrdError::Io {
            path: path.display().to_string(),
            source,
        })?;
        self.add_text(&text, &path.display().to_string())
    }

    fn add_dir(&mut self, dir: &Path, depth: usize) -> Result<usize, CrdError> {
        let io = |source| CrdError::Io {
            path: dir.display().to_string(),
            source,
        };
        let mut entries: Vec<(PathBuf, std::fs::FileType)> = std::fs::read_dir(dir)
            .map_err(io)?
            .map(|e| e.and_then(|e| Ok((e.path(), e.file_type()?))))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut added = 0;
        for (entry, kind) in entries {
            if kind.is_dir() && depth < MAX_DIR_DEPTH {
                added += self.add_dir(&entry, depth + 1)?;
            } else if !kind.is_dir() && is_manifest(&entry) && entry.is_file() {
                added += self.add_file(&entry)?;
            }
        }
        Ok(added)
    }

    /// The schema of a custom resource of this `apiVersion` (`group/version`) and `kind`.
    pub fn lookup(&self, api_version: &str, kind: &str) -> Option<&Schema> {
        self.kinds.get(&(api_version.to_owned(), kind.to_owned()))
    }

    /// The `(apiVersion, kind)` pairs the catalog holds, sorted.
    pub fn kinds(&self) -> impl Iterator<Item = (&str, &str)> {
        self.kinds.keys().map(|(v, k)| (v.as_str(), k.as_str()))
    }

    /// How many `(apiVersion, kind)` pairs the catalog holds.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }
}

/// Custom resources of the catalog's CRDs type embedded resources of their kinds.
impl KindSchemas for CrdCatalog {
    fn schema_of(&self, api_version: &str, kind: &str) -> Option<Node<'_>> {
        self.lookup(api_version, kind).map(Schema::root)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schema::{BaseStrategy, TypeDef};

    /// A CRD of kind `Widget` in `example.com`, version `v1`, whose spec has `properties`.
    fn crd(properties: Value) -> Value {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com",
                "names": {"kind": "Widget", "plural": "widgets"},
                "scope": "Namespaced",
                "versions": [
                    {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                        "type": "object",
                        "properties": {
                            "metadata": {"type": "object"},
                            "spec": {"type": "object", "properties": properties}
                        }
                    }}},
                    {"name": "v0", "served": false, "storage": false}
                ]
            }
        })
    }

    fn item() -> Value {
        json!({"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}, "v": {"type": "string"}}})
    }

    fn apply_spec(properties: Value, spec: Value, patch: Value) -> Value {
        let schema = from_crd(&crd(properties), "v1").expect("loads");
        let out = crate::apply(&json!({"spec": spec}), &json!({"spec": patch}), &schema)
            .expect("applies");
        out["spec"].clone()
    }

    #[test]
    fn list_type_map_with_one_key_merges_by_it() {
        let props = json!({"l": {"type": "array", "items": item(),
            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}});
        let out = apply_spec(
            props,
            json!({"l": [{"name": "a", "v": "1"}, {"name": "b", "v": "2"}]}),
            json!({"l": [{"name": "b", "v": "3"}]}),
        );
        assert_eq!(
            out,
            json!({"l": [{"name": "a", "v": "1"}, {"name": "b", "v": "3"}]})
        );
    }

    #[test]
    fn list_type_map_with_several_keys_tells_items_apart_by_all() {
        let props = json!({"l": {"type": "array", "items": item(),
            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "name"]}});
        // A new item that shares the first key is a new item, not an update.
        let out = apply_spec(
            props.clone(),
            json!({"l": [{"port": 53, "name": "tcp"}]}),
            json!({"l": [{"port": 53, "name": "udp", "v": "new"}]}),
        );
        assert_eq!(
            out,
            json!({"l": [{"port": 53, "name": "udp", "v": "new"}, {"port": 53, "name": "tcp"}]})
        );
        // An update names all keys; deletion too; no directive needed.
        let out = apply_spec(
            props.clone(),
            json!({"l": [{"port": 53, "name": "tcp"}, {"port": 53, "name": "udp"}]}),
            json!({"l": [{"port": 53, "name": "udp", "v": "x"}, {"port": 53, "name": "tcp", "$patch": "delete"}]}),
        );
        assert_eq!(out, json!({"l": [{"port": 53, "name": "udp", "v": "x"}]}));
        // Created patches carry every key field and, by default, no directive; with
        // `PatchMergeKey::Emit` they carry it too.
        let schema = from_crd(&crd(props), "v1").expect("loads");
        let a = json!({"spec": {"l": [{"port": 53, "name": "tcp"}]}});
        let b = json!({"spec": {"l": [{"port": 53, "name": "tcp"}, {"port": 53, "name": "udp"}]}});
        let patch = crate::diff(&a, &b, &schema).expect("diff");
        assert_eq!(
            patch,
            json!({"spec": {"$setElementOrder/l": [{"port": 53, "name": "tcp"}, {"port": 53, "name": "udp"}],
                            "l": [{"port": 53, "name": "udp"}]}})
        );
        assert_eq!(crate::apply(&a, &patch, &schema).expect("applies"), b);
        let emit = crate::DiffOptions {
            patch_merge_key: crate::PatchMergeKey::Emit,
            ..Default::default()
        };
        let patch = crate::diff_with(&a, &b, &schema, &emit).expect("diff");
        assert_eq!(
            patch["spec"]["l"][0]["$patchMergeKey"],
            json!(["port", "name"])
        );
        assert_eq!(crate::apply(&a, &patch, &schema).expect("applies"), b);
        // A directive naming other keys is an error.
        let err = crate::apply(
            &a,
            &json!({"spec": {"l": [{"port": 53, "$patchMergeKey": ["port"]}]}}),
            &schema,
        )
        .expect_err("other keys");
        assert!(
            err.to_string().contains("x-kubernetes-list-map-keys"),
            "{err}"
        );
    }

    #[test]
    fn list_type_set_of_scalars_merges_as_a_set() {
        let props = json!({"l": {"type": "array", "items": {"type": "string"},
            "x-kubernetes-list-type": "set"}});
        let out = apply_spec(props, json!({"l": ["a", "b"]}), json!({"l": ["c"]}));
        assert_eq!(out, json!({"l": ["c", "a", "b"]}));
    }

    #[test]
    fn list_type_set_of_objects_atomic_and_unmarked_lists_are_replaced() {
        for marker in [
            json!({"x-kubernetes-list-type": "set"}),
            json!({"x-kubernetes-list-type": "atomic"}),
            json!({}),
        ] {
            let mut l = json!({"type": "array", "items": item()});
            l.as_object_mut()
                .unwrap()
                .extend(marker.as_object().unwrap().clone());
            let out = apply_spec(
                json!({"l": l}),
                json!({"l": [{"name": "a"}, {"name": "b"}]}),
                json!({"l": [{"name": "b", "v": "x"}]}),
            );
            assert_eq!(out, json!({"l": [{"name": "b", "v": "x"}]}), "{marker}");
        }
    }

    #[test]
    fn map_type_atomic_replaces_granular_merges() {
        let atomic = json!({"o": {"type": "object", "x-kubernetes-map-type": "atomic",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}});
        let out = apply_spec(
            atomic.clone(),
            json!({"o": {"a": "1", "b": "2"}}),
            json!({"o": {"a": "3"}}),
        );
        assert_eq!(out, json!({"o": {"a": "3"}}));
        // Created patches send it whole, and only when it changed.
        let schema = from_crd(&crd(atomic), "v1").expect("loads");
        let a = json!({"spec": {"o": {"a": "1", "b": "2"}}});
        assert_eq!(crate::diff(&a, &a, &schema).expect("diff"), json!({}));
        let b = json!({"spec": {"o": {"a": "1", "b": "3"}}});
        assert_eq!(crate::diff(&a, &b, &schema).expect("diff"), b);
        let granular = json!({"o": {"type": "object", "x-kubernetes-map-type": "granular",
            "additionalProperties": {"type": "string"}}});
        let out = apply_spec(
            granular,
            json!({"o": {"a": "1", "b": "2"}}),
            json!({"o": {"a": "3"}}),
        );
        assert_eq!(out, json!({"o": {"a": "3", "b": "2"}}));
    }

    #[test]
    fn patch_extensions_win_over_markers() {
        let props = json!({"l": {"type": "array", "items": item(),
            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "x-kubernetes-patch-strategy": "replace"}});
        let out = apply_spec(
            props,
            json!({"l": [{"name": "a"}]}),
            json!({"l": [{"name": "b"}]}),
        );
        assert_eq!(out, json!({"l": [{"name": "b"}]}));
    }

    #[test]
    fn preserve_unknown_fields_int_or_string_and_embedded_resources() {
        let props = json!({
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "kept": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                     "properties": {"l": {"type": "array", "items": item(),
                        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}}},
            "port": {"x-kubernetes-int-or-string": true},
            "embedded": {"type": "object", "x-kubernetes-embedded-resource": true,
                         "x-kubernetes-preserve-unknown-fields": true,
                         "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"}}}
        });
        let out = apply_spec(
            props,
            json!({"free": {"x": {"y": 1}, "l": [1]}, "kept": {"l": [{"name": "a"}], "other": 1},
                   "port": 80, "embedded": {"kind": "ConfigMap", "data": {"a": "1"}}}),
            json!({"free": {"x": {"z": 2}, "l": [2]}, "kept": {"l": [{"name": "b"}]},
                   "port": "http", "embedded": {"data": {"b": "2"}}}),
        );
        assert_eq!(
            out,
            json!({"free": {"x": {"y": 1, "z": 2}, "l": [2]},
                   // Upstream puts items the live list lacks first (no `$setElementOrder`).
                   "kept": {"l": [{"name": "b"}, {"name": "a"}], "other": 1},
                   "port": "http", "embedded": {"kind": "ConfigMap", "data": {"a": "1", "b": "2"}}})
        );

        // Undeclared members of an open object are data: diff compares them too.
        let schema = from_crd(&crd(props_for_diff()), "v1").expect("loads");
        let spec = |v: Value| json!({"spec": {"kept": {"other": v}}});
        assert_eq!(
            crate::diff(&spec(json!({"x": [1]})), &spec(json!({"x": [2]})), &schema),
            Ok(spec(json!({"x": [2]})))
        );
        // An embedded resource is one (typed by its kind when the node knows kinds, see
        // tests/tests/embedded_resources.rs); its metadata is an ObjectMeta.
        let embedded = schema.root().field("spec").node.field("embedded").node;
        assert!(embedded.is_embedded());
        let out = crate::apply(
            &json!({"spec": {"embedded": {"metadata": {"finalizers": ["a"]}}}}),
            &json!({"spec": {"embedded": {"metadata": {"finalizers": ["b"]}}}}),
            &schema,
        );
        assert_eq!(
            out.expect("applies")["spec"]["embedded"]["metadata"]["finalizers"],
            json!(["b", "a"])
        );
    }

    fn props_for_diff() -> Value {
        json!({
            "kept": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                     "properties": {"size": {"type": "integer"}}},
            "embedded": {"type": "object", "x-kubernetes-embedded-resource": true,
                         "x-kubernetes-preserve-unknown-fields": true}
        })
    }

    #[test]
    fn metadata_is_object_meta() {
        let schema = from_crd(&crd(json!({})), "v1").expect("loads");
        let out = crate::apply(
            &json!({"metadata": {"finalizers": ["a"], "ownerReferences": [{"uid": "1", "name": "x"}]}}),
            &json!({"metadata": {"finalizers": ["b"], "ownerReferences": [{"uid": "2", "name": "y"}]}}),
            &schema,
        )
        .expect("applies");
        assert_eq!(out["metadata"]["finalizers"], json!(["b", "a"]));
        assert_eq!(
            out["metadata"]["ownerReferences"].as_array().map(Vec::len),
            Some(2)
        );
    }

    #[test]
    fn directories_are_walked_without_following_link_cycles() {
        let dir = std::env::temp_dir().join(format!("smp-crd-walk-{}", std::process::id()));
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(sub.join("w.yaml"), crd(json!({})).to_string()).expect("write");
        std::fs::write(dir.join("notes.txt"), "not a manifest").expect("write");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&dir, sub.join("loop")).expect("symlink");
        let mut catalog = CrdCatalog::new();
        assert_eq!(catalog.add_path(&dir).expect("walks"), 1);
        assert!(catalog.lookup("example.com/v1", "Widget").is_some());
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn catalog_holds_served_versions_and_bad_markers_are_errors() {
        let mut catalog = CrdCatalog::new();
        let list = json!({"apiVersion": "v1", "kind": "List", "items": [crd(json!({}))]});
        assert_eq!(catalog.add_document(&list, "test").expect("adds"), 1);
        assert!(catalog.lookup("example.com/v1", "Widget").is_some());
        assert!(
            catalog.lookup("example.com/v0", "Widget").is_none(),
            "not served"
        );
        assert!(from_crd(&crd(json!({})), "v2").is_err());
        let bad = crd(json!({"l": {"type": "array", "x-kubernetes-list-type": "map"}}));
        let err = from_crd(&bad, "v1").expect_err("no keys");
        assert!(
            err.to_string().contains("x-kubernetes-list-map-keys"),
            "{err}"
        );
        let bad = crd(json!({"l": {"type": "array", "x-kubernetes-list-type": "bag"}}));
        assert!(from_crd(&bad, "v1").is_err());
        let schema = from_crd(
            &crd(json!({"l": {"type": "array", "items": item(),
            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}})),
            "v1",
        )
        .expect("loads");
        let spec = schema.root().field("spec").node;
        let meta = spec.field("l");
        assert_eq!(meta.strategy.base, BaseStrategy::Merge);
        assert_eq!(meta.merge_key, Some("name"));
        assert!(matches!(meta.node.def(), TypeDef::List(_)));
    }
}
