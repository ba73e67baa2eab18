//! How each resource's objects are deleted: the propagation a DELETE without one gets, whether
//! the deletion is graceful, and whether DELETE answers the deleted object or a `Status`.

/// What happens to an object's dependents when it is deleted without a propagation policy
/// (the strategy's `DefaultGarbageCollectionPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GcPolicy {
    /// The garbage collector deletes them in the background.
    DeleteDependents,
    /// They are orphaned: the object waits with the `orphan` finalizer while the collector
    /// takes its owner references off them.
    OrphanDependents,
    /// The garbage collector finalizers are never added (events).
    Unsupported,
}

/// The default policy of a resource reached through `group`/`version`: Jobs through `batch/v1`
/// and ReplicationControllers through `v1` orphan their pods, for compatibility
/// (`pkg/registry/batch/job/strategy.go`, `pkg/registry/core/replicationcontroller/
/// strategy.go`); events take no part in garbage collection (`pkg/registry/core/event/
/// strategy.go`); everything else, custom resources included, deletes in the background.
pub(crate) fn gc_policy(group: &str, version: &str, plural: &str) -> GcPolicy {
    match (group, version, plural) {
        ("batch", "v1", "jobs") | ("", "v1", "replicationcontrollers") => {
            GcPolicy::OrphanDependents
        }
        ("" | "events.k8s.io", _, "events") => GcPolicy::Unsupported,
        _ => GcPolicy::DeleteDependents,
    }
}

/// Whether a DELETE of the resource that removes the object answers with the object as it was
/// last (the registry's `ReturnDeletedObject`; the OpenAPI document's DELETE response is the
/// kind for these), rather than a `Status`. Namespaces answer with the object too, though the
/// document says `Status`.
pub(crate) fn returns_deleted_object(group: &str, plural: &str) -> bool {
    matches!(
        (group, plural),
        (
            "",
            "pods"
                | "services"
                | "persistentvolumeclaims"
                | "persistentvolumes"
                | "podtemplates"
                | "resourcequotas"
                | "serviceaccounts"
                | "namespaces"
        ) | (
            "storage.k8s.io",
            "csidrivers"
                | "csinodes"
                | "storageclasses"
                | "volumeattachments"
                | "volumeattributesclasses"
        ) | (
            "resource.k8s.io",
            "deviceclasses"
                | "resourceclaims"
                | "resourceclaimtemplates"
                | "resourceslices"
                | "devicetaintrules"
        )
    )
}

/// Whether deleting the resource's objects is graceful (the strategy has
/// `CheckGracefulDelete`): only pods.
pub(crate) fn graceful(group: &str, plural: &str) -> bool {
    group.is_empty() && plural == "pods"
}

/// The warning a DELETE of a Job without a propagation policy gets, since its pods stay
/// (`pkg/registry/batch/job/storage/storage.go`).
pub(crate) const JOB_ORPHAN_WARNING: &str = "child pods are preserved by default when jobs are \
    deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to \
    suppress this warning";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_as_the_strategies_have_them() {
        assert_eq!(gc_policy("batch", "v1", "jobs"), GcPolicy::OrphanDependents);
        assert_eq!(
            gc_policy("", "v1", "replicationcontrollers"),
            GcPolicy::OrphanDependents
        );
        assert_eq!(
            gc_policy("apps", "v1", "deployments"),
            GcPolicy::DeleteDependents
        );
        assert_eq!(
            gc_policy("events.k8s.io", "v1", "events"),
            GcPolicy::Unsupported
        );
        assert!(returns_deleted_object("", "pods"));
        assert!(!returns_deleted_object("apps", "deployments"));
        assert!(graceful("", "pods") && !graceful("", "services"));
    }
}
