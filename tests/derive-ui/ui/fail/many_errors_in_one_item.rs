use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Container {
    name: String,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge", merge_key = "name", atomic)]
    containers: Vec<Container>,
    #[patch(strategy = "bogus")]
    replicas: i32,
    #[patch(merge_key = "name")]
    finalizers: Vec<String>,
    #[patch(strategy = "retainKeys", recommended = "a")]
    image: String,
    #[serde(skip_serializing)]
    #[patch(stratgy = "merge")]
    value: serde_json::Value,
}

fn main() {}
