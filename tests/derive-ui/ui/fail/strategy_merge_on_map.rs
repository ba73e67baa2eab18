use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge")]
    labels: std::collections::BTreeMap<String, String>,
}

fn main() {}
