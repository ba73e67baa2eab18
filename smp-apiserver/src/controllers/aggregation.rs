//! The ClusterRole aggregation controller of kube-controller-manager
//! (`pkg/controller/clusterroleaggregation`): a ClusterRole with an `aggregationRule` holds the
//! rules of every other ClusterRole its selectors select, taken in name order, each rule once,
//! written by server-side apply as `clusterrole-aggregation-controller`. `admin`, `edit` and
//! `view` are such roles, and a CRD's operator adds to them by labelling its own roles.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::object::meta;
use crate::selector::{self, Selector};
use crate::state::State;
use crate::store::Event;

const CLUSTER_ROLES: &str = "rbac.authorization.k8s.io/clusterroles";
const MANAGER: &str = "clusterrole-aggregation-controller";

/// Acts on one round of writes: when a ClusterRole changed, every aggregated role is brought
/// up to date.
pub(crate) fn round(state: &State, changes: &[Arc<Event>]) {
    if !changes.iter().any(|e| e.key.resource == CLUSTER_ROLES) {
        return;
    }
    let (roles, _) = state.store.list(CLUSTER_ROLES, None, None);
    for (_, aggregated) in &roles {
        let Some(rule) = aggregated.object.get("aggregationRule") else {
            continue;
        };
        let selectors: Vec<Selector> = rule
            .get("clusterRoleSelectors")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| Selector::labels(&selector::print(s)).ok())
            .collect();
        let name = meta(&aggregated.object, "name");
        let mut seen = BTreeSet::new();
        let mut rules = Vec::new();
        // The store lists them in name order.
        for (key, role) in &roles {
            let labels = role
                .object
                .pointer("/metadata/labels")
                .and_then(Value::as_object);
            if key.name == name || !selectors.iter().any(|s| s.matches_labels(labels)) {
                continue;
            }
            for rule in role
                .object
                .get("rules")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if seen.insert(rule.to_string()) {
                    rules.push(rule.clone());
                }
            }
        }
        let current = aggregated
            .object
            .get("rules")
            .cloned()
            .unwrap_or(Value::Null);
        let empty = rules.is_empty();
        if current == json!(rules) || (empty && current.is_null()) {
            continue;
        }
        let config = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": {"name": name}, "rules": rules});
        let body = config.to_string();
        // Changed meanwhile: that write brings a round of its own.
        let _ = state.internal(crate::state::Internal {
            verb: "patch",
            api_version: "rbac.authorization.k8s.io/v1",
            plural: "clusterroles",
            namespace: "",
            name,
            content_type: "application/apply-patch+yaml",
            body: body.as_bytes(),
            user_agent: super::CONTROLLER_MANAGER,
            query: &[("fieldManager", MANAGER), ("force", "true")],
        });
    }
}
