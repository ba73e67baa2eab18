use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(stratgy = "merge")]
    items: Vec<String>,
}

fn main() {}
