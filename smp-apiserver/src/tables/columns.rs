//! The column definitions of every built-in printer, read once from `columns.json`: names,
//! types, formats, priorities and descriptions, as kube-apiserver v1.34 sends them (facts
//! gathered from the printers of k8s.io/kubernetes v1.34.1 `pkg/printers/internalversion`,
//! kube-aggregator's APIService storage and apiserver's default table, with each description
//! resolved to the API documentation text it names).
//!
//! Descriptions many columns share (an object's name and creation time) are written once, under
//! `shared`, and named by their key (`@metadata.name`).

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

const COLUMNS: &str = include_str!("columns.json");

struct Catalog {
    /// `group/resource` (`/pods`, `autoscaling/scale`) to its columns, as sent.
    tables: HashMap<String, Value>,
    /// The descriptions of an object's name and creation time.
    name: String,
    created: String,
}

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let document: Value = serde_json::from_str(COLUMNS).unwrap_or(Value::Null);
        let shared = document.get("shared").and_then(Value::as_object);
        let resolve = |text: &str| -> String {
            shared
                .and_then(|s| s.get(text))
                .and_then(Value::as_str)
                .unwrap_or(text)
                .to_owned()
        };
        let mut tables = HashMap::new();
        for (key, columns) in document
            .get("tables")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let columns: Vec<Value> = columns
                .as_array()
                .into_iter()
                .flatten()
                .map(|column| {
                    let mut column = column.clone();
                    if let Some(text) = column.get("description").and_then(Value::as_str) {
                        column["description"] = json!(resolve(text));
                    }
                    column
                })
                .collect();
            tables.insert(key.clone(), Value::Array(columns));
        }
        Catalog {
            tables,
            name: resolve("@metadata.name"),
            created: resolve("@metadata.creationTimestamp"),
        }
    })
}

/// The columns of `group`'s `resource` (`autoscaling`, `scale` for the Scale subresource), if
/// a printer serves it. events.k8s.io's events are printed as core events.
pub(crate) fn of(group: &str, resource: &str) -> Option<&'static Value> {
    let key = match (group, resource) {
        ("events.k8s.io", "events") => "/events".to_owned(),
        _ => format!("{group}/{resource}"),
    };
    catalog().tables.get(&key)
}

/// A column definition, its members as the server writes them.
pub(crate) fn column(
    name: &str,
    ty: &str,
    format: &str,
    priority: i64,
    description: &str,
) -> Value {
    let mut column = Map::new();
    column.insert("name".into(), json!(name));
    column.insert("type".into(), json!(ty));
    column.insert("format".into(), json!(format));
    column.insert("description".into(), json!(description));
    column.insert("priority".into(), json!(priority));
    Value::Object(column)
}

/// The first column of every table but a built-in printer's: the object's name.
pub(crate) fn name() -> Value {
    column("Name", "string", "name", 0, &catalog().name)
}

/// The description of an object's creation time (the default table's `Created At`, a custom
/// resource's default `Age`).
pub(crate) fn created_description() -> &'static str {
    &catalog().created
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printer_has_columns_with_their_descriptions() {
        let pods = of("", "pods").expect("pods have a printer");
        let names: Vec<&str> = pods
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "Name",
                "Ready",
                "Status",
                "Restarts",
                "Age",
                "IP",
                "Node",
                "Nominated Node",
                "Readiness Gates"
            ]
        );
        // Descriptions are the project's own words (the provenance test), one per column.
        assert!(
            pods[0]["description"]
                .as_str()
                .unwrap()
                .starts_with("The object's name")
        );
        assert_eq!(of("events.k8s.io", "events"), of("", "events"));
        assert!(of("rbac.authorization.k8s.io", "roles").is_none());
        assert!(catalog().tables.len() > 60);
    }
}
