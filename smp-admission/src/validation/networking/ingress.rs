//! Ingress and IngressClass (`ValidateIngressCreate`, `ValidateIngressUpdate`,
//! `ValidateIngressClass`, `ValidateIngressClassUpdate`).

use serde_json::Value;

use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::ip::is_ip_sloppy;
use crate::validation::meta::{
    validate_immutable, validate_object_meta, validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

/// The annotation that named an Ingress's class before `spec.ingressClassName`.
const CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";
const INVALID_PATH_SEQUENCES: [&str; 5] = ["//", "/./", "/../", "%2f", "%2F"];
const INVALID_PATH_SUFFIXES: [&str; 2] = ["/..", "/."];
const MAX_CONTROLLER_LENGTH: usize = 250;
/// The characters of an HTTP path as RFC 3986 allows them (`httpPathFmt`).
const HTTP_PATH_FMT: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/// `IngressValidationOptions`: leniencies granted to an update by what the old object had.
#[derive(Default, Clone, Copy)]
struct Options {
    allow_invalid_secret_name: bool,
    allow_invalid_wildcard_host_rule: bool,
    /// Backend service names checked as DNS-1123 labels instead of DNS-1035 ones (the
    /// `RelaxedServiceNameValidation` gate, off in v1.34, or an old name that needed it).
    relaxed_service_name: bool,
}

fn spec_of(obj: &Value) -> &Value {
    obj.get("spec").unwrap_or(&Value::Null)
}

/// `ValidateIngressCreate`: the Ingress, then the class annotation against the class name.
pub(super) fn ingress(ing: &Value) -> ErrorList {
    let mut errs = validate_ingress(ing, Options::default());
    let annotation = ing
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(CLASS_ANNOTATION))
        .and_then(Value::as_str);
    let class_name = read::opt_text(spec_of(ing), "ingressClassName");
    if let (Some(annotation), Some(class_name)) = (annotation, class_name)
        && annotation != class_name
    {
        // Built as `annotations` + child key upstream: no `metadata.` and a dot.
        let path = Path::new("annotations");
        errs.push(field::invalid(
            &path.child(CLASS_ANNOTATION),
            annotation,
            "must match `ingressClassName` when both are specified",
        ));
    }
    errs
}

/// `ValidateIngressUpdate`: metadata update first, then the Ingress with the leniencies the
/// old object earns.
pub(super) fn ingress_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let old_spec = spec_of(old);
    let options = Options {
        allow_invalid_secret_name: read::list(old_spec, "tls")
            .iter()
            .any(|tls| !tls_secret_name_errors(read::text(tls, "secretName")).is_empty()),
        allow_invalid_wildcard_host_rule: read::list(old_spec, "rules").iter().any(|rule| {
            read::text(rule, "host").contains('*') && {
                let mut probe = ErrorList::new();
                validate_rule_value(rule, Options::default(), &Path::new(""), &mut probe);
                !probe.is_empty()
            }
        }),
        relaxed_service_name: old_uses_relaxed_service_name(old_spec),
    };
    errs.extend(validate_ingress(new, options));
    errs
}

/// Whether an old backend's service name is a DNS-1123 label that is not a DNS-1035 label
/// (`allowRelaxedServiceNameValidation` with the gate off).
fn old_uses_relaxed_service_name(spec: &Value) -> bool {
    let relaxed = |backend: &Value| {
        backend
            .get("service")
            .filter(|s| s.is_object())
            .is_some_and(|service| {
                let name = read::text(service, "name");
                names::name_is_dns_label(name, false).is_empty()
                    && !names::name_is_dns1035_label(name, false).is_empty()
            })
    };
    if spec.get("defaultBackend").is_some_and(relaxed) {
        return true;
    }
    read::list(spec, "rules").iter().any(|rule| {
        rule.get("http").is_some_and(|http| {
            read::list(http, "paths")
                .iter()
                .any(|p| p.get("backend").is_some_and(relaxed))
        })
    })
}

fn validate_ingress(ing: &Value, options: Options) -> ErrorList {
    let mut errs = validate_object_meta(
        ing.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_spec(spec_of(ing), options, &mut errs);
    errs
}

/// `ValidateIngressSpec`.
fn validate_spec(spec: &Value, options: Options, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let rules = read::list(spec, "rules");
    let default_backend = spec.get("defaultBackend").filter(|b| !b.is_null());
    if rules.is_empty() && default_backend.is_none() {
        let value = match spec.get("rules") {
            Some(Value::Array(_)) => Value::Array(Vec::new()),
            _ => Value::Null,
        };
        errs.push(field::invalid(
            &path,
            BadValue::Json(value),
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(backend) = default_backend {
        validate_backend(backend, options, &path.child("defaultBackend"), errs);
    }
    let rules_path = path.child("rules");
    for (i, rule) in rules.iter().enumerate() {
        let rule_path = rules_path.index(i);
        let host = read::text(rule, "host");
        let mut wildcard = false;
        if !host.is_empty() {
            let host_path = rule_path.child("host");
            if is_ip_sloppy(host) {
                errs.push(field::invalid(
                    &host_path,
                    host,
                    "must be a DNS name, not an IP address",
                ));
            }
            let msgs = if host.contains('*') {
                wildcard = true;
                names::is_wildcard_dns1123_subdomain(host)
            } else {
                names::is_dns1123_subdomain(host)
            };
            for msg in msgs {
                errs.push(field::invalid(&host_path, host, &msg));
            }
        }
        if !wildcard || !options.allow_invalid_wildcard_host_rule {
            validate_rule_value(rule, options, &rule_path, errs);
        }
    }
    let tls_path = path.child("tls");
    for (i, tls) in read::list(spec, "tls").iter().enumerate() {
        let at = tls_path.index(i);
        let hosts_path = at.child("hosts");
        for (j, host) in read::strings(tls, "hosts").enumerate() {
            let msgs = if host.contains('*') {
                names::is_wildcard_dns1123_subdomain(host)
            } else {
                names::is_dns1123_subdomain(host)
            };
            for msg in msgs {
                errs.push(field::invalid(&hosts_path.index(j), host, &msg));
            }
        }
        if !options.allow_invalid_secret_name {
            let secret = read::text(tls, "secretName");
            for msg in tls_secret_name_errors(secret) {
                errs.push(field::invalid(&at.child("secretName"), secret, &msg));
            }
        }
    }
    if let Some(class) = read::opt_text(spec, "ingressClassName") {
        for msg in names::name_is_dns_subdomain(class, false) {
            errs.push(field::invalid(&path.child("ingressClassName"), class, &msg));
        }
    }
}

/// A TLS secret name is optional; when given it is a Secret's name.
fn tls_secret_name_errors(name: &str) -> Vec<String> {
    if name.is_empty() {
        Vec::new()
    } else {
        names::name_is_dns_subdomain(name, false)
    }
}

/// `validateIngressRuleValue` / `validateHTTPIngressRuleValue`.
fn validate_rule_value(rule: &Value, options: Options, path: &Path, errs: &mut ErrorList) {
    let Some(http) = rule.get("http").filter(|h| !h.is_null()) else {
        return;
    };
    let http_path = path.child("http");
    let paths_path = http_path.child("paths");
    let paths = read::list(http, "paths");
    if paths.is_empty() {
        errs.push(field::required(&paths_path, ""));
    }
    for (j, p) in paths.iter().enumerate() {
        validate_http_path(p, options, &paths_path.index(j), errs);
    }
}

/// `validateHTTPIngressPath`: the path's form by its pathType, then its backend.
fn validate_http_path(p: &Value, options: Options, path: &Path, errs: &mut ErrorList) {
    let Some(path_type) = read::opt_text(p, "pathType") else {
        errs.push(field::required(
            &path.child("pathType"),
            "pathType must be specified",
        ));
        return;
    };
    let text = read::text(p, "path");
    let text_path = path.child("path");
    match path_type {
        "Exact" | "Prefix" => {
            if !text.starts_with('/') {
                errs.push(field::invalid(&text_path, text, "must be an absolute path"));
            }
            if !text.is_empty() {
                for seq in INVALID_PATH_SEQUENCES {
                    if text.contains(seq) {
                        errs.push(field::invalid(
                            &text_path,
                            text,
                            &format!("must not contain '{seq}'"),
                        ));
                    }
                }
                for suffix in INVALID_PATH_SUFFIXES {
                    if text.ends_with(suffix) {
                        errs.push(field::invalid(
                            &text_path,
                            text,
                            &format!("cannot end with '{suffix}'"),
                        ));
                    }
                }
            }
        }
        "ImplementationSpecific" => {
            if !text.is_empty() && !text.starts_with('/') {
                errs.push(field::invalid(&text_path, text, "must be an absolute path"));
            }
        }
        other => errs.push(field::not_supported(
            &path.child("pathType"),
            other,
            &["Exact", "ImplementationSpecific", "Prefix"],
        )),
    }
    let empty = Value::Null;
    validate_backend(
        p.get("backend").unwrap_or(&empty),
        options,
        &path.child("backend"),
        errs,
    );
}

/// `validateIngressBackend`: exactly one of a resource and a service, and the service's port
/// by name or by number.
fn validate_backend(backend: &Value, options: Options, path: &Path, errs: &mut ErrorList) {
    let resource = backend.get("resource").filter(|r| !r.is_null());
    let service = backend.get("service").filter(|s| !s.is_null());
    match (resource, service) {
        (Some(_), Some(_)) => errs.push(field::invalid(
            path,
            "",
            "cannot set both resource and service backends",
        )),
        (Some(resource), None) => {
            validate_typed_reference(resource, &path.child("resource"), errs);
        }
        (None, Some(service)) => {
            let service_path = path.child("service");
            let name = read::text(service, "name");
            if name.is_empty() {
                errs.push(field::required(&service_path.child("name"), ""));
            } else {
                let msgs = if options.relaxed_service_name {
                    names::name_is_dns_label(name, false)
                } else {
                    names::name_is_dns1035_label(name, false)
                };
                for msg in msgs {
                    errs.push(field::invalid(&service_path.child("name"), name, &msg));
                }
            }
            let port = service.get("port").unwrap_or(&Value::Null);
            let port_path = service_path.child("port");
            let port_name = read::text(port, "name");
            let number = read::int(port, "number");
            match (!port_name.is_empty(), number != 0) {
                (true, true) => errs.push(field::invalid(
                    path,
                    "",
                    "cannot set both port name & port number",
                )),
                (true, false) => {
                    for msg in names::is_valid_port_name(port_name) {
                        errs.push(field::invalid(&port_path.child("name"), port_name, &msg));
                    }
                }
                (false, true) => {
                    for msg in names::is_valid_port_num(number) {
                        errs.push(field::invalid(&port_path.child("number"), number, &msg));
                    }
                }
                (false, false) => {
                    errs.push(field::required(path, "port name or number is required"));
                }
            }
        }
        (None, None) => errs.push(field::invalid(
            path,
            "",
            "resource or service backend is required",
        )),
    }
}

/// `validateIngressTypedLocalObjectReference`: an optional API group, a kind and a name.
fn validate_typed_reference(reference: &Value, path: &Path, errs: &mut ErrorList) {
    if let Some(group) = read::opt_text(reference, "apiGroup") {
        for msg in names::is_dns1123_subdomain(group) {
            errs.push(field::invalid(&path.child("apiGroup"), group, &msg));
        }
    }
    for (key, missing) in [("kind", "kind is required"), ("name", "name is required")] {
        let value = read::text(reference, key);
        if value.is_empty() {
            errs.push(field::required(&path.child(key), missing));
        } else {
            for msg in names::name_is_path_segment(value, false) {
                errs.push(field::invalid(&path.child(key), value, &msg));
            }
        }
    }
}

/// `ValidateIngressClass`.
pub(super) fn ingress_class(class: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        class.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = spec_of(class);
    let path = Path::new("spec");
    let controller = read::text(spec, "controller");
    let controller_path = path.child("controller");
    if controller.len() > MAX_CONTROLLER_LENGTH {
        errs.push(field::too_long(
            &controller_path,
            MAX_CONTROLLER_LENGTH as i64,
        ));
    }
    domain_prefixed_path(controller, &controller_path, &mut errs);
    if let Some(params) = spec.get("parameters").filter(|p| !p.is_null()) {
        validate_parameters(params, &path.child("parameters"), &mut errs);
    }
    errs
}

/// `ValidateIngressClassUpdate`: metadata update, an unchanged controller, then the class.
pub(super) fn ingress_class_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let path = Path::new("spec");
    validate_immutable(
        spec_of(new).get("controller"),
        spec_of(old).get("controller"),
        &path.child("controller"),
        &mut errs,
    );
    errs.extend(ingress_class(new));
    errs
}

/// `IsDomainPrefixedPath`: `host/path`, the host a DNS subdomain, the path of URL path
/// characters. The bad value of a host or path error is that part alone.
fn domain_prefixed_path(value: &str, path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    let Some((host, rest)) = value
        .split_once('/')
        .filter(|(h, r)| !h.is_empty() && !r.is_empty())
    else {
        errs.push(field::invalid(
            path,
            value,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        ));
        return;
    };
    for msg in names::is_dns1123_subdomain(host) {
        errs.push(field::invalid(path, host, &msg));
    }
    let http_path_char = |c: u8| c.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&c);
    if !rest.bytes().all(http_path_char) {
        errs.push(field::invalid(
            path,
            rest,
            &names::regex_error("Invalid path", HTTP_PATH_FMT, &[]),
        ));
    }
}

/// `validateIngressClassParametersReference`.
fn validate_parameters(params: &Value, path: &Path, errs: &mut ErrorList) {
    validate_typed_reference(params, path, errs);
    let Some(scope) = params.get("scope").filter(|s| !s.is_null()) else {
        errs.push(field::required(&path.child("scope"), ""));
        return;
    };
    let scope = scope.as_str().unwrap_or("");
    let namespace = params
        .get("namespace")
        .filter(|n| !n.is_null())
        .map(|n| n.as_str().unwrap_or(""));
    let namespace_path = path.child("namespace");
    match scope {
        "Namespace" => match namespace {
            None => errs.push(field::required(
                &namespace_path,
                "`parameters.scope` is set to 'Namespace'",
            )),
            Some(ns) => {
                for msg in names::name_is_dns_label(ns, false) {
                    errs.push(field::invalid(&namespace_path, ns, &msg));
                }
            }
        },
        "Cluster" => {
            if namespace.is_some() {
                errs.push(field::forbidden(
                    &namespace_path,
                    "`parameters.scope` is set to 'Cluster'",
                ));
            }
        }
        other => errs.push(field::not_supported(
            &path.child("scope"),
            other,
            &["Cluster", "Namespace"],
        )),
    }
}

/// `ValidateIngressStatusUpdate`: the metadata, then each load-balancer ingress point's address
/// (new ones parse; one already there may stay) and host name.
pub(super) fn ingress_status_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let points = |obj: &Value| -> Vec<Value> {
        obj.pointer("/status/loadBalancer/ingress")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let old_points = points(old);
    let old_ips: Vec<&str> = old_points
        .iter()
        .map(|p| read::text(p, "ip"))
        .filter(|ip| !ip.is_empty())
        .collect();
    let path = Path::names(&["status", "loadBalancer", "ingress"]);
    for (i, point) in points(new).iter().enumerate() {
        let at = path.index(i);
        let ip = read::text(point, "ip");
        if !ip.is_empty() {
            crate::validation::ip::validate_legacy_ip(&at.child("ip"), ip, &old_ips, &mut errs);
        }
        crate::validation::core::load_balancer_hostname(point, &at, &mut errs);
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ing(spec: Value) -> Value {
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
               "metadata": {"name": "ing", "namespace": "default", "resourceVersion": "1"},
               "spec": spec})
    }

    #[test]
    fn missing_rules_print_null_or_empty_list() {
        assert_eq!(
            ingress(&ing(json!({})))[0].to_string(),
            "spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"
        );
        assert_eq!(
            ingress(&ing(json!({"rules": []})))[0].to_string(),
            "spec: Invalid value: []: either `defaultBackend` or `rules` must be specified"
        );
    }

    #[test]
    fn class_annotation_path_has_no_metadata_prefix() {
        let mut obj = ing(
            json!({"defaultBackend": {"service": {"name": "s", "port": {"number": 1}}},
                                  "ingressClassName": "a"}),
        );
        obj["metadata"]["annotations"] = json!({"kubernetes.io/ingress.class": "b"});
        let errs = ingress(&obj);
        assert_eq!(
            errs[0].to_string(),
            "annotations.kubernetes.io/ingress.class: Invalid value: \"b\": must match `ingressClassName` when both are specified"
        );
        assert!(ingress_update(&obj, &obj).is_empty());
    }

    #[test]
    fn controller_errors_report_the_failing_part() {
        let class = json!({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
                           "metadata": {"name": "c"}, "spec": {"controller": "Bad/a b"}});
        let errs = ingress_class(&class);
        assert_eq!(errs.len(), 2);
        assert!(errs[0].to_string().starts_with(
            "spec.controller: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain"
        ));
        assert!(
            errs[1]
                .to_string()
                .starts_with("spec.controller: Invalid value: \"a b\": Invalid path")
        );
    }
}
