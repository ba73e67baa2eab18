//! `metadata` as every kind validates it (apimachinery `pkg/api/validation/objectmeta.go` and
//! the core group's finalizer rule), and the shared pieces kinds call: labels, annotations,
//! label selectors and immutable fields.
//!
//! Go walks label and annotation maps in random order; here they are walked in key order, so
//! a map with several bad keys lists them sorted.

use serde_json::Value;

use super::field::{self, BadValue, ErrorList, Path};
use super::names::{self, NameFn};
use super::read;

/// `field is immutable`.
pub const IMMUTABLE: &str = "field is immutable";
/// `must be greater than or equal to 0`.
pub const IS_NEGATIVE: &str = "must be greater than or equal to 0";
/// The most annotations may hold, keys and values together: 256 KiB.
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

const STANDARD_FINALIZERS: [&str; 3] = ["kubernetes", "orphan", "foregroundDeletion"];

/// `ValidateObjectMeta` of the core group: [`validate_generic_object_meta`], then the core
/// group's rule that an unqualified finalizer is one of the standard three.
pub fn validate_object_meta(
    meta: Option<&Value>,
    requires_namespace: bool,
    name_fn: NameFn,
    path: &Path,
) -> ErrorList {
    let mut errs = validate_generic_object_meta(meta, requires_namespace, name_fn, path);
    let empty = Value::Null;
    kube_finalizer_names(meta.unwrap_or(&empty), &path.child("finalizers"), &mut errs);
    errs
}

/// apimachinery's `ValidateObjectMeta`, as every kind (custom resources too) runs it: the name
/// by `name_fn`, the namespace (required or forbidden), generation, labels, annotations, owner
/// references, finalizers and managedFields.
pub fn validate_generic_object_meta(
    meta: Option<&Value>,
    requires_namespace: bool,
    name_fn: NameFn,
    path: &Path,
) -> ErrorList {
    let empty = Value::Null;
    let meta = meta.unwrap_or(&empty);
    let mut errs = ErrorList::new();
    let generate_name = read::text(meta, "generateName");
    if !generate_name.is_empty() {
        for msg in name_fn(generate_name, true) {
            errs.push(field::invalid(
                &path.child("generateName"),
                generate_name,
                &msg,
            ));
        }
    }
    let name = read::text(meta, "name");
    if name.is_empty() {
        errs.push(field::required(
            &path.child("name"),
            "name or generateName is required",
        ));
    } else {
        for msg in name_fn(name, false) {
            errs.push(field::invalid(&path.child("name"), name, &msg));
        }
    }
    let namespace = read::text(meta, "namespace");
    if requires_namespace {
        if namespace.is_empty() {
            errs.push(field::required(&path.child("namespace"), ""));
        } else {
            for msg in names::name_is_dns_label(namespace, false) {
                errs.push(field::invalid(&path.child("namespace"), namespace, &msg));
            }
        }
    } else if !namespace.is_empty() {
        errs.push(field::forbidden(
            &path.child("namespace"),
            "not allowed on this type",
        ));
    }
    let generation = read::int(meta, "generation");
    if generation < 0 {
        errs.push(field::invalid(
            &path.child("generation"),
            generation,
            IS_NEGATIVE,
        ));
    }
    validate_labels(meta.get("labels"), &path.child("labels"), &mut errs);
    validate_annotations(
        meta.get("annotations"),
        &path.child("annotations"),
        &mut errs,
    );
    validate_owner_references(meta, &path.child("ownerReferences"), &mut errs);
    validate_finalizers(meta, &path.child("finalizers"), &mut errs);
    validate_managed_fields(meta, &path.child("managedFields"), &mut errs);
    errs
}

/// `ValidateObjectMetaUpdate` of the core group: [`validate_generic_object_meta_update`], then
/// the core group's finalizer rule on the new object.
pub fn validate_object_meta_update(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &Path,
) -> ErrorList {
    let mut errs = validate_generic_object_meta_update(new, old, path);
    let empty = Value::Null;
    kube_finalizer_names(new.unwrap_or(&empty), &path.child("finalizers"), &mut errs);
    errs
}

/// [`validate_object_meta_update`] of two whole objects: their `metadata`, at `metadata`.
pub fn validate_object_meta_update_of(new: &Value, old: &Value) -> ErrorList {
    validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    )
}

/// apimachinery's `ValidateObjectMetaUpdate`: no new finalizers once deleting, a
/// resourceVersion, a generation that does not go down, the immutable identity fields, then
/// labels, annotations, owner references and managedFields of the new object.
pub fn validate_generic_object_meta_update(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &Path,
) -> ErrorList {
    let empty = Value::Null;
    let new = new.unwrap_or(&empty);
    let old = old.unwrap_or(&empty);
    let mut errs = ErrorList::new();
    if read::is_set(old, "deletionTimestamp") {
        let old_finalizers: std::collections::BTreeSet<&str> =
            read::strings(old, "finalizers").collect();
        let extra: std::collections::BTreeSet<&str> = read::strings(new, "finalizers")
            .filter(|f| !old_finalizers.contains(f))
            .collect();
        if !extra.is_empty() {
            errs.push(field::forbidden(
                &path.child("finalizers"),
                &format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers {}",
                    go_string_slice(extra.iter().copied())
                ),
            ));
        }
    }
    let resource_version = read::text(new, "resourceVersion");
    if resource_version.is_empty() {
        errs.push(field::invalid(
            &path.child("resourceVersion"),
            resource_version,
            "must be specified for an update",
        ));
    }
    let generation = read::int(new, "generation");
    if generation < read::int(old, "generation") {
        errs.push(field::invalid(
            &path.child("generation"),
            generation,
            "must not be decremented",
        ));
    }
    for key in [
        "name",
        "namespace",
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ] {
        validate_immutable(new.get(key), old.get(key), &path.child(key), &mut errs);
    }
    validate_labels(new.get("labels"), &path.child("labels"), &mut errs);
    validate_annotations(
        new.get("annotations"),
        &path.child("annotations"),
        &mut errs,
    );
    validate_owner_references(new, &path.child("ownerReferences"), &mut errs);
    validate_managed_fields(new, &path.child("managedFields"), &mut errs);
    errs
}

/// `ValidateImmutableField`: `Invalid value: NEW: field is immutable` when the two differ.
pub fn validate_immutable(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &Path,
    errs: &mut ErrorList,
) {
    if !read::semantic_eq(new, old) {
        let value = new.map_or(BadValue::Str(String::new()), BadValue::from);
        errs.push(field::invalid(path, value, IMMUTABLE));
    }
}

/// `ValidateLabels`: each key a qualified name, each value a label value.
pub fn validate_labels(labels: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let Some(labels) = labels.and_then(Value::as_object) else {
        return;
    };
    for (key, value) in labels {
        validate_label_name(key, path, errs);
        let value = value.as_str().unwrap_or("");
        for msg in names::is_valid_label_value(value) {
            errs.push(field::invalid(path, value, &msg));
        }
    }
}

/// `ValidateLabelName`: a qualified name.
pub fn validate_label_name(name: &str, path: &Path, errs: &mut ErrorList) {
    for msg in names::is_qualified_name(name) {
        errs.push(field::invalid(path, name, &msg));
    }
}

/// `ValidateAnnotations`: each key (lowercased) a qualified name, and 256 KiB in all.
pub fn validate_annotations(annotations: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let Some(annotations) = annotations.and_then(Value::as_object) else {
        return;
    };
    let mut total = 0usize;
    for (key, value) in annotations {
        for msg in names::is_qualified_name(&key.to_lowercase()) {
            errs.push(field::invalid(path, key.as_str(), &msg));
        }
        total += key.len() + value.as_str().map_or(0, str::len);
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errs.push(field::too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT as i64));
    }
}

fn validate_owner_references(meta: &Value, path: &Path, errs: &mut ErrorList) {
    let refs = read::list(meta, "ownerReferences");
    let mut first_controller: Option<String> = None;
    for r in refs {
        let api_version = read::text(r, "apiVersion");
        let kind = read::text(r, "kind");
        let version = api_version.rsplit('/').next().unwrap_or("");
        let group = match api_version.split_once('/') {
            Some((g, _)) => g,
            None => "",
        };
        if version.is_empty() {
            errs.push(field::invalid(
                &path.child("apiVersion"),
                api_version,
                "version must not be empty",
            ));
        }
        if kind.is_empty() {
            errs.push(field::invalid(
                &path.child("kind"),
                kind,
                "must not be empty",
            ));
        }
        let name = read::text(r, "name");
        if name.is_empty() {
            errs.push(field::invalid(
                &path.child("name"),
                name,
                "must not be empty",
            ));
        }
        let uid = read::text(r, "uid");
        if uid.is_empty() {
            errs.push(field::invalid(&path.child("uid"), uid, "must not be empty"));
        }
        if group.is_empty() && version == "v1" && kind == "Event" {
            errs.push(field::invalid(
                path,
                BadValue::Json(r.clone()),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
        if read::flag(r, "controller") {
            let current = format!("{kind}/{name}");
            match &first_controller {
                Some(first) => errs.push(field::invalid(
                    path,
                    BadValue::Json(Value::Array(refs.to_vec())),
                    &format!("Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}"),
                )),
                None => first_controller = Some(current),
            }
        }
    }
}

fn validate_finalizers(meta: &Value, path: &Path, errs: &mut ErrorList) {
    let mut orphan = false;
    let mut foreground = false;
    for f in read::strings(meta, "finalizers") {
        for msg in names::is_qualified_name(f) {
            errs.push(field::invalid(path, f, &msg));
        }
        orphan |= f == "orphan";
        foreground |= f == "foregroundDeletion";
    }
    if orphan && foreground {
        errs.push(field::invalid(
            path,
            BadValue::Json(meta.get("finalizers").cloned().unwrap_or(Value::Null)),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
}

/// The core group's rule: a finalizer without a `/` must be a standard one.
fn kube_finalizer_names(meta: &Value, path: &Path, errs: &mut ErrorList) {
    for (i, f) in read::strings(meta, "finalizers").enumerate() {
        if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f) {
            errs.push(field::invalid(
                &path.index(i),
                f,
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
}

fn validate_managed_fields(meta: &Value, path: &Path, errs: &mut ErrorList) {
    for (i, entry) in read::list(meta, "managedFields").iter().enumerate() {
        let at = path.index(i);
        let operation = read::text(entry, "operation");
        if operation != "Apply" && operation != "Update" {
            errs.push(field::invalid(
                &at.child("operation"),
                operation,
                "must be `Apply` or `Update`",
            ));
        }
        let fields_type = read::text(entry, "fieldsType");
        if !fields_type.is_empty() && fields_type != "FieldsV1" {
            errs.push(field::invalid(
                &at.child("fieldsType"),
                fields_type,
                "must be `FieldsV1`",
            ));
        }
        let manager = read::text(entry, "manager");
        validate_field_manager(manager, &at.child("manager"), errs);
        if read::text(entry, "subresource").len() > 256 {
            errs.push(field::too_long(&at.child("subresource"), 256));
        }
    }
}

/// `ValidateFieldManager`: at most 128 bytes, printable characters only.
pub fn validate_field_manager(manager: &str, path: &Path, errs: &mut ErrorList) {
    if manager.len() > 128 {
        errs.push(field::too_long(path, 128));
    }
    for (i, c) in manager.char_indices() {
        if c.is_control() {
            errs.push(field::invalid(
                path,
                manager,
                &format!("invalid character U+{:04X} (at position {i})", c as u32),
            ));
        }
    }
}

/// What `ValidateLabelSelector` allows beyond the strict rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct LabelSelectorOptions {
    /// Values of `matchExpressions` are not checked as label values.
    pub allow_invalid_label_value: bool,
}

/// `ValidateLabelSelector`: matchLabels as labels, each requirement's operator, values and key.
pub fn validate_label_selector(
    selector: Option<&Value>,
    options: LabelSelectorOptions,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(selector) = selector.filter(|s| !s.is_null()) else {
        return;
    };
    validate_labels(
        selector.get("matchLabels"),
        &path.child("matchLabels"),
        errs,
    );
    let expressions = path.child("matchExpressions");
    for (i, req) in read::list(selector, "matchExpressions").iter().enumerate() {
        let at = expressions.index(i);
        let values = read::list(req, "values");
        let operator = read::text(req, "operator");
        match operator {
            "In" | "NotIn" => {
                if values.is_empty() {
                    errs.push(field::required(
                        &at.child("values"),
                        "must be specified when `operator` is 'In' or 'NotIn'",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !values.is_empty() {
                    errs.push(field::forbidden(
                        &at.child("values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            _ => errs.push(field::invalid(
                &at.child("operator"),
                operator,
                "not a valid selector operator",
            )),
        }
        validate_label_name(read::text(req, "key"), &at.child("key"), errs);
        if !options.allow_invalid_label_value {
            let values_path = at.child("values");
            for (j, v) in values.iter().enumerate() {
                let v = v.as_str().unwrap_or("");
                for msg in names::is_valid_label_value(v) {
                    errs.push(field::invalid(&values_path.index(j), v, &msg));
                }
            }
        }
    }
}

/// Whether a `matchLabels`/`matchExpressions` selector selects `labels` (`metav1.LabelSelectorAsSelector`).
/// A selector that is absent selects nothing; an empty one selects everything.
pub fn selector_matches(selector: &Value, labels: Option<&Value>) -> bool {
    let empty = serde_json::Map::new();
    let labels = labels.and_then(Value::as_object).unwrap_or(&empty);
    let label = |k: &str| labels.get(k).and_then(Value::as_str);
    for (k, v) in read::object_or_empty(selector, "matchLabels") {
        if label(k) != v.as_str() {
            return false;
        }
    }
    for req in read::list(selector, "matchExpressions") {
        let key = read::text(req, "key");
        let mut values = read::strings(req, "values");
        let ok = match read::text(req, "operator") {
            "In" => label(key).is_some_and(|l| values.any(|v| v == l)),
            "NotIn" => label(key).is_none_or(|l| !values.any(|v| v == l)),
            "Exists" => label(key).is_some(),
            "DoesNotExist" => label(key).is_none(),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Go's `%#v` of a `[]string`: `[]string{"a", "b"}`.
pub fn go_string_slice<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("[]string{");
    for (i, s) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        field::go_quote(s, &mut out);
    }
    out.push('}');
    out
}

/// The statuses a `metav1.Condition` may have.
const CONDITION_STATUSES: [&str; 3] = ["False", "True", "Unknown"];

/// The longest `reason` and `message` a `metav1.Condition` may have, in bytes.
const CONDITION_REASON_MAX: usize = 1024;
const CONDITION_MESSAGE_MAX: usize = 32 * 1024;

/// A condition reason: a letter, then letters, digits, `_`, `,` or `:`, not ending in `,` or
/// `:`.
fn is_condition_reason(reason: &str) -> bool {
    let bytes = reason.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    first.is_ascii_alphabetic()
        && (last.is_ascii_alphanumeric() || *last == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b',' | b':'))
}

/// Whether a `metav1.Time` is the zero time, as `IsZero` sees it once decoded: absent, or
/// the first instant of year 1 in any offset (`0001-01-01T00:00:00Z`).
fn is_zero_time(text: &str) -> bool {
    /// Seconds from the Unix epoch back to 0001-01-01T00:00:00Z.
    const YEAR_ONE: i64 = -62_135_596_800;
    text.is_empty()
        || chrono::DateTime::parse_from_rfc3339(text)
            .is_ok_and(|t| t.timestamp() == YEAR_ONE && t.timestamp_subsec_nanos() == 0)
}

/// apimachinery's `ValidateConditions` of `metav1.Condition` lists: types distinct and label
/// names, a known status, a generation not negative, a transition time, a reason of the
/// condition-reason form, and bounded reason and message lengths.
pub fn validate_conditions(conditions: &[Value], path: &Path, errs: &mut ErrorList) {
    let mut types = std::collections::HashSet::new();
    for (i, condition) in conditions.iter().enumerate() {
        let at = path.index(i);
        let kind = read::text(condition, "type");
        if !types.insert(kind) {
            errs.push(field::duplicate(&at.child("type"), kind));
        }
        validate_label_name(kind, &at.child("type"), errs);
        let status = read::text(condition, "status");
        if !CONDITION_STATUSES.contains(&status) {
            errs.push(field::not_supported(
                &at.child("status"),
                status,
                &CONDITION_STATUSES,
            ));
        }
        let generation = read::int(condition, "observedGeneration");
        if generation < 0 {
            errs.push(field::invalid(
                &at.child("observedGeneration"),
                generation,
                "must be greater than or equal to zero",
            ));
        }
        if is_zero_time(read::text(condition, "lastTransitionTime")) {
            errs.push(field::required(&at.child("lastTransitionTime"), ""));
        }
        let reason = read::text(condition, "reason");
        if reason.is_empty() {
            errs.push(field::required(&at.child("reason"), ""));
        } else {
            if !is_condition_reason(reason) {
                errs.push(field::invalid(
                    &at.child("reason"),
                    reason,
                    &names::regex_error(
                        "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
                        "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
                        &["my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB"],
                    ),
                ));
            }
            if reason.len() > CONDITION_REASON_MAX {
                errs.push(field::too_long(
                    &at.child("reason"),
                    CONDITION_REASON_MAX as i64,
                ));
            }
        }
        if read::text(condition, "message").len() > CONDITION_MESSAGE_MAX {
            errs.push(field::too_long(
                &at.child("message"),
                CONDITION_MESSAGE_MAX as i64,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta_errors(meta: Value, namespaced: bool) -> Vec<String> {
        validate_object_meta(
            Some(&meta),
            namespaced,
            names::name_is_dns_subdomain,
            &Path::new("metadata"),
        )
        .iter()
        .map(ToString::to_string)
        .collect()
    }

    #[test]
    fn names_namespaces_and_finalizers() {
        assert!(meta_errors(json!({"name": "a", "namespace": "ns"}), true).is_empty());
        assert_eq!(
            meta_errors(json!({"namespace": "ns"}), true),
            vec!["metadata.name: Required value: name or generateName is required"]
        );
        assert_eq!(
            meta_errors(json!({"name": "a", "namespace": "ns"}), false),
            vec!["metadata.namespace: Forbidden: not allowed on this type"]
        );
        assert_eq!(
            meta_errors(
                json!({"name": "a", "namespace": "n", "finalizers": ["foo"]}),
                true
            ),
            vec![
                "metadata.finalizers[0]: Invalid value: \"foo\": name is neither a standard finalizer name nor is it fully qualified"
            ]
        );
        assert_eq!(
            meta_errors(
                json!({"name": "a", "namespace": "n", "labels": {"a/b/c": "x"}}),
                true
            )
            .len(),
            1
        );
    }

    #[test]
    fn updates_keep_identity() {
        let old = json!({"name": "a", "uid": "1", "resourceVersion": "5"});
        let new = json!({"name": "b", "uid": "1", "resourceVersion": "5"});
        let errs = validate_object_meta_update(Some(&new), Some(&old), &Path::new("metadata"));
        assert_eq!(
            errs.iter().map(ToString::to_string).collect::<Vec<_>>(),
            vec!["metadata.name: Invalid value: \"b\": field is immutable"]
        );
    }

    #[test]
    fn selectors_match_labels() {
        let sel = json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["db"]}]});
        assert!(selector_matches(&sel, Some(&json!({"app": "web"}))));
        assert!(!selector_matches(
            &sel,
            Some(&json!({"app": "web", "tier": "db"}))
        ));
        assert!(!selector_matches(&sel, None));
    }
}
