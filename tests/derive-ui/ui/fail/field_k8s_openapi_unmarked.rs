use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// A k8s-openapi field without #[patch(k8s_openapi)]: the error says what to add.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    template: k8s_openapi::api::core::v1::PodTemplateSpec,
}

fn main() {}
