//! A CRD's `spec` as the server checks it (apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation.go`: `validateCustomResourceDefinitionSpec`
//! and the functions it calls): group, scope, names, versions, subresources, printer columns,
//! selectable fields and conversion; the schemas go to [`super::schema`].
//!
//! The server checks the internal form, into which the v1 conversion moves whatever every
//! version has alike (schema, subresources, columns, selectable fields) up to the spec: their
//! errors then name `spec.validation.openAPIV3Schema...`, `spec.subresources...` rather than
//! `spec.versions[i]...`. [`internal::Hoisted`] says which moved, and the paths follow it.

use serde_json::Value;

use super::internal::{self, Hoisted};
use super::options::ValidationOptions;
use super::schema;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::names;

const PRINTER_COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const PRINTER_COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn items<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn has(v: &Value, key: &str) -> bool {
    v.get(key).is_some_and(|m| !m.is_null())
}

/// `validateCustomResourceDefinitionSpec` of `crd.spec`.
pub fn validate_spec(crd: &Value, options: &ValidationOptions, errs: &mut ErrorList) {
    let empty = Value::Null;
    let spec = crd.get("spec").unwrap_or(&empty);
    let path = Path::new("spec");
    let group = text(spec, "group");
    if group.is_empty() {
        errs.push(field::required(&path.child("group"), ""));
    } else {
        let problems = names::is_dns1123_subdomain(group);
        if !problems.is_empty() {
            errs.push(field::invalid(
                &path.child("group"),
                group,
                &problems.join(","),
            ));
        } else if !group.contains('.') {
            errs.push(field::invalid(
                &path.child("group"),
                group,
                "should be a domain with at least one dot",
            ));
        }
    }
    enum_string(
        &path.child("scope"),
        text(spec, "scope"),
        &["Cluster", "Namespaced"],
        errs,
    );
    let preserve_unknown = spec.get("preserveUnknownFields") == Some(&Value::Bool(true));
    let versions = items(spec, "versions");
    let hoisted = Hoisted::of(versions);
    let top_schema = hoisted
        .schema
        .then(|| versions.first().and_then(|v| v.get("schema")))
        .flatten()
        .filter(|s| has(s, "openAPIV3Schema"));
    if top_schema.is_none() {
        for (i, version) in versions.iter().enumerate() {
            let has_schema = version
                .get("schema")
                .is_some_and(|s| has(s, "openAPIV3Schema"));
            let served = version.get("served") == Some(&Value::Bool(true));
            let detail = if options.require_open_api_schema {
                ""
            } else if served && !preserve_unknown {
                "because otherwise all fields are pruned"
            } else {
                continue;
            };
            if !has_schema {
                let versions_path = path.child("versions");
                let at = versions_path.index(i);
                let schema_path = at.child("schema");
                errs.push(field::required(
                    &schema_path.child("openAPIV3Schema"),
                    detail,
                ));
            }
        }
    }
    if versions.iter().any(|v| {
        v.get("schema")
            .and_then(|s| s.get("openAPIV3Schema"))
            .is_some_and(schema::has_default)
    }) && preserve_unknown
    {
        errs.push(field::invalid(
            &path.child("preserveUnknownFields"),
            true,
            "must be false in order to use defaults in the schema",
        ));
    }
    let mut storage = 0;
    let mut seen = std::collections::HashSet::new();
    let mut unique = true;
    let versions_path = path.child("versions");
    for (i, version) in versions.iter().enumerate() {
        if version.get("storage") == Some(&Value::Bool(true)) {
            storage += 1;
        }
        let name = text(version, "name");
        if !seen.insert(name) {
            unique = false;
        }
        let at = versions_path.index(i);
        let problems = names::is_dns1035_label(name);
        if !problems.is_empty() {
            errs.push(field::invalid(&at.child("name"), name, &problems.join(",")));
        }
        validate_version(version, &at, &hoisted, options, errs);
    }
    let printed_versions = || {
        BadValue::Printed(internal::versions(
            &Value::from(versions.to_vec()),
            &hoisted,
        ))
    };
    if !unique {
        errs.push(field::invalid(
            &versions_path,
            printed_versions(),
            "must contain unique version names",
        ));
    }
    if storage != 1 {
        errs.push(field::invalid(
            &versions_path,
            printed_versions(),
            "must have exactly one version marked as storage version",
        ));
    }
    if let Some(first) = versions.first() {
        // The conversion sets the internal `spec.version` to the first version's name.
        let name = text(first, "name");
        if !name.is_empty() {
            let problems = names::is_dns1035_label(name);
            if !problems.is_empty() {
                errs.push(field::invalid(
                    &path.child("version"),
                    name,
                    &problems.join(","),
                ));
            }
        }
    }
    let names_value = spec.get("names").unwrap_or(&empty);
    let names_path = path.child("names");
    for key in ["plural", "singular", "kind", "listKind"] {
        if text(names_value, key).is_empty() {
            errs.push(field::required(&names_path.child(key), ""));
        }
    }
    validate_names(names_value, &names_path, errs);
    if let Some(container) = top_schema {
        let any_status = versions
            .iter()
            .any(|v| v.get("subresources").is_some_and(|s| has(s, "status")));
        schema::validate_validation(
            container,
            any_status,
            &path.child("validation"),
            options,
            errs,
        );
    }
    if hoisted.subresources
        && let Some(subresources) = versions.first().and_then(|v| v.get("subresources"))
    {
        validate_subresources(subresources, &path.child("subresources"), errs);
    }
    if hoisted.columns
        && let Some(first) = versions.first()
    {
        let columns_path = path.child("additionalPrinterColumns");
        for (i, column) in items(first, "additionalPrinterColumns").iter().enumerate() {
            validate_column(column, &columns_path.index(i), errs);
        }
    }
    if hoisted.selectable_fields
        && let Some(first) = versions.first()
    {
        let fields = items(first, "selectableFields");
        if !fields.is_empty() {
            match top_schema.and_then(|s| s.get("openAPIV3Schema")) {
                None => errs.push(field::invalid(
                    &path.child("selectableFields"),
                    "",
                    "may only be set when validations.schema is included",
                )),
                Some(s) => schema::selectable_fields(fields, s, &path, errs),
            }
        }
    }
    let conversion = spec.get("conversion");
    let strategy = conversion.map_or("", |c| text(c, "strategy"));
    if conversion.is_some_and(|c| !c.is_null()) && strategy != "None" && preserve_unknown {
        let conversion_path = path.child("conversion");
        errs.push(field::invalid(
            &conversion_path.child("strategy"),
            strategy,
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    if let Some(conversion) = conversion.filter(|c| !c.is_null()) {
        validate_conversion(conversion, &path.child("conversion"), options, errs);
    }
}

/// `validateEnumStrings`: required, and one of `accepted`.
fn enum_string(path: &Path, value: &str, accepted: &[&str], errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(field::required(path, ""));
    } else if !accepted.contains(&value) {
        errs.push(field::not_supported(path, value, accepted));
    }
}

/// `validateCustomResourceDefinitionVersion`: what stayed with the version.
fn validate_version(
    version: &Value,
    path: &Path,
    hoisted: &Hoisted,
    options: &ValidationOptions,
    errs: &mut ErrorList,
) {
    let deprecated = version.get("deprecated") == Some(&Value::Bool(true));
    let warning = version.get("deprecationWarning").and_then(Value::as_str);
    for problem in deprecation_warning(deprecated, warning) {
        errs.push(field::invalid(
            &path.child("deprecationWarning"),
            BadValue::Json(warning.map_or(Value::Null, Value::from)),
            &problem,
        ));
    }
    let status = version
        .get("subresources")
        .is_some_and(|s| has(s, "status"));
    if !hoisted.schema
        && let Some(container) = version.get("schema").filter(|s| !s.is_null())
    {
        schema::validate_validation(container, status, &path.child("schema"), options, errs);
    }
    if !hoisted.subresources
        && let Some(subresources) = version.get("subresources").filter(|s| !s.is_null())
    {
        validate_subresources(subresources, &path.child("subresources"), errs);
    }
    if !hoisted.columns {
        let columns_path = path.child("additionalPrinterColumns");
        for (i, column) in items(version, "additionalPrinterColumns")
            .iter()
            .enumerate()
        {
            validate_column(column, &columns_path.index(i), errs);
        }
    }
    if !hoisted.selectable_fields {
        let fields = items(version, "selectableFields");
        if !fields.is_empty() {
            match version.get("schema").and_then(|s| s.get("openAPIV3Schema")) {
                None | Some(Value::Null) => errs.push(field::invalid(
                    &path.child("selectableFields"),
                    "",
                    "may only be set when `version.schema.openAPIV3Schema` is not included",
                )),
                Some(s) => schema::selectable_fields(fields, s, path, errs),
            }
        }
    }
}

/// `validateDeprecationWarning`.
fn deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(warning) = warning else {
        return Vec::new();
    };
    if !deprecated {
        return vec!["can only be set for deprecated versions".to_owned()];
    }
    let mut out = Vec::new();
    if warning.len() > 256 {
        out.push("must be <= 256 characters long".to_owned());
    }
    if warning.is_empty() {
        out.push("must not be an empty string".to_owned());
    }
    for (i, c) in warning.char_indices() {
        if c.is_control() {
            out.push(format!(
                "must only contain printable UTF-8 characters; control character found at index {i}"
            ));
            break;
        }
        if !is_go_printable(c) {
            out.push(format!(
                "must only contain printable UTF-8 characters; non-printable character found at index {i}"
            ));
            break;
        }
    }
    out
}

/// Go's `unicode.IsPrint` for what a JSON string can hold: the space, and no separator or
/// format character besides it.
fn is_go_printable(c: char) -> bool {
    c == ' '
        || !(c.is_control()
            || c.is_whitespace()
            || matches!(c, '\u{ad}' | '\u{600}'..='\u{605}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}'))
}

/// `ValidateCustomResourceDefinitionNames`.
pub fn validate_names(names_value: &Value, path: &Path, errs: &mut ErrorList) {
    for key in ["plural", "singular"] {
        let value = text(names_value, key);
        if !value.is_empty() {
            let problems = names::is_dns1035_label(value);
            if !problems.is_empty() {
                errs.push(field::invalid(&path.child(key), value, &problems.join(",")));
            }
        }
    }
    for key in ["kind", "listKind"] {
        let value = text(names_value, key);
        if !value.is_empty() {
            let problems = names::is_dns1035_label(&value.to_lowercase());
            if !problems.is_empty() {
                errs.push(field::invalid(
                    &path.child(key),
                    value,
                    &format!(
                        "may have mixed case, but should otherwise match: {}",
                        problems.join(",")
                    ),
                ));
            }
        }
    }
    let short_path = path.child("shortNames");
    for (i, short) in items(names_value, "shortNames").iter().enumerate() {
        let value = short.as_str().unwrap_or("");
        let problems = names::is_dns1035_label(value);
        if !problems.is_empty() {
            errs.push(field::invalid(
                &short_path.index(i),
                value,
                &problems.join(","),
            ));
        }
    }
    let kind = text(names_value, "kind");
    if !kind.is_empty() && kind == text(names_value, "listKind") {
        errs.push(field::invalid(
            &path.child("listKind"),
            kind,
            "kind and listKind may not be the same",
        ));
    }
    let categories_path = path.child("categories");
    for (i, category) in items(names_value, "categories").iter().enumerate() {
        let value = category.as_str().unwrap_or("");
        let problems = names::is_dns1035_label(value);
        if !problems.is_empty() {
            errs.push(field::invalid(
                &categories_path.index(i),
                value,
                &problems.join(","),
            ));
        }
    }
}

/// `ValidateCustomResourceColumnDefinition`.
fn validate_column(column: &Value, path: &Path, errs: &mut ErrorList) {
    if text(column, "name").is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
    let kind = text(column, "type");
    let types_detail = format!("must be one of {PRINTER_COLUMN_TYPES}");
    if kind.is_empty() {
        errs.push(field::required(&path.child("type"), &types_detail));
    } else if !PRINTER_COLUMN_TYPES.split(',').any(|t| t == kind) {
        errs.push(field::invalid(&path.child("type"), kind, &types_detail));
    }
    let format = text(column, "format");
    if !format.is_empty() && !PRINTER_COLUMN_FORMATS.split(',').any(|f| f == format) {
        errs.push(field::invalid(
            &path.child("format"),
            format,
            &format!("must be one of {PRINTER_COLUMN_FORMATS}"),
        ));
    }
    // The internal member is `JSONPath`, and so is the path the server names.
    let json_path = text(column, "jsonPath");
    if json_path.is_empty() {
        errs.push(field::required(&path.child("JSONPath"), ""));
    } else {
        simple_json_path(json_path, &path.child("JSONPath"), errs);
    }
}

/// `validateSimpleJSONPath`: whether it found a problem.
fn simple_json_path(s: &str, path: &Path, errs: &mut ErrorList) -> bool {
    if s.is_empty() {
        errs.push(field::invalid(path, s, "must not be empty"));
        true
    } else if !s.starts_with('.') {
        errs.push(field::invalid(
            path,
            s,
            "must be a simple json path starting with .",
        ));
        true
    } else {
        false
    }
}

/// `ValidateCustomResourceDefinitionSubresources`.
pub fn validate_subresources(subresources: &Value, path: &Path, errs: &mut ErrorList) {
    let Some(scale) = subresources.get("scale").filter(|s| !s.is_null()) else {
        return;
    };
    for (key, prefix, detail) in [
        (
            "specReplicasPath",
            ".spec.",
            "should be a json path under .spec",
        ),
        (
            "statusReplicasPath",
            ".status.",
            "should be a json path under .status",
        ),
    ] {
        let at_name = format!("scale.{key}");
        let at = path.child(&at_name);
        let value = text(scale, key);
        if value.is_empty() {
            errs.push(field::required(&at, ""));
        } else if !simple_json_path(value, &at, errs) && !value.starts_with(prefix) {
            errs.push(field::invalid(&at, value, detail));
        }
    }
    let selector = text(scale, "labelSelectorPath");
    if !selector.is_empty() {
        let at = path.child("scale.labelSelectorPath");
        if !simple_json_path(selector, &at, errs)
            && !selector.starts_with(".spec.")
            && !selector.starts_with(".status.")
        {
            errs.push(field::invalid(
                &at,
                selector,
                "should be a json path under either .spec or .status",
            ));
        }
    }
}

/// `validateCustomResourceConversion`, reading v1's `conversion.webhook` as the internal
/// `webhookClientConfig` and `conversionReviewVersions` it converts to.
fn validate_conversion(
    conversion: &Value,
    path: &Path,
    options: &ValidationOptions,
    errs: &mut ErrorList,
) {
    let strategy = text(conversion, "strategy");
    enum_string(
        &path.child("strategy"),
        strategy,
        &["None", "Webhook"],
        errs,
    );
    let webhook = conversion.get("webhook").filter(|w| !w.is_null());
    let client_config = webhook
        .and_then(|w| w.get("clientConfig"))
        .filter(|c| !c.is_null());
    let review_versions = webhook.map_or(&[][..], |w| items(w, "conversionReviewVersions"));
    if strategy == "Webhook" {
        let config_path = path.child("webhookClientConfig");
        match client_config {
            None => errs.push(field::required(
                &config_path,
                "required when strategy is set to Webhook",
            )),
            Some(config) => {
                let url = config.get("url").and_then(Value::as_str);
                let service = config.get("service").filter(|s| !s.is_null());
                match (url, service) {
                    (Some(url), None) => webhook_url(url, &config_path.child("url"), errs),
                    (None, Some(service)) => {
                        webhook_service(service, &config_path.child("service"), errs)
                    }
                    _ => errs.push(field::required(
                        &config_path,
                        "exactly one of url or service is required",
                    )),
                }
                let bundle = text(config, "caBundle");
                if !bundle.is_empty() && !options.allow_invalid_ca_bundle {
                    ca_bundle(bundle, &config_path.child("caBundle"), errs);
                }
            }
        }
        conversion_review_versions(
            review_versions,
            options.require_recognized_conversion_review_version,
            &path.child("conversionReviewVersions"),
            errs,
        );
    } else {
        if client_config.is_some() {
            errs.push(field::forbidden(
                &path.child("webhookClientConfig"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !review_versions.is_empty() {
            errs.push(field::forbidden(
                &path.child("conversionReviewVersions"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

/// Whether a `caBundle` (base64, as v1 writes it) holds a PEM block, as the server's TLS
/// set-up requires of it (apiserver `webhook.ValidateCABundle`; a block that is not a
/// certificate is not told apart here).
pub(crate) fn ca_bundle_is_valid(bundle: &str) -> bool {
    use base64::Engine as _;
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(bundle) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    text.contains("-----BEGIN ") && text.contains("-----END ")
}

fn ca_bundle(bundle: &str, path: &Path, errs: &mut ErrorList) {
    if !ca_bundle_is_valid(bundle) {
        errs.push(field::invalid(
            path,
            bundle,
            "unable to load root certificates: unable to parse bytes as PEM block",
        ));
    }
}

/// `validateConversionReviewVersions`: each a unique DNS label, and (`require_recognized`)
/// one the server understands.
fn conversion_review_versions(
    versions: &[Value],
    require_recognized: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    if versions.is_empty() {
        errs.push(field::required(path, ""));
        return;
    }
    let mut seen = std::collections::HashSet::new();
    let mut accepted = false;
    for (i, v) in versions.iter().enumerate() {
        let v = v.as_str().unwrap_or("");
        if !seen.insert(v) {
            errs.push(field::invalid(&path.index(i), v, "duplicate version"));
            continue;
        }
        for problem in names::is_dns1035_label(v) {
            errs.push(field::invalid(&path.index(i), v, &problem));
        }
        accepted |= v == "v1" || v == "v1beta1";
    }
    if require_recognized && !accepted {
        errs.push(field::invalid(
            path,
            BadValue::Json(Value::from(versions.to_vec())),
            "must include at least one of v1, v1beta1",
        ));
    }
}

/// apiserver's `webhook.ValidateWebhookURL`, HTTPS required, on a URL read as Go's
/// `url.Parse` reads it.
fn webhook_url(url: &str, path: &Path, errs: &mut ErrorList) {
    const FORM: &str = "; desired format: https://host[/path]";
    let (before_fragment, fragment) = url.split_once('#').unwrap_or((url, ""));
    let scheme_end = before_fragment.find(':').filter(|&i| {
        let scheme = &before_fragment[..i];
        scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if before_fragment.starts_with(':') {
        errs.push(field::required(
            path,
            &format!("url must be a valid URL: parse {url:?}: missing protocol scheme{FORM}"),
        ));
        return;
    }
    let (scheme, rest) = match scheme_end {
        Some(i) => (&before_fragment[..i], &before_fragment[i + 1..]),
        None => ("", before_fragment),
    };
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (authority, _) = match rest.strip_prefix("//") {
        Some(after) => after.split_at(after.find('/').unwrap_or(after.len())),
        None => ("", rest),
    };
    let (user, host) = match authority.rsplit_once('@') {
        Some((user, host)) => (Some(user), host),
        None => (None, authority),
    };
    if !scheme.eq_ignore_ascii_case("https") {
        errs.push(field::invalid(
            path,
            scheme.to_ascii_lowercase(),
            &format!("'https' is the only allowed URL scheme{FORM}"),
        ));
    }
    if host.is_empty() {
        errs.push(field::invalid(
            path,
            "",
            &format!("host must be specified{FORM}"),
        ));
    }
    if let Some(user) = user {
        errs.push(field::invalid(
            path,
            user,
            "user information is not permitted in the URL",
        ));
    }
    if !fragment.is_empty() {
        errs.push(field::invalid(
            path,
            fragment,
            "fragments are not permitted in the URL",
        ));
    }
    if !query.is_empty() {
        errs.push(field::invalid(
            path,
            query,
            "query parameters are not permitted in the URL",
        ));
    }
}

/// apiserver's `webhook.ValidateWebhookService` (the port defaults to 443 in v1).
fn webhook_service(service: &Value, path: &Path, errs: &mut ErrorList) {
    if text(service, "name").is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
    if text(service, "namespace").is_empty() {
        errs.push(field::required(&path.child("namespace"), ""));
    }
    let port = service.get("port").and_then(Value::as_i64).unwrap_or(443);
    let problems = names::is_valid_port_num(port);
    if !problems.is_empty() {
        errs.push(field::invalid(
            &path.child("port"),
            port,
            &format!("port is not valid: {}", problems.join(", ")),
        ));
    }
    let Some(url_path) = service.get("path").and_then(Value::as_str) else {
        return;
    };
    if url_path.is_empty() || url_path == "/" {
        return;
    }
    let at = path.child("path");
    if url_path == "//" {
        errs.push(field::invalid(&at, url_path, "segment[0] may not be empty"));
        return;
    }
    if !url_path.starts_with('/') {
        errs.push(field::invalid(&at, url_path, "must start with a '/'"));
    }
    let mut check = url_path.get(1..).unwrap_or("");
    check = check.strip_suffix('/').unwrap_or(check);
    for (i, step) in check.split('/').enumerate() {
        if step.is_empty() {
            errs.push(field::invalid(
                &at,
                url_path,
                &format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        for problem in names::is_dns1123_subdomain(step) {
            errs.push(field::invalid(
                &at,
                url_path,
                &format!("segment[{i}]: {problem}"),
            ));
        }
    }
}

/// `ValidateCustomResourceDefinitionStoredVersions` of `status.storedVersions`.
pub fn validate_stored_versions(crd: &Value, errs: &mut ErrorList) {
    let listed = crd
        .pointer("/status/storedVersions")
        .and_then(Value::as_array);
    let stored: Vec<&str> = listed
        .map(|a| a.iter().map(|v| v.as_str().unwrap_or("")).collect())
        .unwrap_or_default();
    let path = Path::names(&["status", "storedVersions"]);
    // Go prints an absent list as `null`, an empty one as `[]`.
    let stored_value =
        || BadValue::Json(listed.map_or(Value::Null, |_| Value::from(stored.clone())));
    if stored.is_empty() {
        errs.push(field::invalid(
            &path,
            stored_value(),
            "must have at least one stored version",
        ));
        return;
    }
    let mut remaining: std::collections::BTreeMap<&str, usize> =
        stored.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    for version in crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .unwrap_or(&Vec::new())
    {
        let name = text(version, "name");
        let present = remaining.remove(name).is_some();
        if version.get("storage") == Some(&Value::Bool(true)) && !present {
            errs.push(field::invalid(
                &path,
                stored_value(),
                &format!("must have the storage version {name}"),
            ));
        }
    }
    let mut left: Vec<(usize, &str)> = remaining.into_iter().map(|(v, i)| (i, v)).collect();
    left.sort();
    for (i, v) in left {
        errs.push(field::invalid(
            &path.index(i),
            v,
            &format!(
                "missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"
            ),
        ));
    }
}
