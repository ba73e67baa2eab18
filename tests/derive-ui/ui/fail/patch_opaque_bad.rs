use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    // Opaque fields are replaced whole: no strategy, key or atomic beside it.
    #[patch(opaque, strategy = "merge", merge_key = "name")]
    items: Vec<std::net::IpAddr>,
    #[patch(opaque, atomic)]
    when: std::time::SystemTime,
    #[patch(opaque = "yes")]
    other: std::time::SystemTime,
}

fn main() {}
