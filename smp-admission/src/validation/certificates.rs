//! The `certificates.k8s.io` group: CertificateSigningRequest
//! (`ValidateCertificateSigningRequestCreate`, `ValidateCertificateSigningRequestUpdate` of
//! v1.34, as the registry strategy calls them).
//!
//! The strategy creates a request with its status cleared (and its requester set from the
//! request's user, which is not known here), and on update through the main resource it
//! puts the old spec and status back: only metadata can change there, and the old spec and
//! status are checked again with the leniencies the old object earns.
//!
//! Of `spec.request` only the PEM layer is checked: a first block that is a `CERTIFICATE
//! REQUEST` is taken as valid. The server also parses the PKCS#10 request in it and checks
//! its signature, which needs an X.509/ASN.1 parser and signature verification this crate
//! does not have.
//!
//! ClusterTrustBundle (v1beta1) is not here: its API is off by default in v1.34 (the
//! `ClusterTrustBundle` gate is beta and off).

use serde_json::Value;

use super::field::{self, BadValue, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::{validate_object_meta, validate_object_meta_update};
use super::names;
use super::pem;
use super::read::{self, view};
use super::seen::Seen;

/// The certificates kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "certificates.k8s.io",
    kind: "CertificateSigningRequest",
    namespaced: false,
    create: csr_create,
    update: csr_update,
}];

/// The key usages a request may ask for, sorted as the server lists them.
const USAGES: [&str; 23] = [
    "any",
    "cert sign",
    "client auth",
    "code signing",
    "content commitment",
    "crl sign",
    "data encipherment",
    "decipher only",
    "digital signature",
    "email protection",
    "encipher only",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "key agreement",
    "key encipherment",
    "microsoft sgc",
    "netscape sgc",
    "ocsp signing",
    "s/mime",
    "server auth",
    "signing",
    "timestamping",
];

/// The signer of requests from before signer names, refused in v1 unless already there.
const LEGACY_SIGNER: &str = "kubernetes.io/legacy-unknown";
/// Conditions that, when present, may only be `True`.
const TRUE_ONLY_CONDITIONS: [&str; 3] = ["Approved", "Denied", "Failed"];
const ALL_STATUSES: [&str; 3] = ["False", "True", "Unknown"];
const MIN_EXPIRATION_SECONDS: i64 = 600;

view! {
    /// A request's spec.
    struct Spec {
        request: "request",
        usages: "usages",
        signer_name: "signerName",
        expiration_seconds: "expirationSeconds",
    }
}

/// Leniencies an update earns from what the old object already had.
#[derive(Debug, Default, Clone, Copy)]
struct Options {
    both_approved_and_denied: bool,
    legacy_signer_name: bool,
    duplicate_condition_types: bool,
    empty_condition_type: bool,
    unknown_usages: bool,
    duplicate_usages: bool,
}

fn spec_of(obj: &Value) -> &Value {
    obj.get("spec").unwrap_or(&Value::Null)
}

fn conditions_of(obj: &Value) -> &[Value] {
    obj.get("status")
        .map(|s| read::list(s, "conditions"))
        .unwrap_or_default()
}

fn usages_of(obj: &Value) -> Vec<&str> {
    read::list(spec_of(obj), "usages")
        .iter()
        .map(|u| u.as_str().unwrap_or(""))
        .collect()
}

fn condition_types(obj: &Value) -> impl Iterator<Item = &str> {
    conditions_of(obj).iter().map(|c| read::text(c, "type"))
}

fn has_duplicates<'a>(items: impl Iterator<Item = &'a str>) -> bool {
    let mut seen = Seen::new();
    items.into_iter().any(|item| !seen.insert(item))
}

/// `getValidationOptions` for an update from `old`.
fn options_from(old: &Value) -> Options {
    let types = || condition_types(old);
    Options {
        both_approved_and_denied: types().any(|t| t == "Approved")
            && types().any(|t| t == "Denied"),
        legacy_signer_name: read::text(spec_of(old), "signerName") == LEGACY_SIGNER,
        duplicate_condition_types: has_duplicates(types()),
        empty_condition_type: types().any(str::is_empty),
        unknown_usages: usages_of(old).iter().any(|u| !USAGES.contains(u)),
        duplicate_usages: has_duplicates(usages_of(old).into_iter()),
    }
}

/// Requests may have any name.
fn any_name(_name: &str, _prefix: bool) -> Vec<String> {
    Vec::new()
}

fn csr_create(obj: &Value) -> ErrorList {
    // The strategy cleared the status: nothing of it is checked.
    validate(obj, spec_of(obj), &[], Options::default())
}

/// The main resource's update: the old spec and status, checked with the old object's
/// leniencies, then the metadata update. Nothing of the spec or status can differ, so the
/// checks on changed conditions and certificates never fire here.
fn csr_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate(new, spec_of(old), conditions_of(old), options_from(old));
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    errs
}

/// `validateCertificateSigningRequest` on the metadata of `obj` and the given spec and
/// conditions.
fn validate(obj: &Value, spec: &Value, conditions: &[Value], opts: Options) -> ErrorList {
    let mut errs =
        validate_object_meta(obj.get("metadata"), false, any_name, &Path::new("metadata"));
    let spec = Spec::of(spec);
    let spec_path = Path::new("spec");
    validate_request(spec.request.text(), &spec_path.child("request"), &mut errs);
    let usages_path = spec_path.child("usages");
    let usages: Vec<&str> = spec
        .usages
        .list()
        .iter()
        .map(|u| u.as_str().unwrap_or(""))
        .collect();
    if usages.is_empty() {
        errs.push(field::required(&usages_path, ""));
    }
    if !opts.unknown_usages {
        for (i, usage) in usages.iter().enumerate() {
            if !USAGES.contains(usage) {
                errs.push(field::not_supported(&usages_path.index(i), *usage, &USAGES));
            }
        }
    }
    if !opts.duplicate_usages {
        let mut seen = Seen::new();
        for (i, usage) in usages.iter().enumerate() {
            if !seen.insert(usage) {
                errs.push(field::duplicate(&usages_path.index(i), *usage));
            }
        }
    }
    let signer_path = spec_path.child("signerName");
    let signer = spec.signer_name.text();
    if !opts.legacy_signer_name && signer == LEGACY_SIGNER {
        errs.push(field::invalid(
            &signer_path,
            signer,
            "the legacy signerName is not allowed via this API version",
        ));
    } else {
        validate_signer_name(&signer_path, signer, &mut errs);
    }
    if let Some(seconds) = spec.expiration_seconds.opt_int()
        && seconds < MIN_EXPIRATION_SECONDS
    {
        errs.push(field::invalid(
            &spec_path.child("expirationSeconds"),
            seconds,
            "may not specify a duration less than 600 seconds (10 minutes)",
        ));
    }
    validate_conditions(conditions, opts, &mut errs);
    errs
}

/// The PEM layer of `certificates.ParseCSR`: the first block must be a certificate
/// request. `request` is the JSON's base64 of the PEM bytes.
fn validate_request(request: &str, path: &Path, errs: &mut ErrorList) {
    // Bytes that are not base64 would not have decoded: the field reads as empty.
    let bytes = pem::decode_base64(request.as_bytes()).unwrap_or_default();
    let is_request = pem::decode(&bytes).is_some_and(|b| b.kind == "CERTIFICATE REQUEST");
    if !is_request {
        // A `[]byte` prints as its JSON: the base64 string.
        let value = BadValue::Json(Value::from(pem::encode_base64(&bytes)));
        errs.push(field::invalid(
            path,
            value,
            "PEM block type must be CERTIFICATE REQUEST",
        ));
    }
}

/// `ValidateSignerName`: `<domain>/<path>`, the domain of two DNS labels or more, the path
/// of DNS subdomains separated by dots, within the lengths a namespaced name needs.
pub(crate) fn validate_signer_name(path: &Path, signer: &str, errs: &mut ErrorList) {
    const MAX_DOMAIN: usize = names::DNS1123_SUBDOMAIN_MAX_LENGTH;
    const MAX_SIGNER: usize =
        MAX_DOMAIN + names::DNS1123_SUBDOMAIN_MAX_LENGTH + names::DNS1123_LABEL_MAX_LENGTH + 2;
    if signer.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    let (domain, signer_path) = match signer.split_once('/') {
        Some((domain, rest)) if !rest.contains('/') => (domain, rest),
        _ => {
            errs.push(field::invalid(
                path,
                signer,
                "must be a fully qualified domain and path of the form 'example.com/signer-name'",
            ));
            return;
        }
    };
    if domain.len() > MAX_DOMAIN {
        errs.push(field::too_long(path, MAX_DOMAIN as i64));
    }
    // Only the first bad label is reported: the rest would repeat it.
    if let Some((label, msgs)) = domain
        .split('.')
        .map(|l| (l, names::is_dns1123_label(l)))
        .find(|(_, msgs)| !msgs.is_empty())
    {
        for msg in msgs {
            errs.push(field::invalid(path, domain, &label_error(label, &msg)));
        }
    }
    if !domain.contains('.') {
        errs.push(field::invalid(
            path,
            domain,
            "should be a domain with at least two segments separated by dots",
        ));
    }
    if let Some((label, msgs)) = signer_path
        .split('.')
        .map(|l| (l, names::is_dns1123_subdomain(l)))
        .find(|(_, msgs)| !msgs.is_empty())
    {
        for msg in msgs {
            errs.push(field::invalid(path, signer_path, &label_error(label, &msg)));
        }
    }
    if signer.len() > MAX_SIGNER {
        errs.push(field::too_long(path, MAX_SIGNER as i64));
    }
}

/// `validating label "<label>": <message>`, the label quoted as Go's `%q` quotes it.
fn label_error(label: &str, msg: &str) -> String {
    let mut out = String::from("validating label ");
    field::go_quote(label, &mut out);
    out.push_str(": ");
    out.push_str(msg);
    out
}

/// `validateConditions`: each with a type and a status the type allows, Approved and Denied
/// not both, no type twice (each unless the old object already broke the rule).
fn validate_conditions(conditions: &[Value], opts: Options, errs: &mut ErrorList) {
    let path = Path::names(&["status", "conditions"]);
    let mut seen = Seen::new();
    let (mut approved, mut denied) = (false, false);
    for (i, condition) in conditions.iter().enumerate() {
        let at = path.index(i);
        let kind = read::text(condition, "type");
        if !opts.empty_condition_type && kind.is_empty() {
            errs.push(field::required(&at.child("type"), ""));
        }
        let status = read::text(condition, "status");
        let allowed: &[&str] = if TRUE_ONLY_CONDITIONS.contains(&kind) {
            &["True"]
        } else {
            &ALL_STATUSES
        };
        if status.is_empty() {
            errs.push(field::required(&at.child("status"), ""));
        } else if !allowed.contains(&status) {
            errs.push(field::not_supported(&at.child("status"), status, allowed));
        }
        if !opts.both_approved_and_denied {
            let clash = match kind {
                "Approved" => {
                    approved = true;
                    denied
                }
                "Denied" => {
                    denied = true;
                    approved
                }
                _ => false,
            };
            if clash {
                errs.push(field::invalid(
                    &path,
                    kind,
                    "Approved and Denied conditions are mutually exclusive",
                ));
            }
        }
        if !opts.duplicate_condition_types && !seen.insert(kind) {
            errs.push(field::duplicate(&at.child("type"), kind));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn csr(request: &str, signer: &str) -> Value {
        json!({"metadata": {"name": "Any_Name"}, "spec": {"request": request,
            "signerName": signer, "usages": ["client auth"]}})
    }

    #[test]
    fn the_request_must_be_a_certificate_request_block() {
        let pem = pem::encode_base64(
            b"-----BEGIN CERTIFICATE REQUEST-----\nAAEC\n-----END CERTIFICATE REQUEST-----\n",
        );
        assert!(csr_create(&csr(&pem, "example.com/signer")).is_empty());
        let other =
            pem::encode_base64(b"-----BEGIN CERTIFICATE-----\nAAEC\n-----END CERTIFICATE-----\n");
        let errs = csr_create(&csr(&other, "example.com/signer"));
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.request");
        assert!(
            errs[0]
                .to_string()
                .starts_with(&format!("spec.request: Invalid value: \"{other}\""))
        );
    }

    #[test]
    fn signer_names_report_the_first_bad_label() {
        let mut errs = ErrorList::new();
        validate_signer_name(&Path::new("s"), "Example.com/Bad.x", &mut errs);
        let texts: Vec<String> = errs.iter().map(|e| e.detail.clone()).collect();
        assert_eq!(texts.len(), 2);
        assert!(texts[0].starts_with("validating label \"Example\": a lowercase RFC 1123 label"));
        assert!(texts[1].starts_with("validating label \"Bad\": a lowercase RFC 1123 subdomain"));
    }

    #[test]
    fn an_update_checks_the_old_spec_with_its_leniencies() {
        let old = json!({"metadata": {"name": "a", "resourceVersion": "1"},
            "spec": {"request": "", "signerName": LEGACY_SIGNER, "usages": ["x", "x"]},
            "status": {"conditions": [{"type": "Approved", "status": "True"},
                {"type": "Denied", "status": "True"}]}});
        let new = json!({"metadata": {"name": "a", "resourceVersion": "1", "labels": {"a": "b"}},
            "spec": {"usages": []}});
        let fields: Vec<String> = csr_update(&new, &old)
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(fields, ["spec.request"]);
    }
}
