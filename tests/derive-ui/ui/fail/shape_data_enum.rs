use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
enum Source {
    Empty,
    HostPath(String),
    Secret { name: String },
}

fn main() {}
