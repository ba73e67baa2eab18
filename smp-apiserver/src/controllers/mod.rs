//! The work of kube-controller-manager's controllers that clients of an API server see on any
//! cluster, done after every request that wrote, before its answer goes out (on a cluster, a
//! moment later): the garbage collector ([`garbagecollector`]), the service account and root CA
//! publishers that give every namespace its `default` ServiceAccount and `kube-root-ca.crt`
//! ConfigMap ([`namespaced`]), and the aggregation of ClusterRoles ([`aggregation`]). The
//! namespace controller's work is done in the request itself (`handlers/namespaces.rs`).
//!
//! They follow the store's writes in rounds: each round's writes go to every controller, and
//! what they write makes the next round, until a round writes nothing.

pub(crate) mod aggregation;
pub(crate) mod garbagecollector;
pub(crate) mod namespaced;

use crate::state::State;

/// The user agent of the controllers' requests (their field manager is
/// `kube-controller-manager`).
pub(crate) const CONTROLLER_MANAGER: &str =
    "kube-controller-manager/v1.34.0 (linux/amd64) kubernetes/smp";
/// The garbage collector's.
pub(crate) const GARBAGE_COLLECTOR: &str =
    "kube-controller-manager/v1.34.0 (linux/amd64) kubernetes/smp/generic-garbage-collector";

/// Does the controllers' work on the writes since they last ran. One caller at a time; a
/// request that finds them running waits, so that its own writes are dealt with before it
/// answers.
pub(crate) fn settle(state: &State) {
    let _one_at_a_time = state.controllers.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let changes = state.store.take_changes();
        if changes.is_empty() {
            return;
        }
        garbagecollector::round(state, &changes);
        namespaced::round(state, &changes);
        aggregation::round(state, &changes);
        release_service_addresses(state, &changes);
    }
}

/// The IP allocator's side of a Service's deletion: its IPAddress objects go with it.
fn release_service_addresses(state: &State, changes: &[std::sync::Arc<crate::store::Event>]) {
    for event in changes {
        if event.key.resource == "/services" && event.kind == crate::store::EventType::Deleted {
            crate::registry::services::release(
                state,
                &event.object,
                &event.key.namespace,
                &event.key.name,
            );
        }
    }
}
