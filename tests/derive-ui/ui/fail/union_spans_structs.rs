use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[union]
struct Source {
    host_path: Option<String>,
    empty_dir: Option<String>,
}

// The discriminator of `Source` would live in this struct: a union may not span structs.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Volume {
    #[union(discriminator)]
    r#type: Option<String>,
    #[serde(flatten)]
    #[union(member)]
    source: Source,
}

fn main() {}
