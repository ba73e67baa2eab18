//! The PodSecurity admission plugin (kube-apiserver v1.34, `k8s.io/pod-security-admission`):
//! the Pod Security Standards enforced per namespace.
//!
//! A namespace labelled `pod-security.kubernetes.io/enforce: restricted` (or `baseline`)
//! refuses a Pod that violates the level with the server's 403, `pods "web" is forbidden:
//! violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app"
//! must set securityContext.allowPrivilegeEscalation=false), ...`; the `warn` label (which
//! follows a stricter `enforce` when it is not set) makes the server warn instead, for Pods and
//! for the pod templates of workloads (Deployment, StatefulSet, Job, CronJob...), which are
//! never refused. The labels themselves must name a level and a version, or the Namespace is
//! refused with a 422; tightening a namespace's `enforce` level warns about the Pods already
//! there that would fail it.
//!
//! ```
//! use serde_json::json;
//! use smp_admission::admission::{OfflineCluster, pod_security};
//!
//! let mut cluster = OfflineCluster::new();
//! cluster.add(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "apps",
//!     "labels": {"pod-security.kubernetes.io/enforce": "baseline"}}}));
//! let pod = json!({"apiVersion": "v1", "kind": "Pod",
//!     "metadata": {"name": "web", "namespace": "apps"},
//!     "spec": {"hostNetwork": true, "containers": [{"name": "app", "image": "nginx"}]}});
//! let decision = pod_security::validate(
//!     &pod_security::Request::create(&pod, "apps"),
//!     &cluster,
//!     &pod_security::Options::default(),
//! );
//! assert_eq!(
//!     decision.refusal.unwrap().to_string(),
//!     r#"pods "web" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)"#
//! );
//! ```
//!
//! The checks are those of each version of the standards from v1.0 to v1.34 (`latest` is
//! v1.34's). Audit annotations are not made (there is no audit log), and the server's metrics
//! are not kept. Where the server's informer has not yet seen a namespace it asks the API; here
//! a namespace the cluster does not hold has no labels.

mod api;
mod checks;
mod namespace;

use serde_json::Value;

pub use self::api::{LABEL_PREFIX, Level, LevelVersion, Policy, Version};
pub use self::checks::Violation;
use self::checks::{Pod, Relax};
use super::{Cluster, Forbidden, kind_of};
use crate::validation::field::ErrorList;

/// The plugin's configuration (kube-apiserver's `PodSecurityConfiguration`, and the feature
/// gate it reads). [`Default`] is the server's default: every mode `privileged:latest`, no
/// exemptions, the gate off.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The policy of a namespace without labels (and of each mode without one).
    pub defaults: Policy,
    /// Who and what is never checked.
    pub exemptions: Exemptions,
    /// The `UserNamespacesPodSecurityStandards` gate (alpha in v1.34, off by default): pods
    /// with `hostUsers: false` pass the `runAsNonRoot`, `runAsUser` and `procMount` checks.
    pub user_namespaces_pod_security_standards: bool,
}

/// What the configuration exempts from the checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Exemptions {
    /// Requests by these users.
    pub usernames: Vec<String>,
    /// Pods (and templates) of these runtime classes.
    pub runtime_classes: Vec<String>,
    /// Objects in these namespaces.
    pub namespaces: Vec<String>,
}

impl Options {
    fn relax(&self) -> Relax {
        Relax {
            user_namespace_pods: self.user_namespaces_pod_security_standards,
        }
    }
}

/// Which write the plugin sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// A create.
    Create,
    /// An update (a replace, a patch or an apply of an existing object).
    Update,
}

/// A write as the plugin sees it: the object after defaulting, the mutating plugins and the
/// kind's validation, and for an update the stored object.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Create or update.
    pub operation: Operation,
    /// The object being written.
    pub object: &'a Value,
    /// The stored object, for an update.
    pub old: Option<&'a Value>,
    /// The namespace written to (`""` for cluster-scoped objects).
    pub namespace: &'a str,
    /// The subresource written (`""` for the object itself).
    pub subresource: &'a str,
    /// The requesting user's name (for the exemptions).
    pub user: &'a str,
}

impl<'a> Request<'a> {
    /// A create of `object` in `namespace`.
    pub fn create(object: &'a Value, namespace: &'a str) -> Request<'a> {
        Request {
            operation: Operation::Create,
            object,
            old: None,
            namespace,
            subresource: "",
            user: "",
        }
    }

    /// An update of `old` to `object` in `namespace`.
    pub fn update(object: &'a Value, old: &'a Value, namespace: &'a str) -> Request<'a> {
        Request {
            operation: Operation::Update,
            object,
            old: Some(old),
            namespace,
            subresource: "",
            user: "",
        }
    }

    /// The same request to `subresource`.
    pub fn with_subresource(mut self, subresource: &'a str) -> Request<'a> {
        self.subresource = subresource;
        self
    }

    /// The same request by `user`.
    pub fn with_user(mut self, user: &'a str) -> Request<'a> {
        self.user = user;
        self
    }
}

/// Why the plugin refused a write.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// A Pod that violates its namespace's enforced level: the server's 403.
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// A Namespace whose labels name no level or version: the server's 422 with these causes.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))]
    Invalid(ErrorList),
}

/// The plugin's answer: the write refused, or allowed with these warnings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decision {
    /// Why the write is refused, if it is.
    pub refusal: Option<Refusal>,
    /// The warnings to send with an allowed write (the server's `Warning` headers).
    pub warnings: Vec<String>,
}

impl Decision {
    fn allowed() -> Decision {
        Decision::default()
    }

    fn warning(text: String) -> Decision {
        Decision {
            refusal: None,
            warnings: vec![text],
        }
    }
}

/// The violations of a pod's metadata and spec under `lv`, in the server's order (none for
/// `privileged`).
pub fn evaluate(
    lv: LevelVersion,
    metadata: &Value,
    spec: &Value,
    options: &Options,
) -> Vec<Violation> {
    let pod = Pod {
        metadata,
        spec,
        relax: options.relax(),
    };
    checks::evaluate(lv, &pod)
}

/// The violations as the server lists them after a level: `reason (detail), reason`.
pub fn describe(violations: &[Violation]) -> String {
    let mut out = String::new();
    for (i, v) in violations.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(v.reason);
        if !v.detail.is_empty() {
            out.push_str(" (");
            out.push_str(&v.detail);
            out.push(')');
        }
    }
    out
}

/// The kinds whose objects hold a pod template the plugin checks, with the path to it.
fn template_of(object: &Value) -> Option<Option<&Value>> {
    let template = match kind_of(object) {
        ("", "ReplicationController") => {
            return Some(object.pointer("/spec/template").filter(|t| !t.is_null()));
        }
        ("", "PodTemplate") => object.get("template"),
        ("apps", "ReplicaSet" | "Deployment" | "StatefulSet" | "DaemonSet") | ("batch", "Job") => {
            object.pointer("/spec/template")
        }
        ("batch", "CronJob") => object.pointer("/spec/jobTemplate/spec/template"),
        _ => return None,
    };
    // The typed template is a value, never nil: a missing one is an empty template.
    Some(Some(template.unwrap_or(&Value::Null)))
}

/// Runs the plugin on a write: Pods are checked against the namespace's enforced level and
/// warned about, workloads' pod templates only warned about, Namespaces' labels checked (and
/// a tightened level tried on the Pods the namespace holds). Other objects pass.
pub fn validate(request: &Request<'_>, cluster: &dyn Cluster, options: &Options) -> Decision {
    match kind_of(request.object) {
        ("", "Namespace") => namespace::validate(request, cluster, options),
        ("", "Pod") => validate_pod(request, cluster, options),
        _ => match template_of(request.object) {
            Some(template) => validate_template(request, template, cluster, options),
            None => Decision::allowed(),
        },
    }
}

/// The pod subresources whose writes change nothing the standards read.
const IGNORED_POD_SUBRESOURCES: [&str; 8] = [
    "exec",
    "attach",
    "binding",
    "eviction",
    "log",
    "portforward",
    "proxy",
    "status",
];

fn exempt(list: &[String], name: &str) -> bool {
    !name.is_empty() && list.iter().any(|n| n == name)
}

/// The policy of the namespace a request writes to, with the errors of its labels.
fn namespace_policy(
    request: &Request<'_>,
    cluster: &dyn Cluster,
    options: &Options,
) -> (Policy, ErrorList) {
    let namespace = cluster.get("/namespaces", "", request.namespace);
    let labels = namespace
        .as_ref()
        .and_then(|ns| ns.pointer("/metadata/labels"))
        .and_then(Value::as_object);
    Policy::from_labels(labels, &options.defaults)
}

fn validate_pod(request: &Request<'_>, cluster: &dyn Cluster, options: &Options) -> Decision {
    if IGNORED_POD_SUBRESOURCES.contains(&request.subresource)
        || exempt(&options.exemptions.namespaces, request.namespace)
        || exempt(&options.exemptions.usernames, request.user)
    {
        return Decision::allowed();
    }
    let (policy, errors) = namespace_policy(request, cluster, options);
    if errors.is_empty() && policy.fully_privileged() {
        return Decision::allowed();
    }
    if let Some(old) = request
        .old
        .filter(|_| request.operation == Operation::Update)
        && !significant_update(request.object, old)
    {
        return Decision::allowed();
    }
    let metadata = request.object.get("metadata").unwrap_or(&Value::Null);
    let spec = request.object.get("spec").unwrap_or(&Value::Null);
    evaluate_pod(request.object, &policy, metadata, spec, true, options)
}

fn validate_template(
    request: &Request<'_>,
    template: Option<&Value>,
    cluster: &dyn Cluster,
    options: &Options,
) -> Decision {
    if !request.subresource.is_empty()
        || exempt(&options.exemptions.namespaces, request.namespace)
        || exempt(&options.exemptions.usernames, request.user)
    {
        return Decision::allowed();
    }
    let (policy, errors) = namespace_policy(request, cluster, options);
    if errors.is_empty()
        && policy.warn.level == Level::Privileged
        && policy.audit.level == Level::Privileged
    {
        return Decision::allowed();
    }
    let Some(template) = template else {
        return Decision::allowed();
    };
    let metadata = template.get("metadata").unwrap_or(&Value::Null);
    let spec = template.get("spec").unwrap_or(&Value::Null);
    evaluate_pod(request.object, &policy, metadata, spec, false, options)
}

/// `EvaluatePod`: the enforced level refuses (when `enforce`), the warn level warns about an
/// allowed object.
fn evaluate_pod(
    object: &Value,
    policy: &Policy,
    metadata: &Value,
    spec: &Value,
    enforce: bool,
    options: &Options,
) -> Decision {
    let runtime_class = spec
        .get("runtimeClassName")
        .and_then(Value::as_str)
        .unwrap_or("");
    if exempt(&options.exemptions.runtime_classes, runtime_class) {
        return Decision::allowed();
    }
    let mut enforced = None;
    if enforce {
        let violations = evaluate(policy.enforce, metadata, spec, options);
        if !violations.is_empty() {
            let name = object
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            return Decision {
                refusal: Some(Refusal::Forbidden(Forbidden {
                    resource: "pods".to_owned(),
                    name: name.to_owned(),
                    reason: format!(
                        "violates PodSecurity \"{}\": {}",
                        policy.enforce,
                        describe(&violations)
                    ),
                })),
                warnings: Vec::new(),
            };
        }
        enforced = Some(policy.enforce);
    }
    // The server reuses the enforce level's result when warn asks for the same level.
    if enforced == Some(policy.warn) {
        return Decision::allowed();
    }
    let violations = evaluate(policy.warn, metadata, spec, options);
    if violations.is_empty() {
        return Decision::allowed();
    }
    Decision::warning(format!(
        "would violate PodSecurity \"{}\": {}",
        policy.warn,
        describe(&violations)
    ))
}

/// `isSignificantPodUpdate`: an update re-checks a Pod only when its containers change in
/// number or image, or an ephemeral container is added or changes its image.
fn significant_update(pod: &Value, old: &Value) -> bool {
    fn list<'a>(v: &'a Value, key: &str) -> Vec<&'a Value> {
        v.pointer(&format!("/spec/{key}"))
            .and_then(Value::as_array)
            .map(|l| l.iter().collect())
            .unwrap_or_default()
    }
    let image = |c: &Value| {
        c.get("image")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    for key in ["containers", "initContainers"] {
        let (new, old) = (list(pod, key), list(old, key));
        if new.len() != old.len() || new.iter().zip(&old).any(|(n, o)| image(n) != image(o)) {
            return true;
        }
    }
    let name = |c: &Value| {
        c.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let old_ephemeral: std::collections::HashMap<String, String> = list(old, "ephemeralContainers")
        .into_iter()
        .rev()
        .map(|c| (name(c), image(c)))
        .collect();
    list(pod, "ephemeralContainers")
        .into_iter()
        .any(|c| old_ephemeral.get(&name(c)) != Some(&image(c)))
}
