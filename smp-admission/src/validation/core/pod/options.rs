//! `PodValidationOptions`: what every pod check may read, with the defaults a create of v1.34
//! passes. How an update derives them from the old object is in `relaxed_options.rs`, above
//! the checks whose probes it uses.

use crate::validation::names;

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

/// Whether a label value passes `IsValidLabelValue` (shared by the old-object probes).
pub(super) fn is_label_value(value: &str) -> bool {
    names::is_valid_label_value(value).is_empty()
}
