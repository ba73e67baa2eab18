use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch]
    a: Vec<String>,
    #[patch(strategy)]
    b: Vec<String>,
    #[patch(strategy = merge)]
    c: Vec<String>,
    #[patch(atomic = true)]
    d: Vec<String>,
    #[patch(merge_key = "")]
    e: Vec<String>,
    #[patch(strategy = "merge" merge_key = "name")]
    f: Vec<String>,
}

fn main() {}
