use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Container {
    name: String,
    port: u16,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge", merge_key = "name", recommended = "name,port")]
    containers: Vec<Container>,
}

fn main() {}
