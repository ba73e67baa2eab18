//! apps/v1's defaults (`pkg/apis/apps/v1/defaults.go`), and the pod template's.

use serde_json::json;

use super::core::pod_template_spec;
use crate::value::{Object, child, child_or_new, default_nil, default_string, text};

fn template(spec: &mut Object) {
    if let Some(template) = child_or_new(spec, "template") {
        pod_template_spec(template);
    }
}

/// A Deployment: one replica, a rolling update of 25% each way, 10 revisions kept, 600
/// seconds to progress.
pub(super) fn deployment(deployment: &mut Object) {
    let Some(spec) = child_or_new(deployment, "spec") else {
        return;
    };
    default_nil(spec, "replicas", json!(1));
    if let Some(strategy) = child_or_new(spec, "strategy") {
        default_string(strategy, "type", "RollingUpdate");
        if text(strategy, "type") == "RollingUpdate"
            && let Some(rolling) = child_or_new(strategy, "rollingUpdate")
        {
            default_nil(rolling, "maxUnavailable", json!("25%"));
            default_nil(rolling, "maxSurge", json!("25%"));
        }
    }
    default_nil(spec, "revisionHistoryLimit", json!(10));
    default_nil(spec, "progressDeadlineSeconds", json!(600));
    template(spec);
}

/// A DaemonSet: a rolling update of one unavailable and no surge, 10 revisions kept.
pub(super) fn daemon_set(set: &mut Object) {
    let Some(spec) = child_or_new(set, "spec") else {
        return;
    };
    if let Some(strategy) = child_or_new(spec, "updateStrategy") {
        default_string(strategy, "type", "RollingUpdate");
        if text(strategy, "type") == "RollingUpdate"
            && let Some(rolling) = child_or_new(strategy, "rollingUpdate")
        {
            default_nil(rolling, "maxUnavailable", json!(1));
            default_nil(rolling, "maxSurge", json!(0));
        }
    }
    default_nil(spec, "revisionHistoryLimit", json!(10));
    template(spec);
}

/// A StatefulSet: ordered pods, a rolling update from partition 0, claims retained, one
/// replica, 10 revisions kept.
pub(super) fn stateful_set(set: &mut Object) {
    let Some(spec) = child_or_new(set, "spec") else {
        return;
    };
    default_string(spec, "podManagementPolicy", "OrderedReady");
    if let Some(strategy) = child_or_new(spec, "updateStrategy") {
        if crate::value::is_empty_string(strategy, "type") {
            strategy.insert("type".into(), json!("RollingUpdate"));
            default_nil(strategy, "rollingUpdate", json!({}));
        }
        if text(strategy, "type") == "RollingUpdate"
            && let Some(rolling) = child(strategy, "rollingUpdate")
        {
            default_nil(rolling, "partition", json!(0));
        }
    }
    // StatefulSetAutoDeletePVC: on by default since v1.32.
    if let Some(policy) = child_or_new(spec, "persistentVolumeClaimRetentionPolicy") {
        default_string(policy, "whenDeleted", "Retain");
        default_string(policy, "whenScaled", "Retain");
    }
    default_nil(spec, "replicas", json!(1));
    default_nil(spec, "revisionHistoryLimit", json!(10));
    template(spec);
    for claim in crate::value::items(spec, "volumeClaimTemplates") {
        super::core::persistent_volume_claim(claim);
    }
}

/// A ReplicaSet: one replica.
pub(super) fn replica_set(set: &mut Object) {
    let Some(spec) = child_or_new(set, "spec") else {
        return;
    };
    default_nil(spec, "replicas", json!(1));
    template(spec);
}
