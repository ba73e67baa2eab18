//! The pod-level resource defaults of a Pod (`defaultHugePagePodLimits` and
//! `defaultPodRequests`; PodLevelResources is beta and on in v1.34): a pod that sets limits
//! of its own gets requests from its containers' (cpu and memory), then from its limits, and
//! hugepage limits from its containers'.

use serde_json::{Map, Value};

use crate::quantity::Quantity;
use crate::value::{Object, child, items, text};

/// A resource list being aggregated: each member as the JSON it will be written as, and the
/// quantity it holds.
type Totals = Map<String, Value>;

fn quantity(value: &Value) -> Option<Quantity> {
    match value {
        Value::String(s) => Quantity::parse(s).ok(),
        Value::Number(n) => Quantity::parse(&n.to_string()).ok(),
        _ => None,
    }
}

/// Adds `list` into `totals`: a name not there yet is copied (its text kept), one there is
/// summed (and printed anew).
fn add(totals: &mut Totals, list: Option<&Map<String, Value>>) {
    for (name, value) in list.into_iter().flatten() {
        match (totals.get(name).and_then(quantity), quantity(value)) {
            (Some(total), Some(more)) => {
                let sum = (total + more).to_string();
                totals.insert(name.clone(), Value::String(sum));
            }
            (None, Some(_)) => {
                totals.insert(name.clone(), value.clone());
            }
            _ => {}
        }
    }
}

/// Keeps, for each name, the larger of `totals` and `other` (a copy of it).
fn max(totals: &mut Totals, other: &Totals) {
    for (name, value) in other {
        let larger = match (totals.get(name).and_then(quantity), quantity(value)) {
            (Some(current), Some(candidate)) => candidate.compare(current).is_gt(),
            (None, Some(_)) => true,
            _ => false,
        };
        if larger {
            totals.insert(name.clone(), value.clone());
        }
    }
}

/// What the pod's containers ask for together (`list`: `requests` or `limits`): the sum of
/// the containers and sidecars, or the most any init container needs beside the sidecars
/// started before it, whichever is larger.
fn aggregate(spec: &mut Object, list: &str) -> Totals {
    let of = |container: &Object| {
        container
            .get("resources")
            .and_then(|r| r.get(list))
            .and_then(Value::as_object)
            .cloned()
    };
    let mut sum = Totals::new();
    for container in items(spec, "containers") {
        add(&mut sum, of(container).as_ref());
    }
    let mut sidecars = Totals::new();
    let mut init_max = Totals::new();
    for container in items(spec, "initContainers") {
        let own = of(container);
        if text(container, "restartPolicy") == "Always" {
            add(&mut sum, own.as_ref());
            add(&mut sidecars, own.as_ref());
            max(&mut init_max, &sidecars);
        } else {
            let mut usage = own.unwrap_or_default();
            add(&mut usage, Some(&sidecars));
            max(&mut init_max, &usage);
        }
    }
    max(&mut sum, &init_max);
    sum
}

fn supported(name: &str) -> bool {
    matches!(name, "cpu" | "memory") || name.starts_with("hugepages-")
}

fn list_of(spec: &Object, list: &str) -> Map<String, Value> {
    spec.get("resources")
        .and_then(|r| r.get(list))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The pod-level defaults of `spec`, after the containers' requests were filled in from
/// their limits.
pub(super) fn pod_level(spec: &mut Object) {
    if !spec.get("resources").is_some_and(Value::is_object) {
        return;
    }
    let (limits, requests) = (list_of(spec, "limits"), list_of(spec, "requests"));
    if !limits.is_empty() || !requests.is_empty() {
        let mut new_limits = limits.clone();
        for (name, value) in aggregate(spec, "limits") {
            if name.starts_with("hugepages-")
                && !requests.contains_key(&name)
                && !new_limits.contains_key(&name)
            {
                new_limits.insert(name, value);
            }
        }
        if !new_limits.is_empty()
            && let Some(resources) = child(spec, "resources")
        {
            resources.insert("limits".into(), Value::Object(new_limits));
        }
    }
    let limits = list_of(spec, "limits");
    if limits.is_empty() {
        return;
    }
    let mut new_requests = requests;
    for (name, value) in aggregate(spec, "requests") {
        if !new_requests.contains_key(&name) && matches!(name.as_str(), "cpu" | "memory") {
            new_requests.insert(name, value);
        }
    }
    for (name, value) in limits {
        if !new_requests.contains_key(&name) && supported(&name) {
            new_requests.insert(name, value);
        }
    }
    if !new_requests.is_empty()
        && let Some(resources) = child(spec, "resources")
    {
        resources.insert("requests".into(), Value::Object(new_requests));
    }
}
