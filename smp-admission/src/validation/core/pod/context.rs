//! What one check gets from the pod around it: the container checks a [`PodContext`], the
//! volume source checks a [`SourceCtx`]. Kept apart from the checks so that the files of one
//! kind of check do not import each other to share them.

use std::collections::BTreeSet;

use super::{PodOptions, Volumes};

/// What the checks of one container need from the pod spec it sits in.
pub(super) struct PodContext<'a> {
    /// `terminationGracePeriodSeconds` as the sleep hook sees it.
    pub grace_period: Option<i64>,
    /// The pod's `restartPolicy`.
    pub restart_policy: &'a str,
    /// The names in `resourceClaims`, which `resources.claims` may refer to.
    pub claim_names: BTreeSet<&'a str>,
    /// False only when the pod sets `hostUsers: false`.
    pub host_users: bool,
    /// `os.name` when `os` is set.
    pub os: Option<&'a str>,
    /// The pod's valid volumes by name.
    pub volumes: &'a Volumes<'a>,
    /// The options of this create or update.
    pub options: &'a PodOptions,
}

/// What a source's check gets: the source object, the path to report under, the volume.
pub(super) struct SourceCtx<'a> {
    /// The volume's name.
    pub volume_name: &'a str,
    /// The pod's name when validating a Pod (generated PVC names depend on it).
    pub pod_name: Option<&'a str>,
    /// The options in force.
    pub options: &'a PodOptions,
}
