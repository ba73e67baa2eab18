use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
enum Phase {
    Pending,
    Running,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Status {
    #[patch(strategy = "merge")]
    phase: Phase,
}

fn main() {}
