//! `spec.resourceClaims` (`validatePodResourceClaims`): dynamic resource claims the pod's
//! containers may use, each named once and pointing at a claim or a claim template.

use std::collections::BTreeSet;

use serde_json::Value;

use super::MIRROR_ANNOTATION;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

pub(super) fn validate_resource_claims(
    spec: &Value,
    meta: Option<&Value>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let claims_path = path.child("resourceClaims");
    let is_mirror = meta
        .and_then(|m| m.get("annotations"))
        .is_some_and(|a| a.get(MIRROR_ANNOTATION).is_some());
    let mut names_seen = BTreeSet::new();
    for (i, claim) in read::list(spec, "resourceClaims").iter().enumerate() {
        if is_mirror {
            // Static pods cannot have claims; upstream reports it at the empty path `[]`.
            errs.push(field::forbidden(
                &Path::new(""),
                "static pods do not support resource claims",
            ));
            continue;
        }
        let at = claims_path.index(i);
        let name = read::text(claim, "name");
        let name_path = at.child("name");
        if name.is_empty() {
            errs.push(field::required(&name_path, ""));
        } else if names_seen.contains(name) {
            errs.push(field::duplicate(&name_path, name));
        } else {
            for msg in names::is_dns1123_label(name) {
                errs.push(field::invalid(&name_path, name, &msg));
            }
            names_seen.insert(name);
        }
        let claim_name = read::opt_text(claim, "resourceClaimName");
        let template_name = read::opt_text(claim, "resourceClaimTemplateName");
        if claim_name.is_some() && template_name.is_some() {
            errs.push(field::invalid(
                &at,
                BadValue::Json(claim.clone()),
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
            ));
        }
        if claim_name.is_none() && template_name.is_none() {
            errs.push(field::invalid(
                &at,
                BadValue::Json(claim.clone()),
                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
            ));
        }
        for (member, value) in [
            ("resourceClaimName", claim_name),
            ("resourceClaimTemplateName", template_name),
        ] {
            if let Some(value) = value {
                let member_path = at.child(member);
                for msg in names::is_dns1123_subdomain(value) {
                    errs.push(field::invalid(&member_path, value, &msg));
                }
            }
        }
    }
}
