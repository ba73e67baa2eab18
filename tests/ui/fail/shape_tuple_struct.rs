use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Quantity(String);

fn main() {}
