use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// Patched types own their data: no lifetimes.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Borrowed<'a> {
    name: std::borrow::Cow<'a, str>,
}

// Type parameters on structs with named fields only.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Wrapper<T>(T);

fn main() {}
