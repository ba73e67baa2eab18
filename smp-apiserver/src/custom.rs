//! Custom resources: what the stored CustomResourceDefinitions make the server serve, kept as
//! one snapshot (the resource table, the CRDs, their structured types) that requests take at
//! their start and writes to CRDs replace.
//!
//! As the API server's CRD controllers do, a CRD written is given its status (names accepted,
//! established), and a CRD removed takes its objects with it.

use std::sync::Arc;

use serde_json::{Value, json};
use smp_core::openapi::crd::CrdCatalog;
use smp_ssa::schema::Schema;

use crate::discovery::{Resource, Resources};
use crate::store::Store;

/// `group/plural` of CRDs in the store.
pub(crate) const CRDS: &str = "apiextensions.k8s.io/customresourcedefinitions";

/// What the server serves at one moment.
#[derive(Clone)]
pub(crate) struct Served {
    pub(crate) resources: Arc<Resources>,
    /// The CRDs, as stored.
    pub(crate) crds: Arc<Vec<Value>>,
    /// The structured types of their kinds (none without CRDs).
    pub(crate) schema: Option<Arc<Schema>>,
    /// Their kinds' strategic merge schemas, when custom resources take strategic merge
    /// patches (`Options::custom_resource_strategic_merge`).
    pub(crate) strategic: Option<Arc<CrdCatalog>>,
    /// Their structural schemas, as admission reads them (defaults).
    pub(crate) definitions: Arc<smp_admission::customresource::Definitions>,
}

impl Served {
    /// The built-in resources only.
    pub(crate) fn builtin() -> Served {
        Served {
            resources: Arc::new(Resources::builtin().clone()),
            crds: Arc::new(Vec::new()),
            schema: None,
            strategic: None,
            definitions: Arc::default(),
        }
    }

    /// The built-in resources and those of the CRDs in `store`, with their kinds' strategic
    /// merge schemas if `strategic_merge`.
    pub(crate) fn from_store(store: &Store, strategic_merge: bool) -> Served {
        let (stored, _) = store.list(CRDS, None, None);
        let crds: Vec<Value> = stored.iter().map(|(_, s)| (*s.object).clone()).collect();
        let mut resources = Resources::builtin().clone();
        for crd in &crds {
            for resource in resources_of(crd) {
                resources.add(resource);
            }
        }
        // A CRD whose schema does not convert serves its objects without field management.
        let schema = smp_ssa::schema::from_crds(crds.iter()).ok().map(Arc::new);
        // A CRD whose schema smp cannot read takes no strategic merge patches (415).
        let strategic = strategic_merge.then(|| {
            let mut catalog = CrdCatalog::new();
            for crd in &crds {
                let _ = catalog.add_crd(crd);
            }
            Arc::new(catalog)
        });
        // A CRD whose schema admission cannot read defaults nothing.
        let mut definitions = smp_admission::customresource::Definitions::new();
        for crd in &crds {
            let _ = definitions.add(crd);
        }
        Served {
            resources: Arc::new(resources),
            crds: Arc::new(crds),
            schema,
            strategic,
            definitions: Arc::new(definitions),
        }
    }
}

/// The resources a CRD serves: each served version's, with its `status` and `scale`
/// subresources.
fn resources_of(crd: &Value) -> Vec<Resource> {
    let text = |p: &str| {
        crd.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let (group, plural, kind) = (
        text("/spec/group"),
        text("/spec/names/plural"),
        text("/spec/names/kind"),
    );
    if group.is_empty() || plural.is_empty() || kind.is_empty() {
        return Vec::new();
    }
    let namespaced = text("/spec/scope") != "Cluster";
    let verbs = |list: &[&str]| list.iter().map(|v| (*v).to_owned()).collect::<Vec<_>>();
    let mut out = Vec::new();
    for version in crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = version.get("name").and_then(Value::as_str).unwrap_or("");
        if name.is_empty() || version.get("served") == Some(&Value::Bool(false)) {
            continue;
        }
        let names = crate::discovery::Names {
            singular: text("/spec/names/singular"),
            short: crate::object::strings_at(crd, "/spec/names/shortNames"),
            categories: crate::object::strings_at(crd, "/spec/names/categories"),
        };
        let resource = |resource: String, kind: &str, verbs: Vec<String>| Resource {
            group: group.clone(),
            version: name.to_owned(),
            resource,
            kind: kind.to_owned(),
            kind_group: None,
            kind_version: None,
            namespaced,
            verbs,
            names: Some(names.clone()),
        };
        out.push(resource(
            plural.clone(),
            &kind,
            verbs(&[
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch",
            ]),
        ));
        let subresources = version.get("subresources");
        if subresources.and_then(|s| s.get("status")).is_some() {
            out.push(resource(
                format!("{plural}/status"),
                &kind,
                verbs(&["get", "patch", "update"]),
            ));
        }
        if subresources.and_then(|s| s.get("scale")).is_some() {
            let mut scale = resource(
                format!("{plural}/scale"),
                "Scale",
                verbs(&["get", "patch", "update"]),
            );
            scale.kind_group = Some("autoscaling".into());
            scale.kind_version = Some("v1".into());
            out.push(scale);
        }
    }
    out
}

/// The status the server gives an accepted CRD: its names accepted, established, its storage
/// version stored.
pub(crate) fn established(crd: &Value, now: &str) -> Value {
    let condition = |kind: &str, reason: &str, message: &str| {
        json!({"type": kind, "status": "True", "lastTransitionTime": now,
               "reason": reason, "message": message})
    };
    let storage: Vec<&str> = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| v.get("storage") == Some(&Value::Bool(true)))
        .filter_map(|v| v.get("name").and_then(Value::as_str))
        .collect();
    json!({
        "acceptedNames": crd.pointer("/spec/names").cloned().unwrap_or(json!({})),
        "conditions": [
            condition("NamesAccepted", "NoConflicts", "no conflicts found"),
            condition("Established", "InitialNamesAccepted", "the initial names have been accepted"),
        ],
        "storedVersions": storage,
    })
}

/// Removes the objects of the resources a deleted CRD served.
pub(crate) fn remove_objects(store: &Store, crd: &Value) {
    let resource = format!(
        "{}/{}",
        crd.pointer("/spec/group")
            .and_then(Value::as_str)
            .unwrap_or(""),
        crd.pointer("/spec/names/plural")
            .and_then(Value::as_str)
            .unwrap_or("")
    );
    let (objects, _) = store.list(&resource, None, None);
    for (key, stored) in objects {
        // Changed meanwhile: its writer's own business; the next refresh finds it gone anyway.
        let _ = store.remove(&key, stored.revision);
    }
}

/// Whether a CRD still needs its status.
pub(crate) fn needs_status(crd: &Value) -> bool {
    !crd.pointer("/status/conditions")
        .and_then(Value::as_array)
        .is_some_and(|c| c.iter().any(|c| c["type"] == "Established"))
}
