//! Structured types of custom resources, from their CustomResourceDefinitions: each served
//! version's `openAPIV3Schema` converted as a definition of its own, under its kind.

use serde_json::{Map, Value, json};

use super::{Schema, SchemaError, from_openapi_v3};

/// The types of every served version of these CRDs (documents of kind
/// `CustomResourceDefinition`; others are passed over).
///
/// ```
/// use serde_json::json;
/// use smp_ssa::schema::{Gvk, ListKind, from_crds};
///
/// let crd = json!({
///     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
///     "spec": {"group": "example.com", "names": {"kind": "Widget"}, "versions": [{
///         "name": "v1", "served": true,
///         "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {
///             "type": "object", "properties": {"tags": {
///                 "type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"
///             }}
///         }}}}
///     }]}
/// });
/// let schema = from_crds([&crd])?;
/// let widget = schema.kind(&Gvk::of("example.com/v1", "Widget")).unwrap();
/// let spec = schema.resolve(widget).map.unwrap().field("spec").unwrap().ty;
/// let tags = schema.resolve(spec).map.unwrap().field("tags").unwrap().ty;
/// assert_eq!(schema.resolve(tags).list.unwrap().kind, ListKind::Set);
/// # Ok::<(), smp_ssa::schema::SchemaError>(())
/// ```
pub fn from_crds<'a>(crds: impl IntoIterator<Item = &'a Value>) -> Result<Schema, SchemaError> {
    let mut schemas = Map::new();
    for crd in crds {
        if crd.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
            continue;
        }
        let text = |p: &str| crd.pointer(p).and_then(Value::as_str).unwrap_or("");
        let (group, kind) = (text("/spec/group"), text("/spec/names/kind"));
        for version in crd
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if version.get("served") == Some(&Value::Bool(false)) {
                continue;
            }
            let name = version.get("name").and_then(Value::as_str).unwrap_or("");
            let Some(Value::Object(schema)) = version.pointer("/schema/openAPIV3Schema") else {
                continue;
            };
            let mut schema = schema.clone();
            schema.insert(
                "x-kubernetes-group-version-kind".into(),
                json!([{"group": group, "version": name, "kind": kind}]),
            );
            // The server types every custom resource's `apiVersion`, `kind` and `metadata`
            // itself, whatever the CRD's schema says of them.
            let properties = schema
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(properties) = properties {
                properties.insert("apiVersion".into(), json!({"type": "string"}));
                properties.insert("kind".into(), json!({"type": "string"}));
                properties.insert("metadata".into(), meta_ref("ObjectMeta"));
            }
            schemas.insert(format!("{group}.{name}.{kind}"), Value::Object(schema));
        }
    }
    schemas.extend(object_meta());
    from_openapi_v3([&json!({"components": {"schemas": schemas}})])
}

/// A reference to `io.k8s.apimachinery.pkg.apis.meta.v1.<name>`.
fn meta_ref(name: &str) -> Value {
    json!({"allOf": [{"$ref": format!("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.{name}")}]})
}

/// The types of every object's `metadata` (Kubernetes v1.34's `ObjectMeta`, with its owner
/// references and managedFields entries), as the server gives them to custom resources.
fn object_meta() -> Map<String, Value> {
    let string = || json!({"type": "string"});
    let integer = || json!({"type": "integer", "format": "int64"});
    let strings = || json!({"type": "object", "additionalProperties": {"type": "string"}});
    let name = |n: &str| format!("io.k8s.apimachinery.pkg.apis.meta.v1.{n}");
    let mut out = Map::new();
    out.insert(
        name("ObjectMeta"),
        json!({"type": "object", "properties": {
            "annotations": strings(),
            "creationTimestamp": string(),
            "deletionGracePeriodSeconds": integer(),
            "deletionTimestamp": string(),
            "finalizers": {"type": "array", "items": string(), "x-kubernetes-list-type": "set"},
            "generateName": string(),
            "generation": integer(),
            "labels": strings(),
            "managedFields": {"type": "array", "items": meta_ref("ManagedFieldsEntry"),
                              "x-kubernetes-list-type": "atomic"},
            "name": string(),
            "namespace": string(),
            "ownerReferences": {"type": "array", "items": meta_ref("OwnerReference"),
                                "x-kubernetes-list-type": "map",
                                "x-kubernetes-list-map-keys": ["uid"]},
            "resourceVersion": string(),
            "selfLink": string(),
            "uid": string(),
        }}),
    );
    out.insert(
        name("OwnerReference"),
        json!({"type": "object", "x-kubernetes-map-type": "atomic", "properties": {
            "apiVersion": string(), "blockOwnerDeletion": {"type": "boolean"},
            "controller": {"type": "boolean"}, "kind": string(), "name": string(), "uid": string(),
        }}),
    );
    out.insert(
        name("ManagedFieldsEntry"),
        json!({"type": "object", "properties": {
            "apiVersion": string(), "fieldsType": string(), "fieldsV1": {"type": "object"},
            "manager": string(), "operation": string(), "subresource": string(), "time": string(),
        }}),
    );
    out
}

/// The fields the API server resets when a custom resource of `api_version` and `kind` is
/// written through `subresource` (`""`: the main resource), when its CRD gives that version a
/// `status` subresource: the status on the main resource, the spec on `status`. `None`
/// otherwise.
///
/// ```
/// use serde_json::json;
/// use smp_ssa::fieldpath::Path;
///
/// let crd = json!({"kind": "CustomResourceDefinition", "spec": {"group": "example.com",
///     "names": {"kind": "Widget"},
///     "versions": [{"name": "v1", "served": true, "subresources": {"status": {}}}]}});
/// let main = smp_ssa::schema::crd_reset_fields([&crd], "example.com/v1", "Widget", "").unwrap();
/// assert!(main.has(&Path::fields(["status"])));
/// let status = smp_ssa::schema::crd_reset_fields([&crd], "example.com/v1", "Widget", "status").unwrap();
/// assert!(status.has(&Path::fields(["spec"])));
/// ```
pub fn crd_reset_fields<'a>(
    crds: impl IntoIterator<Item = &'a Value>,
    api_version: &str,
    kind: &str,
    subresource: &str,
) -> Option<crate::fieldpath::Set> {
    let (group, version) = api_version.rsplit_once('/')?;
    for crd in crds {
        let text = |p: &str| crd.pointer(p).and_then(Value::as_str).unwrap_or("");
        if text("/spec/group") != group || text("/spec/names/kind") != kind {
            continue;
        }
        let versions = crd.pointer("/spec/versions").and_then(Value::as_array)?;
        let entry = versions
            .iter()
            .find(|v| v.get("name").and_then(Value::as_str) == Some(version))?;
        // The subresources of the version, or of the whole CRD (the older form).
        let has_status = entry.pointer("/subresources/status").is_some()
            || crd.pointer("/spec/subresources/status").is_some();
        if !has_status {
            return None;
        }
        let field = match subresource {
            "" => "status",
            "status" => "spec",
            _ => return None,
        };
        return Some(crate::fieldpath::Set::from_paths([
            crate::fieldpath::Path::fields([field]),
        ]));
    }
    None
}
