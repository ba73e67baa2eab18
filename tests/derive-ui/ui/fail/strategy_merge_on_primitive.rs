use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge")]
    name: Option<Box<String>>,
}

fn main() {}
