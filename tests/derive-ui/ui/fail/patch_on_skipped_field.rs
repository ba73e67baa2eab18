use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[serde(skip)]
    #[patch(strategy = "merge")]
    cache: Vec<String>,
}

fn main() {}
