use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Strategy {
    #[union(discriminator)]
    r#type: Option<String>,
    rolling_update: Option<u32>,
}

fn main() {}
