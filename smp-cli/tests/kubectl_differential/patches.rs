//! Random patches for an object, and which of them stay out of the excluded case classes.

use serde_json::{Map, Value, json};

use crate::rng::Rng;
use crate::schema::{Field, OPAQUE, Struct, Ty, st};
use crate::values::{UNKNOWN, WORDS, key_value, object, opaque, prim, scalar, value};

/// A patch for an object of struct `s` whose current value is `cur` (if an object).
pub(crate) fn patch_object(
    rng: &mut Rng,
    s: &'static Struct,
    cur: Option<&Value>,
    depth: usize,
) -> Value {
    let cur = cur.and_then(Value::as_object);
    let mut m = Map::new();
    let p = if depth == 0 { 0.6 } else { 0.3 };
    for f in &s.fields {
        if depth == 0 && matches!(&*f.name, "apiVersion" | "kind") {
            continue;
        }
        if !rng.chance(p) {
            continue;
        }
        patch_field(rng, f, cur.and_then(|c| c.get(&f.name)), depth, &mut m);
    }
    // Unknown fields: scalars anywhere; objects only where the object lacks the field (see
    // the module comment).
    if rng.chance(0.05) {
        let present = cur.and_then(|c| c.get(UNKNOWN));
        let v = if present.is_some() || rng.chance(0.5) {
            scalar(rng)
        } else {
            opaque(rng, depth)
        };
        m.insert(UNKNOWN.to_owned(), v);
    }
    // `$retainKeys` is applied wherever it appears; mostly it lists the patch's own keys
    // plus some of the object's, sometimes it misses a patch key (an error on both sides).
    let retain = cur.is_some() && depth > 0 && rng.chance(0.04);
    if retain {
        let mut keys: Vec<Value> = m
            .keys()
            .filter(|k| !k.starts_with('$'))
            .map(|k| json!(k))
            .collect();
        if rng.chance(0.15) && !keys.is_empty() {
            keys.remove(rng.below(keys.len()));
        }
        if let Some(c) = cur {
            for k in c.keys() {
                if rng.chance(0.4) && !keys.contains(&json!(k)) {
                    keys.push(json!(k));
                }
            }
        }
        m.insert("$retainKeys".to_owned(), Value::Array(keys));
    }
    Value::Object(m)
}

pub(crate) fn patch_field(
    rng: &mut Rng,
    f: &'static Field,
    cur: Option<&Value>,
    depth: usize,
    out: &mut Map<String, Value>,
) {
    let name = f.name.clone();
    if depth == 1 && name == "name" {
        // `metadata.name` identifies the objects of a batch in the output.
        return;
    }
    if f.ty.is_opaque() {
        return;
    }
    if rng.chance(0.08) {
        out.insert(name, Value::Null);
        return;
    }
    match &f.ty {
        Ty::Struct(s) => {
            let s = st(*s);
            // `$patch` only where the object has the field (excluded class "added content").
            let directives = cur.is_some_and(Value::is_object);
            let v = match rng.below(20) {
                0 if directives => json!({"$patch": "delete"}),
                1 if directives => {
                    let mut v = object(rng, s, None, depth + 2);
                    v["$patch"] = json!("replace");
                    v
                }
                2 if directives => json!({"$patch": "merge"}),
                3 => object(rng, s, None, depth + 2),
                _ if f.retain_keys && rng.chance(0.5) => retain_keys_patch(rng, s, cur, depth),
                _ => patch_object(rng, s, cur, depth + 1),
            };
            out.insert(name, v);
        }
        Ty::Map(item) => {
            let mut m = Map::new();
            for _ in 0..rng.below(3) + 1 {
                let k = rng.pick(WORDS).to_string();
                let v = if rng.chance(0.25) {
                    Value::Null
                } else {
                    match (&**item, cur.and_then(|c| c.get(&k))) {
                        (Ty::Struct(s), Some(c)) => patch_object(rng, st(*s), Some(c), depth + 1),
                        (item, _) => value(rng, item, None, depth + 2),
                    }
                };
                m.insert(k, v);
            }
            let directives = cur.is_some_and(Value::is_object);
            match rng.below(25) {
                0 if directives => {
                    m.insert("$patch".to_owned(), json!("replace"));
                }
                1 if directives => {
                    m = Map::new();
                    m.insert("$patch".to_owned(), json!("delete"));
                }
                _ => {}
            }
            out.insert(name, Value::Object(m));
        }
        Ty::List(item) => patch_list(rng, f, item, cur, depth, out),
        Ty::Opaque => {}
        ty => {
            let v = prim(rng, ty);
            out.insert(name, v);
        }
    }
}

/// A patch of a retainKeys field: `$retainKeys` naming the members kept.
pub(crate) fn retain_keys_patch(
    rng: &mut Rng,
    s: &'static Struct,
    cur: Option<&Value>,
    depth: usize,
) -> Value {
    let mut p = patch_object(rng, s, cur, depth + 1);
    let Value::Object(m) = &mut p else {
        return p;
    };
    m.remove("$retainKeys");
    let mut keys: Vec<Value> = m
        .keys()
        .filter(|k| !k.starts_with('$'))
        .map(|k| json!(k))
        .collect();
    if let Some(Value::Object(c)) = cur {
        for k in c.keys() {
            if rng.chance(0.3) && !keys.contains(&json!(k)) {
                keys.push(json!(k));
            }
        }
    }
    m.insert("$retainKeys".to_owned(), Value::Array(keys));
    p
}

pub(crate) fn patch_list(
    rng: &mut Rng,
    f: &'static Field,
    item: &'static Ty,
    cur: Option<&Value>,
    depth: usize,
    out: &mut Map<String, Value>,
) {
    let name = f.name.clone();
    let cur_items: Vec<Value> = cur.and_then(Value::as_array).cloned().unwrap_or_default();
    match (item, f.merge_key.as_deref()) {
        (Ty::Struct(s), Some(key)) if f.merge => {
            let s = st(*s);
            let existing: Vec<Value> = cur_items
                .iter()
                .filter_map(|i| i.get(key).cloned())
                .collect();
            let mut patch_items = Vec::new();
            let mut used = Vec::new();
            for _ in 0..rng.below(3) + 1 {
                let k = if !existing.is_empty() && rng.chance(0.6) {
                    rng.pick(&existing).clone()
                } else {
                    key_value(rng, s, key)
                };
                if used.contains(&k) {
                    continue;
                }
                used.push(k.clone());
                let current = cur_items.iter().find(|i| i.get(key) == Some(&k));
                let mut p = match rng.below(10) {
                    0 if current.is_some() => json!({"$patch": "delete"}),
                    1 if f.retain_keys => retain_keys_patch(rng, s, current, depth),
                    2 if current.is_none() => object(rng, s, None, depth + 2),
                    _ => patch_object(rng, s, current, depth + 1),
                };
                if current.is_none() && rng.chance(0.8) {
                    // Mostly keep clear of the class "nulls in new items" (module comment).
                    strip_nulls(&mut p);
                }
                p[key] = k;
                patch_items.push(p);
            }
            let directives = cur.is_some_and(Value::is_array);
            match rng.below(30) {
                0 if directives => patch_items.push(json!({"$patch": "replace"})),
                1 if directives => patch_items.push(json!({"$patch": "merge"})),
                _ => {}
            }
            if rng.chance(0.3) {
                // The order: every key of the object and the patch, shuffled; the patch's own
                // items then have to follow it, so sort them along (mostly).
                let mut order: Vec<Value> = existing.clone();
                for k in &used {
                    if !order.contains(k) {
                        order.push(k.clone());
                    }
                }
                shuffle(rng, &mut order);
                if rng.chance(0.2) && !order.is_empty() {
                    order.remove(rng.below(order.len()));
                }
                if rng.chance(0.9) {
                    patch_items.sort_by_key(|p| {
                        order
                            .iter()
                            .position(|k| p.get(key) == Some(k))
                            .unwrap_or(usize::MAX)
                    });
                }
                let order: Vec<Value> = order.into_iter().map(|k| json!({ key: k })).collect();
                out.insert(format!("$setElementOrder/{name}"), Value::Array(order));
            }
            out.insert(name, Value::Array(patch_items));
        }
        (item, _) if f.merge && item.is_primitive() => {
            let mut add = Vec::new();
            for _ in 0..rng.below(3) {
                let v = prim(rng, item);
                if !add.contains(&v) {
                    add.push(v);
                }
            }
            if rng.chance(0.35) {
                let mut del: Vec<Value> = cur_items
                    .iter()
                    .filter(|_| rng.chance(0.5))
                    .cloned()
                    .collect();
                if rng.chance(0.3) {
                    del.push(prim(rng, item));
                }
                out.insert(
                    format!("$deleteFromPrimitiveList/{name}"),
                    Value::Array(del),
                );
            }
            if rng.chance(0.3) {
                let mut order = cur_items.clone();
                for v in &add {
                    if !order.contains(v) {
                        order.push(v.clone());
                    }
                }
                shuffle(rng, &mut order);
                if rng.chance(0.9) {
                    add.sort_by_key(|v| order.iter().position(|o| o == v));
                }
                out.insert(format!("$setElementOrder/{name}"), Value::Array(order));
            }
            if !add.is_empty() || rng.chance(0.5) {
                out.insert(name, Value::Array(add));
            }
        }
        _ => {
            // Replaced whole; now and then with a directive the field does not support, on
            // lists of primitives only (excluded class "kubectl panics").
            let primitives = item.is_primitive();
            match rng.below(25) {
                0 if primitives => {
                    out.insert(
                        format!("$deleteFromPrimitiveList/{name}"),
                        json!([prim(rng, item)]),
                    );
                }
                1 if primitives => {
                    let v = json!([prim(rng, item)]);
                    out.insert(format!("$setElementOrder/{name}"), v);
                }
                _ => {
                    let v = value(rng, &f.ty, Some(f), depth + 2);
                    out.insert(name, v);
                }
            }
        }
    }
}

/// Whether a patch stays out of the excluded case classes for `object`: no `$patch` or
/// `$retainKeys` where the object lacks the part, no `null` in new items of a list the object
/// has. Objects of a batch share one patch, so each is checked.
pub(crate) fn compatible(patch: &Value, object: Option<&Value>, ty: &Ty) -> bool {
    let Value::Object(p) = patch else {
        return true;
    };
    let o = object.and_then(Value::as_object);
    if o.is_none() && (p.contains_key("$patch") || p.contains_key("$retainKeys")) {
        return false;
    }
    let s = match ty {
        Ty::Struct(s) => Some(st(*s)),
        _ => None,
    };
    for (k, pv) in p {
        if let Some(list) = k.strip_prefix("$deleteFromPrimitiveList/") {
            let added = p.get(list).and_then(Value::as_array);
            let deleted = pv.as_array();
            if let (Some(added), Some(deleted)) = (added, deleted)
                && added.iter().any(|v| deleted.contains(v))
            {
                // Excluded class "delete what the patch adds".
                return false;
            }
        }
        if k.starts_with('$') {
            continue;
        }
        let ov = o.and_then(|o| o.get(k));
        let field = s.and_then(|s| s.field(k));
        let unknown = s.is_some() && field.is_none();
        let both = |a: &Value, b: Option<&Value>| {
            matches!(
                (a, b),
                (Value::Object(_), Some(Value::Object(_)))
                    | (Value::Array(_), Some(Value::Array(_)))
            )
        };
        if unknown && both(pv, ov) {
            // Excluded class "unknown-field merges".
            return false;
        }
        if matches!(ty, Ty::Map(item) if matches!(**item, Ty::List(_))) && both(pv, ov) {
            // Excluded class "lists in maps of lists".
            return false;
        }
        let child: &Ty = match (ty, field) {
            (Ty::Struct(_), Some(f)) => &f.ty,
            (Ty::Map(item), _) => item,
            _ => &OPAQUE,
        };
        let ok = match (pv, child) {
            (Value::Object(_), _) => compatible(pv, ov, child),
            (Value::Array(items), Ty::List(item)) => {
                let key = field
                    .filter(|f| f.merge)
                    .and_then(|f| f.merge_key.as_deref());
                match key {
                    Some(key) => list_compatible(items, ov, key, item),
                    None => true,
                }
            }
            _ => true,
        };
        if !ok {
            return false;
        }
    }
    true
}

pub(crate) fn list_compatible(
    items: &[Value],
    object: Option<&Value>,
    key: &str,
    item: &Ty,
) -> bool {
    let current = object.and_then(Value::as_array);
    items.iter().all(|p| {
        if p.get("$patch").is_some() && p.get(key).is_none() {
            // A list-level directive (`{"$patch": "replace"}`), where the object has the list
            // (else excluded class "added content").
            return current.is_some();
        }
        let existing = current.and_then(|c| c.iter().find(|i| i.get(key) == p.get(key)));
        match existing {
            Some(e) => compatible(p, Some(e), item),
            None => p.get("$patch").is_none() && compatible(p, None, item),
        }
    })
}

pub(crate) fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, v| !v.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

pub(crate) fn shuffle(rng: &mut Rng, items: &mut [Value]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}
