use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// The patch type holds what the patch says of the object itself in a field `directive`.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Rule {
    directive: Option<String>,
}

fn main() {}
