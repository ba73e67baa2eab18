//! LimitRanger's validation (`Validate` of `plugin/pkg/admission/limitranger`): a new Pod's
//! containers and init containers, each (`Container` items) and summed as the pod's
//! (`Pod` items), and a claim's storage request (`PersistentVolumeClaim` items) within the
//! `min`, `max` and `maxLimitRequestRatio` of every LimitRange of the namespace. The first
//! range a write breaks refuses it with the server's 403, listing every constraint of that
//! range it breaks.
//!
//! Go walks a range's `min`/`max` maps in random order; here they are walked in key order,
//! so a refusal that lists several resources lists them sorted where the server's order
//! varies.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::super::Cluster;
use crate::quantity::{self, Quantity};

/// A resource list read into quantities, by name (entries that are not quantities are left
/// out: the server never stores them).
type List = BTreeMap<String, Quantity>;

fn list_of(v: Option<&Value>) -> List {
    v.and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.clone(), Quantity::parse(v.as_str()?).ok()?)))
        .collect()
}

fn get(list: &List, name: &str) -> Option<Quantity> {
    list.get(name).copied()
}

/// The largest value a quantity may have for its thousandths to fit in 64 bits
/// (`resource.MaxMilliValue`).
const MAX_MILLI_VALUE: i128 = (i64::MAX / 1000) as i128;

/// `Value()` of a quantity (rounded up), zero for an absent one.
fn value(q: Option<Quantity>) -> i128 {
    q.and_then(|q| q.scaled_up(0)).unwrap_or(0)
}

/// `MilliValue()` of a quantity (rounded up), zero for an absent one.
fn milli(q: Option<Quantity>) -> i128 {
    q.and_then(|q| q.scaled_up(-3)).unwrap_or(0)
}

/// `requestLimitEnforcedValues`: the three in thousandths when none is too large for it,
/// else in units.
fn comparable(
    request: Option<Quantity>,
    limit: Option<Quantity>,
    enforced: Quantity,
) -> (i128, i128, i128) {
    let enforced = Some(enforced);
    if [request, limit, enforced]
        .iter()
        .all(|q| value(*q) <= MAX_MILLI_VALUE)
    {
        (milli(request), milli(limit), milli(enforced))
    } else {
        (value(request), value(limit), value(enforced))
    }
}

/// A quantity as Go's `Quantity.String` prints it.
fn shown(q: Quantity) -> String {
    let text = q.to_string();
    quantity::canonical(&text).unwrap_or(text)
}

/// Which bound a range's item sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Min,
    Max,
}

/// A request or a limit as a constraint reads it.
struct Side {
    word: &'static str,
    quantity: Option<Quantity>,
    value: i128,
}

/// `minConstraint`, `maxConstraint` and, for claims (no `limits`), `maxRequestConstraint`:
/// the side the bound needs must be set (a minimum the request, a maximum the limit, a
/// claim's maximum the request), then each set side is held to the bound, in that order.
fn bound_constraint(
    bound: Bound,
    kind: &str,
    name: &str,
    enforced: Quantity,
    requests: &List,
    limits: Option<&List>,
) -> Option<String> {
    let request = get(requests, name);
    let limit = limits.and_then(|l| get(l, name));
    let (req, lim, allowed) = comparable(request, limit, enforced);
    let request = Side {
        word: "request",
        quantity: request,
        value: req,
    };
    let limit = Side {
        word: "limit",
        quantity: limit,
        value: lim,
    };
    let (word, sides) = match (bound, limits) {
        (Bound::Min, _) => ("minimum", [request, limit]),
        (Bound::Max, Some(_)) => ("maximum", [limit, request]),
        (Bound::Max, None) => ("maximum", [request, limit]),
    };
    let said = format!("{word} {name} usage per {kind} is {}", shown(enforced));
    if sides[0].quantity.is_none() {
        return Some(format!("{said}.  No {} is specified", sides[0].word));
    }
    let breaks = |v: i128| match bound {
        Bound::Min => v < allowed,
        Bound::Max => v > allowed,
    };
    sides.iter().find_map(|side| {
        let quantity = side.quantity.filter(|_| breaks(side.value))?;
        Some(format!("{said}, but {} is {}", side.word, shown(quantity)))
    })
}

fn ratio_constraint(
    kind: &str,
    name: &str,
    enforced: Quantity,
    requests: &List,
    limits: &List,
) -> Option<String> {
    let (request, limit) = (get(requests, name), get(limits, name));
    let (req, lim, _) = comparable(request, limit, enforced);
    let max = shown(enforced);
    if request.is_none() || req == 0 {
        return Some(format!(
            "{name} max limit to request ratio per {kind} is {max}, but no request is specified or request is 0"
        ));
    }
    if limit.is_none() || lim == 0 {
        return Some(format!(
            "{name} max limit to request ratio per {kind} is {max}, but no limit is specified or limit is 0"
        ));
    }
    let observed = lim as f64 / req as f64;
    let (compared, allowed) = if value(Some(enforced)) <= MAX_MILLI_VALUE {
        (observed * 1000.0, milli(Some(enforced)) as f64)
    } else {
        (observed, value(Some(enforced)) as f64)
    };
    (compared > allowed).then(|| {
        format!("{name} max limit to request ratio per {kind} is {max}, but provided ratio is {observed:.6}")
    })
}

/// The checks of one `min`/`max`/`maxLimitRequestRatio` item over a requests and limits pair.
fn check(
    item: &Map<String, Value>,
    kind: &str,
    requests: &List,
    limits: &List,
    errs: &mut Vec<String>,
) {
    for (bound, member) in [(Bound::Min, "min"), (Bound::Max, "max")] {
        for (name, q) in list_of(item.get(member)) {
            errs.extend(bound_constraint(
                bound,
                kind,
                &name,
                q,
                requests,
                Some(limits),
            ));
        }
    }
    for (name, q) in list_of(item.get("maxLimitRequestRatio")) {
        errs.extend(ratio_constraint(kind, &name, q, requests, limits));
    }
}

fn resources(container: &Value, member: &str) -> List {
    list_of(container.pointer(&format!("/resources/{member}")))
}

/// `addResourceList`: each of `other` added to `list` (a sum keeps the format of what `list`
/// held).
fn add_to(list: &mut List, other: &List) {
    for (name, q) in other {
        list.entry(name.clone())
            .and_modify(|sum| *sum = *sum + *q)
            .or_insert(*q);
    }
}

/// `maxResourceList`: each of `other` that is larger than `list`'s (or that `list` lacks).
fn max_into(list: &mut List, other: &List) {
    for (name, q) in other {
        list.entry(name.clone())
            .and_modify(|max| {
                if q.compare(*max).is_gt() {
                    *max = *q;
                }
            })
            .or_insert(*q);
    }
}

/// The pod's requests or limits (`member`) as the scheduler counts them, without overhead:
/// the containers' sum, sidecars (init containers that always restart) added to it, and
/// at least what each init container needs beside the sidecars started before it; with
/// pod-level resources (`PodLevelResources`, on in v1.34), the pod's cpu and memory instead.
fn pod_total(spec: &Value, member: &str) -> List {
    let items = |key: &str| {
        spec.get(key)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
    };
    let mut total = List::new();
    for c in items("containers") {
        add_to(&mut total, &resources(c, member));
    }
    let mut sidecars = List::new();
    let mut init_peak = List::new();
    for c in items("initContainers") {
        let own = resources(c, member);
        let needed = if c.get("restartPolicy").and_then(Value::as_str) == Some("Always") {
            add_to(&mut total, &own);
            add_to(&mut sidecars, &own);
            sidecars.clone()
        } else {
            let mut with_sidecars = own;
            add_to(&mut with_sidecars, &sidecars);
            with_sidecars
        };
        max_into(&mut init_peak, &needed);
    }
    max_into(&mut total, &init_peak);
    for (name, q) in list_of(spec.pointer(&format!("/resources/{member}"))) {
        if matches!(name.as_str(), "cpu" | "memory") {
            total.insert(name, q);
        }
    }
    total
}

fn pod_errors(range: &Value, pod: &Value) -> Vec<String> {
    let spec = pod.get("spec").unwrap_or(&Value::Null);
    let mut errs = Vec::new();
    for item in items_of(range) {
        match item.get("type").and_then(Value::as_str) {
            Some("Container") => {
                for key in ["containers", "initContainers"] {
                    for c in spec
                        .get(key)
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        let (requests, limits) = (resources(c, "requests"), resources(c, "limits"));
                        check(item, "Container", &requests, &limits, &mut errs);
                    }
                }
            }
            Some("Pod") => {
                let (requests, limits) = (pod_total(spec, "requests"), pod_total(spec, "limits"));
                check(item, "Pod", &requests, &limits, &mut errs);
            }
            _ => {}
        }
    }
    errs
}

fn claim_errors(range: &Value, claim: &Value) -> Vec<String> {
    let requests = list_of(claim.pointer("/spec/resources/requests"));
    let mut errs = Vec::new();
    for item in items_of(range) {
        if item.get("type").and_then(Value::as_str) != Some("PersistentVolumeClaim") {
            continue;
        }
        // A claim's limits are not the user's: the minimum reads the request alone, and the
        // maximum holds the request (`maxRequestConstraint`).
        for (bound, member) in [(Bound::Min, "min"), (Bound::Max, "max")] {
            for (name, q) in list_of(item.get(member)) {
                let kind = "PersistentVolumeClaim";
                errs.extend(bound_constraint(bound, kind, &name, q, &requests, None));
            }
        }
    }
    errs
}

fn items_of(range: &Value) -> impl Iterator<Item = &Map<String, Value>> {
    range
        .pointer("/spec/limits")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

/// The refusal of the first range `object` breaks: its errors as Go's aggregate prints them
/// (one alone, several in brackets).
pub(crate) fn validate(
    object: &Value,
    old: Option<&Value>,
    namespace: &str,
    subresource: &str,
    cluster: &dyn Cluster,
) -> Result<(), String> {
    let kind = (
        object.get("apiVersion").and_then(Value::as_str),
        object.get("kind").and_then(Value::as_str),
    );
    let pod = kind == (Some("v1"), Some("Pod"));
    let claim = kind == (Some("v1"), Some("PersistentVolumeClaim"));
    // A resize changes a running pod's resources; other pod updates cannot change them, and
    // other subresources are not checked.
    let supported = match (subresource, old.is_some()) {
        ("resize", true) => pod,
        ("", true) => claim,
        ("", false) => pod || claim,
        _ => false,
    };
    if !supported
        || old.is_some_and(|o| {
            o.pointer("/metadata/deletionTimestamp")
                .is_some_and(|t| !t.is_null())
        })
    {
        return Ok(());
    }
    for range in cluster.list("/limitranges", namespace) {
        let errs = if pod {
            pod_errors(&range, object)
        } else {
            claim_errors(&range, object)
        };
        match errs.len() {
            0 => {}
            1 => return Err(errs.into_iter().next().unwrap_or_default()),
            _ => return Err(format!("[{}]", errs.join(", "))),
        }
    }
    Ok(())
}
