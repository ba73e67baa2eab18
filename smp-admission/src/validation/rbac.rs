//! The `rbac.authorization.k8s.io` group: Role, ClusterRole, RoleBinding, ClusterRoleBinding
//! (`pkg/apis/rbac/validation`), with their strategies' updates, which run the object's
//! validation twice (once directly, once inside `Validate*Update`).

use serde_json::{Map, Value};

use super::field::{self, BadValue, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::{
    LabelSelectorOptions, validate_label_selector, validate_object_meta,
    validate_object_meta_update_of,
};
use super::names;
use super::read;

const GROUP: &str = "rbac.authorization.k8s.io";

/// The rbac kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: GROUP,
        kind: "Role",
        namespaced: true,
        create: role,
        update: role_update,
    },
    KindRules {
        group: GROUP,
        kind: "ClusterRole",
        namespaced: false,
        create: cluster_role,
        update: cluster_role_update,
    },
    KindRules {
        group: GROUP,
        kind: "RoleBinding",
        namespaced: true,
        create: role_binding,
        update: role_binding_update,
    },
    KindRules {
        group: GROUP,
        kind: "ClusterRoleBinding",
        namespaced: false,
        create: cluster_role_binding,
        update: cluster_role_binding_update,
    },
];

/// `ValidateRBACName`: a path segment, and the `prefix` flag is ignored (a `generateName` is
/// held to the same rule as a name).
fn rbac_name(name: &str, _prefix: bool) -> Vec<String> {
    names::name_is_path_segment(name, false)
}

fn metadata(obj: &Value, namespaced: bool) -> ErrorList {
    validate_object_meta(
        obj.get("metadata"),
        namespaced,
        rbac_name,
        &Path::new("metadata"),
    )
}

/// `ValidateRole`.
fn role(obj: &Value) -> ErrorList {
    let mut errs = metadata(obj, true);
    validate_rules(obj, true, &mut errs);
    errs
}

/// Strategy update: `ValidateRole(new)`, then `ValidateRoleUpdate` = `ValidateRole(new)` again
/// and the metadata update.
fn role_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = role(new);
    errs.extend(role(new));
    errs.extend(validate_object_meta_update_of(new, old));
    errs
}

fn validate_rules(obj: &Value, namespaced: bool, errs: &mut ErrorList) {
    let path = Path::new("rules");
    for (i, rule) in read::list(obj, "rules").iter().enumerate() {
        validate_policy_rule(rule, namespaced, &path.index(i), errs);
    }
}

/// `ValidatePolicyRule`: verbs, then non-resource URLs alone, or api groups and resources.
fn validate_policy_rule(rule: &Value, namespaced: bool, path: &Path, errs: &mut ErrorList) {
    if read::list(rule, "verbs").is_empty() {
        errs.push(field::required(
            &path.child("verbs"),
            "verbs must contain at least one value",
        ));
    }
    let urls = read::list(rule, "nonResourceURLs");
    if !urls.is_empty() {
        let urls_path = path.child("nonResourceURLs");
        let value = || BadValue::Json(Value::Array(urls.to_vec()));
        if namespaced {
            errs.push(field::invalid(
                &urls_path,
                value(),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if ["apiGroups", "resources", "resourceNames"]
            .iter()
            .any(|key| !read::list(rule, key).is_empty())
        {
            errs.push(field::invalid(
                &urls_path,
                value(),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return;
    }
    if read::list(rule, "apiGroups").is_empty() {
        errs.push(field::required(
            &path.child("apiGroups"),
            "resource rules must supply at least one api group",
        ));
    }
    if read::list(rule, "resources").is_empty() {
        errs.push(field::required(
            &path.child("resources"),
            "resource rules must supply at least one resource",
        ));
    }
}

/// `ValidateClusterRole`.
fn validate_cluster_role(obj: &Value, selectors: LabelSelectorOptions) -> ErrorList {
    let mut errs = metadata(obj, false);
    validate_rules(obj, false, &mut errs);
    if let Some(rule) = obj.get("aggregationRule").filter(|r| !r.is_null()) {
        let path = Path::names(&["aggregationRule", "clusterRoleSelectors"]);
        let list = read::list(rule, "clusterRoleSelectors");
        if list.is_empty() {
            errs.push(field::required(
                &path,
                "at least one clusterRoleSelector required if aggregationRule is non-nil",
            ));
        }
        for (i, selector) in list.iter().enumerate() {
            let at = path.index(i);
            validate_label_selector(Some(selector), selectors, &at, &mut errs);
            if !selector_parses(selector) {
                errs.push(field::invalid(
                    &at,
                    BadValue::Json(Value::Null),
                    "invalid label selector.",
                ));
            }
        }
    }
    errs
}

fn cluster_role(obj: &Value) -> ErrorList {
    validate_cluster_role(obj, LabelSelectorOptions::default())
}

/// Strategy update: the role twice (with invalid selector values allowed when an old
/// aggregation selector had one), then the metadata update.
fn cluster_role_update(new: &Value, old: &Value) -> ErrorList {
    let mut probe = ErrorList::new();
    if let Some(rule) = old.get("aggregationRule").filter(|r| !r.is_null()) {
        for selector in read::list(rule, "clusterRoleSelectors") {
            validate_label_selector(
                Some(selector),
                LabelSelectorOptions::default(),
                &Path::new(""),
                &mut probe,
            );
        }
    }
    let selectors = LabelSelectorOptions {
        allow_invalid_label_value: !probe.is_empty(),
    };
    let mut errs = validate_cluster_role(new, selectors);
    errs.extend(validate_cluster_role(new, selectors));
    errs.extend(validate_object_meta_update_of(new, old));
    errs
}

/// Whether `metav1.LabelSelectorAsSelector` turns the selector into a `labels.Selector`:
/// every key a qualified name, every value a label value (whatever the validation options),
/// a known operator with the number of values it takes.
pub(crate) fn selector_parses(selector: &Value) -> bool {
    let labels_ok = read::string_map(selector, "matchLabels").all(|(k, v)| {
        names::is_qualified_name(k).is_empty() && names::is_valid_label_value(v).is_empty()
    });
    labels_ok
        && read::list(selector, "matchExpressions").iter().all(|req| {
            let values = read::list(req, "values");
            let count_ok = match read::text(req, "operator") {
                "In" | "NotIn" => !values.is_empty(),
                "Exists" | "DoesNotExist" => values.is_empty(),
                _ => return false,
            };
            count_ok
                && names::is_qualified_name(read::text(req, "key")).is_empty()
                && values
                    .iter()
                    .all(|v| names::is_valid_label_value(v.as_str().unwrap_or("")).is_empty())
        })
}

/// What a binding's roleRef may name.
struct BindingRules {
    namespaced: bool,
    role_kinds: &'static [&'static str],
}

const ROLE_BINDING: BindingRules = BindingRules {
    namespaced: true,
    role_kinds: &["Role", "ClusterRole"],
};
const CLUSTER_ROLE_BINDING: BindingRules = BindingRules {
    namespaced: false,
    role_kinds: &["ClusterRole"],
};

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding`.
fn validate_binding(obj: &Value, rules: &BindingRules) -> ErrorList {
    let mut errs = metadata(obj, rules.namespaced);
    let role_ref = obj.get("roleRef").unwrap_or(&Value::Null);
    let path = Path::new("roleRef");
    let group = read::text(role_ref, "apiGroup");
    if group != GROUP {
        errs.push(field::not_supported(
            &path.child("apiGroup"),
            group,
            &[GROUP],
        ));
    }
    let kind = read::text(role_ref, "kind");
    if !rules.role_kinds.contains(&kind) {
        errs.push(field::not_supported(
            &path.child("kind"),
            kind,
            rules.role_kinds,
        ));
    }
    let name = read::text(role_ref, "name");
    if name.is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    } else {
        for msg in rbac_name(name, false) {
            errs.push(field::invalid(&path.child("name"), name, &msg));
        }
    }
    let subjects = Path::new("subjects");
    for (i, subject) in read::list(obj, "subjects").iter().enumerate() {
        validate_subject(subject, rules.namespaced, &subjects.index(i), &mut errs);
    }
    errs
}

/// `ValidateRoleBindingSubject`.
fn validate_subject(subject: &Value, namespaced: bool, path: &Path, errs: &mut ErrorList) {
    let name = read::text(subject, "name");
    if name.is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
    let group = read::text(subject, "apiGroup");
    match read::text(subject, "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                for msg in names::name_is_dns_subdomain(name, false) {
                    errs.push(field::invalid(&path.child("name"), name, &msg));
                }
            }
            if !group.is_empty() {
                errs.push(field::not_supported(&path.child("apiGroup"), group, &[""]));
            }
            if !namespaced && read::text(subject, "namespace").is_empty() {
                errs.push(field::required(&path.child("namespace"), ""));
            }
        }
        "User" | "Group" => {
            if group != GROUP {
                errs.push(field::not_supported(
                    &path.child("apiGroup"),
                    group,
                    &[GROUP],
                ));
            }
        }
        other => errs.push(field::not_supported(
            &path.child("kind"),
            other,
            &["ServiceAccount", "User", "Group"],
        )),
    }
}

/// A changed roleRef, reported with the internal `RoleRef` struct as its value.
fn role_ref_unchanged(new: &Value, old: &Value, errs: &mut ErrorList) {
    let empty = Value::Null;
    let new_ref = new.get("roleRef").unwrap_or(&empty);
    let old_ref = old.get("roleRef").unwrap_or(&empty);
    let same = ["apiGroup", "kind", "name"]
        .iter()
        .all(|key| read::text(new_ref, key) == read::text(old_ref, key));
    if !same {
        let mut value = Map::new();
        for (go, json) in [("APIGroup", "apiGroup"), ("Kind", "kind"), ("Name", "name")] {
            value.insert(go.to_owned(), Value::from(read::text(new_ref, json)));
        }
        errs.push(field::invalid(
            &Path::new("roleRef"),
            BadValue::Json(Value::Object(value)),
            "cannot change roleRef",
        ));
    }
}

fn binding_update(new: &Value, old: &Value, rules: &BindingRules) -> ErrorList {
    let mut errs = validate_binding(new, rules);
    errs.extend(validate_binding(new, rules));
    errs.extend(validate_object_meta_update_of(new, old));
    role_ref_unchanged(new, old, &mut errs);
    errs
}

fn role_binding(obj: &Value) -> ErrorList {
    validate_binding(obj, &ROLE_BINDING)
}

fn role_binding_update(new: &Value, old: &Value) -> ErrorList {
    binding_update(new, old, &ROLE_BINDING)
}

fn cluster_role_binding(obj: &Value) -> ErrorList {
    validate_binding(obj, &CLUSTER_ROLE_BINDING)
}

fn cluster_role_binding_update(new: &Value, old: &Value) -> ErrorList {
    binding_update(new, old, &CLUSTER_ROLE_BINDING)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn changed_role_ref_prints_the_internal_struct() {
        let old = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": {"name": "b", "namespace": "d", "resourceVersion": "1"},
            "roleRef": {"apiGroup": GROUP, "kind": "Role", "name": "a"}});
        let mut new = old.clone();
        new["roleRef"]["name"] = json!("b");
        let errs = role_binding_update(&new, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"Role\",\"Name\":\"b\"}: cannot change roleRef"
        );
    }

    #[test]
    fn unparseable_aggregation_selectors_print_null() {
        let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": {"name": "r"},
            "aggregationRule": {"clusterRoleSelectors": [{"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["v"]}]}]}});
        let errs = cluster_role(&role);
        assert_eq!(errs.len(), 2);
        assert_eq!(
            errs[1].to_string(),
            "aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector."
        );
    }

    #[test]
    fn selector_parsing() {
        assert!(selector_parses(&json!({})));
        assert!(selector_parses(&json!({"matchLabels": {"a": ""}})));
        assert!(!selector_parses(&json!({"matchLabels": {"a b": "c"}})));
        assert!(!selector_parses(
            &json!({"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]})
        ));
        assert!(selector_parses(
            &json!({"matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["1"]}]})
        ));
    }

    #[test]
    fn generate_name_is_held_to_the_name_rule() {
        assert_eq!(rbac_name("..", true), vec!["may not be '..'".to_owned()]);
    }
}
