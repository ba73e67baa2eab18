use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
struct Port {
    container_port: u16,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Container {
    #[patch(strategy = "merge", merge_key = "container_port")]
    ports: Option<Vec<Box<Port>>>,
}

fn main() {}
