use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Inner {
    a: Option<String>,
}

// `spec` gets the builders `spec` and `spec_with`: a field named `spec_with` collides.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Outer {
    spec: Option<Inner>,
    spec_with: Option<String>,
    new: Option<String>,
}

fn main() {}
