//! ServiceCIDR (`ValidateServiceCIDR`, `ValidateServiceCIDRUpdate` of v1.34).
//!
//! A ServiceCIDR holds one CIDR or a dual-stack pair, each a subnet in canonical form (the
//! strict `IsValidCIDR`: the field is new, so the legacy leniency never applied). An update
//! keeps the CIDRs as they are, except that a single-stack object may gain a second family
//! (issues.k8s.io/131261): the first CIDR stays, and the pair is checked as on create. The
//! strategy prepares nothing, and its update runs the update check alone.

use serde_json::Value;

use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::ip_strict::{cidr_is_v6, validate_cidr};
use crate::validation::meta::{IMMUTABLE, validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read;

const CIDRS_PATH: [&str; 2] = ["spec", "cidrs"];

fn cidrs(obj: &Value) -> Vec<&str> {
    obj.get("spec")
        .map(|spec| read::list(spec, "cidrs"))
        .unwrap_or_default()
        .iter()
        .map(|c| c.as_str().unwrap_or(""))
        .collect()
}

/// The spec as Go prints the internal struct it refuses whole (`{"CIDRs":[...]}`).
fn printed_spec(cidrs: &[&str]) -> BadValue {
    let list = serde_json::to_string(cidrs).unwrap_or_else(|_| "null".to_owned());
    BadValue::Printed(format!("{{\"CIDRs\":{list}}}"))
}

pub(crate) fn service_cidr(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(&cidrs(obj), &mut errs);
    errs
}

/// The spec's checks: one or two CIDRs, two of different families, each a canonical subnet.
fn validate_spec(cidrs: &[&str], errs: &mut ErrorList) {
    let path = Path::names(&CIDRS_PATH);
    match cidrs {
        [] => {
            errs.push(field::required(&path, "at least one CIDR required"));
            return;
        }
        [first, second] => {
            let dual = matches!(
                (cidr_is_v6(first), cidr_is_v6(second)),
                (Some(a), Some(b)) if a != b
            );
            if !dual {
                errs.push(field::invalid(
                    &path,
                    printed_spec(cidrs),
                    "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
                ));
                return;
            }
        }
        [_] => {}
        _ => {
            errs.push(field::invalid(
                &path,
                printed_spec(cidrs),
                "may only hold up to 2 values",
            ));
            return;
        }
    }
    for (i, cidr) in cidrs.iter().enumerate() {
        validate_cidr(&path.index(i), cidr, errs);
    }
}

pub(crate) fn service_cidr_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let (new_cidrs, old_cidrs) = (cidrs(new), cidrs(old));
    let path = Path::names(&CIDRS_PATH);
    if new_cidrs.len() == old_cidrs.len() {
        for (i, (now, before)) in new_cidrs.iter().zip(&old_cidrs).enumerate() {
            if now != before {
                errs.push(field::invalid(&path.index(i), *now, IMMUTABLE));
            }
        }
    } else if let ([before], [first, _]) = (old_cidrs.as_slice(), new_cidrs.as_slice()) {
        if first != before {
            errs.push(field::invalid(&path.index(0), *first, IMMUTABLE));
        }
        validate_spec(&new_cidrs, &mut errs);
    } else {
        let list = Value::from(new_cidrs.clone());
        errs.push(field::invalid(&path, BadValue::Json(list), IMMUTABLE));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sc(cidrs: Value) -> Value {
        json!({"metadata": {"name": "a", "resourceVersion": "1"}, "spec": {"cidrs": cidrs}})
    }

    #[test]
    fn a_single_stack_object_may_gain_a_second_family() {
        let old = sc(json!(["10.0.0.0/24"]));
        assert!(service_cidr_update(&sc(json!(["10.0.0.0/24", "fd00::/64"])), &old).is_empty());
        let errs = service_cidr_update(&sc(json!(["10.0.1.0/24", "10.0.2.0/24"])), &old);
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["spec.cidrs[0]", "spec.cidrs"]);
        let errs = service_cidr_update(&sc(json!([])), &old);
        assert_eq!(
            errs[0].to_string(),
            "spec.cidrs: Invalid value: []: field is immutable"
        );
    }

    #[test]
    fn a_refused_spec_prints_as_the_internal_struct() {
        let errs = service_cidr(&sc(json!(["10.0.0.0/24", "10.1.0.0/24"])));
        assert!(errs[0].to_string().starts_with(
            "spec.cidrs: Invalid value: {\"CIDRs\":[\"10.0.0.0/24\",\"10.1.0.0/24\"]}: may specify"
        ));
    }
}
