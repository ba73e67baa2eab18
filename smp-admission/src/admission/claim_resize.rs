//! PersistentVolumeClaimResize (`plugin/pkg/admission/storage/persistentvolume/resize`): a
//! claim's storage request may grow only once the claim is bound, and only when it keeps a
//! StorageClass that allows volume expansion.

use serde_json::Value;

use super::Cluster;
use crate::quantity::Quantity;

/// The storage request of a claim (zero when absent or not a quantity, as Go's zero
/// `Quantity` compares).
fn storage(claim: &Value) -> Quantity {
    claim
        .pointer("/spec/resources/requests/storage")
        .and_then(Value::as_str)
        .and_then(|s| Quantity::parse(s).ok())
        .unwrap_or(Quantity::ZERO)
}

/// `GetPersistentVolumeClaimClass`: the beta annotation first, then `storageClassName`.
fn class_of(claim: &Value) -> &str {
    let annotation = claim
        .pointer("/metadata/annotations")
        .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"));
    match annotation {
        Some(class) => class.as_str().unwrap_or(""),
        None => claim
            .pointer("/spec/storageClassName")
            .and_then(Value::as_str)
            .unwrap_or(""),
    }
}

/// Why growing `claim` from `old` is refused, if it is.
pub(super) fn validate(claim: &Value, old: &Value, cluster: &dyn Cluster) -> Result<(), String> {
    if !storage(claim).compare(storage(old)).is_gt() {
        return Ok(());
    }
    if old.pointer("/status/phase").and_then(Value::as_str) != Some("Bound") {
        return Err("Only bound persistent volume claims can be expanded".to_owned());
    }
    let class = class_of(claim);
    let allowed = !class.is_empty()
        && class == class_of(old)
        && cluster
            .get("storage.k8s.io/storageclasses", "", class)
            .and_then(|c| c.get("allowVolumeExpansion").and_then(Value::as_bool))
            .unwrap_or(false);
    if allowed {
        Ok(())
    } else {
        Err("only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize".to_owned())
    }
}
