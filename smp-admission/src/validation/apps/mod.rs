//! The apps group (`apps/v1`): `pkg/apis/apps/validation` as the registry strategies of
//! kube-apiserver v1.34 call it on create and update.

mod daemonset;
mod deployment;
mod revision;
pub(crate) mod shared;
mod statefulset;
mod status;

use super::kind_rules::{KindRules, StatusRules};

/// The apps kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: "apps",
        kind: "Deployment",
        namespaced: true,
        create: deployment::deployment,
        update: deployment::deployment_update,
    },
    KindRules {
        group: "apps",
        kind: "ReplicaSet",
        namespaced: true,
        create: deployment::replica_set,
        update: deployment::replica_set_update,
    },
    KindRules {
        group: "apps",
        kind: "DaemonSet",
        namespaced: true,
        create: daemonset::daemon_set,
        update: daemonset::daemon_set_update,
    },
    KindRules {
        group: "apps",
        kind: "StatefulSet",
        namespaced: true,
        create: statefulset::stateful_set,
        update: statefulset::stateful_set_update,
    },
    KindRules {
        group: "apps",
        kind: "ControllerRevision",
        namespaced: true,
        create: revision::controller_revision,
        update: revision::controller_revision_update,
    },
];

/// The apps kinds whose status endpoint's rules are here.
pub(crate) static STATUS: &[StatusRules] = &[
    StatusRules {
        group: "apps",
        kind: "Deployment",
        update: status::deployment_status_update,
    },
    StatusRules {
        group: "apps",
        kind: "ReplicaSet",
        update: status::replica_set_status_update,
    },
    StatusRules {
        group: "apps",
        kind: "StatefulSet",
        update: status::stateful_set_status_update,
    },
    StatusRules {
        group: "apps",
        kind: "DaemonSet",
        update: status::daemon_set_status_update,
    },
];
