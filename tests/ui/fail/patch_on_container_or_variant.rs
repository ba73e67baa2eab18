use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(strategy = "merge")]
struct Spec {
    items: Vec<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
enum Phase {
    #[patch(atomic)]
    Pending,
}

fn main() {}
