//! The ValidatingAdmissionPolicy plugin (kube-apiserver v1.34, on by default; apiserver's
//! `pkg/admission/plugin/policy/validating`): the cluster's ValidatingAdmissionPolicies, each
//! bound to writes by its ValidatingAdmissionPolicyBindings, check a write with CEL
//! expressions over `object`, `oldObject`, `request`, `params`, `namespaceObject` and the
//! policy's `variables`. A failed validation is, by the binding's `validationActions`, the
//! write's refusal (`deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replicas'
//! with binding 'replicas-prod' denied request: failed expression: object.spec.replicas <= 5`,
//! with the status its `reason` names, 422 by default), a warning, or nothing (`Audit`).
//!
//! ```
//! use serde_json::json;
//! use smp_admission::admission::OfflineCluster;
//! use smp_admission::validating_admission_policy::{self as vap, Request};
//!
//! let mut cluster = OfflineCluster::new();
//! cluster.add(json!({"apiVersion": "admissionregistration.k8s.io/v1",
//!     "kind": "ValidatingAdmissionPolicy", "metadata": {"name": "replicas"},
//!     "spec": {"matchConstraints": {"resourceRules": [{"apiGroups": ["apps"],
//!         "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
//!         "resources": ["deployments"]}]},
//!         "validations": [{"expression": "object.spec.replicas <= 5"}]}}));
//! cluster.add(json!({"apiVersion": "admissionregistration.k8s.io/v1",
//!     "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": "replicas-all"},
//!     "spec": {"policyName": "replicas", "validationActions": ["Deny"]}}));
//! let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment",
//!     "metadata": {"name": "web", "namespace": "default"}, "spec": {"replicas": 9}});
//! let request = Request::create(&deployment, "apps", "v1", "deployments", "default");
//! let denial = vap::validate(&request, &cluster).denial.unwrap();
//! assert_eq!(denial.code, 422);
//! assert_eq!(denial.message, "ValidatingAdmissionPolicy 'replicas' with binding 'replicas-all' \
//!     denied request: failed expression: object.spec.replicas <= 5");
//! ```
//!
//! Where this differs from the server: expressions are compiled once per stored version of a
//! policy (each time for a policy without a uid and resourceVersion) and not type-checked (a policy whose expressions do not type-check is not reported in its
//! status, and such an expression fails only when it runs, with the `cel` crate's words);
//! there is no cost budget; `variables` are evaluated before the validations, and one whose
//! evaluation fails is left out, so an expression reading it fails with `no such key`;
//! `authorizer` is not bound (this server authorizes everything); audit annotations and the
//! `Audit` action record nothing; `matchPolicy: Equivalent` finds no other versions (each
//! resource has one).

mod evaluate;
mod matching;
mod params;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Value, json};

use crate::admission::Cluster;

const POLICIES: &str = "admissionregistration.k8s.io/validatingadmissionpolicies";
const BINDINGS: &str = "admissionregistration.k8s.io/validatingadmissionpolicybindings";

/// A write as the plugin sees it (the attributes of an admission request).
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// `CREATE`, `UPDATE`, `DELETE` or `CONNECT`.
    pub operation: &'a str,
    /// The object written (none for a delete).
    pub object: Option<&'a Value>,
    /// The stored object (for an update or a delete).
    pub old_object: Option<&'a Value>,
    /// The resource's API group (`""` for the core group).
    pub group: &'a str,
    /// The resource's version.
    pub version: &'a str,
    /// The resource (`deployments`).
    pub resource: &'a str,
    /// The subresource written (`""` for the object itself).
    pub subresource: &'a str,
    /// The object's kind (`Deployment`).
    pub kind: &'a str,
    /// The namespace written to (`""` for cluster-scoped objects).
    pub namespace: &'a str,
    /// The object's name.
    pub name: &'a str,
    /// Who writes: `{"username": ..., "uid": ..., "groups": [...], "extra": {...}}`.
    pub user_info: Value,
    /// Whether the write is a dry run.
    pub dry_run: bool,
}

impl<'a> Request<'a> {
    /// A create of `object` (its kind and name read from it) through `group/version/resource`
    /// in `namespace`, by an anonymous user.
    pub fn create(
        object: &'a Value,
        group: &'a str,
        version: &'a str,
        resource: &'a str,
        namespace: &'a str,
    ) -> Request<'a> {
        Request {
            operation: "CREATE",
            object: Some(object),
            old_object: None,
            group,
            version,
            resource,
            subresource: "",
            kind: object.get("kind").and_then(Value::as_str).unwrap_or(""),
            namespace,
            name: object
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or(""),
            user_info: json!({"username": "system:anonymous", "groups": ["system:unauthenticated"]}),
            dry_run: false,
        }
    }

    /// A delete of `old` (its kind and name read from it) through `group/version/resource` in
    /// `namespace`, by an anonymous user: policies see it as `oldObject`, with a null
    /// `object`.
    pub fn delete(
        old: &'a Value,
        group: &'a str,
        version: &'a str,
        resource: &'a str,
        namespace: &'a str,
    ) -> Request<'a> {
        let mut request = Request::create(old, group, version, resource, namespace);
        request.operation = "DELETE";
        request.object = None;
        request.old_object = Some(old);
        request
    }

    /// The same request as an update of `old` to the object.
    pub fn updating(mut self, old: &'a Value) -> Request<'a> {
        self.operation = "UPDATE";
        self.old_object = Some(old);
        self
    }
}

/// A write the plugin refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denial {
    /// The status reason of the refusal (`Invalid` unless the validation names another).
    pub reason: &'static str,
    /// The HTTP code of that reason (422 for `Invalid`).
    pub code: u16,
    /// `ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied request: <why>`;
    /// the server's message puts `<resource> "<name>" is forbidden: ` before it.
    pub message: String,
}

/// The plugin's answer: the write refused, or allowed with these warnings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decision {
    /// The first refusal of the policies, if any.
    pub denial: Option<Denial>,
    /// The warnings of the bindings whose actions include `Warn`, in order.
    pub warnings: Vec<String>,
}

/// The kinds no policy applies to (`IsExemptAdmissionConfigurationResource`).
fn exempt(request: &Request<'_>) -> bool {
    request.group == "admissionregistration.k8s.io"
        && matches!(
            request.kind,
            "ValidatingWebhookConfiguration"
                | "MutatingWebhookConfiguration"
                | "ValidatingAdmissionPolicy"
                | "ValidatingAdmissionPolicyBinding"
                | "MutatingAdmissionPolicy"
                | "MutatingAdmissionPolicyBinding"
        )
}

fn text<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// A policy's or binding's refusal before any expression ran, as its `failurePolicy` says.
fn configuration_error(
    policy: &Value,
    binding: Option<&Value>,
    error: &str,
    denied: &mut Vec<(String, Option<String>, String, &'static str)>,
) {
    let name = text(policy, "/metadata/name").to_owned();
    let binding_name = binding.map(|b| text(b, "/metadata/name").to_owned());
    let message = match policy
        .pointer("/spec/failurePolicy")
        .and_then(Value::as_str)
        .unwrap_or("Fail")
    {
        "Ignore" => return,
        "Fail" if binding.is_some() => format!("failed to configure binding: {error}"),
        "Fail" => format!("failed to configure policy: {error}"),
        other => format!("unrecognized failure policy: '{other}'"),
    };
    denied.push((name, binding_name, message, "Invalid"));
}

/// Whether the cluster holds any policy (when it holds none, a write needs no request
/// attributes made for it).
pub fn any_policy(cluster: &dyn Cluster) -> bool {
    !cluster.list(POLICIES, "").is_empty()
}

/// Runs every policy that matches the write, with each of its bindings that matches.
pub fn validate(request: &Request<'_>, cluster: &dyn Cluster) -> Decision {
    if exempt(request) {
        return Decision::default();
    }
    let policies = cluster.list(POLICIES, "");
    if policies.is_empty() {
        return Decision::default();
    }
    let all_bindings = cluster.list(BINDINGS, "");
    // Each policy's bindings, in the order listed.
    let mut bindings: HashMap<&str, Vec<&Value>> = HashMap::new();
    for binding in &all_bindings {
        bindings
            .entry(text(binding, "/spec/policyName"))
            .or_default()
            .push(binding);
    }
    let mut denied = Vec::new();
    let mut warnings = Vec::new();
    for policy in &policies {
        let name = text(policy, "/metadata/name");
        let Some(constraints) = policy
            .pointer("/spec/matchConstraints")
            .filter(|c| !c.is_null())
        else {
            configuration_error(
                policy,
                None,
                "policy contained no match constraints, a required field",
                &mut denied,
            );
            continue;
        };
        if !matching::matches(constraints, request, cluster) {
            continue;
        }
        let compiled = compiled(policy);
        for &binding in bindings.get(name).into_iter().flatten() {
            let binding_name = text(binding, "/metadata/name");
            if let Some(resources) = binding
                .pointer("/spec/matchResources")
                .filter(|r| !r.is_null())
                && !matching::matches(resources, request, cluster)
            {
                continue;
            }
            let params = match params::collect(policy, binding, request, cluster) {
                Ok(params) => params,
                Err(error) => {
                    configuration_error(policy, Some(binding), &error, &mut denied);
                    continue;
                }
            };
            let namespace = namespace_object(request, cluster);
            for param in params {
                for failure in compiled.validate(request, param.as_ref(), namespace.as_ref()) {
                    for action in binding
                        .pointer("/spec/validationActions")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        match action.as_str() {
                            Some("Deny") => denied.push((
                                name.to_owned(),
                                Some(binding_name.to_owned()),
                                failure.message.clone(),
                                failure.reason,
                            )),
                            Some("Warn") => warnings.push(format!(
                                "Validation failed for ValidatingAdmissionPolicy '{name}' with binding '{binding_name}': {}",
                                failure.message
                            )),
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    let denial = denied.into_iter().next().map(|(policy, binding, why, reason)| {
        let message = match binding {
            Some(binding) => format!("ValidatingAdmissionPolicy '{policy}' with binding '{binding}' denied request: {why}"),
            None => format!("ValidatingAdmissionPolicy '{policy}' denied request: {why}"),
        };
        let code = match reason {
            "Unauthorized" => 401,
            "Forbidden" => 403,
            "RequestEntityTooLarge" => 413,
            _ => 422,
        };
        Denial { reason, code, message }
    });
    Decision { denial, warnings }
}

/// The most compiled policies kept; past it the cache starts again.
const CACHED_POLICIES: usize = 256;

/// A policy's expressions compiled, once per stored version of the policy (its uid and
/// resourceVersion) as the server compiles them once per version it sees; a policy without
/// both (one read from a file) is compiled each time.
fn compiled(policy: &Value) -> Arc<evaluate::Policy> {
    type Cache = HashMap<(String, String), Arc<evaluate::Policy>>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let (uid, version) = (
        text(policy, "/metadata/uid"),
        text(policy, "/metadata/resourceVersion"),
    );
    if uid.is_empty() || version.is_empty() {
        return Arc::new(evaluate::Policy::compile(policy));
    }
    let key = (uid.to_owned(), version.to_owned());
    let cache = CACHE.get_or_init(Mutex::default);
    // A thread that panicked holding the lock left the map whole (entries are inserted
    // complete), so the lock is taken all the same.
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return found.clone();
    }
    let fresh = Arc::new(evaluate::Policy::compile(policy));
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= CACHED_POLICIES {
        map.clear();
    }
    map.insert(key, fresh.clone());
    fresh
}

/// `namespaceObject`: the namespace written to, with its metadata's identity, labels,
/// annotations and finalizers, its spec and status (none for cluster-scoped writes and for
/// Namespaces themselves).
fn namespace_object(request: &Request<'_>, cluster: &dyn Cluster) -> Option<Value> {
    let is_namespace =
        request.kind == "Namespace" && request.group.is_empty() && request.version == "v1";
    if request.namespace.is_empty() || is_namespace {
        return None;
    }
    let namespace = cluster.get("/namespaces", "", request.namespace)?;
    let mut metadata = serde_json::Map::new();
    if let Some(meta) = namespace.get("metadata").and_then(Value::as_object) {
        for key in [
            "name",
            "generateName",
            "namespace",
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "labels",
            "annotations",
            "finalizers",
        ] {
            if let Some(v) = meta.get(key) {
                metadata.insert(key.to_owned(), v.clone());
            }
        }
    }
    let mut out = json!({"metadata": metadata});
    for key in ["spec", "status"] {
        if let Some(v) = namespace.get(key) {
            out[key] = v.clone();
        }
    }
    Some(out)
}
