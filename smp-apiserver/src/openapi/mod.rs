//! The OpenAPI documents the server publishes: `/openapi/v3` (an index of one document per
//! group-version) and `/openapi/v2` (one Swagger 2.0 document), as kubectl and code generators
//! read them.
//!
//! Each describes the operations served, with the kind each serves and the patch types it
//! takes (kubectl's client-side apply computes a strategic merge patch only where the `PATCH`
//! operation takes one, and then from the schema's patch metadata), and the schemas: the
//! built-in kinds' (from [`schemas`]: the official v1.34 schemas, less their descriptions) and
//! the served CRDs' (their `openAPIV3Schema`, with `apiVersion`, `kind` and `metadata` filled
//! in, as the API server publishes them).

mod custom;
mod schemas;

use serde_json::{Map, Value, json};

use crate::custom::Served;
use crate::discovery::{Resource, Resources};

pub(crate) use schemas::Form;

/// `/openapi/v3`: where each group-version's document is.
pub(crate) fn v3_index(served: &Served) -> Value {
    let mut paths = Map::new();
    for r in served.resources.iter() {
        let path = if r.group.is_empty() {
            format!("api/{}", r.version)
        } else {
            format!("apis/{}/{}", r.group, r.version)
        };
        paths
            .entry(path.clone())
            .or_insert_with(|| json!({"serverRelativeURL": format!("/openapi/v3/{path}")}));
    }
    json!({"paths": paths})
}

/// `/openapi/v3/api/v1`, `/openapi/v3/apis/{group}/{version}`: the group-version's operations
/// and the schemas they use, or `None` when the group-version is not served.
pub(crate) fn v3(served: &Served, group: &str, version: &str) -> Option<Value> {
    let resources: Vec<&Resource> = served
        .resources
        .iter()
        .filter(|r| r.group == group && r.version == version)
        .collect();
    if resources.is_empty() {
        return None;
    }
    let crds = custom::schemas(served, Some((group, version)), Form::V3);
    let mut roots: Vec<String> = schemas::kinds_of(group, version)
        .into_iter()
        .chain([PATCH])
        .chain(crds.refers_to.iter().copied())
        .map(str::to_owned)
        .collect();
    roots.extend(resources.iter().filter_map(|r| schema_of(served, r)));
    let mut components = schemas::closure(roots.iter().map(String::as_str), Form::V3);
    components.extend(crds.schemas);
    let paths = paths(served, &resources, Form::V3);
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.34.0"},
        "paths": paths,
        "components": {"schemas": components},
    }))
}

/// `/openapi/v2`: every operation served and every schema, in one Swagger 2.0 document.
pub(crate) fn v2(served: &Served) -> Value {
    let resources: Vec<&Resource> = served.resources.iter().collect();
    let mut definitions = schemas::all(Form::V2);
    definitions.extend(custom::schemas(served, None, Form::V2).schemas);
    definitions.sort_keys();
    json!({
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": "v1.34.0"},
        "paths": paths(served, &resources, Form::V2),
        "definitions": definitions,
    })
}

/// The body of a `PATCH`, whatever its type.
const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";

/// The name of the schema of a resource's kind, built-in or a CRD's.
fn schema_of(served: &Served, r: &Resource) -> Option<String> {
    let group = r.kind_group.as_deref().unwrap_or(&r.group);
    let version = r.kind_version.as_deref().unwrap_or(&r.version);
    match schemas::of_kind(group, version, &r.kind) {
        Some(name) => Some(name.to_owned()),
        None => served
            .resources
            .is_custom(r)
            .then(|| custom::name(group, version, &r.kind)),
    }
}

/// The operations of `resources`, by path.
fn paths(served: &Served, resources: &[&Resource], form: Form) -> Map<String, Value> {
    let mut paths = Map::new();
    for r in resources {
        let prefix = if r.group.is_empty() {
            format!("/api/{}", r.version)
        } else {
            format!("/apis/{}/{}", r.group, r.version)
        };
        let scope = if r.namespaced {
            "/namespaces/{namespace}"
        } else {
            ""
        };
        let (plural, sub) = r.resource.split_once('/').unwrap_or((&r.resource, ""));
        let named = if sub.is_empty() {
            format!("{prefix}{scope}/{plural}/{{name}}")
        } else {
            format!("{prefix}{scope}/{plural}/{{name}}/{sub}")
        };
        let kind = schema_of(served, r);
        let strategic = !served.resources.is_custom(r) || served.strategic.is_some();
        let operation = |action: &str| operation(r, action, kind.as_deref(), strategic, form);
        let mut item = Map::new();
        for (verb, method) in [
            ("get", "get"),
            ("update", "put"),
            ("patch", "patch"),
            ("delete", "delete"),
        ] {
            if r.allows(verb) {
                item.insert(method.into(), operation(method));
            }
        }
        if !item.is_empty() {
            paths.insert(named, Value::Object(item));
        }
        if sub.is_empty() {
            let mut collection = Map::new();
            for (verb, method, action) in [
                ("list", "get", "list"),
                ("create", "post", "post"),
                ("deletecollection", "delete", "deletecollection"),
            ] {
                if r.allows(verb) {
                    collection.insert(method.into(), operation(action));
                }
            }
            if !collection.is_empty() {
                paths.insert(
                    format!("{prefix}{scope}/{plural}"),
                    Value::Object(collection),
                );
            }
        }
    }
    paths
}

/// One operation: its action and kind, the query parameters clients look for (`fieldValidation`
/// tells kubectl that the server checks fields itself), and the body it takes.
fn operation(r: &Resource, action: &str, kind: Option<&str>, strategic: bool, form: Form) -> Value {
    let gvk = json!({
        "group": r.kind_group.as_deref().unwrap_or(&r.group),
        "version": r.kind_version.as_deref().unwrap_or(&r.version),
        "kind": r.kind,
    });
    let query = |name: &str| match form {
        Form::V3 => json!({"name": name, "in": "query", "schema": {"type": "string"}}),
        Form::V2 => json!({"name": name, "in": "query", "type": "string"}),
    };
    let mut op = json!({
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": gvk,
        "parameters": [query("dryRun"), query("fieldManager"), query("fieldValidation")],
        "responses": {"200": {"description": "OK"}},
    });
    let body: Option<(Vec<&str>, &str)> = match action {
        "patch" => {
            let mut types = vec![
                "application/json-patch+json",
                "application/merge-patch+json",
            ];
            if strategic {
                types.push("application/strategic-merge-patch+json");
            }
            types.push("application/apply-patch+yaml");
            Some((types, PATCH))
        }
        "put" | "post" => kind.map(|k| (vec!["application/json", "application/yaml"], k)),
        _ => None,
    };
    if let Some((types, schema)) = body {
        match form {
            Form::V3 => {
                let content: Map<String, Value> = types
                    .iter()
                    .map(|t| ((*t).to_owned(), json!({"schema": form.reference(schema)})))
                    .collect();
                op["requestBody"] = json!({"content": content, "required": true});
            }
            Form::V2 => {
                op["consumes"] = json!(types);
                if let Some(params) = op["parameters"].as_array_mut() {
                    params.push(json!({"name": "body", "in": "body", "required": true,
                                       "schema": form.reference(schema)}));
                }
            }
        }
    }
    if let Some(kind) = kind.filter(|_| matches!(action, "get" | "put" | "patch" | "post")) {
        op["responses"]["200"] = match form {
            Form::V3 => json!({"description": "OK",
                               "content": {"application/json": {"schema": form.reference(kind)}}}),
            Form::V2 => json!({"description": "OK", "schema": form.reference(kind)}),
        };
    }
    op
}

impl Resources {
    /// Whether a resource is a custom resource's (not built in).
    pub(crate) fn is_custom(&self, r: &Resource) -> bool {
        Resources::builtin()
            .get(&r.group, &r.version, &r.resource)
            .is_none()
    }
}
