use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[union(discriminator = "type")]
struct Source {
    r#type: String,
    #[union(member)]
    host_path: Option<String>,
}

fn main() {}
