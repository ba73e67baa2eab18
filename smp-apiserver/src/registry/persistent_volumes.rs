//! What the PersistentVolume strategies stamp with the server's clock, which
//! `smp_admission::strategy` (clockless) leaves to the server: the time of the volume's last
//! phase change (`status.lastPhaseTransitionTime`, kubernetes `pkg/registry/core/
//! persistentvolume/strategy.go`; its gate is GA and gone in v1.34).

use serde_json::{Value, json};

fn is_volume(object: &Value) -> bool {
    object.get("apiVersion").and_then(Value::as_str) == Some("v1")
        && object.get("kind").and_then(Value::as_str) == Some("PersistentVolume")
}

/// A new volume entered its first phase (`Pending`) now.
pub(crate) fn stamp_on_create(object: &mut Value, now: &str) {
    if !is_volume(object) {
        return;
    }
    if let Some(status) = object.get_mut("status").and_then(Value::as_object_mut) {
        status.insert("lastPhaseTransitionTime".to_owned(), json!(now));
    }
}

/// A status write that changes the phase stamps the change now, unless the writer gave a time
/// of its own (one that differs from the old).
pub(crate) fn stamp_on_status_update(new: &mut Value, old: &Value, now: &str) {
    if !is_volume(new) {
        return;
    }
    let at = |v: &Value, key: &str| v.pointer(&format!("/status/{key}")).cloned();
    let phase_changed = at(new, "phase") != at(old, "phase");
    let time = at(new, "lastPhaseTransitionTime").filter(|t| !t.is_null());
    let given = time.is_some() && time != at(old, "lastPhaseTransitionTime");
    if !phase_changed || given {
        return;
    }
    if let Some(status) = new.get_mut("status").and_then(Value::as_object_mut) {
        status.insert("lastPhaseTransitionTime".to_owned(), json!(now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_change_is_stamped_unless_the_writer_stamped_it() {
        let old = json!({"apiVersion": "v1", "kind": "PersistentVolume",
            "status": {"phase": "Pending", "lastPhaseTransitionTime": "2026-11-29T00:00:00Z"}});
        let mut bound = json!({"apiVersion": "v1", "kind": "PersistentVolume",
            "status": {"phase": "Bound", "lastPhaseTransitionTime": "2026-11-29T00:00:00Z"}});
        stamp_on_status_update(&mut bound, &old, "2026-11-29T01:00:00Z");
        assert_eq!(
            bound["status"]["lastPhaseTransitionTime"],
            "2026-11-29T01:00:00Z"
        );
        let mut given = json!({"apiVersion": "v1", "kind": "PersistentVolume",
            "status": {"phase": "Bound", "lastPhaseTransitionTime": "2026-11-29T00:30:00Z"}});
        stamp_on_status_update(&mut given, &old, "2026-11-29T01:00:00Z");
        assert_eq!(
            given["status"]["lastPhaseTransitionTime"],
            "2026-11-29T00:30:00Z"
        );
        let mut same = old.clone();
        stamp_on_status_update(&mut same, &old, "2026-11-29T01:00:00Z");
        assert_eq!(same, old);
    }
}
