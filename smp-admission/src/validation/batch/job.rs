//! Job (`ValidateJob`, `validateJobSpec`, `ValidateJobUpdate`) as the job strategy runs them:
//! on update the create rules first, then the update rules (which check the spec again).

use serde_json::{Map, Value};

use super::policies::{REPLACEMENT_POLICIES, pod_failure_policy, success_policy};
use crate::validation::apps::shared::{
    NO_MATCH, NULL, Selection, member, non_negative, selection, selector_has_invalid_value,
    spec_of, template_labels, template_options,
};
use crate::validation::core::pod::{PodOptions, validate_pod_template_spec};
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::meta::{
    self, LabelSelectorOptions, validate_immutable, validate_object_meta,
    validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

const MAX_PARALLELISM_INDEXED: i64 = 100_000;
const MAX_FAILED_INDEXES: i64 = 100_000;
const COMPLETIONS_SOFT_LIMIT: i64 = 100_000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_MANAGED_BY_LENGTH: usize = 63;

const LEGACY_UID_LABEL: &str = "controller-uid";
const LEGACY_NAME_LABEL: &str = "job-name";
const UID_LABEL: &str = "batch.kubernetes.io/controller-uid";
const NAME_LABEL: &str = "batch.kubernetes.io/job-name";

/// `JobValidationOptions` of v1.34 (no mutable pod resources yet).
struct JobOptions {
    pod: PodOptions,
    require_prefixed_labels: bool,
    mutable_scheduling_directives: bool,
}

fn template_of(obj: &Value) -> Option<&Value> {
    spec_of(obj).get("template")
}

pub(super) fn job(obj: &Value) -> ErrorList {
    let opts = JobOptions {
        pod: template_options(template_of(obj), None),
        require_prefixed_labels: true,
        mutable_scheduling_directives: false,
    };
    validate_job(obj, &opts)
}

pub(super) fn job_update(new: &Value, old: &Value) -> ErrorList {
    let old_spec = spec_of(old);
    let mut pod = template_options(template_of(new), template_of(old));
    pod.allow_invalid_label_value_in_selector |=
        selector_has_invalid_value(member(old_spec, "selector"));
    let old_labels = template_labels(template_of(old));
    let has = |k: &str| old_labels.and_then(|l| l.get(k)).is_some();
    let suspended = read::opt_bool(old_spec, "suspend") == Some(true);
    let not_started = old
        .get("status")
        .and_then(|s| member(s, "startTime"))
        .is_none();
    let opts = JobOptions {
        pod,
        require_prefixed_labels: has(NAME_LABEL) && has(UID_LABEL),
        mutable_scheduling_directives: suspended && not_started,
    };
    let mut errs = validate_job(new, &opts);
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    spec_update(spec_of(new), old_spec, &opts, &mut errs);
    errs
}

fn validate_job(obj: &Value, opts: &JobOptions) -> ErrorList {
    let metadata = obj.get("metadata").unwrap_or(&NULL);
    let mut errs = validate_object_meta(
        Some(metadata),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    generated_selector(obj, opts.require_prefixed_labels, &mut errs);
    let spec = spec_of(obj);
    job_spec(spec, &Path::new("spec"), &opts.pod, &mut errs);
    let completions = read::opt_int(spec, "completions");
    if read::text(spec, "completionMode") == "Indexed" && completions.is_some_and(|c| c > 0) {
        let name = read::text(metadata, "name");
        let hostname = format!("{name}-{}", completions.unwrap_or(1) - 1);
        if !names::is_dns1123_label(&hostname).is_empty() {
            let meta_path = Path::new("metadata");
            errs.push(field::invalid(
                &meta_path.child("name"),
                name,
                &format!("will not able to create pod with invalid DNS label: {hostname}"),
            ));
        }
    }
    errs
}

/// `validateGeneratedSelector`: unless the selector is manual, the template carries the
/// labels the server generated and the selector selects them.
fn generated_selector(obj: &Value, prefixed: bool, errs: &mut ErrorList) {
    let spec = spec_of(obj);
    if read::opt_bool(spec, "manualSelector") == Some(true) {
        return;
    }
    let Some(selector) = member(spec, "selector") else {
        return;
    };
    let metadata = obj.get("metadata").unwrap_or(&NULL);
    let uid = read::text(metadata, "uid");
    let name = read::text(metadata, "name");
    if uid.is_empty() {
        let meta_path = Path::new("metadata");
        errs.push(field::required(&meta_path.child("uid"), ""));
    }
    let labels = template_labels(template_of(obj));
    let mut wanted = vec![(LEGACY_UID_LABEL, uid), (LEGACY_NAME_LABEL, name)];
    if prefixed {
        wanted.push((UID_LABEL, uid));
        wanted.push((NAME_LABEL, name));
    }
    let labels_path = Path::names(&["spec", "template", "metadata", "labels"]);
    for (key, expected) in &wanted {
        has_label(labels, key, expected, &labels_path, errs);
    }
    let expected: Map<String, Value> = wanted
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
        .collect();
    let sel = selection(Some(selector));
    if !matches!(sel, Selection::Broken) && !sel.matches(Some(&Value::Object(expected))) {
        errs.push(field::invalid(
            &Path::names(&["spec", "selector"]),
            BadValue::Json(selector.clone()),
            "`selector` not auto-generated",
        ));
    }
}

/// `ValidateHasLabel`.
fn has_label(labels: Option<&Value>, key: &str, expected: &str, path: &Path, errs: &mut ErrorList) {
    let detail = format!("must be '{expected}'");
    let at = path.key(key);
    match labels.and_then(|l| l.get(key)) {
        None => errs.push(field::required(&at, &detail)),
        Some(actual) if actual.as_str() != Some(expected) => errs.push(field::invalid(
            &at,
            BadValue::Json(labels.cloned().unwrap_or(Value::Null)),
            &detail,
        )),
        Some(_) => {}
    }
}

/// `ValidateJobSpec`: the shared spec rules, then the selector and its match.
fn job_spec(spec: &Value, path: &Path, pod: &PodOptions, errs: &mut ErrorList) {
    job_spec_rules(spec, path, pod, errs);
    let selector = member(spec, "selector");
    let selector_path = path.child("selector");
    match selector {
        None => errs.push(field::required(&selector_path, "")),
        Some(s) => {
            let lenient = LabelSelectorOptions {
                allow_invalid_label_value: pod.allow_invalid_label_value_in_selector,
            };
            meta::validate_label_selector(Some(s), lenient, &selector_path, errs);
        }
    }
    let sel = selection(selector);
    let labels = template_labels(spec.get("template"));
    if !matches!(sel, Selection::Broken) && !sel.matches(labels) {
        let template_path = path.child("template");
        let metadata = template_path.child("metadata");
        errs.push(field::invalid(
            &metadata.child("labels"),
            BadValue::Json(labels.cloned().unwrap_or(Value::Null)),
            NO_MATCH,
        ));
    }
}

/// `validateJobSpec`, shared with a CronJob's job template; `path` is the job spec's path.
pub(super) fn job_spec_rules(spec: &Value, path: &Path, pod: &PodOptions, errs: &mut ErrorList) {
    for key in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
        "maxFailedIndexes",
    ] {
        if let Some(v) = read::opt_int(spec, key) {
            non_negative(v, &path.child(key), errs);
        }
    }
    let backoff_per_index = read::opt_int(spec, "backoffLimitPerIndex");
    let max_failed = read::opt_int(spec, "maxFailedIndexes");
    if max_failed.is_some() && backoff_per_index.is_none() {
        errs.push(field::required(
            &path.child("backoffLimitPerIndex"),
            "when maxFailedIndexes is specified",
        ));
    }
    if let Some(managed_by) = member(spec, "managedBy") {
        let text = managed_by.as_str().unwrap_or("");
        let managed_path = path.child("managedBy");
        domain_prefixed_path(text, &managed_path, errs);
        if text.len() > MAX_MANAGED_BY_LENGTH {
            errs.push(field::too_long(&managed_path, MAX_MANAGED_BY_LENGTH as i64));
        }
    }
    completion_mode(spec, path, errs);
    let pod_failure = member(spec, "podFailurePolicy");
    if let Some(policy) = pod_failure {
        pod_failure_policy(spec, policy, &path.child("podFailurePolicy"), errs);
    }
    if let Some(policy) = member(spec, "successPolicy") {
        let policy_path = path.child("successPolicy");
        if read::text(spec, "completionMode") != "Indexed" {
            errs.push(field::invalid(
                &policy_path,
                BadValue::Json(policy.clone()),
                "requires indexed completion mode",
            ));
        } else {
            success_policy(spec, policy, &policy_path, errs);
        }
    }
    if let Some(replacement) = member(spec, "podReplacementPolicy") {
        let value = replacement.as_str().unwrap_or("");
        let replacement_path = path.child("podReplacementPolicy");
        if pod_failure.is_some() {
            if value != "Failed" {
                errs.push(field::not_supported(&replacement_path, value, &["Failed"]));
            }
        } else if !REPLACEMENT_POLICIES.contains(&value) {
            errs.push(field::not_supported(
                &replacement_path,
                value,
                &REPLACEMENT_POLICIES,
            ));
        }
    }
    let template = spec.get("template");
    let template_path = path.child("template");
    errs.extend(validate_pod_template_spec(template, &template_path, pod));
    restart_policy(template, pod_failure.is_some(), &template_path, errs);
}

fn completion_mode(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let parallelism = read::opt_int(spec, "parallelism");
    let completions = read::opt_int(spec, "completions");
    let max_failed = read::opt_int(spec, "maxFailedIndexes");
    let backoff_per_index = read::opt_int(spec, "backoffLimitPerIndex");
    let mode = member(spec, "completionMode").map(|m| m.as_str().unwrap_or(""));
    if let Some(mode) = mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            errs.push(field::not_supported(
                &path.child("completionMode"),
                mode,
                &["NonIndexed", "Indexed"],
            ));
        }
        if mode == "Indexed" {
            indexed_limits(
                parallelism,
                completions,
                max_failed,
                backoff_per_index,
                path,
                errs,
            );
        }
    }
    if mode.is_none() || mode == Some("NonIndexed") {
        if let Some(b) = backoff_per_index {
            errs.push(field::invalid(
                &path.child("backoffLimitPerIndex"),
                b,
                "requires indexed completion mode",
            ));
        }
        if let Some(m) = max_failed {
            errs.push(field::invalid(
                &path.child("maxFailedIndexes"),
                m,
                "requires indexed completion mode",
            ));
        }
    }
}

fn indexed_limits(
    parallelism: Option<i64>,
    completions: Option<i64>,
    max_failed: Option<i64>,
    backoff_per_index: Option<i64>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let parallelism_path = path.child("parallelism");
    let max_failed_path = path.child("maxFailedIndexes");
    if completions.is_none() {
        errs.push(field::required(
            &path.child("completions"),
            "when completion mode is Indexed",
        ));
    }
    if let Some(p) = parallelism.filter(|p| *p > MAX_PARALLELISM_INDEXED) {
        errs.push(field::invalid(
            &parallelism_path,
            p,
            &format!("must be less than or equal to {MAX_PARALLELISM_INDEXED} when completion mode is Indexed"),
        ));
    }
    if let (Some(c), Some(m)) = (completions, max_failed)
        && m > c
    {
        errs.push(field::invalid(
            &max_failed_path,
            m,
            "must be less than or equal to completions",
        ));
    }
    if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES) {
        errs.push(field::invalid(
            &max_failed_path,
            m,
            &format!("must be less than or equal to {MAX_FAILED_INDEXES}"),
        ));
    }
    if completions.is_some_and(|c| c > COMPLETIONS_SOFT_LIMIT) && backoff_per_index.is_some() {
        let tail = format!(
            "when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
        );
        if max_failed.is_none() {
            errs.push(field::required(
                &max_failed_path,
                &format!("must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"),
            ));
        }
        if let Some(p) = parallelism.filter(|p| *p > PARALLELISM_LIMIT_HIGH_COMPLETIONS) {
            errs.push(field::invalid(
                &parallelism_path,
                p,
                &format!(
                    "must be less than or equal to {PARALLELISM_LIMIT_HIGH_COMPLETIONS} {tail}"
                ),
            ));
        }
        if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
            errs.push(field::invalid(
                &max_failed_path,
                m,
                &format!(
                    "must be less than or equal to {MAX_FAILED_INDEXES_HIGH_COMPLETIONS} {tail}"
                ),
            ));
        }
    }
}

/// A Job's pods restart `OnFailure` or `Never` (only `Never` with a pod failure policy).
fn restart_policy(
    template: Option<&Value>,
    has_failure_policy: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let pod = template.and_then(|t| t.get("spec")).unwrap_or(&NULL);
    let policy = read::text(pod, "restartPolicy");
    let spec_path = path.child("spec");
    let policy_path = spec_path.child("restartPolicy");
    match policy {
        "" | "Always" => errs.push(field::required(
            &policy_path,
            "valid values: \"OnFailure\", \"Never\"",
        )),
        "OnFailure" if has_failure_policy => errs.push(field::invalid(
            &policy_path,
            policy,
            "only \"Never\" is supported when podFailurePolicy is specified",
        )),
        "OnFailure" | "Never" => {}
        other => errs.push(field::not_supported(
            &policy_path,
            other,
            &["OnFailure", "Never"],
        )),
    }
}

/// `IsDomainPrefixedPath` (apimachinery): `host/path` with a DNS-subdomain host and an HTTP path.
fn domain_prefixed_path(value: &str, path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    let Some((host, rest)) = value
        .split_once('/')
        .filter(|(h, r)| !h.is_empty() && !r.is_empty())
    else {
        errs.push(field::invalid(
            path,
            value,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        ));
        return;
    };
    for msg in names::is_dns1123_subdomain(host) {
        errs.push(field::invalid(path, host, &msg));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c);
    if !rest.chars().all(allowed) {
        errs.push(field::invalid(
            path,
            rest,
            &names::regex_error("Invalid path", r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+", &[]),
        ));
    }
}

/// `ValidateJobSpecUpdate`.
fn spec_update(new: &Value, old: &Value, opts: &JobOptions, errs: &mut ErrorList) {
    let path = Path::new("spec");
    job_spec(new, &path, &opts.pod, errs);
    completions_update(new, old, &path, errs);
    validate_immutable(
        new.get("selector"),
        old.get("selector"),
        &path.child("selector"),
        errs,
    );
    template_update(new, old, opts.mutable_scheduling_directives, &path, errs);
    for key in [
        "completionMode",
        "podFailurePolicy",
        "backoffLimitPerIndex",
        "managedBy",
        "successPolicy",
    ] {
        validate_immutable(new.get(key), old.get(key), &path.child(key), errs);
    }
}

/// `validateCompletions`: frozen unless Indexed, where it moves only together with parallelism.
fn completions_update(new: &Value, old: &Value, path: &Path, errs: &mut ErrorList) {
    let completions_path = path.child("completions");
    if read::text(new, "completionMode") != "Indexed" {
        validate_immutable(
            new.get("completions"),
            old.get("completions"),
            &completions_path,
            errs,
        );
        return;
    }
    if read::semantic_eq(new.get("completions"), old.get("completions")) {
        return;
    }
    let Some(completions) = read::opt_int(new, "completions") else {
        return;
    };
    // Go dereferences parallelism here; an absent one is read as a mismatch.
    if read::opt_int(new, "parallelism") != Some(completions) {
        errs.push(field::invalid(
            &completions_path,
            completions,
            "can only be modified in tandem with spec.parallelism",
        ));
    }
}

/// `validatePodTemplateUpdate`: the template is frozen, except that a suspended Job that never
/// started may change its scheduling directives (node affinity, node selector, tolerations,
/// template labels and annotations, scheduling gates).
fn template_update(new: &Value, old: &Value, mutable: bool, path: &Path, errs: &mut ErrorList) {
    let new_template = new.get("template").unwrap_or(&NULL);
    let old_template = old.get("template").unwrap_or(&NULL);
    let template_path = path.child("template");
    if !mutable {
        validate_immutable(Some(new_template), Some(old_template), &template_path, errs);
        return;
    }
    let mut relaxed = if old_template.is_object() {
        old_template.clone()
    } else {
        Value::Object(Map::new())
    };
    if let Some(map) = relaxed.as_object_mut() {
        copy_member(
            map,
            "metadata",
            new_template.get("metadata"),
            &["labels", "annotations"],
        );
        let new_pod = new_template.get("spec").unwrap_or(&NULL);
        let pod = map
            .entry("spec")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(pod) = pod.as_object_mut() {
            relax_affinity(pod, member(new_pod, "affinity"));
            for key in ["nodeSelector", "tolerations", "schedulingGates"] {
                set_or_remove(pod, key, new_pod.get(key));
            }
        }
    }
    validate_immutable(Some(new_template), Some(&relaxed), &template_path, errs);
}

fn set_or_remove(map: &mut Map<String, Value>, key: &str, value: Option<&Value>) {
    match value {
        Some(v) => {
            map.insert(key.to_owned(), v.clone());
        }
        None => {
            map.remove(key);
        }
    }
}

fn copy_member(map: &mut Map<String, Value>, key: &str, source: Option<&Value>, keys: &[&str]) {
    let target = map.entry(key).or_insert_with(|| Value::Object(Map::new()));
    if let Some(target) = target.as_object_mut() {
        for k in keys {
            set_or_remove(target, k, source.and_then(|s| s.get(*k)));
        }
    }
}

/// The old affinity with the new node affinity in it; an old affinity holding only node
/// affinity may go away entirely.
fn relax_affinity(old_pod: &mut Map<String, Value>, new_affinity: Option<&Value>) {
    let old_affinity = old_pod.get("affinity").filter(|a| !a.is_null()).cloned();
    match (new_affinity, old_affinity) {
        (None, Some(mut old)) => {
            if let Some(map) = old.as_object_mut() {
                map.remove("nodeAffinity");
                if map.values().all(Value::is_null) {
                    old_pod.remove("affinity");
                    return;
                }
            }
            old_pod.insert("affinity".to_owned(), old);
        }
        (Some(new), None) => {
            let mut affinity = Map::new();
            if let Some(node) = member(new, "nodeAffinity") {
                affinity.insert("nodeAffinity".to_owned(), node.clone());
            }
            old_pod.insert("affinity".to_owned(), Value::Object(affinity));
        }
        (Some(new), Some(mut old)) => {
            if let Some(map) = old.as_object_mut() {
                set_or_remove(map, "nodeAffinity", member(new, "nodeAffinity"));
            }
            old_pod.insert("affinity".to_owned(), old);
        }
        (None, None) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn node_affinity_may_be_dropped_or_added() {
        let mut pod = json!({"affinity": {"nodeAffinity": {"x": 1}}});
        let map = pod.as_object_mut().unwrap();
        relax_affinity(map, None);
        assert!(map.get("affinity").is_none());

        let mut pod = json!({});
        let map = pod.as_object_mut().unwrap();
        relax_affinity(
            map,
            Some(&json!({"nodeAffinity": {"y": 2}, "podAffinity": {"z": 3}})),
        );
        assert_eq!(map["affinity"], json!({"nodeAffinity": {"y": 2}}));
    }

    #[test]
    fn domain_prefixed_paths() {
        let path = Path::new("spec");
        let mut errs = ErrorList::new();
        domain_prefixed_path("example.com/a b", &path, &mut errs);
        assert_eq!(errs.len(), 1);
        assert!(
            errs[0]
                .detail
                .starts_with("Invalid path (regex used for validation is")
        );
    }
}
