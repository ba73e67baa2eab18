//! The pod-level resource checks that reuse the container rules: `spec.resources`
//! (`validatePodResourceRequirements`, then `validatePodResourceConsistency`: the pod's
//! requests cover what its containers request, and no container's limit passes the pod's),
//! and `spec.overhead` (checked as a container's limits, `validateOverhead`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::PodOptions;
use super::resources::{NameRule, validate_resource_requirements};
use crate::quantity::Quantity;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

fn quantity(v: &Value) -> Option<Quantity> {
    match v {
        Value::String(s) => Quantity::parse(s).ok(),
        Value::Number(n) => Quantity::parse(&n.to_string()).ok(),
        _ => None,
    }
}

/// `spec.resources`: its names and quantities as the pod rule allows, then its consistency
/// with the containers (regular containers summed; the aggregate is simplified: init
/// containers are not counted).
pub(crate) fn validate_pod_resource_requirements(
    spec: &Value,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(resources) = spec.get("resources").filter(|r| r.is_object()) else {
        return errs;
    };
    let res_path = path.child("resources");
    validate_resource_requirements(
        resources,
        NameRule::Pod,
        &BTreeSet::new(),
        &res_path,
        options,
        &mut errs,
    );
    let mut total: BTreeMap<&str, Quantity> = BTreeMap::new();
    for ctr in read::list(spec, "containers") {
        let requests = read::object(ctr, "resources")
            .and_then(|r| r.get("requests"))
            .and_then(Value::as_object);
        for (k, v) in requests.into_iter().flatten() {
            if let Some(v) = quantity(v) {
                let sum = total.get(k.as_str()).map_or(v, |t| *t + v);
                total.insert(k.as_str(), sum);
            }
        }
    }
    let req_path = res_path.child("requests");
    for (name, aggregate) in &total {
        let pod = read::object(resources, "requests")
            .and_then(|r| r.get(*name))
            .and_then(quantity);
        if let Some(pod) = pod
            && aggregate.compare(pod) == std::cmp::Ordering::Greater
        {
            errs.push(field::invalid(
                &req_path.key(name),
                pod.to_string().as_str(),
                &format!(
                    "must be greater than or equal to aggregate container requests of {aggregate}"
                ),
            ));
        }
    }
    let containers_path = res_path.child("containers");
    for (i, ctr) in read::list(spec, "containers").iter().enumerate() {
        let limits = read::object(ctr, "resources")
            .and_then(|r| r.get("limits"))
            .and_then(Value::as_object);
        for (name, v) in limits.into_iter().flatten() {
            let pod = read::object(resources, "limits")
                .and_then(|l| l.get(name))
                .and_then(quantity);
            let (Some(c), Some(p)) = (quantity(v), pod) else {
                continue;
            };
            if c.compare(p) == std::cmp::Ordering::Greater {
                let at = containers_path.index(i);
                let at = at.key(name);
                errs.push(field::invalid(
                    &at.child("limits"),
                    c.to_string().as_str(),
                    &format!("must be less than or equal to pod limits of {p}"),
                ));
            }
        }
    }
    errs
}

/// `spec.overhead`, checked as the limits of a container's resources.
pub(crate) fn validate_overhead(spec: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errs = ErrorList::new();
    if let Some(overhead) = spec.get("overhead").filter(|o| o.is_object()) {
        let wrapped = serde_json::json!({ "limits": overhead });
        validate_resource_requirements(
            &wrapped,
            NameRule::Container,
            &BTreeSet::new(),
            &path.child("overhead"),
            options,
            &mut errs,
        );
    }
    errs
}
