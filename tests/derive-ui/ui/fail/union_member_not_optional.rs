use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[union]
struct Source {
    host_path: Option<String>,
    empty_dir: String,
}

fn main() {}
