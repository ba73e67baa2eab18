use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(patch_type = "not a name")]
struct Spec {
    a: Option<String>,
}

fn main() {}
