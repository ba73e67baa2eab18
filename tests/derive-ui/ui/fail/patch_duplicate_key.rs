use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge")]
    #[patch(strategy = "replace")]
    items: Vec<String>,
}

fn main() {}
