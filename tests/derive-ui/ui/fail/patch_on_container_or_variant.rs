use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// On a type, #[patch] takes only `crate = "..."`.
#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(strategy = "merge")]
struct Spec {
    items: Vec<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(crate = "not a path")]
struct BadPath {
    items: Vec<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(crate = "smp_core", crate = "smp_core")]
struct Twice {
    items: Vec<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
enum Phase {
    #[patch(atomic)]
    Pending,
}

fn main() {}
