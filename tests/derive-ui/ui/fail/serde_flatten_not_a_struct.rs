use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Meta {
    name: String,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[serde(flatten)]
    meta: Option<Meta>,
    #[serde(flatten)]
    extra: std::collections::BTreeMap<String, serde_json::Value>,
}

fn main() {}
