//! FlowSchema (`ValidateFlowSchema`; `ValidateFlowSchemaUpdate` runs it again on the new
//! object).

use serde_json::{Value, json};

use super::{CATCH_ALL, EXEMPT, list_value, metadata, name_of, spec_of, string_list};
use super::{field, validate_status};
use crate::validation::field::{BadValue, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

/// The highest matching precedence; the lowest is 1, which only `exempt` may have.
const MAX_MATCHING_PRECEDENCE: i64 = 10_000;

const DISTINGUISHER_METHODS: [&str; 2] = ["ByNamespace", "ByUser"];
const SUBJECT_KINDS: [&str; 3] = ["Group", "ServiceAccount", "User"];
/// The verbs a rule may name, sorted as the server lists them.
const VERBS: [&str; 9] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "proxy",
    "update",
    "watch",
];

const NAMESPACE_INTRO: &str = "each member of this list must be '*' or a DNS-1123 label; ";

/// Create: the object as the strategy leaves it, without status.
pub(super) fn flow_schema(obj: &Value) -> ErrorList {
    validate(obj, None)
}

/// Update: the same checks of the new object, with the old status.
pub(super) fn flow_schema_update(new: &Value, old: &Value) -> ErrorList {
    validate(new, old.get("status"))
}

fn validate(obj: &Value, status: Option<&Value>) -> ErrorList {
    let mut errs = metadata(obj);
    let name = name_of(obj);
    let spec = spec_of(obj);
    validate_spec(name, spec, &mut errs);
    if let Some(fixed) = mandatory_spec(name)
        && canonical(spec) != canonical(&fixed)
    {
        errs.push(field::invalid(
            &Path::new("spec"),
            BadValue::Printed(super::go_print::flow_schema_spec(spec)),
            &format!("spec of '{name}' must equal the fixed value"),
        ));
    }
    validate_status(status, &mut errs);
    errs
}

/// `ValidateFlowSchemaSpec`.
fn validate_spec(name: &str, spec: &Value, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let precedence_path = path.child("matchingPrecedence");
    let precedence = read::int(spec, "matchingPrecedence");
    if precedence <= 0 {
        errs.push(field::invalid(
            &precedence_path,
            precedence,
            "must be a positive value",
        ));
    }
    if precedence > MAX_MATCHING_PRECEDENCE {
        errs.push(field::invalid(
            &precedence_path,
            precedence,
            &format!("must not be greater than {MAX_MATCHING_PRECEDENCE}"),
        ));
    }
    if precedence == 1 && name != EXEMPT {
        errs.push(field::invalid(
            &precedence_path,
            precedence,
            "only the schema named 'exempt' may have matchingPrecedence 1",
        ));
    }
    if let Some(method) = read::member(spec, "distinguisherMethod").set_object() {
        let kind = read::text(method, "type");
        if !DISTINGUISHER_METHODS.contains(&kind) {
            // Go prints the internal struct the pointer leads to.
            let mut printed = String::from("{\"Type\":");
            crate::validation::field::go_json(&Value::from(kind), &mut printed);
            printed.push('}');
            errs.push(field::not_supported(
                &path.child("distinguisherMethod").child("type"),
                BadValue::Printed(printed),
                &DISTINGUISHER_METHODS,
            ));
        }
    }
    let level_path = path.child("priorityLevelConfiguration");
    let level = read::object(spec, "priorityLevelConfiguration")
        .and_then(|l| l.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if level.is_empty() {
        errs.push(field::required(
            &level_path.child("name"),
            "must reference a priority level",
        ));
    } else {
        for msg in names::name_is_dns_subdomain(level, false) {
            errs.push(field::invalid(&level_path.child("name"), level, &msg));
        }
    }
    let rules = path.child("rules");
    for (i, rule) in read::list(spec, "rules").iter().enumerate() {
        validate_rule(rule, &rules.index(i), errs);
    }
}

/// `ValidateFlowSchemaPolicyRulesWithSubjects`.
fn validate_rule(rule: &Value, path: &Path, errs: &mut ErrorList) {
    let subjects = read::list(rule, "subjects");
    if subjects.is_empty() {
        errs.push(field::required(
            &path.child("subjects"),
            "subjects must contain at least one value",
        ));
    }
    let subjects_path = path.child("subjects");
    for (i, subject) in subjects.iter().enumerate() {
        validate_subject(subject, &subjects_path.index(i), errs);
    }
    let resource_rules = read::list(rule, "resourceRules");
    let non_resource_rules = read::list(rule, "nonResourceRules");
    if resource_rules.is_empty() && non_resource_rules.is_empty() {
        errs.push(field::required(
            path,
            "at least one of resourceRules and nonResourceRules has to be non-empty",
        ));
    }
    let at = path.child("resourceRules");
    for (i, r) in resource_rules.iter().enumerate() {
        validate_resource_rule(r, &at.index(i), errs);
    }
    let at = path.child("nonResourceRules");
    for (i, r) in non_resource_rules.iter().enumerate() {
        validate_non_resource_rule(r, &at.index(i), errs);
    }
}

const USER_FORBIDDEN: &str = "user is forbidden when subject kind is not 'User'";
const GROUP_FORBIDDEN: &str = "group is forbidden when subject kind is not 'Group'";
const ACCOUNT_FORBIDDEN: &str =
    "serviceAccount is forbidden when subject kind is not 'ServiceAccount'";

/// `ValidateFlowSchemaSubject`: the member the kind names is required, the other two
/// forbidden.
fn validate_subject(subject: &Value, path: &Path, errs: &mut ErrorList) {
    let set = |key: &str| read::member(subject, key).set_object();
    let forbid = |key: &str, detail: &str, errs: &mut ErrorList| {
        if set(key).is_some() {
            errs.push(field::forbidden(&path.child(key), detail));
        }
    };
    match read::text(subject, "kind") {
        "ServiceAccount" => {
            validate_account(set("serviceAccount"), &path.child("serviceAccount"), errs);
            forbid("user", USER_FORBIDDEN, errs);
            forbid("group", GROUP_FORBIDDEN, errs);
        }
        "User" => {
            validate_named(
                set("user"),
                "user is required when subject kind is 'User'",
                &path.child("user"),
                errs,
            );
            forbid("serviceAccount", ACCOUNT_FORBIDDEN, errs);
            forbid("group", GROUP_FORBIDDEN, errs);
        }
        "Group" => {
            validate_named(
                set("group"),
                "group is required when subject kind is 'Group'",
                &path.child("group"),
                errs,
            );
            forbid("serviceAccount", ACCOUNT_FORBIDDEN, errs);
            forbid("user", USER_FORBIDDEN, errs);
        }
        other => errs.push(field::not_supported(
            &path.child("kind"),
            BadValue::Json(Value::from(other)),
            &SUBJECT_KINDS,
        )),
    }
}

/// A user or group subject: present, with a name.
fn validate_named(subject: Option<&Value>, missing: &str, path: &Path, errs: &mut ErrorList) {
    let Some(subject) = subject else {
        errs.push(field::required(path, missing));
        return;
    };
    if read::text(subject, "name").is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
}

/// `ValidateServiceAccountSubject`: a name (`*` for all) and a namespace.
fn validate_account(account: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let Some(account) = account else {
        errs.push(field::required(
            path,
            "serviceAccount is required when subject kind is 'ServiceAccount'",
        ));
        return;
    };
    let name = read::text(account, "name");
    if name.is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    } else if name != "*" {
        for msg in names::name_is_dns_subdomain(name, false) {
            errs.push(field::invalid(&path.child("name"), name, &msg));
        }
    }
    let namespace = read::text(account, "namespace");
    if namespace.is_empty() {
        errs.push(field::required(
            &path.child("namespace"),
            "must specify namespace for service account",
        ));
    } else {
        for msg in names::name_is_dns_label(namespace, false) {
            errs.push(field::invalid(&path.child("namespace"), namespace, &msg));
        }
    }
}

/// The verbs of either kind of rule: at least one, `*` alone, or supported ones.
fn validate_verbs(verbs: &[&str], path: &Path, errs: &mut ErrorList) {
    if verbs.is_empty() {
        errs.push(field::required(
            path,
            "verbs must contain at least one value",
        ));
    } else if verbs.contains(&"*") {
        if verbs.len() > 1 {
            errs.push(field::invalid(
                path,
                list_value(verbs),
                "if '*' is present, must not specify other verbs",
            ));
        }
    } else if !verbs.iter().all(|v| VERBS.contains(v)) {
        errs.push(field::not_supported(path, list_value(verbs), &VERBS));
    }
}

/// `ValidateFlowSchemaResourcePolicyRule`.
fn validate_resource_rule(rule: &Value, path: &Path, errs: &mut ErrorList) {
    validate_verbs(&string_list(rule, "verbs"), &path.child("verbs"), errs);
    for (key, what) in [("apiGroups", "api group"), ("resources", "resource")] {
        let items = string_list(rule, key);
        if items.is_empty() {
            errs.push(field::required(
                &path.child(key),
                &format!("resource rules must supply at least one {what}"),
            ));
        } else if items.len() > 1 && items.contains(&"*") {
            errs.push(field::invalid(
                &path.child(key),
                list_value(&items),
                &format!("if '*' is present, must not specify other {what}s"),
            ));
        }
    }
    let namespaces = string_list(rule, "namespaces");
    let at = path.child("namespaces");
    if namespaces.is_empty() && !read::flag(rule, "clusterScope") {
        errs.push(field::required(
            &at,
            "resource rules that are not cluster scoped must supply at least one namespace",
        ));
    } else if namespaces.contains(&"*") {
        if namespaces.len() > 1 {
            errs.push(field::invalid(
                &at,
                list_value(&namespaces),
                "if '*' is present, must not specify other namespaces",
            ));
        }
    } else {
        for (i, namespace) in namespaces.iter().enumerate() {
            for msg in names::name_is_dns_label(namespace, false) {
                errs.push(field::invalid(
                    &at.index(i),
                    namespace.to_string(),
                    &format!("{NAMESPACE_INTRO}{msg}"),
                ));
            }
        }
    }
}

/// `ValidateFlowSchemaNonResourcePolicyRule`.
fn validate_non_resource_rule(rule: &Value, path: &Path, errs: &mut ErrorList) {
    validate_verbs(&string_list(rule, "verbs"), &path.child("verbs"), errs);
    let urls = string_list(rule, "nonResourceURLs");
    let at = path.child("nonResourceURLs");
    if urls.is_empty() {
        errs.push(field::required(
            &at,
            "nonResourceURLs must contain at least one value",
        ));
    } else if urls.contains(&"*") {
        if urls.len() > 1 {
            errs.push(field::invalid(
                &at,
                list_value(&urls),
                "if '*' is present, must not specify other non-resource URLs",
            ));
        }
    } else {
        for (i, url) in urls.iter().enumerate() {
            if let Some(why) = non_resource_url_problem(url) {
                errs.push(field::invalid(&at.index(i), url.to_string(), why));
            }
        }
    }
}

/// `ValidateNonResourceURLPath`: what is wrong with a non-resource URL, if anything. A `*`
/// may only end the path, after a slash.
fn non_resource_url_problem(url: &str) -> Option<&'static str> {
    if url.is_empty() {
        return Some("must not be empty");
    }
    if url == "/" {
        return None;
    }
    if !url.starts_with('/') {
        return Some("must start with slash");
    }
    if url.contains(' ') {
        return Some("must not contain white-space");
    }
    if url.contains("//") {
        return Some("must not contain double slash");
    }
    let stars = url.matches('*').count();
    if stars > 1 || (stars == 1 && !url.ends_with("/*")) {
        return Some("wildcard can only do suffix matching");
    }
    None
}

/// The spec the server installs for a mandatory schema, as v1 JSON.
fn mandatory_spec(name: &str) -> Option<Value> {
    let (precedence, method, groups) = match name {
        EXEMPT => (1, Value::Null, json!(["system:masters"])),
        CATCH_ALL => (
            10_000,
            json!({"type": "ByUser"}),
            json!(["system:unauthenticated", "system:authenticated"]),
        ),
        _ => return None,
    };
    let subjects: Vec<Value> = groups
        .as_array()
        .into_iter()
        .flatten()
        .map(|g| json!({"kind": "Group", "group": {"name": g}}))
        .collect();
    Some(json!({
        "priorityLevelConfiguration": {"name": name},
        "matchingPrecedence": precedence,
        "distinguisherMethod": method,
        "rules": [{
            "subjects": subjects,
                "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"],
                "clusterScope": true, "namespaces": ["*"]}],
            "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
        }],
    }))
}

/// A spec as the internal struct holds it, every member explicit, so that two specs compare
/// as `Semantic.DeepEqual` compares them: absent and zero are alike, an empty list is an
/// absent one, a pointer set to an empty struct is not an absent one.
fn canonical(spec: &Value) -> Value {
    let name_of = |v: Option<&Value>| v.map(|v| Value::from(read::text(v, "name")));
    let subject = |s: &Value| {
        let account = read::member(s, "serviceAccount").set_object();
        json!([
            read::text(s, "kind"),
            name_of(read::member(s, "user").set_object()),
            name_of(read::member(s, "group").set_object()),
            account.map(|a| json!([read::text(a, "name"), read::text(a, "namespace")])),
        ])
    };
    let resource_rule = |r: &Value| {
        json!([
            string_list(r, "verbs"),
            string_list(r, "apiGroups"),
            string_list(r, "resources"),
            read::flag(r, "clusterScope"),
            string_list(r, "namespaces"),
        ])
    };
    let non_resource_rule =
        |r: &Value| json!([string_list(r, "verbs"), string_list(r, "nonResourceURLs")]);
    let rules: Vec<Value> = read::list(spec, "rules")
        .iter()
        .map(|r| {
            json!([
                read::list(r, "subjects")
                    .iter()
                    .map(subject)
                    .collect::<Vec<_>>(),
                read::list(r, "resourceRules")
                    .iter()
                    .map(resource_rule)
                    .collect::<Vec<_>>(),
                read::list(r, "nonResourceRules")
                    .iter()
                    .map(non_resource_rule)
                    .collect::<Vec<_>>(),
            ])
        })
        .collect();
    json!({
        "level": read::object(spec, "priorityLevelConfiguration")
            .and_then(|l| l.get("name"))
            .and_then(Value::as_str)
            .unwrap_or(""),
        "precedence": read::int(spec, "matchingPrecedence"),
        "method": read::member(spec, "distinguisherMethod")
            .set_object()
            .map(|m| read::text(m, "type")),
        "rules": rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_resource_urls_take_a_wildcard_only_at_the_end() {
        for ok in ["/", "/foo", "/apis/", "/healthz/*"] {
            assert_eq!(non_resource_url_problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            "foo",
            "//",
            "/////",
            "/healthz/*/foo",
            "/healthz/foo bar",
            "/health*",
            "/health*/foo",
            "/*/*",
        ] {
            assert!(non_resource_url_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn the_mandatory_specs_match_themselves_and_not_a_changed_copy() {
        for name in [EXEMPT, CATCH_ALL] {
            let fixed = mandatory_spec(name).unwrap_or_default();
            assert_eq!(canonical(&fixed), canonical(&fixed));
            let mut changed = fixed.clone();
            changed["rules"][0]["nonResourceRules"][0]["nonResourceURLs"] = json!(["/"]);
            assert_ne!(canonical(&fixed), canonical(&changed));
        }
    }
}
