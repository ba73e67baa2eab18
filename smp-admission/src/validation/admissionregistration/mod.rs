//! The `admissionregistration.k8s.io` group (`pkg/apis/admissionregistration/validation` as
//! the v1.34 strategies call it): ValidatingWebhookConfiguration and
//! MutatingWebhookConfiguration ([`webhook`], their client configs in [`client`]),
//! ValidatingAdmissionPolicy ([`policy`]) and ValidatingAdmissionPolicyBinding ([`binding`]),
//! with the rules ([`rules`]), matched resources ([`match_resources`]) and match conditions
//! ([`conditions`]) they share.
//!
//! An update runs the create's checks on the new object with options taken from the old one,
//! so that an object stored before a rule was tightened can still be updated: see
//! [`webhook`]. The metadata update is the generic registry's, not modelled here.
//!
//! Where the answers differ from the server's: CEL expressions are parsed, not type-checked
//! nor costed (see [`conditions`]); the policy and binding strategies' authorization checks
//! (may the requester read the parameter kind, the policy, its parameters) are not made.
//! A variable's name that is not a CEL identifier and a validation's blank or multi-line
//! message are worded as releases up to 1.33 word them (`name is not a valid CEL
//! identifier`, `message must be non-empty if specified`, `message must not contain line
//! breaks`); later releases drop the leading words, and v1.34's choice is not confirmed.

mod binding;
mod client;
mod conditions;
mod match_resources;
mod policy;
mod rules;
mod webhook;

use serde_json::Value;

use super::field::BadValue;
use super::kind_rules::KindRules;
use super::read;

const GROUP: &str = "admissionregistration.k8s.io";

/// The admissionregistration kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: GROUP,
        kind: "ValidatingWebhookConfiguration",
        namespaced: false,
        create: webhook::validating_configuration,
        update: webhook::validating_configuration_update,
    },
    KindRules {
        group: GROUP,
        kind: "MutatingWebhookConfiguration",
        namespaced: false,
        create: webhook::mutating_configuration,
        update: webhook::mutating_configuration_update,
    },
    KindRules {
        group: GROUP,
        kind: "ValidatingAdmissionPolicy",
        namespaced: false,
        create: policy::policy,
        update: policy::policy_update,
    },
    KindRules {
        group: GROUP,
        kind: "ValidatingAdmissionPolicyBinding",
        namespaced: false,
        create: binding::binding,
        update: binding::binding_update,
    },
];

/// A list of strings as the Go `[]string` it decodes into (items of another type read as
/// `""`).
fn string_list<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    read::list(v, key)
        .iter()
        .map(|s| s.as_str().unwrap_or(""))
        .collect()
}

/// A `[]string` as a bad value: Go prints it as JSON.
fn list_value(items: &[&str]) -> BadValue {
    BadValue::Json(Value::from(
        items.iter().map(|s| Value::from(*s)).collect::<Vec<_>>(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn anything() -> impl Strategy<Value = Value> {
        let leaf = crate::validation::arbitrary::scalar(
            "[a-zA-Z0-9*/:%@#?\\[\\]. -]{0,10}|https://[a-z.@:%#?/é]{0,10}|true|object\\.x in \\[ 1",
            -3i64..70_000,
        );
        crate::validation::arbitrary::json(
            leaf,
            "metadata|name|webhooks|rules|operations|apiGroups|apiVersions|resources|\
                     scope|failurePolicy|matchPolicy|sideEffects|timeoutSeconds|\
                     namespaceSelector|objectSelector|matchExpressions|matchLabels|key|values|\
                     operator|reinvocationPolicy|clientConfig|url|service|namespace|path|port|\
                     matchConditions|expression|admissionReviewVersions|spec|paramKind|kind|\
                     matchConstraints|resourceNames|excludeResourceRules|variables|validations|\
                     message|messageExpression|reason|auditAnnotations|valueExpression|\
                     policyName|paramRef|selector|parameterNotFoundAction|matchResources|\
                     validationActions",
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
