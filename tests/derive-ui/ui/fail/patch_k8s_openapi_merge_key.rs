use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    // The merge key must be a field of the counterpart (smp-types' Container).
    #[patch(k8s_openapi, strategy = "merge", merge_key = "nom")]
    sidecars: Vec<k8s_openapi::api::core::v1::Container>,
}

fn main() {}
