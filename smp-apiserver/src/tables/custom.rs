//! Tables of custom resources: the name, then the columns the CRD's version lists in
//! `additionalPrinterColumns` (an `Age` column when it lists none), each cell the first value
//! its JSONPath finds, typed as the column says (apiextensions-apiserver's
//! `registry/customresource/tableconvertor`).

use serde_json::{Value, json};

use super::columns;
use super::duration::{Now, human};
use super::jsonpath::Path;

/// A column of a custom resource's table.
#[derive(Debug, Clone)]
pub(crate) struct Column {
    definition: Value,
    path: Path,
    ty: String,
}

/// The columns of a custom resource's table, after its name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Columns(Vec<Column>);

impl Columns {
    /// The columns of `version` of `crd`. A column whose path does not read ends the list,
    /// as it does on the server (the CRD's validation keeps such paths out).
    pub(crate) fn of_crd(crd: &Value, version: &str) -> Columns {
        let listed = crd
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|v| v.get("name").and_then(Value::as_str) == Some(version))
            .and_then(|v| v.get("additionalPrinterColumns"))
            .and_then(Value::as_array)
            .filter(|columns| !columns.is_empty());
        let Some(listed) = listed else {
            return Columns(age().into_iter().collect());
        };
        let mut columns = Vec::new();
        for column in listed {
            let text = |k: &str| column.get(k).and_then(Value::as_str).unwrap_or("");
            let Some(path) = Path::parse(text("jsonPath")) else {
                break;
            };
            let description = match text("description") {
                "" => format!(
                    "Custom resource definition column (in JSONPath format): {}",
                    text("jsonPath")
                ),
                given => given.to_owned(),
            };
            let priority = column.get("priority").and_then(Value::as_i64).unwrap_or(0);
            columns.push(Column {
                definition: columns::column(
                    text("name"),
                    text("type"),
                    text("format"),
                    priority,
                    &description,
                ),
                path,
                ty: text("type").to_owned(),
            });
        }
        Columns(columns)
    }

    /// The columns of a custom resource's Scale: its desired and actual replicas where the CRD
    /// says where they are, and its age.
    pub(crate) fn of_scale(crd_scale: &Value) -> Columns {
        let mut columns = Vec::new();
        let mut add = |name: &str, description: &str, path: &str| {
            if let Some(parsed) = Path::parse(path) {
                columns.push(Column {
                    definition: columns::column(name, "integer", "", 0, description),
                    path: parsed,
                    ty: "integer".to_owned(),
                });
            }
        };
        if crd_scale.get("specReplicasPath").is_some() {
            add("Desired", "Number of desired replicas", ".spec.replicas");
        }
        if crd_scale.get("statusReplicasPath").is_some() {
            add("Available", "Number of actual replicas", ".status.replicas");
        }
        columns.extend(age());
        Columns(columns)
    }

    /// The definitions of all columns, the name's first.
    pub(crate) fn definitions(&self) -> Vec<Value> {
        std::iter::once(columns::name())
            .chain(self.0.iter().map(|c| c.definition.clone()))
            .collect()
    }

    /// The cells of `object`'s row.
    pub(crate) fn cells(&self, object: &Value, now: Now) -> Vec<Value> {
        let name = object
            .pointer("/metadata/name")
            .cloned()
            .unwrap_or(json!(""));
        std::iter::once(name)
            .chain(
                self.0
                    .iter()
                    .map(|c| cell(&c.ty, c.path.first(object), now)),
            )
            .collect()
    }
}

/// The column a CRD without columns gets: the age.
fn age() -> Option<Column> {
    Some(Column {
        definition: columns::column("Age", "date", "", 0, columns::created_description()),
        path: Path::parse(".metadata.creationTimestamp")?,
        ty: "date".to_owned(),
    })
}

/// A found value as a cell of a column of type `ty`: `null` when nothing was found or the
/// value is not of the type.
fn cell(ty: &str, found: Option<&Value>, now: Now) -> Value {
    let Some(value) = found else {
        return Value::Null;
    };
    match ty {
        "string" => json!(printed(value)),
        "integer" => match value {
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().map(|f| f as i64))
                .map_or(Value::Null, |i| json!(i)),
            _ => Value::Null,
        },
        "number" => match value {
            Value::Number(_) => value.clone(),
            _ => Value::Null,
        },
        "boolean" => match value {
            Value::Bool(_) => value.clone(),
            _ => Value::Null,
        },
        "date" => match value.as_str() {
            Some("" | "null") => json!("<unknown>"),
            Some(text) => match smp_ssa::managedfields::read_time(text) {
                Some(at) => json!(human(now.0.saturating_sub(at))),
                None => json!("<invalid>"),
            },
            None => Value::Null,
        },
        _ => Value::Null,
    }
}

/// A value as a string column shows it: strings as they are, numbers and booleans as Go
/// prints them, objects and arrays as compact JSON, `null` as `<no value>`.
fn printed(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "<no value>".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => go_float(f),
            _ => n.to_string(),
        },
        Value::Array(_) | Value::Object(_) => serde_json::to_string(value).unwrap_or_default(),
    }
}

/// A float as Go's `%v` prints it: the shortest digits that read back, in exponent form when
/// the exponent is below -4 or at least 21 (`1.5`, `1e+21`, `1.5e-05`).
fn go_float(f: f64) -> String {
    if f == 0.0 || !f.is_finite() {
        return format!("{f}");
    }
    let exponent = f.abs().log10().floor() as i32;
    if (-4..21).contains(&exponent) {
        return format!("{f}");
    }
    let scientific = format!("{f:e}");
    let (mantissa, exp) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Now {
        Now(smp_ssa::managedfields::read_time("2026-11-28T12:00:00Z").unwrap())
    }

    #[test]
    fn a_crd_without_columns_shows_name_and_age() {
        let crd = json!({"spec": {"versions": [{"name": "v1"}]}});
        let columns = Columns::of_crd(&crd, "v1");
        let names: Vec<Value> = columns
            .definitions()
            .iter()
            .map(|d| d["name"].clone())
            .collect();
        assert_eq!(names, [json!("Name"), json!("Age")]);
        assert_eq!(columns.definitions()[1]["type"], "date");
        let object =
            json!({"metadata": {"name": "a", "creationTimestamp": "2026-11-28T11:00:00Z"}});
        assert_eq!(columns.cells(&object, now()), [json!("a"), json!("60m")]);
    }

    #[test]
    fn listed_columns_are_typed_as_declared() {
        let crd = json!({"spec": {"versions": [{"name": "v1", "additionalPrinterColumns": [
            {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas", "priority": 1},
            {"name": "Ready", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"Ready\")].status",
             "description": "Whether it is ready"},
            {"name": "Ratio", "type": "number", "jsonPath": ".spec.ratio"},
            {"name": "On", "type": "boolean", "jsonPath": ".spec.on"},
            {"name": "Spec", "type": "string", "jsonPath": ".spec.nested"},
            {"name": "Since", "type": "date", "jsonPath": ".status.since"},
            {"name": "Nothing", "type": "string", "jsonPath": ".spec.none"},
            {"name": "Null", "type": "string", "jsonPath": ".spec.null"}
        ]}]}});
        let columns = Columns::of_crd(&crd, "v1");
        let definitions = columns.definitions();
        assert_eq!(definitions.len(), 9);
        assert_eq!(definitions[1]["priority"], 1);
        assert_eq!(
            definitions[3]["description"],
            "Custom resource definition column (in JSONPath format): .spec.ratio"
        );
        assert_eq!(definitions[2]["description"], "Whether it is ready");
        let object = json!({
            "metadata": {"name": "w"},
            "spec": {"replicas": 3.7, "ratio": 1.5, "on": true, "nested": {"b": 1, "a": [2]}, "null": null},
            "status": {"since": "2026-11-28T09:00:00Z",
                       "conditions": [{"type": "Ready", "status": "True"}]}
        });
        assert_eq!(
            columns.cells(&object, now()),
            [
                json!("w"),
                json!(3),
                json!("True"),
                json!(1.5),
                json!(true),
                json!("{\"a\":[2],\"b\":1}"),
                json!("3h"),
                Value::Null,
                json!("<no value>"),
            ]
        );
    }

    #[test]
    fn floats_print_as_go_prints_them() {
        assert_eq!(go_float(1.5), "1.5");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(0.000015), "1.5e-05");
        assert_eq!(go_float(123456.0), "123456");
    }
}
