//! Test cases written down from other projects' tests, in this project's own JSON format, and
//! what reads them.
//!
//! A case file is `{"source": "...", "cases": [...]}`; each case has a `name`, `types` (type
//! name → type expression), a `root` type, and the sections of checks it holds (see the test
//! files that read them). A type expression is:
//! - a string: a type of `types`, or `"untyped"` (any value, owned whole) or `"deduced"`
//!   (any value, objects owned key by key);
//! - `{"ref": NAME, "mapAtomic": BOOL}`: a named type whose objects are atomic (or granular)
//!   where this reference is used;
//! - an object with any of `"scalar"` (`"string"`, `"numeric"`, `"boolean"`, `"untyped"`),
//!   `"list"` (`{"items": TYPE, "type": "atomic" | "set" | "map", "keys": [...]}`) and `"map"`
//!   (`{"fields": {NAME: TYPE or {"type": TYPE, "default": VALUE}}, "rest": TYPE, "atomic":
//!   BOOL}`; no `rest`: keys other than the fields are not allowed).
//!
//! A path is a list of elements: a string is a field, `{"key": {...}}` a list-map item by its
//! key fields, `{"value": V}` a set's item, `{"index": N}` an atomic list's item. A set is a
//! list of paths.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use smp_ssa::fieldpath::{Path, PathElement, Set};
use smp_ssa::schema::{
    Atom, Field, List, ListKind, MapType, Scalar, Schema, SchemaBuilder, TypeRef,
};

/// The case files of a directory under `tests/data/`, with their names.
pub fn case_files(dir: &str) -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let value: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_name().unwrap().to_string_lossy().into_owned(), value)
        })
        .collect()
}

/// A case's schema and its root type.
pub fn schema(case: &Value) -> (Schema, TypeRef) {
    let mut b = SchemaBuilder::new();
    let mut named: HashMap<String, TypeRef> = HashMap::new();
    let types = case["types"].as_object().expect("types");
    for name in types.keys() {
        named.insert(name.clone(), b.named(name));
    }
    for (name, expr) in types {
        let atom = atom(&mut b, &named, expr);
        b.define(named[name], atom);
    }
    let root = case["root"].as_str().expect("root");
    let root = reference(&mut b, &named, &Value::String(root.to_owned()));
    (b.build(), root)
}

fn reference(b: &mut SchemaBuilder, named: &HashMap<String, TypeRef>, expr: &Value) -> TypeRef {
    match expr {
        Value::String(name) => match name.as_str() {
            "untyped" => b.untyped(),
            "deduced" => b.deduced(),
            _ => *named
                .get(name)
                .unwrap_or_else(|| panic!("no type {name:?}")),
        },
        Value::Object(o) if o.contains_key("ref") => {
            let ty = reference(b, named, &o["ref"]);
            match o.get("mapAtomic").and_then(Value::as_bool) {
                Some(atomic) => ty.with_map_atomic(atomic),
                None => ty,
            }
        }
        _ => {
            let atom = atom(b, named, expr);
            b.add(atom)
        }
    }
}

fn atom(b: &mut SchemaBuilder, named: &HashMap<String, TypeRef>, expr: &Value) -> Atom {
    let o = expr
        .as_object()
        .unwrap_or_else(|| panic!("a type's shapes are an object: {expr}"));
    for key in o.keys() {
        assert!(
            ["scalar", "list", "map"].contains(&key.as_str()),
            "unknown shape {key:?} in {expr}"
        );
    }
    let scalar = o.get("scalar").map(|s| match s.as_str() {
        Some("string") => Scalar::String,
        Some("numeric") => Scalar::Numeric,
        Some("boolean") => Scalar::Boolean,
        Some("untyped") => Scalar::Untyped,
        _ => panic!("bad scalar {s}"),
    });
    let list = o.get("list").map(|l| {
        let item = reference(b, named, &l["items"]);
        let kind = match l.get("type").and_then(Value::as_str).unwrap_or("atomic") {
            "atomic" => ListKind::Atomic,
            "set" => ListKind::Set,
            "map" => ListKind::Map(
                l["keys"]
                    .as_array()
                    .expect("a map list's keys")
                    .iter()
                    .map(|k| k.as_str().unwrap().to_owned())
                    .collect(),
            ),
            other => panic!("bad list type {other}"),
        };
        List { item, kind }
    });
    let map = o.get("map").map(|m| {
        let fields = m
            .get("fields")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, f)| {
                let (ty, default) = match f.as_object() {
                    Some(fo) if fo.contains_key("type") => {
                        (reference(b, named, &fo["type"]), fo.get("default").cloned())
                    }
                    _ => (reference(b, named, f), None),
                };
                Field {
                    name: name.clone(),
                    ty,
                    default,
                }
            })
            .collect();
        MapType {
            fields,
            rest: m.get("rest").map(|r| reference(b, named, r)),
            atomic: m.get("atomic").and_then(Value::as_bool).unwrap_or(false),
        }
    });
    Atom { scalar, list, map }
}

/// A path written as a list of elements.
pub fn path(value: &Value) -> Path {
    let elements = value
        .as_array()
        .unwrap_or_else(|| panic!("a path: {value}"));
    Path(elements.iter().map(element).collect())
}

fn element(value: &Value) -> PathElement {
    match value {
        Value::String(name) => PathElement::field(name.as_str()),
        Value::Object(o) if o.len() == 1 => {
            let (kind, v) = o.iter().next().unwrap();
            match kind.as_str() {
                "key" => PathElement::key(
                    v.as_object()
                        .expect("key fields")
                        .iter()
                        .map(|(k, v)| (k.as_str(), v.clone())),
                ),
                "value" => PathElement::Value(v.clone()),
                "index" => PathElement::Index(v.as_i64().expect("an index")),
                _ => panic!("bad element {value}"),
            }
        }
        _ => panic!("bad element {value}"),
    }
}

/// A set written as a list of paths.
pub fn set(value: &Value) -> Set {
    let paths = value.as_array().unwrap_or_else(|| panic!("a set: {value}"));
    Set::from_paths(paths.iter().map(path))
}
