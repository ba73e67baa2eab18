use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Port {
    port: u16,
    name: String,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge", merge_key = "port", recommended = "port,protocol")]
    ports: Vec<Port>,
}

fn main() {}
