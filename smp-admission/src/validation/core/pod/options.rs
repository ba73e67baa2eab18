//! `PodValidationOptions` and how the pod strategy fills them
//! (`GetValidationOptionsFromPodSpecAndMeta`): a create gets the feature-gate defaults of
//! v1.34; an update keeps accepting what the old object already holds, so that an object the
//! server once stored can still be updated.

use serde_json::Value;

use super::{paths, scheduling, topology};
use crate::validation::meta::{LabelSelectorOptions, validate_label_selector};
use crate::validation::names;
use crate::validation::read;

/// The options a create or update passes to pod validation (`PodValidationOptions`). The
/// `Default` is what a create of v1.34 passes with default feature gates for an embedded pod
/// template (`resource_is_pod` false); [`PodOptions::for_pod`] sets it for a Pod.
#[derive(Debug, Clone)]
pub(crate) struct PodOptions {
    /// An invalid `controller.kubernetes.io/pod-deletion-cost` is let through (old one was bad).
    pub allow_invalid_pod_deletion_cost: bool,
    /// Label values in pod (anti-)affinity selectors are not checked.
    pub allow_invalid_label_value_in_selector: bool,
    /// Hugepage quantities need not be multiples of the page size.
    pub allow_indivisible_huge_pages_values: bool,
    /// A topology spread constraint's `labelSelector` is not checked.
    pub allow_invalid_topology_spread_constraint_label_selector: bool,
    /// A service account token projection may use any path.
    pub allow_non_local_projected_token_path: bool,
    /// Namespaced sysctls are allowed with `hostNetwork`/`hostIPC`.
    pub allow_namespaced_sysctls_for_host_net_and_host_ipc: bool,
    /// The object validated is a Pod, not a template embedded in another object.
    pub resource_is_pod: bool,
    /// Environment variable names may be any printable ASCII but `=` (GA in v1.34).
    pub allow_relaxed_environment_variable_validation: bool,
    /// DNS search domains may hold `_` and be `.` (GA in v1.34).
    pub allow_relaxed_dns_search_validation: bool,
    /// A lifecycle sleep of zero seconds is allowed (GA in v1.34).
    pub allow_pod_lifecycle_sleep_action_zero_value: bool,
    /// Only `Recursive` is accepted as `seLinuxChangePolicy` (SELinuxMount is off in v1.34).
    pub allow_only_recursive_selinux_change_policy: bool,
    /// `spec.resources` is validated (PodLevelResources, beta and on in v1.34).
    pub pod_level_resources: bool,
    /// Restartable init containers may have a resize policy.
    pub allow_sidecar_resize_policy: bool,
    /// Label values in required node affinity are not checked.
    pub allow_invalid_label_value_in_required_node_affinity: bool,
    /// `matchLabelKeys` of topology spread constraints are accepted (beta, on).
    pub allow_match_label_keys_in_pod_topology_spread: bool,
    /// `matchLabelKeys` are merged into the selector server-side (beta, on, new in v1.34).
    pub allow_match_label_keys_in_pod_topology_spread_selector_merge: bool,
    /// The old pod fails the v1.34 `matchLabelKeys` rules, so the older rules apply.
    pub old_pod_violates_match_label_keys_validation: bool,
    /// The old pod fails the pre-v1.34 `matchLabelKeys` rules.
    pub old_pod_violates_legacy_match_label_keys_validation: bool,
    /// Environment variables may come from files (EnvFiles, alpha, off).
    pub allow_env_files_validation: bool,
    /// Containers may have restart policy rules (ContainerRestartRules, alpha, off).
    pub allow_container_restart_policy_rules: bool,
    /// `hostUsers: false` is allowed together with volume devices (the old pod had both).
    pub allow_user_namespaces_with_volume_devices: bool,
    /// The server runs with `--allow-privileged=true`: kube-apiserver's binary defaults to
    /// false, but kubeadm and kind (the clusters tests run on) pass true, and so does this.
    pub allow_privileged: bool,
}

impl Default for PodOptions {
    fn default() -> Self {
        PodOptions {
            allow_invalid_pod_deletion_cost: false,
            allow_invalid_label_value_in_selector: false,
            allow_indivisible_huge_pages_values: false,
            allow_invalid_topology_spread_constraint_label_selector: false,
            allow_non_local_projected_token_path: false,
            allow_namespaced_sysctls_for_host_net_and_host_ipc: false,
            resource_is_pod: false,
            allow_relaxed_environment_variable_validation: true,
            allow_relaxed_dns_search_validation: true,
            allow_pod_lifecycle_sleep_action_zero_value: true,
            allow_only_recursive_selinux_change_policy: true,
            pod_level_resources: true,
            allow_sidecar_resize_policy: true,
            allow_invalid_label_value_in_required_node_affinity: false,
            allow_match_label_keys_in_pod_topology_spread: true,
            allow_match_label_keys_in_pod_topology_spread_selector_merge: true,
            old_pod_violates_match_label_keys_validation: false,
            old_pod_violates_legacy_match_label_keys_validation: false,
            allow_env_files_validation: false,
            allow_container_restart_policy_rules: false,
            allow_user_namespaces_with_volume_devices: false,
            allow_privileged: true,
        }
    }
}

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

/// Whether a label value passes `IsValidLabelValue` (shared by the old-object probes).
pub(super) fn is_label_value(value: &str) -> bool {
    names::is_valid_label_value(value).is_empty()
}
