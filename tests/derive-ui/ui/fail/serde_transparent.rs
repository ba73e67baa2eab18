use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[serde(transparent)]
struct Name {
    value: String,
}

fn main() {}
