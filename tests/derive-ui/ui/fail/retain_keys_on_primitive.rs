use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "retainKeys")]
    name: String,
}

fn main() {}
