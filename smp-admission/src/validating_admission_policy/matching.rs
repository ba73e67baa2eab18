//! Which writes a policy or a binding applies to (`matchConstraints`, `matchResources`): the
//! namespace and object selectors, then the resource rules less the excluded ones, as
//! apiserver's `policy/matching` and the webhook predicates decide it. `matchPolicy:
//! Equivalent` finds nothing more here: every resource is served in one version.

use serde_json::Value;

use super::Request;
use crate::admission::Cluster;
use crate::validation::meta::selector_matches;

fn strings<'v>(v: &'v Value, key: &str) -> impl Iterator<Item = &'v str> {
    v.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

fn exact_or_wildcard(rule: &Value, key: &str, requested: &str) -> bool {
    strings(rule, key).any(|item| item == "*" || item == requested)
}

/// Whether the write is to the Namespaces' own resource.
fn is_namespaces(request: &Request<'_>) -> bool {
    request.group.is_empty() && request.version == "v1" && request.resource == "namespaces"
}

/// A rule of operations, groups, versions, resources (`res/sub`, `*`), scope and names.
fn rule_matches(rule: &Value, request: &Request<'_>) -> bool {
    let scope = match rule.get("scope").and_then(Value::as_str).unwrap_or("*") {
        "*" => true,
        "Namespaced" => !is_namespaces(request) && !request.namespace.is_empty(),
        "Cluster" => is_namespaces(request) || request.namespace.is_empty(),
        _ => false,
    };
    let resource = strings(rule, "resources").any(|r| {
        let (res, sub) = r.split_once('/').unwrap_or((r, ""));
        (res == "*" || res == request.resource) && (sub == "*" || sub == request.subresource)
    });
    let named = || {
        let mut names = strings(rule, "resourceNames").peekable();
        names.peek().is_none() || names.any(|n| n == request.name)
    };
    scope
        && exact_or_wildcard(rule, "operations", request.operation)
        && exact_or_wildcard(rule, "apiGroups", request.group)
        && exact_or_wildcard(rule, "apiVersions", request.version)
        && resource
        && named()
}

fn any_rule(rules: Option<&Value>, request: &Request<'_>) -> bool {
    rules
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|r| rule_matches(r, request))
}

/// Whether a selector (absent: everything, as the defaults make it) selects `labels`.
fn selects(selector: Option<&Value>, labels: Option<&Value>) -> bool {
    match selector {
        None | Some(Value::Null) => true,
        Some(s) => selector_matches(s, labels),
    }
}

/// The labels the namespace selector reads: a Namespace's own when it is the object written,
/// else those of the namespace written to (none for cluster-scoped objects, which every
/// namespace selector matches).
fn namespace_selected(
    selector: Option<&Value>,
    request: &Request<'_>,
    cluster: &dyn Cluster,
) -> bool {
    let written = is_namespaces(request)
        && request.subresource.is_empty()
        && matches!(request.operation, "CREATE" | "UPDATE");
    if written {
        let labels = request.object.and_then(|o| o.pointer("/metadata/labels"));
        return selects(selector, labels);
    }
    if request.namespace.is_empty() && request.resource != "namespaces" {
        return true;
    }
    if selector_is_empty(selector) {
        return true;
    }
    let namespace = cluster.get("/namespaces", "", request.namespace);
    let labels = namespace
        .as_ref()
        .and_then(|ns| ns.pointer("/metadata/labels"));
    selects(selector, labels)
}

/// A selector without requirements (absent, `{}`, or empty lists): it selects everything.
fn selector_is_empty(selector: Option<&Value>) -> bool {
    match selector {
        None | Some(Value::Null) => true,
        Some(Value::Object(m)) => m.values().all(is_empty),
        Some(_) => false,
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// `Matcher.Matches`: selectors, then excluded rules, then rules (none: every resource).
pub(super) fn matches(constraints: &Value, request: &Request<'_>, cluster: &dyn Cluster) -> bool {
    if !namespace_selected(constraints.get("namespaceSelector"), request, cluster) {
        return false;
    }
    // An object selector with requirements selects the write when it selects the new object
    // or the old one.
    let object_selected = match constraints.get("objectSelector") {
        Some(selector) if !selector_is_empty(Some(selector)) => {
            [request.object, request.old_object]
                .into_iter()
                .flatten()
                .any(|o| selector_matches(selector, o.pointer("/metadata/labels")))
        }
        _ => true,
    };
    if !object_selected {
        return false;
    }
    if any_rule(constraints.get("excludeResourceRules"), request) {
        return false;
    }
    match constraints.get("resourceRules").and_then(Value::as_array) {
        Some(rules) if !rules.is_empty() => rules.iter().any(|r| rule_matches(r, request)),
        _ => true,
    }
}
