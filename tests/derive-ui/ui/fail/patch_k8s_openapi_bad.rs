use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    // Two views of one field.
    #[patch(opaque, k8s_openapi)]
    template: k8s_openapi::api::core::v1::PodTemplateSpec,
    #[patch(k8s_openapi = "yes")]
    other: k8s_openapi::api::core::v1::PodSpec,
}

fn main() {}
