use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[serde(skip_serializing)]
    a: String,
    #[serde(skip_deserializing)]
    b: String,
    #[serde(rename(serialize = "c1", deserialize = "c2"))]
    c: String,
    #[serde(rename(serialize = "dee"))]
    d: String,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all(serialize = "camelCase"))]
struct Meta {
    owner_refs: Vec<String>,
    name: String,
}

fn main() {}
