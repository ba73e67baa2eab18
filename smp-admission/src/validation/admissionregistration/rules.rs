//! The rules a webhook or a policy matches requests by (`validateRuleWithOperations`,
//! `validateRule`, `validateResources`): operations, API groups and versions, resources with
//! their subresources and `*` forms, and scope.

use std::collections::HashSet;

use serde_json::Value;

use super::{list_value, string_list};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::read;

/// The operations a rule may name, sorted as the server lists them.
const OPERATIONS: [&str; 5] = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
/// The scopes a rule may have, sorted.
const SCOPES: [&str; 3] = ["*", "Cluster", "Namespaced"];

/// `validateRuleWithOperations`: the operations, then the rule they apply to.
pub(super) fn validate_rule_with_operations(rule: &Value, path: &Path, errs: &mut ErrorList) {
    let operations = string_list(rule, "operations");
    let at = path.child("operations");
    if operations.is_empty() {
        errs.push(field::required(&at, ""));
    }
    if operations.len() > 1 && operations.contains(&"*") {
        errs.push(field::invalid(
            &at,
            list_value(&operations),
            "if '*' is present, must not specify other operations",
        ));
    }
    for (i, operation) in operations.iter().enumerate() {
        if !OPERATIONS.contains(operation) {
            errs.push(field::not_supported(
                &at.index(i),
                BadValue::Json(Value::from(*operation)),
                &OPERATIONS,
            ));
        }
    }
    validate_rule(rule, path, errs);
}

/// `validateRule`, subresources allowed: groups, versions, resources and scope.
fn validate_rule(rule: &Value, path: &Path, errs: &mut ErrorList) {
    for (key, what) in [("apiGroups", "API groups"), ("apiVersions", "API versions")] {
        let items = string_list(rule, key);
        if items.is_empty() {
            errs.push(field::required(&path.child(key), ""));
        }
        if items.len() > 1 && items.contains(&"*") {
            errs.push(field::invalid(
                &path.child(key),
                list_value(&items),
                &format!("if '*' is present, must not specify other {what}"),
            ));
        }
    }
    let versions = path.child("apiVersions");
    for (i, version) in string_list(rule, "apiVersions").iter().enumerate() {
        if version.is_empty() {
            errs.push(field::required(&versions.index(i), ""));
        }
    }
    validate_resources(
        &string_list(rule, "resources"),
        &path.child("resources"),
        errs,
    );
    if let Some(scope) = read::opt_text(rule, "scope")
        && !SCOPES.contains(&scope)
    {
        errs.push(field::not_supported(
            &path.child("scope"),
            BadValue::Json(Value::from(scope)),
            &SCOPES,
        ));
    }
}

/// `validateResources`: `res/*` and `*/sub` cover their forms, which may not be named again
/// after them; `*/*` stands alone; `*` does not mix with a resource named without subresource.
fn validate_resources(resources: &[&str], path: &Path, errs: &mut ErrorList) {
    if resources.is_empty() {
        errs.push(field::required(path, ""));
    }
    // Resources whose subresources are all covered (`res/*`), and subresources covered for
    // every resource (`*/sub`).
    let mut all_subresources_of: HashSet<&str> = HashSet::new();
    let mut subresource_of_all: HashSet<&str> = HashSet::new();
    let mut double_wildcard = false;
    let mut single_wildcard = false;
    let mut plain_resource = false;
    for (i, item) in resources.iter().enumerate() {
        if item.is_empty() {
            errs.push(field::required(&path.index(i), ""));
            continue;
        }
        if *item == "*/*" {
            double_wildcard = true;
        }
        if *item == "*" {
            single_wildcard = true;
        }
        let Some((resource, sub)) = item.split_once('/') else {
            // The last resource named alone decides, as upstream keeps only the last.
            plain_resource = *item != "*";
            continue;
        };
        if all_subresources_of.contains(resource) {
            errs.push(field::invalid(
                &path.index(i),
                *item,
                &format!("if '{resource}/*' is present, must not specify {item}"),
            ));
        }
        if subresource_of_all.contains(sub) {
            errs.push(field::invalid(
                &path.index(i),
                *item,
                &format!("if '*/{sub}' is present, must not specify {item}"),
            ));
        }
        if sub == "*" {
            all_subresources_of.insert(resource);
        }
        if resource == "*" {
            subresource_of_all.insert(sub);
        }
    }
    if resources.len() > 1 && double_wildcard {
        errs.push(field::invalid(
            path,
            list_value(resources),
            "if '*/*' is present, must not specify other resources",
        ));
    }
    if single_wildcard && plain_resource {
        errs.push(field::invalid(
            path,
            list_value(resources),
            "if '*' is present, must not specify other resources without subresources",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(resources: &[&str]) -> Vec<String> {
        let mut errs = ErrorList::new();
        validate_resources(resources, &Path::new("resources"), &mut errs);
        errs.iter()
            .map(|e| format!("{}: {}", e.field, e.detail))
            .collect()
    }

    #[test]
    fn the_last_resource_named_alone_decides_whether_star_mixes() {
        assert_eq!(
            fields(&["*", "a"]),
            ["resources: if '*' is present, must not specify other resources without subresources"]
        );
        // A `*` after the plain resource resets what the server remembers of it.
        assert!(fields(&["a", "*"]).is_empty());
        assert!(fields(&["*", "a/b", "a/*", "*/b"]).is_empty());
    }

    #[test]
    fn covered_forms_may_not_be_named_again() {
        assert_eq!(
            fields(&["a/*", "a/x", "*/x", "b/x"]),
            [
                "resources[1]: if 'a/*' is present, must not specify a/x",
                "resources[3]: if '*/x' is present, must not specify b/x",
            ]
        );
        assert_eq!(fields(&["", "a"]), ["resources[0]: "]);
        assert_eq!(fields(&[]), ["resources: "]);
    }
}
