//! Random objects of a definition.

use serde_json::{Map, Value, json};

use crate::rng::Rng;
use crate::schema::{Field, Struct, Ty, st};

pub(crate) const WORDS: &[&str] = &["a", "b", "c", "d"];
pub(crate) const UNKNOWN: &str = "x-unknown";

pub(crate) fn scalar(rng: &mut Rng) -> Value {
    match rng.below(10) {
        0..=4 => json!(rng.pick(WORDS)),
        5..=7 => json!(rng.below(4) + 1),
        8 => json!(rng.chance(0.5)),
        _ => json!(format!("{}{}", rng.pick(WORDS), rng.below(3))),
    }
}

/// A value of a primitive type.
pub(crate) fn prim(rng: &mut Rng, ty: &Ty) -> Value {
    match ty {
        Ty::Int => json!(rng.below(4) + 1),
        Ty::Number => json!(*rng.pick(&[1.0, 2.0, 0.5])),
        Ty::Bool => json!(rng.chance(0.5)),
        Ty::Time => json!(format!("2025-01-0{}T00:00:00Z", rng.below(4) + 1)),
        Ty::MicroTime => json!(format!("2025-01-0{}T00:00:00.000000Z", rng.below(4) + 1)),
        Ty::Quantity => json!(*rng.pick(&["1", "2", "500m", "1Gi"])),
        Ty::IntOrString if rng.chance(0.5) => json!(rng.below(4) + 1),
        Ty::IntOrString => json!(*rng.pick(&["25%", "http", "a"])),
        Ty::Bytes => json!(*rng.pick(&["YQ==", "Yg==", "YWJj", "eHl6"])),
        _ => match rng.below(6) {
            0 => json!(format!("{}{}", rng.pick(WORDS), rng.below(3))),
            _ => json!(rng.pick(WORDS)),
        },
    }
}

/// A merge-key value: small, so patches and objects share them.
pub(crate) fn key_value(rng: &mut Rng, s: &Struct, key: &str) -> Value {
    match s.field(key).map(|f| &f.ty) {
        Some(Ty::Int) => json!(rng.below(3) + 1),
        Some(Ty::Str) | None => json!(rng.pick(WORDS)),
        Some(ty) => prim(rng, ty),
    }
}

pub(crate) fn opaque(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 2 { 1 } else { 4 }) {
        0 => scalar(rng),
        1 => json!([scalar(rng)]),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(3) {
                m.insert(rng.pick(WORDS).to_string(), opaque(rng, depth + 1));
            }
            Value::Object(m)
        }
    }
}

pub(crate) fn value(rng: &mut Rng, ty: &'static Ty, field: Option<&Field>, depth: usize) -> Value {
    match ty {
        Ty::Struct(s) => object(rng, st(*s), None, depth),
        Ty::Map(item) => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                m.insert(
                    rng.pick(WORDS).to_string(),
                    value(rng, item, None, depth + 1),
                );
            }
            Value::Object(m)
        }
        Ty::List(item) => {
            let merge = field.is_some_and(|f| f.merge);
            let key = field.and_then(|f| f.merge_key.as_deref());
            let mut items = Vec::new();
            let mut seen = Vec::new();
            for _ in 0..rng.below(4) {
                let v = match (&**item, key) {
                    (Ty::Struct(s), Some(key)) => {
                        let k = key_value(rng, st(*s), key);
                        if seen.contains(&k) {
                            continue;
                        }
                        seen.push(k.clone());
                        object(rng, st(*s), Some((key, k)), depth + 1)
                    }
                    (item, _) => {
                        let v = value(rng, item, None, depth + 1);
                        // Sets hold each value once.
                        if merge && seen.contains(&v) {
                            continue;
                        }
                        seen.push(v.clone());
                        v
                    }
                };
                items.push(v);
            }
            Value::Array(items)
        }
        Ty::Opaque => opaque(rng, depth),
        _ => prim(rng, ty),
    }
}

/// A random object of struct `s`; `key` is a merge key it must carry.
pub(crate) fn object(
    rng: &mut Rng,
    s: &'static Struct,
    key: Option<(&str, Value)>,
    depth: usize,
) -> Value {
    let mut m = Map::new();
    let p = match depth {
        0..=1 => 0.8,
        2..=3 => 0.35,
        4..=5 => 0.2,
        _ => 0.0,
    };
    for f in &s.fields {
        if f.ty.is_opaque() {
            // `FieldsV1` of managedFields and the like: the document says nothing of them.
            continue;
        }
        if rng.chance(p) {
            m.insert(f.name.clone(), value(rng, &f.ty, Some(f), depth + 1));
        }
    }
    if rng.chance(0.05) {
        m.insert(UNKNOWN.to_owned(), opaque(rng, depth));
    }
    if let Some((key, k)) = key {
        m.insert(key.to_owned(), k);
    }
    Value::Object(m)
}
