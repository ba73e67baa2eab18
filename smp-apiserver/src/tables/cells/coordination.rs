//! The coordination.k8s.io group's rows: Leases and LeaseCandidates.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, name};
use crate::tables::duration::Now;
use crate::tables::format::text;

/// A Lease: who holds it.
pub(super) fn lease(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        json!(text(object, "/spec/holderIdentity")),
        age(object, now),
    ]
    .into()
}

/// A LeaseCandidate: the lease it runs for and the versions it offers.
pub(super) fn lease_candidate(object: &Value, now: Now) -> Row {
    let spec = |member: &str| json!(text(object, &format!("/spec/{member}")));
    vec![
        name(object),
        spec("leaseName"),
        spec("binaryVersion"),
        spec("emulationVersion"),
        age(object, now),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn leases() {
        let l = json!({"metadata": {"name": "kube-scheduler", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"holderIdentity": "cp-1_4f2a", "leaseDurationSeconds": 15}});
        assert_eq!(
            lease(&l, now()).cells,
            vec![json!("kube-scheduler"), json!("cp-1_4f2a"), json!("60m")]
        );
        assert_eq!(lease(&json!({}), now()).cells[1], json!(""));
    }

    #[test]
    fn lease_candidates() {
        let c = json!({"metadata": {"name": "kube-scheduler-cp-1", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"leaseName": "kube-scheduler", "binaryVersion": "1.34.1", "emulationVersion": "1.34",
                "strategy": "OldestEmulationVersion"}});
        assert_eq!(
            lease_candidate(&c, now()).cells,
            vec![
                json!("kube-scheduler-cp-1"),
                json!("kube-scheduler"),
                json!("1.34.1"),
                json!("1.34"),
                json!("60m")
            ]
        );
    }
}
