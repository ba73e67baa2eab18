//! Node labels that were renamed or retired (`pkg/api/node`): selecting nodes by them still
//! works for now, so the server only warns. Used by pod specs, PersistentVolumes' node
//! affinity, StorageClasses' allowed topologies, CSIStorageCapacities and RuntimeClasses.

use serde_json::Value;

use super::sink::Sink;
use crate::validation::field::Path;
use crate::validation::names::is_valid_label_value;
use crate::validation::read;

/// The message for a deprecated node label, or `None` for any other key.
pub(super) fn deprecated(key: &str) -> Option<&'static str> {
    Some(match key {
        "beta.kubernetes.io/arch" => r#"deprecated since v1.14; use "kubernetes.io/arch" instead"#,
        "beta.kubernetes.io/os" => r#"deprecated since v1.14; use "kubernetes.io/os" instead"#,
        "failure-domain.beta.kubernetes.io/region" => {
            r#"deprecated since v1.17; use "topology.kubernetes.io/region" instead"#
        }
        "failure-domain.beta.kubernetes.io/zone" => {
            r#"deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#
        }
        "beta.kubernetes.io/instance-type" => {
            r#"deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#
        }
        "app.kubernetes.io/created-by" => "deprecated since v1.9",
        "scheduler.alpha.kubernetes.io/preferAvoidPods" => {
            "deprecated since v1.22; use Taints and Tolerations instead"
        }
        "node-role.kubernetes.io/master" => {
            r#"use "node-role.kubernetes.io/control-plane" instead"#
        }
        _ => return None,
    })
}

/// The keys of a string map in byte order: Go walks maps in random order, so where the
/// server's order cannot be known a stable one is given.
pub(super) fn sorted_keys(map: Option<&Value>) -> Vec<&str> {
    let mut keys: Vec<&str> = map
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    keys.sort_unstable();
    keys
}

/// `GetWarningsForNodeSelectorTerm`: deprecated keys in `matchExpressions`, and (for the
/// preferred terms of a pod's node affinity) values that are not valid label values.
pub(super) fn selector_term(term: &Value, check_values: bool, path: &Path, out: &mut Sink) {
    let expressions = path.child("matchExpressions");
    for (i, expression) in read::list(term, "matchExpressions").iter().enumerate() {
        let at = expressions.index(i);
        let key = read::text(expression, "key");
        if let Some(msg) = deprecated(key) {
            out.push(format!("{}: {key} is {msg}", at.child("key")));
        }
        if check_values {
            let values = at.child("values");
            for (j, value) in read::list(expression, "values").iter().enumerate() {
                let value = value.as_str().unwrap_or("");
                for msg in is_valid_label_value(value) {
                    out.push(format!("{}: {value} is invalid, {msg}", values.index(j)));
                }
            }
        }
    }
}

/// `GetWarningsForNodeSelector` (a label selector over nodes): deprecated keys in
/// `matchExpressions`, then in `matchLabels` (in key order; the server's is random).
pub(super) fn label_selector(selector: Option<&Value>, path: &Path, out: &mut Sink) {
    let Some(selector) = selector.filter(|s| s.is_object()) else {
        return;
    };
    let expressions = path.child("matchExpressions");
    for (i, expression) in read::list(selector, "matchExpressions").iter().enumerate() {
        let key = read::text(expression, "key");
        if let Some(msg) = deprecated(key) {
            out.push(format!(
                "{}: {key} is {msg}",
                expressions.index(i).child("key")
            ));
        }
    }
    let labels = path.child("matchLabels");
    for key in sorted_keys(selector.get("matchLabels")) {
        if let Some(msg) = deprecated(key) {
            out.push(format!("{}: {msg}", labels.child(key)));
        }
    }
}

/// A RuntimeClass (`GetWarningsForRuntimeClass`): one warning per deprecated key of
/// `scheduling.nodeSelector`, each naming the map, not the key (as the server prints it).
pub(super) fn runtime_class(obj: &Value, out: &mut Sink) {
    let selector = obj.get("scheduling").and_then(|s| s.get("nodeSelector"));
    for key in sorted_keys(selector) {
        if let Some(msg) = deprecated(key) {
            out.push(format!("scheduling.nodeSelector: {msg}"));
        }
    }
}
