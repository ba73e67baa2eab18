//! smp-apiserver's resource table: which resources the official OpenAPI v2 document serves,
//! under which group and version, for which kind, namespaced or not, with which verbs, and
//! their subresources, written in smp-apiserver's own compact form.
//!
//! The document's paths say all of it: `/apis/{group}/{version}[/namespaces/{namespace}]/
//! {resource}[/{name}[/{subresource}]]`, each operation carrying `x-kubernetes-action` and
//! `x-kubernetes-group-version-kind`. Of the connecting subresources, a pod's `exec`, `attach`
//! and `portforward` are kept (the server answers them as kube-apiserver does when no kubelet
//! answers); the `proxy` ones are left out, as the server has nothing to proxy to.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

/// One resource or subresource of a group-version.
#[derive(Default)]
struct Resource {
    kind: String,
    /// The kind's group and version, where they are not the resource's own (`deployments/scale`
    /// is an `autoscaling/v1` `Scale`).
    kind_group: String,
    kind_version: String,
    namespaced: bool,
    verbs: BTreeSet<&'static str>,
}

/// The resource table of a v2 document, as compact JSON (one resource a line).
pub fn resource_table(document: &Value) -> Result<String, String> {
    let paths = document
        .get("paths")
        .and_then(Value::as_object)
        .ok_or("the document has no paths")?;
    // (group, version, resource) → resource.
    let mut table: BTreeMap<(String, String, String), Resource> = BTreeMap::new();
    for (path, operations) in paths {
        let Some((group, version, rest)) = split(path) else {
            continue;
        };
        let (namespaced, rest) = match rest.strip_prefix("namespaces/{namespace}/") {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let segments: Vec<&str> = rest.split('/').collect();
        let (resource, named) = match segments.as_slice() {
            [resource] => (resource.to_string(), false),
            [resource, "{name}"] => (resource.to_string(), true),
            [resource, "{name}", sub] => (format!("{resource}/{sub}"), true),
            _ => continue,
        };
        // `namespaces` itself is named `{name}`; its own subresources have a namespace path
        // only through it.
        if resource.contains('{') {
            continue;
        }
        for (method, operation) in operations.as_object().into_iter().flatten() {
            let (Some(action), Some(gvk)) = (
                operation.get("x-kubernetes-action").and_then(Value::as_str),
                operation.get("x-kubernetes-group-version-kind"),
            ) else {
                continue;
            };
            let connected = matches!(
                resource.as_str(),
                "pods/exec" | "pods/attach" | "pods/portforward"
            );
            let verb = match (action, named) {
                ("connect", true) if connected && method == "get" => "get",
                ("connect", true) if connected && method == "post" => "create",
                ("get", true) => "get",
                ("list", false) => "list",
                ("post", _) => "create",
                ("put", true) => "update",
                ("patch", true) => "patch",
                ("delete", true) => "delete",
                ("deletecollection", false) => "deletecollection",
                _ => continue,
            };
            let text = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            let entry = table
                .entry((group.to_owned(), version.to_owned(), resource.clone()))
                .or_default();
            entry.kind = text("kind");
            let (kind_group, kind_version) = (text("group"), text("version"));
            if kind_group != group || kind_version != version {
                entry.kind_group = kind_group;
                entry.kind_version = kind_version;
            }
            entry.namespaced |= namespaced;
            entry.verbs.insert(verb);
            // A resource one can list can be watched (`?watch=true`).
            if verb == "list" {
                entry.verbs.insert("watch");
            }
        }
    }
    let mut out = String::from("[\n");
    for (i, ((group, version, resource), r)) in table.iter().enumerate() {
        let mut line = json!({
            "group": group,
            "version": version,
            "resource": resource,
            "kind": r.kind,
            "namespaced": r.namespaced,
            "verbs": r.verbs,
        });
        if !r.kind_group.is_empty() || !r.kind_version.is_empty() {
            line["kindGroup"] = json!(r.kind_group);
            line["kindVersion"] = json!(r.kind_version);
        }
        out.push_str(&line.to_string());
        out.push_str(if i + 1 < table.len() { ",\n" } else { "\n" });
    }
    out.push_str("]\n");
    Ok(out)
}

/// A path's group, version and what follows them: `/api/v1/...` (the core group, `""`) or
/// `/apis/{group}/{version}/...`. Watch paths (`.../watch/...`) are not resources.
fn split(path: &str) -> Option<(&str, &str, &str)> {
    let (group, rest) = if let Some(rest) = path.strip_prefix("/api/") {
        ("", rest)
    } else {
        let rest = path.strip_prefix("/apis/")?;
        rest.split_once('/')?
    };
    let (version, rest) = rest.split_once('/')?;
    if rest.starts_with("watch/") || rest.is_empty() {
        return None;
    }
    Some((group, version, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_make_resources() {
        let op = |action: &str| {
            json!({"x-kubernetes-action": action,
                   "x-kubernetes-group-version-kind": {"group": "apps", "version": "v1", "kind": "Deployment"}})
        };
        let doc = json!({"paths": {
            "/apis/apps/v1/namespaces/{namespace}/deployments": {"get": op("list"), "post": op("post")},
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}": {"get": op("get"), "patch": op("patch")},
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status": {"put": op("put")},
            "/apis/apps/v1/watch/namespaces/{namespace}/deployments": {"get": op("watchlist")},
        }});
        let table = resource_table(&doc).unwrap();
        assert_eq!(
            table,
            "[\n{\"group\":\"apps\",\"kind\":\"Deployment\",\"namespaced\":true,\"resource\":\"deployments\",\"verbs\":[\"create\",\"get\",\"list\",\"patch\",\"watch\"],\"version\":\"v1\"},\n\
             {\"group\":\"apps\",\"kind\":\"Deployment\",\"namespaced\":true,\"resource\":\"deployments/status\",\"verbs\":[\"update\"],\"version\":\"v1\"}\n]\n"
        );
    }
}

#[cfg(test)]
mod up_to_date {
    /// The table smp-apiserver carries is what the official document gives.
    #[test]
    fn the_committed_table_is_the_documents() {
        let Some(path) = smp_testdata::file("openapi/swagger.json") else {
            return; // skipped, and said so
        };
        let document = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let table = super::resource_table(&document).unwrap();
        let committed = include_str!("../../smp-apiserver/src/discovery/resources.json");
        assert!(
            table == committed,
            "smp-apiserver/src/discovery/resources.json is out of date: run `cargo run -p smp-codegen -- --resources`"
        );
    }
}
