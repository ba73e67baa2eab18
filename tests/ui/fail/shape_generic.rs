use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct List<T> {
    items: Vec<T>,
}

fn main() {}
