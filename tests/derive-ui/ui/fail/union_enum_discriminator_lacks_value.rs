use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
enum Kind {
    Alpha,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Union2 {
    #[union(discriminator)]
    r#type: Option<Kind>,
    #[union(member)]
    alpha: Option<u32>,
    #[union(member, discriminated_by = "Gamma")]
    beta: Option<u32>,
}

fn main() {}
