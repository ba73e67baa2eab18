//! Aggregated discovery (`apidiscovery.k8s.io/v2`): every group, version and resource in one
//! answer to `/api` or `/apis`, for a client whose `Accept` header asks for it (kubectl does,
//! and then needs no request per group-version).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Resource, Resources, version_priority};

/// The media type of the aggregated document, which the answer's `Content-Type` names.
pub const MEDIA_TYPE: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// Whether an `Accept` header asks for the aggregated document (version 2) before plain JSON.
pub fn asked_for(accept: &str) -> bool {
    accept.split(',').any(|media| {
        let (mut group, mut version, mut kind) = (false, false, false);
        for parameter in media.split(';').map(str::trim) {
            match parameter {
                "g=apidiscovery.k8s.io" => group = true,
                "v=v2" => version = true,
                "as=APIGroupDiscoveryList" => kind = true,
                _ => {}
            }
        }
        group && version && kind
    })
}

impl Resources {
    /// `/api` (`core`: the core group alone) or `/apis` (the named groups) as one
    /// `APIGroupDiscoveryList`: each group's versions, the preferred first, each with its
    /// resources and their subresources.
    pub fn aggregated(&self, core: bool) -> Value {
        // group → version → resource entries; subresources go to their resource's entry.
        let mut groups: BTreeMap<&str, BTreeMap<&str, Vec<Value>>> = BTreeMap::new();
        let mut at: BTreeMap<(&str, &str, &str), usize> = BTreeMap::new();
        let in_scope = |r: &&Resource| r.group.is_empty() == core;
        for r in self
            .iter()
            .filter(in_scope)
            .filter(|r| !r.resource.contains('/'))
        {
            let entries = groups
                .entry(&r.group)
                .or_default()
                .entry(&r.version)
                .or_default();
            at.insert((&r.group, &r.version, &r.resource), entries.len());
            entries.push(resource(r));
        }
        for r in self.iter().filter(in_scope) {
            let Some((parent, sub)) = r.resource.split_once('/') else {
                continue;
            };
            let Some(&i) = at.get(&(r.group.as_str(), r.version.as_str(), parent)) else {
                continue;
            };
            let entry = groups
                .get_mut(r.group.as_str())
                .and_then(|versions| versions.get_mut(r.version.as_str()))
                .and_then(|entries| entries.get_mut(i));
            if let Some(Value::Array(subresources)) = entry.map(|e| &mut e["subresources"]) {
                subresources.push(json!({
                    "subresource": sub,
                    "responseKind": response_kind(r),
                    "verbs": r.verbs,
                }));
            }
        }
        let items: Vec<Value> = groups
            .into_iter()
            .map(|(group, versions)| {
                let mut versions: Vec<(&str, Vec<Value>)> = versions.into_iter().collect();
                versions.sort_by_key(|(v, _)| std::cmp::Reverse(version_priority(v)));
                let versions: Vec<Value> = versions
                    .into_iter()
                    .map(|(version, resources)| {
                        json!({"version": version, "resources": resources, "freshness": "Current"})
                    })
                    .collect();
                let metadata = if group.is_empty() {
                    json!({"creationTimestamp": null})
                } else {
                    json!({"name": group, "creationTimestamp": null})
                };
                json!({"metadata": metadata, "versions": versions})
            })
            .collect();
        json!({
            "kind": "APIGroupDiscoveryList",
            "apiVersion": "apidiscovery.k8s.io/v2",
            "metadata": {},
            "items": items,
        })
    }
}

/// A resource's entry, with no subresources yet.
fn resource(r: &Resource) -> Value {
    let mut entry = json!({
        "resource": r.resource,
        "responseKind": response_kind(r),
        "scope": if r.namespaced { "Namespaced" } else { "Cluster" },
        "singularResource": r.singular(),
        "verbs": r.verbs,
        "subresources": [],
    });
    let short = r.short_names();
    if !short.is_empty() {
        entry["shortNames"] = json!(short);
    }
    let categories = r.categories();
    if !categories.is_empty() {
        entry["categories"] = json!(categories);
    }
    entry
}

/// The kind a resource answers with: its own group-version's, or the one it names
/// (`deployments/scale` answers with an `autoscaling/v1` `Scale`).
fn response_kind(r: &Resource) -> Value {
    json!({
        "group": r.kind_group.as_deref().unwrap_or(&r.group),
        "version": r.kind_version.as_deref().unwrap_or(&r.version),
        "kind": r.kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectls_accept_header_asks_for_it() {
        assert!(asked_for(
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,\
             application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,\
             application/json"
        ));
        assert!(!asked_for("application/json"));
        assert!(!asked_for(
            "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"
        ));
    }

    #[test]
    fn deployments_come_with_their_subresources() {
        let apis = Resources::builtin().aggregated(false);
        let apps = apis["items"]
            .as_array()
            .and_then(|items| items.iter().find(|g| g["metadata"]["name"] == "apps"))
            .expect("apps");
        assert_eq!(apps["versions"][0]["version"], "v1");
        let deployments = apps["versions"][0]["resources"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["resource"] == "deployments"))
            .expect("deployments");
        assert_eq!(deployments["scope"], "Namespaced");
        assert_eq!(deployments["shortNames"], json!(["deploy"]));
        let subresources: Vec<&Value> = deployments["subresources"]
            .as_array()
            .map(|s| s.iter().map(|s| &s["subresource"]).collect())
            .unwrap_or_default();
        assert_eq!(subresources, [&json!("scale"), &json!("status")]);
        assert_eq!(
            deployments["subresources"][0]["responseKind"],
            json!({"group": "autoscaling", "version": "v1", "kind": "Scale"})
        );
        // The core group alone under `/api`, without a name.
        let api = Resources::builtin().aggregated(true);
        assert_eq!(api["items"].as_array().map(Vec::len), Some(1));
        assert_eq!(
            api["items"][0]["metadata"],
            json!({"creationTimestamp": null})
        );
    }
}
