//! The core group (`v1`): each kind's rules of `pkg/apis/core/validation/validation.go`.

mod config;
mod endpoints;
mod event;
mod limits;
mod namespace;
mod node;
pub(crate) mod persistent_volume;
pub(crate) mod pod;
pub(crate) mod pvc;
mod quota;
mod replication_controller;
pub(crate) mod resources;
mod service;
mod service_ips;
mod status;

pub(crate) use status::load_balancer_hostname;

use super::kind_rules::{KindRules, StatusRules};

/// The core kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: "",
        kind: "Pod",
        namespaced: true,
        create: pod::pod,
        update: pod::pod_update,
    },
    KindRules {
        group: "",
        kind: "ConfigMap",
        namespaced: true,
        create: config::config_map,
        update: config::config_map_update,
    },
    KindRules {
        group: "",
        kind: "Secret",
        namespaced: true,
        create: config::secret,
        update: config::secret_update,
    },
    KindRules {
        group: "",
        kind: "Namespace",
        namespaced: false,
        create: namespace::namespace,
        update: namespace::namespace_update,
    },
    KindRules {
        group: "",
        kind: "ServiceAccount",
        namespaced: true,
        create: namespace::service_account,
        update: namespace::service_account_update,
    },
    KindRules {
        group: "",
        kind: "Service",
        namespaced: true,
        create: service::service,
        update: service::service_update,
    },
    KindRules {
        group: "",
        kind: "PersistentVolumeClaim",
        namespaced: true,
        create: pvc::pvc,
        update: pvc::pvc_update,
    },
    KindRules {
        group: "",
        kind: "PersistentVolume",
        namespaced: false,
        create: persistent_volume::persistent_volume,
        update: persistent_volume::persistent_volume_update,
    },
    KindRules {
        group: "",
        kind: "Node",
        namespaced: false,
        create: node::node,
        update: node::node_update,
    },
    KindRules {
        group: "",
        kind: "Event",
        namespaced: true,
        create: event::event,
        update: event::event_update,
    },
    KindRules {
        group: "events.k8s.io",
        kind: "Event",
        namespaced: true,
        create: event::event,
        update: event::event_update,
    },
    KindRules {
        group: "",
        kind: "Endpoints",
        namespaced: true,
        create: endpoints::endpoints,
        update: endpoints::endpoints_update,
    },
    KindRules {
        group: "",
        kind: "ReplicationController",
        namespaced: true,
        create: replication_controller::replication_controller,
        update: replication_controller::replication_controller_update,
    },
    KindRules {
        group: "",
        kind: "PodTemplate",
        namespaced: true,
        create: pod::pod_template,
        update: pod::pod_template_update,
    },
    KindRules {
        group: "",
        kind: "LimitRange",
        namespaced: true,
        create: limits::limit_range,
        update: limits::limit_range_update,
    },
    KindRules {
        group: "",
        kind: "ResourceQuota",
        namespaced: true,
        create: quota::resource_quota,
        update: quota::resource_quota_update,
    },
];

/// The core kinds whose status endpoint's rules are here.
pub(crate) static STATUS: &[StatusRules] = &[
    StatusRules {
        group: "",
        kind: "Pod",
        update: pod::pod_status_update,
    },
    StatusRules {
        group: "",
        kind: "Service",
        update: status::service_status_update,
    },
    StatusRules {
        group: "",
        kind: "ReplicationController",
        update: status::replication_controller_status_update,
    },
    StatusRules {
        group: "",
        kind: "Namespace",
        update: status::namespace_status_update,
    },
    StatusRules {
        group: "",
        kind: "ResourceQuota",
        update: status::resource_quota_status_update,
    },
    StatusRules {
        group: "",
        kind: "PersistentVolumeClaim",
        update: status::claim_status_update,
    },
];
