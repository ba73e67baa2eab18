//! The plugin on Namespaces (`ValidateNamespace`): their labels must name levels and versions,
//! and tightening the enforced level warns about the Pods already there that fail it.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{Cluster, Decision, Level, LevelVersion, Operation, Options, Policy, Refusal, Request};
use super::{evaluate, exempt};

/// How many Pods a tightened namespace has checked, at most.
const MAX_PODS_TO_CHECK: usize = 3000;

fn labels(namespace: &Value) -> Option<&serde_json::Map<String, Value>> {
    namespace
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
}

pub(super) fn validate(
    request: &Request<'_>,
    cluster: &dyn Cluster,
    options: &Options,
) -> Decision {
    if !request.subresource.is_empty() {
        return Decision::allowed();
    }
    let name = request
        .object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let new_labels = labels(request.object);
    let (policy, errors) = Policy::from_labels(new_labels, &options.defaults);
    let exempted = exempt(&options.exemptions.namespaces, name);
    let exemption_warning = || match exempt_namespace_warning(name, &policy, new_labels, options) {
        Some(text) => Decision::warning(text),
        None => Decision::allowed(),
    };
    match (request.operation, request.old) {
        (Operation::Create, _) | (Operation::Update, None) => {
            if !errors.is_empty() {
                return invalid(errors);
            }
            if exempted {
                return exemption_warning();
            }
            Decision::allowed()
        }
        (Operation::Update, Some(old)) => {
            let (old_policy, old_errors) = Policy::from_labels(labels(old), &options.defaults);
            // Labels that were already wrong in the same way may stay.
            if !errors.is_empty() && (old_errors.is_empty() || errors != old_errors) {
                return invalid(errors);
            }
            let (new, old) = (policy.enforce, old_policy.enforce);
            if new == old
                || new.level == Level::Privileged
                || (new.version == old.version && new.level <= old.level)
            {
                return Decision::allowed();
            }
            if exempted {
                return exemption_warning();
            }
            Decision {
                refusal: None,
                warnings: check_existing_pods(name, new, cluster, options),
            }
        }
    }
}

fn invalid(errors: crate::validation::field::ErrorList) -> Decision {
    Decision {
        refusal: Some(Refusal::Invalid(errors)),
        warnings: Vec::new(),
    }
}

/// `EvaluatePodsInNamespace`: each distinct list of reasons once, after the first pod (by
/// name) that has it and how many others do, sorted. One pod per controller is checked
/// before the others, and at most [`MAX_PODS_TO_CHECK`] in all.
fn check_existing_pods(
    namespace: &str,
    enforce: LevelVersion,
    cluster: &dyn Cluster,
    options: &Options,
) -> Vec<String> {
    let pods = prioritized(cluster.list("/pods", namespace), options);
    let total = pods.len();
    let checked = total.min(MAX_PODS_TO_CHECK);
    // Each warning's first pod name and count, in the order first seen.
    let mut order: Vec<String> = Vec::new();
    let mut counts: HashMap<String, (String, usize)> = HashMap::new();
    for pod in &pods[..checked] {
        let metadata = pod.get("metadata").unwrap_or(&Value::Null);
        let spec = pod.get("spec").unwrap_or(&Value::Null);
        let violations = evaluate(enforce, metadata, spec, options);
        if violations.is_empty() {
            continue;
        }
        let reasons = violations
            .iter()
            .map(|v| v.reason)
            .collect::<Vec<_>>()
            .join(", ");
        let name = metadata.get("name").and_then(Value::as_str).unwrap_or("");
        match counts.get_mut(&reasons) {
            Some((first, count)) => {
                if name < first.as_str() {
                    *first = name.to_owned();
                }
                *count += 1;
            }
            None => {
                counts.insert(reasons.clone(), (name.to_owned(), 1));
                order.push(reasons);
            }
        }
    }
    let mut warnings = Vec::new();
    if checked < total {
        warnings.push(format!(
            "new PodSecurity enforce level only checked against the first {checked} of {total} existing pods"
        ));
    }
    if !order.is_empty() {
        warnings.push(format!(
            "existing pods in namespace {namespace:?} violate the new PodSecurity enforce level \"{enforce}\""
        ));
    }
    let mut decorated: Vec<String> = order
        .into_iter()
        .map(|reasons| {
            let (first, count) = &counts[&reasons];
            match count {
                1 => format!("{first}: {reasons}"),
                2 => format!("{first} (and 1 other pod): {reasons}"),
                n => format!("{first} (and {} other pods): {reasons}", n - 1),
            }
        })
        .collect();
    decorated.sort_unstable();
    warnings.extend(decorated);
    warnings
}

/// `prioritizePods`: pods of exempt runtime classes left out; of the pods one controller owns,
/// the first comes in the list's order and the others after every such first one.
fn prioritized(pods: Vec<Value>, options: &Options) -> Vec<Value> {
    let mut first = Vec::with_capacity(pods.len());
    let mut duplicates = Vec::new();
    let mut controllers: HashSet<String> = HashSet::new();
    for pod in pods {
        let runtime_class = pod
            .pointer("/spec/runtimeClassName")
            .and_then(Value::as_str)
            .unwrap_or("");
        if exempt(&options.exemptions.runtime_classes, runtime_class) {
            continue;
        }
        let controller = pod
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
            .map(|r| {
                r.get("uid")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned()
            });
        let repeated = controller.is_some_and(|uid| !controllers.insert(uid));
        if repeated {
            duplicates.push(pod);
        } else {
            first.push(pod);
        }
    }
    first.extend(duplicates);
    first
}

/// `exemptNamespaceWarning`: an exempt namespace whose labels ask for more than the defaults
/// hears that they are ignored.
fn exempt_namespace_warning(
    name: &str,
    policy: &Policy,
    labels: Option<&serde_json::Map<String, Value>>,
    options: &Options,
) -> Option<String> {
    if policy.fully_privileged() || policy.equivalent(&options.defaults) {
        return None;
    }
    let has = |key: &str| {
        labels.is_some_and(|l| l.contains_key(&format!("{}{key}", super::LABEL_PREFIX)))
    };
    let mut parts = Vec::new();
    for (mode, lv) in [
        ("enforce", policy.enforce),
        ("audit", policy.audit),
        ("warn", policy.warn),
    ] {
        if lv.level != Level::Privileged && (has(mode) || has(&format!("{mode}-version"))) {
            parts.push(format!("{mode}={lv}"));
        }
    }
    Some(format!(
        "namespace {name:?} is exempt from Pod Security, and the policy ({}) will be ignored",
        parts.join(", ")
    ))
}
