use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[serde(rename = "name")]
    first: String,
    #[serde(rename = "name")]
    second: String,
}

fn main() {}
