//! Answers as tables (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`): what `kubectl
//! get` prints. Each row is an object's cells under the columns of its resource's printer:
//!
//! - a built-in kind's printer ([`cells`], the columns in `columns.json`), always wide: the
//!   columns kubectl shows only with `-o wide` (priority 1) are filled in too;
//! - a custom resource's CRD columns ([`custom`]);
//! - otherwise the default table: the name and the creation time (RBAC roles, LimitRanges,
//!   CRDs), as apiserver's `registry/rest/table.go` makes it.
//!
//! Each row carries its object as `includeObject` asks: its metadata (the default), all of it,
//! or nothing. A watch's first event carries the column definitions and later events `null`.

mod cells;
mod columns;
mod custom;
mod duration;
mod format;
mod jsonpath;

use serde_json::{Map, Value, json};

use crate::conversion::Shape;
use crate::custom::Served;
use crate::discovery::Resource;
use crate::object::object_of;
use crate::status::ApiError;

pub(crate) use duration::Now;

/// What each row holds of its object (`includeObject`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Include {
    /// Nothing: `"object": null`.
    None,
    /// Its metadata, as a `PartialObjectMetadata` (the default).
    Metadata,
    /// The whole object.
    Object,
}

impl Include {
    /// The `includeObject` query parameter.
    pub(crate) fn parse(given: Option<&str>) -> Result<Include, ApiError> {
        match given.unwrap_or("") {
            "" | "Metadata" => Ok(Include::Metadata),
            "None" => Ok(Include::None),
            "Object" => Ok(Include::Object),
            other => Err(ApiError::bad_request(format!(
                "Unable to convert to Table as requested: includeObject: Invalid value: \
                 {other:?}: must be 'Metadata', 'Object', 'None', or empty"
            ))),
        }
    }
}

/// How a resource's rows are made.
#[derive(Debug, Clone)]
enum Printer {
    /// A built-in kind's printer. Events reached through events.k8s.io are printed from
    /// core/v1's shape, as the server prints them from its internal type.
    Builtin {
        columns: &'static Value,
        cells: cells::Cells,
        shape: Shape,
        group: String,
        resource: String,
    },
    /// A custom resource's columns.
    Custom(custom::Columns),
    /// The name and creation time.
    Default,
}

/// Writes objects of one resource as tables.
#[derive(Debug, Clone)]
pub(crate) struct Tables {
    printer: Printer,
    /// The Table's `apiVersion` (`meta.k8s.io/v1`, or `v1beta1` when asked for).
    api_version: &'static str,
    include: Include,
    now: Now,
}

impl Tables {
    /// The tables of the objects of `resource` (`subresource`: `""`, `status`, `scale`, ...)
    /// as served now, in `api_version`.
    pub(crate) fn new(
        served: &Served,
        resource: &Resource,
        subresource: &str,
        api_version: &'static str,
        include: Include,
        now: Now,
    ) -> Tables {
        let printer = printer(served, resource, subresource);
        Tables {
            printer,
            api_version,
            include,
            now,
        }
    }

    /// One object as a table of one row (a get, a write's answer, a watch event's object).
    /// `headers`: whether the column definitions are sent.
    pub(crate) fn one(&self, object: &Value, headers: bool) -> Value {
        let revision = object.pointer("/metadata/resourceVersion").cloned();
        let mut metadata = Map::new();
        if let Some(revision) = revision.filter(|r| r.as_str().is_some_and(|r| !r.is_empty())) {
            metadata.insert("resourceVersion".into(), revision);
        }
        self.table(
            std::slice::from_ref(&object),
            Value::Object(metadata),
            headers,
        )
    }

    /// A list's objects as a table, with the list's metadata.
    pub(crate) fn list(&self, objects: &[&Value], metadata: Value) -> Value {
        self.table(objects, metadata, true)
    }

    fn table(&self, objects: &[&Value], metadata: Value, headers: bool) -> Value {
        let always_headers = matches!(&self.printer, Printer::Builtin { group, .. }
            if group == "apiregistration.k8s.io");
        let columns = if headers || always_headers {
            self.definitions()
        } else {
            Value::Null
        };
        let mut rows: Vec<(cells::Row, &Value)> =
            objects.iter().map(|o| (self.row(o), *o)).collect();
        if let Printer::Builtin {
            group, resource, ..
        } = &self.printer
        {
            cells::sort(group, resource, &mut rows);
        }
        let rows = if rows.is_empty() && matches!(self.printer, Printer::Default) {
            // The default table never makes its list of rows when there are none.
            Value::Null
        } else {
            Value::Array(
                rows.into_iter()
                    .map(|(row, object)| self.row_value(row, object))
                    .collect(),
            )
        };
        object_of([
            ("kind", json!("Table")),
            ("apiVersion", json!(self.api_version)),
            ("metadata", metadata),
            ("columnDefinitions", columns),
            ("rows", rows),
        ])
    }

    fn definitions(&self) -> Value {
        match &self.printer {
            Printer::Builtin { columns, .. } => (*columns).clone(),
            Printer::Custom(columns) => Value::Array(columns.definitions()),
            Printer::Default => json!([
                columns::name(),
                columns::column("Created At", "date", "", 0, columns::created_description()),
            ]),
        }
    }

    fn row(&self, object: &Value) -> cells::Row {
        match &self.printer {
            Printer::Builtin { cells, shape, .. } => match shape {
                Shape::EventsV1 => cells(&shape.to_storage(object.clone()), self.now),
                _ => cells(object, self.now),
            },
            Printer::Custom(columns) => columns.cells(object, self.now).into(),
            Printer::Default => vec![
                object
                    .pointer("/metadata/name")
                    .cloned()
                    .unwrap_or(json!("")),
                object
                    .pointer("/metadata/creationTimestamp")
                    .filter(|t| t.is_string())
                    .cloned()
                    .unwrap_or(json!("0001-01-01T00:00:00Z")),
            ]
            .into(),
        }
    }

    fn row_value(&self, row: cells::Row, object: &Value) -> Value {
        // The bookmark that ends a watch's initial events is always sent as metadata.
        let end_of_initial = object
            .pointer("/metadata/annotations/k8s.io~1initial-events-end")
            .is_some_and(|v| v == "true");
        let include = if end_of_initial {
            Include::Metadata
        } else {
            self.include
        };
        let object = match include {
            Include::None => Value::Null,
            Include::Object => object.clone(),
            Include::Metadata => crate::object::partial_metadata(object, self.api_version),
        };
        let mut value = Map::new();
        value.insert("cells".into(), Value::Array(row.cells));
        if !row.conditions.is_empty() {
            value.insert("conditions".into(), Value::Array(row.conditions));
        }
        value.insert("object".into(), object);
        Value::Object(value)
    }
}

/// The printer of `resource`'s objects (or its subresource's).
fn printer(served: &Served, resource: &Resource, subresource: &str) -> Printer {
    let group = resource.group.as_str();
    let plural = resource.plural();
    let crd = resource.names.as_ref().and_then(|_| {
        served.crds.iter().find(|crd| {
            crd.pointer("/spec/group").and_then(Value::as_str) == Some(group)
                && crd.pointer("/spec/names/plural").and_then(Value::as_str) == Some(plural)
        })
    });
    if let Some(crd) = crd {
        return Printer::Custom(if subresource == "scale" {
            let scale = crd
                .pointer("/spec/versions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .find(|v| v.get("name").and_then(Value::as_str) == Some(&resource.version))
                .and_then(|v| v.pointer("/subresources/scale"))
                .cloned()
                .unwrap_or(json!({}));
            custom::Columns::of_scale(&scale)
        } else {
            custom::Columns::of_crd(crd, &resource.version)
        });
    }
    let (group, plural) = if subresource == "scale" {
        ("autoscaling", "scale")
    } else {
        (group, plural)
    };
    match (columns::of(group, plural), cells::of(group, plural)) {
        (Some(columns), Some(cells)) => Printer::Builtin {
            columns,
            cells,
            shape: Shape::of(group, plural),
            group: group.to_owned(),
            resource: plural.to_owned(),
        },
        _ => Printer::Default,
    }
}
