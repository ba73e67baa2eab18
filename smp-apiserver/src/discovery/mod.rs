//! What the server serves: the built-in resources of Kubernetes v1.34 (group, version, plural
//! name, kind, scope, verbs and subresources), and the discovery documents clients read them
//! from (`/api`, `/api/v1`, `/apis`, `/apis/{group}/{version}`, and the [`aggregated`] form of
//! `/api` and `/apis`).
//!
//! `resources.json` is generated from the official OpenAPI v2 document by
//! `cargo run -p smp-codegen -- --resources`, and checked against it by smp-codegen's tests.

pub mod aggregated;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{Value, json};

/// One resource (`deployments`) or subresource (`deployments/status`) of a group-version.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The API group (`""`: the core group).
    pub group: String,
    /// The version (`v1`).
    pub version: String,
    /// The plural name, with `/subresource` for a subresource.
    pub resource: String,
    /// The kind of the objects it serves.
    pub kind: String,
    /// The kind's group, where it is not the resource's (`deployments/scale`: `autoscaling`).
    #[serde(default)]
    pub kind_group: Option<String>,
    /// The kind's version, likewise.
    #[serde(default)]
    pub kind_version: Option<String>,
    /// Whether its objects live in namespaces.
    pub namespaced: bool,
    /// The verbs it serves: to read, `get`, `list` and `watch`; to write, `create`, `update`,
    /// `patch`, `delete` and `deletecollection`.
    pub verbs: Vec<String>,
    /// Its names besides the plural one: a CRD's `singular`, `shortNames` and `categories`
    /// (`None`: a built-in resource's, from this module's tables).
    #[serde(skip)]
    pub names: Option<Names>,
}

/// A resource's other names, as discovery lists them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// The singular name (`widget`).
    pub singular: String,
    /// Short names (`wd`), for `kubectl get wd`.
    pub short: Vec<String>,
    /// The categories it belongs to (`all`), for `kubectl get all`.
    pub categories: Vec<String>,
}

impl Resource {
    /// `apiVersion` of the resource's group and version (`apps/v1`, or `v1` for the core group).
    pub fn api_version(&self) -> String {
        api_version(&self.group, &self.version)
    }

    /// The plural name without a subresource.
    pub fn plural(&self) -> &str {
        self.resource.split('/').next().unwrap_or(&self.resource)
    }

    /// Whether the verb is served.
    pub fn allows(&self, verb: &str) -> bool {
        self.verbs.iter().any(|v| v == verb)
    }

    /// The singular name discovery gives (none for a subresource).
    pub fn singular(&self) -> String {
        match &self.names {
            _ if self.resource.contains('/') => String::new(),
            Some(names) if !names.singular.is_empty() => names.singular.clone(),
            _ => self.kind.to_lowercase(),
        }
    }

    /// Its short names (a subresource has none).
    pub fn short_names(&self) -> Vec<String> {
        match &self.names {
            _ if self.resource.contains('/') => Vec::new(),
            Some(names) => names.short.clone(),
            None => short_names(&self.resource)
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
        }
    }

    /// The categories it belongs to (a subresource belongs to none).
    pub fn categories(&self) -> Vec<String> {
        match &self.names {
            _ if self.resource.contains('/') => Vec::new(),
            Some(names) => names.categories.clone(),
            None => categories(&self.group, &self.resource)
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
        }
    }

    /// How the API server names the resource in messages: `deployments.apps`, `pods`.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.plural().to_owned()
        } else {
            format!("{}.{}", self.plural(), self.group)
        }
    }
}

/// `apiVersion` of a group and version.
pub fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// Short names of the built-in resources, as Kubernetes v1.34's discovery gives them (`kubectl
/// api-resources`); the OpenAPI document has none.
const SHORT_NAMES: &[(&str, &[&str])] = &[
    ("apiservices", &[]),
    ("certificatesigningrequests", &["csr"]),
    ("componentstatuses", &["cs"]),
    ("configmaps", &["cm"]),
    ("cronjobs", &["cj"]),
    ("customresourcedefinitions", &["crd", "crds"]),
    ("daemonsets", &["ds"]),
    ("deployments", &["deploy"]),
    ("endpoints", &["ep"]),
    ("events", &["ev"]),
    ("horizontalpodautoscalers", &["hpa"]),
    ("ingresses", &["ing"]),
    ("limitranges", &["limits"]),
    ("namespaces", &["ns"]),
    ("networkpolicies", &["netpol"]),
    ("nodes", &["no"]),
    ("persistentvolumeclaims", &["pvc"]),
    ("persistentvolumes", &["pv"]),
    ("poddisruptionbudgets", &["pdb"]),
    ("pods", &["po"]),
    ("priorityclasses", &["pc"]),
    ("replicasets", &["rs"]),
    ("replicationcontrollers", &["rc"]),
    ("resourcequotas", &["quota"]),
    ("serviceaccounts", &["sa"]),
    ("services", &["svc"]),
    ("statefulsets", &["sts"]),
    ("storageclasses", &["sc"]),
];

/// The categories of the built-in resources (each registry's `Categories()`): `all`, what
/// `kubectl get all` lists, and `api-extensions`.
fn categories(group: &str, resource: &str) -> &'static [&'static str] {
    match (group, resource) {
        ("", "pods" | "replicationcontrollers" | "services")
        | ("apps", "daemonsets" | "deployments" | "replicasets" | "statefulsets")
        | ("autoscaling", "horizontalpodautoscalers")
        | ("batch", "cronjobs" | "jobs") => &["all"],
        ("apiextensions.k8s.io", "customresourcedefinitions")
        | ("apiregistration.k8s.io", "apiservices")
        | (
            "admissionregistration.k8s.io",
            "mutatingwebhookconfigurations"
            | "validatingwebhookconfigurations"
            | "validatingadmissionpolicies"
            | "validatingadmissionpolicybindings"
            | "mutatingadmissionpolicies"
            | "mutatingadmissionpolicybindings",
        ) => &["api-extensions"],
        _ => &[],
    }
}

/// A resource's short names (`deploy`), if it has any.
fn short_names(resource: &str) -> &'static [&'static str] {
    SHORT_NAMES
        .binary_search_by(|(name, _)| (*name).cmp(resource))
        .map(|i| SHORT_NAMES[i].1)
        .unwrap_or(&[])
}

/// The resources served, looked up by path or by kind.
#[derive(Debug, Clone, Default)]
pub struct Resources {
    list: Vec<Resource>,
    /// (group, version, resource) → position.
    by_path: BTreeMap<(String, String, String), usize>,
    /// (apiVersion, kind) → position of its main resource.
    by_kind: BTreeMap<(String, String), usize>,
}

impl Resources {
    /// The built-in resources of Kubernetes v1.34.
    pub fn builtin() -> &'static Resources {
        static BUILTIN: OnceLock<Resources> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            let list: Vec<Resource> =
                serde_json::from_str(include_str!("resources.json")).unwrap_or_default();
            Resources::from_list(list)
        })
    }

    /// The table of these resources.
    pub fn from_list(list: Vec<Resource>) -> Resources {
        let mut resources = Resources::default();
        for r in list {
            resources.add(r);
        }
        resources
    }

    /// Adds (or replaces) a resource.
    pub fn add(&mut self, resource: Resource) {
        let key = (
            resource.group.clone(),
            resource.version.clone(),
            resource.resource.clone(),
        );
        let at = match self.by_path.get(&key) {
            Some(&at) => {
                self.list[at] = resource;
                at
            }
            None => {
                self.list.push(resource);
                self.by_path.insert(key, self.list.len() - 1);
                self.list.len() - 1
            }
        };
        let r = &self.list[at];
        if !r.resource.contains('/') {
            self.by_kind.insert((r.api_version(), r.kind.clone()), at);
        }
    }

    /// The resource at this path.
    pub fn get(&self, group: &str, version: &str, resource: &str) -> Option<&Resource> {
        self.by_path
            .get(&(group.to_owned(), version.to_owned(), resource.to_owned()))
            .map(|&at| &self.list[at])
    }

    /// The main resource of a kind.
    pub fn of_kind(&self, api_version: &str, kind: &str) -> Option<&Resource> {
        self.by_kind
            .get(&(api_version.to_owned(), kind.to_owned()))
            .map(|&at| &self.list[at])
    }

    /// Every resource, in path order.
    pub fn iter(&self) -> impl Iterator<Item = &Resource> {
        self.by_path.values().map(|&at| &self.list[at])
    }

    /// `/api`: the core group's versions.
    pub fn core_versions(&self) -> Value {
        json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [
            {"clientCIDR": "0.0.0.0/0", "serverAddress": ""}]})
    }

    /// `/apis`: the named groups and their versions.
    pub fn groups(&self) -> Value {
        let mut groups: BTreeMap<&str, std::collections::BTreeSet<&str>> = BTreeMap::new();
        for r in self.iter().filter(|r| !r.group.is_empty()) {
            groups.entry(&r.group).or_default().insert(&r.version);
        }
        let groups: Vec<Value> = groups
            .into_iter()
            .map(|(group, versions)| {
                let mut versions: Vec<&str> = versions.into_iter().collect();
                // The preferred version: the highest stable one, as the server orders them.
                versions.sort_by_key(|v| std::cmp::Reverse(version_priority(v)));
                let versions: Vec<Value> = versions
                    .iter()
                    .map(|v| json!({"groupVersion": format!("{group}/{v}"), "version": v}))
                    .collect();
                json!({"name": group, "versions": versions, "preferredVersion": versions[0]})
            })
            .collect();
        json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
    }

    /// `/api/v1` or `/apis/{group}/{version}`: the group-version's resources; `None` when it
    /// serves none.
    pub fn resource_list(&self, group: &str, version: &str) -> Option<Value> {
        let resources: Vec<Value> = self
            .iter()
            .filter(|r| r.group == group && r.version == version)
            .map(|r| {
                let mut entry = json!({
                    "name": r.resource,
                    "singularName": r.singular(),
                    "namespaced": r.namespaced,
                    "kind": r.kind,
                    "verbs": r.verbs,
                });
                if let (Some(g), Some(v)) = (&r.kind_group, &r.kind_version) {
                    entry["group"] = json!(g);
                    entry["version"] = json!(v);
                }
                let short = r.short_names();
                if !short.is_empty() {
                    entry["shortNames"] = json!(short);
                }
                let categories = r.categories();
                if !categories.is_empty() {
                    entry["categories"] = json!(categories);
                }
                entry
            })
            .collect();
        if resources.is_empty() {
            return None;
        }
        Some(json!({
            "kind": "APIResourceList",
            "apiVersion": "v1",
            "groupVersion": api_version(group, version),
            "resources": resources,
        }))
    }
}

/// How Kubernetes ranks versions: GA above beta above alpha, then by number.
fn version_priority(version: &str) -> (u8, u32, u32) {
    let rest = version.strip_prefix('v').unwrap_or(version);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let major = digits.parse().unwrap_or(0);
    let tail = &rest[digits.len()..];
    let (stage, minor) = if tail.is_empty() {
        (3, 0)
    } else if let Some(n) = tail.strip_prefix("beta") {
        (2, n.parse().unwrap_or(0))
    } else if let Some(n) = tail.strip_prefix("alpha") {
        (1, n.parse().unwrap_or(0))
    } else {
        (0, 0)
    };
    (stage, major, minor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_knows_deployments() {
        let r = Resources::builtin();
        let d = r.get("apps", "v1", "deployments").unwrap();
        assert_eq!(d.kind, "Deployment");
        assert!(d.namespaced && d.allows("patch"));
        assert_eq!(
            r.of_kind("apps/v1", "Deployment").unwrap().resource,
            "deployments"
        );
        assert_eq!(
            r.of_kind("v1", "Namespace").unwrap().qualified(),
            "namespaces"
        );
        assert!(r.get("apps", "v1", "deployments/status").is_some());
    }

    #[test]
    fn short_names_are_sorted() {
        assert!(SHORT_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn versions_rank_as_kubernetes_ranks_them() {
        let mut v = vec!["v1beta1", "v1", "v2alpha1", "v2", "v1beta2"];
        v.sort_by_key(|v| std::cmp::Reverse(version_priority(v)));
        assert_eq!(v, ["v2", "v1", "v1beta2", "v1beta1", "v2alpha1"]);
    }
}
