//! flowcontrol.apiserver.k8s.io/v1's defaults (`pkg/apis/flowcontrol/v1/defaults.go`).

use serde_json::json;

use crate::value::{Object, child, child_or_new, default_nil, default_zero};

/// A FlowSchema: precedence 1000 when it has none (or 0).
pub(super) fn flow_schema(schema: &mut Object) {
    if let Some(spec) = child_or_new(schema, "spec") {
        default_zero(spec, "matchingPrecedence", 1000);
    }
}

/// A PriorityLevelConfiguration: 30 shares for a limited level (0 for an exempt one), none
/// lent, and a queuing configuration's 64 queues of 50, hands of 8.
pub(super) fn priority_level(level: &mut Object) {
    let Some(spec) = child(level, "spec") else {
        return;
    };
    if let Some(limited) = child(spec, "limited") {
        default_nil(limited, "nominalConcurrencyShares", json!(30));
        default_nil(limited, "lendablePercent", json!(0));
        if let Some(queuing) = child(limited, "limitResponse").and_then(|r| child(r, "queuing")) {
            default_zero(queuing, "handSize", 8);
            default_zero(queuing, "queues", 64);
            default_zero(queuing, "queueLengthLimit", 50);
        }
    }
    if let Some(exempt) = child(spec, "exempt") {
        default_nil(exempt, "nominalConcurrencyShares", json!(0));
        default_nil(exempt, "lendablePercent", json!(0));
    }
}
