//! How the pod strategy fills the options (`GetValidationOptionsFromPodSpecAndMeta`,
//! `GetValidationOptionsFromPodTemplate`): a create gets the feature-gate defaults of v1.34;
//! an update keeps accepting what the old object already holds, so that an object the server
//! once stored can still be updated. It asks the checks' own probes (`scheduling`,
//! `topology`, `annotations`...) whether the old object uses a relaxed form.

use serde_json::Value;

use super::{PodOptions, paths, scheduling, topology};
use crate::validation::meta::{LabelSelectorOptions, validate_label_selector};
use crate::validation::read;

impl PodOptions {
    /// The options of a Pod's create (`old_spec` absent) or update.
    pub(crate) fn for_pod(old_spec: Option<&Value>, old_meta: Option<&Value>) -> PodOptions {
        let mut options = PodOptions::for_template(old_spec, old_meta);
        options.resource_is_pod = true;
        options
    }

    /// The options for a pod template (`GetValidationOptionsFromPodTemplate`): `old_spec` and
    /// `old_meta` are the old template's spec and metadata on an update.
    pub(crate) fn for_template(old_spec: Option<&Value>, old_meta: Option<&Value>) -> PodOptions {
        let mut options = PodOptions::default();
        if let Some(old) = old_spec.filter(|s| s.is_object()) {
            options.relax_for_old_spec(old);
        }
        if let Some(meta) = old_meta {
            let cost = meta
                .get("annotations")
                .and_then(|a| a.get(super::annotations::DELETION_COST));
            if let Some(cost) = cost {
                options.allow_invalid_pod_deletion_cost =
                    !super::annotations::is_deletion_cost(cost.as_str().unwrap_or(""));
            }
        }
        options
    }

    fn relax_for_old_spec(&mut self, old: &Value) {
        super::container_gates::relax_for_old_spec(self, old);
        self.allow_invalid_label_value_in_selector = scheduling::has_invalid_affinity_selector(old);
        self.allow_invalid_label_value_in_required_node_affinity =
            scheduling::has_invalid_required_node_affinity_value(old);
        let constraints = read::list(old, "topologySpreadConstraints");
        self.allow_invalid_topology_spread_constraint_label_selector =
            constraints.iter().any(|c| {
                let mut errs = Vec::new();
                validate_label_selector(
                    c.get("labelSelector"),
                    LabelSelectorOptions::default(),
                    &crate::validation::field::Path::new(""),
                    &mut errs,
                );
                !errs.is_empty()
            });
        self.old_pod_violates_match_label_keys_validation = constraints
            .iter()
            .any(topology::violates_match_label_keys_rules);
        self.allow_non_local_projected_token_path = has_non_local_token_path(old);
        self.allow_namespaced_sysctls_for_host_net_and_host_ipc =
            super::security::has_host_namespaced_sysctl(old);
        if old
            .get("securityContext")
            .is_some_and(|sc| read::is_set(sc, "seLinuxChangePolicy"))
        {
            self.allow_only_recursive_selinux_change_policy = false;
        }
        self.allow_user_namespaces_with_volume_devices =
            read::opt_bool(old, "hostUsers") == Some(false) && any_volume_devices(old);
    }
}

fn has_non_local_token_path(spec: &Value) -> bool {
    read::list(spec, "volumes").iter().any(|v| {
        v.get("projected").is_some_and(|p| {
            read::list(p, "sources").iter().any(|s| {
                s.get("serviceAccountToken")
                    .filter(|t| t.is_object())
                    .is_some_and(|t| !paths::is_local_non_reserved(read::text(t, "path")))
            })
        })
    })
}

fn any_volume_devices(spec: &Value) -> bool {
    ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|list| read::list(spec, list))
        .any(|c| !read::list(c, "volumeDevices").is_empty())
}
