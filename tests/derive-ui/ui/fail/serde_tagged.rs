use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[serde(tag = "kind")]
struct Tagged {
    name: String,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
#[serde(untagged)]
enum Untagged {
    A,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A,
}

fn main() {}
