//! IPAddress (`ValidateIPAddress`, `ValidateIPAddressUpdate` of v1.34): the name is the IP
//! itself, strict and canonical (`IsValidIP`), and `spec.parentRef` names the object the
//! address was allocated to; it cannot change. The strategy prepares nothing, and its update
//! runs the create check on the new object before the update check.

use serde_json::Value;

use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::ip_strict::ip_messages;
use crate::validation::meta::{IMMUTABLE, validate_object_meta, validate_object_meta_update};
use crate::validation::names;
use crate::validation::read::{self, view};

view! {
    /// An IPAddress's `spec.parentRef`.
    struct ParentRef { group: "group", resource: "resource", namespace: "namespace", name: "name" }
}

/// `ValidateIPAddressName`: names are never generated, so the prefix flag is ignored.
fn ip_address_name(name: &str, _prefix: bool) -> Vec<String> {
    ip_messages(name)
}

fn parent_ref(obj: &Value) -> Option<&Value> {
    obj.get("spec")
        .and_then(|spec| read::member(spec, "parentRef").set_object())
}

pub(crate) fn ip_address(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        false,
        ip_address_name,
        &Path::new("metadata"),
    );
    let spec_path = Path::new("spec");
    let path = spec_path.child("parentRef");
    let Some(parent) = parent_ref(obj) else {
        errs.push(field::required(&path, ""));
        return errs;
    };
    let parent = ParentRef::of(parent);
    // The core group of Services is "", so an empty group cannot be refused.
    let group = parent.group.text();
    if !group.is_empty() {
        let at = path.child("group");
        for msg in names::is_dns1123_subdomain(group) {
            errs.push(field::invalid(&at, group, &msg));
        }
    }
    for (key, member, required) in [
        ("resource", parent.resource, true),
        ("name", parent.name, true),
        ("namespace", parent.namespace, false),
    ] {
        let value = member.text();
        let at = path.child(key);
        if value.is_empty() {
            if required {
                errs.push(field::required(&at, ""));
            }
            continue;
        }
        for msg in names::name_is_path_segment(value, false) {
            errs.push(field::invalid(&at, value, &msg));
        }
    }
    errs
}

/// The reference as Go prints the internal `*ParentReference` (its members under their Go
/// names, in declaration order), or `null`.
fn printed_parent(obj: &Value) -> BadValue {
    let Some(parent) = parent_ref(obj) else {
        return BadValue::Json(Value::Null);
    };
    let parent = ParentRef::of(parent);
    let members = [
        ("Group", parent.group.text()),
        ("Resource", parent.resource.text()),
        ("Namespace", parent.namespace.text()),
        ("Name", parent.name.text()),
    ];
    let body: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("\"{k}\":{}", Value::from(*v)))
        .collect();
    BadValue::Printed(format!("{{{}}}", body.join(",")))
}

pub(crate) fn ip_address_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = ip_address(new);
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    let same = match (parent_ref(new), parent_ref(old)) {
        (Some(a), Some(b)) => {
            let (a, b) = (ParentRef::of(a), ParentRef::of(b));
            [
                (a.group, b.group),
                (a.resource, b.resource),
                (a.namespace, b.namespace),
                (a.name, b.name),
            ]
            .iter()
            .all(|(x, y)| x.text() == y.text())
        }
        (None, None) => true,
        _ => false,
    };
    if !same {
        errs.push(field::invalid(
            &Path::names(&["spec", "parentRef"]),
            printed_parent(new),
            IMMUTABLE,
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_changed_reference_prints_as_the_go_struct() {
        let old = json!({"metadata": {"name": "192.168.1.1", "resourceVersion": "1"},
            "spec": {"parentRef": {"resource": "services", "name": "foo", "namespace": "bar"}}});
        let mut new = old.clone();
        new["spec"]["parentRef"]["resource"] = json!("gateways");
        let errs = ip_address_update(&new, &old);
        assert_eq!(
            errs[0].to_string(),
            "spec.parentRef: Invalid value: {\"Group\":\"\",\"Resource\":\"gateways\",\"Namespace\":\"bar\",\"Name\":\"foo\"}: field is immutable"
        );
        new["spec"] = json!({});
        let errs = ip_address_update(&new, &old);
        assert_eq!(errs.len(), 2);
        assert_eq!(
            errs[1].to_string(),
            "spec.parentRef: Invalid value: null: field is immutable"
        );
    }
}
