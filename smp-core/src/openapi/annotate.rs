//! Writing a type's patch metadata into a CRD schema, as the server-side apply markers that
//! [`from_crd`](super::crd::from_crd) reads back: one declaration (`#[derive(StrategicMerge)]`)
//! for strategic merge patch and for server-side apply.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::schema::{BaseStrategy, FieldMeta, Node, TypeDef};

/// Why [`annotate`] could not express a type's metadata as markers: one line per field, with
/// its path in the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotateError {
    problems: Vec<String>,
}

impl AnnotateError {
    /// Every problem, `path: what`.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl fmt::Display for AnnotateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "patch metadata with no server-side apply marker: {}",
            self.problems.join("; ")
        )
    }
}

impl std::error::Error for AnnotateError {}

/// Writes into `schema` (a JSON schema of the type `node` describes, such as the
/// `openAPIV3Schema` of kube's `#[derive(CustomResource)]`, or its `spec` property) the markers
/// that say what `node`'s patch metadata says:
///
/// | patch metadata | marker |
/// |---|---|
/// | list, `merge` by key `k` | `x-kubernetes-list-type: map`, `x-kubernetes-list-map-keys: [k]` |
/// | list, composite keys (a CRD's several map keys) | `x-kubernetes-list-type: map` with them all |
/// | list of scalars, `merge` | `x-kubernetes-list-type: set` |
/// | list, `replace` | `x-kubernetes-list-type: atomic` |
/// | object, `replace` | `x-kubernetes-map-type: atomic` |
///
/// Lists with the default strategy get no marker (both read it as atomic). Metadata no marker
/// can say is an error listing every such field: `retainKeys`, and the `$patchMergeKey`
/// proposal's recommended keys (which only apply when a patch asks). Properties the type does
/// not declare are left alone; nothing is written when an error is returned.
pub fn annotate(schema: &mut Value, node: Node<'_>) -> Result<(), AnnotateError> {
    let mut problems = Vec::new();
    let mut marked = schema.clone();
    walk(&mut marked, node, "#", 0, &mut problems);
    if problems.is_empty() {
        *schema = marked;
        Ok(())
    } else {
        Err(AnnotateError { problems })
    }
}

/// Deepest schema nesting walked (as the loader's bound on inline schemas).
const MAX_DEPTH: usize = 64;

fn walk(schema: &mut Value, node: Node<'_>, at: &str, depth: usize, out: &mut Vec<String>) {
    let Value::Object(s) = schema else {
        return;
    };
    if depth >= MAX_DEPTH {
        out.push(format!("{at}: nested deeper than 64 levels"));
        return;
    }
    // `Option<T>` and friends, as schemars writes them: the same type in each branch.
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = s.get_mut(key) {
            for (i, branch) in branches.iter_mut().enumerate() {
                walk(branch, node, &format!("{at}/{key}/{i}"), depth + 1, out);
            }
        }
    }
    if let Some(Value::Object(properties)) = s.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            let meta = node.field(name);
            if !meta.declared {
                continue;
            }
            let here = format!("{at}/properties/{name}");
            if let Value::Object(p) = property {
                mark(p, &meta, &here, out);
            }
            walk(property, meta.node, &here, depth + 1, out);
        }
    }
    if let Some(items) = s.get_mut("items") {
        walk(items, node.items(), &format!("{at}/items"), depth + 1, out);
    }
    if let (Some(values @ Value::Object(_)), TypeDef::Map(_)) =
        (s.get_mut("additionalProperties"), node.def())
    {
        let value_node = node.field("").node;
        walk(
            values,
            value_node,
            &format!("{at}/additionalProperties"),
            depth + 1,
            out,
        );
    }
}

/// The markers of one property.
fn mark(p: &mut Map<String, Value>, meta: &FieldMeta<'_>, at: &str, out: &mut Vec<String>) {
    let strategy = meta.strategy;
    if strategy.retain_keys {
        out.push(format!("{at}: retainKeys"));
    }
    match meta.node.def() {
        TypeDef::List(_) => {
            if !meta.recommended.is_empty() && !meta.composite {
                out.push(format!(
                    "{at}: recommended merge keys {:?} (the `$patchMergeKey` proposal's)",
                    meta.recommended
                ));
                return;
            }
            match (strategy.base, meta.merge_key) {
                (BaseStrategy::Merge, Some(key)) => {
                    let keys: Vec<Value> = if meta.composite {
                        meta.recommended.iter().map(|k| json!(&**k)).collect()
                    } else {
                        vec![json!(key)]
                    };
                    p.insert("x-kubernetes-list-type".into(), json!("map"));
                    p.insert("x-kubernetes-list-map-keys".into(), Value::Array(keys));
                }
                (BaseStrategy::Merge, None) => {
                    p.insert("x-kubernetes-list-type".into(), json!("set"));
                }
                (BaseStrategy::Replace, _) => {
                    p.insert("x-kubernetes-list-type".into(), json!("atomic"));
                }
                (BaseStrategy::Default, _) => {}
            }
        }
        TypeDef::Struct(_) | TypeDef::Map(_) if strategy.base == BaseStrategy::Replace => {
            p.insert("x-kubernetes-map-type".into(), json!("atomic"));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::openapi::crd::from_crd;

    fn crd(spec: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
               "metadata": {"name": "ws.example.com"},
               "spec": {"group": "example.com", "names": {"kind": "W"}, "versions": [{
                   "name": "v1", "served": true,
                   "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}}}]}})
    }

    /// Markers read by `from_crd`, stripped, and written again by `annotate`, give the same
    /// schema: composite keys, sets, atomic lists and maps, inside lists and map values.
    #[test]
    fn markers_round_trip_through_annotate() {
        let item = json!({"type": "object", "properties": {
            "port": {"type": "integer"}, "protocol": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"}}});
        let marked = json!({"type": "object", "properties": {
            "ports": {"type": "array", "items": item, "x-kubernetes-list-type": "map",
                      "x-kubernetes-list-map-keys": ["port", "protocol"]},
            "args": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "atomic"},
            "byName": {"type": "object", "additionalProperties": {"type": "object",
                "x-kubernetes-map-type": "atomic", "properties": {"a": {"type": "string"}}}},
            "sel": {"type": "object", "x-kubernetes-map-type": "atomic",
                    "properties": {"a": {"type": "string"}}}
        }});
        let original = from_crd(&crd(marked.clone()), "v1").expect("loads");
        let bare: Value = serde_json::from_str(
            &marked
                .to_string()
                .replace(r#","x-kubernetes-list-type":"set""#, "")
                .replace(r#","x-kubernetes-list-type":"atomic""#, ""),
        )
        .expect("json");
        let mut rewritten = bare.clone();
        annotate(&mut rewritten, original.root().field("spec").node).expect("annotates");
        let again = from_crd(&crd(rewritten.clone()), "v1").expect("loads");
        crate::schema::compare(original.root(), again.root()).expect("same metadata");
        assert_eq!(
            rewritten["properties"]["ports"]["items"]["properties"]["tags"]["x-kubernetes-list-type"],
            json!("set")
        );
        assert_eq!(
            rewritten["properties"]["args"]["x-kubernetes-list-type"],
            json!("atomic")
        );
    }
}
