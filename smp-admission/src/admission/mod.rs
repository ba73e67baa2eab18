//! The admission plugins kube-apiserver v1.34 enables by default, each a step of its own that
//! a caller may leave out ([`Plugins`]). The mutating ones run in the server's order after
//! defaulting and before validation ([`admit_create`]):
//!
//! | plugin | what it does on create |
//! |---|---|
//! | LimitRanger | a Pod's containers get the `default`/`defaultRequest` of the namespace's LimitRanges, and an annotation saying so (its `min`/`max` checks: [`validate_limits`]) |
//! | ServiceAccount | a Pod gets `serviceAccountName: default`, the projected `kube-api-access-*` token volume and its mounts, the account's image pull secrets |
//! | Priority | a Pod gets `priority` (and `preemptionPolicy`) from its PriorityClass or the global default |
//! | DefaultTolerationSeconds | a Pod tolerates `not-ready` and `unreachable` for 300 s |
//! | DefaultStorageClass | a PVC without a class gets the default StorageClass |
//! | StorageObjectInUseProtection | a PVC and a PV get their protection finalizer |
//! | DefaultIngressClass | an Ingress without a class gets the default IngressClass |
//! | TaintNodesByCondition | a new Node is tainted `not-ready:NoSchedule` |
//!
//! The validating plugins run after validation, on creates and updates, in the server's
//! order: LimitRanger's checks of the ranges' `min` and `max` ([`validate_limits`]), then
//! [`pod_security`], whose namespace labels hold Pods to the Pod Security Standards
//! (refusing or warning) and warn about workloads' pod templates, then
//! PersistentVolumeClaimResize ([`validate_claim_resize`]: a claim grows only when bound and
//! its class allows expansion).
//!
//! The plugins read what the cluster holds (service accounts, classes, limit ranges) through
//! [`Cluster`]; [`OfflineCluster`] answers from a list of objects, for tools without a
//! cluster. The facts are those of `plugin/pkg/admission/*` of Kubernetes v1.34.

mod claim_resize;
mod ingress;
mod limit_ranger;
mod nodes;
pub mod pod_security;
mod priority;
mod service_account;
mod storage;
mod tolerations;

use std::collections::HashMap;

use serde_json::Value;

/// What the plugins need to read of the cluster.
pub trait Cluster {
    /// The object of `resource` (`group/plural`, with an empty group for core:
    /// `/serviceaccounts`, `scheduling.k8s.io/priorityclasses`) named `name` in `namespace`
    /// (`""` for cluster-scoped resources).
    fn get(&self, resource: &str, namespace: &str, name: &str) -> Option<Value>;
    /// The objects of `resource` in `namespace` (`""`: cluster-scoped).
    fn list(&self, resource: &str, namespace: &str) -> Vec<Value>;

    /// The resource (`group/plural`, as [`Cluster::get`] takes it) that serves `kind` of
    /// `api_version`, and whether its objects live in namespaces; `None` for a kind the
    /// cluster does not serve. The admission policies read their parameters through it.
    fn resource_for(&self, api_version: &str, kind: &str) -> Option<(String, bool)> {
        let _ = (api_version, kind);
        None
    }
}

/// Which plugins run; [`Default`] is kube-apiserver v1.34's default set, all on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Plugins {
    /// LimitRanger's defaults.
    pub limit_ranger: bool,
    /// ServiceAccount.
    pub service_account: bool,
    /// Priority.
    pub priority: bool,
    /// DefaultTolerationSeconds.
    pub default_toleration_seconds: bool,
    /// DefaultStorageClass.
    pub default_storage_class: bool,
    /// StorageObjectInUseProtection.
    pub storage_object_in_use_protection: bool,
    /// DefaultIngressClass.
    pub default_ingress_class: bool,
    /// TaintNodesByCondition.
    pub taint_nodes_by_condition: bool,
    /// PodSecurity (validating: [`pod_security::validate`]).
    pub pod_security: bool,
    /// PersistentVolumeClaimResize (validating: [`validate_claim_resize`]).
    pub persistent_volume_claim_resize: bool,
    /// ValidatingAdmissionPolicy (validating: [`crate::validating_admission_policy`]).
    pub validating_admission_policy: bool,
}

impl Default for Plugins {
    fn default() -> Plugins {
        Plugins::all()
    }
}

impl Plugins {
    /// Every plugin on (the server's default).
    pub const fn all() -> Plugins {
        Plugins {
            limit_ranger: true,
            service_account: true,
            priority: true,
            default_toleration_seconds: true,
            default_storage_class: true,
            storage_object_in_use_protection: true,
            default_ingress_class: true,
            taint_nodes_by_condition: true,
            pod_security: true,
            persistent_volume_claim_resize: true,
            validating_admission_policy: true,
        }
    }

    /// Every plugin off.
    pub const fn none() -> Plugins {
        Plugins {
            limit_ranger: false,
            service_account: false,
            priority: false,
            default_toleration_seconds: false,
            default_storage_class: false,
            storage_object_in_use_protection: false,
            default_ingress_class: false,
            taint_nodes_by_condition: false,
            pod_security: false,
            persistent_volume_claim_resize: false,
            validating_admission_policy: false,
        }
    }
}

/// A plugin refused the object: the server's 403.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{resource} {name:?} is forbidden: {reason}")]
pub struct Forbidden {
    /// The resource (`pods`).
    pub resource: String,
    /// The object's name.
    pub name: String,
    /// The plugin's reason.
    pub reason: String,
}

fn kind_of(obj: &Value) -> (&str, &str) {
    let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let group = api_version.split_once('/').map_or("", |(g, _)| g);
    (group, obj.get("kind").and_then(Value::as_str).unwrap_or(""))
}

/// Runs the mutating plugins on an object being created in `namespace`, in the server's order.
/// An object no plugin handles is left as it is.
pub fn admit_create(
    obj: &mut Value,
    namespace: &str,
    cluster: &dyn Cluster,
    plugins: &Plugins,
) -> Result<(), Forbidden> {
    let forbidden = |obj: &Value, resource: &str, reason: String| Forbidden {
        resource: resource.to_owned(),
        name: obj
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        reason,
    };
    match kind_of(obj) {
        ("", "Pod") => {
            if plugins.limit_ranger {
                limit_ranger::admit_pod(obj, namespace, cluster);
            }
            if plugins.service_account {
                service_account::admit_pod(obj, namespace, cluster)
                    .map_err(|r| forbidden(obj, "pods", r))?;
            }
            if plugins.priority {
                priority::admit_pod(obj, cluster).map_err(|r| forbidden(obj, "pods", r))?;
            }
            if plugins.default_toleration_seconds {
                tolerations::admit_pod(obj);
            }
        }
        ("", "PersistentVolumeClaim") => {
            if plugins.default_storage_class {
                storage::default_class(obj, cluster);
            }
            if plugins.storage_object_in_use_protection {
                storage::protect(obj, "kubernetes.io/pvc-protection");
            }
        }
        ("", "PersistentVolume") if plugins.storage_object_in_use_protection => {
            storage::protect(obj, "kubernetes.io/pv-protection");
        }
        ("networking.k8s.io", "Ingress") if plugins.default_ingress_class => {
            ingress::default_class(obj, cluster);
        }
        ("", "Node") if plugins.taint_nodes_by_condition => nodes::taint_not_ready(obj),
        _ => {}
    }
    Ok(())
}

/// LimitRanger's validation, which the server runs after the kind's own: a new Pod (or a
/// resize) and a claim within the `min`, `max` and `maxLimitRequestRatio` of the LimitRanges
/// of `namespace`, else the server's 403 (`pods "web" is forbidden: maximum cpu usage per
/// Container is 1, but limit is 2`). `old` is the stored object of an update; `subresource`
/// the one written (`""` for the object itself).
pub fn validate_limits(
    object: &Value,
    old: Option<&Value>,
    namespace: &str,
    subresource: &str,
    cluster: &dyn Cluster,
) -> Result<(), Forbidden> {
    limit_ranger::limits::validate(object, old, namespace, subresource, cluster).map_err(|reason| {
        let (_, kind) = kind_of(object);
        Forbidden {
            resource: if kind == "Pod" {
                "pods"
            } else {
                "persistentvolumeclaims"
            }
            .to_owned(),
            name: object
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            reason,
        }
    })
}

/// PersistentVolumeClaimResize, which the server runs on updates of a claim after its
/// validation: a claim's storage request may grow only once it is bound (`status.phase:
/// Bound`) and only within a StorageClass (kept from the old claim) that sets
/// `allowVolumeExpansion: true`, else the server's 403. Subresources are not checked.
pub fn validate_claim_resize(
    claim: &Value,
    old: &Value,
    subresource: &str,
    cluster: &dyn Cluster,
) -> Result<(), Forbidden> {
    if !subresource.is_empty() || kind_of(claim) != ("", "PersistentVolumeClaim") {
        return Ok(());
    }
    claim_resize::validate(claim, old, cluster).map_err(|reason| Forbidden {
        resource: "persistentvolumeclaims".to_owned(),
        name: claim
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        reason,
    })
}

/// A cluster read from a list of objects (the service accounts, classes and limit ranges a
/// tool knows of). As on a running cluster, every namespace has its `default` service account
/// even when the list does not hold it.
#[derive(Debug, Clone, Default)]
pub struct OfflineCluster {
    objects: Vec<Value>,
    /// Each object by its resource, namespace and name (the first added wins).
    by_name: HashMap<(String, String, String), usize>,
    /// The objects of each resource and namespace, in the order added.
    by_namespace: HashMap<(String, String), Vec<usize>>,
    /// The resource of each `apiVersion` and kind added, and whether it is namespaced.
    kinds: HashMap<(String, String), (String, bool)>,
}

impl OfflineCluster {
    /// A cluster as a new one is: default service accounts, the system priority classes, no
    /// storage or ingress classes, no limit ranges.
    pub fn new() -> OfflineCluster {
        OfflineCluster::default()
    }

    /// Adds an object the cluster holds (by its `apiVersion`, `kind`, namespace and name).
    pub fn add(&mut self, object: Value) {
        let (group, kind) = kind_of(&object);
        let resource = format!("{group}/{}", plural(kind));
        let text = |key: &str| {
            object
                .pointer(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let (namespace, name) = (text("/metadata/namespace"), text("/metadata/name"));
        let type_key = (text("/apiVersion"), text("/kind"));
        let at = self.objects.len();
        self.kinds
            .entry(type_key)
            .or_insert_with(|| (resource.clone(), !namespace.is_empty()));
        self.by_namespace
            .entry((resource.clone(), namespace.clone()))
            .or_default()
            .push(at);
        self.by_name
            .entry((resource, namespace, name))
            .or_insert(at);
        self.objects.push(object);
    }
}

/// The priority classes every cluster has.
const SYSTEM_PRIORITY_CLASSES: [(&str, i64); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];

/// The resource (plural) of a built-in kind, for tools that have no discovery: the kind's name
/// as apimachinery guesses a resource from it, but for `Endpoints`, whose resource is the same
/// word.
pub fn resource_of_kind(kind: &str) -> String {
    if kind == "Endpoints" {
        return "endpoints".to_owned();
    }
    plural(kind)
}

/// The resource of a kind, as apimachinery guesses it from the kind's name
/// (`UnsafeGuessKindToResource`: lower case, `-es` after an `s`, `-ies` for a final `y`),
/// which is right for every kind the plugins read.
fn plural(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if lower.is_empty() {
        return lower;
    }
    if lower.ends_with('s') {
        return format!("{lower}es");
    }
    if let Some(stem) = lower.strip_suffix('y') {
        return format!("{stem}ies");
    }
    format!("{lower}s")
}

impl Cluster for OfflineCluster {
    fn get(&self, resource: &str, namespace: &str, name: &str) -> Option<Value> {
        let key = (resource.to_owned(), namespace.to_owned(), name.to_owned());
        let found = self.by_name.get(&key).map(|&at| self.objects[at].clone());
        match found {
            None if resource == "/serviceaccounts" && name == "default" => Some(serde_json::json!({
                "apiVersion": "v1", "kind": "ServiceAccount",
                "metadata": {"name": "default", "namespace": namespace}})),
            None if resource == "scheduling.k8s.io/priorityclasses" => SYSTEM_PRIORITY_CLASSES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(n, v)| {
                    serde_json::json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                        "metadata": {"name": n}, "value": v, "preemptionPolicy": "PreemptLowerPriority"})
                }),
            other => other,
        }
    }

    fn list(&self, resource: &str, namespace: &str) -> Vec<Value> {
        self.by_namespace
            .get(&(resource.to_owned(), namespace.to_owned()))
            .into_iter()
            .flatten()
            .map(|&at| self.objects[at].clone())
            .collect()
    }

    /// The resource of a kind the list holds objects of (namespaced when they have a
    /// namespace).
    fn resource_for(&self, api_version: &str, kind: &str) -> Option<(String, bool)> {
        self.kinds
            .get(&(api_version.to_owned(), kind.to_owned()))
            .cloned()
    }
}

/// Five characters as apiserver's name generator picks them (from an alphabet without vowels
/// or look-alikes), for the names a plugin makes up.
pub fn random_suffix() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let mut bits = hasher.finish();
    (0..5)
        .map(|_| {
            let c = ALPHABET[(bits % ALPHABET.len() as u64) as usize];
            bits /= ALPHABET.len() as u64;
            char::from(c)
        })
        .collect()
}

#[cfg(test)]
mod tests;
