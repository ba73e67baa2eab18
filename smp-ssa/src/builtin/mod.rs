//! The structured types of the built-in Kubernetes kinds (v1.34), as the API server builds them
//! from its OpenAPI v3 documents, carried by the crate in its compact form
//! ([`crate::schema::to_compact_json`]): no document needed at run time.
//!
//! `kubernetes.json` is generated from the official documents by `cargo run -p smp-codegen --
//! --ssa` and checked against them by this crate's tests where the documents are present.
//!
//! ```
//! use smp_ssa::schema::Gvk;
//!
//! let schema = smp_ssa::builtin::schema();
//! assert!(schema.kind(&Gvk::of("apps/v1", "Deployment")).is_some());
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use crate::fieldpath::{Path, PathElement, Set};
use crate::schema::{Schema, from_compact_json};

/// The compact text, as generated.
pub const KUBERNETES: &str = include_str!("kubernetes.json");

/// The Kubernetes version the types are of.
pub const KUBERNETES_VERSION: &str = "1.34";

/// The fields the API server resets on each endpoint of a built-in kind, as its registry
/// strategies say (`GetResetFields`), in this crate's own form.
pub const RESET_FIELDS: &str = include_str!("reset_fields.json");

/// The fields the API server resets when `kind` at `api_version` is written through
/// `subresource` (`""`: the main resource): what that endpoint may not change. `None` when it
/// resets nothing.
///
/// ```
/// use smp_ssa::fieldpath::Path;
///
/// let main = smp_ssa::builtin::reset_fields("apps/v1", "Deployment", "").unwrap();
/// assert!(main.has(&Path::fields(["status"])));
/// let status = smp_ssa::builtin::reset_fields("apps/v1", "Deployment", "status").unwrap();
/// assert!(status.has(&Path::fields(["spec"])));
/// ```
pub fn reset_fields(api_version: &str, kind: &str, subresource: &str) -> Option<&'static Set> {
    type Table = HashMap<(String, String, String), Set>;
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE
        .get_or_init(|| read_reset_fields(RESET_FIELDS).unwrap_or_default())
        .get(&(
            api_version.to_owned(),
            kind.to_owned(),
            subresource.to_owned(),
        ))
}

/// The table of [`RESET_FIELDS`]; `None` if it does not read (its test says it does).
fn read_reset_fields(text: &str) -> Option<HashMap<(String, String, String), Set>> {
    let doc: Value = serde_json::from_str(text).ok()?;
    let mut table = HashMap::new();
    for kind in doc.get("kinds")?.as_array()? {
        let text = |k: &str| kind.get(k).and_then(Value::as_str).map(str::to_owned);
        let (api_version, name) = (text("apiVersion")?, text("kind")?);
        for (endpoint, paths) in kind.get("resets")?.as_object()? {
            let mut set = Vec::new();
            for path in paths.as_array()? {
                let mut elements = Vec::new();
                for element in path.as_array()? {
                    match element {
                        Value::String(name) => elements.push(PathElement::field(name.as_str())),
                        Value::Object(o) => {
                            let key = o.get("key")?.as_object()?;
                            elements.push(PathElement::key(
                                key.iter().map(|(k, v)| (k.as_str(), v.clone())),
                            ));
                        }
                        _ => return None,
                    }
                }
                set.push(Path(elements));
            }
            table.insert(
                (api_version.clone(), name.clone(), endpoint.clone()),
                Set::from_paths(set),
            );
        }
    }
    Some(table)
}

/// The built-in kinds' types (read once, on first use).
pub fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    // The text is generated and tested to read; were it not to, no kind would be found (and
    // errors would name the kind) rather than the process stopping.
    SCHEMA.get_or_init(|| {
        from_compact_json(KUBERNETES)
            .unwrap_or_else(|_| crate::schema::SchemaBuilder::new().build())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_text_reads() {
        crate::schema::from_compact_json(super::KUBERNETES).unwrap();
        let table = super::read_reset_fields(super::RESET_FIELDS).unwrap();
        assert!(!table.is_empty());
    }
}
