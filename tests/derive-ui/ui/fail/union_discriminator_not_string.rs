use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[union]
struct Strategy {
    #[union(discriminator)]
    r#type: Option<u32>,
    rolling_update: Option<u32>,
    recreate: Option<u32>,
}

fn main() {}
