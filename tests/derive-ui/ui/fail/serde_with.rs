use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

mod as_string {
    pub fn serialize<S: serde::Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[serde(with = "as_string")]
    a: u32,
    #[serde(serialize_with = "as_string::serialize")]
    b: u32,
    #[serde(deserialize_with = "as_string::deserialize")]
    c: u32,
}

fn main() {}
