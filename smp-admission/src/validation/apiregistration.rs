//! The `apiregistration.k8s.io` group: APIService (`ValidateAPIService`,
//! `ValidateAPIServiceUpdate` of kube-aggregator v0.34, as its registry strategy calls them).
//!
//! An APIService is named `<version>.<group>` and either local (no `service`: served by the
//! apiserver itself, so no TLS settings) or backed by a Service. The strategy sets the status
//! (create) or keeps the old one (update); the status is not validated on these paths. An
//! update checks the metadata update first, then the whole object.

use serde_json::Value;

use super::field::{self, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::{validate_object_meta, validate_object_meta_update};
use super::names;
use super::pem;
use super::read::{self, view};

/// The apiregistration kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[KindRules {
    group: "apiregistration.k8s.io",
    kind: "APIService",
    namespaced: false,
    create: api_service,
    update: api_service_update,
}];

/// The port a service reference gets when it names none (v1 defaulting).
const DEFAULT_PORT: i64 = 443;

view! {
    /// An APIService's spec.
    struct Spec {
        service: "service",
        group: "group",
        version: "version",
        insecure_skip_tls_verify: "insecureSkipTLSVerify",
        ca_bundle: "caBundle",
        group_priority_minimum: "groupPriorityMinimum",
        version_priority: "versionPriority",
    }
}

/// The name rule: a path segment, and exactly `<version>.<group>` (generated names too,
/// which therefore never pass).
fn name_rule(name: &str, required_name: &str) -> Vec<String> {
    let segment = names::name_is_path_segment(name, false);
    if !segment.is_empty() {
        return segment;
    }
    if name == required_name {
        return Vec::new();
    }
    let mut msg = String::from("must be `spec.version+\".\"+spec.group`: ");
    field::go_quote(required_name, &mut msg);
    vec![msg]
}

fn api_service(obj: &Value) -> ErrorList {
    let spec = Spec::of(obj.get("spec").unwrap_or(&Value::Null));
    let (group, version) = (spec.group.text(), spec.version.text());
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        false,
        |_, _| Vec::new(),
        &Path::new("metadata"),
    );
    // The name rule depends on the spec, which a `NameFn` cannot see: its errors are worked
    // out here and put first, where the metadata check reports the name's.
    let required_name = format!("{version}.{group}");
    let meta = obj.get("metadata").unwrap_or(&Value::Null);
    let mut name_errs = ErrorList::new();
    let meta_path = Path::new("metadata");
    for (key, value) in [
        ("generateName", read::text(meta, "generateName")),
        ("name", read::text(meta, "name")),
    ] {
        if value.is_empty() {
            continue;
        }
        let at = meta_path.child(key);
        for msg in name_rule(value, &required_name) {
            name_errs.push(field::invalid(&at, value, &msg));
        }
    }
    errs.splice(0..0, name_errs);
    let spec_path = Path::new("spec");
    let group_path = spec_path.child("group");
    // The legacy core group is registered as `v1.` with no group.
    if group.is_empty() && version != "v1" {
        errs.push(field::required(
            &group_path,
            "only v1 may have an empty group and it better be legacy kube",
        ));
    }
    if !group.is_empty() {
        for msg in names::is_dns1123_subdomain(group) {
            errs.push(field::invalid(&group_path, group, &msg));
        }
    }
    let version_path = spec_path.child("version");
    for msg in names::is_dns1035_label(version) {
        errs.push(field::invalid(&version_path, version, &msg));
    }
    let group_priority = spec.group_priority_minimum.int();
    if !(1..=20000).contains(&group_priority) {
        errs.push(field::invalid(
            &spec_path.child("groupPriorityMinimum"),
            group_priority,
            "must be positive and less than 20000",
        ));
    }
    let version_priority = spec.version_priority.int();
    if !(1..=1000).contains(&version_priority) {
        errs.push(field::invalid(
            &spec_path.child("versionPriority"),
            version_priority,
            "must be positive and less than 1000",
        ));
    }
    // Bytes that are not base64 would not have decoded: the field reads as empty.
    let ca_bundle_len = pem::decode_base64(spec.ca_bundle.text().as_bytes()).map_or(0, |b| b.len());
    let insecure = spec.insecure_skip_tls_verify.flag();
    let insecure_path = spec_path.child("insecureSkipTLSVerify");
    let Some(service) = spec.service.set_object() else {
        if ca_bundle_len != 0 {
            errs.push(field::invalid(
                &spec_path.child("caBundle"),
                format!("{ca_bundle_len} bytes"),
                "local APIServices may not have a caBundle",
            ));
        }
        if insecure {
            errs.push(field::invalid(
                &insecure_path,
                insecure,
                "local APIServices may not have insecureSkipTLSVerify",
            ));
        }
        return errs;
    };
    let service_path = spec_path.child("service");
    for key in ["namespace", "name"] {
        if read::text(service, key).is_empty() {
            errs.push(field::required(&service_path.child(key), ""));
        }
    }
    let port = read::opt_int(service, "port").unwrap_or(DEFAULT_PORT);
    let port_errs = names::is_valid_port_num(port);
    if !port_errs.is_empty() {
        errs.push(field::invalid(
            &service_path.child("port"),
            port,
            &format!("port is not valid: {}", port_errs.join(", ")),
        ));
    }
    if insecure && ca_bundle_len > 0 {
        errs.push(field::invalid(
            &insecure_path,
            insecure,
            "may not be true if caBundle is present",
        ));
    }
    errs
}

fn api_service_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    errs.extend(api_service(new));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_name_must_be_version_dot_group() {
        let svc = json!({"metadata": {"name": "v1.other"}, "spec": {"group": "foo.io",
            "version": "v1", "groupPriorityMinimum": 1, "versionPriority": 1}});
        assert_eq!(
            api_service(&svc)[0].to_string(),
            "metadata.name: Invalid value: \"v1.other\": must be `spec.version+\".\"+spec.group`: \"v1.foo.io\""
        );
    }

    #[test]
    fn a_local_service_has_no_tls_settings() {
        let svc = json!({"metadata": {"name": "v1.foo.io"}, "spec": {"group": "foo.io",
            "version": "v1", "groupPriorityMinimum": 1, "versionPriority": 1,
            "caBundle": "AAEC", "insecureSkipTLSVerify": true}});
        let texts: Vec<String> = api_service(&svc).iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "spec.caBundle: Invalid value: \"3 bytes\": local APIServices may not have a caBundle",
                "spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify"
            ]
        );
    }

    #[test]
    fn odd_members_do_not_panic() {
        let odd = json!({"metadata": [], "spec": {"service": {"port": "x"}, "caBundle": 3}});
        assert!(!api_service(&odd).is_empty());
        assert!(!api_service_update(&odd, &json!(1)).is_empty());
    }
}
