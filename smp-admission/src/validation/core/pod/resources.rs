//! Resource requirements (`validateResourceRequirements` with the container or the pod-level
//! name rule), claims references, and a container's `resizePolicy`.
//!
//! Go walks the limits and requests maps in random order; here they are walked in key order
//! (the JSON object's), so several bad keys are listed sorted. Quantities are printed as the
//! server stores a resource list: rounded up to thousandths, in canonical form.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

use super::PodOptions;
use crate::quantity::{self, Quantity};
use crate::validation::core::resources::{
    is_integer_resource, is_native, validate_container_resource_name, validate_resource_name,
};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::IS_NEGATIVE;
use crate::validation::names;
use crate::validation::read;

/// Which names a resource list may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameRule {
    /// A container's (and `overhead`'s): standard container resources, huge pages, and
    /// extended resources.
    Container,
    /// The pod-level `resources`: cpu, memory and huge pages only.
    Pod,
}

fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `IsOvercommitAllowed`: a request may be below its limit.
fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_hugepages(name)
}

/// The name check of one entry, by rule (`validateContainerResourceName`,
/// `validatePodResourceName`).
fn validate_name(rule: NameRule, name: &str, path: &Path, errs: &mut ErrorList) {
    match rule {
        NameRule::Container => validate_container_resource_name(name, path, errs),
        NameRule::Pod => {
            let before = errs.len();
            validate_resource_name(name, path, errs);
            let supported = matches!(name, "cpu" | "memory") || is_hugepages(name);
            if errs.len() == before && !supported {
                errs.push(field::not_supported(
                    path,
                    name,
                    &["cpu", "hugepages-", "memory"],
                ));
            }
        }
    }
}

/// One entry of a resource list: its quantity and the text it was written as. `None` for a
/// value that is not a quantity (the server refuses it before validating).
struct Entry<'a> {
    quantity: Quantity,
    text: Cow<'a, str>,
}

impl Entry<'_> {
    /// How the server prints the value, made only for an error message.
    fn printed(&self) -> String {
        quantity::canonical_milli(&self.text).unwrap_or_default()
    }
}

fn entry(value: &Value) -> Option<Entry<'_>> {
    let text = match value {
        Value::String(s) => Cow::Borrowed(s.as_str()),
        Value::Number(n) => Cow::Owned(n.to_string()),
        _ => return None,
    };
    let quantity = Quantity::parse(&text).ok()?;
    Some(Entry { quantity, text })
}

/// `ValidateResourceQuantityValue`: not negative, and whole for integer resources.
fn validate_quantity(name: &str, e: &Entry, path: &Path, errs: &mut ErrorList) {
    if e.quantity.is_negative() {
        errs.push(field::invalid(path, e.printed(), IS_NEGATIVE));
    }
    let integer = is_integer_resource(name);
    if integer
        && e.quantity
            .scaled_up(-3)
            .is_some_and(|milli| milli % 1000 != 0)
    {
        errs.push(field::invalid(path, e.printed(), "must be an integer"));
    }
}

/// `IsHugePageResourceValueDivisible`: a whole number of pages of the size in the name.
fn divisible_into_pages(name: &str, q: Quantity) -> bool {
    let Some(page) = name
        .strip_prefix("hugepages-")
        .and_then(|size| Quantity::parse(size).ok())
    else {
        return false;
    };
    let Some(page_milli) = page.scaled_up(-3) else {
        return false;
    };
    if page_milli <= 0 || page_milli % 1000 != 0 {
        return false;
    }
    match (q.scaled_up(0), page.scaled_up(0)) {
        (Some(v), Some(p)) if p != 0 => v % p == 0,
        _ => false,
    }
}

/// Whether a huge-page list value is a whole number of pages (a value that is not a
/// quantity counts as whole: the server never stored it).
pub(super) fn is_whole_pages(name: &str, value: &Value) -> bool {
    entry(value).is_none_or(|e| divisible_into_pages(name, e.quantity))
}

fn validate_hugepages_value(
    name: &str,
    e: &Entry,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    if !options.allow_indivisible_huge_pages_values && !divisible_into_pages(name, e.quantity) {
        errs.push(field::invalid(
            path,
            e.printed(),
            &format!("{} is not positive integer multiple of {name}", e.printed()),
        ));
    }
}

/// The entries of a resource list with their quantities, in key order (the JSON object's, so
/// sorted and unique); a value that is not a quantity is left out (the server refuses it
/// before validating).
fn entries(list: Option<&Map<String, Value>>) -> Vec<(&str, Entry<'_>)> {
    list.into_iter()
        .flatten()
        .filter_map(|(k, v)| entry(v).map(|e| (k.as_str(), e)))
        .collect()
}

/// The entry named `name` of a list made by [`entries`].
fn find<'l, 'a>(list: &'l [(&str, Entry<'a>)], name: &str) -> Option<&'l Entry<'a>> {
    list.binary_search_by(|(k, _)| (*k).cmp(name))
        .ok()
        .map(|i| &list[i].1)
}

/// `ValidateContainerResourceRequirements` for a container's `resources`.
pub(super) fn validate_container_resources(
    resources: Option<&Value>,
    claim_names: &BTreeSet<&str>,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let empty = Value::Null;
    let resources = resources.unwrap_or(&empty);
    validate_resource_requirements(
        resources,
        NameRule::Container,
        claim_names,
        path,
        options,
        errs,
    );
}

/// `validateResourceRequirements`: each limit and request has a valid name and quantity; a
/// request is at most its limit (equal for resources that cannot be overcommitted, which
/// also need a limit); huge pages come with cpu or memory; claims name pod claims.
/// `requirements` is the `resources` object (`limits`, `requests`, `claims`); pod-spec calls
/// this with [`NameRule::Pod`] for the pod-level `resources` and with a `{"limits": overhead}`
/// object for `overhead`.
pub(crate) fn validate_resource_requirements(
    requirements: &Value,
    rule: NameRule,
    claim_names: &BTreeSet<&str>,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let limits_path = path.child("limits");
    let requests_path = path.child("requests");
    let limits = entries(read::object(requirements, "limits"));
    let requests = entries(read::object(requirements, "requests"));
    let (mut cpu_or_memory, mut hugepages) = (false, false);
    for (name, e) in &limits {
        let name = *name;
        let at = limits_path.key(name);
        validate_name(rule, name, &at, errs);
        validate_quantity(name, e, &at, errs);
        if is_hugepages(name) {
            hugepages = true;
            validate_hugepages_value(name, e, &at, options, errs);
        }
        cpu_or_memory |= matches!(name, "cpu" | "memory");
    }
    for (name, e) in &requests {
        let name = *name;
        let at = requests_path.key(name);
        validate_name(rule, name, &at, errs);
        validate_quantity(name, e, &at, errs);
        match find(&limits, name) {
            Some(limit) => {
                let order = e.quantity.compare(limit.quantity);
                if order != Ordering::Equal && !overcommit_allowed(name) {
                    errs.push(field::invalid(
                        &requests_path,
                        e.printed(),
                        &format!("must be equal to {name} limit of {}", limit.printed()),
                    ));
                } else if order == Ordering::Greater {
                    errs.push(field::invalid(
                        &requests_path,
                        e.printed(),
                        &format!(
                            "must be less than or equal to {name} limit of {}",
                            limit.printed()
                        ),
                    ));
                }
            }
            None if !overcommit_allowed(name) => errs.push(field::required(
                &limits_path,
                "Limit must be set for non overcommitable resources",
            )),
            None => {}
        }
        if is_hugepages(name) {
            hugepages = true;
            validate_hugepages_value(name, e, &at, options, errs);
        }
        cpu_or_memory |= matches!(name, "cpu" | "memory");
    }
    if hugepages && !cpu_or_memory {
        errs.push(field::forbidden(path, "HugePages require cpu or memory"));
    }
    validate_claim_names(
        read::list(requirements, "claims"),
        claim_names,
        &path.child("claims"),
        errs,
    );
}

/// `validateResourceClaimNames`: each entry names a pod claim (and optionally one of its
/// requests), without repeating a claim or one of its requests.
fn validate_claim_names(
    claims: &[Value],
    pod_claims: &BTreeSet<&str>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (i, claim) in claims.iter().enumerate() {
        let at = path.index(i);
        let name = read::text(claim, "name");
        if name.is_empty() {
            errs.push(field::required(&at, ""));
            continue;
        }
        if seen.contains(name) {
            errs.push(field::duplicate(&at, name));
        } else {
            let request = read::text(claim, "request");
            let mut key = name.to_owned();
            if !request.is_empty() {
                let request_path = at.child("request");
                for msg in names::is_dns1123_label(request) {
                    errs.push(field::invalid(&request_path, request, &msg));
                }
                key = format!("{name}/{request}");
            }
            if seen.contains(&key) {
                errs.push(field::duplicate(&at, key.as_str()));
            } else if request.is_empty() {
                let prefix = format!("{name}/");
                for _ in seen
                    .range(prefix.clone()..)
                    .take_while(|k| k.starts_with(&prefix))
                {
                    errs.push(field::duplicate(&at, name));
                }
            }
            seen.insert(key);
        }
        if !pod_claims.contains(name) {
            let mut e = field::not_found(&at, name);
            e.detail = if pod_claims.is_empty() {
                "must be one of the names in pod.spec.resourceClaims which is empty".to_owned()
            } else {
                let listed: Vec<&str> = pod_claims.iter().copied().collect();
                format!(
                    "must be one of the names in pod.spec.resourceClaims: {}",
                    listed.join(", ")
                )
            };
            errs.push(e);
        }
    }
}

/// `validateResizePolicy`: each of cpu and memory at most once, with a known restart policy,
/// which must be `NotRequired` when the pod never restarts. Most errors are reported on the
/// list, without the item's index.
pub(super) fn validate_resize_policy(
    policies: &[Value],
    path: &Path,
    pod_restart_policy: &str,
    errs: &mut ErrorList,
) {
    let mut seen = HashSet::new();
    for (i, policy) in policies.iter().enumerate() {
        let resource = read::text(policy, "resourceName");
        if !seen.insert(resource) {
            errs.push(field::duplicate(&path.index(i), resource));
        }
        match resource {
            "cpu" | "memory" => {}
            "" => errs.push(field::required(path, "")),
            other => errs.push(field::not_supported(path, other, &["cpu", "memory"])),
        }
        let restart = read::text(policy, "restartPolicy");
        match restart {
            "NotRequired" | "RestartContainer" => {}
            "" => errs.push(field::required(path, "")),
            other => errs.push(field::not_supported(
                path,
                other,
                &["NotRequired", "RestartContainer"],
            )),
        }
        if pod_restart_policy == "Never" && restart != "NotRequired" {
            errs.push(field::invalid(
                path,
                restart,
                "must be 'NotRequired' when `restartPolicy` is 'Never'",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::core::resources::is_extended;

    #[test]
    fn names_by_kind() {
        assert!(is_extended("example.com/gpu"));
        assert!(!is_extended("kubernetes.io/foo"));
        assert!(!is_extended("cpu"));
        assert!(overcommit_allowed("cpu"));
        assert!(!overcommit_allowed("hugepages-2Mi"));
        assert!(!overcommit_allowed("example.com/gpu"));
    }

    /// `resourcequotas` is a standard resource name (`core.ResourceQuotas`), so a container
    /// asking for it hears only that it is not a container resource.
    #[test]
    fn standard_names_are_the_servers() {
        let mut errs = ErrorList::new();
        validate_name(
            NameRule::Container,
            "resourcequotas",
            &Path::new("r"),
            &mut errs,
        );
        let details: Vec<&str> = errs.iter().map(|e| e.detail.as_str()).collect();
        assert_eq!(details, ["must be a standard resource for containers"]);
    }

    #[test]
    fn hugepages_divide_into_pages() {
        let q = |t: &str| Quantity::parse(t).unwrap();
        assert!(divisible_into_pages("hugepages-2Mi", q("4Mi")));
        assert!(!divisible_into_pages("hugepages-2Mi", q("1Mi")));
        assert!(!divisible_into_pages("hugepages-bad", q("1Mi")));
        assert!(divisible_into_pages("hugepages-1Gi", q("0")));
    }
}
