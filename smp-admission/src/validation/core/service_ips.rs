//! The address fields of a Service: `clusterIP`/`clusterIPs`, `ipFamilies` and
//! `ipFamilyPolicy` as created (`ValidateServiceClusterIPsRelatedFields`) and how they may move
//! between single- and dual-stack on update (`validateUpgradeDowngradeClusterIPs` and
//! `validateUpgradeDowngradeIPFamilies`).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::ip::{parse_ip_sloppy, validate_legacy_ip};
use crate::validation::read;

const NONE: &str = "None";

/// The address fields of one Service's spec.
pub(super) struct Addresses<'a> {
    pub kind: &'a str,
    pub cluster_ip: &'a str,
    pub cluster_ips: Vec<&'a str>,
    pub families: Vec<&'a str>,
    pub policy: Option<&'a str>,
}

impl<'a> Addresses<'a> {
    pub(super) fn of(spec: &'a Value) -> Addresses<'a> {
        Addresses {
            kind: read::text(spec, "type"),
            cluster_ip: read::text(spec, "clusterIP"),
            cluster_ips: read::strings(spec, "clusterIPs").collect(),
            families: read::strings(spec, "ipFamilies").collect(),
            policy: read::opt_text(spec, "ipFamilyPolicy"),
        }
    }

    /// Headless means `clusterIPs` is exactly `["None"]` (not `clusterIP`).
    pub(super) fn headless(&self) -> bool {
        self.cluster_ips.len() == 1 && self.cluster_ips[0] == NONE
    }

    pub(super) fn external_name(&self) -> bool {
        self.kind == "ExternalName"
    }

    fn ips_value(&self) -> BadValue {
        string_list(&self.cluster_ips)
    }

    fn families_value(&self) -> BadValue {
        string_list(&self.families)
    }

    fn policy_value(&self) -> BadValue {
        self.policy
            .map_or(BadValue::Json(Value::Null), |p| BadValue::Str(p.to_owned()))
    }

    fn single_stack(&self) -> bool {
        self.policy == Some("SingleStack")
    }
}

fn string_list(items: &[&str]) -> BadValue {
    BadValue::Json(Value::Array(
        items
            .iter()
            .map(|s| Value::String((*s).to_owned()))
            .collect(),
    ))
}

/// `ValidateServiceClusterIPsRelatedFields`: nothing for ExternalName; otherwise `clusterIP`
/// and `clusterIPs` agree, the families and policy are known values, the IPs parse (or were
/// already there), there are at most two of one family each, and each matches its family.
pub(super) fn validate_related_fields(
    new: &Addresses,
    old: Option<&Addresses>,
    errs: &mut ErrorList,
) {
    if new.external_name() {
        return;
    }
    let spec = Path::new("spec");
    let ips_path = spec.child("clusterIPs");
    let families_path = spec.child("ipFamilies");
    if !new.cluster_ip.is_empty() {
        if new.cluster_ips.is_empty() {
            errs.push(field::required(&ips_path, ""));
        } else if new.cluster_ips[0] != new.cluster_ip {
            errs.push(field::invalid(
                &ips_path,
                new.ips_value(),
                "first value must match `clusterIP`",
            ));
        }
    } else if !new.cluster_ips.is_empty() {
        errs.push(field::invalid(
            &ips_path,
            new.ips_value(),
            "must be empty when `clusterIP` is not specified",
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, family) in new.families.iter().enumerate() {
        let at = families_path.index(i);
        if !matches!(*family, "IPv4" | "IPv6") {
            errs.push(field::not_supported(&at, *family, &["IPv4", "IPv6"]));
        }
        if !seen.insert(*family) {
            errs.push(field::duplicate(&at, *family));
        }
    }
    if let Some(policy) = new.policy
        && !matches!(
            policy,
            "SingleStack" | "PreferDualStack" | "RequireDualStack"
        )
    {
        errs.push(field::not_supported(
            &spec.child("ipFamilyPolicy"),
            policy,
            &["PreferDualStack", "RequireDualStack", "SingleStack"],
        ));
    }
    let existing: Vec<&str> = old.map(|o| o.cluster_ips.clone()).unwrap_or_default();
    let mut bad_ips = false;
    for (i, ip) in new.cluster_ips.iter().enumerate() {
        if i == 0 && *ip == NONE {
            if new.cluster_ips.len() > 1 {
                bad_ips = true;
                errs.push(field::invalid(
                    &ips_path,
                    new.ips_value(),
                    "'None' must be the first and only value",
                ));
            }
            continue;
        }
        let before = errs.len();
        validate_legacy_ip(&ips_path.index(i), ip, &existing, errs);
        bad_ips |= errs.len() != before;
    }
    if new.cluster_ips.len() > 2 {
        errs.push(field::invalid(
            &ips_path,
            new.ips_value(),
            "may only hold up to 2 values",
        ));
    }
    if bad_ips {
        return;
    }
    if new.cluster_ips.len() > 1 {
        // Both families must be present; every entry parses at this point (a "None" first
        // with others was caught above).
        let parsed: Vec<_> = new
            .cluster_ips
            .iter()
            .filter_map(|ip| parse_ip_sloppy(ip))
            .collect();
        let dual = parsed.iter().any(|ip| ip.is_v6()) && parsed.iter().any(|ip| !ip.is_v6());
        if !dual {
            errs.push(field::invalid(
                &ips_path,
                new.ips_value(),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
    if !new.headless() && !new.cluster_ips.is_empty() && !new.families.is_empty() {
        for (i, (ip, family)) in new.cluster_ips.iter().zip(&new.families).enumerate() {
            let v6 = parse_ip_sloppy(ip).is_some_and(|p| p.is_v6());
            let wanted = match *family {
                "IPv4" if v6 => "IPv4",
                "IPv6" if !v6 => "IPv6",
                _ => continue,
            };
            errs.push(field::invalid(
                &ips_path.index(i),
                *ip,
                &format!("expected an {wanted} value as indicated by `ipFamilies[{i}]`"),
            ));
        }
    }
}

/// `validateUpgradeDowngradeClusterIPs`: the primary cluster IP never changes once set, and
/// releasing the secondary one needs `ipFamilyPolicy: SingleStack`.
pub(super) fn validate_cluster_ips_change(new: &Addresses, old: &Addresses, errs: &mut ErrorList) {
    if new.external_name() || old.external_name() || (old.headless() && new.headless()) {
        return;
    }
    let ips = Path::new("spec");
    let ips = ips.child("clusterIPs");
    let first = ips.index(0);
    let changed = "may not change once set";
    let (n, o) = (&new.cluster_ips, &old.cluster_ips);
    if o.len() == n.len() {
        for (i, ip) in o.iter().enumerate() {
            if *ip != n[i] {
                errs.push(field::invalid(&ips.index(i), new.ips_value(), changed));
            }
        }
    } else if o.len() > n.len() {
        if n.is_empty() {
            errs.push(field::invalid(
                &first,
                new.ips_value(),
                "primary clusterIP can not be unset",
            ));
        }
        if !o.is_empty() && !n.is_empty() && n[0] != o[0] {
            errs.push(field::invalid(&first, new.ips_value(), changed));
        }
        if n.len() == 1 && !new.single_stack() {
            errs.push(field::invalid(
                &Path::names(&["spec", "ipFamilyPolicy"]),
                new.policy_value(),
                "must be set to 'SingleStack' when releasing the secondary clusterIP",
            ));
        }
    } else if !o.is_empty() && n[0] != o[0] {
        errs.push(field::invalid(&first, new.ips_value(), changed));
    }
}

/// `validateUpgradeDowngradeIPFamilies`: the primary family never changes, and releasing the
/// secondary needs `SingleStack`. Upstream reports some of these with the `clusterIPs` list as
/// the value and always at `ipFamilies[0]`; kept.
pub(super) fn validate_families_change(new: &Addresses, old: &Addresses, errs: &mut ErrorList) {
    if new.external_name()
        || old.external_name()
        || new.headless() != old.headless()
        || new.headless()
    {
        return;
    }
    let first = Path::names(&["spec", "ipFamilies"]);
    let first = first.index(0);
    let changed = "may not change once set";
    let (n, o) = (&new.families, &old.families);
    if o.len() == n.len() {
        for (i, family) in o.iter().enumerate() {
            if *family != n[i] {
                errs.push(field::invalid(&first, new.families_value(), changed));
            }
        }
    } else if o.len() > n.len() {
        if new.cluster_ips.is_empty() {
            errs.push(field::invalid(
                &first,
                new.families_value(),
                "primary ipFamily can not be unset",
            ));
        }
        if !n.is_empty() && n[0] != o[0] {
            errs.push(field::invalid(&first, new.ips_value(), changed));
        }
        if n.len() == 1 && !new.single_stack() {
            errs.push(field::invalid(
                &Path::names(&["spec", "ipFamilyPolicy"]),
                new.policy_value(),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if !o.is_empty() && !n.is_empty() && n[0] != o[0] {
        errs.push(field::invalid(&first, new.ips_value(), changed));
    }
}
