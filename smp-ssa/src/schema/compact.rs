//! A schema written down compactly, in this crate's own JSON form, so that the structured types
//! of the built-in kinds travel with the crate without the OpenAPI documents they come from.
//!
//! `{"atoms": [ATOM, ...], "names": {NAME: INDEX}, "kinds": [[GROUP, VERSION, KIND, INDEX]]}`,
//! where an ATOM has any of `"s"` (scalar: `"n"`umeric, `"s"`tring, `"b"`oolean,
//! `"u"`ntyped), `"l"` (list: `{"i": REF, "t": "a" | "s" | [KEY, ...]}`: atomic, set, or a map
//! keyed by those fields) and `"m"` (object: `{"f": [[NAME, REF] or [NAME, REF, DEFAULT]],
//! "r": REF, "a": 1}`: fields, other keys' type, atomic); a REF is an atom's index, or
//! `[INDEX, 0 | 1]` when the use makes its objects granular or atomic.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use super::{Atom, Field, Gvk, List, ListKind, MapType, Scalar, Schema, TypeRef};

/// `schema` in the compact form (deterministic: names and kinds sorted).
pub fn to_compact_json(schema: &Schema) -> String {
    let atoms: Vec<Value> = schema.atoms.iter().map(atom_value).collect();
    let names: BTreeMap<&String, &usize> = schema.names.iter().collect();
    let mut kinds: Vec<(&Gvk, &usize)> = schema.kinds.iter().collect();
    kinds.sort_by(|a, b| {
        (&a.0.group, &a.0.version, &a.0.kind).cmp(&(&b.0.group, &b.0.version, &b.0.kind))
    });
    let kinds: Vec<Value> = kinds
        .into_iter()
        .map(|(g, i)| json!([g.group, g.version, g.kind, i]))
        .collect();
    // One atom per line: a diff of two versions reads type by type.
    let mut out = String::from("{\"atoms\":[\n");
    for (i, atom) in atoms.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&atom.to_string());
    }
    out.push_str("\n],\n\"names\":");
    out.push_str(&serde_json::to_string(&names).unwrap_or_default());
    out.push_str(",\n\"kinds\":");
    out.push_str(&Value::Array(kinds).to_string());
    out.push_str("}\n");
    out
}

fn ref_value(ty: TypeRef) -> Value {
    match ty.map_atomic {
        None => json!(ty.index),
        Some(atomic) => json!([ty.index, u8::from(atomic)]),
    }
}

fn atom_value(atom: &Atom) -> Value {
    let mut o = Map::new();
    if let Some(s) = atom.scalar {
        let code = match s {
            Scalar::Numeric => "n",
            Scalar::String => "s",
            Scalar::Boolean => "b",
            Scalar::Untyped => "u",
        };
        o.insert("s".into(), json!(code));
    }
    if let Some(list) = &atom.list {
        let kind = match &list.kind {
            ListKind::Atomic => json!("a"),
            ListKind::Set => json!("s"),
            ListKind::Map(keys) => json!(keys),
        };
        o.insert("l".into(), json!({"i": ref_value(list.item), "t": kind}));
    }
    if let Some(map) = &atom.map {
        let mut m = Map::new();
        if !map.fields.is_empty() {
            let fields: Vec<Value> = map
                .fields
                .iter()
                .map(|f| match &f.default {
                    Some(d) => json!([f.name, ref_value(f.ty), d]),
                    None => json!([f.name, ref_value(f.ty)]),
                })
                .collect();
            m.insert("f".into(), Value::Array(fields));
        }
        if let Some(rest) = map.rest {
            m.insert("r".into(), ref_value(rest));
        }
        if map.atomic {
            m.insert("a".into(), json!(1));
        }
        o.insert("m".into(), Value::Object(m));
    }
    Value::Object(o)
}

/// Why a compact schema does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad compact schema: {0}")]
pub struct CompactError(String);

/// Reads a schema in the compact form.
pub fn from_compact_json(text: &str) -> Result<Schema, CompactError> {
    let bad = |what: &str| CompactError(what.to_owned());
    let doc: Value = serde_json::from_str(text).map_err(|e| CompactError(e.to_string()))?;
    let atoms = doc["atoms"].as_array().ok_or_else(|| bad("no atoms"))?;
    let count = atoms.len();
    let reference = |v: &Value| -> Result<TypeRef, CompactError> {
        let (index, map_atomic) = match v {
            Value::Number(n) => (n.as_u64(), None),
            Value::Array(pair) if pair.len() == 2 => (pair[0].as_u64(), Some(pair[1] == 1)),
            _ => (None, None),
        };
        let index = index
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < count)
            .ok_or_else(|| bad("a reference to no atom"))?;
        Ok(TypeRef { index, map_atomic })
    };
    let mut out = Vec::with_capacity(count);
    for a in atoms {
        let scalar = match a.get("s").and_then(Value::as_str) {
            None => None,
            Some("n") => Some(Scalar::Numeric),
            Some("s") => Some(Scalar::String),
            Some("b") => Some(Scalar::Boolean),
            Some("u") => Some(Scalar::Untyped),
            Some(_) => return Err(bad("a scalar of no kind")),
        };
        let list = match a.get("l") {
            None => None,
            Some(l) => Some(List {
                item: reference(&l["i"])?,
                kind: match &l["t"] {
                    Value::String(t) if t == "a" => ListKind::Atomic,
                    Value::String(t) if t == "s" => ListKind::Set,
                    Value::Array(keys) => ListKind::Map(
                        keys.iter()
                            .map(|k| k.as_str().map(str::to_owned).ok_or_else(|| bad("a key")))
                            .collect::<Result<_, _>>()?,
                    ),
                    _ => return Err(bad("a list of no kind")),
                },
            }),
        };
        let map = match a.get("m") {
            None => None,
            Some(m) => {
                let mut fields = Vec::new();
                for f in m.get("f").and_then(Value::as_array).into_iter().flatten() {
                    let f = f.as_array().ok_or_else(|| bad("a field"))?;
                    let name = f
                        .first()
                        .and_then(Value::as_str)
                        .ok_or_else(|| bad("a name"))?;
                    fields.push(Field {
                        name: name.to_owned(),
                        ty: reference(f.get(1).ok_or_else(|| bad("a field's type"))?)?,
                        default: f.get(2).cloned(),
                    });
                }
                fields.sort_by(|a, b| a.name.cmp(&b.name));
                Some(MapType {
                    fields,
                    rest: m.get("r").map(reference).transpose()?,
                    atomic: m.get("a") == Some(&json!(1)),
                })
            }
        };
        out.push(Atom { scalar, list, map });
    }
    let mut names = HashMap::new();
    for (name, index) in doc["names"].as_object().ok_or_else(|| bad("no names"))? {
        names.insert(name.clone(), reference(index)?.index);
    }
    let mut kinds = HashMap::new();
    for k in doc["kinds"].as_array().ok_or_else(|| bad("no kinds"))? {
        let text = |i: usize| k.get(i).and_then(Value::as_str).map(str::to_owned);
        let (Some(group), Some(version), Some(kind)) = (text(0), text(1), text(2)) else {
            return Err(bad("a kind"));
        };
        let index = reference(&k[3])?.index;
        kinds.insert(
            Gvk {
                group,
                version,
                kind,
            },
            index,
        );
    }
    Ok(Schema {
        atoms: out,
        names,
        kinds,
    })
}
