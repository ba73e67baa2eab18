use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[union(discriminator = "type")]
enum Kind {
    #[union]
    Alpha,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[union(membr)]
    a: Option<u32>,
    #[union]
    b: Option<u32>,
    #[union(member, member = "g", discriminated_by = "")]
    c: Option<u32>,
    #[union(member, discriminated_by = "C")]
    d: Option<u32>,
}

fn main() {}
