use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// A plain serde enum: it needs #[derive(StrategicMerge)] too.
#[derive(Serialize, Deserialize)]
enum Phase {
    Pending,
    Running,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Status {
    phase: Phase,
}

fn main() {}
