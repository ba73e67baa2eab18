//! The `flowcontrol.apiserver.k8s.io` group (`pkg/apis/flowcontrol/validation` as the v1.34
//! strategies call it): FlowSchema ([`flow_schema`]) and PriorityLevelConfiguration
//! ([`priority_level`]).
//!
//! What the strategies add: both clear the status on create and keep the old one on update
//! (the status is written through its own subresource), so the status checked is never the
//! one sent: none on create, the old object's on update. An update runs the create's checks
//! on the new object and nothing else: the metadata update is the generic registry's, not
//! modelled here (as for LimitRange). The v1 defaults (`matchingPrecedence` 1000, 30 shares,
//! 64 queues of 50, hands of 8, none lent) are the scheme's, applied before.
//!
//! The mandatory objects `exempt` and `catch-all` must keep the spec the server installs
//! (for the `exempt` priority level, all but its `exempt` member): their specs are compared
//! as the internal structs compare, an empty list equal to an absent one.
//!
//! A spec reported as a whole (a mandatory object's) is printed as Go prints the internal
//! struct ([`go_print`]).

mod flow_schema;
mod go_print;
mod priority_level;

use serde_json::Value;

use super::field::{self, ErrorList, Path};
use super::kind_rules::KindRules;
use super::meta::validate_object_meta;
use super::names;
use super::read;
use super::seen::Seen;

const GROUP: &str = "flowcontrol.apiserver.k8s.io";

/// The flowcontrol kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: GROUP,
        kind: "FlowSchema",
        namespaced: false,
        create: flow_schema::flow_schema,
        update: flow_schema::flow_schema_update,
    },
    KindRules {
        group: GROUP,
        kind: "PriorityLevelConfiguration",
        namespaced: false,
        create: priority_level::priority_level,
        update: priority_level::priority_level_update,
    },
];

/// The name of the mandatory objects that admit everything at once.
const EXEMPT: &str = "exempt";
/// The name of the mandatory objects that catch what nothing else matched.
const CATCH_ALL: &str = "catch-all";

/// `ValidateObjectMeta` of the core group: both kinds' names are DNS subdomains.
fn metadata(obj: &Value) -> ErrorList {
    validate_object_meta(
        obj.get("metadata"),
        false,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}

fn name_of(obj: &Value) -> &str {
    obj.get("metadata").map_or("", |m| read::text(m, "name"))
}

/// The `spec` of an object (a Go struct that is not a pointer: absent reads as empty).
fn spec_of(obj: &Value) -> &Value {
    obj.get("spec").unwrap_or(&Value::Null)
}

/// The status conditions of either kind: each needs a type, and no type twice.
fn validate_status(status: Option<&Value>, errs: &mut ErrorList) {
    let Some(status) = status else {
        return;
    };
    let path = Path::new("status");
    let conditions = path.child("conditions");
    let mut seen = Seen::new();
    for (i, condition) in read::list(status, "conditions").iter().enumerate() {
        let at = conditions.index(i);
        let kind = read::text(condition, "type");
        if !seen.insert(kind) {
            errs.push(field::duplicate(
                &at.child("type"),
                field::BadValue::Json(Value::from(kind)),
            ));
        }
        if kind.is_empty() {
            errs.push(field::required(&at.child("type"), ""));
        }
    }
}

/// A list of strings as the Go `[]string` it decodes into (items of another type read as
/// `""`), for reporting and comparing.
fn string_list<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    read::list(v, key)
        .iter()
        .map(|s| s.as_str().unwrap_or(""))
        .collect()
}

/// A `[]string` as a bad value: Go prints it as JSON.
fn list_value(items: &[&str]) -> field::BadValue {
    field::BadValue::Json(Value::from(
        items.iter().map(|s| Value::from(*s)).collect::<Vec<_>>(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn anything() -> impl Strategy<Value = Value> {
        let leaf = crate::validation::arbitrary::scalar(
            "[a-zA-Z0-9*/ -]{0,6}|exempt|catch-all|Limited|Exempt|Queue|Reject|User|Group|ServiceAccount",
            -3i64..70,
        );
        crate::validation::arbitrary::json(
            leaf,
            "metadata|name|spec|status|conditions|type|matchingPrecedence|\
                     priorityLevelConfiguration|distinguisherMethod|rules|subjects|kind|user|\
                     group|serviceAccount|namespace|resourceRules|nonResourceRules|verbs|\
                     apiGroups|resources|namespaces|clusterScope|nonResourceURLs|limited|\
                     exempt|nominalConcurrencyShares|lendablePercent|borrowingLimitPercent|\
                     limitResponse|queuing|queues|handSize|queueLengthLimit|annotations",
            6,
            96,
        )
    }

    proptest! {
        #[test]
        fn objects_of_any_shape_are_validated_without_panic(
            which in 0..KINDS.len(),
            new in anything(),
            old in anything(),
        ) {
            let rules = &KINDS[which];
            let _ = (rules.create)(&new);
            let _ = (rules.update)(&new, &old);
        }
    }
}
