use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Port {
    name: String,
    port: u16,
    protocol: String,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    // The merge key must come first: old servers identify items by it.
    #[patch(strategy = "merge", merge_key = "port", recommended = "protocol,port")]
    ports: Vec<Port>,
    // A key listed twice.
    #[patch(strategy = "merge", merge_key = "port", recommended = "port,protocol,port")]
    twice: Vec<Port>,
    // An empty name.
    #[patch(strategy = "merge", merge_key = "port", recommended = "port,,protocol")]
    empty: Vec<Port>,
    // Not a list of structs.
    #[patch(recommended = "port")]
    scalar: String,
    // Not a string.
    #[patch(recommended = 7)]
    number: Vec<Port>,
}

fn main() {}
