use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// One member and no discriminator: nothing to choose between.
#[derive(Serialize, Deserialize, StrategicMerge)]
#[union]
struct Source {
    host_path: Option<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct EnvVar {
    name: String,
    #[union(member)]
    value: Option<String>,
}

// A discriminator and one member is a union (the discriminator may select nothing, as
// DeploymentStrategy's `Recreate` does): no error here.
#[derive(Serialize, Deserialize, StrategicMerge)]
#[union]
struct Strategy {
    #[union(discriminator)]
    r#type: Option<String>,
    rolling_update: Option<String>,
}

fn main() {}
