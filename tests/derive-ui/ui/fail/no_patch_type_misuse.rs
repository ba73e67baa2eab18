use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// `no_patch_type` and a name for the patch type: one of them is a mistake.
#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(no_patch_type, patch_type = "SpecChange")]
struct Spec {
    a: Option<String>,
}

// An enum's patch is its value: there is no patch type to leave out.
#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(no_patch_type)]
enum Phase {
    Running,
}

// A flag takes no value.
#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(no_patch_type = true)]
struct Other {
    a: Option<String>,
}

fn main() {}
