//! The `networking.k8s.io` group: NetworkPolicy, Ingress, IngressClass, ServiceCIDR and
//! IPAddress, as `pkg/apis/networking/validation` checks them in v1.34 and as their registry
//! strategies call those checks on create and update.

mod ingress;
mod ip_address;
pub(crate) mod network_policy;
mod service_cidr;

use super::kind_rules::{KindRules, StatusRules};

/// The networking kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: "networking.k8s.io",
        kind: "NetworkPolicy",
        namespaced: true,
        create: network_policy::network_policy,
        update: network_policy::network_policy_update,
    },
    KindRules {
        group: "networking.k8s.io",
        kind: "Ingress",
        namespaced: true,
        create: ingress::ingress,
        update: ingress::ingress_update,
    },
    KindRules {
        group: "networking.k8s.io",
        kind: "IngressClass",
        namespaced: false,
        create: ingress::ingress_class,
        update: ingress::ingress_class_update,
    },
    KindRules {
        group: "networking.k8s.io",
        kind: "ServiceCIDR",
        namespaced: false,
        create: service_cidr::service_cidr,
        update: service_cidr::service_cidr_update,
    },
    KindRules {
        group: "networking.k8s.io",
        kind: "IPAddress",
        namespaced: false,
        create: ip_address::ip_address,
        update: ip_address::ip_address_update,
    },
];

/// The networking kinds whose status endpoint's rules are here.
pub(crate) static STATUS: &[StatusRules] = &[StatusRules {
    group: "networking.k8s.io",
    kind: "Ingress",
    update: ingress::ingress_status_update,
}];
