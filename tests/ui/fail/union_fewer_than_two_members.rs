use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[union]
struct Source {
    #[union(discriminator)]
    r#type: Option<String>,
    host_path: Option<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct EnvVar {
    name: String,
    #[union(member)]
    value: Option<String>,
}

fn main() {}
