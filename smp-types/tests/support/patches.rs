//! Random strategic merge patches for a given document, guided by its schema.
//!
//! Patches are built from the document's own values, so that they hit existing map keys and
//! list items, and keep each value's JSON type (a string stays a string, an integer an
//! integer), so that most results still fit the Rust type; the ones that do not (a required
//! field deleted, a list item without its merge key) must fail on both paths. Every directive
//! appears: `null`, `$patch: replace|delete` on objects and list items,
//! `$setElementOrder/<f>`, `$deleteFromPrimitiveList/<f>`, `$retainKeys`.

use serde_json::{Map, Value, json};
use smp_core::{BaseStrategy, Node, TypeDef};

/// SplitMix64: a seed reproduces a case anywhere.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// A patch for the object `doc` of type `node`.
pub fn patch(rng: &mut Rng, doc: &Value, node: Node<'static>) -> Value {
    let mut out = object_patch(rng, doc, node, 0);
    // The root keeps its kind: both paths would fail the same way, but that tests nothing.
    if let Value::Object(m) = &mut out {
        m.remove("apiVersion");
        m.remove("kind");
        m.remove("$patch");
        m.remove("$retainKeys");
    }
    out
}

/// A value of the same JSON type as `v`, different from it.
fn mutate(rng: &mut Rng, v: &Value) -> Value {
    match v {
        Value::String(s) => json!(format!("{s}-{}", rng.below(3))),
        Value::Bool(b) => json!(!b),
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            json!(
                n.as_i64()
                    .unwrap_or(0)
                    .saturating_add(1 + rng.below(3) as i64)
            )
        }
        Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) + 0.5),
        Value::Array(items) => {
            let mut items = items.clone();
            if !items.is_empty() && rng.chance(0.5) {
                items.remove(rng.below(items.len()));
            } else if let Some(first) = items.first().cloned() {
                items.push(mutate(rng, &first));
            }
            Value::Array(items)
        }
        Value::Object(m) => {
            let mut m = m.clone();
            if let Some(k) = m.keys().nth(rng.below(m.len())).cloned() {
                let changed = mutate(rng, &m[&k]);
                m.insert(k, changed);
            }
            Value::Object(m)
        }
        Value::Null => Value::Null,
    }
}

fn object_patch(rng: &mut Rng, cur: &Value, node: Node<'static>, depth: usize) -> Value {
    let Some(cur) = cur.as_object() else {
        return mutate(rng, cur);
    };
    let mut out = Map::new();
    let p = match depth {
        0 => 0.7,
        1..=2 => 0.45,
        _ => 0.3,
    };
    for (name, value) in cur {
        if !rng.chance(p) {
            continue;
        }
        let meta = node.field(name);
        let roll = rng.below(100);
        match value {
            _ if roll < 6 => {
                out.insert(name.clone(), Value::Null);
            }
            Value::Object(_) if roll < 9 => {
                let mut replaced = mutate(rng, value);
                if let Value::Object(m) = &mut replaced {
                    m.insert("$patch".to_owned(), json!("replace"));
                }
                out.insert(name.clone(), replaced);
            }
            Value::Object(_) if roll < 11 => {
                out.insert(name.clone(), json!({"$patch": "delete"}));
            }
            Value::Object(_) => {
                let inner = object_patch(rng, value, meta.node, depth + 1);
                out.insert(name.clone(), inner);
            }
            Value::Array(items) => {
                list_patch(
                    rng,
                    name,
                    items,
                    meta.node,
                    meta.strategy.base,
                    meta.merge_key,
                    depth,
                    &mut out,
                );
            }
            _ => {
                out.insert(name.clone(), mutate(rng, value));
            }
        }
    }
    // A new member: a copy of an existing one under a new name (maps gain keys; structs get an
    // unknown field, which the typed path drops as deserializing does).
    if rng.chance(0.08) {
        if let Some((k, v)) = cur.iter().nth(rng.below(cur.len())) {
            if !v.is_object() || matches!(node.def(), TypeDef::Map(_)) {
                out.insert(format!("{k}-new"), v.clone());
            }
        }
    }
    if depth > 0 && rng.chance(0.05) {
        let mut keys: Vec<Value> = out
            .iter()
            .filter(|(k, v)| !k.starts_with('$') && !v.is_null())
            .map(|(k, _)| json!(k))
            .collect();
        for k in cur.keys() {
            if rng.chance(0.4) && !keys.contains(&json!(k)) {
                keys.push(json!(k));
            }
        }
        out.insert("$retainKeys".to_owned(), Value::Array(keys));
    }
    Value::Object(out)
}

#[allow(clippy::too_many_arguments)]
fn list_patch(
    rng: &mut Rng,
    name: &str,
    items: &[Value],
    node: Node<'static>,
    base: BaseStrategy,
    merge_key: Option<&str>,
    depth: usize,
    out: &mut Map<String, Value>,
) {
    let item_node = node.items();
    match (base, merge_key) {
        (BaseStrategy::Merge, Some(key)) => {
            let mut list = Vec::new();
            let mut order = Vec::new();
            for item in items {
                let Some(k) = item.get(key) else { continue };
                order.push(json!({ key: k }));
                match rng.below(10) {
                    0 => list.push(json!({ key: k, "$patch": "delete" })),
                    1..=4 => {
                        let mut p = object_patch(rng, item, item_node, depth + 1);
                        if let Value::Object(m) = &mut p {
                            m.insert(key.to_owned(), k.clone());
                        }
                        list.push(p);
                    }
                    _ => {}
                }
            }
            if rng.chance(0.3) {
                if let Some(item) = items.get(rng.below(items.len())) {
                    let mut new = item.clone();
                    if let (Value::Object(m), Some(k)) = (&mut new, item.get(key)) {
                        let fresh = mutate(rng, k);
                        order.push(json!({ key: fresh }));
                        m.insert(key.to_owned(), fresh);
                    }
                    list.push(new);
                }
            }
            if rng.chance(0.05) {
                list.push(json!({"$patch": "replace"}));
            }
            if rng.chance(0.25) && !order.is_empty() {
                let i = rng.below(order.len());
                order.rotate_left(i);
                out.insert(format!("$setElementOrder/{name}"), Value::Array(order));
            }
            out.insert(name.to_owned(), Value::Array(list));
        }
        (BaseStrategy::Merge, None) if items.iter().all(|i| !i.is_object()) => {
            let mut added = Vec::new();
            if let Some(first) = items.first() {
                added.push(mutate(rng, first));
            }
            out.insert(name.to_owned(), Value::Array(added));
            if !items.is_empty() && rng.chance(0.5) {
                let gone = items[rng.below(items.len())].clone();
                out.insert(
                    format!("$deleteFromPrimitiveList/{name}"),
                    Value::Array(vec![gone]),
                );
            }
        }
        _ => {
            out.insert(name.to_owned(), mutate(rng, &Value::Array(items.to_vec())));
        }
    }
}
