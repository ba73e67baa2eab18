//! The core group (`v1`): each kind's rules of `pkg/apis/core/validation/validation.go`.

mod config;
mod namespace;

use super::KindRules;

/// The core kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
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
];
