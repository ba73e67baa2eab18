//! LimitRange (`ValidateLimitRange`): each limit's type, its resource names, and how its
//! bounds order. Go walks the resource maps in random order; here keys are walked sorted.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

use super::resources::{
    as_f64, is_native, printed, validate_container_resource_name, validate_resource_name,
};
use crate::quantity::Quantity;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::validate_object_meta;
use crate::validation::names;
use crate::validation::read;

pub(super) fn limit_range(lr: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        lr.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let limits_path = Path::names(&["spec", "limits"]);
    let limits = lr
        .pointer("/spec/limits")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut types = BTreeSet::new();
    for (i, limit) in limits.iter().enumerate() {
        validate_limit(limit, &limits_path.index(i), &mut types, &mut errs);
    }
    errs
}

/// The strategy validates an update exactly as a create.
pub(super) fn limit_range_update(new: &Value, _old: &Value) -> ErrorList {
    limit_range(new)
}

type Bounds<'a> = BTreeMap<&'a str, &'a str>;

fn validate_limit<'a>(
    limit: &'a Value,
    path: &Path,
    types: &mut BTreeSet<&'a str>,
    errs: &mut ErrorList,
) {
    let kind = read::text(limit, "type");
    let type_path = path.child("type");
    let before = errs.len();
    for msg in names::is_qualified_name(kind) {
        errs.push(field::invalid(&type_path, kind, &msg));
    }
    let standard = matches!(kind, "Pod" | "Container" | "PersistentVolumeClaim");
    if errs.len() == before && !kind.contains('/') && !standard {
        errs.push(field::invalid(
            &type_path,
            kind,
            "must be a standard limit type or fully qualified",
        ));
    }
    if !types.insert(kind) {
        errs.push(field::duplicate(&type_path, kind));
    }
    let container_names = matches!(kind, "Pod" | "Container");
    let collect = |member: &str, errs: &mut ErrorList| -> Bounds<'a> {
        let member_path = path.child(member);
        let mut out = Bounds::new();
        for (k, v) in read::object_or_empty(limit, member) {
            if container_names {
                validate_container_resource_name(k, &member_path.key(k), errs);
            } else {
                validate_resource_name(k, &member_path.key(k), errs);
            }
            out.insert(k.as_str(), v.as_str().unwrap_or("0"));
        }
        out
    };
    let max = collect("max", errs);
    let min = collect("min", errs);
    let (mut defaults, mut requests) = (Bounds::new(), Bounds::new());
    if kind == "Pod" {
        for member in ["default", "defaultRequest"] {
            if !read::object_or_empty(limit, member).is_empty() {
                errs.push(field::forbidden(
                    &path.child(member),
                    "may not be specified when `type` is 'Pod'",
                ));
            }
        }
    } else {
        defaults = collect("default", errs);
        requests = collect("defaultRequest", errs);
    }
    if kind == "PersistentVolumeClaim"
        && !min.contains_key("storage")
        && !max.contains_key("storage")
    {
        errs.push(field::required(
            &path.child("limits"),
            "either minimum or maximum storage value is required, but neither was provided",
        ));
    }
    let ratios = collect("maxLimitRequestRatio", errs);
    let keys: BTreeSet<&str> = [&max, &min, &defaults, &requests, &ratios]
        .iter()
        .flat_map(|m| m.keys().copied())
        .collect();
    for k in keys {
        compare_bounds(
            k,
            [
                max.get(k),
                min.get(k),
                defaults.get(k),
                requests.get(k),
                ratios.get(k),
            ],
            path,
            errs,
        );
    }
}

/// One bound of one resource: its value and its canonical text.
struct Bound {
    q: Quantity,
    shown: String,
}

impl Bound {
    fn of(text: Option<&&str>) -> Option<Bound> {
        let text = *text?;
        Some(Bound {
            q: Quantity::parse(text).ok()?,
            shown: printed(text),
        })
    }
}

fn greater(a: &Option<Bound>, b: &Option<Bound>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a.q.compare(b.q).is_gt())
}

fn shown(b: &Option<Bound>) -> &str {
    b.as_ref().map_or("", |b| b.shown.as_str())
}

/// The per-resource ordering checks: min <= defaultRequest <= default <= max, the ratio at
/// least 1 and at most max/min, and default = defaultRequest for resources that may not
/// overcommit.
fn compare_bounds(k: &str, found: [Option<&&str>; 5], path: &Path, errs: &mut ErrorList) {
    let [max, min, default, request, ratio] = found.map(Bound::of);
    let mut at = |member: &str, value: &str, msg: String| {
        let p = path.child(member);
        errs.push(field::invalid(&p.key(k), value, &msg));
    };
    let (mx, mn, d, r) = (shown(&max), shown(&min), shown(&default), shown(&request));
    if greater(&min, &max) {
        at(
            "min",
            mn,
            format!("min value {mn} is greater than max value {mx}"),
        );
    }
    if greater(&min, &request) {
        at(
            "defaultRequest",
            r,
            format!("min value {mn} is greater than default request value {r}"),
        );
    }
    if greater(&request, &max) {
        at(
            "defaultRequest",
            r,
            format!("default request value {r} is greater than max value {mx}"),
        );
    }
    if greater(&request, &default) {
        at(
            "defaultRequest",
            r,
            format!("default request value {r} is greater than default limit value {d}"),
        );
    }
    if greater(&min, &default) {
        at(
            "default",
            mn,
            format!("min value {mn} is greater than default value {d}"),
        );
    }
    if greater(&default, &max) {
        at(
            "default",
            mx,
            format!("default value {d} is greater than max value {mx}"),
        );
    }
    if let Some(ratio) = &ratio {
        let text = ratio.shown.as_str();
        if Quantity::parse("1").is_ok_and(|one| ratio.q.compare(one).is_lt()) {
            at(
                "maxLimitRequestRatio",
                text,
                format!("ratio {text} is less than 1"),
            );
        }
        if let (Some(_), Some(_)) = (&min, &max) {
            let limit = as_f64(mx) / as_f64(mn);
            if as_f64(text) > limit {
                let mut msg = format!("ratio {text} is greater than max/min = ");
                let _ = write!(msg, "{limit:.6}");
                at("maxLimitRequestRatio", text, msg);
            }
        }
    }
    let overcommit = is_native(k) && !k.starts_with("hugepages-");
    if let (false, Some(dq), Some(rq)) = (overcommit, &default, &request)
        && !dq.q.compare(rq.q).is_eq()
    {
        at(
            "defaultRequest",
            r,
            format!("default value {d} must equal to defaultRequest value {r} in {k}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ratio_above_max_over_min() {
        let lr = json!({"metadata": {"name": "l", "namespace": "d"}, "spec": {"limits": [{"type": "Container",
            "max": {"cpu": "100m"}, "min": {"cpu": "50m"}, "maxLimitRequestRatio": {"cpu": "3"}}]}});
        let errs: Vec<String> = limit_range(&lr).iter().map(|e| e.detail.clone()).collect();
        assert_eq!(errs, vec!["ratio 3 is greater than max/min = 2.000000"]);
    }
}
